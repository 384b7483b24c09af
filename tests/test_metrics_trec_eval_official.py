"""trec_eval's official measures (map, gm_map, Rprec, bpref, iprec_at_recall, num_ret,
num_rel, num_rel_ret) against pytrec-eval-terrier, on random TREC files (hypothesis).

The files are written as a user would hand them to ``reljudge evaluate --qrels``:
scores equal in float32 but not as doubles, scores in scientific notation, Korean,
NFC-vs-NFD and emoji docnos, negative grades, qrels queries missing from the run and
run queries missing from the qrels.  pytrec-eval-terrier is trec_eval 9, so the tie
rule is ``trec9``; it gets the same documents and scores (parsed as C does: strtod).
Half of the examples use -J (``judged_docs_only_flag``).  No difference is allowed:
every per-query value is compared to 1e-12.
"""

from __future__ import annotations

import math
import unicodedata

import duckdb
import pytrec_eval
from hypothesis import HealthCheck, given, settings, strategies as st

from hypothesis_profiles import examples

from reljudge.cli.evaluate import load_files
from reljudge.eval.measures import MIN_GEO_MEAN, parse_measures
from reljudge.eval.metrics import evaluate, ranking_depth

TREC = ["map", "gm_map", "Rprec", "bpref", "iprec_at_recall", "num_ret", "num_rel", "num_rel_ret"]

_DOC_STEMS = ["d", "D", "문단", unicodedata.normalize("NFD", "문단"), "🙂", "z_", "10", "1"]


def _score_text(draw) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:  # few distinct values: exact ties
        return repr(draw(st.integers(0, 5)) / 4.0)
    if kind == 1:  # distinct as doubles, equal in float32
        return repr(0.5 + 1e-9 * draw(st.integers(0, 3)))
    if kind == 2:  # scientific notation
        return f"{draw(st.integers(1, 9))}e-{draw(st.integers(1, 3))}"
    return repr(draw(st.floats(-10, 10, allow_nan=False, width=64)))


@st.composite
def collections(draw):
    n_q = draw(st.integers(1, 8))
    qrels_lines, run_lines = [], []
    for q in range(n_q):
        qid = f"q{q}"
        pool = [f"{_DOC_STEMS[j % len(_DOC_STEMS)]}{j}" for j in range(draw(st.integers(1, 14)))]
        role = draw(st.sampled_from(["both", "both", "both", "qrels", "run"]))
        if role in ("both", "qrels"):
            judged = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True))
            grades = [draw(st.sampled_from([0, 0, 1, 1, 2, 3, -1, -2])) for _ in judged]
            if max(grades) < -1:
                # trec_eval (9.0.8, 10.0, hence pytrec_eval) crashes on a query whose every
                # grade is below -1 (form_res_rels.c allocates max_rel + 1 < 0 levels);
                # reljudge answers (test_metrics_hand.py), the reference cannot
                grades[0] = -1
            for doc, g in zip(judged, grades):
                qrels_lines.append(f"{qid} 0 {doc} {g}")
        if role in ("both", "run"):
            docs = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=len(pool), unique=True))
            for i, d in enumerate(docs, start=1):
                run_lines.append(f"{qid} Q0 {d} {i} {_score_text(draw)} tag")
    if not qrels_lines:
        qrels_lines.append("q0 0 d0 1")
    if not run_lines:
        run_lines.append("q0 Q0 d0 1 1.0 tag")
    return qrels_lines, run_lines, draw(st.sampled_from([1, 2])), draw(st.booleans())


def _pytrec(qrels_lines, run_lines, rel, judged_only=False):
    qd, rd = {}, {}
    for line in qrels_lines:
        q, _, d, g = line.split()
        qd.setdefault(q, {})[d] = int(g)
    for line in run_lines:
        q, _, d, _, s, _ = line.split()
        rd.setdefault(q, {})[d] = float(s)
    return pytrec_eval.RelevanceEvaluator(
        qd, set(TREC), relevance_level=rel, judged_docs_only_flag=judged_only
    ).evaluate(rd)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(collections())
def test_official_measures_equal_pytrec_eval(tmp_path_factory, data):
    qrels_lines, run_lines, rel, judged_only = data
    d = tmp_path_factory.mktemp("c")
    (d / "q.txt").write_text("\n".join(qrels_lines) + "\n", encoding="utf-8")
    (d / "r.txt").write_text("\n".join(run_lines) + "\n", encoding="utf-8")
    measures = parse_measures(TREC, default_rel=rel)
    con = duckdb.connect()
    names = load_files(con, str(d / "q.txt"), [str(d / "r.txt")], depth=ranking_depth(measures), ties="trec9")
    res = evaluate(
        con,
        "qrels",
        "runs",
        measures,
        ties="trec9",
        default_rel=rel,
        systems=names,
        n_boot=0,
        n_perm=0,
        judged_only=judged_only,
    )
    ref = _pytrec(qrels_lines, run_lines, rel, judged_only)
    pq = res.per_query
    ours = {(q, m): v for q, m, v in zip(pq.qid, pq.measure, pq.value)}
    qids = sorted(set(pq.qid))
    for m in measures:
        for q in qids:
            v = ours[(q, str(m))]
            if q not in ref:  # a qrels query the run lacks: 0 (trec_eval -c), num_rel aside
                expect = 0.0
                if m.name == "NumRel":
                    expect = float(
                        sum(1 for line in qrels_lines if line.split()[0] == q and int(line.split()[3]) >= rel)
                    )
                assert v == expect, (q, str(m))
                continue
            name = m.family.trec_name(m)
            want = ref[q][name]
            if m.name == "GMAP":  # pytrec_eval gives the per-query log (m_gm_map.c)
                v = math.log(max(v, MIN_GEO_MEAN))
            if math.isnan(want):  # -J left nothing judged: iprec_at_recall's 0/0, as trec_eval
                assert math.isnan(v), (q, str(m), v)
                continue
            assert abs(v - want) <= 1e-12, (q, str(m), v, want)
    # the summaries: sums for the counts, the geometric mean for GMAP
    for m in measures:
        vals = [ours[(q, str(m))] for q in qids]
        if any(math.isnan(x) for x in vals):
            assert math.isnan(res.mean(names[0], m))
            continue
        want = {
            "sum": sum(vals),
            "gmean": math.exp(sum(math.log(max(x, MIN_GEO_MEAN)) for x in vals) / len(vals)),
            "mean": sum(vals) / len(vals),
        }[m.family.summary]
        assert abs(res.mean(names[0], m) - want) <= 1e-9 * max(1.0, abs(want))
