"""Disagreements, adjudication, aggregation into one qrels, and frozen qrels versions.

Aggregation policy (docs/policies.md#정책--policies; printed in every export and report): the lead's
adjudicated grade if any; else the majority grade of the annotators; on a tie, the
lower of the tied grades (a paragraph counts as citable only when most judges say
so). Each row carries its provenance: unanimous, majority, adjudicated, single
(one annotator) or tie.
"""

from __future__ import annotations

import pandas as pd

from reljudge.policy import Policy
from reljudge.storage import quality as quality_store
from reljudge.codes import Codes, Message
from reljudge.errors import ReljudgeError
from reljudge.grades import is_grade
from reljudge.storage import team
from reljudge.storage.db import Database

CODES = Codes(
    grade0=(),
    grade1=(),
    grade2=(),
    ruling_no_answer=(),
    ruling_has_answer=(),
    question_verdict=(),
    error_grade=("grade",),
    error_reason_needed=(),
    error_freeze_source=(),
    error_nothing_to_freeze=(),
)
"""The words in the queue and history tables: rulings and the whole-question item."""

POLICY_TEXT = {
    "adjudicated": "adjudicated grade if any, else majority, else the lower tied grade",
    "majority": "majority grade, else the lower tied grade (adjudications ignored)",
}


def describe_policy(policy: str) -> str:
    """The policy in a sentence for the CLI and the bundle (English; pages: reljudge.policy.qrels_label)."""
    parsed = Policy.parse(policy)
    if parsed.kind == "source":
        return f"imported qrels source {parsed.name}"
    if parsed.kind == "annotator":
        return f"grades of annotator {parsed.name} only"
    text = POLICY_TEXT.get(parsed.kind, str(parsed))
    if parsed.excludes_flagged:
        text += "; annotators flagged by quality control left out"
    return text


def queue(db: Database, k: int = 10, threshold: int = 2) -> pd.DataFrame:
    """Open paragraph disagreements, most consequential first; grades and notes are
    listed without annotator names."""
    frame = team.paragraph_disagreements(db, k=k, threshold=threshold)
    # Shown to the lead as plain text, in a random but stable order (no names).
    frame["grades"] = frame["grades"].map(lambda g: " · ".join(str(int(x)) for x in g))
    frame["notes"] = frame["notes"].map(lambda n: [str(x) for x in n if x])
    frame["evidence"] = frame["evidence"].map(lambda n: [str(x) for x in n if x])
    frame["criteria"] = frame["criteria"].fillna("")
    return frame


def queue_labels(queue: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(qid, pid) -> 'q01 · p0012 · 0–2 ★' (★: decides a system's first citable rank)."""
    return {
        (r.qid, r.pid): f"{r.qid} · {r.pid} · {r.lo}–{r.hi}" + (" ★" if r.changes_first else "")
        for r in queue.itertuples()
    }


def queue_item(queue: pd.DataFrame, qid: str, pid: str):
    return queue[(queue.qid == qid) & (queue.pid == pid)].iloc[0]


def _verdict(no_answer) -> Message:
    return CODES("ruling_no_answer" if no_answer else "ruling_has_answer")


def verdict_queue(db: Database, threshold: int = 2) -> pd.DataFrame:
    """Questions whose "no answer" needs a lead's ruling: annotators disagree on it, or
    someone marked it while the aggregated grades hold a citable paragraph (``contested``;
    the dashboard warns of these, and they can have a single annotator); ``verdicts`` a
    tuple of messages (ruling_no_answer / ruling_has_answer), anonymous, in a stable
    random order."""
    frame = team.verdict_disagreements(db, team.contested_no_answer(db, "adjudicated", threshold))
    frame["verdicts"] = frame["verdicts"].map(lambda vs: tuple(_verdict(v) for v in vs))
    frame["notes"] = frame["notes"].map(lambda n: " · ".join(str(x) for x in n if x))
    return frame


def adjudicate(db: Database, lead: str, qid: str, pid: str, grade: int, reason: str) -> None:
    if not is_grade(grade):
        raise ReljudgeError(CODES("error_grade", grade=grade))
    if not (reason or "").strip():
        raise ReljudgeError(CODES("error_reason_needed"))
    team.insert_adjudication(db, lead, qid, pid, grade, None, reason.strip())


def adjudicate_verdict(db: Database, lead: str, qid: str, no_answer: bool, reason: str) -> None:
    if not (reason or "").strip():
        raise ReljudgeError(CODES("error_reason_needed"))
    team.insert_adjudication(db, lead, qid, None, None, bool(no_answer), reason.strip())


def qrels(db: Database, policy: str = "adjudicated", version: int | None = None) -> pd.DataFrame:
    """Aggregated qrels: qid, pid, grade, provenance, n_annotators (a ``+exclude-flagged``
    policy without the annotators flagged now)."""
    return team.aggregated_qrels(db, policy, version)


def verdicts(db: Database, policy: str = "adjudicated", threshold: int = 2, version: int | None = None) -> pd.DataFrame:
    return team.aggregated_verdicts(db, policy, threshold, version)


def freeze(db: Database, lead: str, policy: str = "adjudicated", note: str | None = None, threshold: int = 2) -> int:
    """Freeze the current aggregated judgments as the next numbered qrels version."""
    parsed = Policy.parse(policy)
    if parsed.kind == "source":
        raise ReljudgeError(CODES("error_freeze_source"))
    # who is left out is decided once, here, and the same list makes the rows and the record
    exclusions, thresholds = quality_store.flagged(db.cursor()) if parsed.excludes_flagged else ({}, None)
    left_out = tuple(sorted(exclusions))
    rows = team.aggregated_qrels(db, parsed, None, left_out)
    if rows.empty:
        raise ReljudgeError(CODES("error_nothing_to_freeze"))
    found = team.aggregated_verdicts(db, parsed, threshold, None, left_out)
    return team.freeze(db, lead, str(parsed), note, rows, found, exclusions, thresholds)


version_exclusions = team.version_exclusions


versions = team.list_versions
history = team.adjudication_history


def history_table(db: Database, qid: str | None = None) -> pd.DataFrame:
    """The lead's rulings for people: when, who, on what, the ruling (a message:
    grade0/1/2, ruling_no_answer / ruling_has_answer), the reason, and whether it is
    still in force (a later ruling on the same item replaces it; the old one stays on
    record). A ruling on the whole question has the message question_verdict as pid."""
    frame = history(db, qid)

    def ruling(row) -> Message:
        if pd.isna(row.pid):
            return _verdict(row.no_answer)
        return CODES(f"grade{int(row.grade)}")

    out = pd.DataFrame(
        {
            "created_at": frame.created_at,
            "lead": frame.lead,
            "qid": frame.qid,
            "pid": frame.pid.map(lambda p: CODES("question_verdict") if pd.isna(p) else p),
            "ruling": [ruling(r) for r in frame.itertuples()] if len(frame) else [],
            "reason": frame.reason,
            "in_force": frame.in_force.astype(bool),
        }
    )
    return out
