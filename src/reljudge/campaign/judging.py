"""The judging workflow: what an annotator sees for a question, and saving what
they did. Used by the judging page; independent of Streamlit.

Grades: 2 = directly citable evidence (직접 인용 가능한 근거), 1 = related but not
citable on its own, 0 = not relevant; ``None`` clears a grade. A question-level
verdict marks "no answer in these results" (근거 없음).
"""

from __future__ import annotations

import hashlib
import math
import threading
import uuid
from collections import OrderedDict
from typing import TYPE_CHECKING, Callable, Iterable, NamedTuple

from reljudge import display, i18n
from reljudge.campaign import event_fields as fields
from reljudge.campaign import group_commit
from reljudge.campaign import plan
from reljudge.campaign.queue_position import WorkQueue
from reljudge.errors import ReljudgeError
from reljudge.storage import accounts, catalog, judge_sources
from reljudge.storage import judgments as store
from reljudge.storage.db import Database
from reljudge.codes import Codes
from reljudge.grades import TOP_GRADE

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd

CODES = Codes(
    error_unknown_question=("qid",),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

MAX_NOTE = fields.MAX_TEXT
MAX_TIME_MS = fields.MAX_TIME_MS


def source_line(title, date, volume, page, lang: str = "ko") -> str:
    """'title · date · 3권 45쪽' — the paragraph's place in the collection."""
    parts = [str(x) for x in (title, date) if x not in (None, "") and not _isnan(x)]
    vol = volume if volume not in (None, "") and not _isnan(volume) else None
    pg = page if page not in (None, "") and not _isnan(page) else None
    if vol and pg:
        parts.append(i18n.t("source_volume_page", lang, volume=vol, page=pg))
    elif vol:
        parts.append(i18n.t("source_volume", lang, volume=vol))
    elif pg:
        parts.append(i18n.t("source_page", lang, page=pg))
    return " · ".join(parts)


def _isnan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)


def _clean(x):
    import pandas as pd  # loaded already: the items come as a DataFrame

    return None if x is None or _isnan(x) or x is pd.NA else x


class _LruCache:
    """A small thread-safe least-recently-used cache (sessions run in their own threads)."""

    def __init__(self, size: int = 512):
        self._items: "OrderedDict[tuple, object]" = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: tuple, compute):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = compute()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value


# Keyed on the database's write counter (Database.version): a move to another question
# asks for the same queue overview several times (the action, the fragment, the
# sidebar); it is computed once until something is written.
_BY_VERSION = _LruCache(256)
# Keyed on the pool version: texts, sources and neighbours change only with the pool.
_BY_POOL = _LruCache(512)


class QueueEntry(NamedTuple):
    """One question of an annotator's queue, as :func:`queue` gives it."""

    qid: str
    text: str | None
    qtype: str | None
    criteria: str | None
    seq: int
    pool_size: int
    judged: int
    no_answer: bool
    open_now: int  # the number of items to judge now under the judging plan
    unsettled: int  # rr-first: systems whose RR@K is not settled (0 under complete)
    systems: int  # rr-first: the number of systems (0 under complete)


def queue(db: Database, username: str, decoys: bool = True, qids: list[str] | None = None) -> list[QueueEntry]:
    """The annotator's queue, in campaign order (see storage.judgments.question_overview),
    with what the campaign's judging plan asks of each question (reljudge.campaign.plan.overview):
    ``open_now``, ``unsettled`` and ``systems``. Plain rows (``reljudge next`` runs without
    pandas); :func:`overview` is the same as a DataFrame. ``qids``: only these questions
    (under rr-first the plan's counts are then read for them alone).

    This is the annotator's own view: the decoys placed for them (reljudge.campaign.quality)
    count like pooled paragraphs in ``pool_size``, ``judged`` and ``open_now``, so that
    nothing tells them apart. ``decoys=False`` leaves them out (the lead's decisions, such
    as reassigning unfinished work)."""

    def compute() -> list[QueueEntry]:
        planned = plan.overview(db, username, qids=qids)
        if planned is None:  # complete: every ungraded pooled paragraph is to judge now
            return _ungraded(db, username, decoys, qids)
        return _add_decoys([QueueEntry(*row) for row in planned], store.decoy_counts(db, username) if decoys else {})

    key = ("queue", id(db), db.version, username, decoys, None if qids is None else tuple(qids))
    return _BY_VERSION.get(key, compute)


