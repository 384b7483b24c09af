"""In the browser: a note and an evidence sentence typed with the keyboard are saved with
the grade; neighbouring paragraphs open on demand; the English switch relabels the widget."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from e2e_support import build_campaign, login, served_in_browser, wait_for_widget, wait_saved
from reljudge.storage import open_database

pytestmark = pytest.mark.browser

NOTE = "정의가 분명함 2 1 0 n"  # shortcut keys typed into a note are just text
EVIDENCE = "감사의 생활이란 날마다 은혜를 기록하는 것"


def _current(db_path, pid):
    """The annotator's current judgment of ``pid``, read from a copy of the database file
    (the running server holds DuckDB's lock on the original)."""
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("", ".wal"):
            if os.path.exists(str(db_path) + suffix):
                shutil.copy(str(db_path) + suffix, os.path.join(tmp, "copy.duckdb" + suffix))
        db = open_database(os.path.join(tmp, "copy.duckdb"))
        rows = (
            db.cursor()
            .execute(
                """SELECT grade, note, evidence FROM current_judgments
                                      WHERE username = 'annotator1' AND pid = ?""",
                [pid],
            )
            .fetchall()
        )
        db.close()
    return rows


def test_note_evidence_context_and_english(tmp_path):
    camp = build_campaign(tmp_path / "notes.duckdb", tmp_path / "input", n_questions=1, pool_size=4)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        first = page.locator(".rj-item").first
        pid = first.get_attribute("data-pid")
        assert first.locator(".rj-prev").is_hidden()
        page.keyboard.press("c")  # neighbouring paragraphs
        assert first.locator(".rj-prev").is_visible() and first.locator(".rj-next").is_visible()
        page.keyboard.press("2")
        page.keyboard.press("k")  # back to the first card
        page.keyboard.press("e")
        note = first.locator(".rj-note")
        assert note.evaluate("el => el.getRootNode().activeElement === el")
        note.type(NOTE)
        page.keyboard.press("Tab")
        first.locator(".rj-evidence").type(EVIDENCE)
        page.keyboard.press("Enter")
        wait_saved(page)
        assert first.locator(".rj-edit").is_hidden()
        assert _current(camp.db_path, pid) == [(2, NOTE, EVIDENCE)]
        assert first.locator(".rj-has-note").inner_text() == "✎ 메모 · 근거 문장"  # visible on the card
        assert page.locator(".rj-item").nth(1).locator(".rj-has-note").inner_text() == ""
        page.keyboard.press("1")  # shortcuts work again
        wait_saved(page)
        page.keyboard.press("k")
        page.keyboard.press("2")
        wait_saved(page)
        # The note stays with the paragraph; the evidence sentence belongs to grade 2 and
        # was dropped when the grade became 1 (a database constraint).
        assert _current(camp.db_path, pid) == [(2, NOTE, None)]
        page.locator('[data-testid="stSidebar"] [data-testid="stCheckbox"] label').click()  # English
        page.get_by_text("2 directly citable evidence").first.wait_for()
        page.get_by_text("Keys — ↓/J next paragraph", exact=False).wait_for()
