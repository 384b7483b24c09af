"""A save from an open judging tab is refused once the account is deactivated: the
widget's fragment re-checks the session on the server, not only the page load."""

from __future__ import annotations

import pytest

from e2e_support import (
    DEEP_QUERY_JS,
    build_campaign,
    logged_in_page,
    login,
    served_in_browser,
    wait_for_widget,
    wait_saved,
)

pytestmark = pytest.mark.browser


def test_deactivated_annotator_cannot_keep_saving(tmp_path):
    camp = build_campaign(
        tmp_path / "s.duckdb",
        tmp_path / "input",
        n_questions=1,
        pool_size=4,
        accounts={"annotator1": ("annotator-pass-1", "annotator"), "lead1": ("lead-pass-0001", "lead")},
    )
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
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
        deactivate = lead.get_by_role("button", name="비활성화", exact=True)
        # Choosing in the selectbox reruns the page; on a busy machine a choice typed while
        # an earlier run is still drawing can be lost: choose again until the button shows.
        for attempt in range(3):
            combo.click()
            combo.fill("annotator1")
            lead.keyboard.press("Enter")
            try:
                deactivate.wait_for(timeout=20_000)
                break
            except Exception:  # noqa: BLE001 — playwright's TimeoutError: try the choice again
                if attempt == 2:
                    raise
        deactivate.click()
        lead.get_by_role("button", name="활성화", exact=True).wait_for()

        ann.keyboard.press("0")  # the open tab tries to save
        ann.get_by_text("먼저 로그인하세요.").first.wait_for()
        # the grade that could not be saved is not silently kept: the page says so
        ann.get_by_text("아직 저장되지 않은 판정이 1건").first.wait_for()
        # the widget goes (Streamlit may keep the old elements a moment while it redraws)
        ann.locator(".rj-item").first.wait_for(state="detached", timeout=10_000)
    from reljudge.storage import open_database

    db = open_database(camp.db_path)
    n = db.cursor().execute("SELECT count(*) FROM judgment_events WHERE username = 'annotator1'").fetchall()[0][0]
    db.close()
    assert n == 1


def _first_request_after_start(tmp_path, name, path, token=None):
    """Start a fresh server and make ``path`` its very first request (a reloaded tab
    after a restart), with the login cookie if ``token``; return what the page shows."""
    camp = build_campaign(
        tmp_path / f"{name}.duckdb",
        tmp_path / f"{name}-input",
        n_questions=1,
        pool_size=3,
        accounts={"lead1": ("lead-pass-0001", "lead")},
    )
    if token:
        from reljudge.campaign import auth
        from reljudge.storage import open_database

        db = open_database(camp.db_path)
        token = auth.start_session(db, auth.authenticate(db, "lead1", "lead-pass-0001"))
        db.close()
    ctx = served_in_browser(camp.db_path, tmp_path / f"{name}.log")
    srv, browser = ctx.__enter__()
    try:
        context = browser.new_context()
        if token:
            context.add_cookies([{"name": "reljudge_session", "value": token, "url": srv.url}])
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{srv.url}{path}", wait_until="domcontentloaded")
        return page, ctx
    except Exception:
        ctx.__exit__(None, None, None)
        raise


def test_deep_link_as_first_request_runs_through_the_app(tmp_path):
    """Right after a (re)start, /users opened with a valid cookie shows the page inside
    the app (menu, language switch, logout), not the bare page file; the login screen
    never lists raw file names."""
    page, ctx = _first_request_after_start(tmp_path, "deep", "/users", token=True)
    try:
        page.get_by_role("heading", name="사용자 관리", exact=True).wait_for()
        page.get_by_role("button", name="로그아웃", exact=True).wait_for()
        nav = page.locator('[data-testid="stSidebarNav"]')
        assert "자료 가져오기" in nav.inner_text() and "import data" not in nav.inner_text()
        assert page.url.endswith("/users")
    finally:
        ctx.__exit__(None, None, None)

    # Logged out, the same address shows the login form (no file list, no "page not
    # found"), and logging in lands on the page the address names.
    page, ctx = _first_request_after_start(tmp_path, "login", "/users")
    try:
        page.get_by_label("사용자 이름").wait_for()
        assert page.locator('[data-testid="stSidebarNav"]').count() == 0
        assert page.get_by_text("Page not found").count() == 0
        page.get_by_label("사용자 이름").fill("lead1")
        page.get_by_label("비밀번호").fill("lead-pass-0001")
        page.get_by_role("button", name="로그인", exact=True).click()
        page.get_by_role("heading", name="사용자 관리", exact=True).wait_for()
        assert page.url.endswith("/users")
    finally:
        ctx.__exit__(None, None, None)