def _ungraded(db: Database, username: str, decoys: bool, qids: list[str] | None = None) -> list[QueueEntry]:
    """The queue with ``open_now`` = the ungraded items of each question: the complete plan's
    count, and under every plan the most there can be to judge now."""
    rows = store.question_overview(db, username)
    if qids is not None:
        wanted = set(qids)
        rows = [row for row in rows if row[0] in wanted]
    entries = [QueueEntry(*row, open_now=max(row[5] - row[6], 0), unsettled=0, systems=0) for row in rows]
    return _add_decoys(entries, store.decoy_counts(db, username) if decoys else {})


def _add_decoys(entries: list[QueueEntry], counts: dict[str, tuple[int, int]]) -> list[QueueEntry]:
    """The queue as the annotator sees it: ``counts`` (storage.judgments.decoy_counts, the
    decoys placed for them and graded) added to each question's pool, graded and open items."""
    if not counts:
        return entries
    out = []
    for e in entries:
        placed, graded = counts.get(e.qid, (0, 0))
        out.append(
            e._replace(pool_size=e.pool_size + placed, judged=e.judged + graded, open_now=e.open_now + placed - graded)
        )
    return out


def overview(db: Database, username: str, decoys: bool = True) -> pd.DataFrame:
    """:func:`queue` as a DataFrame (one row per question, its fields as columns). Callers
    must not modify the frame, it is shared until the next write."""

    def compute() -> pd.DataFrame:
        import pandas as pd

        return pd.DataFrame(queue(db, username, decoys), columns=list(QueueEntry._fields))

    return _BY_VERSION.get(("overview", id(db), db.version, username, decoys), compute)


def _shuffle_key(qid: str, username: str, pid: str) -> str:
    """The stable shuffle of storage.judgments.SHUFFLE_KEY, computed here."""
    return hashlib.md5(f"{qid}\x1f{username}\x1f{pid}".encode()).hexdigest()


def _with_decoys(db: Database, username: str, lists: dict[str, list[str]]) -> dict[str, list[str]]:
    """The items to judge now, with the annotator's ungraded decoys merged in at their
    place in the stable shuffle (blind: placed as a pooled paragraph would be)."""
    extra = store.open_decoys(db, username, list(lists))
    if not extra:
        return lists
    return {qid: merge_decoys(qid, username, items, extra.get(qid, ())) for qid, items in lists.items()}


def merge_decoys(qid: str, username: str, ordered: list[str], decoys) -> list[str]:
    """``ordered`` (pooled items in the page's order) with ``decoys`` merged in, the one
    rule of the page and of ``reljudge next``: each decoy goes after as many items as have
    a smaller stable-shuffle key than its own. In the shuffle order that is its exact
    place; in another order (``plan complete --order-by SOURCE``, which no decoy has a
    grade in) it is a uniformly random place, as a pooled item's: sorted as ungraded,
    every decoy came last (issue 34.6: recognisable)."""
    merged = list(ordered)
    keyed = [(_shuffle_key(qid, username, p), p) for p in merged]
    for key, pid in sorted((_shuffle_key(qid, username, p), p) for p in decoys):
        at = sum(1 for k, _ in keyed if k < key)
        merged.insert(at, pid)
        keyed.insert(at, (key, pid))
    return merged


def nothing_to_judge_reason(db: Database, username: str) -> str:
    """Why a queue is empty, as a UI text key: ``no_questions`` when the campaign holds no
    question yet (a lead must import data); else for an annotator ``none_assigned`` (the
    lead assigns work), for a lead ``lead_all_assigned`` (every question is someone's: a
    lead's grade is an adjudication there, issue 39.7)."""
    if catalog.counts(db)["questions"] == 0:
        return "no_questions"
    row = accounts.get_user_row(db, username)
    return "lead_all_assigned" if row is not None and row[2] == "lead" else "none_assigned"


