"""Audit (lead): every event on a paragraph or a question verdict, oldest first, and
the lead's adjudications with their reasons."""

import streamlit as st

from reljudge import display
from reljudge.campaign import auth
from reljudge.campaign import adjudication
from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.campaign import quality
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("audit_title"))
questions = judging.all_questions(db)
if questions.empty:
    st.info(session.t("no_questions"))
    st.stop()
qids = list(questions.qid)
latest = judging.last_judged_question(db)  # open where the latest work happened
# Keyed: the default follows new work, but the lead's choice must not move with it.
qid = st.selectbox(
    session.t("question"),
    qids,
    index=qids.index(latest) if latest in qids else 0,
    key="audit_qid",
    format_func=lambda q: display.visible(f"{q} · {questions.set_index('qid').text[q][:60]}"),
)
labels, start = judging.audit_choices(db, qid, session.lang())
# Keyed per question: the labels carry event counts, and a judgment saved meanwhile
# must not reset the lead's choice.
pid = st.selectbox(
    session.t("paragraph"),
    list(labels),
    index=start,
    format_func=lambda k: display.visible(labels.get(k)),
    key=f"audit_pid_{qid}",
)
events = judging.history(db, qid, pid)
if events.empty:
    st.info(session.t("no_history"))
else:
    tables.dataframe(events, name="events")

decoys = quality.decoy_history(db, qid)
if not decoys.empty:  # grades on decoys placed in this question (never in the qrels)
    st.subheader(session.t("decoy_history"))
    tables.dataframe(decoys, name="decoy_events")

wordings = campaign.question_versions(db, qid)
if len(wordings) > 1:  # the question changed: which wording each judgment saw
    st.subheader(session.t("question_versions"))
    tables.dataframe(wordings, name="question_wordings")

st.subheader(session.t("adjudication_history"))
rulings = adjudication.history_table(db, qid)
if rulings.empty:
    st.info(session.t("no_adjudications"))
else:
    tables.dataframe(rulings, name="adjudications_question")
with st.expander(session.t("all_adjudications")):
    tables.dataframe(adjudication.history_table(db, None), name="adjudications_all")

st.subheader(session.t("failed_logins"))
tables.dataframe(auth.failed_logins(db), name="failed_logins")
