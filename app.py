"""reljudge — Streamlit entry point: login, then the pages the user's role may see."""

import streamlit as st

from reljudge.ui import session

st.set_page_config(page_title="reljudge", page_icon="⚖️", layout="wide")

db = session.get_db()
user = session.current_user(db)
session.language_switch(logged_in=user is not None)

if user is None:
    session.clear_cookie_if_logged_out()
    session.login_form(db)
    st.stop()

session.write_session_cookie()
session.logout_button(db, user)

pages = [st.Page("pages/judge.py", title=session.t("nav_judge"), icon=":material/edit_note:", default=True)]
if user.is_lead:
    pages += [
        st.Page("pages/dashboard.py", title=session.t("nav_dashboard"), icon=":material/monitoring:"),
        st.Page("pages/overview.py", title=session.t("nav_overview"), icon=":material/checklist:"),
        st.Page("pages/import_data.py", title=session.t("nav_import"), icon=":material/upload_file:"),
        st.Page("pages/assign.py", title=session.t("nav_assign"), icon=":material/assignment_ind:"),
        st.Page("pages/agreement.py", title=session.t("nav_agreement"), icon=":material/handshake:"),
        st.Page("pages/adjudicate.py", title=session.t("nav_adjudicate"), icon=":material/balance:"),
        st.Page("pages/export.py", title=session.t("nav_export"), icon=":material/download:"),
        st.Page("pages/users.py", title=session.t("nav_users"), icon=":material/group:"),
        st.Page("pages/audit.py", title=session.t("nav_audit"), icon=":material/history:"),
    ]
st.navigation(pages).run()