def current_question(db: Database, username: str) -> str | None:
    """Where the annotator left off; else the first unfinished question of their own
    queue (one they started comes first), in campaign order (remembered, so the
    question does not change under the annotator's hands when it becomes complete)."""
    return QUEUE.current(db, username)


def is_finished(pool_size, open_now, no_answer):
    """The one predicate of done: nothing is left to judge under the campaign's judging
    plan (``open_now`` = 0, reljudge.campaign.plan: under complete every pooled paragraph has
    a grade; under rr-first every system's RR@K is settled, and with the rest of the pool
    every paragraph graded); a question with an empty pool: its 'no answer' verdict is
    given. 'No answer' alone does not finish a question whose paragraphs are still to be
    judged: the qrels would lack them. Takes one question's values or whole columns
    (pandas Series) alike."""
    return ((pool_size > 0) & (open_now <= 0)) | ((pool_size == 0) & no_answer)


def finished(ov: pd.DataFrame) -> pd.Series:
    """:func:`is_finished` per question of an overview. Rows without ``open_now`` count the
    ungraded pooled paragraphs (the complete plan)."""
    open_now = ov.open_now if "open_now" in ov else (ov.pool_size - ov.judged)
    return is_finished(ov.pool_size, open_now, ov.no_answer)


def _next_open(questions: Iterable[tuple], done: Callable[[str], bool], after: str | None = None) -> str | None:
    """The next unfinished question of a queue given as (qid, seq, judged) in campaign
    order, ``done(qid)`` telling whether a question is finished (asked only as far as the
    answer needs): one this annotator has started comes first (work in progress is finished
    before new work begins); otherwise the first in campaign order, or — ``after`` a
    question — the next one after it, wrapping around."""
    questions = [(qid, seq, judged) for qid, seq, judged in questions]
    started = next((qid for qid, _, judged in questions if judged > 0 and qid != after and not done(qid)), None)
    if started is not None:
        return str(started)
    after_seq = next((seq for qid, seq, _ in questions if qid == after), None)
    later = [qid for qid, seq, _ in questions if after_seq is not None and seq > after_seq]
    rest = [qid for qid, seq, _ in questions if after_seq is None or seq <= after_seq]
    found = next((qid for qid in later + rest if qid != after and not done(qid)), None)
    return None if found is None else str(found)


def _next_unfinished(ov: pd.DataFrame, after: str | None = None) -> str | None:
    """:func:`_next_open` over an overview."""
    done = dict(zip(ov.qid, finished(ov)))
    return _next_open(zip(ov.qid, ov.seq, ov.judged), lambda qid: bool(done[qid]), after)


next_unfinished = _next_unfinished


def unfinished_before(ov: pd.DataFrame, qid: str) -> int:
    """How many unfinished questions come before ``qid`` in the queue (the widget says
    so, so that a skipped question is never a silent gap)."""
    seqs = ov.loc[ov.qid == qid, "seq"]
    return 0 if seqs.empty else int((~finished(ov) & (ov.seq < seqs.iloc[0])).sum())


def work_left(db: Database, username: str, qid: str | None) -> tuple[int, int]:
    """(unfinished questions other than ``qid``, paragraphs of ``qid`` still to judge
    under the judging plan)."""
    ov = overview(db, username)
    if ov.empty:
        return 0, 0
    unfinished = ~finished(ov)
    here = ov.qid == qid
    left_here = int(ov.open_now[here & unfinished].clip(lower=0).sum())
    return int((unfinished & ~here).sum()), left_here


