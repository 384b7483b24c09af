"""Assignments (lead): who judges which question, with overlap for agreement."""

import streamlit as st

from reljudge import display
from reljudge.campaign import assignment
from reljudge.campaign import setup as campaign
from reljudge.errors import ReljudgeError
from reljudge.ui import lead_forms, navigation, session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("assign_title"))
session.show_flash()
st.caption(session.t("assign_help"))

annotators = assignment.active_annotators(db)
lead_forms.overlap_plan(
    annotators,
    "annotators",
    lambda chosen, **o: assignment.preview(db, chosen, **o),
    lambda chosen, **o: assignment.assign(db, user.username, chosen, **o),
    "assigned",
    "assignment_loads",
)

st.subheader(session.t("reassign"))
with st.form("reassign"):
    leaving = st.selectbox(
        session.t("annotators"),
        annotators,
        index=navigation.reassign_choice(list(annotators)),
        format_func=display.visible,
    )
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
wanted = st.toggle(
    session.t("highlight_toggle"), value=highlight_on, key="highlight_setting", help=session.t("highlight_help")
)
st.caption(session.t("highlight_help"))
if wanted != highlight_on:
    campaign.set_highlight(db, wanted)

st.subheader(session.t("plan_title"))
lead_forms.plan_form(db)
lead_forms.plan_estimate(db)

st.subheader(session.t("decoys_header"))
lead_forms.decoy_form(db, "assign_decoys")
