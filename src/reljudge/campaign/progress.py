"""Progress of each annotator through the work assigned to them.

A question counts as finished by the one rule of :func:`reljudge.campaign.judging.is_finished` (nothing
left to judge under the campaign's judging plan, reljudge.campaign.plan: under complete every pooled
paragraph graded; a question with an empty pool: its no-answer verdict given), and
the shares are over the annotator's own queue — their assigned questions — not over the
whole pool of a question type.
"""

from __future__ import annotations

import pandas as pd

from reljudge.campaign import judging
from reljudge.campaign import plan
from reljudge.storage import judgments as store
from reljudge.storage.db import Database

COLUMNS = [
    "username",
    "qtype",
    "questions",
    "finished",
    "judged",
    "pool_size",
    "percent",
    "median_seconds",
    "no_answer",
]


def by_annotator(db: Database) -> pd.DataFrame:
    """Per annotator and question type of their queue: assigned ``questions``, how many
    are ``finished``, graded pooled paragraphs (``judged``) of the assigned questions'
    ``pool_size``, ``percent`` = judged / pool size (a type whose assigned questions have
    empty pools: the share of finished questions; under the rr-first judging plan, which
    does not ask for the whole pool, the share of finished questions), median seconds per judgment and
    no-answer verdicts. Types with nothing assigned to an annotator have no row."""
    rows = store.progress_by_annotator(db)
    if rows.empty:
        return pd.DataFrame(columns=COLUMNS)
    rows = rows.assign(open_now=plan.open_now_for(db, rows))
    rows = rows.assign(finished=judging.finished(rows))
    out = (
        rows.groupby(["username", "qtype"], sort=False)
        .agg(
            questions=("qid", "size"),
            finished=("finished", "sum"),
            judged=("judged", "sum"),
            pool_size=("pool_size", "sum"),
            median_seconds=("median_seconds", "first"),
            no_answer=("no_answer", "sum"),
        )
        .reset_index()
    )
    if plan.current(db).name == "complete":
        share = out.judged.where(out.pool_size > 0, out.finished) / out.pool_size.where(
            out.pool_size > 0, out.questions
        )
    else:
        # rr-first does not ask for the whole pool: the share of questions done by the plan
        share = out.finished / out.questions
    out["percent"] = (100.0 * share).round(1)
    return out[COLUMNS].astype({"questions": int, "finished": int, "judged": int, "pool_size": int, "no_answer": int})


def finished_questions(db: Database) -> set[str]:
    """The questions some annotator has finished under the campaign's judging plan
    (:func:`reljudge.campaign.judging.is_finished`, the one predicate of done): every
    paragraph the plan asks of them is judged. The dashboard asks no question to be marked
    "no answer" before (reljudge.reporting.dashboard.nothing_citable)."""
    rows = store.progress_by_annotator(db)
    if rows.empty:
        return set()
    rows = rows.assign(open_now=plan.open_now_for(db, rows))
    return {str(q) for q in rows.qid[judging.finished(rows).astype(bool)]}