def neighbours(db: Database, username: str, qid: str) -> dict[str, str]:
    """Where each move of the page (``next``, ``prev``, ``next_open``; ``next2``,
    ``next3``, ``prev2``: two and three questions on, two back) would go from ``qid``, the
    annotator's current question, where it goes elsewhere: the page holds those questions
    and paints one at once when asked (issue 35.2), Enters back to back too, before the
    server has caught up with the first. Only questions of the annotator's own queue, which
    they could open anyway. One read of the queue."""
    moves = {"next": (1, False), "prev": (-1, False), "next_open": (1, True)}
    moves |= {"next2": (2, False), "next3": (3, False), "prev2": (-2, False)}
    targets = QUEUE.peeks(db, username, moves)
    return {move: str(target) for move, target in targets.items() if target is not None and target != qid}


def go_to(db: Database, username: str, qid: str) -> None:
    QUEUE.go_to(db, username, qid)


def step(db: Database, username: str, delta: int, only_open: bool = False) -> str | None:
    """Move ``delta`` questions forward/back in campaign order, or (``only_open``) to the
    next unfinished question after the current one."""
    return QUEUE.step(db, username, delta, only_open)


QUEUE = WorkQueue(
    overview,
    "qid",
    lambda ov, after=None: _next_unfinished(ov, after),
    store.get_position,
    store.set_position,
    lambda qid, _user: ReljudgeError(CODES("error_unknown_question", qid=repr(qid))),
    str,
)
"""The judging queue's position and moves (the rule review's queue shares)."""


def _static_items(db: Database, username: str, qid: str, lang: str, question: str, highlight: bool) -> list[dict]:
    """Texts, sources and neighbours of a question's pool as this annotator sees them
    (with the question's content words located, when the lead switched highlighting on);
    cached until the pool is rebuilt, so a save re-reads only the grades."""

    def compute() -> list[dict]:
        rows = store.question_items(db, username, qid)
        words = None
        if highlight:
            from reljudge.campaign import highlight as hl

            words = hl.content_words(question)
        # Hidden characters (right-to-left overrides, zero-width spaces) are shown as
        # ⟨U+…⟩ before anything is located in the text, so the marks fit what is shown.
        texts = [display.visible(r.text) for r in rows.itertuples()]
        return [
            {
                "pid": r.pid,
                "text": text,
                "source": display.visible(source_line(r.title, r.date, r.volume, r.page, lang)),
                "prev": display.visible(_clean(r.prev_text)),
                "next": display.visible(_clean(r.next_text)),
                "copies": int(r.n_copies),
                "marks": hl.spans(words, text) if highlight else [],
            }
            for r, text in zip(rows.itertuples(), texts)
        ]

    from reljudge.storage import quality as decoys

    key = (str(db.path), username, qid, lang, catalog.pool_version(db), decoys.decoys_version(db), highlight, question)
    return _BY_POOL.get(key, compute)


def plan_state(db: Database, username: str, qid: str) -> dict | None:
    """Under a judging plan other than complete, where one question stands for one
    annotator after their latest grades: the items to judge now (``now``, card ids in the
    page's order, decoys merged blind), how many systems' RR@K are ``settled``, ``done``
    (:func:`is_finished`), what is left to judge now (``open_now``) and what grading each
    item to judge now does (``then``, :func:`reljudge.campaign.plan.after_grade`). The page builds its
    list from it and the save route answers every grade with it (issue 35.1), so the page
    never reruns to learn what to judge next; it reads this one question only (the page
    keeps its overall counts from its render and adds this question's change). None under
    the complete plan or for a question not in the annotator's queue."""
    chosen = plan.current(db)
    if chosen.name == "complete":
        return None
    entries = queue(db, username, qids=[qid])
    if not entries:
        return None
    q = entries[0]
    pooled_now = plan.now_items(db, username, [qid], chosen)
    now = _with_decoys(db, username, pooled_now)[qid]
    return {
        "now": now,
        "now_key": "|".join(now),
        "k": chosen.k,
        "systems": int(q.systems),
        "settled": int(q.systems) - int(q.unsettled),
        "open_now": int(q.open_now),
        "done": bool(is_finished(q.pool_size, q.open_now, q.no_answer)),
        # what each grade does next, so that the page moves on before the save's answer
        "then": plan.after_grade(db, username, qid, now, set(pooled_now[qid]), int(q.pool_size - q.judged), chosen),
    }


