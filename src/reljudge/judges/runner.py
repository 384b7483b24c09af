"""The resumable run of a model judge over the pool, storing its grades as a named source.

A run grades every pooled pair the source has not graded yet (pairs with a recorded
error included) and writes results in small transactions as they come, so a run that is
killed keeps what it wrote and a rerun continues where it stopped, never grading a pair
twice. A pair the judge cannot grade is recorded (``judge_errors``) instead of ending the
run. The model, its version, the prompt (text and SHA-256), the settings and the time are
recorded with the source (``judge_sources``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from reljudge.campaign import adjudication
from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.judges import prompt
from reljudge.storage import judge_sources as store
from reljudge.storage.db import Database

CODES = Codes(
    judge_error_imported_source=("source",),
    judge_error_other_judge=("source", "kind", "model"),
    judge_error_other_prompt=("source", "recorded", "current"),
    judge_probe_none_parsed=("max_tokens",),
    judge_errors_no_source=("source",),
    judge_error_source_name=("source",),
)

#: results are written in one transaction once this many are waiting, or this many seconds
#: after the last write (a killed run loses at most what was not written yet)
FLUSH_EVERY = 16
FLUSH_SECONDS = 1.0


@dataclass
class RunSummary:
    source: str
    pending: int
    graded: int
    errors: int
    total_graded: int
    pooled: int


class JudgePlace:
    """Where a run reads the pairs and writes the grades: :class:`LocalPlace`, the
    database itself, or (a DuckDB file the running app holds) the app, through
    ``/api/v1/judge`` (reljudge.cli.served_judge.ServedPlace): the model then runs on the
    client's side, and only pairs and batches of grades travel (docs/served.md)."""

    def check_source(self, source: str, kind: str, model: str, prompt_sha256: str | None) -> None:
        raise NotImplementedError

    def pooled_pairs(self) -> pd.DataFrame:
        raise NotImplementedError

    def pending_pairs(self, source: str) -> pd.DataFrame:
        raise NotImplementedError

    def reference(self, policy: str) -> pd.DataFrame:
        raise NotImplementedError

    def record_source(self, *fields) -> None:
        raise NotImplementedError

    def store_results(self, source: str, grades: pd.DataFrame, errors: pd.DataFrame) -> None:
        raise NotImplementedError

    def graded_count(self, source: str) -> int:
        raise NotImplementedError


class LocalPlace(JudgePlace):
    """The run's database, opened by this process."""

    def __init__(self, db: Database):
        self.db = db

    def check_source(self, source, kind, model, prompt_sha256=None) -> None:
        _check_source(self.db, source, kind, model, prompt_sha256)

    def pooled_pairs(self):
        return store.pooled_pairs(self.db)

    def pending_pairs(self, source):
        return store.pending_pairs(self.db, source)

    def reference(self, policy):
        return adjudication.qrels(self.db, policy)

    def record_source(self, *fields) -> None:
        store.record_source(self.db, *fields)

    def store_results(self, source, grades, errors) -> None:
        store.store_results(self.db, source, grades, errors)

    def graded_count(self, source) -> int:
        return len(store.graded_keys(self.db, source))


def frame_to_json(frame: pd.DataFrame) -> dict:
    """A table of a run (pairs, grades, errors) as JSON: ``{"columns", "rows"}``, a missing
    value as null (what travels between a run and the app that holds its database)."""
    return {
        "columns": [str(c) for c in frame.columns],
        "rows": frame.astype(object).where(frame.notna(), None).values.tolist(),
    }


