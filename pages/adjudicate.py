"""Adjudication (lead): the disagreement queue, final grades with reasons, frozen versions."""

import streamlit as st

from reljudge import policy as policies
from reljudge import display, i18n
from reljudge.campaign import adjudication, quality
from reljudge.errors import ReljudgeError
from reljudge.ui import lead_forms, session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("adjudicate_title"))
session.show_flash()
queue = adjudication.queue(db)
if queue.empty:
    st.info(session.t("queue_empty"))
else:
    st.caption(session.t("queue_n", n=len(queue)))
    labels = adjudication.queue_labels(queue)
    # Options are (qid, pid): a queue that moves while the lead reads cannot shift the choice.
    qid, pid = st.selectbox(session.t("paragraph"), list(labels), format_func=lambda k: display.visible(labels.get(k)))
    item = adjudication.queue_item(queue, qid, pid)
    st.markdown(f"**{session.t('question')}**")
    # data: st.text (plain, never Markdown/HTML), invisible characters shown as marks
    st.text(display.visible(item.question))
    if item.criteria:
        st.markdown(f"**{session.t('criteria')}**")
        st.text(display.visible(item.criteria))
    st.markdown(f"**{session.t('paragraph')}** {display.md(item.pid)}")
    st.text(display.visible(item.paragraph))
    if item.changes_first:
        st.caption(session.t("changes_first"))
    st.markdown(f"**{session.t('grades_given')}**")
    st.text(display.visible(item.grades))
    if item.notes:
        st.markdown(f"**{session.t('notes_given')}**")
        for note in item.notes:
            st.text(display.visible(note))
    if item.evidence:
        st.markdown(f"**{session.t('evidence_given')}**")
        for span in item.evidence:
            st.text(display.visible(span))
    lead_forms.final_grade(
        "adjudicate",
        f"{qid}_{pid}",
        lambda g: session.t(f"grade{g}"),
        lambda grade, reason: adjudication.adjudicate(db, user.username, item.qid, item.pid, grade, reason),
        f"{item.qid} · {item.pid}",
    )

st.subheader(session.t("use_as_gold_title"))
rulings = quality.adjudicated_not_gold(db)
if rulings.empty:
    st.caption(session.t("use_as_gold_none"))
else:
    with st.form("use_as_gold"):
        choices = {(r.qid, r.pid): int(r.grade) for r in rulings.itertuples()}
        chosen = st.selectbox(
            session.t("paragraph"),
            list(choices),
            format_func=lambda k: display.visible(f"{k[0]} · {k[1]} · {session.t(f'grade{choices[k]}')}"),
        )
        if st.form_submit_button(session.t("use_as_gold")):
            quality.use_as_gold(db, chosen[0], chosen[1], choices[chosen], user.username)
            session.flash(session.tm("used_as_gold", item=f"{chosen[0]} · {chosen[1]}"))
            st.rerun()

st.subheader(session.t("verdict_queue"))
verdicts = adjudication.verdict_queue(db)
if verdicts.empty:
    st.info(session.t("queue_empty"))
else:
    tables.dataframe(verdicts, name="verdict_disagreements")
    with st.form("adjudicate_verdict", clear_on_submit=True):
        qid = st.selectbox(session.t("question"), list(verdicts.qid), format_func=display.visible)
        no_answer = st.checkbox(session.t("final_no_answer"))
        reason = st.text_input(session.t("reason"))
        if st.form_submit_button(session.t("save_adjudication")):
            if not reason.strip():
                st.error(session.t("reason_needed"))
            else:
                try:
                    adjudication.adjudicate_verdict(db, user.username, qid, no_answer, reason)
                    session.flash(
                        session.tm("adjudicated", item=qid, ruling=i18n.verdict_text(no_answer, session.lang()))
                    )
                    st.rerun()
                except ReljudgeError as exc:
                    session.error(exc)

st.subheader(session.t("freeze_title"))
with st.form("freeze", clear_on_submit=True):  # an empty note after a freeze: no accidental twin
    policy = st.selectbox(
        session.t("policy"),
        ["adjudicated", "majority"],
        format_func=lambda p: policies.qrels_label(p, None, session.lang()),
    )
    note = st.text_input(session.t("freeze_note"))
    if st.form_submit_button(session.t("freeze_button")):
        try:
            st.success(session.t("frozen", v=adjudication.freeze(db, user.username, policy, note or None)))
        except ReljudgeError as exc:
            session.error(exc)
st.caption(session.t("versions"))
tables.dataframe(adjudication.versions(db), name="qrels_versions")
