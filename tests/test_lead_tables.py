"""Every table on the lead screens can be taken away as CSV (issue 13, item 12): the
dashboard's canvas-drawn tables cannot be selected and copied."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from reljudge.campaign import judging
from reljudge.ui import webapp
from reljudge.ui import navigation

LEAD_PAGES = [f"screens/{name}.py" for name, _, _ in navigation.LEAD_PAGES]


@pytest.fixture
def app_db(tmp_path, monkeypatch):
    path = tmp_path / "app.duckdb"
    monkeypatch.setenv("RELJUDGE_DB", str(path))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")
    return path


def _app(script: str = "workbench.py") -> AppTest:
    return AppTest.from_file(str(webapp.HERE / script), default_timeout=90)


def _lead(page: str) -> AppTest:
    at = _app().run()
    from reljudge.ui.session import get_db

    db = get_db()
    for k, item in enumerate(judging.payload(db, "annotator1", "q01")["items"][:6]):
        judging.grade(db, "annotator1", "q01", item["pid"], k % 3, ms=3000)
        judging.grade(db, "annotator2", "q01", item["pid"], (k + 1) % 3, ms=3000)
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def _csv_buttons(at: AppTest) -> list:
    return [b for b in at.get("download_button") if b.proto.id and "csv_" in b.proto.id]


@pytest.mark.parametrize("page", LEAD_PAGES)
def test_every_table_of_a_lead_page_has_a_csv_download(app_db, page):
    at = _lead(page)
    buttons = _csv_buttons(at)
    assert len(buttons) == len(at.dataframe)
    assert all(b.proto.label == "CSV 내려받기" for b in buttons)
    assert all(b.proto.deferred_file_id or b.proto.url == "" for b in buttons)


def test_dashboard_tables_have_csv_downloads(app_db):
    at = _lead("screens/dashboard.py")
    assert len(at.dataframe) >= 4  # means, abstention, tests, failures
    assert len(_csv_buttons(at)) == len(at.dataframe)


def test_csv_is_what_the_table_shows():
    """Headers and values as shown (Korean), "—" where the cell is empty, UTF-8 with a BOM
    so that spreadsheet programs read the Korean."""
    from reljudge.ui import tables

    frame = pd.DataFrame({"username": ["ann"], "qtype": ["사실 확인"], "percent": [50.0], "median_seconds": [None]})
    data = tables.csv_bytes(frame, "ko")
    assert data.startswith("\ufeff".encode())
    back = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig")
    assert list(back.columns) == ["사용자", "질문 유형", "진행률 %", "판정당 중앙값(초)"]
    assert back.iloc[0].tolist() == ["ann", "사실 확인", 50.0, "—"]
    assert list(pd.read_csv(io.BytesIO(tables.csv_bytes(frame, "en")), encoding="utf-8-sig").columns) == [
        "user",
        "question type",
        "% done",
        "median s / judgment",
    ]
