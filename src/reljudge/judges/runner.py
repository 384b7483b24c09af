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


def check_source(db: Database, source: str, kind: str, model: str, prompt_sha256: str | None = None) -> None:
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
    db: Database,
    source: str,
    judge,
    reference: str = "adjudicated",
    progress=None,
    limit: int | None = None,
) -> RunSummary:
    """Grade the pending pairs of ``source`` with ``judge`` (an E5Judge or EndpointJudge).
    ``progress(done, total, graded, errors)`` after each result; ``limit``: at most that
    many pairs."""
    check_source(db, source, judge.kind, judge.model, prompt.prompt_sha256(judge.prompt_text))
    pooled = store.pooled_pairs(db)
    pending = store.pending_pairs(db, source)
    if limit is not None:
        pending = pending.head(limit)
    human = adjudication.qrels(db, reference) if judge.kind == "e5" else None
    if judge.kind == "e5":
        judge.prepare(pooled, human, reference)
    text = judge.prompt_text
    store.record_source(
        db, source, judge.kind, judge.model, judge.model_version, text, prompt.prompt_sha256(text), judge.settings()
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
        store.store_results(db, source, grades, errors)
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
    store.record_source(
        db, source, judge.kind, judge.model, judge.model_version, text, prompt.prompt_sha256(text), judge.settings()
    )
    total = len(store.graded_keys(db, source))
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


def probe(db: Database, source: str, judge, n: int, clock=time.monotonic) -> ProbeResult:
    """A pre-flight: grade ``n`` pooled pairs ``source`` has not graded yet and store
    nothing — no grade, no error, no record of the source (the database is only read).
    For an endpoint judge only (an e5 judge is calibrated on the people's grades first)."""
    check_source(db, source, judge.kind, judge.model, prompt.prompt_sha256(judge.prompt_text))
    pending = store.pending_pairs(db, source).head(max(0, int(n)))
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
