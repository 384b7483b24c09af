"""Review events (methodology §4: "답변의 해석 타당성과 인용 정확도는 사람 검수로 평가한다"):
checking and storing the review events a page posts, and why one was refused.

Decisions (each an append-only event; the latest per item counts; a null value clears):

=================  ===========================  ===========================================
kind               item                         value
=================  ===========================  ===========================================
``support``        (answer, sentence, cited     ``grade``: 2 full, 1 partial, 0 no support
                   paragraph)                   (TREC 2024 RAG support levels)
``needs_citation`` (answer, sentence)           ``needs_citation``: false = a greeting or a
                                                transition that needs no citation (default
                                                true: every sentence needs one)
``interpretation`` answer                       ``grade``: 2 valid, 1 partly, 0 invalid (해석 타당성)
``abstention``     answer                       ``appropriate``: the abstention (or, on a
                                                no-answer question, the answer) was appropriate
``note``           answer                       ``note``: free text
=================  ===========================  ===========================================
"""

from __future__ import annotations

import uuid

from reljudge import i18n
from reljudge.campaign import event_fields as fields
from reljudge.campaign import group_commit
from reljudge.codes import Codes, Message
from reljudge.errors import ReljudgeError
from reljudge.campaign.judging import MAX_NOTE
from reljudge.storage import answers as store
from reljudge.storage.db import Database

KINDS = ("support", "needs_citation", "interpretation", "abstention", "note")
REJECTION_CODES = (
    "stale",
    "unknown_answer",
    "superseded",
    "unknown_sentence",
    "not_cited",
    "not_assigned",
    "held_back",
    "malformed",
)


CODES = Codes(
    # why a review event was refused (the widget shows the short rejected_<code> texts)
    review_stale=(),
    review_unknown_answer=("answer",),
    review_superseded=("answer",),
    review_unknown_sentence=("answer", "sentence"),
    review_not_cited=("answer", "pid"),
    review_not_assigned=("answer", "user"),
    review_held_back=(),
    review_malformed=(),
    review_malformed_detail=("detail",),
)
"""Why a review event was refused: the codes :func:`rejection_message` returns."""


def rejection_message(code: str, detail, answer_id=None, username: str | None = None) -> Message:
    """Why an event was refused, as a message (code + parameters); ``detail`` is what
    the store said (the sentence, the paragraph) or, for ``malformed``, the error."""
    if code == "malformed":
        if isinstance(detail, Message):
            return detail
        return CODES("review_malformed_detail", detail=detail) if detail else CODES("review_malformed")
    params = {
        "unknown_answer": {"answer": answer_id},
        "superseded": {"answer": answer_id},
        "unknown_sentence": {"answer": answer_id, "sentence": detail},
        "not_cited": {"answer": answer_id, "pid": detail},
        "not_assigned": {"answer": answer_id, "user": username},
    }.get(code, {})
    return CODES(f"review_{code}", **params)


def rejection_text(code: str, detail, answer_id=None, username: str | None = None) -> str:
    """:func:`rejection_message` in English (scripts, logs)."""
    return i18n.message(rejection_message(code, detail, answer_id, username), "en")


# -- events ------------------------------------------------------------------------


def _event_row(raw: dict) -> dict:
    """The row of one review event, every field checked (reljudge.campaign.event_fields, the
    checks paragraph events share) before any transaction."""
    row = fields.common(raw)
    kind = fields.kind(raw, KINDS)
    row.update(
        answer_id=fields.integer(raw, "answer_id", 0, fields.BIGINT, required=True),
        kind=kind,
        sentence=None,
        pid=None,
        grade=None,
        flag=None,
        note=fields.text(raw, "note", MAX_NOTE),
    )
    if kind in ("support", "needs_citation"):
        row["sentence"] = fields.integer(raw, "sentence", 0, fields.INTEGER, required=True)
    if kind == "support":
        row["pid"] = fields.key(raw, "pid")
    if kind in ("support", "interpretation"):
        row["grade"] = fields.grade(raw)
    elif kind == "needs_citation":
        row["flag"] = fields.boolean(raw, "needs_citation")
    elif kind == "abstention":
        row["flag"] = fields.boolean(raw, "appropriate")
    return row


def _store(db: Database, username: str, rows: list[dict], all_or_nothing: bool):
    if not rows:
        return {}, {}
    return group_commit.for_database(db, store.append_review_batches).submit(db, username, rows, all_or_nothing)


def record_each(db: Database, username: str, events: list[dict], with_ids: bool = False, codes: bool = False):
    """Store review events (append-only, idempotent on their ids); one bad event cannot
    block the others. Returns (acknowledged ids, {refused id: reason}) and, with
    ``with_ids``, {acknowledged id: stored event id}; with ``codes`` the reasons are
    codes (REJECTION_CODES) — the shape and codes of :func:`reljudge.campaign.judging.record_each`.

    Event fields: ``id`` (client event id, idempotency key), ``kind`` (KINDS),
    ``answer_id``, ``sentence`` (support, needs_citation), ``pid`` (support), ``grade``
    (support, interpretation: 0/1/2 or null), ``needs_citation`` (bool or null),
    ``appropriate`` (abstention: bool or null), ``note`` (any kind; the answer's note is
    kind ``note``), ``ms`` (time spent), ``client`` (browser id), ``base`` (event id of
    the state the edit was made on)."""
    rows, refused = [], {}
    for event in events:
        try:
            rows.append(_event_row(event))
        except ReljudgeError as exc:
            refused[fields.reply_key(event)] = ("malformed", exc.message or str(exc), None)
    stored, problems = _store(db, username, rows, False)
    answer_of = {r["client_event_id"]: r["answer_id"] for r in rows}
    refused.update({cid: (code, detail, answer_of.get(cid)) for cid, (code, detail) in problems.items()})
    reasons = {
        cid: code if codes else rejection_text(code, detail, a, username) for cid, (code, detail, a) in refused.items()
    }
    return (list(stored), reasons, stored) if with_ids else (list(stored), reasons)


def record(db: Database, username: str, events: list[dict]) -> list[str]:
    """All or nothing: a refused event raises ReljudgeError naming why; returns the ids."""
    rows = [_event_row(e) for e in events]
    stored, refused = _store(db, username, rows, True)
    problems = {cid: r for cid, r in refused.items() if r[0] != "held_back"}
    if problems:
        cid, (code, detail) = next(iter(problems.items()))
        row = next(r for r in rows if r["client_event_id"] == cid)
        raise ReljudgeError(rejection_message(code, detail, row["answer_id"], username))
    return list(stored)


def review(db: Database, username: str, answer_id: int, kind: str, **fields) -> str:
    """Convenience for scripts and tests: one review event; returns its id."""
    cid = str(uuid.uuid4())
    record(db, username, [{"id": cid, "kind": kind, "answer_id": answer_id, **fields}])
    return cid


history = store.event_history
