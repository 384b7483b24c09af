"""Invariants of the metric engine on random runs (hypothesis; issue 10, "Invariants").

Fast: pure engine calls on DataFrames in an in-memory DuckDB, a few dozen examples.
"""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from hypothesis_profiles import examples

from reljudge.eval.measures import parse_measures
from reljudge.eval.metrics import evaluate

KS = (1, 3, 5)
FAMILIES = ("RR", "R", "P", "nDCG", "Judged")
NAMES = [f"{f}@{k}" for f in FAMILIES for k in KS]
SCORES = [3.0, 1.0, 0.5, 0.500000001, 0.25, -1.0]  # 0.5 and 0.500000001 tie in float32
DOCS = [f"d{i}" for i in range(8)]


@st.composite
def runs_and_qrels(draw, dup_keys: bool = True):
    rows, qrels = [], []
    for qid in ("q1", "q2", "q3"):
        for pid in DOCS:
            grade = draw(st.sampled_from([None, None, -1, 0, 1, 2]))
            if grade is not None:
                qrels.append((qid, pid, grade))
        for system in ("A", "B"):
            for pid in draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=7)):
                key = draw(st.sampled_from([None, "k1", "k2"])) if dup_keys else None
                rows.append((system, qid, pid, draw(st.sampled_from(SCORES)), draw(st.integers(1, 9)), key))
    run = pd.DataFrame(rows, columns=["system", "qid", "pid", "score", "rank", "dup_key"]).astype(
        {"score": "float64", "rank": "int64", "dup_key": "object"}
    )
    return run, pd.DataFrame(qrels, columns=["qid", "pid", "grade"])


def _values(run, qrels, ties, dedup, names=NAMES):
    res = evaluate(
        duckdb.connect(),
        qrels,
        run,
        parse_measures(names, 2),
        ties=ties,
        dedup=dedup,
        systems=["A", "B"],
        n_boot=0,
        n_perm=0,
    )
    return res.per_query.set_index(["system", "qid", "measure"]).value


common = settings(max_examples=examples(25), deadline=None)
ties_dedup = st.tuples(st.sampled_from(["trec9", "ranked"]), st.sampled_from(["first", "keep"]))


@common
@given(data=runs_and_qrels(), rule=ties_dedup)
def test_every_value_in_unit_interval_and_rr_r_judged_never_fall_with_k(data, rule):
    run, qrels = data
    if qrels.empty:
        return
    v = _values(run, qrels, *rule)
    assert ((v >= 0) & (v <= 1 + 1e-12)).all()
    for family in ("RR(rel=2)", "R(rel=2)", "Judged"):
        wide = v.unstack("measure")[[f"{family}@{k}" for k in KS]].to_numpy()
        if family == "Judged":
            # Judged@K divides by K (not by the ranking's length, as ir_measures does), so it can fall; the judged count cannot
            wide = wide * np.array(KS)
        assert (np.diff(wide, axis=1) >= -1e-9).all(), family


@common
@given(data=runs_and_qrels(dup_keys=False), rule=ties_dedup)
def test_without_duplicates_both_policies_are_trec_eval_on_raw_ids(data, rule):
    run, qrels = data
    if qrels.empty:
        return
    ties, dedup = rule
    if ties == "ranked":  # trec_eval ranks by score; give it the rank order as scores
        run = run.assign(score=-run["rank"].astype(float) - run["score"].rank(pct=True) / 10)
    v = _values(run, qrels, ties, dedup)
    qd = {q: {p: int(g) for p, g in zip(f.pid, f.grade)} for q, f in qrels.groupby("qid")}
    for system in ("A", "B"):
        r = run[run.system == system]
        # trec_eval stores scores as float32: pass the float32 value
        rd = {q: {p: float(np.float32(s)) for p, s in zip(f.pid, f.score)} for q, f in r.groupby("qid")}
        for k in KS:
            trunc = {
                q: dict(sorted(d.items(), key=lambda x: (np.float32(x[1]), x[0]), reverse=True)[:k])
                for q, d in rd.items()
            }
            ref = pytrec_eval.RelevanceEvaluator(
                qd, {f"ndcg_cut.{k}", f"recall.{k}", f"P.{k}", "recip_rank"}, relevance_level=2
            ).evaluate(trunc)
            for q in qd:
                got = ref.get(q)
                if got is None:  # not in the run: trec_eval -c gives 0
                    got = {"recip_rank": 0, f"recall_{k}": 0, f"P_{k}": 0, f"ndcg_cut_{k}": 0}
                assert v[(system, q, f"RR(rel=2)@{k}")] == pytest.approx(got["recip_rank"])
                assert v[(system, q, f"R(rel=2)@{k}")] == pytest.approx(got[f"recall_{k}"])
                assert v[(system, q, f"P(rel=2)@{k}")] == pytest.approx(got[f"P_{k}"])
                assert v[(system, q, f"nDCG@{k}")] == pytest.approx(got[f"ndcg_cut_{k}"])


@common
@given(data=runs_and_qrels(), rule=ties_dedup, seed=st.integers(0, 2**16))
def test_row_system_and_question_order_change_nothing(data, rule, seed):
    run, qrels = data
    if qrels.empty:
        return
    shuffled = run.sample(frac=1, random_state=seed).reset_index(drop=True)
    a = _values(run, qrels, *rule)
    b = _values(shuffled, qrels.sample(frac=1, random_state=seed), *rule)
    pd.testing.assert_series_equal(a.sort_index(), b.sort_index())


@common
@given(data=runs_and_qrels(), rule=ties_dedup)
def test_an_unjudged_paragraph_below_k_changes_nothing_at_k(data, rule):
    run, qrels = data
    if qrels.empty:
        return
    ties, dedup = rule
    # below every row of its ranking under either rule: lowest score, largest rank, smallest id
    extra = pd.DataFrame(
        [(s, q, "a-unjudged", -1e9, 10**6, None) for s in ("A", "B") for q in ("q1", "q2", "q3")], columns=run.columns
    )
    before = _values(run, qrels, ties, dedup)
    after = _values(pd.concat([run, extra], ignore_index=True).astype(run.dtypes.to_dict()), qrels, ties, dedup)
    for system in ("A", "B"):
        for q in ("q1", "q2", "q3"):
            rows = run[(run.system == system) & (run.qid == q)]
            # items of the ranking: rows under keep, duplicate keys under first; the
            # extra row comes right after them, so K up to their number is "above" it
            n = len(rows) if dedup == "keep" else rows.dup_key.fillna(rows.pid).nunique()
            for k in KS:
                if k <= n:
                    for f in ("RR(rel=2)", "R(rel=2)", "P(rel=2)", "nDCG", "Judged"):
                        key = (system, q, f"{f}@{k}")
                        if key in before.index:
                            # the same figure, summed in another order: equal to rounding
                            assert after[key] == pytest.approx(before[key], rel=1e-12, abs=1e-15), key
