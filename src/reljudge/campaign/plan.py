"""Judging plans: which pooled paragraphs an annotator judges first, and when a question
is done for them (docs/judging-plans.md#판정-계획--judging-plans; tests/test_plan.py).

* ``complete`` (the default): every pooled paragraph, in the annotator's stable shuffle;
  a question is done when every pooled paragraph has a grade.
* ``rr-first``: first the paragraphs that can still change some system's RR@K, K = the
  campaign's main cutoff (the largest of the ``ks`` setting). They come in rounds: the
  frontier (:func:`frontier`), shown in the annotator's stable shuffle, so the order
  reveals no system or rank. A question is done once every system's RR@K is settled by
  the annotator's own latest grades (:func:`settled`). With ``rest`` (``plan_rest`` =
  on, ``reljudge plan rr-first --then-rest``) the rest of the pool follows, widest
  remaining bounds first: the unjudged paragraphs ordered by their weight, the sum over
  systems of 1/log2(rank + 1) over the ranks within K where the paragraph sits (0 for
  one in no top K), descending, then the stable shuffle; the question is then done when
  the whole pool is graded.

The page, the queue and ``reljudge next`` share :func:`overview` (one SQL query for all of
an annotator's questions) and :func:`reljudge.campaign.judging.is_finished` (one predicate of done).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Collection, Mapping, Sequence

from reljudge.errors import ReljudgeError
from reljudge.storage import catalog, judge_sources
from reljudge.storage import plans as store
from reljudge.storage import sample_draws as draw_store
from reljudge.storage.db import Database
from reljudge.codes import Codes

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd

CODES = Codes(
    error_unknown_plan=("plan", "choices"),
    error_plan_order_complete_only=(),
    error_no_model_source=("source",),
    error_sample_rate=("rate",),
    error_sample_seed=("seed",),
    error_sample_needs_rate=(),
    error_sample_rate_plan=("plan",),
    error_sample_and_rest=(),
    error_sample_redraw_judged=("rate", "seed", "new_rate", "new_seed"),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

PLANS = ("complete", "rr-first", "sample")
DEFAULT_PLAN = "complete"
#: the seed of a draw when none is given (a fixed one: the same command draws the same sample)
DEFAULT_SAMPLE_SEED = 0


# -- the rule -------------------------------------------------------------------------


def _first_open(
    ranking: Sequence[str], grades: Mapping[str, int], pooled: Collection[str], rel: int, k: int
) -> tuple[str | None, bool]:
    """(the first pooled item within K that is unjudged or relevant, whether it is unjudged)."""
    for item in list(ranking)[:k]:
        if item not in pooled:
            continue
        grade = grades.get(item)
        if grade is None:
            return item, True
        if grade >= rel:
            return item, False
    return None, False


def settled(ranking: Sequence[str], grades: Mapping[str, int], pooled: Collection[str], rel: int, k: int) -> bool:
    """A system's RR@K is settled for a set of grades when, walking its ranking
    (deduplicated, ranked exactly as the metric engine ranks it: ranking.ranked_sql with
    the campaign's ties/dedup settings; pooled items are duplicate-group ids) from rank 1
    to K and skipping paragraphs that are not in the pool (they can never be judged; they
    count as not relevant), the first paragraph that is either unjudged or relevant
    (grade >= the campaign's rel_threshold) is judged relevant, or no such paragraph
    exists.

    ``ranking``: the system's items in rank order; ``grades``: judged items only. The
    SQL form of the same walk is ``walk`` in :mod:`reljudge.storage.plans`."""
    return not _first_open(ranking, grades, pooled, rel, k)[1]


def frontier(
    rankings: Mapping[str, Sequence[str]], grades: Mapping[str, int], pooled: Collection[str], rel: int, k: int
) -> list[str]:
    """The frontier of a question: for every unsettled system (:func:`settled`), the first
    unjudged paragraph of its walk; de-duplicated, in the order of the systems' names
    (the page and ``reljudge next`` show them in the annotator's stable shuffle instead).

    ``rankings``: system → item ids in rank order; ``grades``: judged items only (item →
    grade). Judging these items, with any grades, and asking again ends with every
    system settled (tests/test_plan.py)."""
    pooled = set(pooled)
    out: list[str] = []
    for system in sorted(rankings):
        item, unjudged = _first_open(rankings[system], grades, pooled, rel, k)
        if unjudged and item not in out:
            out.append(item)
    return out


# -- the campaign's plan --------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    name: str  # complete | rr-first
    rest: bool  # rr-first: go on with the rest of the pool once every RR@K is settled
    k: int  # the main cutoff: the largest of the campaign's ks
    rel: int  # the relevance threshold
    ties: str
    dedup: str
    #: complete only: a model source (reljudge.judges) ordering each question's paragraphs,
    #: most likely relevant first (a lead's choice; the report says so). None: the shuffle.
    order_source: str | None = None
    #: sample, or rr-first --then-sample: the share of each question's pool drawn
    #: (docs/sampling.md); None: the plan draws nothing
    sample_rate: float | None = None
    #: the draw's seed (with the question id, all its randomness)
    sample_seed: int | None = None

    @property
    def walks(self) -> bool:
        """Whether rr-first's frontier is asked for (every plan but complete and sample)."""
        return self.name == "rr-first"

    @property
    def samples(self) -> bool:
        """Whether the plan judges a drawn sample of each pool (sample, rr-first --then-sample)."""
        return self.sample_rate is not None

    def describe(self) -> str:
        if self.name == "complete":
            if self.order_source:
                return f"complete, ordered by model source {self.order_source} (most likely relevant first)"
            return "complete"
        drawn = f"a random sample of {self.sample_rate or 0:g} of each pool, seed {self.sample_seed}"
        if self.name == "sample":
            return f"sample ({drawn})"
        then = ", then the rest of the pool" if self.rest else f", then {drawn}" if self.samples else ""
        return f"rr-first (K = {self.k}, rel >= {self.rel}{then})"


def current(db: Database) -> Plan:
    """The campaign's plan (settings ``plan`` and ``plan_rest``; complete by default)."""
    s = catalog.get_settings(db)
    name = s.get("plan") or DEFAULT_PLAN
    if name not in PLANS:
        name = DEFAULT_PLAN
    ks = [int(k) for k in str(s["ks"]).split(",") if k.strip()] or [10]
    order = (s.get("plan_order_source") or None) if name == "complete" else None
    rate = seed = None
    if name != "complete" and s.get("plan_sample_rate"):
        rate, seed = float(s["plan_sample_rate"]), int(s.get("plan_sample_seed") or DEFAULT_SAMPLE_SEED)
    if name == "sample" and rate is None:  # a setting left half-made by hand: nothing drawn
        name = DEFAULT_PLAN
    rest = s.get("plan_rest") == "on" and name == "rr-first" and rate is None
    return Plan(name, rest, max(ks), int(s["rel_threshold"]), s["ties"], s["dedup"], order, rate, seed)


def sample_rate(value) -> float:
    """A sampling rate from the command line or a page: a number in (0, 1]; else a coded error."""
    try:
        rate = float(value)
    except (TypeError, ValueError):
        raise ReljudgeError(CODES("error_sample_rate", rate=repr(value))) from None
    if not 0.0 < rate <= 1.0:  # NaN fails too
        raise ReljudgeError(CODES("error_sample_rate", rate=repr(value)))
    return rate


def sample_seed(value) -> int:
    """A draw's seed: a whole number from 0 to 2**63 − 1; else a coded error."""
    try:
        seed = int(str(value).strip())
    except (TypeError, ValueError):
        raise ReljudgeError(CODES("error_sample_seed", seed=repr(value))) from None
    if not 0 <= seed < 2**63:
        raise ReljudgeError(CODES("error_sample_seed", seed=repr(value)))
    return seed


def set_plan(
    db: Database,
    name: str,
    rest: bool = False,
    order_source: str | None = None,
    sample: float | str | None = None,
    seed: int | str | None = None,
) -> Plan:
    """Choose the judging plan (a lead's decision: the CLI and the assignment page);
    ``order_source``: under complete, a model source ordering each question's paragraphs;
    ``sample`` (the rate) and ``seed``: under ``sample`` (required) or ``rr-first`` (then a
    sample, instead of ``rest``), each question's pool is drawn once, here
    (:func:`make_draws`). Everything is checked before anything is written; a draw that
    would differ from the stored one once judging has begun is refused."""
    if name not in PLANS:
        raise ReljudgeError(CODES("error_unknown_plan", plan=repr(name), choices=", ".join(PLANS)))
    if order_source and name != "complete":
        raise ReljudgeError(CODES("error_plan_order_complete_only"))
    if order_source and order_source not in judge_sources.judge_source_names(db):
        raise ReljudgeError(CODES("error_no_model_source", source=repr(order_source)))
    if name == "sample" and sample is None:
        raise ReljudgeError(CODES("error_sample_needs_rate"))
    if sample is not None and name == "complete":
        raise ReljudgeError(CODES("error_sample_rate_plan", plan=name))
    if sample is not None and rest:
        raise ReljudgeError(CODES("error_sample_and_rest"))
    rate = None if sample is None else sample_rate(sample)
    chosen_seed = None if rate is None else sample_seed(DEFAULT_SAMPLE_SEED if seed is None else seed)
    if rate is not None:
        make_draws(db, rate, chosen_seed)
    catalog.set_setting(db, "plan", name)
    catalog.set_setting(db, "plan_rest", "on" if rest and name == "rr-first" else "off")
    catalog.set_setting(db, "plan_order_source", order_source or "")
    catalog.set_setting(db, "plan_sample_rate", "" if rate is None else repr(rate))
    catalog.set_setting(db, "plan_sample_seed", "" if chosen_seed is None else str(chosen_seed))
    return current(db)


# -- the draw of the sampling plans ----------------------------------------------------------


def _compute_draws(db: Database, rate: float, seed: int) -> list:
    """The draw of every pooled question (reljudge.eval.sampling.draw), from the pool's best
    ranks (every run ranked by the campaign's ties/dedup rule down to the pool depth) with
    nothing known: it reads no grade, so rr-first's items can be taken as known at
    estimation time (docs/sampling.md, "Why the estimates are unbiased")."""
    from reljudge.eval import sampling

    s = catalog.get_settings(db)
    depth = int(s["pool_depth"])
    rankings_rows, pool_rows = draw_store.draw_inputs(db, s["ties"], s["dedup"], depth)
    pooled: dict[str, list[str]] = {}
    for qid, pid in pool_rows:
        pooled.setdefault(str(qid), []).append(str(pid))
    rankings: dict[str, dict[str, list[str]]] = {}
    for qid, system, item, _ in rankings_rows:
        rankings.setdefault(str(qid), {}).setdefault(str(system), []).append(str(item))
    return [
        sampling.draw(sampling.best_ranks(rankings.get(q, {}), items, depth), rate, seed, (), qid=q)
        for q, items in sorted(pooled.items())
    ]


def make_draws(db: Database, rate: float, seed: int) -> None:
    """Draw every question's pool at ``rate`` with ``seed`` and store it (table
    ``sample_draws``), unless the stored draw is that one already. Once any paragraph is
    graded, a draw that would differ from a stored one (another rate or seed, or a pool
    rebuilt since) is refused: the grades given so far were asked for by the old one. A
    first draw is made whenever it is asked for: it reads no grade."""
    draws = _compute_draws(db, rate, seed)
    rows = [(d.qid, x.item, x.best_rank, x.stratum, x.pi, x.drawn, d.rate, d.seed) for d in draws for x in d.items]
    stored = draw_store.draw_rows(db)
    if {tuple(r) for r in stored} == set(rows):
        return
    old = draw_store.stored_design(db)
    # a first draw may come after judging has begun (it reads no grade); a second one may not
    if old is not None and draw_store.judging_begun(db):
        raise ReljudgeError(
            CODES(
                "error_sample_redraw_judged",
                rate=f"{old[0]:g}",
                seed=old[1],
                new_rate=f"{rate:g}",
                new_seed=seed,
            )
        )
    draw_store.replace_draws(db, rows)


def draws_of(db: Database, qids: list[str] | None = None) -> list:
    """The stored draws (reljudge.eval.sampling.Draw, one per question, qid order) of
    ``qids`` (all by default): rebuilt from the table as Draw.from_dict reads them."""
    from reljudge.eval.sampling import Draw

    by_q: dict[str, list[tuple]] = {}
    for row in draw_store.draw_rows(db, qids):
        by_q.setdefault(str(row[0]), []).append(row)
    out = []
    for qid, rows in sorted(by_q.items()):
        strata: dict[int, list] = {}
        for _, pid, b, st, pi, drawn, _, _ in rows:
            strata.setdefault(int(st), []).append((b, drawn))
        out.append(
            Draw.from_dict(
                {
                    "qid": qid,
                    "rate": rows[0][6],
                    "seed": rows[0][7],
                    "items": [[pid, b, st, pi, drawn, False] for _, pid, b, st, pi, drawn, _, _ in rows],
                    "strata": [
                        [
                            label,
                            min((b for b, _ in m if b is not None), default=None),
                            max((b for b, _ in m if b is not None), default=None),
                            len(m),
                            sum(1 for _, d in m if d),
                        ]
                        for label, m in sorted(strata.items())
                    ],
                }
            )
        )
    return out


def overview(
    db: Database, username: str, plan: Plan | None = None, qids: list[str] | None = None, items: bool = False
) -> list[tuple] | None:
    """Under rr-first, ``username``'s queue as storage.judgments.question_overview gives
    it, with ``open_now`` (the number of items to judge now), ``unsettled`` (systems whose
    RR@K is not settled) and ``systems`` (rows of storage.plans.PLAN_OVERVIEW_COLUMNS): one
    SQL query for the whole queue. None under complete: there the items to judge now are
    the ungraded pooled paragraphs, which the queue's overview counts already. ``qids``:
    only these questions of the queue; ``items``: each row ends with the items to judge now
    (as :func:`now_items` gives them, in the same query)."""
    plan = plan or current(db)
    if plan.name == "complete":
        return None
    return store.plan_overview(
        db, username, plan.rest, plan.ties, plan.dedup, plan.k, plan.rel, qids, items, plan.samples, plan.walks
    )


def now_items(db: Database, username: str, qids: list[str], plan: Plan | None = None) -> dict[str, list[str]]:
    """{qid: the items to judge now, in the page's order} for questions of ``username``'s
    queue (one query): under complete the ungraded pooled paragraphs in the annotator's
    stable shuffle; under rr-first the frontier in that shuffle, or with the rest of the
    pool (once every RR@K is settled) the ungraded paragraphs by weight, then the shuffle."""
    plan = plan or current(db)
    return store.plan_items(
        db,
        username,
        list(qids),
        plan.name,
        plan.rest,
        plan.ties,
        plan.dedup,
        plan.k,
        plan.rel,
        plan.order_source,
        plan.samples,
        plan.walks,
    )


#: how many grades ahead the page knows what each grade does (issue 35: keys pressed back
#: to back, before any save's answer, each find their prediction), and the most branches
#: (one card, one outcome) the tree holds: it is sent with every save's answer
AFTER_GRADE_DEPTH = 3
AFTER_GRADE_BUDGET = 400


def _graded(walks: list[list[tuple[str, bool]]], item: str, relevant: bool) -> tuple[list, int]:
    """The unsettled walks after ``item`` is graded (relevant or not) and how many systems
    it settles: relevant, the item is a judged relevant one of every walk (a walk whose
    first open item it was is settled); not relevant, it leaves every walk, and a walk
    whose next candidate is a judged relevant item, or that has none, is settled
    (:func:`settled`'s rule)."""
    out, settle = [], 0
    for walk in walks:
        after = (
            [(p, False if p == item else o) for p, o in walk] if relevant else [(p, o) for p, o in walk if p != item]
        )
        if after and after[0][1]:
            out.append(after)
        else:
            settle += 1
    return out, settle


def after_grade(
    db: Database,
    username: str,
    qid: str,
    now: Sequence[str],
    pooled_now: Collection[str],
    ungraded: int,
    plan: Plan | None = None,
    depth: int = AFTER_GRADE_DEPTH,
    budget: int = AFTER_GRADE_BUDGET,
) -> dict[str, dict[str, dict | None]]:
    """What grading each item to judge now does to the plan, so that the page moves on at
    once instead of waiting for the save's answer (issue 35.1: the judge never waits).

    ``now``: the items to judge now (decoys merged in), ``pooled_now``: those of them that
    are pooled (not decoys), ``ungraded``: the question's ungraded pooled items. For each item ``c`` of ``now`` and each outcome — ``"rel"``
    (graded >= the relevance threshold) and ``"not"`` — a change to apply to the plan's
    state: ``drop`` (``c``), ``add`` (items that come onto the list) and ``settle``
    (systems whose RR@K it settles); the count of items to judge now changes by
    ``len(add) - 1`` (decoys count like pooled items, as in the queue). The rule is :func:`settled`'s walk: grading ``c`` moves only the
    systems whose first open item is ``c``; relevant, each of them is settled; not
    relevant, each one's walk goes on to its next candidate (:func:`reljudge.storage.plans.plan_walks`),
    which comes onto the list when unjudged and settles the system when it is a judged
    relevant item or there is none. With the rest of the pool (``plan rr-first
    --then-rest``) the last settling grade brings the rest's order, which only the server
    computes: that outcome is None (the page waits for the answer).

    Each change carries its own ``then``: the same for the list it leaves, so that keys
    pressed back to back (the next before the previous save is answered) are known too,
    ``depth`` grades deep, breadth first, at most ``budget`` changes in all; a change
    without ``then`` is where the tree stops (the page waits there). Nothing here names a
    system, a rank or a score: the page learns which item follows which only as it would
    by grading (docs/judging-plans.md)."""
    plan = plan or current(db)
    if plan.name == "complete":
        return {}
    walks = [list(zip(p, o)) for p, o in store.plan_walks(db, username, qid, plan.ties, plan.dedup, plan.k, plan.rel)]
    root: dict[str, dict[str, dict | None]] = {}
    # ungraded pooled items, decoys aside (the ungraded decoys are on the list)
    pooled_ungraded = ungraded - sum(1 for c in now if c not in pooled_now)
    # breadth first: (list to judge now, its pooled items, unsettled walks, ungraded pooled, where its tree goes, depth)
    todo = [(list(now), set(pooled_now), walks, pooled_ungraded, {"then": root}, 1)]
    spent = 0
    while todo:
        now_, pooled_, walks_, left_, parent, level = todo.pop(0)
        out = parent["then"]
        spent += 2 * len(now_)
        for c in now_:
            left = left_ - (1 if c in pooled_ else 0)
            branches: dict[str, dict | None] = {}
            for outcome in ("rel", "not"):
                after, settle = _graded(walks_, c, outcome == "rel")
                heads = list(dict.fromkeys(w[0][0] for w in after))
                add = [h for h in heads if h not in now_] if plan.walks else []
                if plan.rest and walks_ and not heads and left > 0:
                    branches[outcome] = None  # the rest of the pool comes next, in the server's order
                    continue
                delta = {"drop": c, "add": add, "settle": settle}
                branches[outcome] = delta
                next_now = [p for p in now_ if p != c] + add
                if level < depth and next_now:
                    delta["then"] = {}
                    todo.append((next_now, (pooled_ - {c}) | set(add), after, left, delta, level + 1))
            out[c] = branches
        # what the budget leaves out stays unknown: no ``then`` (not an empty one)
        while todo and spent + 2 * len(todo[0][0]) > budget:
            del todo.pop(0)[4]["then"]
    return root


def open_now_for(db: Database, rows: pd.DataFrame) -> pd.Series:
    """The number of items to judge now for each (username, qid) row of ``rows`` (with
    pool_size and judged): under complete the ungraded pooled paragraphs, otherwise the
    plan's count from one query over every pair."""
    import pandas as pd

    plan = current(db)
    if plan.name == "complete" or rows.empty:
        return (rows.pool_size - rows.judged).clip(lower=0)
    found = store.plan_counts_pairs(
        db,
        list(rows.username),
        list(rows.qid),
        plan.rest,
        plan.ties,
        plan.dedup,
        plan.k,
        plan.rel,
        plan.samples,
        plan.walks,
    )
    counts = {(u, q): int(n) for u, q, n, _, _ in found}
    return pd.Series([counts.get((u, q), 0) for u, q in zip(rows.username, rows.qid)], index=rows.index)


# -- what a plan is expected to cost ---------------------------------------------------


def estimate(db: Database, draws: int = 100, seed: int = 0) -> dict:
    """The judgments each plan is expected to need, before or during judging (issue 39.10).

    Per question, over the pooled items of the systems' top K (K, threshold, ties and
    duplicates as the plan reads them):

    - ``complete``: the question's pool.
    - ``rr-first`` ``low`` / ``high``: from the rankings alone — the first frontier
      (:func:`frontier` with no grades: every system's first pooled item; enough when each
      of them is relevant) and every pooled item within K (when none is relevant).
    - ``rr-first`` ``expected``: once judging has started, the mean count of a simulation
      (``draws`` runs, seeded) of :func:`frontier` walked to the end, each revealed item
      relevant with the rate observed so far at its best rank (judged items of every
      annotator, Beta(1, 1)-smoothed: (relevant + 1) / (judged + 2)). Each annotator's
      walk starts from that annotator's own grades of the question (their judgments count
      as spent), so a question they have finished counts exactly what it took, and at the
      end the estimate is the judgments made. None before any judgment — the rankings
      alone give only the range.

    - under a sampling plan, ``sample_drawn`` (the drawn items) and ``with_sample_low`` /
      ``_high`` / ``_expected``: what the chosen plan takes — the drawn items (``sample``),
      or their union with rr-first's items (``rr-first --then-sample``: the range and the
      simulation above, a drawn item counted once). None (and absent from ``totals``)
      under the other plans.

    Counts are per annotator and multiplied by the annotators a question has (its active
    assignments; without assignments every annotator judges every question); the
    per-question ``rr_first_expected`` is the mean over them. ``hours``:
    the totals at the team's median seconds per judgment (None before any timed one)."""
    import numpy as np

    chosen = current(db)
    k, rel = chosen.k, chosen.rel
    inputs = store.estimate_inputs(db, chosen.ties, chosen.dedup, k)
    pooled: dict[str, set] = {}
    for qid, pid in inputs["pool"].itertuples(index=False):
        pooled.setdefault(str(qid), set()).add(str(pid))
    rankings: dict[str, dict[str, list[str]]] = {}
    best_rank: dict[tuple[str, str], int] = {}
    for qid, system, item, r in inputs["rankings"].itertuples(index=False):
        qid, item = str(qid), str(item)
        rankings.setdefault(qid, {}).setdefault(str(system), []).append(item)
        key = (qid, item)
        best_rank[key] = min(best_rank.get(key, int(r)), int(r))
    judged = inputs["judged"]
    rates = None
    if len(judged):
        hits, seen = np.zeros(k + 1), np.zeros(k + 1)
        for qid, pid, grade in judged[["qid", "pid", "grade"]].itertuples(index=False):
            r = best_rank.get((str(qid), str(pid)))
            if r is not None and r <= k:
                seen[r] += 1
                hits[r] += grade >= rel
        rates = (hits + 1) / (seen + 2)
    rng = np.random.default_rng(seed)
    every = inputs["annotators"]
    # each annotator's grades of each question's pooled items: where their walk starts
    started: dict[str, dict[str, dict[str, int]]] = {}
    for user, qid, pid, grade in judged[["username", "qid", "pid", "grade"]].itertuples(index=False):
        qid, pid = str(qid), str(pid)
        if pid in pooled.get(qid, ()):
            started.setdefault(qid, {}).setdefault(str(user), {})[pid] = int(grade)

    # the sampling plans' drawn items (what they add to judging), per question
    drawn: dict[str, set[str]] = {d.qid: set(d.to_judge()) for d in draws_of(db)} if chosen.samples else {}

    def simulated(qid: str, ranks, pool_q, start: dict[str, int], also: set[str] = frozenset()) -> float:
        counts = []
        for _ in range(draws):
            grades = dict(start)
            while True:
                open_items = frontier(ranks, grades, pool_q, rel, k)
                if not open_items:
                    break
                for item in open_items:
                    grades[item] = rel if rng.random() < rates[best_rank[(qid, item)]] else 0
            counts.append(len(grades.keys() | also))
            if not frontier(ranks, start, pool_q, rel, k):
                break  # nothing left to simulate: every draw is the same
        return float(np.mean(counts))

    rows = []
    for qid in sorted(pooled):
        ranks = rankings.get(qid, {})
        pool_q = pooled[qid]
        within = {i for items in ranks.values() for i in items[:k] if i in pool_q}
        low = len(frontier(ranks, {}, pool_q, rel, k))
        people = int(max(inputs["assignees"].get(qid, 0) if inputs["assignees"] else every, 1))
        expected = None
        if rates is not None:
            begun = list(started.get(qid, {}).values())[:people]
            fresh = people - len(begun)
            total_q = sum(simulated(qid, ranks, pool_q, g) for g in begun)
            if fresh:
                total_q += fresh * simulated(qid, ranks, pool_q, {})
            expected = total_q / people
        row = {
            "qid": qid,
            "annotators": people,
            "complete": len(pool_q),
            "rr_first_low": low,
            "rr_first_high": len(within),
            "rr_first_expected": expected,
            "sample_drawn": None,
            "with_sample_low": None,
            "with_sample_high": None,
            "with_sample_expected": None,
        }
        if chosen.samples:
            # what the chosen sampling plan takes: the drawn items, and under rr-first the
            # union with rr-first's own items (a drawn item on the frontier counts once)
            mine = drawn.get(qid, set())
            row["sample_drawn"] = len(mine)
            if chosen.name == "sample":
                row["with_sample_low"] = row["with_sample_high"] = row["with_sample_expected"] = len(mine)
            else:
                row["with_sample_low"] = len(set(frontier(ranks, {}, pool_q, rel, k)) | mine)
                row["with_sample_high"] = len(within | mine)
                if rates is not None:
                    begun = list(started.get(qid, {}).values())[:people]
                    fresh = people - len(begun)
                    total_q = sum(simulated(qid, ranks, pool_q, g, mine) for g in begun)
                    if fresh:
                        total_q += fresh * simulated(qid, ranks, pool_q, {}, mine)
                    row["with_sample_expected"] = total_q / people
        rows.append(row)

    def total(column):
        if any(r[column] is None for r in rows):
            return None
        return float(sum(r[column] * r["annotators"] for r in rows))

    columns = ("complete", "rr_first_low", "rr_first_high", "rr_first_expected")
    if chosen.samples:
        columns += ("sample_drawn", "with_sample_low", "with_sample_high", "with_sample_expected")
    totals = {c: total(c) for c in columns}
    median_ms = inputs["median_ms"]
    hours = {c: (None if v is None or median_ms is None else v * median_ms / 3_600_000) for c, v in totals.items()}
    return {
        "plan": chosen.name,
        "sample_rate": chosen.sample_rate,
        "k": k,
        "rel": rel,
        "questions": len(rows),
        "judged_so_far": int(len(judged)),
        "median_seconds_per_judgment": None if median_ms is None else median_ms / 1000,
        "totals": totals,
        "hours": hours,
        "per_question": rows,
    }


# -- what a plan settles ----------------------------------------------------------------


def settles(chosen: Plan, family: str, k: int | None, rel: int | None) -> bool:
    """Whether judging everything ``chosen`` asks for settles the measure ``family@k``
    (relevant at grade ``rel``) for every system: its bounds (reljudge.eval.bounds) then
    meet. The dashboard's plan sentence says it (issue 35.5).

    * ``complete``, or ``rr-first`` with the rest of the pool: every pooled paragraph
      is graded, so nothing is open and every measure is settled.
    * ``rr-first`` alone: a question is done when every system's RR@K is settled
      (:func:`settled`): walking the top K, the first paragraph unjudged or relevant is
      judged relevant, or there is none. That also settles RR@k for every k ≤ K (the
      same walk stopped earlier) and Success@k (a judged relevant paragraph within k, or
      every pooled paragraph within k judged below ``rel``), at the plan's threshold
      only. Everything else (nDCG, R, P, …) counts paragraphs the walk leaves open.
      ``rr-first --then-sample`` settles what rr-first settles; ``sample`` alone settles
      nothing (its P, R, nDCG and AP are estimated: docs/sampling.md)."""
    if chosen.name == "complete" or chosen.rest:
        return True
    if chosen.name == "sample":  # a sample settles nothing: its measures are estimated
        return False
    return family in ("RR", "Success") and k is not None and k <= chosen.k and rel == chosen.rel


def estimates(chosen: Plan, family: str, k: int | None) -> bool:
    """Whether ``chosen`` gives the measure ``family@k`` a design-based estimate from its
    random sample (docs/sampling.md): under a sampling plan, P@K, R@K and nDCG@K (with a
    cutoff) and AP — the families :mod:`reljudge.eval.sampling` estimates. The one rule
    for which figures are estimated: the evaluation (``attach_estimates``), the dashboard's
    plan sentence and the report follow it."""
    from reljudge.eval import sampling

    return chosen.samples and family in sampling.ESTIMATED_FAMILIES and (family == "AP" or k is not None)