def plan_states(db: Database, username: str, qids) -> dict[str, dict]:
    """:func:`plan_state` of each question in ``qids`` (none under the complete plan)."""
    if plan.current(db).name == "complete":
        return {}
    states = {qid: plan_state(db, username, qid) for qid in dict.fromkeys(qids)}
    return {qid: state for qid, state in states.items() if state is not None}


def payload(db: Database, username: str, qid: str, lang: str = "ko") -> dict:
    """Everything the judging widget shows for one question, blind: no system name,
    rank or score ever leaves the server."""
    ov = overview(db, username)
    row = ov[ov.qid == qid]
    if row.empty:
        raise ReljudgeError(CODES("error_unknown_question", qid=repr(qid)))
    q = row.iloc[0]
    mine = store.my_latest(db, username, qid)
    settings = catalog.get_settings(db)
    items = []
    for item in _static_items(db, username, qid, lang, q.text, settings["highlight"] == "on"):
        grade, note, evidence, eid = mine.get(item["pid"], (None, None, None, 0))
        items.append(
            {
                **item,
                "grade": None if grade is None else int(grade),
                "note": note or "",
                "evidence": evidence or "",
                "eid": int(eid),
            }
        )
    no_answer, verdict_note, verdict_eid = store.question_verdict(db, username, qid)
    index = list(ov.qid).index(qid)
    chosen = plan.current(db)
    then: dict = {}
    if chosen.name == "complete":
        if chosen.order_source:
            # a lead's choice (reljudge plan complete --order-by NAME): a model source orders
            # the paragraphs, most likely relevant first; its grades are never shown
            model = judge_sources.grades_of(db, chosen.order_source, qid)
            by_pid = {it["pid"]: it for it in items}
            decoys = store.placed_decoys(db, username, qid) & set(by_pid)
            pooled = sorted((p for p in by_pid if p not in decoys), key=lambda p: -model.get(p, -1))
            items = [by_pid[p] for p in merge_decoys(qid, username, pooled, decoys)]
        now = [it["pid"] for it in items if it["grade"] is None]
    else:
        state = plan_state(db, username, qid)
        now = state["now"]
        then = state["then"]
        # the items to judge now first, in the plan's order; then those this annotator has
        # graded (what the plan needed, so never shown as optional once the question is
        # done); the rest of the pool below (still open to judging), in the stable shuffle
        place = {pid: i for i, pid in enumerate(now)}
        items.sort(key=lambda it: place.get(it["pid"], len(place) + (it["grade"] is None)))
    for item in items:
        item["now"] = item["pid"] in set(now)
    done = bool(finished(ov).iloc[index])
    return {
        "qid": qid,
        "pool_version": catalog.pool_version(db),
        "rel_threshold": int(settings["rel_threshold"]),
        "index": index + 1,
        "n_questions": int(len(ov)),
        "question": {"text": q.text, "type": q.qtype, "criteria": q.criteria},
        "items": items,
        "no_answer": no_answer,
        "verdict_note": verdict_note or "",
        "verdict_eid": int(verdict_eid or 0),
        "progress": {
            "judged": int(ov.judged.sum()),
            "total": int(ov.pool_size.sum()),
            "q_judged": int(q.judged),
            "q_total": int(q.pool_size),
            "questions_done": int(finished(ov).sum()),
            # under the judging plan: what is still to judge now, in this question and in
            # the annotator's unfinished questions (the counters speak the plan, issue 35.3)
            "q_open": max(int(q.open_now), 0),
            "open_all": int(ov.open_now[~finished(ov)].clip(lower=0).sum()),
        },
        "unfinished_before": unfinished_before(ov, qid),
        "plan": {
            "name": chosen.name,
            "rest": chosen.rest,
            "k": chosen.k,
            "systems": int(q.systems),
            "settled": int(q.systems) - int(q.unsettled),
            "open_now": int(q.open_now),
            "done": done,
            # changes whenever the items to judge now change: the widget rebuilds its cards
            "now_key": "|".join(now) if chosen.name != "complete" else "",
            # what each grade does next (plan.after_grade): the widget moves on at once
            "then": then,
        },
    }


