"""Addresses and the login in a real headless chromium.

Every page has an address of its own that works typed or bookmarked, logged in (for a role
that has it) and logged out (the login form, then that page); an unknown address, or a
lead page opened by an annotator, lands on the home page with a Korean notice — never
Streamlit's English "Page not found" dialog. After pressing Enter on the login form the
page moves on only once the browser holds its session cookie, so a navigation or a reload
right after login never lands on the login form again.
"""

from __future__ import annotations

import time

import pytest

from e2e_support import build_campaign, served_in_browser

pytestmark = pytest.mark.browser

ANNOTATOR = ("annotator1", "annotator-pass-1")
LEAD = ("lead1", "lead-pass-0001")

# Streamlit's dialog for an address no page has ("Page not found … Running the app's main
# page."): remembered if it shows at any moment, however briefly.
WATCH_NOT_FOUND = """
(() => {
  window.__notFound = false;
  const check = () => {
    const text = document.body ? document.body.textContent : "";
    if (text.includes("Page not found") || text.includes("does not seem to exist")) window.__notFound = true;
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""

HEADINGS = {"judge": "근거 판정", "review": "답변 검수", "dashboard": "실시간 평가 지표", "users": "사용자 관리"}
UNKNOWN = "없는 주소라서"  # the notice for an address no page has
LEAD_ONLY = "책임자만"  # the notice for a lead page opened by an annotator


def _campaign(tmp_path):
    return build_campaign(
        tmp_path / "nav.duckdb",
        tmp_path / "input",
        n_questions=2,
        pool_size=3,
        accounts={ANNOTATOR[0]: (ANNOTATOR[1], "annotator"), LEAD[0]: (LEAD[1], "lead")},
    )


def _new_page(browser):
    context = browser.new_context(locale="ko-KR")
    context.add_init_script(WATCH_NOT_FOUND)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def _shows(page, name: str) -> None:
    """The page ``name`` is on screen (its Korean title) with the app around it (logout),
    the login form gone (Streamlit removes a previous run's elements when a run ends)."""
    page.get_by_role("heading", name=HEADINGS[name], exact=True).wait_for()
    page.get_by_role("button", name="로그아웃", exact=True).wait_for()
    page.locator(".st-key-login_password").wait_for(state="detached")


def _no_dialog(page) -> None:
    assert page.evaluate("() => window.__notFound") is False, "Streamlit's 'Page not found' dialog showed"
    assert page.get_by_text("Page not found").count() == 0


def _log_in(page, user) -> None:
    page.get_by_label("사용자 이름").fill(user[0])
    page.get_by_label("비밀번호").fill(user[1])
    page.get_by_label("비밀번호").press("Enter")


def _at(page, path: str) -> None:
    """The address bar shows ``path`` (Streamlit updates it when a page runs)."""
    page.wait_for_function("(p) => location.pathname === p", arg=path)


def test_every_page_has_its_own_address_logged_out_and_in(tmp_path):
    camp = _campaign(tmp_path)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        # Logged out: each address shows the Korean login form, then that page.
        for address, user, lands_on in [
            ("/judge", ANNOTATOR, "judge"),
            ("/dashboard", LEAD, "dashboard"),
            ("/review", ANNOTATOR, "review"),
        ]:
            page = _new_page(browser)
            page.goto(srv.url + address, wait_until="domcontentloaded")
            page.get_by_label("사용자 이름").wait_for()
            page.get_by_role("button", name="로그인", exact=True).wait_for()
            _no_dialog(page)
            _log_in(page, user)
            _shows(page, lands_on)
            _at(page, address)
            _no_dialog(page)
            page.context.close()

        # Logged out, an unknown address: the login form in Korean with a notice; after
        # logging in, the home page.
        page = _new_page(browser)
        page.goto(srv.url + "/nope", wait_until="domcontentloaded")
        page.get_by_label("사용자 이름").wait_for()
        page.get_by_text(UNKNOWN).first.wait_for()
        _no_dialog(page)
        _log_in(page, ANNOTATOR)
        _shows(page, "judge")
        _at(page, "/judge")

        # Logged in as an annotator: typed addresses.
        for address, lands_on, notice, path in [
            ("/judge", "judge", None, "/judge"),
            ("/", "judge", None, "/judge"),
            ("/review", "review", None, "/review"),
            ("/dashboard", "judge", LEAD_ONLY, "/judge"),
            ("/nope", "judge", UNKNOWN, "/judge"),
            ("/%ED%95%9C%EA%B8%80", "judge", UNKNOWN, "/judge"),
        ]:
            page.goto(srv.url + address, wait_until="domcontentloaded")
            _shows(page, lands_on)
            if notice:
                page.get_by_text(notice).first.wait_for()
            _at(page, path)
            _no_dialog(page)
        page.context.close()

        # Logged in as a lead: lead pages and the annotators' pages alike.
        page = _new_page(browser)
        page.goto(srv.url + "/users", wait_until="domcontentloaded")
        _log_in(page, LEAD)
        _shows(page, "users")
        for address, lands_on, notice in [
            ("/dashboard", "dashboard", None),
            ("/judge", "judge", None),
            ("/nope", "judge", UNKNOWN),
        ]:
            page.goto(srv.url + address, wait_until="domcontentloaded")
            _shows(page, lands_on)
            if notice:
                page.get_by_text(notice).first.wait_for()
            _no_dialog(page)
        page.context.close()


def _hold_session_route(page) -> list:
    """Hold the browser's POST /api/session (the grant → cookie swap) until released."""
    held: list = []
    page.route("**/api/session", lambda route: held.append(route))
    return held


def _has_cookie(page) -> bool:
    return any(c["name"] == "reljudge_session" for c in page.context.cookies())


def _wait_until(page, condition, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(20)  # lets Playwright dispatch the route events


def test_login_moves_on_only_once_the_cookie_is_stored(tmp_path):
    camp = _campaign(tmp_path)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = _new_page(browser)
        held = _hold_session_route(page)
        page.goto(srv.url + "/judge", wait_until="domcontentloaded")
        _log_in(page, ANNOTATOR)
        _wait_until(page, lambda: held, "the browser's request for its cookie")
        # The cookie is not stored yet: the page is not the logged-in app (a navigation now
        # would land on the login form), it says it is logging in.
        page.get_by_text("로그인 중").or_(page.get_by_role("button", name="로그아웃", exact=True)).first.wait_for()
        assert page.get_by_role("button", name="로그아웃", exact=True).count() == 0
        page.get_by_text("로그인 중").first.wait_for()
        assert not _has_cookie(page)
        held[0].continue_()
        page.unroute("**/api/session")
        _shows(page, "judge")
        # The moment the page shows, the cookie is there: another address and a reload
        # are logged in at once.
        assert _has_cookie(page)
        page.goto(srv.url + "/review", wait_until="domcontentloaded")
        _shows(page, "review")
        page.reload(wait_until="domcontentloaded")
        _shows(page, "review")
        # Logging out and in again, twice, in the same page: each login stores its cookie,
        # each logout clears it.
        for _ in range(2):
            page.get_by_role("button", name="로그아웃", exact=True).click()
            page.get_by_label("사용자 이름").wait_for()
            _wait_until(page, lambda: not _has_cookie(page), "the logout to clear the cookie")
            _log_in(page, ANNOTATOR)
            _shows(page, "review")
            assert _has_cookie(page)
        page.context.close()

        # Without holding anything: Enter, and the moment the page shows, go elsewhere.
        for user, first, then in [(ANNOTATOR, "judge", "/review"), (LEAD, "dashboard", "/users")]:
            page = _new_page(browser)
            page.goto(srv.url + "/" + first, wait_until="domcontentloaded")
            _log_in(page, user)
            page.get_by_role("button", name="로그아웃", exact=True).wait_for()
            page.goto(srv.url + then, wait_until="domcontentloaded")
            _shows(page, then.strip("/"))
            page.context.close()


def test_a_failed_cookie_swap_says_so_and_shows_the_login_form_again(tmp_path):
    """If the browser cannot store its cookie (the grant refused), the page does not
    pretend to be logged in: it says so in Korean and offers the form again."""
    camp = _campaign(tmp_path)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = _new_page(browser)
        page.route(
            "**/api/session",
            lambda route: route.fulfill(status=401, content_type="application/json", body='{"error": "bad_grant"}'),
        )
        page.goto(srv.url + "/judge", wait_until="domcontentloaded")
        _log_in(page, ANNOTATOR)
        page.get_by_text("로그인을 마치지 못했습니다").first.wait_for()
        page.get_by_label("비밀번호").wait_for()
        assert page.get_by_role("button", name="로그아웃", exact=True).count() == 0
        page.unroute("**/api/session")
        _log_in(page, ANNOTATOR)
        _shows(page, "judge")
        page.context.close()
