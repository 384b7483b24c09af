"""Database handle, login, roles and language for the Streamlit app.

The user is re-read from the database on every run (session token → account),
so a role change or deactivation takes effect at once and pages check roles on
the server, whatever the browser sends.
"""

from __future__ import annotations

import os
import threading

import streamlit as st
from streamlit.errors import StreamlitAuthError

from reljudge import display, i18n
from reljudge.web import routes as api
from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.errors import ReljudgeError
from reljudge.storage.db import CAMPAIGN_ENV_VAR, DEFAULT_CAMPAIGN, Database, is_campaign_name

COOKIE = api.COOKIE
LANG_COOKIE = "reljudge_lang"
LANG_COOKIE_MAX_AGE = 365 * 24 * 3600

# Writes (value) or deletes (no value) one cookie in the browser: Streamlit can read
# cookies (st.context.cookies) but not set them. Only for the language: the login cookie
# is HttpOnly and set by a route (see _post_from_browser).
_cookie_writer = st.components.v2.component(
    "reljudge_cookie",
    js="""
export default function ({ data }) {
  if (!data || !data.name) return;
  const attrs = "; path=/; SameSite=Strict";
  if (data.value) document.cookie = data.name + "=" + data.value + "; max-age=" + data.max_age + attrs;
  else document.cookie = data.name + "=; max-age=0" + attrs;
}
""",
)


# Posts a small JSON body to one of reljudge's routes from the browser (retrying a few
# times on a network error or a 5xx), so that the route's Set-Cookie reaches the browser:
# the login grant is swapped for the HttpOnly session cookie, and logging out clears it.
# With ``report`` it tells the server how that went (trigger ``done``: ok, status and
# the body's grant) once the browser has the answer, and so its cookie; such a body is
# posted once per page load, however often the component is drawn again (a grant is
# single-use: a second post would be refused).
_post_from_browser = st.components.v2.component(
    "reljudge_post",
    js="""
export default function ({ data, setTriggerValue }) {
  if (!data || !data.url) return;
  const posts = (window.__reljudgePosts = window.__reljudgePosts || new Map());
  const id = data.report ? data.url + " " + JSON.stringify(data.body || {}) : null;
  let answer = id && posts.get(id);
  if (!answer) {
    answer = new Promise((resolve) => {
      const post = (attempt) => fetch(data.url, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json" }, body: JSON.stringify(data.body || {}) })
        .then((r) => {
          if (r.status >= 500) throw new Error(String(r.status));
          resolve({ ok: r.ok, status: r.status });
        })
        .catch(() => {
          if (attempt < 5) setTimeout(() => post(attempt + 1), 300 * 2 ** attempt);
          else resolve({ ok: false, status: 0 });
        });
      post(0);
    });
    if (id) posts.set(id, answer);
  }
  if (data.report) {
    answer.then((r) => setTriggerValue("done", Object.assign({ grant: (data.body || {}).grant }, r)));
  }
}
""",
)

# Session state while a login waits for the browser's cookie: {"grant": the one-time code}.
_LOGGING_IN = "_rj_logging_in"
_LOGIN_ERROR = "_rj_login_error"
# Session state while an organisation logout waits for the browser to clear reljudge's
# cookie ("clearing"), then ends the organisation sign-in ("cleared").
_ORG_LOGOUT = "_rj_org_logout"
_ORG_SEEN = "_rj_org_seen"  # the identity last refused in this browser session


#: The URL's query parameter that names the campaign (absent: the default campaign).
CAMPAIGN_PARAM = "campaign"
_CAMPAIGN = "_rj_campaign"
_CAMPAIGN_NOTICE = "_rj_campaign_notice"