def bounded_text(value, what: str) -> str | None:
    """A note or evidence sentence; refused (never cut short) beyond MAX_NOTE characters,
    and refused when it is not a storable string (reljudge.campaign.event_fields)."""
    return fields.text({what: value}, what, MAX_NOTE)


def _event_row(raw: dict, qid_default: str | None) -> dict:
    """The row of one paragraph event, every field checked (reljudge.campaign.event_fields) before
    any transaction: a bad field is this event's own refusal."""
    row = fields.common(raw)
    kind = fields.kind(raw, ("grade", "verdict"), "grade")
    qid = fields.key(raw, "qid", qid_default)
    note = fields.text(raw, "note", MAX_NOTE)
    row.update(qid=qid, note=note)
    if kind == "verdict":
        return {
            **row,
            "pid": None,
            "grade": None,
            "no_answer": fields.boolean(raw, "no_answer", required=True),
            "evidence": None,
        }
    grade = fields.grade(raw)
    evidence = fields.text(raw, "evidence", MAX_NOTE) if grade == TOP_GRADE else None
    return {**row, "pid": fields.key(raw, "pid"), "grade": grade, "no_answer": None, "evidence": evidence}


STALE_REASON = "changed in another browser after this edit was made; the newer judgment is kept"
STALE = store.STALE
# Why an event was refused: a code (translated by the pages, i18n "rejected_<code>") and
# the English sentence that scripts and the CLI see.
REJECTION_CODES = (
    "stale",
    "not_pooled",
    "not_assigned",
    "adjudicate_instead",
    "unknown_question",
    "held_back",
    "malformed",
)


def rejection_text(code: str, detail: str | None, qid: str | None = None, username: str | None = None) -> str:
    return {
        "stale": STALE_REASON,
        "not_pooled": f"paragraph {detail!r} is not in the pool of question {qid!r}",
        "not_assigned": f"question {qid!r} is not assigned to {username!r}",
        "adjudicate_instead": f"question {qid!r} is assigned to annotators: a lead's grade there is an "
        "adjudication (reljudge adjudicate, or the Adjudicate page), not an extra annotator's",
        "unknown_question": f"unknown question {qid!r}",
        "held_back": "not stored: another event of the same save was refused",
    }.get(code, detail or code)


class StaleEvents(ReljudgeError):
    """Some events were older than a judgment stored from another browser; the rest were stored."""

    def __init__(self, stored: list[str], stale: list[str], eids: dict[str, int] | None = None):
        self.stored, self.stale, self.eids = stored, stale, eids or {}
        super().__init__(f"{len(stale)} judgment(s) {STALE_REASON}")


def _store(db: Database, username: str, rows: list[dict], all_or_nothing: bool):
    """Store through the database's group commit (saves arriving together share one
    transaction: reljudge.campaign.group_commit)."""
    if not rows:
        return {}, {}
    return group_commit.for_database(db, store.append_event_batches).submit(db, username, rows, all_or_nothing)


def record(db: Database, username: str, events: list[dict], qid: str | None = None) -> list[str]:
    """Store events (append-only, idempotent on their ids) all or nothing; returns the
    acknowledged ids. A refused event raises ReljudgeError and nothing is stored; edits
    refused as stale (StaleEvents) leave the others of the batch stored."""
    rows = [_event_row(e, qid) for e in events]
    stored, refused = _store(db, username, rows, True)
    problems = {cid: r for cid, r in refused.items() if r[0] not in (STALE, "held_back")}
    if problems:
        cid, (code, detail) = next(iter(problems.items()))
        row = next(r for r in rows if r["client_event_id"] == cid)
        raise ReljudgeError(rejection_text(code, detail, row["qid"], username))
    stale = [cid for cid, r in refused.items() if r[0] == STALE]
    if stale:
        raise StaleEvents(list(stored), stale, stored)
    return list(stored)


