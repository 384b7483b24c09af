"""Hand-computed cases for the metric engine (every edge case has a written policy)."""

from __future__ import annotations

import json
import math

import duckdb
import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from reljudge.errors import ReljudgeError
from reljudge.eval.measures import parse_measures
from reljudge.eval.metrics import ALL, bootstrap_ci, evaluate, holm, randomization_test


def _run(rows, system="s"):
    """rows: (qid, pid, score[, rank[, dup_key]])"""
    out = []
    for r in rows:
        r = tuple(r) + (None,) * (5 - len(r))
        out.append((system,) + r)
    return pd.DataFrame(out, columns=["system", "qid", "pid", "score", "rank", "dup_key"]).astype(
        {"score": "float64", "rank": "Int64", "dup_key": "object"}
    )


def _qrels(rows):
    return pd.DataFrame(rows, columns=["qid", "pid", "grade"])


def _ev(qrels, run, names, rel=2, **kw):
    kw.setdefault("n_boot", 0)
    kw.setdefault("n_perm", 0)
    return evaluate(duckdb.connect(), qrels, run, parse_measures(names, rel), default_rel=rel, **kw)


def _pq(res, measure, system="s"):
    pq = res.per_query
    return pq[(pq.measure == measure) & (pq.system == system)].set_index("qid")["value"].to_dict()


def test_seed_example_mrr_at_5_is_one_half():
    # seed-mrr-ko.txt §2: first relevant at rank 1, at rank 2, not in the top 5 -> (1 + 1/2 + 0) / 3
    qrels = _qrels([("q1", "a", 2), ("q2", "b", 2), ("q3", "c", 2)])
    run = _run(
        [
            ("q1", "a", 9),
            ("q1", "x", 8),
            ("q2", "x", 9),
            ("q2", "b", 8),
            ("q3", "x1", 9),
            ("q3", "x2", 8),
            ("q3", "x3", 7),
            ("q3", "x4", 6),
            ("q3", "x5", 5),
            ("q3", "c", 4),
        ]
    )
    res = _ev(qrels, run, ["RR@5"])
    assert _pq(res, "RR(rel=2)@5") == {"q1": 1.0, "q2": 0.5, "q3": 0.0}
    assert res.mean("s", "RR(rel=2)@5") == pytest.approx(0.5)
    sh = res.shares[(res.shares.qtype == ALL)].iloc[0]
    assert (sh.n, sh.n_rank1, sh.n_top3, sh.n_not_found) == (3, 1, 2, 1)
    assert sh.rank1 == pytest.approx(1 / 3) and sh.not_found == pytest.approx(1 / 3)
    # the failure case names what the system returned first
    f = res.failures
    assert f[["qid", "first_pid"]].values.tolist() == [["q3", "x1"]] and pd.isna(f.first_grade.iloc[0])


def test_measures_by_hand():
    # ranks: a(2) b(unjudged) c(1) d(0); judged: a=2, c=1, e=1 (not retrieved), d=0
    qrels = _qrels([("q", "a", 2), ("q", "c", 1), ("q", "e", 1), ("q", "d", 0)])
    run = _run([("q", "a", 4), ("q", "b", 3), ("q", "c", 2), ("q", "d", 1)])
    res = _ev(
        qrels, run, ["RR@3", "RR(rel=1)@3", "P@3", "P(rel=1)@3", "R(rel=1)@3", "R@3", "nDCG@3", "Judged@3", "Judged@10"]
    )
    v = {m: _pq(res, m)["q"] for m in res.per_query.measure.unique()}
    dcg = 2 + 1 / math.log2(4)
    idcg = 2 + 1 / math.log2(3) + 1 / math.log2(4)
    assert v == pytest.approx(
        {
            "RR(rel=2)@3": 1.0,
            "RR(rel=1)@3": 1.0,
            "P(rel=2)@3": 1 / 3,
            "P(rel=1)@3": 2 / 3,
            "R(rel=1)@3": 2 / 3,
            "R(rel=2)@3": 1.0,
            "nDCG@3": dcg / idcg,
            "Judged@3": 2 / 3,
            "Judged@10": 3 / 10,
        }
    )


