"""Bounds over every completion of the unjudged pooled paragraphs (reljudge.eval.bounds).

The reference enumerates every way the open paragraphs could be graded, computes each
measure by its textbook formula (trec_eval's semantics) and takes the minimum and the
maximum: the bounds must equal them where reljudge.eval.bounds claims exactness (RR, P,
Success, R, nDCG) and contain them everywhere.  Today's value (open = not relevant)
is checked against the metric engine itself.
"""

from __future__ import annotations

import itertools
import math

import duckdb
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypothesis_profiles import examples

from reljudge.eval import bounds
from reljudge.eval.measures import parse_measures
from reljudge.eval.metrics import evaluate

GRADES = (0, 1, 2)
EXACT = ("RR", "P", "Success", "R", "nDCG")


def reference(measure, ranking, grade_of, k_total_items):
    """One measure's value for one ranking under complete grades ``grade_of`` (id ->
    grade; an id absent is not relevant and unjudged)."""
    k = measure.k
    top = ranking[:k]
    name = measure.name
    if name == "nDCG":
        dcg = sum(max(grade_of.get(p, 0), 0) / math.log2(i + 2) for i, p in enumerate(top))
        ideal = sorted((g for g in grade_of.values() if g > 0), reverse=True)[:k]
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        return dcg / idcg if idcg > 0 else 0.0
    if name == "Judged":
        return sum(1 for p in top if p in grade_of) / k
    rel = measure.rel
    hits = [i for i, p in enumerate(top) if grade_of.get(p, -1) >= rel]
    if name == "RR":
        return 1.0 / (hits[0] + 1) if hits else 0.0
    if name == "P":
        return len(hits) / k
    if name == "Success":
        return 1.0 if hits else 0.0
    if name == "R":
        n_rel = sum(1 for g in grade_of.values() if g >= rel)
        return len(hits) / n_rel if n_rel else 0.0
    raise AssertionError(name)


MEASURES = parse_measures(
    [
        "RR@1",
        "RR@3",
        "RR@10",
        "P@3",
        "Success@2",
        "R@3",
        "R@10",
        "nDCG@1",
        "nDCG@3",
        "nDCG@10",
        "Judged@3",
        "RR(rel=1)@5",
        "R(rel=1)@3",
        "P(rel=1)@5",
    ],
    default_rel=2,
)


@st.composite
def campaigns(draw):
    n_q = draw(st.integers(1, 2))
    questions = []
    for q in range(n_q):
        n_pool = draw(st.integers(1, 6))
        states = draw(st.lists(st.sampled_from([None, None, 0, 1, 2]), min_size=n_pool, max_size=n_pool))
        # at most 5 open paragraphs, so that every completion can be enumerated (3^5)
        open_ids = [i for i, s in enumerate(states) if s is None]
        for i in open_ids[5:]:
            states[i] = 0
        pool = {f"q{q}p{i}": s for i, s in enumerate(states)}
        extra_judged = {f"q{q}x{i}": draw(st.sampled_from(GRADES)) for i in range(draw(st.integers(0, 2)))}
        unpooled = [f"q{q}u{i}" for i in range(draw(st.integers(0, 2)))]
        rankings = {}
        for s in range(draw(st.integers(1, 3))):
            ids = list(pool) + list(extra_judged) + unpooled
            chosen = draw(st.lists(st.sampled_from(ids), unique=True, max_size=len(ids)))
            rankings[f"sys{s}"] = chosen
        questions.append((f"q{q}", pool, extra_judged, rankings))
    return questions


def _tables(questions):
    qrels, run, pool = [], [], []
    for qid, pooled, extra, rankings in questions:
        for pid, g in {**pooled, **extra}.items():
            if g is not None:
                qrels.append((qid, pid, g))
        pool += [(qid, pid) for pid in pooled]
        for system, ranking in rankings.items():
            run += [(system, qid, pid, float(len(ranking) - i), i + 1) for i, pid in enumerate(ranking)]
    return (
        pd.DataFrame(qrels, columns=["qid", "pid", "grade"]).astype({"grade": "int64"}),
        pd.DataFrame(run, columns=["system", "qid", "pid", "score", "rank"]).assign(dup_key=None),
        pd.DataFrame(pool, columns=["qid", "pid"]),
    )


