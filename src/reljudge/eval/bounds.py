"""How far the unjudged pooled paragraphs could still move every number.

For every system × question × measure the engine computes, :func:`compute` gives the
lowest and the highest value the measure can take over **every way the question's
unjudged pooled paragraphs could still be graded** (each any grade of the scale,
0 … ``top_grade``), the others staying as judged.  A value is *settled* when the two
meet.  Today's value (unjudged = not relevant, as trec_eval) is one of those
completions, so it always lies within its bounds; so does the value the full pool
will give.  Paragraphs a system returned that are not in the pool can never be
judged: they stay "not relevant", as in the value.

Notation for one ranking cut at K: ``a`` judged relevant paragraphs (grade ≥ rel)
within K, ``o`` open (pooled, unjudged) paragraphs within K, ``R`` the question's
judged relevant paragraphs, ``U`` its open paragraphs (so ``U − o`` lie outside this
top K).  The bounds, with how each follows (docs/judging-plans.md#범위--bounds):

* RR@K: low = 1 / first rank ≤ K judged relevant; high = 1 / first rank ≤ K judged
  relevant *or open* (each open paragraph only raises RR when relevant, and the best
  case makes the first of them relevant).  0 when there is none.
* Success@K: low = [a > 0]; high = [a + o > 0].
* P@K: low = a / K; high = (a + o) / K (P grows with every relevant paragraph).
* R@K: the value (a + x) / (R + x + y), x of the open paragraphs within K and y of
  those outside made relevant, grows with x (its numerator gap R + y − a ≥ 0) and
  falls with y, so low = a / (R + U − o), high = (a + o) / (R + o); 0 when the
  denominator is 0.
* nDCG@K (gain = grade): an open paragraph outside the top K only enters the ideal
  ranking, so it lowers the value: at the top grade for the low end, 0 for the high
  end.  Within the top K a relevant paragraph raises DCG but can raise the ideal more
  (a paragraph made relevant low in the ranking can *lower* nDCG), so the value is
  not monotone there.  For a fixed multiset of grades given to the ``o`` open
  paragraphs within K, the ideal is fixed, and DCG is largest with the highest
  grades on the highest ranks and smallest with them on the lowest (rearrangement
  inequality).  The bounds are therefore **exact**: the minimum and maximum over every
  multiset (C(o + g, g) of them for g non-zero grades: 66 for o = 10 and grades 1, 2)
  of those two extremes.  Checked against brute force over every completion in
  tests/test_bounds.py.  A ranking with more than EXACT_NDCG_OPEN open paragraphs
  within K gets a proven, looser pair instead: low = judged DCG / the ideal with
  every open paragraph at the top grade; high = min(1, (judged DCG + the top grade
  on every open slot) / the ideal of the judged grades alone).
* Judged@K and Unj@K count judgments, not grades: their bounds run from today's
  value to the value once every open paragraph within K is judged.
* NumRel: [R, R + U]; NumRelRet: [a, a + o] over the whole ranking; NumQ, NumRet: the
  value (no grade enters them).
* AP, GMAP, Rprec, Bpref, IPrec: no closed form here.  The value when the question
  has no open paragraph (settled), otherwise the measure's range [0, 1] — provably
  containing, but wide.

Questions nobody has judged yet (pooled, absent from the qrels) get bounds too:
every pooled paragraph is open.  The means' bounds are the mean (sum, geometric
mean: the family's summary) of the questions' bounds over the answerable questions
*including* those unjudged ones, so they contain the full-pool mean; the mean
itself, like trec_eval, is over the judged questions only.

Duplicates under the "keep" policy: each copy counts as its own open paragraph,
which lets copies take different grades; the completions considered are a superset
of the real ones, so the bounds still contain every real completion (they may be
wider than necessary).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from reljudge.eval import ranking
from reljudge.grades import TOP_GRADE
from reljudge.eval.measures import Measure, summary_of

#: families whose bounds have no closed form here: [0, 1] unless the question is settled
_RANGE_ONLY = {"AP", "GMAP", "Rprec", "Bpref", "IPrec"}
#: families no grade enters
_GRADE_FREE = {"NumQ", "NumRet"}


@dataclass
class Bounds:
    """Bounds for systems × questions × measures (arrays ``[s, q, m]``).

    ``qids`` are every question the bounds cover: those of the qrels, the no-answer
    questions and every pooled question (DuckDB's VARCHAR order); ``judged[q]`` says
    whether the question has any judgment (else all its pooled paragraphs are open);
    ``n_open[s, q, m]``: open paragraphs within the measure's cutoff of that ranking
    (at most that many judgments settle it)."""

    measures: list[Measure]
    systems: list[str]
    qids: np.ndarray
    judged: np.ndarray
    low: np.ndarray
    high: np.ndarray
    n_open: np.ndarray
    pool_size: np.ndarray
    n_judged_in_pool: np.ndarray

    @property
    def settled(self) -> np.ndarray:
        return np.isclose(self.low, self.high, rtol=0.0, atol=1e-12)


#: rankings with at most this many open paragraphs within K get exact nDCG bounds
#: (C(o + 2, 2) multisets: 231 for 20); more, the proven looser pair of ndcg_bounds
EXACT_NDCG_OPEN = 20


def _discounts(depth: int) -> np.ndarray:
    """1 / log2(r + 1) for r = 1 … depth (index 0 = rank 1)."""
    return 1.0 / np.log2(np.arange(2, depth + 2, dtype=float))


def _ideal(counts: np.ndarray, k: int, prefix: np.ndarray) -> np.ndarray:
    """IDCG@k of questions whose grades ``counts[:, g-1]`` = number of items with grade g
    (g = 1 … top): the ideal ranking lists the top grade first.  ``prefix[i]`` = the
    sum of the first i discounts."""
    n, top = counts.shape
    out = np.zeros(n)
    start = np.zeros(n, dtype=np.int64)
    for g in range(top, 0, -1):
        end = start + counts[:, g - 1].astype(np.int64)
        s, e = np.minimum(start, k), np.minimum(end, k)
        out += g * (prefix[e] - prefix[s])
        start = end
    return out


def _multisets(n_max: int, top: int):
    """Every vector (c_1 … c_top) of non-negative counts with sum ≤ n_max."""
    for combo in itertools.product(range(n_max + 1), repeat=top):
        if sum(combo) <= n_max:
            yield np.array(combo, dtype=np.int64)


def ndcg_bounds(
    grades: np.ndarray,
    is_open: np.ndarray,
    k: int,
    counts: np.ndarray,
    n_open_question: np.ndarray,
    top: int = TOP_GRADE,
) -> tuple[np.ndarray, np.ndarray]:
    """Exact nDCG@k bounds for n rankings (see the module docstring).

    ``grades[n, i]``: the judged grade at rank i + 1 (0 for unjudged, not pooled or no
    row; negative grades count 0); ``is_open[n, i]``: an open paragraph there;
    ``counts[n, g-1]``: the question's judged paragraphs of grade g (the ideal);
    ``n_open_question[n]``: the question's open paragraphs (U)."""
    n = grades.shape[0]
    depth = min(k, grades.shape[1])
    disc = _discounts(max(k, 1))
    prefix = np.concatenate([[0.0], np.cumsum(disc)])
    g = np.clip(grades[:, :depth], 0, None).astype(float)
    op = is_open[:, :depth]
    dcg_judged = (g * np.where(op, 0.0, 1.0) * disc[:depth]).sum(axis=1)
    o = op.sum(axis=1).astype(np.int64)
    outside = np.maximum(n_open_question.astype(np.int64) - o, 0)
    # discounts of the open slots, highest first (padded with 0), and their prefix sums
    slot = np.where(op, disc[:depth], 0.0)
    desc = -np.sort(-slot, axis=1)
    pre_desc = np.concatenate([np.zeros((n, 1)), np.cumsum(desc, axis=1)], axis=1)
    # lowest first among the o real slots: reverse the first o entries of `desc`
    j = np.arange(depth)[None, :]
    idx = np.clip(o[:, None] - 1 - j, 0, max(depth - 1, 0))
    asc = np.where(j < o[:, None], np.take_along_axis(desc, idx, axis=1) if depth else desc, 0.0)
    pre_asc = np.concatenate([np.zeros((n, 1)), np.cumsum(asc, axis=1)], axis=1)
    rows = np.arange(n)
    base = counts.astype(np.int64)
    top_only = np.zeros_like(base)
    top_only[:, top - 1] = 1
    # a proven (looser) pair first, for rankings with too many open slots to enumerate:
    # DCG lies between the judged part and the judged part plus the top grade on every
    # open slot; the ideal between the judged grades alone and those plus every open
    # paragraph at the top grade
    ideal_min = _ideal(base, k, prefix)
    ideal_max = _ideal(base + top_only * n_open_question.astype(np.int64)[:, None], k, prefix)
    dcg_top = dcg_judged + top * pre_desc[rows, o]
    loose_low = np.where(ideal_max > 0, dcg_judged / np.where(ideal_max > 0, ideal_max, 1.0), 0.0)
    loose_high = np.where(
        ideal_min > 0,
        np.minimum(1.0, dcg_top / np.where(ideal_min > 0, ideal_min, 1.0)),
        np.where(dcg_top > 0, 1.0, 0.0),
    )
    exact = o <= EXACT_NDCG_OPEN
    low = np.where(exact, np.inf, loose_low)
    high = np.where(exact, -np.inf, loose_high)
    for ms in _multisets(int(o[exact].max()) if exact.any() else 0, top):
        fits = exact & (ms.sum() <= o)
        if not fits.any():
            continue
        # DCG of the open slots: highest grades on the best (max) or the worst (min) slots
        dmax = np.zeros(n)
        dmin = np.zeros(n)
        start = 0
        for grade in range(top, 0, -1):
            end = start + int(ms[grade - 1])
            e = np.minimum(end, o)
            s = np.minimum(start, o)
            dmax += grade * (pre_desc[rows, e] - pre_desc[rows, s])
            dmin += grade * (pre_asc[rows, e] - pre_asc[rows, s])
            start = end
        ideal_hi = _ideal(base + ms[None, :], k, prefix)
        ideal_lo = _ideal(base + ms[None, :] + top_only * outside[:, None], k, prefix)
        v_hi = np.where(ideal_hi > 0, (dcg_judged + dmax) / np.where(ideal_hi > 0, ideal_hi, 1.0), 0.0)
        v_lo = np.where(ideal_lo > 0, (dcg_judged + dmin) / np.where(ideal_lo > 0, ideal_lo, 1.0), 0.0)
        high = np.where(fits, np.maximum(high, v_hi), high)
        low = np.where(fits, np.minimum(low, v_lo), low)
    return low, high


def measure_bounds(
    m: Measure,
    grades: np.ndarray,
    judged: np.ndarray,
    is_open: np.ndarray,
    counts: np.ndarray,
    n_open_question: np.ndarray,
    n_rows: np.ndarray,
    value: np.ndarray | None = None,
    top: int = TOP_GRADE,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, open paragraphs within the cutoff) of one measure for n rankings.

    ``grades[n, i]``/``judged[n, i]``/``is_open[n, i]``: rank i + 1 of ranking n (grade 0
    where not judged); ``counts[n, g-1]``: the question's judged paragraphs of grade g;
    ``n_open_question[n]``: its open paragraphs; ``n_rows[n]``: the ranking's length;
    ``value[n]``: the engine's value (for the families without a closed form)."""
    n, depth = grades.shape
    k = depth if m.k is None or not isinstance(m.k, int) else min(int(m.k), depth)
    kk = int(m.k) if isinstance(m.k, int) else depth
    g, op, jd = grades[:, :k], is_open[:, :k], judged[:, :k]
    o = op.sum(axis=1)
    name = m.name
    if name in _GRADE_FREE:
        v = value if value is not None else np.zeros(n)
        return v, v, o
    if name in ("Judged", "Unj"):
        judged_in = jd.sum(axis=1) / kk
        if name == "Judged":
            return judged_in, judged_in + o / kk, o
        unj = np.minimum(n_rows, kk) / kk - judged_in
        return unj - o / kk, unj, o
    if name == "nDCG":
        low, high = ndcg_bounds(grades, is_open, int(m.k), counts, n_open_question, top)
        return low, high, o
    rel = int(m.rel)
    relevant = jd & (g >= rel)
    a = relevant.sum(axis=1)
    R = counts[:, rel - 1 :].sum(axis=1) if rel >= 1 else counts.sum(axis=1)
    if name == "RR":
        ranks = np.arange(1, k + 1)[None, :]
        first_rel = np.where(relevant, ranks, np.inf).min(axis=1)
        first_any = np.where(relevant | op, ranks, np.inf).min(axis=1)
        return 1.0 / first_rel, 1.0 / first_any, o
    if name == "Success":
        return (a > 0).astype(float), ((a + o) > 0).astype(float), o
    if name == "P":
        return a / kk, (a + o) / kk, o
    if name == "R":
        outside = np.maximum(n_open_question - o, 0)
        den_lo, den_hi = R + outside, R + o
        low = np.where(den_lo > 0, a / np.where(den_lo > 0, den_lo, 1), 0.0)
        high = np.where(den_hi > 0, (a + o) / np.where(den_hi > 0, den_hi, 1), 0.0)
        return low, high, o
    if name == "NumRel":
        return R.astype(float), (R + n_open_question).astype(float), o
    if name == "NumRelRet":
        return a.astype(float), (a + o).astype(float), o
    # no closed form: settled when nothing of the question is open, else the range [0, 1]
    v = value if value is not None else np.zeros(n)
    unsettled = n_open_question > 0
    return np.where(unsettled, 0.0, v), np.where(unsettled, 1.0, v), o


def compute(
    con,
    items: str,
    run: str,
    pool_items: str,
    measures: Sequence[Measure],
    systems: Sequence[str],
    *,
    ties: str,
    dedup: str,
    extra_qids: Sequence[str] = (),
    values=None,
    value_qids=None,
    top: int = TOP_GRADE,
    ranked: bool = False,
) -> Bounds:
    """Bounds for every system × question × measure.

    ``items``: the qrels as the ranking's items (qid, pid, grade); ``run``: system, qid,
    pid, score, rank, dup_key (as :func:`reljudge.eval.metrics.evaluate` reads it);
    ``pool_items``: qid, pid — the pooled items, keyed as the ranking's items;
    ``ranked``: ``run`` is ranked already (a ``position`` column, as
    :func:`reljudge.storage.evaluation_inputs.stage_ranked` writes it), so it is not
    ranked again; ``extra_qids``: more questions to cover (the no-answer ones); ``values[s, q, m]``
    with ``value_qids``: the engine's values, used where a family has no closed form.
    """
    from reljudge.eval.metrics import judged_items_sql, ranking_depth

    measures = list(measures)
    systems = list(systems)
    depth = ranking_depth(measures)
    item = ranking.item_column(dedup)
    # the judged items, the pooled items and the questions' positions, staged once as
    # this cursor's temp tables: every query below reads them
    params = {"extra": [str(q) for q in extra_qids], "systems": systems}
    con.execute(f"CREATE OR REPLACE TEMP TABLE _rj_b_qr AS {judged_items_sql(items)}")
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _rj_b_pl AS SELECT DISTINCT qid::VARCHAR AS qid, pid::VARCHAR AS pid "
        f"FROM {pool_items} WHERE qid IS NOT NULL AND pid IS NOT NULL"
    )
    # one row per question, in DuckDB's VARCHAR order; its position qi is what the other
    # queries return, so no Python loop maps ids back
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _rj_b_qx AS SELECT qid, (row_number() OVER (ORDER BY qid) - 1)::BIGINT "
        "AS qi FROM (SELECT qid FROM _rj_b_qr UNION SELECT qid FROM _rj_b_pl "
        "UNION SELECT unnest($extra::VARCHAR[]))",
        {"extra": params["extra"]},
    )
    with_ = (
        "WITH qr AS (SELECT * FROM _rj_b_qr), pl AS (SELECT * FROM _rj_b_pl), qx AS (SELECT * FROM _rj_b_qx), "
        "qset AS (SELECT qid FROM _rj_b_qx), sx AS (SELECT unnest($systems::VARCHAR[]) AS system, "
        "(generate_subscripts($systems::VARCHAR[], 1) - 1)::BIGINT AS si) "
    )
    params = {"systems": systems}
    stats = con.execute(
        with_
        + """,
        pj AS (SELECT pl.qid, count(*) AS pool_size, count(qr.grade) AS judged_pool
               FROM pl LEFT JOIN qr USING (qid, pid) GROUP BY pl.qid),
        nj AS (SELECT qid, count(*) AS n_judged FROM qr GROUP BY qid)
        SELECT qx.qid, coalesce(pool_size, 0) AS pool_size, coalesce(judged_pool, 0) AS judged_pool,
               coalesce(n_judged, 0) AS n_judged
        FROM qx LEFT JOIN pj USING (qid) LEFT JOIN nj USING (qid) ORDER BY qx.qi""",
        params,
    ).fetchnumpy()
    qids = np.asarray(stats["qid"], dtype=object)
    S, Q, M = len(systems), len(qids), len(measures)
    pool_size = np.asarray(stats["pool_size"], dtype=np.int64)
    judged_pool = np.asarray(stats["judged_pool"], dtype=np.int64)
    open_q = pool_size - judged_pool
    judged_q = np.asarray(stats["n_judged"], dtype=np.int64) > 0
    counts = np.zeros((Q, top), dtype=np.int64)
    for qi, grade, n in con.execute(
        with_ + "SELECT qi, grade, count(*) FROM qr JOIN qx USING (qid) WHERE grade > 0 GROUP BY ALL", params
    ).fetchall():
        counts[qi, min(int(grade), top) - 1] += n
    src = (
        "(SELECT system::VARCHAR AS system, qid::VARCHAR AS qid, pid::VARCHAR AS pid, score::DOUBLE AS score, "
        f"rank::BIGINT AS rank, dup_key::VARCHAR AS dkey FROM {run} "
        "WHERE pid IS NOT NULL AND system IS NOT NULL AND qid::VARCHAR IN (SELECT qid FROM qset))"
    )
    if ranked:
        rk = (
            f"SELECT system::VARCHAR AS system, qid::VARCHAR AS qid, pid::VARCHAR AS pid, "
            f"coalesce(dup_key::VARCHAR, pid::VARCHAR) AS dkey, position AS r FROM {run} "
            f"WHERE position <= {int(depth)} AND qid::VARCHAR IN (SELECT qid FROM qset)"
        )
    else:
        rk = ranking.ranked_sql(src, ties, dedup, depth)
    rows = con.execute(
        with_
        + f""", rk AS ({rk})
        SELECT sx.si * {Q} + qx.qi AS flat, rk.r::BIGINT AS r, coalesce(qr.grade, 0)::DOUBLE AS grade,
               (qr.grade IS NOT NULL) AS judged, (qr.grade IS NULL AND pl.pid IS NOT NULL) AS is_open
        FROM rk JOIN sx USING (system) JOIN qx USING (qid)
        LEFT JOIN qr ON qr.qid = rk.qid AND qr.pid = rk.{item}
        LEFT JOIN pl ON pl.qid = rk.qid AND pl.pid = rk.{item}""",
        params,
    ).fetchnumpy()
    flat = np.asarray(rows["flat"], dtype=np.int64)
    ri = np.asarray(rows["r"], dtype=np.int64) - 1
    width = int(ri.max()) + 1 if len(ri) else 1
    N = S * Q
    grades = np.zeros((N, width))
    judged = np.zeros((N, width), dtype=bool)
    is_open = np.zeros((N, width), dtype=bool)
    n_rows = np.zeros(N, dtype=np.int64)
    if len(flat):
        grades[flat, ri] = np.asarray(rows["grade"], dtype=float)
        judged[flat, ri] = np.asarray(rows["judged"], dtype=bool)
        is_open[flat, ri] = np.asarray(rows["is_open"], dtype=bool)
        np.maximum.at(n_rows, flat, ri + 1)
    counts_n = np.tile(counts, (S, 1))
    open_n = np.tile(open_q, S)
    engine = _align(values, value_qids, qids, S, M)
    low = np.zeros((S, Q, M))
    high = np.zeros((S, Q, M))
    n_open = np.zeros((S, Q, M), dtype=np.int64)
    for mi, m in enumerate(measures):
        v = engine[:, :, mi].reshape(N)
        lo, hi, o = measure_bounds(m, grades, judged, is_open, counts_n, open_n, n_rows, v, top)
        low[:, :, mi], high[:, :, mi], n_open[:, :, mi] = lo.reshape(S, Q), hi.reshape(S, Q), o.reshape(S, Q)
    return Bounds(
        measures=measures,
        systems=systems,
        qids=qids,
        judged=judged_q,
        low=low,
        high=high,
        n_open=n_open,
        pool_size=pool_size,
        n_judged_in_pool=judged_pool,
    )