def test_judged_share_of_what_was_returned():
    """A system returning 3 paragraphs, all judged, has Judged@10 = 0.3 (trec_eval divides
    by K) but 100% of what it returned is judged: that, not Judged@K, says whether
    its figures can still move."""
    qrels = _qrels([("q1", "a", 2), ("q1", "b", 0), ("q1", "c", 1), ("q2", "d", 2), ("q3", "x", 0)])
    run = pd.concat(
        [
            _run([("q1", "a", 3), ("q1", "b", 2), ("q1", "c", 1), ("q2", "d", 1)], "short"),
            _run(
                [("q1", "a", 3), ("q1", "u1", 2), ("q1", "u2", 1), ("q2", "d", 2), ("q2", "u3", 1), ("q3", "u4", 1)],
                "deep",
            ),
        ]
    )
    res = _ev(qrels, run, ["RR@10", "Judged@10", "Judged@2"], no_answer_qids=["q3"])
    cov = res.coverage.set_index(["system", "qtype", "k"])
    assert res.mean("short", "Judged@10") == pytest.approx((3 / 10 + 1 / 10) / 2)
    # answerable questions only (q3 is a no-answer question)
    assert tuple(cov.loc[("short", ALL, 10)]) == (4, 4, 1.0)
    assert tuple(cov.loc[("deep", ALL, 10)]) == (5, 2, 0.4)
    assert tuple(cov.loc[("deep", ALL, 2)]) == (4, 2, 0.5)  # q1: a, u1; q2: d, u3
    assert tuple(cov.loc[("short", ALL, 2)]) == (3, 3, 1.0)


def test_query_without_relevant_documents_scores_zero_and_counts():
    qrels = _qrels([("q1", "a", 2), ("q2", "b", 0), ("q2", "c", 1)])
    run = _run([("q1", "a", 1), ("q2", "b", 2), ("q2", "c", 1)])
    res = _ev(qrels, run, ["RR@10", "R@10", "nDCG@10", "P@10"])
    for m in ["RR(rel=2)@10", "R(rel=2)@10", "P(rel=2)@10"]:
        assert _pq(res, m)["q2"] == 0.0
    # nDCG uses the grade itself whatever the threshold: c (grade 1) at rank 2 of an ideal at rank 1
    assert _pq(res, "nDCG@10")["q2"] == pytest.approx(1 / math.log2(3))
    assert res.mean("s", "RR(rel=2)@10") == 0.5  # q2 is in the mean


def test_empty_run_and_missing_queries_score_zero_run_only_queries_ignored():
    qrels = _qrels([("q1", "a", 2), ("q2", "b", 2)])
    run = _run([("q1", "a", 1), ("q9", "z", 1)])
    res = _ev(qrels, run, ["RR@10", "nDCG@10"], systems=["s", "empty"])
    assert _pq(res, "RR(rel=2)@10") == {"q1": 1.0, "q2": 0.0}
    assert set(res.per_query.qid) == {"q1", "q2"}
    assert _pq(res, "RR(rel=2)@10", "empty") == {"q1": 0.0, "q2": 0.0}
    assert res.mean("empty", "nDCG@10") == 0.0 and res.mean("s", "nDCG@10") == 0.5
    f = res.failures[res.failures.system == "empty"]
    assert sorted(f.qid) == ["q1", "q2"] and f.first_pid.isna().all()


