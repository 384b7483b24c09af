"""The estimators of reljudge.eval.sampling: exact on a fully judged question (equal to
reljudge.evaluate), Horvitz–Thompson totals unbiased (by simulation, tolerance from the
variance), hand-computed cases from the published definitions, intervals that cover,
clipping into [0, 1] and the hard bounds, and the trec-sampled qrels text."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reljudge
from reljudge.eval import bounds as rj_bounds
from reljudge.eval import sampling as sm
from reljudge.eval.measures import parse_measures

K = 5
MEASURES = parse_measures([f"P@{K}", f"R@{K}", f"nDCG@{K}", "nDCG@3", "AP"], default_rel=1)


def _question(rng: np.random.Generator, n_pool: int = 14, systems: str = "abc", depth: int = K):
    """rankings (system -> ids, rank order), the pooled ids (union of the top ``depth``), grades."""
    docs = [f"d{i:02d}" for i in range(n_pool)]
    rankings = {s: [str(x) for x in rng.permutation(docs)[: depth + 2]] for s in systems}
    pooled = sorted({p for r in rankings.values() for p in r[:depth]})
    grades = {p: int(rng.choice([0, 0, 0, 1, 2])) for p in pooled}
    return rankings, pooled, grades


def _reljudge_values(rankings, grades, measures, rel=1):
    qrels = pd.DataFrame([("q", p, g) for p, g in grades.items()], columns=["query_id", "doc_id", "relevance"])
    out = {}
    for s, items in rankings.items():
        # distinct descending scores: the run's order is the ranking's order under every tie rule
        run = pd.DataFrame([("q", p, 100.0 - i) for i, p in enumerate(items)], columns=["query_id", "doc_id", "score"])
        ev = reljudge.evaluate(qrels, run, [str(m) for m in measures], rel=rel, per_query=True)
        out[s] = dict(zip(ev.measure, ev.value))
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n_pool=st.integers(3, 20), rate=st.sampled_from([1.0]))
def test_full_judging_gives_reljudges_value_with_zero_width(seed, n_pool, rate):
    rng = np.random.default_rng(seed)
    rankings, pooled, grades = _question(rng, n_pool)
    known = set(pooled[: int(rng.integers(0, len(pooled) + 1))])
    d = sm.draw(sm.best_ranks(rankings, pooled, K), rate, seed, known, qid="q")
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, MEASURES)
    want = _reljudge_values(rankings, grades, MEASURES)
    for si, s in enumerate(e.systems):
        for mi, m in enumerate(MEASURES):
            assert e.value[si, 0, mi] == pytest.approx(want[s][str(m)], abs=1e-9), (s, m)
            assert e.low[si, 0, mi] == e.high[si, 0, mi] == e.value[si, 0, mi]
            assert e.mean[si, mi] == pytest.approx(want[s][str(m)], abs=1e-9)
            assert e.mean_low[si, mi] == e.mean_high[si, mi]
    assert not e.estimated.any()


def test_rr_first_items_and_the_rest_judged_is_exact_too():
    # the sample need not hold the whole pool: known + drawn covering it is complete
    rng = np.random.default_rng(4)
    rankings, pooled, grades = _question(rng)
    d = sm.draw(sm.best_ranks(rankings, pooled, K), 1.0, 0, pooled[:4], qid="q")
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, MEASURES)
    assert (e.se == 0).all() and not e.estimated.any()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), rate=st.floats(0.05, 0.95), n_pool=st.integers(2, 20))
def test_estimates_and_intervals_lie_in_0_1(seed, rate, n_pool):
    rng = np.random.default_rng(seed)
    rankings, pooled, grades = _question(rng, n_pool)
    d = sm.draw(sm.best_ranks(rankings, pooled, K), rate, seed, qid="q")
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, MEASURES)
    for arr in (e.value, e.low, e.high, e.mean, e.mean_low, e.mean_high):
        assert np.all((arr >= 0) & (arr <= 1))
    assert np.all(e.low <= e.value + 1e-12) and np.all(e.value <= e.high + 1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), rate=st.floats(0.1, 0.9), perm=st.integers(0, 100))
def test_estimates_do_not_depend_on_the_order_of_the_inputs(seed, rate, perm):
    rng = np.random.default_rng(seed)
    rankings, pooled, grades = _question(rng)
    br = sm.best_ranks(rankings, pooled, K)
    d = sm.draw(br, rate, seed, qid="q")
    keys = list(br)
    np.random.default_rng(perm).shuffle(keys)
    d2 = sm.draw({k: br[k] for k in keys}, rate, seed, qid="q")
    g2 = {k: grades[k] for k in reversed(list(grades))}
    r2 = {s: rankings[s] for s in reversed(list(rankings))}
    a = sm.estimate([d], {"q": grades}, {"q": rankings}, MEASURES)
    b = sm.estimate([d2], {"q": g2}, {"q": r2}, MEASURES)
    assert a.systems == b.systems
    np.testing.assert_allclose(a.value, b.value, atol=1e-12)
    np.testing.assert_allclose(a.se, b.se, atol=1e-12)


def test_hand_computed_stratified_case():
    # pool d0..d5; system s ranks d0 d1 d2 d3 d4 (K = 3); d5 only pooled.
    # known C = {d0} (grade 2); stratum of best ranks 2..3 = {d1, d2}; deeper {d3, d4, d5}.
    rankings = {"s": ["d0", "d1", "d2", "d3", "d4"]}
    grades = {"d0": 2, "d1": 1, "d2": 0, "d3": 2, "d4": 0, "d5": 1}
    d = sm.Draw(
        "q",
        0.5,
        0,
        (
            sm.DrawnItem("d0", 1, 0, 1.0, True, True),
            sm.DrawnItem("d1", 2, 1, 0.5, True, False),
            sm.DrawnItem("d2", 3, 1, 0.5, False, False),
            sm.DrawnItem("d3", 4, 2, 2 / 3, True, False),
            sm.DrawnItem("d4", 5, 2, 2 / 3, False, False),
            sm.DrawnItem("d5", None, 2, 2 / 3, True, False),
        ),
        (sm.Stratum(1, 2, 3, 2, 1), sm.Stratum(2, 4, 5, 3, 2)),
    )
    ms = parse_measures(["P@3", "R@3", "nDCG@3"], default_rel=1)
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, ms, correct_bias=False, variance="taylor")
    # HT (Horvitz & Thompson 1952): weights 1 (d0), 2 (d1), 3/2 (d3, d5)
    A = 1 + 2 * 1  # relevant within 3: d0, d1
    R = 1 + 2 * 1 + 1.5 * 1 + 1.5 * 1  # d0, d1, d3, d5
    assert e.raw[0, 0, 0] == pytest.approx(A / 3)
    assert e.raw[0, 0, 1] == pytest.approx(A / R)
    # nDCG@3: DCG = 2/log2(2) + 2 * 1/log2(3); counts N2 = 1 + 1.5 = 2.5, N1 = 2 + 1.5 = 3.5
    # ideal@3 = 2*(1 + 1/log2 3) + 2*0.5/log2 4 (half of slot 3 at grade 2) + 1*0.5/log2 4
    dcg = 2 + 2 / math.log2(3)
    ideal = 2 * (1 + 1 / math.log2(3)) + 2 * 0.5 / 2 + 1 * 0.5 / 2
    assert e.raw[0, 0, 2] == pytest.approx(dcg / ideal)
    # P@3's variance (a HT total / 3): stratum 1 has n = 1 < N = 2, whose variance has no
    # unbiased estimate; the fallback is (1 - f) z^2 with z = y / π: (1 - 1/2) * (1/0.5)^2 = 2;
    # stratum 2 holds no item within 3 (z = 0): 0.
    assert e.se[0, 0, 0] == pytest.approx(math.sqrt(2) / 3)


def test_hand_computed_ht_variance_equals_the_textbook_form():
    # one stratum, no known item: V = N^2 (1 - f) s^2 / n (Cochran 1977, 5.7)
    pool = {f"d{i}": 1 for i in range(10)}
    rankings = {"s": [f"d{i}" for i in range(10)]}
    grades = {f"d{i}": (2 if i % 3 == 0 else 0) for i in range(10)}
    d = sm.draw(pool, 0.4, 5, qid="q")
    assert len(d.strata) == 1
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, parse_measures(["P@10"], default_rel=1))
    y = np.array([1.0 if grades[p] >= 1 else 0.0 for p in d.to_judge()])
    N, n = 10, len(y)
    v = N**2 * (1 - n / N) * y.var(ddof=1) / n
    assert e.raw[0, 0, 0] == pytest.approx(N * y.mean() / 10)
    assert e.se[0, 0, 0] == pytest.approx(math.sqrt(v) / 10)


def test_statap_hand_case_with_joint_probabilities():
    # statAP (Aslam, Pavlu & Yilmaz 2006): T = Σ_i w_i rel_i / r_i + Σ_{j above i} rel_i rel_j / (r_i π_ij)
    rankings = {"s": ["a", "b", "c", "d"]}
    grades = {"a": 1, "b": 0, "c": 1, "d": 1}
    d = sm.Draw(
        "q",
        0.5,
        0,
        (
            sm.DrawnItem("a", 1, 1, 0.5, True, False),
            sm.DrawnItem("b", 2, 1, 0.5, False, False),
            sm.DrawnItem("c", 3, 1, 0.5, True, False),
            sm.DrawnItem("d", 4, 1, 0.5, False, False),
        ),
        (sm.Stratum(1, 1, 4, 4, 2),),
    )
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, parse_measures(["AP"], default_rel=1))
    pij = 2 * 1 / (4 * 3)
    T = 2 / 1 + 2 / 3 + 1 / (3 * pij)
    R = 2 + 2
    assert e.raw[0, 0, 0] == pytest.approx(T / R)


def _campaign(seed: int, n_q: int, n_pool: int = 16):
    rng = np.random.default_rng(seed)
    qs = []
    for qi in range(n_q):
        rankings, pooled, grades = _question(rng, n_pool)
        qs.append((f"q{qi:02d}", rankings, pooled, grades))
    return qs


@pytest.mark.parametrize("allocation", ["proportional", "rank"])
def test_ht_totals_are_unbiased_by_simulation(allocation):
    # P@K is a HT total / K: over 1,000 draws the mean estimate must equal the full-pool
    # value within 4 standard errors of the simulated mean (its sd / √draws), per system
    qs = _campaign(1, 6)
    ms = parse_measures([f"P@{K}"], default_rel=1)
    known = {q: set(pooled[:3]) for q, _, pooled, _ in qs}
    exact = sm.estimate(
        [sm.draw(sm.best_ranks(r, p, K), 1.0, 0, qid=q) for q, r, p, _ in qs],
        {q: g for q, _, _, g in qs},
        {q: r for q, r, _, _ in qs},
        ms,
    ).raw[:, :, 0]
    n = 1000
    sims = np.zeros((n,) + exact.shape)
    for seed in range(n):
        draws = [
            sm.draw(sm.best_ranks(r, p, K), 0.3, seed, known[q], qid=q, allocation=allocation) for q, r, p, _ in qs
        ]
        sims[seed] = sm.estimate(draws, {q: g for q, _, _, g in qs}, {q: r for q, r, _, _ in qs}, ms).raw[:, :, 0]
    mean, sd = sims.mean(axis=0), sims.std(axis=0, ddof=1)
    assert (sd > 0).any()  # the simulation samples something
    assert np.all(np.abs(mean - exact) <= 4 * sd / math.sqrt(n) + 1e-12)


def _correlated_question(rng: np.random.Generator, n_docs: int = 40, systems: str = "abcd", k: int = 10):
    """A question whose systems rank relevant documents higher (score = 0.8 grade + noise):
    depth-10 pools of about 23 items, as in the bench's data."""
    docs = [f"d{i:02d}" for i in range(n_docs)]
    grade = {p: int(rng.choice([0, 0, 0, 0, 1, 2])) for p in docs}
    rankings = {}
    for s in systems:
        score = {p: grade[p] * 0.8 + rng.normal() for p in docs}
        rankings[s] = sorted(docs, key=lambda p: -score[p])[: k + 2]
    pooled = sorted({p for r in rankings.values() for p in r[:k]})
    return rankings, pooled, {p: grade[p] for p in pooled}


