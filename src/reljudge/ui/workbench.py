"""reljudge — the Streamlit script (served by app.py): login, then the pages the user's
role may see."""

import streamlit as st

from reljudge.ui import navigation, session

st.set_page_config(page_title="reljudge", page_icon="⚖️", layout="wide")
session.uploader_in_language()

db = session.get_db()
try:
    user = session.current_user(db)
    session.language_switch(logged_in=user is not None)

    if user is None:
        # Every address shows the login form; after logging in the user lands on the page
        # the address names (if their role has it).
        session.clear_cookie_if_logged_out()
        st.navigation(session.login_pages(db, navigation.all_addresses()), position="hidden").run()
        st.stop()

    session.write_session_cookie()
    session.logout_button(db, user)

    st.navigation([st.Page(f"screens/{name}.py", title=session.t(title), icon=icon,
                           default=name == navigation.DEFAULT_PAGE)
                   for name, title, icon in navigation.pages_for(user.is_lead)],
                  # every page listed: with more than ten, Streamlit folds the rest behind its
                  # English "View N more" button
                  expanded=True).run()
except Exception as exc:               # a lost PostgreSQL server: said plainly, retried on rerun
    if not session.show_lost_database(db, exc):
        raise
