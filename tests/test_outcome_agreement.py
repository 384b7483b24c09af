"""Agreement on outcomes: system rankings per annotator, Kendall's tau, flagged questions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kendalltau

from reljudge.campaign import judging
from reljudge.campaign.outcome_agreement import kendall_tau_b, outcome_agreement


def test_kendall_tau_b_matches_scipy_with_ties():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        n = int(rng.integers(2, 9))
        x = rng.integers(0, 4, n).astype(float)
        y = rng.integers(0, 4, n).astype(float)
        ours = kendall_tau_b(x, y)
        ref = kendalltau(x, y).statistic
        if np.isnan(ref):
            assert ours is None
        else:
            assert ours == pytest.approx(ref, abs=1e-12)
    assert kendall_tau_b([1.0], [2.0]) is None


def test_rankings_tau_and_the_question_that_changes_the_winner(campaign_db):
    db = campaign_db
    for user, qid, pid in [("ann", "q1", "p01"), ("ann", "q2", "p04"), ("bob", "q1", "p08"), ("bob", "q2", "p05")]:
        judging.grade(db, user, qid, pid, 2)
    oa = outcome_agreement(db, k=10)
    assert oa.rankings == {"ann": ["bm25", "vector"], "bob": ["vector", "bm25"]}
    assert oa.mrr.loc["ann", "bm25"] == pytest.approx(0.75) and oa.mrr.loc["bob", "vector"] == pytest.approx(0.75)
    assert oa.kendall_tau == {"ann|bob": pytest.approx(-1.0)}
    assert oa.flagged.to_dict(orient="records") == [
        {"qid": "q2", "annotator": "ann", "winner": "vector", "winner_if_annotator": "bm25"}
    ]
    assert oa.to_dict()["kendall_tau"]["ann|bob"] == pytest.approx(-1.0)


def test_single_annotator_gives_a_reason_not_a_crash(campaign_db):
    judging.grade(campaign_db, "ann", "q1", "p01", 2)
    oa = outcome_agreement(campaign_db)
    assert oa.kendall_tau == {} and oa.reasons["kendall_tau"].code == "reason_fewer_annotators"
