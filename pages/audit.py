"""Audit (lead): every event on a paragraph or a question verdict, oldest first."""

import streamlit as st

from reljudge import judging
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("audit_title"))
questions = judging.all_questions(db)
if questions.empty:
    st.info(session.t("no_questions"))
    st.stop()
qid = st.selectbox(session.t("question"), list(questions.qid),
                   format_func=lambda q: f"{q} · {questions.set_index('qid').text[q][:60]}")
paragraphs = judging.pool_paragraphs(db, qid)
pid = st.selectbox(session.t("paragraph"), [None] + list(paragraphs.pid),
                   format_func=lambda p: session.t("no_answer") if p is None else
                   f"{p} · {paragraphs.set_index('pid').text[p]}")
events = judging.history(db, qid, pid)
if events.empty:
    st.info(session.t("no_history"))
else:
    tables.dataframe(events)
