"""The dashboard a lead reads at a glance (issue 35.5) and its list of questions with nothing
citable (35.4), in the library: on the small campaign, both backends (``campaign_db``)."""

from __future__ import annotations

import pytest

from conftest import load_small_campaign
from reljudge.campaign import judging, plan
from reljudge.reporting import dashboard
from reljudge.storage import open_database

# q1: bm25 ranks p02 first (relevant: RR 1), vector p07 (p01's duplicate group) then p08, both
# below the threshold (RR 0); q2: bm25 p04 then p05 (RR 0.5), vector p05 first (RR 1); q3:
# its whole pool (p08, p03) below the threshold — nothing citable. Every RR@10 is then settled
# under rr-first; p03 stays unjudged in q1 and q2, so nDCG, R and P are not.
GRADES = [
    ("q1", "p02", 2),
    ("q1", "p01", 0),
    ("q1", "p08", 0),
    ("q2", "p05", 2),
    ("q2", "p04", 0),
    ("q3", "p08", 0),
    ("q3", "p03", 0),
]


def _judge(db, grades=GRADES):
    plan.set_plan(db, "rr-first")
    for qid, pid, grade in grades:
        judging.grade(db, "ann", qid, pid, grade)


def _ev(db):
    return dashboard.evaluate_for_dashboard(db, 10, 2, n_boot=0, n_perm=0)


def test_a_settled_mrr_reads_settled_and_the_rest_provisional(campaign_db):
    """Before: every row provisional by the judged share of the top K; now each measure is
    settled exactly where its bounds meet."""
    _judge(campaign_db)
    status = dashboard.measure_status(_ev(campaign_db), 10)
    overall = status[status.qtype == "all"].set_index(["system", "measure"])
    assert list(status.measure.unique()) == ["MRR@10", "R@10", "nDCG@10", "P@10"]
    assert list(status.qtype)[0] == "all"
    for system, mrr in (("bm25", 0.5), ("vector", 1 / 3)):
        row = overall.loc[(system, "MRR@10")]
        assert row.settled and row.value == pytest.approx(mrr)
        assert row.bound_low == pytest.approx(mrr) and row.bound_high == pytest.approx(mrr)
        assert not overall.loc[(system, "P@10")].settled  # p03 open within a top 10
    # vector's R@10 and nDCG@10 happen to be settled too (p03 open only right under its
    # relevant first paragraph of q2: graded anything, both stay); bm25's are not
    assert overall.loc[("vector", "R@10")].settled and overall.loc[("vector", "nDCG@10")].settled
    assert not overall.loc[("bm25", "R@10")].settled and not overall.loc[("bm25", "nDCG@10")].settled
    # one rule: settled exactly where the bounds meet
    assert (status.settled == (status.bound_high - status.bound_low).abs().lt(1e-12)).all()
    # the summary table (and so the report) flags a row by the same rule
    table = dashboard.summary_table(_ev(campaign_db), 10)
    assert table[table.qtype == "all"].provisional.all()  # nDCG still open


def test_what_the_plan_settles_and_what_the_rest_would_need(campaign_db):
    _judge(campaign_db)
    ev = _ev(campaign_db)
    s = dashboard.plan_summary(campaign_db, ev, 10)
    assert (s["plan"], s["rest"], s["rel"]) == ("rr-first", False, 2)
    assert s["settles"] == ["MRR@10"] and s["open"] == ["R@10", "nDCG@10", "P@10"]
    assert s["settled_now"] == {"MRR@10": [2, 2]}
    # the whole pool: q1 4 items (p01 with its copies, p02, p03, p08), q2 3, q3 2, for each of
    # the two annotators (no assignments)
    assert s["complete"] == 18 and s["judged"] == len(GRADES)
    est = plan.estimate(campaign_db)["totals"]
    assert s["plan_expected"] == round(est["rr_first_expected"])
    assert (s["plan_low"], s["plan_high"]) == (est["rr_first_low"], est["rr_first_high"])
    plan.set_plan(campaign_db, "rr-first", rest=True)
    s = dashboard.plan_summary(campaign_db, ev, 10)
    assert s["open"] == [] and s["plan_expected"] == 18
    plan.set_plan(campaign_db, "complete")
    assert dashboard.plan_summary(campaign_db, ev, 10)["open"] == []


