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
from reljudge.storage.db import Database
from reljudge.codes import Codes

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd

CODES = Codes(
    error_unknown_plan=("plan", "choices"),
    error_plan_order_complete_only=(),
    error_no_model_source=("source",),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

PLANS = ("complete", "rr-first")
DEFAULT_PLAN = "complete"


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

    def describe(self) -> str:
        if self.name == "complete":
            if self.order_source:
                return f"complete, ordered by model source {self.order_source} (most likely relevant first)"
            return "complete"
        return f"rr-first (K = {self.k}, rel >= {self.rel}{', then the rest of the pool' if self.rest else ''})"


def current(db: Database) -> Plan:
    """The campaign's plan (settings ``plan`` and ``plan_rest``; complete by default)."""
    s = catalog.get_settings(db)
    name = s.get("plan") or DEFAULT_PLAN
    if name not in PLANS:
        name = DEFAULT_PLAN
    ks = [int(k) for k in str(s["ks"]).split(",") if k.strip()] or [10]
    order = (s.get("plan_order_source") or None) if name == "complete" else None
    return Plan(name, s.get("plan_rest") == "on", max(ks), int(s["rel_threshold"]), s["ties"], s["dedup"], order)


def set_plan(db: Database, name: str, rest: bool = False, order_source: str | None = None) -> Plan:
    """Choose the judging plan (a lead's decision: the CLI and the assignment page);
    ``order_source``: under complete, a model source ordering each question's paragraphs."""
    if name not in PLANS:
        raise ReljudgeError(CODES("error_unknown_plan", plan=repr(name), choices=", ".join(PLANS)))
    if order_source and name != "complete":
        raise ReljudgeError(CODES("error_plan_order_complete_only"))
    if order_source and order_source not in judge_sources.judge_source_names(db):
        raise ReljudgeError(CODES("error_no_model_source", source=repr(order_source)))
    catalog.set_setting(db, "plan", name)
    catalog.set_setting(db, "plan_rest", "on" if rest and name == "rr-first" else "off")
    catalog.set_setting(db, "plan_order_source", order_source or "")
    return current(db)


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
    return store.plan_overview(db, username, plan.rest, plan.ties, plan.dedup, plan.k, plan.rel, qids, items)


def now_items(db: Database, username: str, qids: list[str], plan: Plan | None = None) -> dict[str, list[str]]:
    """{qid: the items to judge now, in the page's order} for questions of ``username``'s
    queue (one query): under complete the ungraded pooled paragraphs in the annotator's
    stable shuffle; under rr-first the frontier in that shuffle, or with the rest of the
    pool (once every RR@K is settled) the ungraded paragraphs by weight, then the shuffle."""
    plan = plan or current(db)
    return store.plan_items(
        db, username, list(qids), plan.name, plan.rest, plan.ties, plan.dedup, plan.k, plan.rel, plan.order_source
    )


def open_now_for(db: Database, rows: pd.DataFrame) -> pd.Series:
    """The number of items to judge now for each (username, qid) row of ``rows`` (with
    pool_size and judged): under complete the ungraded pooled paragraphs, otherwise the
    plan's count from one query over every pair."""
    import pandas as pd

    plan = current(db)
    if plan.name == "complete" or rows.empty:
        return (rows.pool_size - rows.judged).clip(lower=0)
    found = store.plan_counts_pairs(
        db, list(rows.username), list(rows.qid), plan.rest, plan.ties, plan.dedup, plan.k, plan.rel
    )
    counts = {(u, q): int(n) for u, q, n, _, _ in found}
    return pd.Series([counts.get((u, q), 0) for u, q in zip(rows.username, rows.qid)], index=rows.index)
