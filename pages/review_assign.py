"""Review assignments (lead): who reviews which question's answers, with overlap for agreement."""

import streamlit as st

from reljudge.campaign import assignment
from reljudge.review import assignment as review_assignment
from reljudge.ui import lead_forms, session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("review_assign_title"))
st.caption(session.t("review_assign_help"))

reviewers = assignment.active_annotators(db)
lead_forms.overlap_plan(
    reviewers,
    "reviewers",
    lambda chosen, **o: review_assignment.preview_reviews(db, chosen, **o),
    lambda chosen, **o: review_assignment.assign_reviews(db, user.username, chosen, **o),
    "review_assigned",
    "review_assignment_loads",
    key="review_assign",
)

st.subheader(session.t("current_assignments"))
current = review_assignment.active_review_assignments(db)
if current.empty:
    st.info(session.t("no_review_assignments"))
else:
    tables.dataframe(current, name="review_assignments")
