"""What a reviewer works through: their review queue (every question while the lead has
made no review assignment, :func:`reljudge.review.assignment.assign_reviews`, else their
assigned questions; a lead without review assignments sees everything), moving in it,
and everything the review page shows for one answer."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reljudge.campaign.judging import source_line
from reljudge.campaign.queue_position import WorkQueue
from reljudge.errors import ReljudgeError
from reljudge.review.events import CODES
from reljudge.storage import answers as store
from reljudge.storage.db import Database


# -- queue and navigation --------------------------------------------------------------


def finished(queue: pd.DataFrame) -> pd.Series:
    """Per answer of a queue: reviewed completely by this reviewer. An abstaining answer
    needs the abstention judgment; any other answer a support grade for every
    (sentence, cited paragraph), its interpretation, and on a no-answer-expected
    question also whether answering was appropriate."""
    answered = (
        (queue.n_supported >= queue.n_pairs) & queue.interpreted & (~queue.no_answer_expected | queue.abstention_given)
    )
    return (queue.abstained & queue.abstention_given) | (~queue.abstained & answered)


def review_queue(db: Database, username: str) -> pd.DataFrame:
    """The reviewer's answers in order (see storage.answers.review_queue) with ``done``."""
    q = store.review_queue(db, username)
    q["done"] = finished(q) if len(q) else pd.Series(dtype=bool)
    return q


def _next_open(q: pd.DataFrame, after: int | None = None) -> int | None:
    open_ = q[~q.done & (q.answer_id != after)]
    if open_.empty:
        return None
    ids = list(q.answer_id)
    if after in ids:
        later = open_[open_.index > ids.index(after)]
        if not later.empty:
            return int(later.iloc[0].answer_id)
    return int(open_.iloc[0].answer_id)


QUEUE = WorkQueue(
    review_queue,
    "answer_id",
    lambda q, after=None: _next_open(q, after),
    store.get_position,
    store.set_position,
    lambda answer_id, user: ReljudgeError(CODES("review_not_assigned", answer=answer_id, user=user)),
    int,
)
"""The review queue's position and moves: the rule of the judging queue (reljudge.campaign.queue_position)."""


def current_answer(db: Database, username: str) -> int | None:
    """Where the reviewer left off; else their first unfinished answer (remembered)."""
    return QUEUE.current(db, username)


def go_to(db: Database, username: str, answer_id: int) -> None:
    QUEUE.go_to(db, username, answer_id)


def step(db: Database, username: str, delta: int, only_open: bool = False) -> int | None:
    """Move ``delta`` answers forward/back, or (``only_open``) to the next unfinished one."""
    return QUEUE.step(db, username, delta, only_open)


# -- the page's data -------------------------------------------------------------------


def _none(x):
    return None if x is None or (isinstance(x, float) and np.isnan(x)) or x is pd.NA else x


def payload(db: Database, username: str, answer_id: int, lang: str = "ko") -> dict:
    """Everything the review page shows for one answer, blind (no system name, version
    or rank): the question and its criteria, the answer sentence by sentence, each with
    its cited paragraphs (full text, source line, the current aggregated relevance grade
    when judged) and this reviewer's decisions with their event ids (``eid``: the
    ``base`` of the next edit)."""
    q = review_queue(db, username)
    row = q[q.answer_id == answer_id]
    if row.empty:
        raise ReljudgeError(CODES("review_not_assigned", answer=answer_id, user=username))
    r = row.iloc[0]
    head, sentences, citations = store.answer_view(db, answer_id)
    mine = {
        (m.kind, _none(m.sentence), _none(m.pid)): m for m in store.my_reviews(db, username, answer_id).itertuples()
    }

    def decision(kind, sentence=None, pid=None, field="grade"):
        m = mine.get((kind, sentence, pid))
        if m is None:
            return None, 0
        value = _none(getattr(m, field))
        if value is not None:
            value = bool(value) if field == "flag" else (str(value) if field == "note" else int(value))
        return value, int(m.event_id)

    relevance = store.relevance_grades(db, head[1], list(citations.pid.unique()))
    out_sentences = []
    for s in sentences.itertuples():
        cites = citations[citations.idx == s.idx]
        needs, needs_eid = decision("needs_citation", int(s.idx), None, "flag")
        items = []
        for c in cites.itertuples():
            grade, eid = decision("support", int(s.idx), c.pid)
            items.append(
                {
                    "pid": c.pid,
                    "text": c.text,
                    "source": source_line(c.title, c.date, c.volume, c.page, lang),
                    "relevance": relevance.get(c.pid),
                    "support": grade,
                    "eid": eid,
                }
            )
        out_sentences.append(
            {
                "index": int(s.idx),
                "text": s.text,
                "needs_citation": needs,
                "needs_citation_eid": needs_eid,
                "citations": items,
            }
        )
    interpretation, interpretation_eid = decision("interpretation")
    appropriate, abstention_eid = decision("abstention", field="flag")
    note, note_eid = decision("note", field="note")
    same_q = q[q.qid == r.qid]
    done = q.done
    ids = list(q.answer_id)
    return {
        "answer_id": int(answer_id),
        "qid": r.qid,
        "index": ids.index(answer_id) + 1,
        "n_answers": len(ids),
        "in_question": {"index": list(same_q.answer_id).index(answer_id) + 1, "n": int(len(same_q))},
        "question": {"text": head[2], "type": head[3], "criteria": head[4], "no_answer_expected": bool(head[5])},
        "abstained": bool(head[6]),
        "ask_abstention": bool(head[6] or head[5]),
        "sentences": out_sentences,
        "interpretation": interpretation,
        "interpretation_eid": interpretation_eid,
        "abstention_appropriate": appropriate,
        "abstention_eid": abstention_eid,
        "note": note or "",
        "note_eid": note_eid,
        "done": bool(r.done),
        "progress": {
            "answers_done": int(done.sum()),
            "n_answers": len(ids),
            "pairs_done": int(q.n_supported.clip(upper=q.n_pairs).sum()),
            "n_pairs": int(q.n_pairs.sum()),
        },
        "unfinished_before": int((~done.iloc[: ids.index(answer_id)]).sum()),
    }