def test_interval_of_the_mean_covers_by_simulation():
    # 40 questions, 300 draws at 40 % (about 9 drawn items per question): the 95 %
    # judging-sample interval of each system's mean must cover the full-pool mean in
    # 88–99 % of the draws (about ±3 binomial standard errors around 95 %)
    k = 10
    rng = np.random.default_rng(3)
    qs = [(f"q{i}",) + _correlated_question(rng, k=k) for i in range(40)]
    ms = parse_measures([f"P@{k}", f"R@{k}", f"nDCG@{k}"], default_rel=1)
    grades = {q: g for q, _, _, g in qs}
    runs = {q: r for q, r, _, _ in qs}
    brs = {q: sm.best_ranks(r, p, k) for q, r, p, _ in qs}
    full = sm.estimate([sm.draw(brs[q], 1.0, 0, qid=q) for q, *_ in qs], grades, runs, ms).mean
    n = 300
    hits = np.zeros_like(full)
    for seed in range(n):
        e = sm.estimate([sm.draw(brs[q], 0.4, seed, qid=q) for q, *_ in qs], grades, runs, ms)
        hits += (e.mean_low <= full + 1e-12) & (full <= e.mean_high + 1e-12)
    cover = hits / n
    assert np.all((cover >= 0.88) & (cover <= 0.99)), cover


