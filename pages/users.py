"""Users (lead): add accounts, change passwords, deactivate; link organisation e-mails and
admit organisation identities waiting for an account. In a campaign other than the default
(accounts are shared by the campaigns): add accounts and give existing ones a role here;
passwords, deactivation, locks, sessions and organisation identities act on every campaign,
so they are the default campaign's leads' to manage."""

import streamlit as st

from reljudge.campaign import auth
from reljudge.errors import ReljudgeError
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("users_title"))
users = auth.list_users(db)
tables.dataframe(users, name="users")

with st.form("add_user", clear_on_submit=True):
    st.subheader(session.t("add_user"))
    name = st.text_input(session.t("username"))
    password = st.text_input(session.t("password"), type="password")
    role = st.selectbox(session.t("role"), auth.ROLES, format_func=lambda r: session.t(f"role_{r}"))
    if st.form_submit_button(session.t("add_user"), type="primary"):
        try:
            auth.add_user(db, name, password, role)
            st.success(session.tm("user_added", user=name))
        except ReljudgeError as exc:
            session.error(exc)

with st.form("grant_role", clear_on_submit=True):
    st.subheader(session.t("grant_role"))
    name = st.text_input(session.t("username"), key="grant_username")
    role = st.selectbox(session.t("role"), auth.ROLES, format_func=lambda r: session.t(f"role_{r}"))
    if st.form_submit_button(session.t("grant_role"), type="primary"):
        try:
            auth.grant_role(db, name.strip(), role)
            st.success(session.tm("role_granted", user=name.strip(), role=session.t(f"role_{role}")))
        except ReljudgeError as exc:
            session.error(exc)

others = [name for name in users.username if name != user.username]
if others:
    with st.form("revoke_role"):
        st.subheader(session.t("revoke_role"))
        name = st.selectbox(session.t("revoke_role_user"), others, key="revoke_username")
        if st.form_submit_button(session.t("revoke_role")):
            auth.revoke_role(db, name)
            session.flash(session.tm("role_revoked", user=name))
            st.rerun()

if db.schema:
    session.show_flash()
    st.caption(session.t("accounts_managed_in_default"))
    st.stop()

st.subheader(session.t("set_password"))
target = st.selectbox(session.t("username"), auth.account_names(db), key="manage_target")
with st.form("set_password"):
    new_password = st.text_input(session.t("password"), type="password", key="new_password")
    if st.form_submit_button(session.t("set_password")):
        try:
            auth.set_password(db, target, new_password, user.username)
            st.success(session.t("done"))
        except ReljudgeError as exc:
            session.error(exc)
if target != user.username:
    if auth.is_active(db, target):
        if st.button(session.t("deactivate"), key="deactivate"):
            auth.set_active(db, target, False)
            st.rerun()
    elif st.button(session.t("activate"), key="activate"):
        auth.set_active(db, target, True)
        st.rerun()

# Organisation login (docs/org-login.md#조직-계정-로그인--organisation-login): the e-mail an account
# signs in with, and the identities refused for want of an account.
emails = auth.accounts.emails(db)
with st.form("set_email"):
    email = st.text_input(
        session.t("account_email"),
        value=emails.get(target, ""),
        key=f"email_{target}",
        help=session.t("account_email_help"),
    )
    if st.form_submit_button(session.t("set_email")):
        try:
            auth.set_email(db, target, email, user.username)
            session.flash(session.t("done"))
            st.rerun()
        except ReljudgeError as exc:
            session.error(exc)

st.subheader(session.t("identity_requests"))
waiting = auth.identity_requests(db)
if waiting.empty:
    st.caption(session.t("no_identity_requests"))
else:
    tables.dataframe(waiting, name="identity_requests")
    with st.form("admit_identity"):
        identity = st.selectbox(session.t("identity_email"), list(waiting.email), key="identity_target")
        new_name = st.text_input(session.t("username"), key="identity_username")
        new_role = st.selectbox(
            session.t("role"), auth.ROLES, format_func=lambda r: session.t(f"role_{r}"), key="identity_role"
        )
        admit = st.form_submit_button(session.t("activate_identity"), type="primary")
        dismiss = st.form_submit_button(session.t("dismiss_identity"))
    if admit or dismiss:
        try:
            if admit:
                admitted = auth.activate_identity(db, identity, new_name, new_role, user.username)
                session.flash(
                    session.tm(
                        "identity_activated",
                        email=identity,
                        user=admitted.username,
                        role=session.t(f"role_{admitted.role}"),
                    )
                )
            else:
                auth.dismiss_identity(db, identity)
                session.flash(session.t("done"))
            st.rerun()
        except ReljudgeError as exc:
            session.error(exc)

st.subheader(session.t("locked_accounts"))
locked = auth.locked_users(db)
if locked:
    to_unlock = st.selectbox(session.t("username"), locked, key="unlock_target")
    if st.button(session.t("unlock"), key="unlock"):
        auth.unlock(db, to_unlock, user.username)
        session.flash(session.t("unlocked", user=to_unlock))
        st.rerun()
else:
    st.caption(session.t("no_locked"))
session.show_flash()

st.subheader(session.t("active_sessions"))
sessions = auth.list_sessions(db)
tables.dataframe(sessions, name="sessions")
if not sessions.empty:
    ending = st.selectbox(
        session.t("active_sessions"),
        list(sessions.session_id),
        key="end_session_target",
        format_func=lambda s: f"{s} · {sessions.set_index('session_id').username[s]}",
    )
    if st.button(session.t("end_session"), key="end_session"):
        auth.end_session_by_id(db, ending)
        session.flash(session.t("session_ended", id=ending))
        st.rerun()

st.subheader(session.t("failed_logins"))
tables.dataframe(auth.failed_logins(db), name="failed_logins")