def current_campaign() -> str:
    """The campaign this browser works in: the URL's ``?campaign=`` if it names one, else
    the one chosen last in this session (put back into the URL: a move to another page
    drops the query), else the default campaign. Outside a script run (a test, a
    script calling :func:`get_db`): the default campaign."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx(suppress_warning=True) is None:
        return DEFAULT_CAMPAIGN
    asked = st.query_params.get(CAMPAIGN_PARAM)
    name = asked or st.session_state.get(_CAMPAIGN) or _server_campaign()
    if not is_campaign_name(name):
        _leave_campaign("campaign_unavailable", name)
        return DEFAULT_CAMPAIGN
    st.session_state[_CAMPAIGN] = name
    if name != DEFAULT_CAMPAIGN and asked != name:
        st.query_params[CAMPAIGN_PARAM] = name
    return name


def _server_campaign() -> str:
    """The campaign the app opens when the URL names none: ``reljudge --campaign NAME
    serve`` (``$RELJUDGE_CAMPAIGN``), else the default campaign."""
    name = os.environ.get(CAMPAIGN_ENV_VAR, "").strip()
    return name if is_campaign_name(name) else DEFAULT_CAMPAIGN


def _choose_campaign(name: str) -> None:
    st.session_state[_CAMPAIGN] = name
    if name == DEFAULT_CAMPAIGN:
        if CAMPAIGN_PARAM in st.query_params:
            del st.query_params[CAMPAIGN_PARAM]
    else:
        st.query_params[CAMPAIGN_PARAM] = name


def _leave_campaign(key: str, name: str, to: str = DEFAULT_CAMPAIGN) -> None:
    """To campaign ``to`` (the default unless said), saying why on the next draw."""
    _choose_campaign(to)
    st.session_state[_CAMPAIGN_NOTICE] = (key, name, to)


def show_campaign_notice() -> None:
    notice = st.session_state.pop(_CAMPAIGN_NOTICE, None)
    if notice:
        key, name, to = notice

        def shown(campaign: str) -> str:
            if campaign == DEFAULT_CAMPAIGN:
                return t("campaign_in_text_default")
            return t("campaign_in_text", campaign=campaign)

        st.info(tm(key, campaign=shown(name), other=shown(to)), icon=":material/info:")


def _database(name: str = DEFAULT_CAMPAIGN) -> Database:
    try:
        return api.database(campaign_name=name)
    except ReljudgeError as exc:
        if name != DEFAULT_CAMPAIGN and name not in _database().campaign_names():
            _leave_campaign("campaign_unavailable", name)
            return _database()
        st.error(i18n.t("db_locked", lang(), **display.md_args(error=error_text(exc))))
        st.stop()


def get_db() -> Database:
    """The process-wide database of this browser's campaign (:func:`current_campaign`; one
    connection, shared with the JSON routes; each thread uses its own cursor)."""
    return _database(current_campaign())


def accounts_db() -> Database:
    """The default campaign's database: where every account can log in (accounts are
    shared by the campaigns; the role in the chosen campaign is read after)."""
    return _database()


def campaign_picker(user: auth.User) -> None:
    """After login, in the sidebar: the campaigns where the account has a role (shown only
    when there are several); a choice is kept in the URL."""
    roles = auth.accounts.roles_by_campaign(accounts_db(), user.username)
    if len(roles) < 2:
        return
    current = current_campaign()
    names = list(roles)

    def label(name: str) -> str:
        shown = t("campaign_default") if name == DEFAULT_CAMPAIGN else name
        return t("campaign_with_role", campaign=shown, role=t(f"role_{roles[name]}"))

    choice = st.sidebar.selectbox(
        t("campaign_picker"),
        names,
        index=names.index(current) if current in names else 0,
        format_func=label,
        key=f"rj_campaign_pick_{current}",
    )
    if choice != current:
        _choose_campaign(choice)
        st.rerun()


def show_lost_database(db: Database, exc: BaseException) -> bool:
    """When ``exc`` says the PostgreSQL server was lost: say so in the user's language (no
    password), attach again on the next rerun, and return True; else False."""
    lost = db.lost_server(exc)
    if lost is None:
        return False
    db.mark_broken()
    st.error(display.md(error_text(lost)))
    return True


def lang() -> str:
    if "lang_en" not in st.session_state:
        # a new browser session (reload, new tab): the language chosen last time
        st.session_state["lang_en"] = st.context.cookies.get(LANG_COOKIE) == "en"
    return "en" if st.session_state["lang_en"] else "ko"


def _remember_language(widget_key: str) -> None:
    st.session_state["lang_en"] = st.session_state[widget_key]
    st.session_state["write_lang_cookie"] = True


def t(key: str, **kwargs) -> str:
    return i18n.t(key, lang(), **kwargs)


def tm(key: str, **data) -> str:
    """:func:`t` for a Markdown context (st.markdown, st.caption, st.info/success/warning/
    error): the data arguments are escaped, our own markup stays (display.md)."""
    return i18n.t(key, lang(), **display.md_args(**data))


def error_text(exc: Exception) -> str:
    """A library error in the user's language when it carries a code, else its own text."""
    msg = getattr(exc, "message", None)
    return i18n.message(msg, lang()) if msg is not None else str(exc)


def error(message) -> None:
    """A message built from data (an exception naming a file, an id, a name) as st.error,
    never interpreted as Markdown. An exception is worded by :func:`error_text`."""
    if isinstance(message, BaseException):
        message = error_text(message)
    st.error(display.md(message))


