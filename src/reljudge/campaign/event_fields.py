"""The fields of a browser event, checked one way for every kind of event.

Paragraph judgments (:mod:`reljudge.campaign.judging`) and answer reviews (:mod:`reljudge.review.events`)
arrive on the same route from the same outbox, and both parsers build their rows from
these checks, before any transaction is opened. What a check refuses is refused as the
event's own problem (``malformed``, with a message naming the field), never as a failure
of the transaction that stores other people's saves with it:

* ids and keys (``id``, ``qid``, ``pid``, ``client``) are strings of bounded length;
* integers (``answer_id``, ``sentence``, ``base``, ``ms``) are JSON integers — not
  ``true``, not ``2.0``, not ``"5"``, not ``1e30`` — inside the range of their column;
* booleans (``no_answer``, ``needs_citation``, ``appropriate``) are JSON booleans, so
  ``"false"`` is refused rather than read as true;
* grades are the integers 0, 1 and 2 (or null);
* texts (notes, evidence) are strings of at most :data:`MAX_TEXT` characters without a
  lone surrogate (it cannot be written as UTF-8) or a NUL character (PostgreSQL refuses it).

Nothing here touches the database, and no check formats an arbitrary value (a deeply
nested list in a field is named by its type, never printed).
"""

from __future__ import annotations

import uuid
from numbers import Integral

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.grades import is_grade

MAX_ID = 100  # client event ids and browser ids
MAX_KEY = 1000  # question and paragraph ids named by an event
MAX_TEXT = 2000  # a note or an evidence sentence
MAX_TIME_MS = 24 * 3600 * 1000
BIGINT = 2**63 - 1  # the largest stored event / answer id
INTEGER = 2**31 - 1  # the largest sentence index

CODES = Codes(
    event_error_id=(),
    event_error_missing=("field",),
    event_error_text=("field",),
    event_error_too_long=("field", "limit"),
    event_error_characters=("field",),
    event_error_integer=("field",),
    event_error_range=("field",),
    event_error_boolean=("field",),
    event_error_grade=("value",),
    event_error_kind=("value",),
)
"""Why a field of an event is refused (worded in reljudge.i18n)."""


def shown(value) -> str:
    """A short, safe rendering of a refused value for a message: scalars as they are
    (cut), anything else by its type only."""
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)[:40]
    if isinstance(value, str):
        return repr(clean_or_none(value) or "…")[:40]
    return type(value).__name__


def clean_or_none(text: str) -> str | None:
    """``text`` if it can be stored (UTF-8, no NUL), else None."""
    if "\x00" in text:
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return text


def _string(value, field: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ReljudgeError(CODES("event_error_text", field=field))
    if len(value) > limit:
        raise ReljudgeError(CODES("event_error_too_long", field=field, limit=limit))
    if clean_or_none(value) is None:
        raise ReljudgeError(CODES("event_error_characters", field=field))
    return value


def event_id(raw: dict) -> str:
    """The client event id (the idempotency key); a new one when the event has none."""
    value = raw.get("id")
    if value is None or value == "":
        return str(uuid.uuid4())
    if isinstance(value, Integral) and not isinstance(value, bool):
        value = str(int(value))
    if not isinstance(value, str) or len(value) > MAX_ID or clean_or_none(value) is None:
        raise ReljudgeError(CODES("event_error_id"))
    return value


def reply_key(raw) -> str:
    """The id under which a refused event is answered: its own id when that can be sent
    back as it is, else ``"?"``."""
    if isinstance(raw, dict):
        try:
            return event_id(raw) if raw.get("id") not in (None, "") else "?"
        except ReljudgeError:
            return "?"
    return "?"


def key(raw: dict, field: str, default: str | None = None) -> str:
    """A required id of something the event names (question, paragraph)."""
    value = raw.get(field)
    if value is None or value == "":
        value = default
    if value is None or value == "":
        raise ReljudgeError(CODES("event_error_missing", field=field))
    return _string(value, field, MAX_KEY)


def text(raw: dict, field: str, limit: int = MAX_TEXT) -> str | None:
    """An optional text (note, evidence): refused, never cut short, beyond ``limit``."""
    value = raw.get(field)
    if value is None or value == "":
        return None
    return _string(value, field, limit)


def integer(raw: dict, field: str, lo: int, hi: int, *, required: bool = False, clamp: bool = False) -> int | None:
    """A JSON integer in [lo, hi]; ``clamp`` brings one outside the range to its edge
    instead of refusing it (a time spent). None when absent and not ``required``."""
    value = raw.get(field)
    if value is None:
        if required:
            raise ReljudgeError(CODES("event_error_missing", field=field))
        return None
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ReljudgeError(CODES("event_error_integer", field=field))
    number = int(value)
    if not lo <= number <= hi:
        if not clamp:
            raise ReljudgeError(CODES("event_error_range", field=field))
        number = min(max(number, lo), hi)
    return number


def boolean(raw: dict, field: str, *, required: bool = False) -> bool | None:
    """A JSON boolean (``"false"`` or 0 is refused, not read as true or false)."""
    value = raw.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, bool):
        raise ReljudgeError(CODES("event_error_boolean", field=field))
    return value


def grade(raw: dict, field: str = "grade") -> int | None:
    """0, 1 or 2 as a JSON integer, or null (clears)."""
    value = raw.get(field)
    if value is None:
        return None
    if not is_grade(value):
        raise ReljudgeError(CODES("event_error_grade", value=shown(value)))
    return int(value)


def kind(raw: dict, kinds: tuple[str, ...], default: str | None = None) -> str:
    value = raw.get("kind", default)
    if not isinstance(value, str) or value not in kinds:
        raise ReljudgeError(CODES("event_error_kind", value=shown(value)))
    return value


def common(raw) -> dict:
    """The fields every event shares: ``client_event_id``, ``time_spent_ms`` (clamped to
    a day: a tab left open overnight still saves), ``client_id``, ``base_event_id``."""
    if not isinstance(raw, dict):
        raise ReljudgeError(CODES("event_error_missing", field="event"))
    client = raw.get("client")
    return {
        "client_event_id": event_id(raw),
        "time_spent_ms": integer(raw, "ms", 0, MAX_TIME_MS, clamp=True),
        "client_id": None if client in (None, "") else _string(client, "client", MAX_ID),
        "base_event_id": integer(raw, "base", 0, BIGINT),
    }
