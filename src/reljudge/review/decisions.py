"""Several reviewers → one decision per review item (the one rule of
:mod:`reljudge.storage.aggregation`), the raters' grades for agreement, and who reviewed
what."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reljudge.policy import Policy, source_policy
from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage import aggregation
from reljudge.storage import answers as store
from reljudge.storage.db import Database

CODES = Codes(
    review_error_policy=("policy",),
)
"""What :func:`aggregated_reviews` can refuse: an unknown policy."""


# -- several reviewers → one decision ----------------------------------------------------

POLICY_TEXT = (
    "adjudicated decision if any; else the majority of the reviewers per item "
    "(sentence × cited paragraph, sentence, answer); a tie goes to the stricter "
    "reading: the lower support or interpretation grade, 'needs a citation', "
    "'not appropriate'"
)


def _strict_value(frame: pd.DataFrame) -> pd.Series:
    """Each decision on one ordered scale where lower is stricter: support and
    interpretation grades as they are; needs_citation 0 = needs one, 1 = needs none;
    abstention 0 = not appropriate, 1 = appropriate."""
    flag = frame.flag.astype("boolean")
    return np.where(
        frame.kind.isin(["support", "interpretation"]),
        frame.grade.astype(float),
        np.where(frame.kind == "needs_citation", (~flag).astype(float), flag.astype(float)),
    )


def aggregate(state: pd.DataFrame, adjudicated: pd.DataFrame | None = None) -> pd.DataFrame:
    """One decision per item: answer_id, kind, sentence, pid, value (grade, or the flag
    as a bool), provenance (adjudicated / single / unanimous / majority / tie),
    n_reviewers. See POLICY_TEXT; ``state``: reviewer, answer_id, kind, sentence, pid,
    grade, flag (notes are not aggregated)."""
    key = ["answer_id", "kind", "sentence", "pid"]
    s = state[state.kind != "note"].copy()
    s["sentence"] = s.sentence.astype("Int64").fillna(-1)
    s["pid"] = s.pid.fillna("")
    s["v"] = _strict_value(s)
    adj = None
    if adjudicated is not None and len(adjudicated):
        adj = adjudicated.copy()
        adj["sentence"] = adj.sentence.astype("Int64").fillna(-1)
        adj["pid"] = adj.pid.fillna("")
        adj["v"] = _strict_value(adj)
    # the one rule of several raters → one decision, as for paragraphs (reljudge.storage.aggregation)
    winners = aggregation.decide_frames(s, key, adj, n_name="n_reviewers")
    winners = winners.astype({"sentence": "Int64", "n_reviewers": int, "pid": object})
    kind = winners.kind
    value = pd.Series(winners.v.astype(int).astype(object), index=winners.index)
    value[kind == "needs_citation"] = winners.v[kind == "needs_citation"] == 0
    value[kind == "abstention"] = winners.v[kind == "abstention"] == 1
    out = winners.assign(
        value=value,
        sentence=winners.sentence.where(winners.sentence >= 0),
        pid=winners.pid.where(winners.pid != "", None),
    )
    return (
        out[key + ["value", "provenance", "n_reviewers"]].sort_values(key, na_position="first").reset_index(drop=True)
    )


def aggregated_reviews(db: Database, policy: str = "adjudicated") -> pd.DataFrame:
    """The decisions the measures use under ``policy``: ``adjudicated`` (a lead's ruling
    if any, else the majority, ties to the stricter reading), ``majority`` (the same
    without rulings), ``reviewer:NAME`` (one reviewer), ``source:NAME`` (an imported
    review source, its reviewers aggregated by majority)."""
    try:
        parsed = Policy.parse(policy)
    except ReljudgeError:
        parsed = None
    # answer review knows no annotator:NAME and no quality flags (those are paragraph judging's)
    if parsed is None or parsed.kind == "annotator" or parsed.options:
        raise ReljudgeError(CODES("review_error_policy", policy=str(policy)))
    state = store.review_state(db, parsed)
    adj = store.current_review_adjudications(db) if parsed.uses_adjudications else None
    return aggregate(state, adj)


def review_ratings(db: Database, include_sources: bool = True) -> pd.DataFrame:
    """Each rater's support and interpretation grades on the current answers, for
    agreement (:func:`reljudge.agreement.coefficients.review_agreement`): annotator, qid, answer_id,
    kind, sentence, pid, grade. The team's reviewers by name; each imported review
    source as ONE rater ``source:NAME`` (its decisions under the policy
    ``source:NAME``), as an imported qrels source joins paragraph agreement."""
    cols = ["annotator", "answer_id", "kind", "sentence", "pid", "grade"]
    frames = [store.review_state(db, "majority").rename(columns={"reviewer": "annotator"})[cols]]
    for name in store.review_sources(db) if include_sources else []:
        agg = aggregated_reviews(db, source_policy(name))
        agg = agg[agg.kind.isin(["support", "interpretation"])]
        frames.append(agg.assign(annotator=source_policy(name), grade=agg.value)[cols])
    out = (
        pd.concat([f for f in frames if len(f)], ignore_index=True)
        if any(len(f) for f in frames)
        else pd.DataFrame(columns=cols)
    )
    out = out[out.kind.isin(["support", "interpretation"]) & out.grade.notna()]
    out = out.merge(store.answer_keys(db)[["answer_id", "qid"]], on="answer_id")
    return out.astype({"grade": int})[["annotator", "qid", *cols[1:]]].reset_index(drop=True)


def review_coverage(db: Database) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Who reviewed the current answers, for the report's disclosure: (reviewer,
    n_answers) per team reviewer, and (n_reviewers, n_answers): how many answers were
    reviewed by 0, 1, 2 … of them (an answer counts as reviewed by someone who made
    any decision on it)."""
    state = store.review_state(db, "majority")
    keys = store.answer_keys(db)
    state = state[state.answer_id.isin(keys.answer_id)].drop_duplicates(["reviewer", "answer_id"])
    per_reviewer = state.groupby("reviewer").size().rename("n_answers").reset_index()
    per_answer = state.groupby("answer_id").size().reindex(keys.answer_id, fill_value=0)
    spread = per_answer.value_counts().sort_index().rename_axis("n_reviewers").rename("n_answers").reset_index()
    return per_reviewer, spread
