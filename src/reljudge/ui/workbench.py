"""reljudge — the Streamlit script (served by app.py): login, then the pages the user's
role may see."""

import sys

import streamlit as st

from reljudge.ui import navigation, profiling, session

run = profiling.start()
st.set_page_config(page_title="reljudge", page_icon="⚖️", layout="wide")
session.uploader_in_language()

db = session.get_db()
try:
    run.phase("user")
    user = session.current_user(db)
    run.phase("sidebar")
    session.language_switch(logged_in=user is not None)

    if user is None:
        # Every address shows the login form; after logging in the user lands on the page
        # the address names (if their role has it).
        session.clear_cookie_if_logged_out()
        run.phase("navigation")
        page = st.navigation(session.login_pages(db, navigation.all_addresses()), position="hidden")
        run.note(page=page.url_path, user=None)
        run.phase("login")
        page.run()
        st.stop()

    session.write_session_cookie()
    session.logout_button(db, user)
    run.phase("navigation")
    page = st.navigation([st.Page(f"screens/{name}.py", title=session.t(title), icon=icon,
                                  default=name == navigation.DEFAULT_PAGE)
                          for name, title, icon in navigation.pages_for(user.is_lead)],
                         # every page listed: with more than ten, Streamlit folds the rest behind its
                         # English "View N more" button
                         expanded=True)
    run.note(page=page.url_path, user=user.username)
    run.phase("page")
    page.run()
except Exception as exc:               # a lost PostgreSQL server: said plainly, retried on rerun
    if not session.show_lost_database(db, exc):
        raise
finally:
    run.finish(profiling.ended(sys.exc_info()[1]))