def record_each(db: Database, username: str, events: list[dict], with_ids: bool = False, codes: bool = False):
    """Like :func:`record`, but one bad event (a paragraph no longer pooled, a question
    taken away, a malformed event) cannot block the others: returns (acknowledged ids,
    {refused id: reason}), and with ``with_ids`` also {acknowledged id: stored event id}.
    With ``codes`` the reasons are codes (REJECTION_CODES) for the pages to translate."""
    rows, refused = [], {}
    for event in events:
        try:
            rows.append(_event_row(event, None))
        except ReljudgeError as exc:
            refused[fields.reply_key(event)] = ("malformed", str(exc), None)
    stored, problems = _store(db, username, rows, False)
    qid_of = {r["client_event_id"]: r["qid"] for r in rows}
    refused.update({cid: (code, detail, qid_of.get(cid)) for cid, (code, detail) in problems.items()})
    reasons = {
        cid: code if codes else rejection_text(code, detail, qid, username)
        for cid, (code, detail, qid) in refused.items()
    }
    return (list(stored), reasons, stored) if with_ids else (list(stored), reasons)


def grade(
    db: Database,
    username: str,
    qid: str,
    pid: str,
    grade: int | None,
    note: str | None = None,
    evidence: str | None = None,
    ms: int | None = None,
) -> str:
    """Convenience for scripts and tests: one grade event; returns its id."""
    cid = str(uuid.uuid4())
    record(
        db,
        username,
        [
            {
                "id": cid,
                "kind": "grade",
                "qid": qid,
                "pid": pid,
                "grade": grade,
                "note": note,
                "evidence": evidence,
                "ms": ms,
            }
        ],
    )
    return cid


def mark_no_answer(db: Database, username: str, qid: str, no_answer: bool = True, note: str | None = None) -> str:
    cid = str(uuid.uuid4())
    record(db, username, [{"id": cid, "kind": "verdict", "qid": qid, "no_answer": no_answer, "note": note}])
    return cid


def history(db: Database, qid: str, pid: str | None = None) -> pd.DataFrame:
    """Every event on a paragraph, or on the question verdict (pid None or VERDICT)."""
    return store.event_history(db, qid, pid or None)


event_counts = store.event_counts
last_judged_question = store.last_judged_question


VERDICT = ""  # the audit choice for a question's no-answer verdict (paragraph ids are never empty)


def audit_choices(db: Database, qid: str, lang: str = "ko") -> tuple[dict, int]:
    """Labels of a question's audit choices (VERDICT: the no-answer verdict, then each
    pooled paragraph) with their event counts, and the index of the first choice
    that has any history, so the audit page does not open on an empty table."""
    counts = {VERDICT if p is None else p: n for p, n in event_counts(db, qid).items()}
    paragraphs = store.pool_paragraphs(db, qid)
    labels = {VERDICT: i18n.t("no_answer", lang)}
    labels.update({p: f"{p} · {text[:80]}" for p, text in zip(paragraphs.pid, paragraphs.text)})
    labels = {p: f"{label} ({i18n.t('n_events', lang, n=counts.get(p, 0))})" for p, label in labels.items()}
    start = next((i for i, p in enumerate(labels) if counts.get(p)), 0)
    return labels, start


progress_by_annotator = store.progress_by_annotator
all_questions = store.all_questions
pool_paragraphs = store.pool_paragraphs