# The session read once per full run of workbench.py (token -> user): the script, the
# page's role check and the judging fragment inside it each ask in turn. Thread-local:
# each browser session runs its script in a thread of its own; a fragment rerun alone (a
# save's refusal, a move) does not run workbench.py and reads the session anew.
_THIS_RUN = threading.local()


def begin_run() -> None:
    _THIS_RUN.users = {}


def end_run() -> None:
    _THIS_RUN.users = None


def current_user(db: Database) -> auth.User | None:
    token = st.session_state.get("token")
    if token is None:
        token = st.context.cookies.get(COOKIE)
    memo = getattr(_THIS_RUN, "users", None)
    key = (id(db), token)
    if memo is not None and key in memo:
        user = memo[key]
    else:
        user = auth.user_for_token(db, token)
        if memo is not None:
            memo[key] = user
    account = user is None and auth.account_for_token(accounts_db(), token)
    if account:
        # logged in, but without a role in this campaign: to one where the account has one
        roles = auth.accounts.roles_by_campaign(accounts_db(), account)
        if roles:
            _leave_campaign("campaign_unavailable", db.campaign, to=next(iter(roles)))
            st.rerun()
        st.session_state[_CAMPAIGN_NOTICE] = ("no_role_anywhere", db.campaign, db.campaign)
    if user is None:
        st.session_state.pop("token", None)
        st.session_state.pop(_LOGGING_IN, None)
        return None
    st.session_state["token"] = token
    return user


def require_role(*roles: str) -> auth.User:
    """Stop the page unless the logged-in user has one of ``roles`` (checked on the server)."""
    db = get_db()
    user = current_user(db)
    if user is None:
        st.error(t("not_logged_in"))
        st.stop()
    if roles and user.role not in roles:
        st.error(t("forbidden"))
        st.stop()
    return user


def flash(message: str) -> None:
    """Show ``message`` as a success on the next run: ``st.rerun()`` drops what the
    current run drew, so a confirmation shown before it would never be seen."""
    st.session_state["_flash"] = message


def show_flash() -> None:
    message = st.session_state.pop("_flash", None)
    if message:
        st.success(message)  # built with tm(): data already escaped


def language_switch(logged_in: bool) -> None:
    """Korean first, English on demand. The login screen and the app use separate
    widgets (sharing one setting): a widget carried across the login's rerun lost
    its first change in the browser."""
    key = "lang_toggle_app" if logged_in else "lang_toggle_login"
    st.sidebar.toggle(i18n.t("english"), key=key, value=lang() == "en", on_change=_remember_language, args=(key,))
    if st.session_state.pop("write_lang_cookie", False):
        _cookie_writer(
            data={"name": LANG_COOKIE, "value": lang(), "max_age": LANG_COOKIE_MAX_AGE}, key="rj_lang_cookie"
        )


def login_screen(db: Database, target=None) -> None:
    """The login form, or — right after logging in, until the browser has stored its
    cookie — a short "logging in" state; logging in moves on to the page ``target`` (an
    ``st.Page`` of the current menu; None: this page)."""
    if logging_in():
        st.title(t("app_title"))
        st.info(t("logging_in"), icon=":material/hourglass_top:")
        _post_from_browser(
            data={"url": "/api/session", "body": {"grant": st.session_state[_LOGGING_IN]["grant"]}, "report": True},
            key="rj_login_cookie",
            on_done_change=lambda: _cookie_reported(db),
        )
        return
    if org_login(db, target):
        return
    login_form(db, target)


# -- organisation login (st.login: OpenID Connect through Authlib, secrets.toml [auth]) ----
def org_providers() -> list[str | None]:
    """The OpenID providers configured in secrets.toml's ``[auth]``: None for the unnamed
    one (its settings in ``[auth]`` itself), then each ``[auth.NAME]``. Empty when there
    is no ``[auth]``: the app is then exactly the password app."""
    try:
        if not st.secrets.load_if_toml_exists():
            return []
        section = st.secrets.get("auth")
    except Exception:  # noqa: BLE001 — an unreadable secrets file: no organisation login
        return []
    if not section or not hasattr(section, "keys"):
        return []

    def provider(keys) -> bool:
        return "client_id" in keys or "server_metadata_url" in keys

    named = [k for k in section.keys() if hasattr(section[k], "keys") and provider(section[k].keys())]
    return ([None] if provider(section.keys()) else []) + named


def _org_signed_in() -> bool:
    """The browser is signed in to an organisation account (st.user; a missing flag, as
    when [auth] comes from elsewhere than secrets.toml, is no sign-in)."""
    return st.user.get("is_logged_in") is True


