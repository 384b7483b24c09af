"""Who reviews which answers: the lead's review assignments, planned as paragraph
judging's are (:func:`reljudge.campaign.assignment.plan`)."""

from __future__ import annotations

from reljudge.storage import answers as store
from reljudge.storage.db import Database


def preview_reviews(db: Database, reviewers: list[str] | None = None, **options):
    """The plan :func:`assign_reviews` would store, without storing it: the
    paragraph-judging planner (:func:`reljudge.campaign.assignment.plan`: overlap share, balance
    by type, started work kept) over the questions that have answers; the work of a
    question is its answers plus its (sentence, citation) pairs."""
    from reljudge.campaign import assignment
    from reljudge.storage import team

    return assignment.plan(
        store.questions_for_review(db),
        reviewers or team.active_annotators(db),
        started=store.started_reviews(db),
        **options,
    )


def assign_reviews(db: Database, lead: str, reviewers: list[str] | None = None, **options):
    """Replace the review assignments with :func:`preview_reviews`' plan; returns it."""
    plan = preview_reviews(db, reviewers, **options)
    store.replace_review_assignments(db, plan.rows, lead)
    return plan


active_review_assignments = store.active_review_assignments