def _align(values, value_qids, qids: np.ndarray, S: int, M: int) -> np.ndarray:
    """The engine's values laid out on ``qids`` (0 for a question the engine did not
    evaluate: nobody judged it, so unjudged = not relevant gives 0)."""
    out = np.zeros((S, len(qids), M))
    if values is None or value_qids is None or not len(value_qids):
        return out
    where = {q: i for i, q in enumerate(qids)}
    src = [i for i, q in enumerate(value_qids) if q in where]
    dst = [where[value_qids[i]] for i in src]
    out[:, dst, :] = np.nan_to_num(np.asarray(values)[:, src, :])
    return out


def summarise(b: Bounds, answerable: np.ndarray, in_group: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, open paragraphs) of every system × measure over the questions
    ``in_group & answerable``, as each family summarises (mean, sum or geometric mean)."""
    from reljudge.eval.measures import MIN_GEO_MEAN

    sel = in_group & answerable
    n = int(sel.sum())
    S, M = len(b.systems), len(b.measures)
    lo, hi = np.full((S, M), np.nan), np.full((S, M), np.nan)
    opened = b.n_open[:, sel, :].sum(axis=1) if n else np.zeros((S, M), dtype=np.int64)
    if not n:
        return lo, hi, opened
    for mi, m in enumerate(b.measures):
        kind = summary_of(m)
        x_lo, x_hi = b.low[:, sel, mi], b.high[:, sel, mi]
        if kind == "sum":
            lo[:, mi], hi[:, mi] = x_lo.sum(axis=1), x_hi.sum(axis=1)
        elif kind == "gmean":
            lo[:, mi] = np.exp(np.log(np.maximum(x_lo, MIN_GEO_MEAN)).mean(axis=1))
            hi[:, mi] = np.exp(np.log(np.maximum(x_hi, MIN_GEO_MEAN)).mean(axis=1))
        else:
            lo[:, mi], hi[:, mi] = x_lo.mean(axis=1), x_hi.mean(axis=1)
    return lo, hi, opened


def frames(b: Bounds, qtype_of: dict, no_answer: set, all_label: str, no_type: str):
    """The bounds as two long tables: per question (system, qid, qtype, no_answer, judged,
    measure, bound_low, bound_high, settled, n_open) and per group (system, qtype, measure,
    n_bounded, bound_low, bound_high, settled, n_open) over the answerable questions —
    ``all_label`` is the overall group, as in :class:`reljudge.eval.metrics.EvalResult`."""
    import pandas as pd

    S, Q, M = len(b.systems), len(b.qids), len(b.measures)
    names = [str(m) for m in b.measures]
    qtypes = np.array([qtype_of.get(q) or no_type for q in b.qids], dtype=object)
    na = np.array([q in no_answer for q in b.qids], dtype=bool)
    settled = b.settled
    per_query = pd.DataFrame(
        {
            "system": np.repeat(np.array(b.systems, dtype=object), Q * M),
            "qid": np.tile(np.repeat(b.qids, M), S),
            "qtype": np.tile(np.repeat(qtypes, M), S),
            "no_answer": np.tile(np.repeat(na, M), S),
            "judged": np.tile(np.repeat(b.judged, M), S),
            "measure": np.tile(np.array(names, dtype=object), S * Q),
            "bound_low": b.low.reshape(-1),
            "bound_high": b.high.reshape(-1),
            "settled": settled.reshape(-1),
            "n_open": b.n_open.reshape(-1),
        }
    )
    rows = []
    groups = [all_label] + sorted(set(qtypes.tolist()) - {all_label})
    for g in groups:
        in_g = np.ones(Q, bool) if g == all_label else (qtypes == g)
        lo, hi, opened = summarise(b, ~na, in_g)
        sel = in_g & ~na
        n = int(sel.sum())
        for s in range(S):
            for mi in range(M):
                rows.append(
                    (
                        b.systems[s],
                        g,
                        names[mi],
                        n,
                        lo[s, mi],
                        hi[s, mi],
                        bool(settled[s, sel, mi].all()) if n else True,
                        int(opened[s, mi]),
                    )
                )
    means = pd.DataFrame(
        rows, columns=["system", "qtype", "measure", "n_bounded", "bound_low", "bound_high", "settled", "n_open"]
    )
    return per_query, means