def test_ties_trec_versus_ranked():
    # equal scores: trec_eval orders by id descending (b before a); the rank column says a first
    qrels = _qrels([("q", "a", 2)])
    run = _run([("q", "a", 1.0, 1), ("q", "b", 1.0, 2)])
    assert _pq(_ev(qrels, run, ["RR@10"], ties="trec10"), "RR(rel=2)@10")["q"] == 0.5
    assert _pq(_ev(qrels, run, ["RR@10"], ties="ranked"), "RR(rel=2)@10")["q"] == 1.0
    # trec ignores the rank column when scores exist ...
    run2 = _run([("q", "a", 1.0, 2), ("q", "b", 2.0, 1), ("q", "c", 3.0, 3)])
    assert _pq(_ev(qrels, run2, ["RR@10"], ties="trec10"), "RR(rel=2)@10")["q"] == pytest.approx(1 / 3)
    assert _pq(_ev(qrels, run2, ["RR@10"], ties="ranked"), "RR(rel=2)@10")["q"] == 0.5
    # trec10 compares scores as doubles, trec9 as float32 (then id descending)
    run3 = _run([("q", "a", 0.500000001, 1), ("q", "b", 0.5, 2)])
    assert _pq(_ev(qrels, run3, ["RR@10"], ties="trec10"), "RR(rel=2)@10")["q"] == 1.0
    assert _pq(_ev(qrels, run3, ["RR@10"], ties="trec"), "RR(rel=2)@10")["q"] == 1.0
    assert _pq(_ev(qrels, run3, ["RR@10"], ties="trec9"), "RR(rel=2)@10")["q"] == 0.5
    # ... and uses it for rows without a score, after every scored row
    run3 = _run([("q", "a", None, 1), ("q", "b", None, 2), ("q", "c", 0.1, 9)])
    assert _pq(_ev(qrels, run3, ["RR@10"]), "RR(rel=2)@10")["q"] == 0.5
    # byte order, not locale: 'Z' (0x5a) < 'a' (0x61) < '가' (UTF-8 0xea...)
    qrels4 = _qrels([("q", "Z", 2)])
    run4 = _run([("q", "Z", 1.0), ("q", "a", 1.0), ("q", "가", 1.0)])
    assert _pq(_ev(qrels4, run4, ["RR@10"]), "RR(rel=2)@10")["q"] == pytest.approx(1 / 3)
    # scores equal in float32 tie under trec9, as in trec_eval 9; trec10 (the default) compares doubles
    run5 = _run([("q", "Z", 0.5 + 1e-9), ("q", "a", 0.5)])
    assert _pq(_ev(qrels4, run5, ["RR@10"], ties="trec9"), "RR(rel=2)@10")["q"] == 0.5
    assert _pq(_ev(qrels4, run5, ["RR@10"]), "RR(rel=2)@10")["q"] == 1.0


def test_dedup_first_versus_keep():
    qrels = _qrels([("q", "rel", 2)])
    # x1 and x2 are the same text (dup_key); first: x2 removed, rel moves from rank 3 to 2
    run = _run([("q", "x1", 3, None, "k"), ("q", "x2", 2, None, "k"), ("q", "rel", 1, None, None)])
    assert _pq(_ev(qrels, run, ["RR@10"], dedup="first"), "RR(rel=2)@10")["q"] == 0.5
    assert _pq(_ev(qrels, run, ["RR@10"], dedup="keep"), "RR(rel=2)@10")["q"] == pytest.approx(1 / 3)
    # closing ranks up brings rank K+1 inside the cutoff
    assert _pq(_ev(qrels, run, ["RR@2"], dedup="first"), "RR(rel=2)@2")["q"] == 0.5
    assert _pq(_ev(qrels, run, ["RR@2"], dedup="keep"), "RR(rel=2)@2")["q"] == 0.0
    # the same pid twice: first counts once, keep counts both copies
    run2 = _run([("q", "rel", 3), ("q", "rel", 2), ("q", "y", 1)])
    assert _pq(_ev(qrels, run2, ["P@2"], dedup="first"), "P(rel=2)@2")["q"] == 0.5
    assert _pq(_ev(qrels, run2, ["P@2"], dedup="keep"), "P(rel=2)@2")["q"] == 1.0
    # a copy far below the cutoff changes nothing; other rankings keep the fast path
    rows = [("q", f"d{i:02d}", 100 - i, None, "same" if i in (0, 50) else None) for i in range(60)]
    rows += [("q2", "rel", 5)]
    run3 = _run(rows)
    q = _qrels([("q", "d03", 2), ("q2", "rel", 2)])
    r = _ev(q, run3, ["RR@5"], dedup="first")
    assert _pq(r, "RR(rel=2)@5") == {"q": 0.25, "q2": 1.0}
    assert r.policies["dedup"] == "first" and "closed up" in r.policies["dedup_rule"]


