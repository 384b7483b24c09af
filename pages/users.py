"""Users (lead): add accounts, change passwords, deactivate."""

import streamlit as st

from reljudge import auth
from reljudge.errors import ReljudgeError
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("users_title"))
users = auth.list_users(db)
tables.dataframe(users)

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
            session.error(str(exc))

st.subheader(session.t("set_password"))
target = st.selectbox(session.t("username"), list(users.username), key="manage_target")
with st.form("set_password"):
    new_password = st.text_input(session.t("password"), type="password", key="new_password")
    if st.form_submit_button(session.t("set_password")):
        try:
            auth.set_password(db, target, new_password)
            st.success(session.t("done"))
        except ReljudgeError as exc:
            session.error(str(exc))
if target != user.username:
    if auth.is_active(db, target):
        if st.button(session.t("deactivate"), key="deactivate"):
            auth.set_active(db, target, False)
            st.rerun()
    elif st.button(session.t("activate"), key="activate"):
        auth.set_active(db, target, True)
        st.rerun()