def test_question_with_nothing_pooled_explains_itself(tmp_path):
    camp = build_campaign(tmp_path / "e.duckdb", tmp_path / "input", n_questions=1, pool_size=3)
    from reljudge.campaign import setup as campaign
    from reljudge.campaign import judging
    from reljudge.storage import open_database

    extra = tmp_path / "extra.jsonl"
    extra.write_text(
        '{"qid": "Q99", "text": "아무 시스템도 답하지 않은 질문", "type": "사실 확인", "criteria": "-"}\n',
        encoding="utf-8",
    )
    db = open_database(camp.db_path)
    campaign.import_file(db, "questions", extra)
    judging.go_to(db, "annotator1", "Q99")
    db.close()
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        page.locator(".rj .rj-empty").wait_for()
        assert "이 질문에는 판정할 문단이 없습니다" in page.locator(".rj .rj-empty").inner_text()
        page.keyboard.press("N")
        page.wait_for_function(
            """() => {"""
            + DEEP_QUERY_JS
            + """
          const r = deepQuery(".rj"); return !!r && r.dataset.noAnswer === "1" && r.dataset.pending === "0";
        }"""
        )


def test_english_switch_survives_a_reload_and_a_new_login(tmp_path):
    """The language is a browser preference (a cookie): a reload, or logging out and in
    again, keeps English; switching back to Korean is kept the same way."""
    camp = build_campaign(tmp_path / "l.duckdb", tmp_path / "input", n_questions=1, pool_size=3)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = logged_in_page(browser, srv.url, "annotator1", "annotator-pass-1")
        page.get_by_role("heading", name="근거 판정", exact=True).wait_for()
        # by the widget's key: while a run replaces the screen, the old toggle can linger
        page.locator(".st-key-lang_toggle_app").get_by_text("English", exact=True).click()
        page.get_by_role("heading", name="Relevance judging", exact=True).wait_for()
        page.wait_for_function("document.cookie.includes('reljudge_lang=en')")
        page.reload(wait_until="domcontentloaded")
        page.get_by_role("heading", name="Relevance judging", exact=True).wait_for()
        page.get_by_role("button", name="Log out", exact=True).click()
        page.get_by_label("Username").wait_for()  # the login form in English too
        page.locator(".st-key-lang_toggle_login").get_by_text("English", exact=True).click()  # back to Korean
        page.get_by_label("사용자 이름").wait_for()
        page.wait_for_function("document.cookie.includes('reljudge_lang=ko')")
        page.reload(wait_until="domcontentloaded")
        page.get_by_label("사용자 이름").wait_for()


def test_moving_on_from_the_last_question_says_what_is_left(tmp_path):
    """Enter on the last question used to do nothing visible: it now says how many
    questions are unfinished, or that everything is done."""
    camp = build_campaign(tmp_path / "end.duckdb", tmp_path / "input", n_questions=1, pool_size=3)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = logged_in_page(browser, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.keyboard.press("2")
        wait_saved(page)
        page.keyboard.press("Enter")
        page.get_by_text("남은 질문은 이것뿐입니다: 아직 판정하지 않은 문단이 2개 있습니다.", exact=False).wait_for()
        wait_for_widget(page)
        for key in ("0", "1"):
            page.keyboard.press(key)
        assert all(c["grade"] is not None for c in wait_saved(page)["cards"])
        page.keyboard.press("Enter")
        page.get_by_text("모든 질문을 마쳤습니다", exact=False).wait_for()
