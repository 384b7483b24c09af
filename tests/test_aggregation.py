"""Several raters → one decision (reljudge.storage.aggregation): the one rule that the
qrels of paragraphs (storage.team.qrels_sql) and the decisions of answer reviews
(review.decisions.aggregate) both use, against a plain reading of the policy."""

from __future__ import annotations

from collections import Counter

import pandas as pd
from hypothesis import HealthCheck, given, settings, strategies as st

from hypothesis_profiles import examples

from reljudge.review import decisions as review_decisions
from reljudge.storage import aggregation

ITEMS = [("q1", "p1"), ("q1", "p2"), ("q2", "p1")]


def _expected(ratings: dict, adjudicated: dict) -> dict:
    """The policy of docs/policies.md#정책--policies, read literally: a lead's ruling; else the value most raters
    gave; several tied for most: the lowest (stricter) of them."""
    out = {}
    for item in set(ratings) | set(adjudicated):
        values = ratings.get(item, [])
        n = len(values)
        if item in adjudicated:
            out[item] = (adjudicated[item], "adjudicated", n)
            continue
        counts = Counter(values)
        top = max(counts.values())
        winners = sorted(v for v, c in counts.items() if c == top)
        if n == 1:
            provenance = "single"
        elif len(counts) == 1:
            provenance = "unanimous"
        elif len(winners) == 1:
            provenance = "majority"
        else:
            provenance = "tie"
        out[item] = (winners[0], provenance, n)
    return out


@st.composite
def cases(draw):
    ratings = {}
    for item in ITEMS:
        n = draw(st.integers(0, 5))
        if n:
            ratings[item] = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    adjudicated = {item: draw(st.integers(0, 2)) for item in ITEMS if draw(st.booleans()) and draw(st.booleans())}
    return ratings, adjudicated


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_rule_against_its_plain_reading(case):
    ratings, adjudicated = case
    rows = [(q, p, v) for (q, p), values in ratings.items() for v in values]
    frame = pd.DataFrame(rows, columns=["qid", "pid", "v"]).astype({"qid": object, "pid": object, "v": int})
    adj = pd.DataFrame([(q, p, v) for (q, p), v in adjudicated.items()], columns=["qid", "pid", "v"])
    got = aggregation.decide_frames(frame, ["qid", "pid"], adj if len(adj) else None, n_name="n")
    found = {(r.qid, r.pid): (int(r.v), r.provenance, int(r.n)) for r in got.itertuples()}
    assert found == _expected(ratings, adjudicated)


def test_answers_use_the_same_rule_as_paragraphs():
    """A support grade tied between two reviewers goes to the lower grade, a flag tied
    between 'needs a citation' and not goes to 'needs one' (the stricter reading), and a
    lead's ruling wins: the paragraph rule, applied to answer items."""
    state = pd.DataFrame(
        [
            ("a", "x", "support", 1, "p1", 2, None),
            ("b", "x", "support", 1, "p1", 0, None),
            ("a", "x", "needs_citation", 2, None, None, False),
            ("b", "x", "needs_citation", 2, None, None, True),
            ("a", "x", "interpretation", None, None, 2, None),
            ("b", "x", "interpretation", None, None, 2, None),
            ("c", "x", "interpretation", None, None, 1, None),
        ],
        columns=["reviewer", "answer_id", "kind", "sentence", "pid", "grade", "flag"],
    ).astype({"sentence": "Int64", "grade": "Int64", "flag": "boolean", "pid": object})
    decided = review_decisions.aggregate(state).set_index(["kind"])
    assert (decided.loc["support", "value"], decided.loc["support", "provenance"]) == (0, "tie")
    assert (decided.loc["needs_citation", "value"], decided.loc["needs_citation", "provenance"]) == (True, "tie")
    assert (decided.loc["interpretation", "value"], decided.loc["interpretation", "provenance"]) == (2, "majority")
    ruling = state.iloc[[0]].drop(columns="reviewer")
    decided = review_decisions.aggregate(state, ruling).set_index(["kind"])
    assert (decided.loc["support", "value"], decided.loc["support", "provenance"]) == (2, "adjudicated")
    assert decided.loc["support", "n_reviewers"] == 2
