"""Every measure, per query and mean, against trec_eval (pytrec-eval-terrier).

Random collection: 6,000 questions with tied scores (exactly equal, and equal
only in float32), unjudged documents, grades 0-2 (and a few -1), qrels questions
missing from the run, run questions missing from the qrels, mixed-script ids
(the tie-break is byte order), thresholds 1 and 2.
"""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from reljudge.eval.measures import Measure, parse_measures
from reljudge.eval.metrics import evaluate

KS = (1, 3, 5, 10, 20)
N_Q = 6000


def _collection(seed: int = 7):
    rng = np.random.default_rng(seed)
    # ids of mixed shape and script so that the byte-order tie-break matters
    stems = np.array(["d", "D", "doc-", "문단", "z", "Z_", "10", "1"], dtype=object)
    qrels_rows, run_rows = [], []
    for q in range(N_Q):
        qid = f"q{q}"
        pool = [f"{stems[j % len(stems)]}{rng.integers(0, 50)}_{j}" for j in range(40)]
        role = rng.random()
        in_qrels = role > 0.05  # 5 %: run-only questions (ignored by trec_eval)
        in_run = role < 0.95  # 5 % (0.95..1): qrels-only questions (score 0)
        if in_qrels:
            nj = int(rng.integers(1, 16))
            judged = rng.choice(40, size=nj, replace=False)
            grades = rng.choice([0, 1, 2, -1], size=nj, p=[0.45, 0.3, 0.22, 0.03])
            qrels_rows += [(qid, pool[j], int(g)) for j, g in zip(judged, grades)]
        if in_run:
            nr = int(rng.integers(1, 31))
            docs = rng.choice(40, size=nr, replace=False)
            kind = rng.integers(0, 3, size=nr)
            base = rng.integers(0, 6, size=nr) / 4.0  # few distinct values: exact ties
            # distinct in float64, equal in float32
            f32 = np.where(rng.random(nr) < 0.5, 0.5, 0.5 + 1e-9 * rng.integers(1, 4, size=nr))
            score = np.where(kind == 0, base, np.where(kind == 1, f32, rng.random(nr)))
            run_rows += [(qid, pool[j], float(s)) for j, s in zip(docs, score)]
    qrels = pd.DataFrame(qrels_rows, columns=["qid", "pid", "grade"])
    run = pd.DataFrame(run_rows, columns=["qid", "pid", "score"])
    return qrels, run


@pytest.fixture(scope="module")
def collection():
    qrels, run = _collection()
    assert (np.float32(0.5) == np.float32(0.5 + 1e-9)) and (0.5 != 0.5 + 1e-9)
    assert run.qid.nunique() > 5000 and qrels.qid.nunique() > 5000
    return qrels, run


def _pytrec(qrels: pd.DataFrame, run: pd.DataFrame, rel: int):
    qd: dict = {}
    for q, d, g in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = int(g)
    rd: dict = {}
    for q, d, s in run.itertuples(index=False):
        rd.setdefault(q, {})[d] = float(s)
    ks = ",".join(map(str, KS))
    ev = pytrec_eval.RelevanceEvaluator(
        qd, {"recip_rank", f"P.{ks}", f"recall.{ks}", f"ndcg_cut.{ks}"}, relevance_level=rel
    )
    res = ev.evaluate(rd)
    # Judged@K = P@K when every judged document counts as relevant
    jd = {q: {d: 1 for d in docs} for q, docs in qd.items()}
    judged = pytrec_eval.RelevanceEvaluator(jd, {f"P.{ks}"}, relevance_level=1).evaluate(rd)
    return qd, res, judged


def _reference(qd, res, judged, m: Measure) -> dict[str, float]:
    """Reference value for every qrels question (0 when the run lacks it, as trec_eval -c)."""
    out = {}
    for q in qd:
        r = res.get(q)
        if r is None:
            out[q] = 0.0
        elif m.name == "RR":
            rr = r["recip_rank"]
            out[q] = rr if rr > 0 and round(1 / rr) <= m.k else 0.0
        elif m.name == "P":
            out[q] = r[f"P_{m.k}"]
        elif m.name == "R":
            out[q] = r[f"recall_{m.k}"]
        elif m.name == "nDCG":
            out[q] = r[f"ndcg_cut_{m.k}"]
        elif m.name == "Judged":
            out[q] = judged[q][f"P_{m.k}"]
    return out


@pytest.mark.parametrize("rel", [1, 2])
def test_every_measure_matches_trec_eval(collection, rel):
    qrels, run = collection
    con = duckdb.connect()
    run_sys = run.assign(system="sys")
    names = [f"{n}@{k}" for n in ("RR", "P", "R", "nDCG", "Judged") for k in KS]
    measures = parse_measures(names, default_rel=rel)
    # pytrec-eval-terrier is trec_eval 9: scores compared as float32
    res = evaluate(con, qrels, run_sys, measures, ties="trec9", default_rel=rel, n_boot=0, n_perm=0)
    qd, ref_res, ref_judged = _pytrec(qrels, run, rel)

    pq = res.per_query
    assert set(pq.qid) == set(qd)  # run-only questions ignored, qrels-only kept
    assert res.n_questions["all"] == len(qd)
    checked = 0
    for m in measures:
        ref = _reference(qd, ref_res, ref_judged, m)
        ours = pq[pq.measure == str(m)].set_index("qid")["value"]
        ref_s = pd.Series(ref).reindex(ours.index)
        np.testing.assert_allclose(ours.to_numpy(), ref_s.to_numpy(), rtol=0, atol=1e-12, err_msg=str(m))
        assert res.mean("sys", m) == pytest.approx(float(np.mean(list(ref.values()))), abs=1e-12)
        checked += len(ours)
        # a measure that is all zeros would make the comparison vacuous
        assert ours.max() > 0, str(m)
    assert checked == len(measures) * len(qd)
    # the collection exercises what it claims to
    assert any(len(qd[q]) and q not in ref_res for q in qd)  # qrels questions missing from the run
    assert set(run.qid) - set(qd)  # run questions missing from the qrels


def test_ranked_ties_equal_trec_when_rank_column_follows_trec_order(collection):
    qrels, run = collection
    # the rank column written in trec_eval's order must reproduce trec_eval under ties="ranked"
    # trec_eval compares scores as float32; Python orders str by code point = UTF-8 byte order
    r = run.assign(s32=run.score.astype(np.float32)).sort_values(["qid", "s32", "pid"], ascending=[True, False, False])
    r = r.assign(rank=r.groupby("qid").cumcount() + 1, system="s", score=np.nan).drop(columns="s32")
    con = duckdb.connect()
    ms = parse_measures(["RR@10", "nDCG@10", "P@5"], default_rel=1)
    a = evaluate(con, qrels, r, ms, ties="ranked", default_rel=1, n_boot=0, n_perm=0)
    b = evaluate(con, qrels, run.assign(system="s"), ms, ties="trec9", default_rel=1, n_boot=0, n_perm=0)
    # same ranking; only the order of the DCG summation may differ
    np.testing.assert_allclose(a.per_query.value.to_numpy(), b.per_query.value.to_numpy(), rtol=0, atol=1e-12)