def _hard_bounds(rankings, pooled, judged, ms, systems):
    """reljudge.eval.bounds.measure_bounds for one question (unjudged pooled = open)."""
    n = len(systems)
    depth = max(int(m.k) for m in ms)
    grades = np.zeros((n, depth))
    is_j = np.zeros((n, depth), dtype=bool)
    is_o = np.zeros((n, depth), dtype=bool)
    counts = np.zeros((n, 2), dtype=np.int64)
    for i, s in enumerate(systems):
        for r, p in enumerate(rankings[s][:depth]):
            if p in judged:
                grades[i, r], is_j[i, r] = judged[p], True
            elif p in pooled:
                is_o[i, r] = True
        for g in judged.values():
            if g > 0:
                counts[i, g - 1] += 1
    open_q = np.full(n, sum(1 for p in pooled if p not in judged))
    n_rows = np.array([min(len(rankings[s]), depth) for s in systems])
    lo, hi = [], []
    for m in ms:
        a, b, _ = rj_bounds.measure_bounds(m, grades, is_j, is_o, counts, open_q, n_rows)
        lo.append(a)
        hi.append(b)
    return np.stack(lo, axis=-1)[:, None, :], np.stack(hi, axis=-1)[:, None, :]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), rate=st.floats(0.1, 0.9))
