"""Organisation login (issue 26): an OpenID Connect identity maps to an account by its
verified e-mail; an unknown one is refused and waits for a lead; password login can be
turned off. The rules here; the browser flow against a real provider in
tests/test_e2e_org_login.py."""

from __future__ import annotations

import math
import subprocess
import sys
import time

import pytest

from cli_support import run_cli

from reljudge.campaign import auth
from reljudge.errors import ReljudgeError


def _claims(email, verified=True, **more):
    now = time.time()
    return {
        "sub": "id-" + str(email),
        "email": email,
        "email_verified": verified,
        "iat": now,
        "exp": now + 3600,
        **more,
    }


def test_a_verified_email_opens_the_account_that_has_it(db):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "  Kim@Example.ORG ", "lead1")
    outcome = auth.identity_login(db, _claims("kim@example.org"), "default")
    assert outcome.user == auth.User("kim", "annotator") and outcome.refusal is None
    # the e-mail is compared without case, as stored
    assert auth.identity_login(db, _claims("KIM@example.org")).user == auth.User("kim", "annotator")
    assert auth.identity_requests(db).empty


@pytest.mark.parametrize("verified", [False, None, "false", 1])
def test_an_unverified_email_opens_nothing_and_is_not_recorded(db, verified):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "lead1")
    claims = _claims("kim@example.org", verified)
    if verified is None:
        del claims["email_verified"]
    outcome = auth.identity_login(db, claims)
    assert outcome.user is None and outcome.refusal == "unverified"
    assert auth.identity_requests(db).empty


def test_a_string_true_from_a_provider_counts_as_verified(db):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "cli")
    assert auth.identity_login(db, _claims("kim@example.org", "true")).user == auth.User("kim", "annotator")


@pytest.mark.parametrize("email", [None, "", "no-at-sign", "a@b@c", "sp ace@x.org", 42])
def test_no_usable_email_is_refused(db, email):
    outcome = auth.identity_login(db, {**_claims("x@example.org"), "email": email})
    assert outcome.user is None and outcome.refusal == "unverified"
    assert auth.identity_requests(db).empty


def test_an_unknown_identity_waits_until_a_lead_admits_it_with_a_role(db):
    outcome = auth.identity_login(db, _claims("New.Person@example.org", name="새 사람"), "corp")
    assert outcome.user is None and outcome.refusal == "pending" and outcome.email == "new.person@example.org"
    auth.identity_login(db, _claims("new.person@example.org", name="새 사람"), "corp")
    waiting = auth.identity_requests(db)
    assert list(waiting.email) == ["new.person@example.org"]
    assert waiting.refusals[0] == 2 and waiting.identity_name[0] == "새 사람" and waiting.provider[0] == "corp"

    user = auth.activate_identity(db, "new.person@example.org", "newp", "annotator", "lead1")
    assert user == auth.User("newp", "annotator")
    assert auth.identity_requests(db).empty
    assert auth.identity_login(db, _claims("new.person@example.org")).user == user
    # its password is random: no password opens it
    assert auth.authenticate(db, "newp", "") is None


def test_a_deactivated_account_stays_shut_and_is_no_request(db):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "cli")
    auth.set_active(db, "kim", False)
    outcome = auth.identity_login(db, _claims("kim@example.org"))
    assert outcome.user is None and outcome.refusal == "inactive"
    assert auth.identity_requests(db).empty