def org_login(db: Database, target=None) -> bool:
    """When the browser is signed in to an organisation account (st.user), log it in to
    the reljudge account its verified e-mail names, by the same path as a password login
    (_logged_in: a session, then the HttpOnly cookie), and return True; else say why not
    (no account yet: recorded for a lead) and return False."""
    if not org_providers() or not _org_signed_in():
        return False
    if st.session_state.get(_ORG_LOGOUT):  # logging out: no new session meanwhile
        st.title(t("app_title"))
        st.info(t("logging_out"), icon=":material/hourglass_top:")
        return True
    claims = st.user.to_dict()
    # a refused identity is recorded once per browser session, not on every rerun
    seen = (claims.get("email"), claims.get("sub"))
    outcome = auth.identity_login(
        db, claims, str(claims.get("provider") or "") or None, record=st.session_state.get(_ORG_SEEN) != seen
    )
    st.session_state[_ORG_SEEN] = seen
    if outcome.user is not None:
        _logged_in(db, outcome.user, target)
        return True
    if outcome.refusal == "expired":
        return False  # the login form's buttons sign in at the provider again
    st.title(t("app_title"))
    if outcome.refusal == "pending":
        st.warning(tm("org_login_pending", email=outcome.email), icon=":material/pending:")
    elif outcome.refusal == "inactive":
        st.error(tm("org_login_inactive", email=outcome.email))
    elif outcome.refusal == "lookalike":
        st.error(t("org_login_lookalike"))
    elif outcome.refusal == "invalid_token":
        st.error(t("org_login_invalid_token"))
    else:
        st.error(t("org_login_unverified"))
    if st.button(t("org_logout"), key="org_logout"):
        st.logout()
    return True


def _org_login_buttons() -> None:
    providers = org_providers()
    for name in providers:
        label = (
            t("org_login_button") if name is None else tm("org_login_button_named", provider=name)
        )  # a label is Markdown
        if st.button(label, key=f"org_login_{name or ''}", type="primary", icon=":material/login:"):
            try:
                st.login(name)
            except StreamlitAuthError as exc:  # [auth] incomplete: said, not a traceback
                st.error(tm("org_login_misconfigured", error=" ".join(str(exc).split())))


def logging_in() -> bool:
    """Logged in on the server, but the browser has not yet confirmed its cookie: the
    pages wait (a navigation or a reload before the cookie is stored would land on the
    login form again)."""
    return _LOGGING_IN in st.session_state


def _cookie_reported(db: Database) -> None:
    """The browser's answer to the grant → cookie swap: the login is complete, or (the
    cookie could not be stored) ended, and the login form says so."""
    pending = st.session_state.get(_LOGGING_IN)
    report = (st.session_state.get("rj_login_cookie") or {}).get("done")
    if not pending or not isinstance(report, dict) or report.get("grant") != pending["grant"]:
        return
    del st.session_state[_LOGGING_IN]
    if not report.get("ok"):
        auth.end_session(db, st.session_state.pop("token", None))
        st.session_state[_LOGIN_ERROR] = "login_cookie_failed"


def login_form(db: Database, target=None) -> None:
    st.title(t("app_title"))
    unsaved_notice()
    if st.session_state.get(_LOGIN_ERROR):
        st.error(t(st.session_state.pop(_LOGIN_ERROR)))
    # one small read (the form is drawn on every run of the login screen, the submit's too)
    accounts, demo = auth.accounts.user_counts(db, [u for u, _, _ in campaign.DEMO_ACCOUNTS])
    if not accounts:
        first_lead_form(db, target)
        return
    _org_login_buttons()
    if not auth.password_login_enabled():
        if not org_providers():
            st.error(t("org_login_missing"))
        return
    if org_providers():
        st.caption(t("org_login_or"))
    if demo:
        st.info(t("demo_notice", accounts=", ".join(f"{u} / {p}" for u, p, _ in campaign.DEMO_ACCOUNTS)))
    with st.form("login"):
        st.subheader(t("login_title"))
        username = st.text_input(t("username"), key="login_username")
        password = st.text_input(t("password"), type="password", key="login_password")
        submitted = st.form_submit_button(t("login_button"), type="primary")
    if submitted:
        address = st.context.ip_address  # None when unknown (and not a str under AppTest)
        address = auth.client_address(
            address if isinstance(address, str) else None, st.context.headers.get_all("x-forwarded-for")
        )
        outcome = auth.login(db, username, password, address if isinstance(address, str) else None)
        if outcome.user is None:
            st.error(
                t("login_wait", s=outcome.wait_seconds)
                if outcome.refusal == "wait"
                else t("login_locked")
                if outcome.refusal == "locked"
                else t("login_failed")
            )
            return
        _logged_in(db, outcome.user, target)