def test_which_measures_a_plan_settles():
    rr = plan.Plan("rr-first", False, 10, 2, "trec10", "first")
    assert plan.settles(rr, "RR", 10, 2) and plan.settles(rr, "RR", 5, 2) and plan.settles(rr, "Success", 10, 2)
    assert not plan.settles(rr, "RR", 20, 2)  # beyond the plan's K
    assert not plan.settles(rr, "RR", 10, 1)  # another threshold
    assert not any(plan.settles(rr, f, 10, 2) for f in ("nDCG", "R", "P"))
    assert plan.settles(plan.Plan("rr-first", True, 10, 2, "trec10", "first"), "nDCG", 10, 2)
    assert plan.settles(plan.Plan("complete", False, 10, 2, "trec10", "first"), "R", 10, 1)


def test_the_chart_frame_carries_each_systems_bounds(campaign_db):
    _judge(campaign_db)
    frame = dashboard.chart_frame(_ev(campaign_db), 10, "RR")
    overall = frame[frame.qtype == "all"].set_index("system")
    assert set(overall.index) == {"bm25", "vector"}
    assert overall.loc["bm25", "bound_low"] == pytest.approx(0.5) == overall.loc["bm25", "bound_high"]
    assert set(frame.qtype) == {"all", "사실 확인", "개념 관계", "전역 주제"}


def test_nothing_citable_waits_for_the_plan_and_gives_the_mrr_marking_would_give(campaign_db, files, tmp_path):
    """A question with nothing citable is listed once every paragraph the plan needs is
    judged (before the change, one paragraph graded 0 was enough), with each system's MRR
    now and if it were marked: by hand, and as the evaluation gives it on a copy of the
    campaign where it is marked."""
    db = campaign_db
    _judge(db, GRADES[:-1])  # q3: p08 graded, vector's first paragraph p03 not yet
    assert dashboard.nothing_citable(db, _ev(db), 10).empty
    judging.grade(db, "ann", "q3", "p03", 0)
    table = dashboard.nothing_citable(db, _ev(db), 10)
    assert set(table.qid) == {"q3"} and set(table.system) == {"bm25", "vector"}
    by = table.set_index("system")
    # by hand: bm25 RR 1, 0.5, 0 (mean 0.5; 0.75 without q3); vector 0, 1, 0 (1/3; 0.5)
    assert by.loc["bm25", "mrr_now"] == pytest.approx(0.5)
    assert by.loc["bm25", "mrr_if_marked"] == pytest.approx(0.75)
    assert by.loc["vector", "mrr_now"] == pytest.approx(1 / 3)
    assert by.loc["vector", "mrr_if_marked"] == pytest.approx(0.5)
    assert by.loc["bm25", "judged"] == 2 and "우주 탐사" in by.loc["bm25", "question"]
    # the same campaign, judged the same, with q3 marked "no answer": the evaluation agrees
    copy = load_small_campaign(open_database(tmp_path / "copy" / "copy.duckdb"), files)
    try:
        _judge(copy)
        judging.mark_no_answer(copy, "ann", "q3", True)
        marked = _ev(copy)
        for system in ("bm25", "vector"):
            assert marked.result.mean(system, "RR(rel=2)@10") == pytest.approx(by.loc[system, "mrr_if_marked"])
        assert "q3" in marked.no_answer_qids and dashboard.nothing_citable(copy, marked, 10).empty
    finally:
        copy.close()
    # the original still lists it: nothing was marked there
    assert set(dashboard.nothing_citable(db, _ev(db), 10).qid) == {"q3"}
