"""File mode and database mode give the same numbers on the same data (issue 10).

A random campaign is built in a real DuckDB file (paragraphs with distinct texts, runs
with tied and float32-equal scores, one annotator's grades 0–2 on part of the pool);
its qrels are exported as TREC and evaluated with `reljudge evaluate --qrels` on the
same run files.  Every per-question value and every mean must match, under each tie rule.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
import uuid
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypothesis_profiles import examples

from reljudge.campaign import auth
from reljudge.cli import main as cli
from reljudge.storage import judgments as store
from test_ranking_rules import make_campaign

MEASURES = ["RR(rel=2)@10", "nDCG@10", "R(rel=2)@5", "P(rel=1)@3", "RR(rel=1)@3", "nDCG@3"]
PIDS = [f"p{i:02d}" for i in range(12)]
# 0.5 and 0.50000001 are one float32 (trec9 ties them) but two doubles (trec10 does not)
SCORES = [0.5, 0.50000001, 0.25, 1.0, 1e-3, 2.5]


@st.composite
def campaigns(draw):
    qids = [f"q{i}" for i in range(draw(st.integers(1, 4)))]
    systems = [f"sys{i}" for i in range(draw(st.integers(1, 3)))]
    runs = {}
    for s in systems:
        lines = []
        for q in qids:
            if draw(st.booleans()) and len(qids) > 1 and q != qids[0]:
                continue  # a question missing from this run
            picked = draw(st.lists(st.sampled_from(PIDS), min_size=1, max_size=8, unique=True))
            for rank, p in enumerate(picked, 1):
                lines.append(f"{q} Q0 {p} {rank} {draw(st.sampled_from(SCORES))!r} {s}")
        runs[s] = lines
    returned = sorted({(line.split()[0], line.split()[2]) for lines in runs.values() for line in lines})
    # mostly paragraphs the runs returned (judgeable once pooled), a few never returned
    pairs = (
        st.one_of(st.sampled_from(returned), st.tuples(st.sampled_from(qids), st.sampled_from(PIDS)))
        if returned
        else st.tuples(st.sampled_from(qids), st.sampled_from(PIDS))
    )
    grades = draw(st.dictionaries(pairs, st.integers(0, 2), min_size=1, max_size=30))
    return qids, runs, grades


def _cli(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    assert code == 0, err.getvalue()
    return out.getvalue()


def _values(tsv: str) -> dict[tuple[str, str, str], str]:
    return {
        tuple(line.split("\t")[:3]): line.split("\t")[3]
        for line in tsv.splitlines()
        if line and not line.startswith("#")
    }


def _build(folder: Path, qids, runs, grades, ties: str):
    lines = [line for s in runs.values() for line in s]
    db = make_campaign(folder, {p: f"서로 다른 문단 {p}" for p in PIDS}, lines, qids=qids, ties=ties, depth=10)
    try:
        pooled = set(db.cursor().execute("SELECT qid, pid FROM pool").fetchall())
        auth.add_user(db, "a0", "a-long-password", "annotator")
        rows = [
            {
                "client_event_id": str(uuid.uuid4()),
                "qid": q,
                "pid": p,
                "grade": g,
                "no_answer": None,
                "note": None,
                "evidence": None,
                "time_spent_ms": 1000,
                "client_id": None,
                "base_event_id": None,
            }
            for (q, p), g in sorted(grades.items())
            if (q, p) in pooled
        ]
        if rows:
            store.append_event_batches(db, [("a0", rows, True)])
    finally:
        db.close()
    return folder / "campaign.duckdb", [str(folder / f"{s}.trec") for s in runs], len(rows)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=campaigns(), ties=st.sampled_from(["trec10", "trec9", "ranked"]))
def test_file_mode_equals_database_mode(data, ties):
    qids, runs, grades = data
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db_path, run_files, n_judged = _build(folder, qids, runs, grades, ties)
        if not n_judged:
            return
        qrels = folder / "qrels.txt"
        _cli(["--db", str(db_path), "export", "qrels", "-o", str(qrels)])
        if not qrels.read_text(encoding="utf-8").strip():
            return
        measures = ["-m", *MEASURES]
        in_db_all = _values(_cli(["--db", str(db_path), "evaluate", *measures, "-q", "--ties", ties]))
        # a pooled question nobody has judged is listed for its bounds, with no value (nan):
        # it is in no qrels file, so file mode has nothing to say of it
        judged_q = {line.split()[0] for line in qrels.read_text(encoding="utf-8").splitlines() if line.strip()}
        assert {k[2] for k, v in in_db_all.items() if v == "nan" and k[2] != "all"} <= set(qids) - judged_q
        in_db = {k: v for k, v in in_db_all.items() if not (v == "nan" and k[2] != "all")}
        in_files = _values(_cli(["evaluate", "--qrels", str(qrels), *run_files, *measures, "-q", "-c", "--ties", ties]))
        # database mode reports every question with judgments, file mode every qrels query:
        # the same set, since the qrels file holds exactly the judged questions
        assert in_files == in_db