def _logged_in(db: Database, user: auth.User, target) -> None:
    """Start the session; a browser page then swaps a one-time grant for the HttpOnly
    cookie (login_screen) before any logged-in page shows. A client that sends no URL is
    no browser page (AppTest, a script on the websocket): nothing there can store a
    cookie, so nothing waits for one."""
    token = auth.start_session(db, user)
    st.session_state["token"] = token
    if st.context.url is not None:
        st.session_state[_LOGGING_IN] = {"grant": api.issue_grant(token)}
    if target is None:
        st.rerun()
    st.switch_page(target)


def first_lead_form(db: Database, target=None) -> None:
    """A database without any account (a new campaign file) asks for its first lead."""
    st.info(t("first_lead_info"))
    with st.form("first_lead"):
        st.subheader(t("first_lead_title"))
        username = st.text_input(t("username"), key="first_lead_username")
        password = st.text_input(t("password"), type="password", key="first_lead_password")
        again = st.text_input(t("password_again"), type="password", key="first_lead_again")
        code = st.text_input(t("setup_code"), key="first_lead_code", help=t("setup_code_help"))
        submitted = st.form_submit_button(t("first_lead_title"), type="primary")
    if submitted:
        if password != again:
            st.error(t("passwords_differ"))
            return
        try:
            user = auth.add_first_lead(db, username, password, code)
        except ReljudgeError as exc:
            error(exc)
            return
        _logged_in(db, user, target)


# Counts the judgments this browser still holds unsent (the judging widget's outbox in
# localStorage) and says so: after a logout elsewhere or a deactivation the page can no
# longer show the widget, but the annotator must know that something is not saved.
_unsaved_counter = st.components.v2.component(
    "reljudge_unsaved",
    html='<div class="rj-unsaved" hidden></div>',
    css=".rj-unsaved { padding: .5rem .75rem; border-radius: .4rem; background: #fff4e0; color: #8a4b00; }",
    js="""
export default function ({ data, parentElement }) {
  const box = parentElement.querySelector(".rj-unsaved");
  let n = 0;
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("reljudge-outbox-")) n += (JSON.parse(localStorage.getItem(k) || "[]") || []).length;
    }
  } catch (e) {}
  box.textContent = n ? data.text.replace("{n}", String(n)) : "";
  box.hidden = !n;
}
""",
)


def unsaved_notice() -> None:
    _unsaved_counter(data={"text": t("unsaved_here", n="{n}")}, key="rj_unsaved")


def uploader_in_language() -> None:
    """Streamlit draws its file uploader's button and size line in English whatever the
    page's language ("Upload", "2GB per file • …"): hide those and show ours (CSS
    ``content``, from the text catalog; the accepted types are in each uploader's help)."""

    def css_string(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    st.html(f"""<style>
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p {{ display: none; }}
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"]::after {{
  content: {css_string(t("upload_button"))}; }}
[data-testid="stFileUploaderDropzoneInstructions"] span {{ display: none; }}
[data-testid="stFileUploaderDropzoneInstructions"] > div::after {{
  content: {css_string(t("upload_limit"))}; font-size: .85rem; opacity: .8; }}
</style>""")


def logout_button(db: Database, user: auth.User) -> None:
    st.sidebar.caption(tm("logged_in_as", user=user.username, role=t(f"role_{user.role}")))
    if st.sidebar.button(t("logout"), key="logout"):
        auth.end_session(db, st.session_state.pop("token", None))
        if org_providers() and _org_signed_in():
            # the organisation sign-in ends too, once the browser has cleared reljudge's
            # cookie (clear_cookie_if_logged_out)
            st.session_state[_ORG_LOGOUT] = "clearing"
        else:
            st.session_state["cleared_cookie"] = True
        st.rerun()


def _org_cookie_cleared() -> None:
    if st.session_state.get(_ORG_LOGOUT):
        st.session_state[_ORG_LOGOUT] = "cleared"


def clear_cookie_if_logged_out() -> None:
    org = st.session_state.get(_ORG_LOGOUT)
    if org == "cleared":
        # Streamlit's identity cookie, and the provider's session where it offers an
        # end_session_endpoint: st.logout sends the browser through /auth/logout
        del st.session_state[_ORG_LOGOUT]
        st.logout()
        st.stop()
    if org:
        _post_from_browser(
            data={"url": "/api/logout", "report": True}, key="rj_cookie_clear_org", on_done_change=_org_cookie_cleared
        )
        return
    if st.session_state.pop("cleared_cookie", False):
        _post_from_browser(data={"url": "/api/logout"}, key="rj_cookie_clear")
