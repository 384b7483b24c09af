"""Judging: the annotator's current question, judged with the keyboard."""

import streamlit as st

from reljudge.ui import judge_widget, session

user = session.require_role("annotator", "lead")
db = session.get_db()

st.title(session.t("judge_title"))
judge_widget.question_picker(db, user.username, session.lang())
judge_widget.render(db, user.username, session.lang())
