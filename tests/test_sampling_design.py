"""The draw of reljudge.eval.sampling: a pure, seeded function of the pool's best ranks,
the rate and the known items, with exact inclusion probabilities (docs/sampling.md)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reljudge.eval import sampling as sm


def _pool(n: int, seed: int = 0) -> dict[str, int | None]:
    rng = np.random.default_rng(seed)
    return {f"p{i:03d}": (None if rng.random() < 0.1 else int(rng.integers(1, 12))) for i in range(n)}


def test_best_ranks_is_the_smallest_rank_within_depth():
    rankings = {"a": ["x", "y", "z"], "b": ["z", "x", "w"]}
    assert sm.best_ranks(rankings, {"x", "y", "z", "w", "v"}, depth=2) == {
        "x": 1,
        "y": 2,
        "z": 1,
        "w": None,
        "v": None,
    }


def test_same_seed_same_draw_other_seed_other_draw():
    pool = _pool(40)
    a = sm.draw(pool, 0.3, 7, qid="q1")
    b = sm.draw(dict(reversed(list(pool.items()))), 0.3, 7, qid="q1")
    assert a == b
    assert sm.draw(pool, 0.3, 8, qid="q1").to_judge() != a.to_judge()
    assert sm.draw(pool, 0.3, 7, qid="q2").to_judge() != a.to_judge()


def test_sizes_and_inclusion_probabilities_are_exact():
    pool = _pool(57, seed=3)
    known = {"p000", "p001", "p002", "p010"}
    d = sm.draw(pool, 0.25, 1, known, qid="q")
    rest = len(pool) - len(known)
    assert len(d.to_judge()) == math.floor(0.25 * rest + 0.5)
    assert sum(s.drawn for s in d.strata) == len(d.to_judge())
    by_label = {s.label: s for s in d.strata}
    for x in d.items:
        if x.item in known:
            assert (x.known, x.drawn, x.pi, x.stratum) == (True, True, 1.0, sm.KNOWN_STRATUM)
        else:
            s = by_label[x.stratum]
            assert x.pi == s.drawn / s.size > 0
    for s in d.strata:
        members = [x for x in d.items if x.stratum == s.label and not x.known]
        assert len(members) == s.size and sum(x.drawn for x in members) == s.drawn
        assert s.drawn >= min(sm.MIN_PER_STRATUM, s.size)
        ranks = [x.best_rank for x in members if x.best_rank is not None]
        assert (s.rank_low, s.rank_high) == ((min(ranks), max(ranks)) if ranks else (None, None))


def test_strata_follow_best_rank():
    # a stratum covers a run of best ranks: no rank of one stratum lies inside another's range
    d = sm.draw(_pool(200, seed=5), 0.5, 2, qid="q")
    spans = [(s.rank_low, s.rank_high) for s in d.strata if s.rank_low is not None]
    for (a_lo, a_hi), (b_lo, b_hi) in zip(spans, spans[1:]):
        assert a_hi < b_lo


def test_rate_zero_and_one():
    pool = _pool(20)
    assert sm.draw(pool, 0.0, 1, qid="q").to_judge() == []
    full = sm.draw(pool, 1.0, 1, {"p003"}, qid="q")
    assert sorted(full.to_judge()) == sorted(set(pool) - {"p003"})
    assert all(x.pi == 1.0 for x in full.items)


def test_a_tiny_rate_still_draws_two_so_every_item_can_be_drawn():
    d = sm.draw(_pool(30), 0.01, 1, qid="q")
    assert len(d.to_judge()) == 2
    assert all(x.pi > 0 for x in d.items)


def test_empirical_inclusion_frequency_matches_pi():
    # over many seeds each item is drawn with frequency π_i (within 4 binomial standard errors)
    pool = _pool(25, seed=9)
    known = {"p001", "p004"}
    n = 3000
    counts = {p: 0 for p in pool}
    pis = sm.draw(pool, 0.3, 0, known, qid="q").inclusion()
    for seed in range(n):
        d = sm.draw(pool, 0.3, seed, known, qid="q")
        assert d.inclusion() == pis  # π does not depend on the seed
        for p in d.to_judge():
            counts[p] += 1
    for p, pi in pis.items():
        if p in known:
            assert counts[p] == 0
            continue
        se = math.sqrt(pi * (1 - pi) / n)
        assert abs(counts[p] / n - pi) <= 4 * se + 1e-12, (p, counts[p] / n, pi)


def test_record_round_trip():
    d = sm.draw(_pool(30), 0.4, 11, {"p002"}, qid="q9")
    assert sm.Draw.from_dict(d.to_dict()) == d


@settings(max_examples=60, deadline=None)
@given(
    ranks=st.lists(st.one_of(st.none(), st.integers(1, 15)), min_size=1, max_size=40),
    rate=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**40),
    perm_seed=st.integers(0, 1000),
    n_known=st.integers(0, 5),
)
def test_draw_is_independent_of_input_order(ranks, rate, seed, perm_seed, n_known):
    pool = {f"i{j}": r for j, r in enumerate(ranks)}
    known = set(list(pool)[:n_known])
    keys = list(pool)
    np.random.default_rng(perm_seed).shuffle(keys)
    a = sm.draw(pool, rate, seed, known, qid="q")
    b = sm.draw({k: pool[k] for k in keys}, rate, seed, list(reversed(sorted(known))), qid="q")
    assert a == b
    assert all(0 < x.pi <= 1 for x in a.items) or rate == 0 or len(pool) == len(known)


def test_rank_allocation_favours_high_best_ranks_and_keeps_pi_exact():
    pool = {f"p{i:03d}": (i % 10) + 1 for i in range(100)}
    d = sm.draw(pool, 0.3, 4, qid="q", allocation="rank")
    by = {s.label: s for s in d.strata}
    pis = [(s.rank_low, s.drawn / s.size) for s in d.strata]
    assert pis == sorted(pis, key=lambda t: t[0]) and pis[0][1] > pis[-1][1]  # π falls with best rank
    assert all(x.pi == by[x.stratum].drawn / by[x.stratum].size for x in d.items)
    assert abs(len(d.to_judge()) - 30) <= len(d.strata) * sm.MIN_PER_STRATUM
    assert all(s.drawn >= min(s.size, sm.MIN_PER_STRATUM) for s in d.strata)


def test_rank_allocation_inclusion_frequency_matches_pi():
    pool = _pool(30, seed=2)
    n = 2000
    pis = sm.draw(pool, 0.25, 0, qid="q", allocation="rank").inclusion()
    counts = dict.fromkeys(pool, 0)
    for seed in range(n):
        for p in sm.draw(pool, 0.25, seed, qid="q", allocation="rank").to_judge():
            counts[p] += 1
    for p, pi in pis.items():
        assert abs(counts[p] / n - pi) <= 4 * math.sqrt(pi * (1 - pi) / n) + 1e-12