def test_no_answer_questions_and_abstention():
    qrels = _qrels([("a1", "p", 2), ("a2", "p", 2), ("a3", "p", 2), ("a4", "p", 2), ("n1", "p", 0), ("n2", "p", 1)])
    run = pd.concat([_run([(q, "p", 1) for q in ["a1", "a2", "n1"]], "A"), _run([(q, "p", 1) for q in ["a1"]], "B")])
    questions = pd.DataFrame(
        {"qid": ["a1", "a2", "a3", "a4", "n1", "n2"], "qtype": ["fact", "fact", "theme", "theme", "fact", "theme"]}
    )
    abst = pd.DataFrame({"system": ["A", "A", "B", "B", "B"], "qid": ["n1", "a3", "n1", "n2", "a4"]})
    res = _ev(qrels, run, ["RR@10", "RR(rel=1)@10"], questions=questions, abstentions=abst, no_answer_qids=["n1", "n2"])
    assert res.n_questions == {"all": 6, "answerable": 4, "no_answer": 2}
    assert res.mean("A", "RR(rel=2)@10") == 0.5 and res.mean("B", "RR(rel=2)@10") == 0.25
    assert res.mean("A", "RR(rel=2)@10", "fact") == 1.0 and res.mean("A", "RR(rel=2)@10", "theme") == 0.0
    na = res.means_no_answer
    assert na[(na.system == "A") & (na.qtype == ALL) & (na.measure == "RR(rel=1)@10")]["n"].item() == 2
    ab = res.abstention.set_index(["system", "qtype"])
    assert ab.loc[("A", ALL), ["n_appropriate", "appropriate_rate", "n_false", "false_rate"]].tolist() == [
        1,
        0.5,
        1,
        0.25,
    ]
    assert ab.loc[("B", ALL), ["appropriate_rate", "false_rate"]].tolist() == [1.0, 0.25]
    assert ab.loc[("B", "theme"), ["appropriate_rate", "false_rate", "no_answer_rate"]].tolist() == [1.0, 0.5, 1 / 3]
    assert ab.loc[("A", ALL), "no_answer_rate"] == pytest.approx(2 / 6)
    # failures and shares cover answerable questions only
    assert not set(res.failures.qid) & {"n1", "n2"}
    assert set(res.per_query.qid) == {"a1", "a2", "a3", "a4", "n1", "n2"}
    # no-answer qids without a single judgment still count
    res2 = _ev(qrels, run, ["RR@10"], no_answer_qids=["n9"], abstentions=abst)
    assert res2.n_questions["no_answer"] == 1 and "n9" in set(res2.per_query.qid)


def test_inputs_as_table_relation_or_dataframe_agree():
    qrels = _qrels([("q1", "a", 2), ("q2", "b", 1)])
    run = _run([("q1", "a", 1), ("q1", "b", 2), ("q2", "b", 1)])
    con = duckdb.connect()
    con.execute("CREATE TABLE qr AS SELECT * FROM qrels")
    con.execute("CREATE TABLE rn AS SELECT * FROM run")
    ms = parse_measures(["RR@10", "nDCG@10"], 2)
    a = evaluate(con, "qr", "rn", ms, n_boot=0, n_perm=0).per_query
    b = evaluate(con, con.table("qr"), con.sql("SELECT * FROM rn"), ms, n_boot=0, n_perm=0).per_query
    c = evaluate(con, qrels, run, ms, n_boot=0, n_perm=0).per_query
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    # temporary views are cleaned up
    assert [r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()] == []