def test_one_account_per_email_and_clear_errors(db):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.add_user(db, "lee", "password-2", "lead")
    auth.set_email(db, "kim", "kim@example.org", "cli")
    with pytest.raises(ReljudgeError, match="belongs to the account 'kim'"):
        auth.set_email(db, "lee", "KIM@example.org", "cli")
    with pytest.raises(ReljudgeError, match="not a valid e-mail"):
        auth.set_email(db, "lee", "not-an-email", "cli")
    with pytest.raises(ReljudgeError, match="no account .nobody. on this server"):
        auth.set_email(db, "nobody", "x@example.org", "cli")
    with pytest.raises(ReljudgeError, match="belongs to the account 'kim'"):
        auth.activate_identity(db, "kim@example.org", "kim2", "annotator", "cli")
    with pytest.raises(ReljudgeError, match="already exists"):
        auth.activate_identity(db, "other@example.org", "lee", "annotator", "cli")
    with pytest.raises(ReljudgeError, match="unknown role"):
        auth.activate_identity(db, "other@example.org", "other", "admin", "cli")
    with pytest.raises(ReljudgeError, match="no organisation identity waits"):
        auth.dismiss_identity(db, "other@example.org")
    # unlinking frees the e-mail for another account
    auth.set_email(db, "kim", None, "cli")
    auth.set_email(db, "lee", "kim@example.org", "cli")
    assert auth.identity_login(db, _claims("kim@example.org")).user == auth.User("lee", "lead")
    assert auth.accounts.emails(db) == {"lee": "kim@example.org"}


def test_setting_an_email_answers_the_request_waiting_under_it(db):
    auth.identity_login(db, _claims("kim@example.org"))
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "lead1")
    assert auth.identity_requests(db).empty
    auth.identity_login(db, _claims("gone@example.org"))
    auth.dismiss_identity(db, "GONE@example.org")
    assert auth.identity_requests(db).empty


def test_password_login_can_be_turned_off(db, monkeypatch):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "cli")
    for value in ("off", "0", "false", "No"):
        monkeypatch.setenv(auth.PASSWORD_LOGIN_ENV, value)
        assert auth.login(db, "kim", "password-1").refusal == "disabled"
        assert auth.authenticate(db, "kim", "password-1") is None
        # organisation login is not affected
        assert auth.identity_login(db, _claims("kim@example.org")).user == auth.User("kim", "annotator")
    monkeypatch.setenv(auth.PASSWORD_LOGIN_ENV, "on")
    assert auth.authenticate(db, "kim", "password-1") == auth.User("kim", "annotator")
    monkeypatch.delenv(auth.PASSWORD_LOGIN_ENV)
    assert auth.authenticate(db, "kim", "password-1") == auth.User("kim", "annotator")


def _cli(db_path, *args):
    return run_cli("--db", db_path, "users", *args)


def test_the_command_line_lists_admits_and_links_identities(tmp_path):
    from reljudge.storage import open_database

    path = tmp_path / "o.duckdb"
    db = open_database(path)
    auth.add_user(db, "lead1", "lead-pass-1", "lead")
    auth.identity_login(db, _claims("new@example.org", name="New"), "corp")
    db.close()
    r = _cli(path, "requests")
    assert r.returncode == 0, r.stderr
    assert "new@example.org" in r.stdout and "corp" in r.stdout
    r = _cli(path, "admit", "new@example.org", "newp", "--role", "annotator")
    assert r.returncode == 0, r.stderr
    assert "added newp (annotator)" in r.stdout
    assert "no organisation identity is waiting" in _cli(path, "requests").stdout
    r = _cli(path, "email", "lead1", "Lead@Example.org")
    assert r.returncode == 0 and "lead1 signs in with lead@example.org" in r.stdout
    listed = _cli(path, "list").stdout.splitlines()
    assert any(line.split()[0] == "lead1" and line.split()[-1] == "lead@example.org" for line in listed)
    assert any(line.split()[0] == "newp" and line.split()[-1] == "new@example.org" for line in listed)
    # bad input: a message, no traceback
    r = _cli(path, "email", "lead1", "new@example.org")
    assert r.returncode != 0 and "belongs to the account 'newp'" in r.stderr and "Traceback" not in r.stderr
    r = _cli(path, "dismiss", "nobody@example.org")
    assert r.returncode != 0 and "no organisation identity waits" in r.stderr and "Traceback" not in r.stderr
    db = open_database(path)
    try:
        assert auth.identity_login(db, _claims("lead@example.org")).user == auth.User("lead1", "lead")
        assert auth.identity_login(db, _claims("new@example.org")).user == auth.User("newp", "annotator")
    finally:
        db.close()


