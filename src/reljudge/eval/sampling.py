"""Sampling a question's pool and estimating Recall, nDCG, P and AP from the sample.

A pure library (no database, no Streamlit): the draw (:func:`draw`), the estimators
(:func:`estimate`) and the qrels text TREC's ``sample_eval.pl`` reads
(:func:`trec_sampled_qrels`).  docs/sampling.md gives the argument for unbiasedness and
the bench figures (bench/bench_sampling.py).

The design (one question)
-------------------------
The question's pool P, each item with its *best rank* b(i) = the smallest rank any
system gives it (1-based, within the pool depth; ``None``: pooled but ranked by nobody
within the depth).  A set C of items is *known*: judged with certainty (rr-first's items,
or any set fixed before the draw).  The rest, P \\ C, is cut into strata by best rank
(``edges``: b ≤ 1, ≤ 2, ≤ 3, ≤ 5, ≤ 10, deeper, unranked), adjacent strata merged until
each can hold ``min_per_stratum`` draws at the rate (so every stratum's variance is
estimable), and n = round(rate · |P \\ C|) items (at least ``min(2, |P \\ C|)`` when
rate > 0) are allocated to the strata in proportion to their sizes (largest remainder).
Within stratum h, n_h of its N_h items are drawn by simple random sampling without
replacement, from a generator seeded by (seed, question id) only.  Hence the inclusion
probabilities are known and exact:

    π_i = 1 for i ∈ C,    π_i = n_h / N_h for i in stratum h,
    π_ij = π_i π_j (different strata),   π_ij = n_h (n_h − 1) / (N_h (N_h − 1)) (same stratum),

and nothing in the draw reads a grade (stratified sampling, Cochran 1977 ch. 5; the
strata by best rank are what sample_eval.pl's "categories" are: Yilmaz, Kanoulas & Aslam,
SIGIR 2008).

The estimators (one system, one question, cut at K)
---------------------------------------------------
Weights w_i = 1 on C, 1/π_i on the judged part of the sample, 0 elsewhere.  While a
sample is being judged, the judged items of each stratum are taken as its sample
(π_h = judged / N_h, as sample_eval.pl does); once every drawn item is judged this is
the design's π.  rel_i = [grade ≥ rel], g_i = max(grade, 0), r_s(i) the item's rank in
system s (items outside the pool count 0, as trec_eval's unjudged).

* Horvitz–Thompson totals (Horvitz & Thompson, JASA 1952): Ŷ = Σ_i w_i y_i, exactly
  unbiased for Y = Σ_{i∈P} y_i for any y fixed by the grades.  R̂ = Σ w_i rel_i (the
  number relevant), Â = Σ w_i rel_i [r_s(i) ≤ K] (relevant retrieved within K),
  D̂ = Σ w_i g_i / log2(r_s(i) + 1) [r_s(i) ≤ K] (DCG@K), N̂_g = Σ w_i [g_i = g].
* P@K = Â / K: a HT total, exactly unbiased.
* R@K = Â / R̂ (a ratio estimator: nearly unbiased, bias O(1/n); 0 when R̂ = 0).
* nDCG@K = D̂ / IDCG@K(N̂_1 … N̂_top): the ideal ranking of the estimated grade counts,
  the top grade first, with fractional counts filling a fractional slot
  (IDCG(N) = Σ_g g (F(e_g) − F(s_g)), F the piecewise-linear prefix sum of the
  discounts), so it is exact on integer counts.  infNDCG (Yilmaz, Kanoulas & Aslam 2008)
  builds the ideal the same way; sample_eval.pl rounds each count to an integer.
* AP = (1/R) Σ_i rel_i prec@r(i) over the system's whole ranking: statAP's form
  (Aslam, Pavlu & Yilmaz, SIGIR 2006) with exact second-order probabilities:
  T̂ = Σ_i w_i rel_i / r_i + Σ_{i, j judged, r_j < r_i} rel_i rel_j / (r_i π_ij), and
  AP̂ = T̂ / R̂.  (infAP, Yilmaz & Aslam CIKM 2006, is the special case of one uniform
  stratum with the expected precision above each rank.)

Bias correction (default: the jackknife's): a ratio's bias does not shrink with the number
of questions while the mean's standard error does, so it is removed per question:
``correct_bias="jackknife"`` subtracts Quenouille's stratified jackknife bias estimate
Σ_h (1 − f_h)(n_h − 1)(θ̄_(h) − θ̂) (Quenouille, Biometrika 1956; Wolter 2007 §4.5);
``"taylor"`` subtracts the second-order Taylor term (θ̂ V̂(den) − Ĉ(num, den)) / den²
(Cochran 1977 §6.8; for nDCG "den" is IDCG linearised in the N̂_g); False: none.
bench/bench_sampling.py measures the bias that is left (docs/sampling.md).

The judging-sample interval: per question, the variance of the ratio by the stratified
delete-one jackknife (``variance="jackknife"``, default: deleting judged item j of stratum h
re-weights the stratum's others by N_h / (n_h − 1); V_J = Σ_h (1 − f_h)(n_h − 1)/n_h
Σ_j (θ̂_(hj) − θ̄_(h))²) or the linearised (Taylor) one, V̂(θ̂) = V̂_HT(u) with
u_i = (num_i − θ̂ den_i) / den (``variance="taylor"``); P@K, a total, takes the HT variance
under stratified SRS with z_i = y_i / π_i over the judged items s_h of stratum h:

    V̂_h = (1 − f_h) Σ z_i² − (N_h − n_h) / ((n_h − 1) N_h) · ((Σ z_i)² − Σ z_i²),  f_h = n_h / N_h

(= N_h² (1 − f_h) s_h² / n_h when no item of the stratum is known; items of C inside a
stratum carry z = 0; a stratum with one judged item of several falls back to
(1 − f_h) z², its variance having no unbiased estimate).  AP's variance is the same
jackknife.  Questions are drawn independently, so the mean's variance is Σ_q V̂_q / Q²; the
interval is θ̄ ± z √V̂, clipped into [0, 1] (and into the hard bounds of
:mod:`reljudge.eval.bounds` when given).  A fully judged question has every f_h = 1: its
estimate is its exact value and its interval has zero width.  Known weakness (measured):
with few draws per question and rare relevant items most samples show no variation, and
the interval undercovers.

Clipping: every per-question estimate is clipped into [0, 1] and, when bounds are
given, into its hard bounds (which contain the full-pool value, so clipping never
moves an estimate away from it).  The mean is the mean of the *unclipped* (bias-corrected)
per-question estimates, then clipped into [0, 1] and into the mean of the bounds.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from reljudge.grades import TOP_GRADE
from reljudge.eval import trec_io
from reljudge.eval.measures import Measure

#: best-rank edges of the strata: b ≤ 1, ≤ 2, ≤ 3, ≤ 5, ≤ 10, deeper; unranked last
DEFAULT_EDGES: tuple[int, ...] = (1, 2, 3, 5, 10)
#: the fewest draws a stratum is built to hold (two make its variance estimable)
MIN_PER_STRATUM = 2
#: the families estimated here
ESTIMATED_FAMILIES = ("P", "R", "nDCG", "AP")
#: how a draw spreads its sample over the strata unless told otherwise (:func:`draw`); the
#: plans draw with it
DEFAULT_ALLOCATION = "proportional"
#: the normal quantile of the 95 % interval
Z95 = 1.959963984540054
#: the stratum label of the known items (C) in the trec-sampled qrels
KNOWN_STRATUM = 0


# -- the draw ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DrawnItem:
    """One pooled item of a draw: its stratum (``KNOWN_STRATUM`` for a known item, 1 … H
    otherwise), its inclusion probability and whether it is to be judged."""

    item: str
    best_rank: int | None
    stratum: int
    pi: float
    drawn: bool
    known: bool


@dataclass(frozen=True)
class Stratum:
    """Stratum ``label`` (1 … H): ``size`` N_h items whose best ranks run from ``rank_low``
    to ``rank_high`` (``None``: only unranked items), ``drawn`` n_h of them."""

    label: int
    rank_low: int | None
    rank_high: int | None
    size: int
    drawn: int


@dataclass(frozen=True)
class Draw:
    """The draw of one question: a pure function of (pool with best ranks, rate, seed,
    known items, edges).  ``items`` in item-id order."""

    qid: str
    rate: float
    seed: int
    items: tuple[DrawnItem, ...]
    strata: tuple[Stratum, ...]

    def to_judge(self) -> list[str]:
        """The drawn items that are not known: what the sample adds to judging."""
        return [x.item for x in self.items if x.drawn and not x.known]

    def inclusion(self) -> dict[str, float]:
        """item → π_i (1 for known items)."""
        return {x.item: x.pi for x in self.items}

    def to_dict(self) -> dict:
        """A JSON-able record (the bundle keeps it; :func:`Draw.from_dict` reads it back)."""
        return {
            "qid": self.qid,
            "rate": self.rate,
            "seed": self.seed,
            "items": [[x.item, x.best_rank, x.stratum, x.pi, x.drawn, x.known] for x in self.items],
            "strata": [[s.label, s.rank_low, s.rank_high, s.size, s.drawn] for s in self.strata],
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> Draw:
        return cls(
            str(d["qid"]),
            float(d["rate"]),
            int(d["seed"]),
            tuple(DrawnItem(str(a), b, int(c), float(p), bool(e), bool(k)) for a, b, c, p, e, k in d["items"]),
            tuple(Stratum(int(a), b, c, int(n), int(m)) for a, b, c, n, m in d["strata"]),
        )


def best_ranks(rankings: Mapping[str, Sequence[str]], pooled: Collection[str], depth: int) -> dict[str, int | None]:
    """item → the best (smallest) rank any system gives it within ``depth``, for every
    pooled item (``None`` when no system ranks it that high).  ``rankings``: system → item
    ids in rank order, as :mod:`reljudge.eval.ranking` orders them (this module orders
    nothing)."""
    pooled = set(pooled)
    best: dict[str, int | None] = {p: None for p in pooled}
    for items in rankings.values():
        for r, p in enumerate(items[:depth], start=1):
            if p in pooled and (best[p] is None or r < best[p]):
                best[p] = r
    return best


def _fine_stratum(b: int | None, edges: Sequence[int]) -> int:
    if b is None:
        return len(edges) + 1
    for i, e in enumerate(edges):
        if b <= e:
            return i
    return len(edges)


def _rng(seed: int, qid: str) -> np.random.Generator:
    # seeded by (seed, question id) only: the same draw for every annotator, order and run
    h = hashlib.sha256(str(qid).encode("utf-8")).digest()
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, int(seed) >> 32 & 0xFFFFFFFF, *np.frombuffer(h[:16], "<u4")])


def _largest_remainder(total: int, sizes: Sequence[int]) -> list[int]:
    N = sum(sizes)
    if N == 0 or total <= 0:
        return [0] * len(sizes)
    quota = [total * s / N for s in sizes]
    out = [min(int(math.floor(q)), s) for q, s in zip(quota, sizes)]
    order = sorted(range(len(sizes)), key=lambda i: (-(quota[i] - math.floor(quota[i])), i))
    left = total - sum(out)
    while left > 0:
        moved = False
        for i in order:
            if left and out[i] < sizes[i]:
                out[i] += 1
                left -= 1
                moved = True
        if not moved:
            break
    return out


def _rank_allocation(n_total: int, members, br, edges, min_per: int) -> list[int]:
    """n_h ≈ N_h · min(1, c · w_h) with Σ = n_total (water-filling on c), w_h the stratum's
    mean 1 / log2(b + 1) (unranked: the rank below the deepest edge)."""
    if n_total <= 0 or not members:
        return [0] * len(members)
    deep = edges[-1] + 1 if edges else 11
    w = np.array([np.mean([1.0 / math.log2((br[p] or deep) + 1) for p in m]) for m in members])
    N = np.array([len(m) for m in members], dtype=float)
    lo, hi = 0.0, 1.0 / w.min()
    for _ in range(100):  # bisection: Σ N_h min(1, c w_h) is increasing in c
        c = (lo + hi) / 2
        if (N * np.minimum(1.0, c * w)).sum() < n_total:
            lo = c
        else:
            hi = c
    e = N * np.minimum(1.0, hi * w)
    out = [min(int(math.floor(x)), int(n)) for x, n in zip(e, N)]
    order = sorted(range(len(out)), key=lambda i: (-(e[i] - math.floor(e[i])), i))
    for i in order:
        if sum(out) >= n_total:
            break
        if out[i] < N[i]:
            out[i] += 1
    return [max(o, min(int(n), min_per)) for o, n in zip(out, N)]


def draw(
    best_rank: Mapping[str, int | None],
    rate: float,
    seed: int,
    known: Collection[str] = (),
    *,
    qid: str = "",
    edges: Sequence[int] = DEFAULT_EDGES,
    min_per_stratum: int = MIN_PER_STRATUM,
    allocation: str = DEFAULT_ALLOCATION,
) -> Draw:
    """Draw a stratified random sample of one question's pool (module docstring).

    ``best_rank``: every pooled item → its best rank (:func:`best_ranks`); ``rate``: the
    share of the not-known items to draw (0 … 1); ``known``: items judged with certainty
    (π = 1); ``qid`` enters the seed so that questions are drawn independently.  Reads no
    grade; the result does not depend on the order of the input items.

    ``allocation``: ``proportional`` (n_h ∝ N_h: one π for all) or ``rank`` (π_h ∝ the mean
    over the stratum of 1 / log2(b + 1), the largest weight the item can carry in any system's
    DCG — a prior fixed by ranks alone, as statAP's is; capped at 1 by water-filling, at least
    ``min_per_stratum`` per stratum, so the total may exceed round(rate · N) by a few)."""
    if not 0.0 <= float(rate) <= 1.0 or math.isnan(float(rate)):
        raise ValueError(f"rate must lie in [0, 1], got {rate!r}")
    known = {str(k) for k in known}
    items = sorted(str(p) for p in best_rank)
    br = {str(p): best_rank[p] for p in best_rank}
    rest = [p for p in items if p not in known]
    n_total = int(math.floor(rate * len(rest) + 0.5))
    if rate > 0:
        n_total = max(n_total, min(len(rest), min_per_stratum))
    # fine strata by best rank, then merged in best-rank order until each can hold
    # min_per_stratum draws at this rate (the tail joins the last group)
    fine: dict[int, list[str]] = {}
    for p in rest:
        fine.setdefault(_fine_stratum(br[p], edges), []).append(p)
    keys = sorted(fine)
    groups: list[list[int]] = []
    need = (min_per_stratum / (n_total / len(rest))) if n_total and rest else float("inf")
    acc: list[int] = []
    for key in keys:
        acc.append(key)
        if sum(len(fine[k]) for k in acc) >= need:
            groups.append(acc)
            acc = []
    if acc:
        if groups:
            groups[-1] = groups[-1] + acc
        else:
            groups.append(acc)
    members = [sorted(p for k in g for p in fine[k]) for g in groups]
    if allocation == "proportional":
        alloc = _largest_remainder(n_total, [len(m) for m in members])
    elif allocation == "rank":
        alloc = _rank_allocation(n_total, members, br, edges, min_per_stratum)
    else:
        raise ValueError(f"unknown allocation {allocation!r}: proportional or rank")
    rng = _rng(seed, qid)
    out: dict[str, DrawnItem] = {}
    strata: list[Stratum] = []
    for label, (g, m, n_h) in enumerate(zip(groups, members, alloc), start=1):
        pick = set(rng.permutation(len(m))[:n_h].tolist()) if n_h else set()
        pi = n_h / len(m)
        for j, p in enumerate(m):
            out[p] = DrawnItem(p, br[p], label, pi, j in pick, False)
        ranked = [br[p] for p in m if br[p] is not None]
        strata.append(Stratum(label, min(ranked) if ranked else None, max(ranked) if ranked else None, len(m), n_h))
    for p in items:
        if p in known:
            out[p] = DrawnItem(p, br[p], KNOWN_STRATUM, 1.0, True, True)
    return Draw(str(qid), float(rate), int(seed), tuple(out[p] for p in items), tuple(strata))


# -- the estimates -------------------------------------------------------------------------


@dataclass
class Estimates:
    """Estimates of systems × questions × measures (arrays ``[s, q, m]``) and their means
    over the questions ``included`` (arrays ``[s, m]``).

    ``value``: the (bias-corrected, clipped) estimate; ``se``: its judging-sample standard
    error; ``low``/``high``: the judging-sample interval; ``raw``: the unclipped estimate
    the mean is built from; ``estimated[q]``: sampling, not judging, decides the question
    (some pooled item of it is neither judged nor known)."""

    systems: list[str]
    qids: list[str]
    measures: list[Measure]
    value: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    raw: np.ndarray
    estimated: np.ndarray
    included: np.ndarray
    mean: np.ndarray
    mean_se: np.ndarray
    mean_low: np.ndarray
    mean_high: np.ndarray
    notes: dict = field(default_factory=dict)
    #: what the means are built from (:meth:`means_over`): per-question variances, the
    #: clipping bounds and the quantile
    var: np.ndarray | None = None
    bound_low: np.ndarray | None = None
    bound_high: np.ndarray | None = None

    def means_over(self, qids: Collection[str]):
        """(mean, se, low, high), arrays ``[s, m]``, over the questions ``qids`` (those of
        the estimate; NaN when none): the rule of the means of :func:`estimate` applied to
        another subset (a question type)."""
        inc = np.array([q in set(qids) for q in self.qids], dtype=bool)
        return _means(self.raw, self.var, ~self.estimated, self.bound_low, self.bound_high, inc, self.notes["z"])

    def frames(self):
        """Two long tables: per question (system, qid, measure, estimate, estimate_low,
        estimate_high, estimate_se, estimated) and means (system, measure, n, estimate,
        estimate_low, estimate_high, estimate_se, estimated) — the fields ``reljudge
        evaluate --format json`` gains."""
        import pandas as pd

        S, Q, M = self.value.shape
        names = [str(m) for m in self.measures]
        per_query = pd.DataFrame(
            {
                "system": np.repeat(np.array(self.systems, dtype=object), Q * M),
                "qid": np.tile(np.repeat(np.array(self.qids, dtype=object), M), S),
                "measure": np.tile(np.array(names, dtype=object), S * Q),
                "estimate": self.value.reshape(-1),
                "estimate_low": self.low.reshape(-1),
                "estimate_high": self.high.reshape(-1),
                "estimate_se": self.se.reshape(-1),
                "estimated": np.tile(np.repeat(self.estimated, M), S),
            }
        )
        any_est = bool((self.estimated & self.included).any())
        means = pd.DataFrame(
            {
                "system": np.repeat(np.array(self.systems, dtype=object), M),
                "measure": np.tile(np.array(names, dtype=object), S),
                "n": int(self.included.sum()),
                "estimate": self.mean.reshape(-1),
                "estimate_low": self.mean_low.reshape(-1),
                "estimate_high": self.mean_high.reshape(-1),
                "estimate_se": self.mean_se.reshape(-1),
                "estimated": any_est,
            }
        )
        return per_query, means


@dataclass
class _Flat:
    """Every pooled item of every question, flattened (what the vectorised estimators read)."""

    Q: int
    q: np.ndarray  # item -> question index
    st: np.ndarray  # item -> global stratum index (-1: known at the draw)
    judged: np.ndarray  # item is judged and part of the design (known, or drawn and graded)
    certain: np.ndarray  # weight 1, no variance (known, or named certain at estimation)
    grade: np.ndarray  # the grade (0 where not judged)
    pi: np.ndarray  # inclusion probability of the judged items (judged / N_h in its stratum)
    N: np.ndarray  # stratum -> size
    n: np.ndarray  # stratum -> judged items
    sq: np.ndarray  # stratum -> question index
    items: list[list[str]]  # question -> its item ids in flat order
    offset: np.ndarray  # question -> first flat index

    @property
    def w(self) -> np.ndarray:
        return np.where(self.certain, 1.0, np.where(self.judged, 1.0 / np.where(self.pi > 0, self.pi, 1.0), 0.0))

    @property
    def complete(self) -> np.ndarray:
        """question -> every pooled item judged or certain."""
        missing = np.bincount(self.q[~(self.judged | self.certain)], minlength=self.Q)
        return missing == 0


def _flatten(
    draws: Sequence[Draw], grades: Mapping[str, Mapping[str, int]], certain: Mapping[str, Collection[str]] | None
) -> _Flat:
    qs, sts, jd, ct, gr, items, offset = [], [], [], [], [], [], []
    N, n, sq = [], [], []
    base = 0
    pos = 0
    for qi, d in enumerate(draws):
        g = grades.get(d.qid, {})
        extra = set(certain.get(d.qid, ())) if certain else set()
        label_to_global = {s.label: base + i for i, s in enumerate(d.strata)}
        judged_in = {s.label: 0 for s in d.strata}
        ids = []
        offset.append(pos)
        for x in d.items:
            is_graded = x.item in g and g[x.item] is not None
            is_known = x.known or x.item in extra
            part = (x.drawn and is_graded) or (x.known and is_graded)
            qs.append(qi)
            sts.append(label_to_global.get(x.stratum, -1) if not x.known else -1)
            jd.append(bool(part or (is_known and is_graded)))
            ct.append(bool(is_known and is_graded))
            gr.append(int(g[x.item]) if is_graded else 0)
            if not x.known and x.drawn and is_graded:
                judged_in[x.stratum] += 1
            ids.append(x.item)
            pos += 1
        items.append(ids)
        for s in d.strata:
            N.append(s.size)
            n.append(judged_in[s.label])
            sq.append(qi)
        base += len(d.strata)
    st = np.asarray(sts, dtype=np.int64)
    Nn = np.asarray(N, dtype=float)
    nn = np.asarray(n, dtype=float)
    pi_st = np.where(Nn > 0, nn / np.where(Nn > 0, Nn, 1.0), 0.0)
    judged = np.asarray(jd, dtype=bool)
    certain_a = np.asarray(ct, dtype=bool)
    pi = np.where(certain_a | (st < 0), 1.0, pi_st[np.maximum(st, 0)] if len(pi_st) else 1.0)
    return _Flat(
        len(draws),
        np.asarray(qs, dtype=np.int64),
        st,
        judged,
        certain_a,
        np.asarray(gr, dtype=np.int64),
        np.asarray(pi, dtype=float),
        Nn,
        nn,
        np.asarray(sq, dtype=np.int64),
        items,
        np.asarray(offset, dtype=np.int64),
    )


def _ht_cov(f: _Flat, y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """HT covariance estimate of the totals of y and x (rows: ``[S, items]``) per question
    (``[S, Q]``), stratified SRS without replacement (module docstring)."""
    S = y.shape[0]
    H = len(f.N)
    out = np.zeros((S, f.Q))
    if H == 0:
        return out
    use = f.judged & ~f.certain & (f.st >= 0)
    idx = f.st[use]
    pi = f.pi[use]
    zy = y[:, use] / pi
    zx = x[:, use] / pi
    N, n = f.N, f.n
    fpc = np.where(N > 0, 1.0 - n / np.where(N > 0, N, 1.0), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(n >= 2, (N - n) / ((n - 1) * N), 0.0)
    for s in range(S):
        syx = np.bincount(idx, zy[s] * zx[s], minlength=H)
        sy = np.bincount(idx, zy[s], minlength=H)
        sx = np.bincount(idx, zx[s], minlength=H)
        v = fpc * syx - c * (sy * sx - syx)
        out[s] = np.bincount(f.sq, v, minlength=f.Q)
    return out


def _totals(f: _Flat, y: np.ndarray) -> np.ndarray:
    """HT totals Σ w_i y_i per question (``[S, Q]``)."""
    w = f.w
    return np.stack([np.bincount(f.q, w * row, minlength=f.Q) for row in y]) if len(y) else np.zeros((0, f.Q))


def _disc_prefix(k: int) -> tuple[np.ndarray, np.ndarray]:
    disc = 1.0 / np.log2(np.arange(2, k + 2, dtype=float))
    return disc, np.concatenate([[0.0], np.cumsum(disc)])


def _F(x: np.ndarray, k: int, disc: np.ndarray, prefix: np.ndarray) -> np.ndarray:
    """The piecewise-linear prefix sum of the first x discounts (x real, capped at k)."""
    x = np.clip(x, 0.0, float(k))
    lo = np.floor(x).astype(np.int64)
    frac = x - lo
    nxt = np.where(lo < k, disc[np.minimum(lo, k - 1)], 0.0)
    return prefix[lo] + frac * nxt


def _fprime(x: np.ndarray, k: int, disc: np.ndarray) -> np.ndarray:
    """The slope of F at x (right derivative): the discount of the slot being filled."""
    lo = np.floor(np.clip(x, 0.0, float(k)) + 1e-12).astype(np.int64)
    return np.where(lo < k, disc[np.minimum(lo, k - 1)], 0.0)


def ideal_dcg(counts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """IDCG@k of (possibly fractional) grade counts ``counts[..., g-1]`` (g = 1 … top) and
    its gradient in the counts: the ideal ranking lists the top grade first; exact (trec_eval
    ndcg_cut) on integer counts."""
    disc, prefix = _disc_prefix(k)
    top = counts.shape[-1]
    start = np.zeros(counts.shape[:-1])
    value = np.zeros(counts.shape[:-1])
    seg = {}
    for g in range(top, 0, -1):
        end = start + counts[..., g - 1]
        value = value + g * (_F(end, k, disc, prefix) - _F(start, k, disc, prefix))
        seg[g] = (start, end)
        start = end
    grad = np.zeros(counts.shape)
    for g in range(top, 0, -1):
        s_g, e_g = seg[g]
        d = g * _fprime(e_g, k, disc)
        for h in range(g - 1, 0, -1):
            s_h, e_h = seg[h]
            d = d + h * (_fprime(e_h, k, disc) - _fprime(s_h, k, disc))
        grad[..., g - 1] = d
    return value, grad


def _jackknife(f: _Flat, t: np.ndarray, theta_of) -> tuple[np.ndarray, np.ndarray]:
    """Stratified delete-one jackknife variance per question (``[S, Q]``) of the estimator
    ``theta_of(T)`` of the HT totals ``T`` (``[V, ·]``) of the variables ``t`` (``[V, items]``):
    deleting judged item j of stratum h re-weights the stratum's other judged items by
    N_h / (n_h − 1); V_J = Σ_h (1 − f_h) (n_h − 1) / n_h Σ_{j ∈ h} (θ_(j) − θ̄_(h))²
    (Wolter, Introduction to Variance Estimation, 2007, §4.5; the finite-population factor
    1 − f_h makes a fully judged stratum contribute 0)."""
    T = _totals(f, t)  # [V, Q]
    theta = theta_of(T)
    S = theta.shape[0]
    out = np.zeros((S, f.Q))
    bias = np.zeros((S, f.Q))
    H = len(f.N)
    use = np.flatnonzero(f.judged & ~f.certain & (f.st >= 0))
    if H == 0 or not len(use):
        return out, bias
    h = f.st[use]
    N, n = f.N[h], f.n[h]
    ok = (n >= 2) & (n < N)
    use, h, N, n = use[ok], h[ok], N[ok], n[ok]
    if not len(use):
        return out, bias
    Sh = np.stack(
        [
            np.bincount(
                f.st[f.judged & ~f.certain & (f.st >= 0)], row[f.judged & ~f.certain & (f.st >= 0)], minlength=H
            )
            for row in t
        ]
    )  # [V, H]
    rep = T[:, f.q[use]] - (N / n) * Sh[:, h] + (N / (n - 1)) * (Sh[:, h] - t[:, use])  # [V, J]
    th = theta_of(rep)  # [S, J]
    for s in range(S):
        cnt = np.bincount(h, minlength=H)
        mean_h = np.bincount(h, th[s], minlength=H) / np.maximum(cnt, 1)
        dev2 = (th[s] - mean_h[h]) ** 2
        fac = (1.0 - n / N) * (n - 1) / n
        out[s] = np.bincount(f.q[use], fac * dev2, minlength=f.Q)
        # Quenouille's bias estimate, stratified: Σ_h (1 − f_h)(n_h − 1)(θ̄_(h) − θ̂)
        per_h = np.zeros(H)
        first = np.zeros(H, dtype=bool)
        first[h] = True
        nh, Nh = f.n, f.N
        sh_q = f.sq
        per_h[first] = ((1.0 - nh / Nh) * (nh - 1))[first] * (mean_h - theta[s][sh_q])[first]
        bias[s] = np.bincount(sh_q, per_h, minlength=f.Q)
    return out, bias


def _ratio(num, den, v_den, c_nd, correct):
    with np.errstate(divide="ignore", invalid="ignore"):
        theta = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
        if correct is True or correct == "taylor":
            theta = np.where(den > 0, theta - (theta * v_den - c_nd) / np.where(den > 0, den, 1.0) ** 2, 0.0)
    return theta


def estimate(
    draws: Sequence[Draw],
    grades: Mapping[str, Mapping[str, int]],
    rankings: Mapping[str, Mapping[str, Sequence[str]]],
    measures: Sequence[Measure],
    *,
    systems: Sequence[str] | None = None,
    certain: Mapping[str, Collection[str]] | None = None,
    include: Collection[str] | None = None,
    bounds: tuple[np.ndarray, np.ndarray] | None = None,
    correct_bias: bool | str = "jackknife",
    variance: str = "jackknife",
    z: float = Z95,
    top: int = TOP_GRADE,
) -> Estimates:
    """Estimates of every system × question × measure and the means (module docstring).

    ``draws``: one :class:`Draw` per question; ``grades``: qid → item → grade (the
    judgments so far: known items, drawn items, anything else is ignored unless named in
    ``certain``); ``rankings``: qid → system → item ids in rank order
    (:mod:`reljudge.eval.ranking`'s order; only pooled items count); ``measures``: P@K,
    R@K, nDCG@K (K required) and AP (no cutoff), relevance threshold from each measure;
    ``certain``: qid → more items taken as known — a set fixed by the grades alone, such
    as rr-first's least set, **never** a set that depends on which items were drawn;
    ``include``: the qids the means cover (default: all; leave out no-answer questions);
    ``bounds``: hard bounds (low, high) ``[s, q, m]`` to clip into; ``correct_bias``: the
    ratio estimators' bias correction, ``jackknife`` (Quenouille's, stratified: default),
    ``taylor`` (second-order Taylor term) or False; ``variance``: the
    ratio estimators' variance, ``jackknife`` (stratified delete-one, default) or
    ``taylor`` (linearised)."""
    measures = list(measures)
    for m in measures:
        if m.name not in ESTIMATED_FAMILIES:
            raise ValueError(f"no estimator for {m}: the estimated families are {', '.join(ESTIMATED_FAMILIES)}")
        if m.name != "AP" and not isinstance(m.k, int):
            raise ValueError(f"{m}: a cutoff K is required")
    qids = [d.qid for d in draws]
    if systems is None:
        systems = sorted({s for q in qids for s in rankings.get(q, {})})
    systems = list(systems)
    f = _flatten(draws, grades, certain)
    S, Q, M = len(systems), len(qids), len(measures)
    n_items = len(f.q)
    # rank of every item in every system's ranking (0: not ranked)
    rank = np.zeros((S, n_items), dtype=np.int64)
    for qi, q in enumerate(qids):
        where = {p: f.offset[qi] + j for j, p in enumerate(f.items[qi])}
        for si, s in enumerate(systems):
            for r, p in enumerate(rankings.get(q, {}).get(s, ()), start=1):
                j = where.get(p)
                if j is not None and rank[si, j] == 0:
                    rank[si, j] = r
    raw = np.zeros((S, Q, M))
    var = np.zeros((S, Q, M))
    # the ideal ranking needs every grade present (file-mode qrels may grade above the scale's top)
    top = max(int(top), int(f.grade.max()) if len(f.grade) else 0)
    grade = np.clip(f.grade, 0, None).astype(float)
    for mi, m in enumerate(measures):
        if m.name == "AP":
            raw[:, :, mi], var[:, :, mi] = _ap(f, rank, int(m.rel), systems, qids)
            continue
        k = int(m.k)
        within = (rank > 0) & (rank <= k)
        if m.name in ("P", "R"):
            rel = (f.grade >= int(m.rel)).astype(float)
            a = within * rel[None, :]
            A = _totals(f, a)
            if m.name == "P":
                raw[:, :, mi] = A / k
                var[:, :, mi] = _ht_cov(f, a, a) / k**2
                continue
            r = np.broadcast_to(rel, a.shape)
            R = _totals(f, r[:1])[0][None, :].repeat(S, axis=0)
            v_r = _ht_cov(f, r[:1], r[:1]).repeat(S, axis=0)
            c_ar = _ht_cov(f, a, r)
            theta = _ratio(A, R, v_r, c_ar, correct_bias)
            with np.errstate(divide="ignore", invalid="ignore"):
                t0 = np.where(R > 0, A / np.where(R > 0, R, 1.0), 0.0)
                u = (a - t0[:, f.q] * r) / np.where(R > 0, R, 1.0)[:, f.q]
            raw[:, :, mi] = theta
            if variance == "jackknife":

                def recall(T, S=S):
                    return np.where(T[S] > 0, T[:S] / np.where(T[S] > 0, T[S], 1.0), 0.0)

                var[:, :, mi], jb = _jackknife(f, np.vstack([a, rel[None, :]]), recall)
                if correct_bias == "jackknife":
                    raw[:, :, mi] = t0 - jb
            else:
                var[:, :, mi] = np.where(R > 0, _ht_cov(f, u, u), 0.0)
            continue
        # nDCG@k
        disc, _ = _disc_prefix(k)
        d = np.where(within, grade[None, :] * disc[np.clip(rank - 1, 0, k - 1)], 0.0)
        D = _totals(f, d)
        onehot = np.stack([(f.grade == g).astype(float) for g in range(1, top + 1)])
        counts = _totals(f, onehot).T  # [Q, top]
        ideal, grad = ideal_dcg(counts, k)
        e = np.broadcast_to((grad[f.q] * onehot.T).sum(axis=1), (S, n_items))
        v_e = _ht_cov(f, e[:1], e[:1]).repeat(S, axis=0)
        c_de = _ht_cov(f, d, e)
        Id = np.broadcast_to(ideal, (S, Q))
        theta = _ratio(D, Id, v_e, c_de, correct_bias)
        with np.errstate(divide="ignore", invalid="ignore"):
            t0 = np.where(Id > 0, D / np.where(Id > 0, Id, 1.0), 0.0)
            u = (d - t0[:, f.q] * e) / np.where(Id > 0, Id, 1.0)[:, f.q]
        raw[:, :, mi] = theta
        if variance == "jackknife":

            def ndcg(T, S=S, k=k):
                ideal_t, _ = ideal_dcg(T[S:].T, k)
                return np.where(ideal_t > 0, T[:S] / np.where(ideal_t > 0, ideal_t, 1.0), 0.0)

            var[:, :, mi], jb = _jackknife(f, np.vstack([d, onehot]), ndcg)
            if correct_bias == "jackknife":
                raw[:, :, mi] = t0 - jb
        else:
            var[:, :, mi] = np.where(Id > 0, _ht_cov(f, u, u), 0.0)
    var = np.maximum(var, 0.0)
    se = np.sqrt(var)
    complete = f.complete
    # a fully judged question: its exact value, no interval (the corrections vanish there
    # up to rounding; this removes the rounding)
    se[:, complete, :] = 0.0
    lo_b, hi_b = (np.zeros_like(raw), np.ones_like(raw)) if bounds is None else (bounds[0], bounds[1])
    lo_b = np.maximum(lo_b, 0.0)
    hi_b = np.minimum(hi_b, 1.0)
    value = np.clip(raw, lo_b, hi_b)
    low = np.clip(raw - z * se, lo_b, hi_b)
    high = np.clip(raw + z * se, lo_b, hi_b)
    inc = np.ones(Q, dtype=bool) if include is None else np.array([q in set(include) for q in qids], dtype=bool)
    mean, mean_se, mean_low, mean_high = _means(raw, var, complete, lo_b, hi_b, inc, z)
    return Estimates(
        systems,
        qids,
        measures,
        value,
        se,
        low,
        high,
        raw,
        ~complete,
        inc,
        mean,
        mean_se,
        mean_low,
        mean_high,
        {"correct_bias": correct_bias, "variance": variance, "z": z, "clipped_into_bounds": bounds is not None},
        var,
        lo_b,
        hi_b,
    )


def _means(raw, var, complete, lo_b, hi_b, inc, z):
    """The means over the questions ``inc`` (module docstring, "Clipping"): the mean of the
    unclipped per-question estimates, its standard error √(Σ V̂_q) / Q (0 when every
    question is fully judged), clipped into [0, 1] and into the mean of the bounds."""
    S, _, M = raw.shape
    n_inc = int(inc.sum())
    if not n_inc:
        nan = np.full((S, M), np.nan)
        return nan, nan.copy(), nan.copy(), nan.copy()
    mean_raw = raw[:, inc, :].mean(axis=1)
    mean_se = np.sqrt(var[:, inc, :].sum(axis=1)) / n_inc
    mean_se = np.where(complete[inc].all(), 0.0, mean_se)
    mlo_b, mhi_b = lo_b[:, inc, :].mean(axis=1), hi_b[:, inc, :].mean(axis=1)
    mean = np.clip(mean_raw, mlo_b, mhi_b)
    return mean, mean_se, np.clip(mean_raw - z * mean_se, mlo_b, mhi_b), np.clip(mean_raw + z * mean_se, mlo_b, mhi_b)


def _ap_one(
    ranks: np.ndarray,
    rel: np.ndarray,
    w: np.ndarray,
    pi: np.ndarray,
    st: np.ndarray,
    ctn: np.ndarray,
    N: Mapping[int, float],
    n: Mapping[int, float],
) -> float:
    """statAP of one ranking over one question's judged items (module docstring):
    ``ranks`` > 0 the item's rank, ``w`` its weight, ``pi`` its π, ``st`` its stratum
    (−1 certain), ``N``/``n`` the strata's sizes and judged counts."""
    Rh = float((w * rel).sum())
    if Rh <= 0:
        return 0.0
    sel = np.flatnonzero((ranks > 0) & (rel > 0) & (w > 0))
    if not len(sel):
        return 0.0
    order = sel[np.argsort(ranks[sel], kind="stable")]
    T = 0.0
    for a, i in enumerate(order):
        ri = float(ranks[i])
        T += w[i] / ri
        for j in order[:a]:
            if ctn[i] and ctn[j]:
                pij = 1.0
            elif ctn[i] or ctn[j] or st[i] != st[j]:
                pij = pi[i] * pi[j]
            else:
                h = st[i]
                pij = n[h] * (n[h] - 1) / (N[h] * (N[h] - 1)) if N[h] > 1 else 1.0
            T += 1.0 / (ri * pij)
    return T / Rh