def test_bad_arguments():
    qrels = _qrels([("q", "a", 2)])
    run = _run([("q", "a", 1)])
    with pytest.raises(ReljudgeError, match="ties"):
        _ev(qrels, run, ["RR@10"], ties="random")
    with pytest.raises(ReljudgeError, match="duplicates"):
        _ev(qrels, run, ["RR@10"], dedup="drop")
    with pytest.raises(ReljudgeError, match="lacks column"):
        _ev(qrels.rename(columns={"pid": "doc"}), run, ["RR@10"])
    with pytest.raises(ReljudgeError, match="score or a rank"):
        _ev(qrels, run.drop(columns=["score", "rank"]), ["RR@10"])


def test_holm_matches_statsmodels():
    rng = np.random.default_rng(3)
    for m in [1, 2, 5, 17]:
        for _ in range(20):
            p = rng.random(m) ** 3
            p[rng.integers(0, m)] = p[0]  # ties among p-values
            np.testing.assert_allclose(holm(p), multipletests(p, method="holm")[1], rtol=0, atol=1e-15)
    assert holm([]).size == 0


def test_bootstrap_interval():
    rng = np.random.default_rng(1)
    v = rng.random((300, 2))
    v[:, 1] = v[:, 0]  # two systems with equal values get equal intervals: same resamples
    lo, hi = bootstrap_ci(v, 2000, seed=5)
    assert lo[0] == lo[1] and hi[0] == hi[1]
    assert lo[0] < v[:, 0].mean() < hi[0]
    # close to the normal-theory interval for a mean of 300 uniforms
    se = v[:, 0].std(ddof=1) / math.sqrt(300)
    assert hi[0] - lo[0] == pytest.approx(2 * 1.96 * se, rel=0.1)
    # fixed seed: reproducible; a constant column has a zero-width interval
    lo2, hi2 = bootstrap_ci(v, 2000, seed=5)
    assert (lo == lo2).all() and (hi == hi2).all()
    c = bootstrap_ci(np.ones((10, 1)), 100, seed=0)
    assert c[0][0] == c[1][0] == 1.0


def test_randomization_test():
    rng = np.random.default_rng(2)
    same = np.zeros((50, 1))
    assert randomization_test(same, 999, seed=0)[0] == 1.0
    strong = rng.normal(1.0, 0.1, size=(50, 1))
    assert randomization_test(strong, 999, seed=0)[0] == pytest.approx(1 / 1000)
    # a single question: the two sign flips give |T*| = |T| always -> p = 1
    assert randomization_test(np.array([[0.3]]), 99, seed=0)[0] == 1.0
    # exact p for n = 4: 16 equally likely sign patterns, |mean| >= observed in 2 of them
    d = np.array([[1.0], [1.0], [1.0], [1.0]])
    assert randomization_test(d, 200_000, seed=0)[0] == 2 / 16
    # by hand, d = (3, -1, 1), T = 3: the eight sums are 3, 1, 5, 3, -3, -5, -1, -3 -> 6 of 8
    d = np.array([[3.0, 1.0], [-1.0, 1.0], [1.0, 1.0]])
    assert list(randomization_test(d, 1000, seed=0)) == [6 / 8, 2 / 8]


def test_randomization_test_is_exact_for_few_questions_whatever_the_permutations():
    """Up to 16 questions every sign pattern is enumerated, so the p does not depend on the
    number of permutations asked for (every consumer asks for metrics.RANDOMIZATION's)."""
    rng = np.random.default_rng(7)
    for n in (2, 5, 9, 13, 16):
        d = rng.normal(0.1, 0.3, size=(n, 3))
        exact = randomization_test(d, 1000, seed=1)
        assert (exact == randomization_test(d, 10_000, seed=99)).all()
        # brute force over every sign pattern
        signs = np.array(np.meshgrid(*[[-1.0, 1.0]] * n)).reshape(n, -1).T
        brute = (np.abs(signs @ d) >= np.abs(d.sum(axis=0)) - 1e-12).mean(axis=0)
        assert exact == pytest.approx(brute, abs=1e-15)
    # beyond 16 questions it samples, and stays close to the exact value's neighbourhood
    d = rng.normal(0.0, 1.0, size=(40, 1))
    p1, p2 = randomization_test(d, 20_000, seed=1)[0], randomization_test(d, 20_000, seed=2)[0]
    assert p1 != p2 and abs(p1 - p2) < 0.03