def test_an_expired_id_token_opens_nothing_until_a_fresh_sign_in(db):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "cli")
    stale = _claims("kim@example.org", exp=1_000, iat=900)
    assert auth.identity_login(db, stale, now=1_001).refusal == "expired"
    assert auth.identity_login(db, stale).refusal == "expired"
    assert auth.identity_login(db, stale, now=999).user == auth.User("kim", "annotator")
    # an expired unknown identity is no request either
    assert auth.identity_login(db, _claims("new@example.org", exp=1_000, iat=900)).refusal == "expired"
    assert auth.identity_requests(db).empty


# -- the pages, through Streamlit's AppTest (no [auth] here: no provider button) ------------
@pytest.fixture
def app_db(tmp_path, monkeypatch):
    monkeypatch.setenv("RELJUDGE_DB", str(tmp_path / "app.duckdb"))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")
    return tmp_path / "app.duckdb"


def _app(script: str = "workbench.py"):
    from streamlit.testing.v1 import AppTest

    from reljudge.ui import webapp

    return AppTest.from_file(str(webapp.HERE / script), default_timeout=60)


def _lead(at):
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page("screens/users.py").run()
    assert not at.exception
    return at


def test_a_lead_admits_a_waiting_identity_and_links_an_email_on_the_users_page(app_db):
    from reljudge.ui.session import get_db

    at = _app().run()
    db = get_db()
    auth.identity_login(db, _claims("new@example.org", name="<b>새 사람</b>"), "corp")
    at = _lead(at)
    assert "new@example.org" in list(at.selectbox(key="identity_target").options)
    from reljudge import i18n

    waiting = next(d.value for d in at.dataframe if "identity_name" in d.value.columns)
    assert [i18n.column_label(c, "ko") for c in waiting.columns] == [
        "이메일",
        "조직 계정 이름",
        "제공자",
        "거절 횟수",
        "처음 온 때",
        "마지막으로 온 때",
    ]
    assert waiting.identity_name[0] == "<b>새 사람</b>"  # data, shown as text in a table cell
    at.text_input(key="identity_username").input("newp")
    at.selectbox(key="identity_role").select("annotator")
    form = next(f for f in at.get("form") if any(b.label == "계정 만들어 활성화" for b in f.button))
    next(b for b in form.button if b.label == "계정 만들어 활성화").click().run()
    assert not at.exception
    assert any("→ 계정 newp" in s.value for s in at.success), [s.value for s in at.success]
    assert auth.identity_login(db, _claims("new@example.org")).user == auth.User("newp", "annotator")
    assert [c.value for c in at.caption if c.value == "승인을 기다리는 조직 계정이 없습니다."]

    # the account chosen above gets an e-mail; a taken one is refused in words, not a traceback
    at.selectbox(key="manage_target").select("annotator1").run()
    at.text_input(key="email_annotator1").input("A1@example.org")
    next(b for b in at.button if b.label == "이메일 저장").click().run()
    assert not at.exception
    assert auth.accounts.emails(db)["annotator1"] == "a1@example.org"
    at.selectbox(key="manage_target").select("annotator2").run()
    at.text_input(key="email_annotator2").input("new@example.org")
    next(b for b in at.button if b.label == "이메일 저장").click().run()
    assert not at.exception
    assert any("이미 계정 'newp'의 것입니다" in e.value for e in at.error)


def test_with_password_login_off_and_no_provider_the_login_screen_says_so(app_db, monkeypatch):
    monkeypatch.setenv(auth.PASSWORD_LOGIN_ENV, "off")
    at = _app().run()
    assert not at.exception
    assert not at.text_input  # no password form
    assert "비밀번호 로그인이 꺼져 있는데" in at.error[0].value


def test_a_refusal_is_recorded_once_when_asked(db):
    auth.identity_login(db, _claims("new@example.org"))
    again = auth.identity_login(db, _claims("new@example.org"), record=False)
    assert again.refusal == "pending"
    assert auth.identity_requests(db).refusals.tolist() == [1]


