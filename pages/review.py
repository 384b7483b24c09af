"""Answer review: the reviewer's current generated answer, checked with the keyboard."""

import streamlit as st

from reljudge.ui import review_widget, session

user = session.require_role("annotator", "lead")
db = session.get_db()

st.title(session.t("review_title"))
review_widget.answer_picker(db, user.username, session.lang())
review_widget.render(db, user.username, session.lang())
