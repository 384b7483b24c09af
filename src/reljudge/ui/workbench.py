"""reljudge — the Streamlit script (served by app.py): login, then the pages the user's
role may see, each at its own address (reljudge.ui.navigation)."""

import sys

import streamlit as st

from reljudge.ui import navigation, profiling, session

run = profiling.start()
session.begin_run()
try:
    st.set_page_config(page_title="reljudge", page_icon="⚖️", layout="wide")
    session.uploader_in_language()
    db = session.get_db()
    try:
        run.phase("user")
        user = session.current_user(db)
        if user is not None and session.logging_in():
            user = None  # until the browser has stored its cookie (session.login_screen)
        run.phase("sidebar")
        session.language_switch(logged_in=user is not None)
        # the address the browser asked for (None when the client is not a browser page)
        requested = navigation.address(st.context.url, st.get_option("server.baseUrlPath"))

        if user is None:
            # Every address shows the login form; after logging in the user lands on the page
            # the address names (if their role has it).
            session.clear_cookie_if_logged_out()
            run.phase("navigation")
            page = st.navigation(
                navigation.login_pages(
                    # accounts are shared by the campaigns: log in where every account is
                    lambda target: session.login_screen(session.accounts_db(), target),
                    session.t("login_title"),
                    requested,
                ),
                position="hidden",
            )
        else:
            session.logout_button(db, user)
            session.campaign_picker(user)
            run.phase("navigation")
            page = st.navigation(
                navigation.app_pages(user.is_lead, session.t, requested),
                # every page listed: with more than ten, Streamlit folds the rest behind
                # its English "View N more" button
                expanded=True,
            )
        run.note(page=page.url_path, user=user.username if user else None)
        navigation.show_notice(session.tm)
        session.show_campaign_notice()
        run.phase("page" if user else "login screen")
        page.run()
    except Exception as exc:  # a lost PostgreSQL server: said plainly, retried on rerun
        if not session.show_lost_database(db, exc):
            raise
finally:
    session.end_run()
    run.finish(profiling.ended(sys.exc_info()[1]))