def test_an_incomplete_auth_section_is_said_in_words(app_db):
    """(AppTest's secrets reach st.secrets but not the copy st.login checks: to st.login
    the section is missing altogether, one of the ways it can be incomplete.)"""
    at = _app()
    at.secrets["auth"] = {"client_id": "x", "client_secret": "y", "server_metadata_url": "http://127.0.0.1:9/m"}
    at.run()
    assert not at.exception
    assert [b.label for b in at.button][:1] == ["조직 계정으로 로그인"]
    assert at.caption[0].value == "또는 사용자 이름과 비밀번호로 로그인"  # password login stays on
    at.button(key="org_login_").click().run()
    assert not at.exception
    assert "조직 계정 로그인 설정(secrets.toml의 [auth])이 완전하지 않습니다" in at.error[0].value
    assert "secrets.toml" in at.error[0].value  # Streamlit's own reason follows, escaped


@pytest.mark.browser
def test_serve_hands_the_server_its_secrets_file_and_can_turn_password_login_off(tmp_path):
    """`reljudge serve` runs the server in the package's folder, where Streamlit would not
    see the secrets file of the folder it was started in: --secrets (or ./.streamlit/
    secrets.toml) is handed over; --no-password-login refuses the password route."""
    import json
    import os
    import signal
    import urllib.error
    import urllib.request

    from e2e_support import chromium, free_port, wait_for_health

    port = free_port()
    secrets_file = tmp_path / "secrets.toml"
    secrets_file.write_text(
        "[auth]\n"
        f'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        'cookie_secret = "a-test-cookie-secret-made-for-this-test"\n'
        'client_id = "reljudge-test"\n'
        'client_secret = "test-secret"\n'
        'server_metadata_url = "http://127.0.0.1:9/.well-known/openid-configuration"\n',
        encoding="utf-8",
    )
    r = _cli_serve(tmp_path, "--secrets", str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and "no secrets file" in r.stderr and "Traceback" not in r.stderr

    db_path = tmp_path / "served.duckdb"
    from reljudge.storage import open_database

    db = open_database(db_path)
    auth.add_user(db, "lead1", "lead-pass-0001", "lead")
    db.close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "reljudge", "--db", str(db_path), "serve", "--port", str(port)]
        + ["--secrets", str(secrets_file), "--no-password-login"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for_health(url, proc, 60, what="reljudge serve")
        request = urllib.request.Request(
            f"{url}/api/login",
            data=json.dumps({"username": "lead1", "password": "lead-pass-0001"}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 403
        with chromium() as browser:
            page = browser.new_page()
            page.set_default_timeout(60_000)
            page.goto(url, wait_until="domcontentloaded")
            page.get_by_role("button", name="조직 계정으로 로그인").wait_for()
            assert page.get_by_label("비밀번호").count() == 0
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def _cli_serve(tmp_path, *args):
    return subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(tmp_path / "x.duckdb"), "serve", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


# -- look-alike addresses (issue 34.1) ----------------------------------------------------
# Each of these lower-cases, upper-cases, casefolds or NFKC-normalises to an ASCII address
# that an account has: it must be refused, never mapped onto that account.
LOOKALIKES = {
    "\u212aim@example.org": "kim@example.org",  # KELVIN SIGN → k
    "\u017fun@example.org": "sun@example.org",  # LONG S → S / s
    "\ufb00@example.org": "ff@example.org",  # LATIN SMALL LIGATURE FF → ff (NFKC)
    "\uff4bim@example.org": "kim@example.org",  # FULLWIDTH k → k (NFKC)
    "kim@\uff45xample.org": "kim@example.org",  # FULLWIDTH e in the domain
    "k\u0131m@example.org": "kim@example.org",  # DOTLESS i → I (upper)
    "k\u0130m@example.org": "kim@example.org",  # DOTTED CAPITAL I → i + dot (lower)
}


@pytest.mark.parametrize("lookalike", sorted(LOOKALIKES))
def test_a_lookalike_email_opens_no_other_account_and_is_refused(db, lookalike):
    target = LOOKALIKES[lookalike]
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", target, "lead1")
    outcome = auth.identity_login(db, _claims(lookalike))
    assert outcome.user is None and outcome.refusal == "lookalike"
    assert auth.identity_requests(db).empty  # nothing recorded under a mapped address either
    # a lead cannot give such an address to an account either
    auth.add_user(db, "lee", "password-2", "annotator")
    with pytest.raises(ReljudgeError) as refused:
        auth.set_email(db, "lee", lookalike, "lead1")
    assert refused.value.message.code == "error_lookalike_email"


def test_every_lookalike_maps_onto_its_target_under_some_unicode_mapping():
    """The cases above are real look-alikes: lower-casing (what the old rule did), NFKC +
    casefold ("normalising harder") or upper- then lower-casing maps each onto the
    account's ASCII address, which is why the rule refuses them instead of mapping them."""
    import unicodedata

    for lookalike, target in LOOKALIKES.items():
        mapped = {
            lookalike.lower(),
            unicodedata.normalize("NFKC", lookalike).casefold(),
            lookalike.upper().lower(),
            unicodedata.normalize("NFKD", lookalike.lower()).replace("\u0307", ""),
        }
        assert target in mapped, lookalike


def test_an_ascii_address_is_compared_without_ascii_case_only(db):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "Kim@Example.ORG", "lead1")
    assert auth.identity_login(db, _claims("KIM@EXAMPLE.org")).user == auth.User("kim", "annotator")


def test_a_non_ascii_address_matches_only_the_same_address_after_nfc(db):
    stored = "김철수@예시.kr"
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", stored, "lead1")
    assert auth.identity_login(db, _claims(stored)).user == auth.User("kim", "annotator")
    # the same text in another Unicode form (Hangul jamo, NFD) is the same address after NFC
    import unicodedata

    decomposed = unicodedata.normalize("NFD", stored)
    assert decomposed != stored
    assert auth.identity_login(db, _claims(decomposed)).user == auth.User("kim", "annotator")
    # an accented Latin address: no case mapping for non-ASCII addresses
    auth.add_user(db, "jose", "password-2", "annotator")
    auth.set_email(db, "jose", "José@example.org", "lead1")
    assert auth.identity_login(db, _claims("José@example.org")).user == auth.User("jose", "annotator")
    assert auth.identity_login(db, _claims("JOSÉ@example.org")).user is None


# -- the ID token's times (issue 34.2) ----------------------------------------------------
@pytest.mark.parametrize(
    "times",
    [
        {"exp": None},
        {"exp": "9999999999"},
        {"exp": math.nan},
        {"exp": math.inf},
        {"exp": True},
        {"exp": [9999999999]},
        {"iat": "0"},
        {"iat": math.nan},
        {"iat": "future"},
    ],
    ids=lambda t: repr(t),
)
def test_an_id_token_without_a_finite_numeric_expiry_opens_nothing(db, times):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "cli")
    claims = _claims("kim@example.org")
    if times.get("iat") == "future":
        claims["iat"] = time.time() + auth.CLOCK_SKEW_SECONDS + 60
    else:
        claims.update(times)
    if times.get("exp", 0) is None:
        del claims["exp"]
    outcome = auth.identity_login(db, claims)
    assert outcome.user is None and outcome.refusal == "invalid_token"
    assert auth.identity_requests(db).empty


def test_an_iat_within_the_clock_skew_is_accepted(db):
    auth.add_user(db, "kim", "password-1", "annotator")
    auth.set_email(db, "kim", "kim@example.org", "cli")
    claims = {**_claims("kim@example.org"), "iat": time.time() + auth.CLOCK_SKEW_SECONDS / 2}
    assert auth.identity_login(db, claims).user == auth.User("kim", "annotator")
