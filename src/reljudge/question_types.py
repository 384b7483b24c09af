"""The question types a campaign declares, and the methodology's default four.

A question's type groups it in every per-type table (metrics, progress, assignments by
type, the report), so a type written two ways (``사실확인`` beside ``사실 확인``, or
``fact``) would split a group silently. A campaign therefore declares its types: a
questions import whose type is not declared is refused, naming the file, the line, the
type and the declared list (``reljudge.storage.catalog.import_questions``), until a lead
declares it (``reljudge types add``, the Import page: :func:`reljudge.campaign.setup.declare_types`).

What is declared: :data:`DEFAULT_TYPES`, minus those the lead withdrew, plus those the
lead added (table ``question_types``, migration 13: one row per type the lead changed,
``declared`` TRUE or FALSE; an upgraded database got a TRUE row for every type its
questions already used, so nothing imported before is refused or lost). A question
without a type stays allowed: it is stored as '' and the import says that it lacks one.

No database and no Streamlit here (the storage layer and the migrations import it).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

DEFAULT_TYPES: tuple[str, ...] = ("사실 확인", "개념 관계", "시대 변화", "전역 주제")
"""The methodology's four question types (fact checking, concept relations, change over
time, corpus-wide themes): declared in every campaign unless its lead withdraws one.
The one definition: the demo data, the tests and the benchmarks use these names."""

MAX_LENGTH = 100
"""The longest type name a lead may declare (characters)."""

_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def effective(rows: Iterable[tuple[str, bool]]) -> list[str]:
    """The declared types, in order: the defaults the lead has not withdrawn, then the
    types the lead added, as added. ``rows``: (name, declared) of table
    ``question_types`` in the order they were written."""
    rows = list(rows)
    withdrawn = {name for name, declared in rows if not declared}
    out = [name for name in DEFAULT_TYPES if name not in withdrawn]
    out += [name for name, declared in rows if declared and name not in out]
    return out


def _key(name: str) -> str:
    """What two spellings of one type share: NFKC, case-folded, without spaces and
    punctuation (``사실확인``, ``사실 확인`` and ``사실  확인`` give the same key)."""
    return _NON_WORD.sub("", unicodedata.normalize("NFKC", name).casefold())


def near(name: str, declared: Iterable[str]) -> str | None:
    """The declared type that ``name`` differs from only in spacing, case, punctuation
    or Unicode form, if any (the hint of a refusal: "did you mean …?")."""
    key = _key(name)
    if not key:
        return None
    return next((d for d in declared if d != name and _key(d) == key), None)