def _compute(questions, measures=MEASURES):
    qrels, run, pool = _tables(questions)
    systems = sorted({s for _, _, _, r in questions for s in r})
    con = duckdb.connect()
    con.register("qrels_t", qrels)
    con.register("run_t", run.astype({"dup_key": "object"}))
    con.register("pool_t", pool)
    con.execute("CREATE TABLE items AS SELECT qid, pid, grade::INTEGER AS grade FROM qrels_t")
    con.execute("CREATE TABLE runs AS SELECT system, qid, pid, score, rank, dup_key::VARCHAR AS dup_key FROM run_t")
    con.execute("CREATE TABLE pooled AS SELECT * FROM pool_t")
    b = bounds.compute(con, "items", "runs", "pooled", measures, systems, ties="trec10", dedup="first")
    return con, b, systems


def _enumerate(questions, b, systems, exact=True):
    for qid, pooled, extra, rankings in questions:
        qi = list(b.qids).index(qid)
        open_ids = [p for p, g in pooled.items() if g is None]
        judged = {p: g for p, g in {**pooled, **extra}.items() if g is not None}
        for si, system in enumerate(systems):
            ranking = rankings.get(system, [])
            for mi, m in enumerate(b.measures):
                values = []
                for completion in itertools.product(GRADES, repeat=len(open_ids)):
                    values.append(reference(m, ranking, {**judged, **dict(zip(open_ids, completion))}, None))
                lo, hi = b.low[si, qi, mi], b.high[si, qi, mi]
                if m.name == "Judged":
                    now = reference(m, ranking, judged, None)
                    assert lo == pytest.approx(now) and hi == pytest.approx(values[0]), (qid, system, str(m))
                    continue
                if exact and m.name in EXACT:
                    assert lo == pytest.approx(min(values), abs=1e-12), (qid, system, str(m), lo, min(values))
                    assert hi == pytest.approx(max(values), abs=1e-12), (qid, system, str(m), hi, max(values))
                else:
                    assert lo <= min(values) + 1e-12 and hi >= max(values) - 1e-12, (qid, system, str(m))
                # today's value (open = not relevant) is a completion: always within
                assert lo - 1e-12 <= values[0] <= hi + 1e-12
                assert b.settled[si, qi, mi] == (max(values) - min(values) < 1e-12) or not exact


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_bounds_are_exact_over_every_completion(questions):
    con, b, systems = _compute(questions)
    _enumerate(questions, b, systems)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_the_looser_ndcg_pair_still_contains_every_completion(questions):
    """nDCG without enumeration (more open paragraphs than EXACT_NDCG_OPEN): the proven
    looser pair for every ranking."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bounds, "EXACT_NDCG_OPEN", -1)
        con, b, systems = _compute(questions)
    _enumerate(questions, b, systems, exact=False)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_todays_value_is_the_engines(questions):
    """The all-open-are-0 completion the reference computes is the engine's value: the
    reference and the engine read the rankings the same way."""
    qrels, run, pool = _tables(questions)
    if qrels.empty:
        return
    con, b, systems = _compute(questions)
    measures = [m for m in MEASURES if m.name != "Judged"]
    result = evaluate(con, "items", "runs", measures, systems=systems, n_boot=0, n_perm=0)
    for row in result.per_query.itertuples():
        q = next(x for x in questions if x[0] == row.qid)
        judged = {p: g for p, g in {**q[1], **q[2]}.items() if g is not None}
        m = next(m for m in measures if str(m) == row.measure)
        assert row.value == pytest.approx(reference(m, q[3].get(row.system, []), judged, None), abs=1e-12)


def test_a_relevant_paragraph_low_in_the_ranking_can_lower_ndcg():
    """The case that makes nDCG non-monotone: the open paragraph at rank 3 made relevant
    raises the ideal more than DCG, so the low bound is below today's value."""
    questions = [("q0", {"a": 2, "b": 0, "c": None}, {}, {"s": ["a", "b", "c"]})]
    m = parse_measures(["nDCG@3"], default_rel=2)
    con, b, systems = _compute(questions, m)
    now = 1.0  # only a is relevant, at rank 1
    with_c = (2 + 2 / math.log2(4)) / (2 + 2 / math.log2(3))
    assert b.high[0, 0, 0] == pytest.approx(now)
    assert b.low[0, 0, 0] == pytest.approx(with_c) and with_c < now
    assert not b.settled[0, 0, 0]


