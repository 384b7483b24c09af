"""One ranking rule for pool, question detail, adjudication queue and metrics (issue 10).

Regression tests for the defects found in review, on real DuckDB files; values are
checked against pytrec-eval-terrier where trec_eval defines them.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypothesis_profiles import examples

from reljudge.campaign import adjudication
from reljudge.campaign import setup as campaign
from reljudge.reporting import dashboard
from reljudge.campaign import evaluation
from reljudge.campaign import judging
from reljudge.campaign.importers import text_key
from reljudge.storage import catalog, open_database


def make_campaign(
    folder: Path,
    paragraphs: dict[str, str],
    run_lines: list[str],
    qids=("h1",),
    ties: str = "trec9",
    ks: str = "1,3,5,10",
    depth: int = 10,
):
    """A campaign in a fresh DuckDB file: ``paragraphs`` pid -> text, one TREC run
    (``qid Q0 pid rank score tag`` lines), pooled at ``depth`` under ``ties``."""
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus.jsonl"
    corpus.write_text(
        "".join(json.dumps({"pid": p, "text": t}, ensure_ascii=False) + "\n" for p, t in paragraphs.items()),
        encoding="utf-8",
    )
    questions = folder / "questions.jsonl"
    questions.write_text(
        "".join(
            json.dumps(
                {"qid": q, "text": f"질문 {q}", "type": "사실 확인", "criteria": "직접 근거"}, ensure_ascii=False
            )
            + "\n"
            for q in qids
        ),
        encoding="utf-8",
    )
    runs = {}
    for line in run_lines:
        runs.setdefault(line.split()[5], []).append(line)
    db = open_database(folder / "campaign.duckdb")
    campaign.import_file(db, "corpus", corpus)
    campaign.import_file(db, "questions", questions)
    catalog.set_setting(db, "ties", ties)
    catalog.set_setting(db, "ks", ks)
    for tag, lines in runs.items():
        path = folder / f"{tag}.trec"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        campaign.import_file(db, "run", path)
    campaign.pool(db, depth)
    return db


def pool_of(db, qid):
    return {r[0] for r in db.cursor().execute("SELECT pid FROM pool WHERE qid = ?", [qid]).fetchall()}


def trec_eval(qrels: dict, run: dict, measures: set[str]) -> dict:
    return pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=2).evaluate(run)


# -- defect 1: --dedup keep gave values above 1 --------------------------------------

DUP_TEXTS = {
    "p001": "감사는 받은 것을 헤아리는 데서 시작됩니다.",
    "p002": "용서는 나를 살리는 일입니다.",
    "p007": "감사는, 받은 것을  헤아리는 데서 시작됩니다!",  # same normalised text as p001
}
DUP_RUN = ["h1 Q0 p001 1 9 dup", "h1 Q0 p007 2 8 dup", "h1 Q0 p002 3 7 dup"]


@pytest.fixture
def dup_campaign(tmp_path):
    db = make_campaign(tmp_path / "dup", DUP_TEXTS, DUP_RUN)
    assert pool_of(db, "h1") == {"p001", "p002"}  # one pool item for both copies
    judging.grade(db, "ann", "h1", "p001", 2)  # the group's grade: p001 and p007
    yield db
    db.close()


def test_dedup_keep_is_trec_eval_on_raw_ids_with_each_copy_carrying_its_group_grade(dup_campaign):
    ev = evaluation.evaluate_campaign(
        dup_campaign, ["nDCG@10", "R(rel=2)@10", "P(rel=2)@3", "RR(rel=2)@10"], dedup="keep", n_boot=0, n_perm=0
    )
    got = ev.result.per_query.set_index("measure").value
    want = trec_eval(
        {"h1": {"p001": 2, "p007": 2}},
        {"h1": {"p001": 9.0, "p007": 8.0, "p002": 7.0}},
        {"ndcg_cut.10", "recall.10", "P.3", "recip_rank"},
    )["h1"]
    assert got["nDCG@10"] == pytest.approx(want["ndcg_cut_10"]) == pytest.approx(1.0)
    assert got["R(rel=2)@10"] == pytest.approx(want["recall_10"]) == pytest.approx(1.0)
    assert got["P(rel=2)@3"] == pytest.approx(want["P_3"]) == pytest.approx(2 / 3)
    assert got["RR(rel=2)@10"] == want["recip_rank"] == 1.0


def test_dedup_keep_counts_a_copy_nobody_retrieved_in_the_recall_base(tmp_path):
    # keep = trec_eval on raw ids: a judged group's every copy is a relevant document,
    # so a system returning one of two copies has found half of them
    db = make_campaign(tmp_path / "c", DUP_TEXTS, ["h1 Q0 p001 1 9 one", "h1 Q0 p002 2 7 one"])
    judging.grade(db, "ann", "h1", "p001", 2)
    keep = evaluation.evaluate_campaign(db, ["nDCG@10", "R(rel=2)@10"], dedup="keep", n_boot=0, n_perm=0)
    first = evaluation.evaluate_campaign(db, ["nDCG@10", "R(rel=2)@10"], dedup="first", n_boot=0, n_perm=0)
    want = trec_eval({"h1": {"p001": 2, "p007": 2}}, {"h1": {"p001": 9.0, "p002": 7.0}}, {"ndcg_cut.10", "recall.10"})[
        "h1"
    ]
    got = keep.result.per_query.set_index("measure").value
    assert got["R(rel=2)@10"] == pytest.approx(want["recall_10"]) == 0.5
    assert got["nDCG@10"] == pytest.approx(want["ndcg_cut_10"])
    assert first.result.per_query.set_index("measure").value.tolist() == [1.0, 1.0]
    db.close()


def test_dedup_keep_on_the_command_line_stays_within_one(dup_campaign, capsys):
    from reljudge.cli import main as cli

    path = dup_campaign.path
    dup_campaign.close()
    assert (
        cli.main(["--db", str(path), "evaluate", "--dedup", "keep", "-m", "nDCG@10", "R(rel=2)@10", "--per-query"]) == 0
    )
    values = {
        tuple(line.split("\t")[1:3]): float(line.split("\t")[3])
        for line in capsys.readouterr().out.splitlines()
        if not line.startswith("#")
    }
    assert values[("nDCG@10", "h1")] == pytest.approx(1.0) and values[("R(rel=2)@10", "h1")] == 1.0


def test_dedup_first_collapses_copies_and_ranks_close_up(dup_campaign):
    ev = evaluation.evaluate_campaign(
        dup_campaign, ["nDCG@10", "R(rel=2)@10", "P(rel=2)@2"], dedup="first", n_boot=0, n_perm=0
    )
    got = ev.result.per_query.set_index("measure").value
    # one item p001 (rank 1), then p002 (rank 2): trec_eval on the collapsed run
    want = trec_eval({"h1": {"p001": 2}}, {"h1": {"p001": 9.0, "p002": 7.0}}, {"ndcg_cut.10", "recall.10", "P.2"})["h1"]
    assert got["nDCG@10"] == pytest.approx(want["ndcg_cut_10"]) and got["R(rel=2)@10"] == want["recall_10"]
    assert got["P(rel=2)@2"] == want["P_2"] == 0.5


# -- defect 2: pool and evaluation broke score ties differently ------------------------


def _tie_campaign(folder: Path, ties: str = "trec9"):
    texts = {f"p{i:02d}": f"문단 {i}번 본문 {'가' * i}" for i in range(1, 10)}
    texts |= {"pA": "문단 A 본문", "pB": "문단 B 본문"}
    lines = [f"h1 Q0 p{i:02d} {i} {10 - i} s" for i in range(1, 10)]
    # 0.500000001 and 0.5 are equal in float32: trec_eval breaks the tie by id, pB > pA
    lines += ["h1 Q0 pA 10 0.500000001 s", "h1 Q0 pB 11 0.5 s"]
    return make_campaign(folder, texts, lines, depth=10, ties=ties)


def test_pool_ranks_float32_ties_as_the_evaluation_does(tmp_path):
    db = _tie_campaign(tmp_path / "t")
    assert "pB" in pool_of(db, "h1") and "pA" not in pool_of(db, "h1")
    judging.grade(db, "ann", "h1", "pB", 2)
    ev = evaluation.evaluate_campaign(db, ["RR@10", "Judged@10"], n_boot=0, n_perm=0)
    got = ev.result.per_query.set_index("measure").value
    assert got["RR(rel=2)@10"] == pytest.approx(0.1)
    detail = dashboard.question_detail(db, ev, "h1", 10)
    assert detail.set_index("rank").loc[10, "pid"] == "pB" and detail.set_index("rank").loc[10, "grade"] == 2
    db.close()


@pytest.mark.parametrize("ties", ["trec10", "trec"])
def test_pool_and_evaluation_compare_doubles_under_trec10(tmp_path, ties):
    # trec_eval 10 compares doubles: 0.500000001 > 0.5, so pA is 10th and pB 11th
    db = _tie_campaign(tmp_path / "t", ties=ties)
    assert "pA" in pool_of(db, "h1") and "pB" not in pool_of(db, "h1")
    judging.grade(db, "ann", "h1", "pA", 2)
    ev = evaluation.evaluate_campaign(db, ["RR@10"], n_boot=0, n_perm=0)
    assert ev.result.policies["ties"] == "trec10"
    assert ev.result.per_query.set_index("measure").value["RR(rel=2)@10"] == pytest.approx(0.1)
    detail = dashboard.question_detail(db, ev, "h1", 10)
    assert detail.set_index("rank").loc[10, "pid"] == "pA"
    db.close()


# -- defect 3: the adjudication queue ignored the campaign's tie rule -----------------


def test_queue_follows_the_campaigns_tie_rule(tmp_path):
    texts = {"pX": "첫째 문단", "pY": "둘째 문단"}
    # as ranked: pX first; by score: pY first
    db = make_campaign(tmp_path / "r", texts, ["h1 Q0 pX 1 1.0 s", "h1 Q0 pY 2 5.0 s"], ties="ranked")
    for who, grade in (("ann", 2), ("bob", 2)):
        judging.grade(db, who, "h1", "pY", grade)
    judging.grade(db, "ann", "h1", "pX", 2)
    judging.grade(db, "bob", "h1", "pX", 0)
    queue = adjudication.queue(db, k=10).set_index("pid")
    assert bool(queue.loc["pX", "changes_first"])  # it decides RR@10: 1.0 or 0.5
    rr = {}
    for grade in (2, 0):
        adjudication.adjudicate(db, "lee", "h1", "pX", grade, "판정")
        ev = evaluation.evaluate_campaign(db, ["RR@10"], n_boot=0, n_perm=0)
        rr[grade] = ev.result.per_query.value.item()
    assert rr == {2: 1.0, 0: 0.5}
    # under the trec rule pY (score 5) is first whatever pX gets: nothing to decide
    catalog.set_setting(db, "ties", "trec10")
    judging.grade(db, "bob", "h1", "pX", 0)  # re-opens the item
    assert not bool(adjudication.queue(db, k=10).set_index("pid").loc["pX", "changes_first"])
    db.close()


# -- one ranking for everyone, on random campaigns -----------------------------------

BASE_TEXTS = [f"설교 본문 {j}번 단락" for j in range(8)]
SCORES = [2.0, 1.0, 0.5, 0.500000001, 0.25]  # 0.5 and 0.500000001 tie in float32


@st.composite
def random_campaign(draw):
    n = draw(st.integers(4, 10))
    # several pids may share a base text (spelt differently): duplicate groups
    text_of = [draw(st.integers(0, 5)) for _ in range(n)]
    texts = {
        f"p{i:02d}": (BASE_TEXTS[t] if i % 2 else BASE_TEXTS[t].replace(" ", ", ") + "!") for i, t in enumerate(text_of)
    }
    lines = []
    for system in ("s1", "s2"):
        for qid in ("h1", "h2"):
            # at least one row each: every system and question is in the campaign
            pids = draw(st.lists(st.sampled_from(sorted(texts)), unique=True, min_size=1, max_size=n))
            for pid in pids:
                lines.append(f"{qid} Q0 {pid} {draw(st.integers(1, 6))} {draw(st.sampled_from(SCORES))} {system}")
    return {
        "texts": texts,
        "lines": lines,
        "ties": draw(st.sampled_from(["trec9", "ranked"])),
        "dedup": draw(st.sampled_from(["first", "keep"])),
        "depth": draw(st.integers(2, 5)),
    }


def _groups(texts: dict[str, str]) -> dict[str, str]:
    """pid -> its duplicate group's first pid (corpus order), from the texts alone."""
    first: dict[str, str] = {}
    return {pid: first.setdefault(text_key(t), pid) for pid, t in texts.items()}


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=random_campaign(), data=st.data())
def test_pool_detail_queue_and_metrics_agree_on_every_rank(spec, data):
    texts, ties, dedup, depth = spec["texts"], spec["ties"], spec["dedup"], spec["depth"]
    group = _groups(texts)
    with tempfile.TemporaryDirectory() as tmp:
        db = make_campaign(Path(tmp), texts, spec["lines"], qids=("h1", "h2"), ties=ties, ks=f"1,{depth}", depth=depth)
        try:
            catalog.set_setting(db, "dedup", dedup)
            pooled = {q: pool_of(db, q) for q in ("h1", "h2")}
            for qid, items in pooled.items():
                for pid in sorted(items):
                    for who in ("ann", "bob"):
                        g = data.draw(st.sampled_from([None, 0, 1, 2]))
                        if g is not None:
                            judging.grade(db, who, qid, pid, g)
            ks = sorted({1, 2, depth})
            names = [f"{f}@{k}" for f in ("RR", "R", "P", "nDCG", "Judged") for k in ks]
            ev = evaluation.evaluate_campaign(db, names, n_boot=0, n_perm=0)
            assert ev.result.policies["ties"] == ties and ev.result.policies["dedup"] == dedup
            qrels = {q: dict(zip(f.pid, f.grade)) for q, f in ev.qrels.groupby("qid")}
            pq = ev.result.per_query.set_index(["system", "qid", "measure"]).value
            queue = adjudication.queue(db, k=depth)
            # items every annotator who graded them called citable
            sure = {
                (q, p)
                for q, p, lo in db.cursor()
                .execute("SELECT qid, pid, min(grade) FROM current_judgments GROUP BY ALL")
                .fetchall()
                if lo >= 2
            }
            for qid in ("h1", "h2"):
                detail = dashboard.question_detail(db, ev, qid, depth)
                for system in ("s1", "s2"):
                    rows = detail[detail.system == system].sort_values("rank")
                    assert rows["rank"].tolist() == list(range(1, len(rows) + 1))
                    # the pool holds every paragraph any measure at K <= depth reads
                    assert {group[p] for p in rows.pid} <= pooled[qid]
                    # grades in the detail are the group's, as the metrics count them
                    judged = qrels.get(qid, {})
                    assert [None if g != g else g for g in rows.grade] == [judged.get(group[p]) for p in rows.pid]
                    if qid not in qrels:
                        continue
                    # the metrics rank as the detail shows: trec_eval on the detail's ranking
                    if dedup == "first":
                        assert len({group[p] for p in rows.pid}) == len(rows)
                        run = {group[p]: float(depth - r) for p, r in zip(rows.pid, rows["rank"])}
                        ref_qrels = {p: int(g) for p, g in judged.items()}
                    else:
                        run = {p: float(depth - r) for p, r in zip(rows.pid, rows["rank"])}
                        ref_qrels = {p: int(judged[group[p]]) for p in texts if group[p] in judged}
                    for k in ks:
                        top = {p: s for p, s in run.items() if s > depth - 1 - k}
                        ref = pytrec_eval.RelevanceEvaluator(
                            {qid: ref_qrels},
                            {f"ndcg_cut.{k}", f"recall.{k}", f"P.{k}", "recip_rank"},
                            relevance_level=2,
                        ).evaluate({qid: top or {"__none__": 0.0}})[qid]
                        assert pq[(system, qid, f"RR(rel=2)@{k}")] == pytest.approx(ref["recip_rank"])
                        assert pq[(system, qid, f"R(rel=2)@{k}")] == pytest.approx(ref[f"recall_{k}"])
                        assert pq[(system, qid, f"P(rel=2)@{k}")] == pytest.approx(ref[f"P_{k}"])
                        assert pq[(system, qid, f"nDCG@{k}")] == pytest.approx(ref[f"ndcg_cut_{k}"])
                # the queue's "decides a first citable rank" agrees with the detail's ranks
                for item in queue[queue.qid == qid].itertuples():
                    decides = False
                    for system in ("s1", "s2"):
                        rows = detail[detail.system == system]
                        ranks = [r for p, r in zip(rows.pid, rows["rank"]) if group[p] == item.pid]
                        firsts = [r for p, r in zip(rows.pid, rows["rank"]) if (qid, group[p]) in sure]
                        if ranks and item.hi >= 2 > item.lo and min(ranks) < min(firsts, default=math.inf):
                            decides = True
                    assert bool(item.changes_first) == decides, (qid, item.pid)
        finally:
            db.close()


# -- the tie rule names its trec_eval version ------------------------------------------


@pytest.mark.parametrize("stored", [None, "trec"])
def test_a_campaign_made_before_versioned_rules_keeps_the_float32_rule(tmp_path, stored):
    """A database written when 'trec' (stored, or the default then) meant float32 ties
    is pinned to trec9 by migration 7, so its pool and metrics keep their order; a new
    campaign gets trec10."""
    db = _tie_campaign(tmp_path / "old")
    path = db.path
    with db.transaction() as cur:
        cur.execute("DELETE FROM schema_migrations WHERE name = 'tie_rule_version'")
        cur.execute("DELETE FROM settings WHERE key = 'ties'")
        if stored:
            cur.execute("INSERT INTO settings VALUES ('ties', ?)", [stored])
    db.close()
    db = open_database(path)
    try:
        assert catalog.get_settings(db)["ties"] == "trec9"
        ev = evaluation.evaluate_campaign(db, ["RR@10"], n_boot=0, n_perm=0)
        assert ev.result.policies["ties"] == "trec9"
    finally:
        db.close()
    fresh = open_database(tmp_path / "new.duckdb")
    try:
        assert catalog.get_settings(fresh)["ties"] == "trec10"
    finally:
        fresh.close()