def test_clipped_estimates_lie_inside_the_hard_bounds(seed, rate):
    rng = np.random.default_rng(seed)
    rankings, pooled, grades = _question(rng)
    ms = parse_measures([f"P@{K}", f"R@{K}", f"nDCG@{K}"], default_rel=1)
    d = sm.draw(sm.best_ranks(rankings, pooled, K), rate, seed, qid="q")
    judged = {x.item: grades[x.item] for x in d.items if x.drawn}
    systems = sorted(rankings)
    lo, hi = _hard_bounds(rankings, pooled, judged, ms, systems)
    e = sm.estimate([d], {"q": judged}, {"q": rankings}, ms, bounds=(lo, hi))
    assert np.all(lo - 1e-12 <= e.value) and np.all(e.value <= hi + 1e-12)
    assert np.all(lo - 1e-12 <= e.low) and np.all(e.high <= hi + 1e-12)
    assert np.all(lo.mean(axis=1) - 1e-12 <= e.mean) and np.all(e.mean <= hi.mean(axis=1) + 1e-12)
    # and the full-pool value lies inside those bounds (what makes the clipping safe)
    full = sm.estimate(
        [sm.draw(sm.best_ranks(rankings, pooled, K), 1.0, 0, qid="q")], {"q": grades}, {"q": rankings}, ms
    )
    assert np.all(lo - 1e-9 <= full.value) and np.all(full.value <= hi + 1e-9)