def test_report_extras_in_evaluate():
    qrels = _qrels([(f"q{i}", "r", 2) for i in range(40)])
    good = _run([(f"q{i}", "r", 2) for i in range(40)], "good")
    bad = _run([(f"q{i}", "x", 2) for i in range(40)] + [(f"q{i}", "r", 1) for i in range(0, 40, 4)], "bad")
    res = evaluate(
        duckdb.connect(), qrels, pd.concat([good, bad]), parse_measures(["RR@10"], 2), n_boot=1000, n_perm=2000
    )
    m = res.means.set_index("system")
    assert m.loc["good", "ci_low"] == m.loc["good", "ci_high"] == 1.0
    # 10 of 40 questions with the relevant paragraph at rank 2
    assert m.loc["bad", "mean"] == pytest.approx(0.125) and m.loc["bad", "ci_low"] < 0.125 < m.loc["bad", "ci_high"]
    t = res.tests.iloc[0]
    assert (t.system_a, t.system_b) == ("bad", "good") and t["diff"] == pytest.approx(-0.875)
    assert t.p_value < 0.001 and t.p_holm == t.p_value  # one pair: Holm changes nothing
    assert res.policies["bootstrap"]["resamples"] == 1000 and res.policies["randomization_test"]["permutations"] == 2000
    d = json.loads(json.dumps(res.to_dict(per_query=True), allow_nan=False))
    assert d["measures"] == ["RR(rel=2)@10"] and len(d["per_query"]) == 80


# -- trec_eval's official measures, by hand -------------------------------------------


def _official_case():
    # q1: R = 2 relevant (a: 2, c: 1 at rel=1), N = 2 judged non-relevant (b, e: 0),
    #     f graded -1 (unjudged for trec_eval), x absent from the qrels.
    #     ranking: x(1) a(2) b(3) f(4) c(5)
    # q2: in the qrels only (missing from the run).
    qrels = _qrels([("q1", "a", 2), ("q1", "b", 0), ("q1", "c", 1), ("q1", "e", 0), ("q1", "f", -1), ("q2", "g", 1)])
    run = _run([("q1", "x", 5.0), ("q1", "a", 4.0), ("q1", "b", 3.0), ("q1", "f", 2.0), ("q1", "c", 1.0)])
    return qrels, run


def test_official_measures_by_hand():
    qrels, run = _official_case()
    names = [
        "AP",
        "GMAP",
        "Rprec",
        "Bpref",
        "IPrec@0",
        "IPrec@0.5",
        "IPrec@1",
        "NumRet",
        "NumRel",
        "NumRelRet",
        "Unj@2",
        "Unj@10",
        "Judged@10",
    ]
    res = _ev(qrels, run, names, rel=1)
    q1 = {m: _pq(res, m)["q1"] for m in map(str, res.measures)}
    # AP = (1/2 + 2/5) / 2; Rprec: 1 relevant in the top R = 2 -> 1/2
    assert q1["AP(rel=1)"] == pytest.approx((1 / 2 + 2 / 5) / 2)
    assert q1["GMAP(rel=1)"] == pytest.approx((1 / 2 + 2 / 5) / 2)  # per query: AP itself
    assert q1["Rprec(rel=1)"] == pytest.approx(1 / 2)
    # Bpref: a has 0 judged non-relevant above -> 1; c has b above (f is unjudged) ->
    # 1 - min(1, R)/min(N, R) = 1 - 1/2; over R = 2
    assert q1["Bpref(rel=1)"] == pytest.approx((1 + 0.5) / 2)
    # IPrec: precisions at ranks 1..5 = 0, 1/2, 1/3, 1/4, 2/5; at recall 0 and 0.5 (the
    # first relevant, rank 2) the best precision from rank 2 on = 1/2; at 1 (rank 5) 2/5
    assert q1["IPrec(rel=1)@0.0"] == pytest.approx(1 / 2)
    assert q1["IPrec(rel=1)@0.5"] == pytest.approx(1 / 2)
    assert q1["IPrec(rel=1)@1.0"] == pytest.approx(2 / 5)
    assert (q1["NumRet"], q1["NumRel(rel=1)"], q1["NumRelRet(rel=1)"]) == (5, 2, 2)
    # Unj: x (absent) and f (grade -1) are unjudged; a short ranking's empty ranks count as judged
    assert q1["Unj@2"] == pytest.approx(1 / 2) and q1["Unj@10"] == pytest.approx(2 / 10)
    # Judged counts every qrels row (f too) and divides by K (not by the ranking's length)
    assert q1["Judged@10"] == pytest.approx(4 / 10)
    # the query missing from the run: 0 everywhere but NumRel (its R), and Unj 0
    q2 = {m: _pq(res, m)["q2"] for m in map(str, res.measures)}
    assert q2["NumRel(rel=1)"] == 1 and all(v == 0 for k, v in q2.items() if k != "NumRel(rel=1)")


