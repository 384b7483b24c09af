"""Organisation login in a browser (issue 26), against a real OpenID provider started by
the test on loopback (oidc-provider-mock, a Flask app run by werkzeug in a thread) and
the app configured for it in a secrets.toml written to a temporary folder.

With password login turned off: an unknown identity is refused (no page, no session
cookie) and waits; a lead, signed in with the organisation account, admits it with a
role on the users page; the identity, signed in again, judges (a save through the event
route, which reads reljudge's HttpOnly session cookie); logging out ends both sessions."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from urllib.parse import quote

import pytest

from e2e_support import StreamlitServer, build_campaign, chromium, wait_for_session_cookie, wait_for_widget, wait_saved

pytestmark = pytest.mark.browser

NEW = "new.person@example.org"
LEAD = "lead@example.org"
KIM = "kim@example.org"
KELVIN = "\u212aim@example.org"  # KELVIN SIGN, which str.lower() turns into ASCII "k" (issue 34, point 1)


def _put_user(base: str, sub: str, claims: dict) -> None:
    request = urllib.request.Request(
        f"{base}/users/{quote(sub)}",
        data=json.dumps(claims).encode(),
        headers={"Content-Type": "application/json"},
        method="PUT",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 204


def _sign_in(page, app_url: str, sub: str) -> None:
    """From the login screen, through the provider's form, back to the app."""
    page.goto(app_url, wait_until="domcontentloaded")
    page.get_by_role("button", name="조직 계정으로 로그인").click()
    page.locator('input[name="sub"]').fill(sub)
    page.get_by_role("button", name="Authorize", exact=True).click()
    page.wait_for_url(f"{app_url}/**")