class _LazyCounts:
    """An annotator's queue whose plan counts are read only for the questions asked about,
    a few dozen at a time in campaign order: under rr-first the count is a walk of every
    system's ranking, and for the whole queue that walk is most of what ``reljudge next``
    would cost (bench/bench_next.py), while a limited answer reaches a few questions. The
    same query gives those questions' items to judge now (:meth:`now_items`).

    A question without ungraded items has nothing to judge now under any plan, so
    :func:`_ungraded` settles it without the walk; ``exact``: read every count at once
    (the complete plan's are in the same query; an unlimited answer needs them all)."""

    AHEAD = 32  # questions read per query: enough for a --limit of a few dozen items

    def __init__(self, db: Database, username: str, exact: bool):
        self.db, self.username = db, username
        self.decoys = store.decoy_counts(db, username)
        self.base = queue(db, username) if exact else _add_decoys(_ungraded(db, username, False), self.decoys)
        self.order = [e.qid for e in self.base]
        self._place = {qid: i for i, qid in enumerate(self.order)}
        self._known = {e.qid: e for e in self.base if exact or e.open_now <= 0}
        self._items: dict[str, list[str]] = {}

    def _entry(self, qid: str) -> QueueEntry:
        if qid not in self._known:
            i = self._place[qid]
            ahead = [q for q in self.order[i:] + self.order[:i] if q not in self._known][: self.AHEAD]
            rows = plan.overview(self.db, self.username, qids=ahead, items=True) or []
            self._known.update((e.qid, e) for e in _add_decoys([QueueEntry(*r[:-1]) for r in rows], self.decoys))
            self._items.update((r[0], list(r[-1])) for r in rows)
            if qid not in self._known:  # the plan changed under us: read it the plain way
                self._known.update((e.qid, e) for e in queue(self.db, self.username, qids=ahead))
        return self._known[qid]

    def done(self, qid: str) -> bool:
        e = self._entry(qid)
        return bool(is_finished(e.pool_size, e.open_now, e.no_answer))

    def open_now(self, qid: str) -> int:
        return int(self._entry(qid).open_now)

    def place(self, qid: str) -> int:
        """The 0-based place of ``qid`` in the queue."""
        return self._place[qid]

    def now_items(self, qids: list[str]) -> dict[str, list[str]]:
        """{qid: the items to judge now, in the page's order}, decoys merged in: from the
        reads above where they gave them, else from plan.now_items."""
        missing = [q for q in qids if q not in self._items]
        found = {**self._items, **(plan.now_items(self.db, self.username, missing) if missing else {})}
        lists = {q: found[q] for q in qids}
        return _with_decoys(self.db, self.username, lists) if self.decoys else lists


def next_items(db: Database, username: str, limit: int | None = None) -> list[dict]:
    """What ``username`` would be shown next under the campaign's judging plan
    (reljudge.campaign.plan), in the page's order — ``reljudge next`` prints it: their current question
    (or, when it is done, the next unfinished one, as the page moves on), then the
    following unfinished questions of their queue in campaign order (wrapping around);
    within a question the items to judge now. Never a system, rank or score.

    Each item: qid, pid, question_index (1-based place in the queue), position (1-based
    place among the question's items to judge now). Reads only: the remembered place in
    the queue is not changed."""
    from reljudge.campaign import auth

    auth.require_member(db, username)
    counts = _LazyCounts(db, username, exact=plan.current(db).name == "complete" or limit is None)
    qids = counts.order
    if not qids:
        return []
    here = QUEUE.get_position(db, username)
    if here in qids and not counts.done(here):
        start = here
    else:
        steps = ((e.qid, e.seq, e.judged) for e in counts.base)
        start = _next_open(steps, counts.done, here if here in qids else None)
        if start is None:
            return []
    i = counts.place(start)
    # the following unfinished questions, wrapping around; only as many as the answer reaches
    wanted, total = [], 0
    for qid in qids[i:] + qids[:i]:
        if limit is not None and total >= limit:
            break
        if not counts.done(qid) and counts.open_now(qid) > 0:
            wanted.append(qid)
            total += counts.open_now(qid)
    lists = counts.now_items(wanted)
    out: list[dict] = []
    for qid in wanted:
        index = counts.place(qid) + 1
        for n, pid in enumerate(lists[qid], 1):
            out.append({"qid": qid, "pid": pid, "question_index": index, "position": n})
            if limit is not None and len(out) >= limit:
                return out
    return out
