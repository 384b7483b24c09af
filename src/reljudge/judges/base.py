"""What every judge returns for one pair."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """The judgment of one (qid, pid): a grade, or an error (``kind``: unparsable,
    request, http; ``detail`` says what happened) with the model's raw answer if any."""

    qid: str
    pid: str
    grade: int | None = None
    kind: str | None = None
    detail: str | None = None
    answer: str | None = None

    @property
    def ok(self) -> bool:
        return self.grade is not None
