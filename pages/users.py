"""Users (lead): add accounts, change passwords, deactivate."""

import streamlit as st

from reljudge import auth
from reljudge.errors import ReljudgeError
from reljudge.ui import session

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("users_title"))
users = auth.list_users(db)
st.dataframe(users, hide_index=True, width="stretch")

with st.form("add_user", clear_on_submit=True):
    st.subheader(session.t("add_user"))
    name = st.text_input(session.t("username"))
    password = st.text_input(session.t("password"), type="password")
    role = st.selectbox(session.t("role"), auth.ROLES, format_func=lambda r: session.t(f"role_{r}"))
    if st.form_submit_button(session.t("add_user"), type="primary"):
        try:
            auth.add_user(db, name, password, role)
            st.success(session.t("user_added", user=name))
        except ReljudgeError as exc:
            st.error(str(exc))

with st.form("manage_user"):
    st.subheader(session.t("set_password"))
    target = st.selectbox(session.t("username"), list(users.username))
    new_password = st.text_input(session.t("password"), type="password", key="new_password")
    active = st.toggle(session.t("activate"), value=True)
    if st.form_submit_button(session.t("done")):
        try:
            if new_password:
                auth.set_password(db, target, new_password)
            if target != user.username:
                auth.set_active(db, target, active)
            st.success(session.t("done"))
        except ReljudgeError as exc:
            st.error(str(exc))
