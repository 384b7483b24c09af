"""A save from an open judging tab is refused once the account is deactivated: the
widget's fragment re-checks the session on the server, not only the page load."""

from __future__ import annotations

import pytest

from e2e_support import build_campaign, login, served_in_browser, wait_for_widget, wait_saved

pytestmark = pytest.mark.browser


def test_deactivated_annotator_cannot_keep_saving(tmp_path):
    camp = build_campaign(tmp_path / "s.duckdb", tmp_path / "input", n_questions=1, pool_size=4,
                          accounts={"annotator1": ("annotator-pass-1", "annotator"),
                                    "lead1": ("lead-pass-0001", "lead")})
    try:
        ctx = served_in_browser(camp.db_path, tmp_path / "server.log")
        srv, browser = ctx.__enter__()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        ann = browser.new_context().new_page()
        ann.set_default_timeout(60_000)
        login(ann, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(ann)
        ann.keyboard.press("2")
        wait_saved(ann)

        lead = browser.new_context().new_page()
        lead.set_default_timeout(60_000)
        login(lead, srv.url, "lead1", "lead-pass-0001")
        lead.goto(f"{srv.url}/users")
        lead.get_by_role("heading", name="사용자 관리").wait_for()
        combo = lead.get_by_role("combobox", name="사용자 이름")
        combo.click()
        combo.fill("annotator1")
        lead.keyboard.press("Enter")
        lead.get_by_role("button", name="비활성화", exact=True).click()
        lead.get_by_role("button", name="활성화", exact=True).wait_for()

        ann.keyboard.press("0")                           # the open tab tries to save
        ann.get_by_text("먼저 로그인하세요.").first.wait_for()
        assert ann.locator(".rj-item").count() == 0       # the widget is gone
    finally:
        ctx.__exit__(None, None, None)
    from reljudge.storage import open_database
    db = open_database(camp.db_path)
    n = db.cursor().execute("SELECT count(*) FROM judgment_events WHERE username = 'annotator1'").fetchall()[0][0]
    db.close()
    assert n == 1