def frame_from_json(data) -> pd.DataFrame:
    """The table :func:`frame_to_json` wrote; ValueError when ``data`` is not one."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("columns"), list)
        or not isinstance(data.get("rows"), list)
    ):
        raise ValueError("a table must be {columns, rows}")
    return pd.DataFrame(data["rows"], columns=data["columns"])


def as_place(db) -> JudgePlace:
    """``db`` when it is a :class:`JudgePlace`, else the database as one."""
    return db if isinstance(db, JudgePlace) else LocalPlace(db)


def check_source(db, source: str, kind: str, model: str, prompt_sha256: str | None = None) -> None:
    """See :func:`_check_source`; ``db``: a Database or a :class:`JudgePlace`."""
    as_place(db).check_source(source, kind, model, prompt_sha256)


def _check_source(db: Database, source: str, kind: str, model: str, prompt_sha256: str | None = None) -> None:
    """A source name takes one judge: not an imported qrels source, not another model, and
    (``prompt_sha256`` given) not another prompt — a source whose pairs were graded under an
    earlier prompt (an older reljudge) is not continued under this one, so that one source's
    grades always come from the one prompt it records."""
    if not source or not source.strip() or ":" in source:
        raise ReljudgeError(CODES("judge_error_source_name", source=source))
    if store.is_imported_source(db, source):
        raise ReljudgeError(CODES("judge_error_imported_source", source=source))
    old = store.meta(db, source)
    if old is not None and (old["kind"], old["model"]) != (kind, model):
        raise ReljudgeError(CODES("judge_error_other_judge", source=source, kind=old["kind"], model=old["model"]))
    if (
        old is not None
        and prompt_sha256 is not None
        and old["prompt_sha256"] != prompt_sha256
        and len(store.graded_keys(db, source))
    ):
        raise ReljudgeError(
            CODES(
                "judge_error_other_prompt",
                source=source,
                recorded=old["prompt_sha256"][:12],
                current=prompt_sha256[:12],
            )
        )


def run(
    db: "Database | JudgePlace",
    source: str,
    judge,
    reference: str = "adjudicated",
    progress=None,
    limit: int | None = None,
) -> RunSummary:
    """Grade the pending pairs of ``source`` with ``judge`` (an E5Judge or EndpointJudge).
    ``progress(done, total, graded, errors)`` after each result; ``limit``: at most that
    many pairs."""
    place = as_place(db)
    place.check_source(source, judge.kind, judge.model, prompt.prompt_sha256(judge.prompt_text))
    pooled = place.pooled_pairs()
    pending = place.pending_pairs(source)
    if limit is not None:
        pending = pending.head(limit)
    human = place.reference(reference) if judge.kind == "e5" else None
    if judge.kind == "e5":
        judge.prepare(pooled, human, reference)
    text = judge.prompt_text
    place.record_source(
        source, judge.kind, judge.model, judge.model_version, text, prompt.prompt_sha256(text), judge.settings()
    )
    buffer: list = []
    counts = {"graded": 0, "errors": 0, "done": 0}
    last_write = [time.monotonic()]

    def flush():
        if not buffer:
            return
        grades = pd.DataFrame(
            [(o.qid, o.pid, o.grade) for o in buffer if o.ok], columns=["qid", "pid", "grade"]
        ).astype({"qid": str, "pid": str, "grade": "int64"})
        errors = pd.DataFrame(
            [(o.qid, o.pid, o.kind, o.detail or "", o.answer) for o in buffer if not o.ok],
            columns=["qid", "pid", "kind", "detail", "answer"],
        ).astype({"qid": str, "pid": str, "kind": str, "detail": str, "answer": object})
        place.store_results(source, grades, errors)
        buffer.clear()
        last_write[0] = time.monotonic()

    def on_result(outcome) -> None:
        buffer.append(outcome)
        counts["graded" if outcome.ok else "errors"] += 1
        counts["done"] += 1
        if len(buffer) >= FLUSH_EVERY or time.monotonic() - last_write[0] >= FLUSH_SECONDS:
            flush()
        if progress:
            progress(counts["done"], len(pending), counts["graded"], counts["errors"])

    if len(pending):
        try:
            judge.grade_many(pending, on_result)
        finally:
            flush()
    # The model version may be known only after the first answer (an endpoint's).
    place.record_source(
        source, judge.kind, judge.model, judge.model_version, text, prompt.prompt_sha256(text), judge.settings()
    )
    total = place.graded_count(source)
    return RunSummary(source, len(pending), counts["graded"], counts["errors"], total, len(pooled))


@dataclass
class ProbeResult:
    """What a probe found: ``outcomes`` of the ``asked`` pairs, in ``seconds`` in all."""

    source: str
    asked: int
    outcomes: list
    seconds: float

    @property
    def graded(self) -> int:
        return sum(1 for o in self.outcomes if o.ok)

    @property
    def errors(self) -> int:
        return len(self.outcomes) - self.graded

    @property
    def parse_rate(self) -> float | None:
        return self.graded / len(self.outcomes) if self.outcomes else None

    @property
    def seconds_per_pair(self) -> float | None:
        return self.seconds / len(self.outcomes) if self.outcomes else None


def probe(db: "Database | JudgePlace", source: str, judge, n: int, clock=time.monotonic) -> ProbeResult:
    """A pre-flight: grade ``n`` pooled pairs ``source`` has not graded yet and store
    nothing — no grade, no error, no record of the source (the database is only read).
    For an endpoint judge only (an e5 judge is calibrated on the people's grades first)."""
    place = as_place(db)
    place.check_source(source, judge.kind, judge.model, prompt.prompt_sha256(judge.prompt_text))
    pending = place.pending_pairs(source).head(max(0, int(n)))
    outcomes: list = []
    started = clock()
    if len(pending):
        judge.grade_many(pending, outcomes.append)
    return ProbeResult(source, len(pending), outcomes, clock() - started)


def recorded_errors(db: Database, source: str) -> pd.DataFrame:
    """The pairs model source ``source`` could not grade (qid, pid, kind, detail, answer,
    created_at); a name no model judge has recorded is an error naming it."""
    if store.meta(db, source) is None:
        raise ReljudgeError(CODES("judge_errors_no_source", source=source))
    return store.errors(db, source)
