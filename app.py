"""reljudge — Streamlit entry point: login, then the pages the user's role may see."""

import streamlit as st

from reljudge.ui import session

# (file in pages/, title key, icon); the URL of each page is its file name.
ANNOTATOR_PAGES = [("judge", "nav_judge", ":material/edit_note:")]
LEAD_PAGES = [
    ("dashboard", "nav_dashboard", ":material/monitoring:"),
    ("overview", "nav_overview", ":material/checklist:"),
    ("import_data", "nav_import", ":material/upload_file:"),
    ("assign", "nav_assign", ":material/assignment_ind:"),
    ("agreement", "nav_agreement", ":material/handshake:"),
    ("adjudicate", "nav_adjudicate", ":material/balance:"),
    ("export", "nav_export", ":material/download:"),
    ("users", "nav_users", ":material/group:"),
    ("audit", "nav_audit", ":material/history:"),
]

session.route_through_app()
st.set_page_config(page_title="reljudge", page_icon="⚖️", layout="wide")

db = session.get_db()
user = session.current_user(db)
session.language_switch(logged_in=user is not None)

if user is None:
    # Every address shows the login form; after logging in the user lands on the page
    # the address names (if their role has it).
    session.clear_cookie_if_logged_out()
    st.navigation(session.login_pages(db, [name for name, _, _ in ANNOTATOR_PAGES + LEAD_PAGES]),
                  position="hidden").run()
    st.stop()

session.write_session_cookie()
session.logout_button(db, user)

allowed = ANNOTATOR_PAGES + (LEAD_PAGES if user.is_lead else [])
st.navigation([st.Page(f"pages/{name}.py", title=session.t(title), icon=icon, default=name == "judge")
               for name, title, icon in allowed]).run()
