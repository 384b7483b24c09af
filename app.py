"""reljudge — Streamlit entry point: login, then the pages the user's role may see."""

import streamlit as st

from reljudge.ui import session

st.set_page_config(page_title="reljudge", page_icon="⚖️", layout="wide")

db = session.get_db()
session.language_switch()
user = session.current_user(db)

if user is None:
    session.clear_cookie_if_logged_out()
    session.login_form(db)
    st.stop()

session.write_session_cookie()
session.logout_button(db, user)

pages = [st.Page("pages/judge.py", title=session.t("nav_judge"), icon="✍️", default=True)]
if user.is_lead:
    pages += [
        st.Page("pages/dashboard.py", title=session.t("nav_dashboard"), icon="📈"),
        st.Page("pages/overview.py", title=session.t("nav_overview"), icon="📊"),
        st.Page("pages/import_data.py", title=session.t("nav_import"), icon="📥"),
        st.Page("pages/assign.py", title=session.t("nav_assign"), icon="🗂️"),
        st.Page("pages/agreement.py", title=session.t("nav_agreement"), icon="🤝"),
        st.Page("pages/adjudicate.py", title=session.t("nav_adjudicate"), icon="⚖️"),
        st.Page("pages/export.py", title=session.t("nav_export"), icon="📤"),
        st.Page("pages/users.py", title=session.t("nav_users"), icon="👥"),
        st.Page("pages/audit.py", title=session.t("nav_audit"), icon="🧾"),
    ]
st.navigation(pages).run()