def _ap(f: _Flat, rank: np.ndarray, rel_t: int, systems, qids) -> tuple[np.ndarray, np.ndarray]:
    S, Q = len(systems), len(qids)
    val = np.zeros((S, Q))
    var = np.zeros((S, Q))
    rel_all = (f.grade >= rel_t).astype(float)
    for qi in range(Q):
        sl = slice(int(f.offset[qi]), int(f.offset[qi]) + len(f.items[qi]))
        judged = f.judged[sl] | f.certain[sl]
        ctn = f.certain[sl] | (f.st[sl] < 0)
        st = f.st[sl]
        N = {int(h): float(f.N[h]) for h in set(st[~ctn & judged].tolist())}
        n0 = {int(h): float(f.n[h]) for h in N}
        rel = np.where(judged, rel_all[sl], 0.0)

        def weights(drop: int | None, n_: Mapping[int, float]):
            pi = np.where(ctn, 1.0, np.array([n_[h] / N[h] if h in N and N[h] else 1.0 for h in st]))
            w = np.where(judged, 1.0 / pi, 0.0)
            if drop is not None:
                w[drop] = 0.0
            return w, pi

        w0, pi0 = weights(None, n0)
        for si in range(S):
            rk = rank[si, sl]
            val[si, qi] = _ap_one(rk, rel, w0, pi0, st, ctn, N, n0)
        # stratified delete-one jackknife
        for h in N:
            nh, Nh = n0[h], N[h]
            if nh < 2 or nh >= Nh:
                continue
            members = [j for j in range(len(st)) if st[j] == h and judged[j] and not ctn[j]]
            n1 = dict(n0)
            n1[h] = nh - 1
            w1, pi1 = weights(None, n1)
            reps = np.zeros((S, len(members)))
            for a, j in enumerate(members):
                wj = w1.copy()
                wj[j] = 0.0
                relj = rel.copy()
                relj[j] = 0.0
                for si in range(S):
                    reps[si, a] = _ap_one(rank[si, sl], relj, wj, pi1, st, ctn, N, n1)
            dev = reps - reps.mean(axis=1, keepdims=True)
            var[:, qi] += (1.0 - nh / Nh) * (nh - 1) / nh * (dev**2).sum(axis=1)
    return val, var


# -- trec-sampled qrels --------------------------------------------------------------------


def trec_sampled_qrels(draws: Sequence[Draw], grades: Mapping[str, Mapping[str, int]]) -> str:
    """The qrels text TREC's ``sample_eval.pl`` reads (Yilmaz, Kanoulas & Aslam 2008;
    NIST's version of 10 Oct 2011): one line ``qid 0 item stratum grade`` per pooled item,
    ``grade`` −1 for a pooled item that is not (yet) judged, so that sample_eval.pl counts
    each stratum's size and sampled share itself (π_h = judged / N_h, as
    :func:`estimate` does).  Known items form stratum 0, all judged (π = 1).  Questions in
    the order given, items in id order."""
    rows = []
    for d in draws:
        g = grades.get(d.qid, {})
        for x in d.items:
            judged = x.item in g and g[x.item] is not None and (x.drawn or x.known)
            stratum = KNOWN_STRATUM if x.known else x.stratum
            rows.append((d.qid, x.item, stratum, g[x.item] if judged else -1))
    return trec_io.sampled_qrels_text(rows)