def test_counts_are_summed_and_gmap_is_a_geometric_mean():
    qrels, run = _official_case()
    res = _ev(qrels, run, ["NumRet", "NumRel", "NumRelRet", "NumQ", "GMAP", "AP"], rel=1)
    assert res.mean("s", "NumRet") == 5 and res.mean("s", "NumRel(rel=1)") == 3
    assert res.mean("s", "NumRelRet(rel=1)") == 2 and res.mean("s", "NumQ") == 2
    ap = (1 / 2 + 2 / 5) / 2
    assert res.mean("s", "AP(rel=1)") == pytest.approx(ap / 2)
    # trec_eval: exp(mean(log(max(AP, 0.00001)))); q2's AP 0 counts as 0.00001
    assert res.mean("s", "GMAP(rel=1)") == pytest.approx(math.exp((math.log(ap) + math.log(1e-5)) / 2))
    assert res.policies["summaries"]["NumRet"] == "sum" and res.policies["summaries"]["GMAP(rel=1)"] == "gmean"


def test_max_docs_and_judged_only():
    """-M 3 keeps x, a, b; -J then drops the unjudged x and f and closes the ranks up."""
    qrels, run = _official_case()
    names = ["NumRet", "P@1", "RR", "AP"]
    m3 = _ev(qrels, run, names, rel=1, max_docs=3)
    assert _pq(m3, "NumRet")["q1"] == 3 and _pq(m3, "AP(rel=1)")["q1"] == pytest.approx((1 / 2) / 2)
    j = _ev(qrels, run, names, rel=1, judged_only=True)
    # judged ranking: a(1) b(2) c(3)
    assert _pq(j, "NumRet")["q1"] == 3 and _pq(j, "P(rel=1)@1")["q1"] == 1.0 and _pq(j, "RR(rel=1)")["q1"] == 1.0
    assert _pq(j, "AP(rel=1)")["q1"] == pytest.approx((1 + 2 / 3) / 2)
    both = _ev(qrels, run, names, rel=1, max_docs=3, judged_only=True)  # -M first: x a b -> a b
    assert _pq(both, "NumRet")["q1"] == 2 and _pq(both, "AP(rel=1)")["q1"] == pytest.approx(1 / 2)


def test_a_query_graded_only_below_minus_one_is_answered():
    """trec_eval 9.0.8 and 10.0 crash (segmentation fault) on a query whose every grade
    is below -1 (form_res_rels.c allocates max_rel + 1 < 0 levels); reljudge treats
    its documents as unjudged: nothing relevant, every retrieved document unjudged."""
    qrels = _qrels([("q5", "d0", -2), ("q1", "a", 1)])
    run = _run([("q5", "d0", 0.5), ("q1", "a", 1.0)])
    res = _ev(qrels, run, ["AP", "NumRel", "Unj@1", "Bpref"], rel=1)
    assert _pq(res, "AP(rel=1)")["q5"] == 0 and _pq(res, "NumRel(rel=1)")["q5"] == 0
    assert _pq(res, "Unj@1")["q5"] == 1.0 and _pq(res, "Bpref(rel=1)")["q5"] == 0
