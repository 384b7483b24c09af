"""The judging plan on the pages (AppTest): the lead chooses it on the assignment page,
and the judging page follows it (docs/judging-plans.md#판정-계획--judging-plans)."""

from __future__ import annotations

import pytest

from reljudge.campaign import judging
from reljudge.campaign import plan
from test_app_pages import _app, _db, _login, app_db  # noqa: F401  (app_db: the fixture)


def _apply(at):
    next(b for b in at.button if b.label == "판정 계획 적용").click().run()


@pytest.mark.usefixtures("app_db")
def test_the_lead_sets_rr_first_on_the_assignment_page():
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/assign.py").run()
    assert not at.exception
    radio = at.radio(key="plan_name")
    assert radio.value == "complete" and radio.options[1].startswith("RR@10 먼저")
    radio.set_value("rr-first")
    at.checkbox(key="plan_rest").check()
    _apply(at)
    assert not at.exception and "판정 계획을 적용했습니다." in [s.value for s in at.success]
    chosen = plan.current(_db())
    assert (chosen.name, chosen.rest, chosen.k) == ("rr-first", True, 10)
    at.radio(key="plan_name").set_value("complete")
    _apply(at)
    assert plan.current(_db()).name == "complete" and not plan.current(_db()).rest


@pytest.mark.usefixtures("app_db")
def test_the_judging_page_follows_rr_first():
    at = _login(_app().run(), "annotator1", "demo-pass1")
    db = _db()
    plan.set_plan(db, "rr-first")
    qid = judging.current_question(db, "annotator1")
    # settle the current question through its offered paragraphs
    while True:
        items = plan.now_items(db, "annotator1", [qid])[qid]
        if not items:
            break
        for pid in items:
            judging.grade(db, "annotator1", qid, pid, 0)
    data = judging.payload(db, "annotator1", qid)
    assert data["plan"]["done"] and data["plan"]["settled"] == data["plan"]["systems"] == 4
    assert data["progress"]["q_judged"] < data["progress"]["q_total"]
    at.run()
    assert not at.exception
    # the sidebar marks the question done (●) though its pool is not all graded
    judging.step(db, "annotator1", 1, only_open=True)  # U: the next unfinished question
    assert judging.current_question(db, "annotator1") != qid
    at.run()
    assert not at.exception
    options = list(at.sidebar.selectbox[0].options)
    assert any(o.startswith(f"● {qid}") for o in options), options[:3]


@pytest.mark.usefixtures("app_db")
def test_the_assignment_page_estimates_each_plans_cost():
    """Issue 39.10: the lead sees, before judging, each plan's judgments (rr-first as a
    range from the rankings) and, once judging has started, the expected count."""
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/assign.py").run()
    at.button(key="plan_estimate").click().run()
    assert not at.exception
    shown = at.dataframe[-1].value
    assert list(shown.iloc[:, 0]) == [
        "전체 판정",
        "rr-first: 순위만으로 본 범위",
        "rr-first: 지금까지의 판정으로 본 예상",
    ]
    expected = plan.estimate(_db())["totals"]
    assert shown.iloc[0, 1] == f"{expected['complete']:,.0f}" and shown.iloc[2, 1] == "—"
    assert any("판정당 중앙값" in c.value for c in at.caption)


@pytest.mark.usefixtures("app_db")
def test_the_lead_sets_a_sampling_plan_on_the_assignment_page():
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/assign.py").run()
    assert not at.exception
    at.radio(key="plan_name").set_value("rr-first")
    at.checkbox(key="plan_then_sample").check()
    at.number_input(key="plan_sample_rate").set_value(0.3)
    at.number_input(key="plan_sample_seed").set_value(7)
    _apply(at)
    assert not at.exception and "판정 계획을 적용했습니다." in [s.value for s in at.success]
    chosen = plan.current(_db())
    assert (chosen.name, chosen.sample_rate, chosen.sample_seed, chosen.rest) == ("rr-first", 0.3, 7, False)
    assert plan.draws_of(_db())
    # both "then" boxes: refused in words, nothing changed
    at.checkbox(key="plan_rest").check()
    _apply(at)
    assert not at.exception and any("--then-rest" in e.value or "함께" in e.value for e in at.error)
    assert plan.current(_db()).sample_rate == 0.3
    # once judging has begun, another seed is refused on the page too
    db = _db()
    judging.grade(db, "annotator1", "q01", plan.draws_of(db)[0].items[0].item, 0)
    at.checkbox(key="plan_rest").uncheck()
    at.radio(key="plan_name").set_value("sample")
    at.number_input(key="plan_sample_seed").set_value(8)
    _apply(at)
    assert not at.exception and at.error
    chosen = plan.current(_db())
    assert (chosen.name, chosen.sample_seed) == ("rr-first", 7)
    at.number_input(key="plan_sample_seed").set_value(7)
    _apply(at)
    assert plan.current(_db()).name == "sample"