def test_unknown_identity_is_refused_until_a_lead_admits_it_then_it_judges(tmp_path):
    import oidc_provider_mock

    camp = build_campaign(
        tmp_path / "org.duckdb",
        tmp_path / "input",
        n_questions=1,
        pool_size=3,
        accounts={"lead1": ("lead-pass-0001", "lead"), "kim1": ("kim-pass-0001", "annotator")},
    )
    from reljudge.campaign import auth
    from reljudge.storage import open_database

    db = open_database(camp.db_path)
    auth.set_email(db, "lead1", LEAD, "test")
    auth.set_email(db, "kim1", KIM, "test")
    db.close()

    with oidc_provider_mock.run_server_in_thread() as provider:
        issuer = f"http://localhost:{provider.server_port}"
        _put_user(issuer, LEAD, {"email": LEAD, "email_verified": True, "name": "Lead"})
        _put_user(issuer, NEW, {"email": NEW, "email_verified": True, "name": "새 사람"})
        _put_user(issuer, "liar", {"email": "claims@example.org", "email_verified": False})
        _put_user(issuer, "kelvin", {"email": KELVIN, "email_verified": True, "name": "Look-alike"})
        srv = StreamlitServer(
            db_path=camp.db_path,
            log_path=tmp_path / "server.log",
            extra_env={"STREAMLIT_SECRETS_FILES": str(tmp_path / "secrets.toml"), auth.PASSWORD_LOGIN_ENV: "off"},
        )
        (tmp_path / "secrets.toml").write_text(
            "[auth]\n"
            f'redirect_uri = "{srv.url}/oauth2callback"\n'
            f'cookie_secret = "{secrets.token_urlsafe(32)}"\n'
            'client_id = "reljudge-test"\n'
            f'client_secret = "{secrets.token_urlsafe(16)}"\n'
            f'server_metadata_url = "{issuer}/.well-known/openid-configuration"\n',
            encoding="utf-8",
        )
        srv.start()
        try:
            # the password route refuses: password login is off
            request = urllib.request.Request(
                f"{srv.url}/api/login",
                data=json.dumps({"username": "lead1", "password": "lead-pass-0001"}).encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=30)
            assert refused.value.code == 403 and json.load(refused.value)["error"] == "password_login_off"

            with chromium() as browser:
                new = browser.new_context().new_page()
                new.set_default_timeout(60_000)
                new.goto(srv.url, wait_until="domcontentloaded")
                new.get_by_role("button", name="조직 계정으로 로그인").wait_for()
                assert new.get_by_label("비밀번호").count() == 0  # no password form

                # an unknown identity: refused, no page, no reljudge session
                _sign_in(new, srv.url, NEW)
                new.get_by_text(f"조직 계정 {NEW}에 연결된 reljudge 계정이 아직 없습니다").wait_for()
                assert new.locator('[data-testid="stSidebarNav"]').count() == 0
                assert not any(c["name"] == "reljudge_session" for c in new.context.cookies())

                # an e-mail the provider does not vouch for opens nothing and asks for nothing
                liar = browser.new_context().new_page()
                liar.set_default_timeout(60_000)
                _sign_in(liar, srv.url, "liar")
                liar.get_by_text("확인된 이메일 주소를 보내지 않아").wait_for()
                assert not any(c["name"] == "reljudge_session" for c in liar.context.cookies())

                # a verified look-alike of kim's address (KELVIN SIGN) is refused, not mapped to kim1
                kelvin = browser.new_context().new_page()
                kelvin.set_default_timeout(60_000)
                _sign_in(kelvin, srv.url, "kelvin")
                kelvin.get_by_text("ASCII 글자와 헷갈리는 문자").wait_for()
                assert kelvin.locator('[data-testid="stSidebarNav"]').count() == 0
                assert not any(c["name"] == "reljudge_session" for c in kelvin.context.cookies())

                # the lead signs in with the organisation account and admits the identity
                lead = browser.new_context().new_page()
                lead.set_default_timeout(60_000)
                _sign_in(lead, srv.url, LEAD)
                wait_for_session_cookie(lead)
                lead.goto(f"{srv.url}/users", wait_until="domcontentloaded")
                lead.get_by_role("heading", name="승인을 기다리는 조직 계정", exact=True).wait_for()
                assert "claims@example.org" not in lead.locator("body").inner_text()
                assert "im@example.org" not in lead.locator("body").inner_text().replace(KIM, "")
                form = lead.locator('[data-testid="stForm"]').filter(has_text="계정 만들어 활성화")
                form.get_by_label("사용자 이름").fill("newp")
                form.get_by_role("button", name="계정 만들어 활성화").click()
                lead.get_by_text(f"{NEW} → 계정 newp").wait_for()

                # signed in again (the provider's sign-in is still there): the app opens
                new.reload(wait_until="domcontentloaded")
                wait_for_session_cookie(new)
                wait_for_widget(new)
                new.keyboard.press("2")
                wait_saved(new)

                # logging out ends the reljudge session and the organisation sign-in
                new.get_by_role("button", name="로그아웃", exact=True).click()
                new.get_by_role("button", name="End session").click()
                # reljudge's cookie was cleared first, then the provider's session ended
                assert not any(c["name"] == "reljudge_session" for c in new.context.cookies())
                assert not any(c["name"].startswith("_streamlit_user") for c in new.context.cookies())
                new.get_by_role("button", name="조직 계정으로 로그인").wait_for()
                # a reload does not sign in again by itself: the organisation sign-in ended too
                new.reload(wait_until="domcontentloaded")
                new.get_by_role("button", name="조직 계정으로 로그인").wait_for()
                assert new.locator('[data-testid="stSidebarNav"]').count() == 0
        finally:
            srv.stop()

    db = open_database(camp.db_path)
    try:
        rows = db.cursor().execute("SELECT username, grade FROM judgment_events").fetchall()
        sessions = db.cursor().execute("SELECT username FROM sessions ORDER BY 1").fetchall()
    finally:
        db.close()
    assert rows == [("newp", 2)]
    assert sessions == [("lead1",)]  # newp's session ended at logout
