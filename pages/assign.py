"""Assignments (lead): who judges which question, with overlap for agreement."""

import streamlit as st

from reljudge import assignment, campaign, display, i18n
from reljudge.errors import ReljudgeError
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("assign_title"))
st.caption(session.t("assign_help"))

annotators = assignment.active_annotators(db)
# Outside the form, so the share below can switch off at once: with two or more
# annotators on every question, every question is double-judged already.
per_question = st.number_input(session.t("per_question"), min_value=1, max_value=10, value=1)
with st.form("assign"):
    chosen = st.multiselect(session.t("annotators"), annotators, default=annotators,
                            format_func=display.visible)
    double_share = st.slider(session.t("double_share"), 0.0, 1.0, 0.2, 0.05, disabled=per_question > 1,
                             help=session.t("double_share_off") if per_question > 1 else None)
    by_type = st.checkbox(session.t("by_type"), value=True)
    preview = st.form_submit_button(session.t("preview"))
    apply = st.form_submit_button(session.t("apply"), type="primary")
if preview or apply:
    try:
        options = dict(per_question=int(per_question), double_share=0.0 if per_question > 1 else double_share,
                       by_type=by_type)
        if apply:
            result = assignment.assign(db, user.username, chosen, **options)
            st.success(session.tm("assigned", msg=i18n.message(result.messages(), session.lang())))
        else:
            result = assignment.preview(db, chosen, **options)
            st.info(display.md(i18n.message(result.messages(), session.lang())))
        tables.dataframe(result.loads, name="assignment_loads")
    except ReljudgeError as exc:
        session.error(exc)

st.subheader(session.t("reassign"))
with st.form("reassign"):
    leaving = st.selectbox(session.t("annotators"), annotators, format_func=display.visible)
    if st.form_submit_button(session.t("reassign_button")):
        try:
            moved = assignment.reassign(db, user.username, leaving)
            st.success(session.t("reassigned", n=len(moved)))
            tables.dataframe(moved, name="reassigned")
        except ReljudgeError as exc:
            session.error(exc)

st.subheader(session.t("current_assignments"))
current = assignment.active_assignments(db)
if current.empty:
    st.info(session.t("no_assignments"))
else:
    tables.dataframe(current, name="assignments")

st.subheader(session.t("judging_display"))
highlight_on = campaign.settings(db)["highlight"] == "on"
wanted = st.toggle(session.t("highlight_toggle"), value=highlight_on, key="highlight_setting",
                   help=session.t("highlight_help"))
st.caption(session.t("highlight_help"))
if wanted != highlight_on:
    campaign.set_highlight(db, wanted)
