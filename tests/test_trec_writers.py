"""The one TREC writer (reljudge.eval.trec_io: qrels_text, run_text, sampled_qrels_text),
which the export, the reproducibility bundle, `evaluate`'s run conversion and the
sampled qrels all use: what it writes, the readers of reljudge read back unchanged, and
every tie rule reads a written run in the order it was written."""

from __future__ import annotations

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from hypothesis_profiles import examples
from reljudge.campaign import export
from reljudge.eval import ranking, trec_io

IDS = st.text(alphabet="abcXYZ019_-.가나다", min_size=1, max_size=6)


@st.composite
def _rankings(draw):
    """{qid: [docid, …]} — distinct docids per question, in rank order."""
    qids = draw(st.lists(IDS, min_size=1, max_size=4, unique=True))
    return {q: draw(st.lists(IDS, min_size=1, max_size=12, unique=True)) for q in qids}


@settings(max_examples=examples(60), deadline=None)
@given(_rankings(), st.sampled_from(sorted(ranking.TIES)), st.booleans())
def test_a_written_run_reads_back_in_its_order_under_every_tie_rule(tmp_path_factory, rankings, ties, deeper):
    rows = [(q, d, r) for q, docs in rankings.items() for r, d in enumerate(docs, start=1)]
    depth = max(r for _, _, r in rows) + (5 if deeper else 0)
    path = tmp_path_factory.mktemp("run") / "run.txt"
    path.write_text(trec_io.run_text(rows, "sys", depth if deeper else None), encoding="utf-8")
    con = duckdb.connect()
    trec_io.read_run(con, path, "r")
    got = con.execute(
        f"SELECT qid, pid, rank, row_number() OVER (PARTITION BY qid ORDER BY {ranking.order_key_sql(ties)} DESC) "
        "FROM r ORDER BY qid, rank"
    ).fetchall()
    assert sorted((q, d, r) for q, d, r, _ in got) == sorted(rows)
    # the order every tie rule gives is the written one
    assert all(rank == place for _, _, rank, place in got)
    scores = [float(line.split()[4]) for line in path.read_text(encoding="utf-8").splitlines()]
    assert all(s >= 1 and s == int(s) for s in scores)


@settings(max_examples=examples(60), deadline=None)
@given(_rankings(), st.data())
def test_written_qrels_read_back_unchanged(tmp_path_factory, rankings, data):
    rows = [(q, d, data.draw(st.sampled_from([0, 1, 2]))) for q, docs in rankings.items() for d in docs]
    path = tmp_path_factory.mktemp("qrels") / "qrels.txt"
    path.write_text(trec_io.qrels_text(rows), encoding="utf-8")
    back = export.read_qrels(path)
    assert list(zip(back.qid, back.pid, back.grade)) == rows


def test_the_sampled_qrels_line_is_what_sample_eval_reads():
    text = trec_io.sampled_qrels_text([("q1", "d1", 0, 2), ("q1", "d2", 3, -1)])
    assert text == "q1 0 d1 0 2\nq1 0 d2 3 -1\n"
    assert trec_io.sampled_qrels_text([]) == ""