def test_unjudged_drawn_items_shrink_the_stratum_as_sample_eval_does():
    rng = np.random.default_rng(8)
    rankings, pooled, grades = _question(rng, 18)
    d = sm.draw(sm.best_ranks(rankings, pooled, K), 0.5, 3, qid="q")
    todo = d.to_judge()
    partial = {p: grades[p] for p in todo[1:]}
    e = sm.estimate([d], {"q": partial}, {"q": rankings}, parse_measures([f"P@{K}"], default_rel=1))
    assert e.estimated.all()
    # π of the judged part = judged / N_h in each stratum: the HT total is then Σ y N_h / judged_h
    want = {s: 0.0 for s in rankings}
    for s in rankings:
        for st_ in d.strata:
            members = [x.item for x in d.items if x.stratum == st_.label]
            judged = [p for p in members if p in partial]
            top = set(rankings[s][:K])
            want[s] += sum(1 for p in judged if partial[p] >= 1 and p in top) * st_.size / max(len(judged), 1)
    np.testing.assert_allclose(e.raw[:, 0, 0], [want[s] / K for s in e.systems])


def test_frames_carry_the_json_fields():
    rng = np.random.default_rng(5)
    rankings, pooled, grades = _question(rng)
    d = sm.draw(sm.best_ranks(rankings, pooled, K), 0.5, 1, qid="q")
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, MEASURES)
    per_query, means = e.frames()
    for col in ("estimate", "estimate_low", "estimate_high", "estimated"):
        assert col in per_query and col in means
    assert len(per_query) == len(e.systems) * len(MEASURES)


def test_trec_sampled_qrels_text():
    rng = np.random.default_rng(6)
    rankings, pooled, grades = _question(rng)
    d = sm.draw(sm.best_ranks(rankings, pooled, K), 0.4, 2, pooled[:2], qid="q")
    judged = {x.item: grades[x.item] for x in d.items if x.drawn}
    text = sm.trec_sampled_qrels([d], {"q": judged})
    rows = [line.split() for line in text.splitlines()]
    assert len(rows) == len(pooled) and {r[2] for r in rows} == set(pooled)
    for qid, zero, item, stratum, grade in rows:
        x = next(x for x in d.items if x.item == item)
        assert (qid, zero) == ("q", "0")
        assert int(stratum) == (sm.KNOWN_STRATUM if x.known else x.stratum)
        assert int(grade) == (grades[item] if x.drawn else -1)


def test_unknown_family_is_refused():
    rng = np.random.default_rng(1)
    rankings, pooled, grades = _question(rng)
    d = sm.draw(sm.best_ranks(rankings, pooled, K), 0.5, 1, qid="q")
    with pytest.raises(ValueError):
        sm.estimate([d], {"q": grades}, {"q": rankings}, parse_measures(["RR@5"], default_rel=1))


def test_grades_above_the_scale_enter_the_ideal_ranking():
    # file-mode qrels (TREC CAsT grades 0–4): a fully judged question is still exact
    rng = np.random.default_rng(12)
    rankings, pooled, _ = _question(rng, 16)
    grades = {p: int(rng.integers(0, 5)) for p in pooled}
    d = sm.draw(sm.best_ranks(rankings, pooled, K), 1.0, 0, qid="q")
    ms = parse_measures([f"nDCG@{K}"], default_rel=1)
    e = sm.estimate([d], {"q": grades}, {"q": rankings}, ms)
    want = _reljudge_values(rankings, grades, ms)
    for si, s in enumerate(e.systems):
        assert e.value[si, 0, 0] == pytest.approx(want[s][str(ms[0])], abs=1e-9)
