"""The lead page "품질 관리 / Quality" through Streamlit's AppTest, in Korean and English,
on a real DuckDB file (the demo campaign)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from reljudge.campaign import judging, quality
from reljudge.ui import webapp


@pytest.fixture
def app_db(tmp_path, monkeypatch):
    path = tmp_path / "app.duckdb"
    monkeypatch.setenv("RELJUDGE_DB", str(path))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")
    return path


def _app() -> AppTest:
    return AppTest.from_file(str(webapp.HERE / "workbench.py"), default_timeout=60)


def _db():
    from reljudge.ui.session import get_db

    return get_db()


def _lead_on_quality(english: bool) -> AppTest:
    at = _app().run()
    if english:
        at.sidebar.toggle[0].set_value(True).run()
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page("screens/quality.py").run()
    assert not at.exception
    return at


def _prepare():
    _app().run()  # creates the demo database
    db = _db()
    items = judging.payload(db, "annotator1", "q01")["items"]
    pooled = [it["pid"] for it in items]
    for pid in pooled[:3]:
        quality.use_as_gold(db, "q01", pid, 0, "lead")
        judging.grade(db, "annotator1", "q01", pid, 2, ms=5000)
    quality.set_settings(db, min_gold=3)
    quality.place_decoys(db, 0.05, seed=1)


@pytest.mark.parametrize(
    "english, title, flag",
    [(False, "품질 관리", "골드 정확도 낮음"), (True, "Quality control", "low gold accuracy")],
)
def test_quality_page_in_both_languages(app_db, english, title, flag):
    _prepare()
    at = _lead_on_quality(english)
    assert not at.error
    assert at.title[0].value == title
    frame = next(d.value for d in at.dataframe if "gold_accuracy" in d.value.columns).set_index("annotator")
    assert set(quality.COLUMNS[1:]) <= set(frame.columns)
    assert frame.loc["annotator1", "gold_judged"] == 3 and frame.loc["annotator1", "gold_accuracy"] == 0.0
    assert bool(frame.loc["annotator1", "flagged"]) and frame.loc["annotator1", "reasons"] == flag
    assert any(str(c.value).startswith("Flagged" if english else "표시 기준") for c in at.caption)


def test_the_page_changes_thresholds_and_places_decoys(app_db):
    _app().run()
    at = _lead_on_quality(False)
    at.number_input[0].set_value(4)  # gold items before the floor applies
    at.button(key="FormSubmitter:quality_settings-기준 저장").click().run()
    assert not at.exception and quality.settings(_db()).min_gold == 4
    decoys = [b for b in at.button if b.label == "미끼 놓기"][0]
    decoys.click().run()
    assert not at.exception
    assert len(quality.placements(_db())) > 0
    assert any("미끼" in s.value for s in at.success)


def test_the_adjudication_page_marks_a_ruling_as_gold(app_db):
    from reljudge.campaign import adjudication

    _app().run()
    db = _db()
    pid = judging.payload(db, "annotator1", "q01")["items"][0]["pid"]
    judging.grade(db, "annotator1", "q01", pid, 2, ms=5000)
    judging.grade(db, "annotator2", "q01", pid, 0, ms=5000)
    adjudication.adjudicate(db, "lead", "q01", pid, 1, "부분적으로만 관련")
    at = _app().run()
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page("screens/adjudicate.py").run()
    assert not at.exception
    [button] = [b for b in at.button if b.label == "골드로 쓰기"]
    button.click().run()
    assert not at.exception
    gold = quality.gold_items(_db())
    assert list(zip(gold.qid, gold.pid, gold.grade, gold.origin)) == [("q01", pid, 1, "adjudication")]
    assert any("골드 항목" in s.value for s in at.success)


def test_the_assignment_page_places_decoys_and_the_audit_keeps_their_grades(app_db):
    _app().run()
    at = _app().run()
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page("screens/assign.py").run()
    assert not at.exception
    [button] = [b for b in at.button if b.label == "미끼 놓기"]
    button.click().run()
    assert not at.exception
    placed = quality.placements(_db())
    assert len(placed) > 0 and any("미끼" in s.value for s in at.success)
    first = placed.iloc[0]
    judging.grade(_db(), first.annotator, first.qid, first.pid, 1, ms=3000)
    at.switch_page("screens/audit.py").run()
    at.selectbox(key="audit_qid").select(first.qid).run()
    assert not at.exception
    frame = next(d.value for d in at.dataframe if "annotator" in d.value.columns and "pid" in d.value.columns)
    assert list(zip(frame.annotator, frame.pid, frame.grade)) == [(first.annotator, first.pid, 1)]


def test_a_flagged_annotator_links_to_the_reassign_form(app_db):
    """Issue 39.6: from the quality page, each flagged annotator leads to the Assignments
    page's reassign form, set on that annotator."""
    _prepare()
    at = _lead_on_quality(False)
    links = at.get("page_link")
    flagged = [link for link in links if "annotator1" in link.proto.label]
    assert len(flagged) == 1 and "넘기기" in flagged[0].proto.label
    assert "reassign=annotator1" in flagged[0].proto.query_string
    assert not [link for link in links if "annotator2" in link.proto.label]  # not flagged
    # the link's address: the reassign form starts on that annotator
    at.query_params["reassign"] = "annotator2"
    at.switch_page("screens/assign.py").run()
    assert not at.exception
    form = next(s for s in at.selectbox if s.label == "판정자")
    assert form.value == "annotator2"