def test_a_question_nobody_judged_has_bounds_and_the_unpooled_stay_irrelevant():
    questions = [("q0", {"a": None, "b": None}, {}, {"s": ["u", "a", "b"]})]
    rr = parse_measures(["RR@10", "P@2"], default_rel=2)
    con, b, systems = _compute([(q, p, e, r) for q, p, e, r in questions], rr)
    assert list(b.qids) == ["q0"] and not b.judged[0]
    assert b.low[0, 0, 0] == 0.0 and b.high[0, 0, 0] == pytest.approx(0.5)  # u at rank 1 is not pooled
    assert b.high[0, 0, 1] == pytest.approx(0.5)


def test_rr_settles_once_the_first_open_or_relevant_paragraph_is_relevant():
    m = parse_measures(["RR@10"], default_rel=2)
    _, b, _ = _compute([("q0", {"a": 0, "b": 2, "c": None}, {}, {"s": ["a", "b", "c"]})], m)
    assert b.settled[0, 0, 0] and b.low[0, 0, 0] == pytest.approx(0.5)
    _, b, _ = _compute([("q0", {"a": None, "b": 2}, {}, {"s": ["a", "b"]})], m)
    assert not b.settled[0, 0, 0] and (b.low[0, 0, 0], b.high[0, 0, 0]) == (0.5, 1.0)


def test_means_carry_the_mean_of_the_bounds_over_answerable_questions():
    questions = [
        ("q0", {"a": 2}, {}, {"s": ["a"]}),
        ("q1", {"b": None}, {}, {"s": ["b"]}),
        ("q2", {"c": 0}, {}, {"s": ["c"]}),
    ]
    m = parse_measures(["RR@10"], default_rel=2)
    _, b, _ = _compute(questions, m)
    per_q, means = bounds.frames(b, {}, {"q2"}, "all", "(none)")
    row = means[(means.qtype == "all")].iloc[0]
    assert row.n_bounded == 2 and row.bound_low == pytest.approx(0.5) and row.bound_high == pytest.approx(1.0)
    assert not row.settled and row.n_open == 1
    assert np.isclose(per_q[per_q.qid == "q0"].bound_low, 1.0).all()


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(campaigns())
def test_the_judging_plan_and_the_bounds_agree_on_when_rr_is_settled(questions):
    """One rule: reljudge.campaign.plan.settled (what the judging page asks for) and the bounds'
    settled RR@K (what the dashboard marks) say the same for every ranking."""
    from reljudge.campaign import plan

    questions = [(q, pooled, {}, rankings) for q, pooled, _, rankings in questions]
    measures = parse_measures(["RR@1", "RR@3", "RR@10", "RR(rel=1)@5"], default_rel=2)
    con, b, systems = _compute(questions, measures)
    for qid, pooled, _, rankings in questions:
        qi = list(b.qids).index(qid)
        grades = {p: g for p, g in pooled.items() if g is not None}
        for si, system in enumerate(systems):
            for mi, m in enumerate(measures):
                ok = plan.settled(rankings.get(system, []), grades, set(pooled), m.rel, m.k)
                assert ok == bool(b.settled[si, qi, mi]), (qid, system, str(m))
