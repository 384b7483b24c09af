"""The team's agreement, read from the campaign: the database entry points of
:mod:`reljudge.agreement.coefficients` (which works on plain tables and knows no database)."""

from __future__ import annotations

import pandas as pd

from reljudge.agreement.coefficients import (
    AgreementReport,
    ReviewAgreementReport,
    annotator_summary,
    compute_agreement,
    review_agreement,
)
from reljudge.review import decisions
from reljudge.storage import qrels_io, team


def from_database(db, include_sources: bool = True) -> AgreementReport:
    """Agreement on a campaign's current judgments (grades and no-answer verdicts),
    per question type and overall. Imported qrels sources join as raters named
    ``source:NAME``, so outside judgments can be compared with the team's."""
    grades = team.current_grades(db)
    if include_sources:
        external = qrels_io.external_as_grades(db)
        if not external.empty:
            grades = pd.concat([grades, external], ignore_index=True)
    return compute_agreement(grades, team.current_verdict_rows(db), team.question_types(db))


def annotators_from_database(db) -> pd.DataFrame:
    """``annotator_summary`` of a campaign's current judgments, the annotator as a column."""
    summary = annotator_summary(team.current_grades(db), team.current_verdict_rows(db))
    return summary.rename_axis("annotator").reset_index()


def judging_speed(db, fast_ms: int = 2000) -> pd.DataFrame:
    """Per annotator: median seconds per judgment and judgments faster than ``fast_ms``."""
    return team.judging_speed(db, fast_ms)


def reviews_from_database(db, include_sources: bool = True) -> ReviewAgreementReport:
    """Agreement of the team's reviewers on the current answers, per question type and
    overall. Imported review sources (``import reviews --source NAME``) join as raters
    named ``source:NAME`` (a source's own reviewers taken together by the majority
    rule), exactly as imported qrels sources join :func:`from_database`."""
    return review_agreement(decisions.review_ratings(db, include_sources), team.question_types(db))
