"""Review assignments (lead): who reviews which question's answers, with overlap for agreement."""

import streamlit as st

from reljudge import assignment, display, i18n, review
from reljudge.errors import ReljudgeError
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("review_assign_title"))
st.caption(session.t("review_assign_help"))

reviewers = assignment.active_annotators(db)
# Outside the form, so the share below can switch off at once (as on the judging assignments).
per_question = st.number_input(session.t("per_question"), min_value=1, max_value=10, value=1, key="rv_per_question")
with st.form("review_assign"):
    chosen = st.multiselect(session.t("reviewers"), reviewers, default=reviewers, format_func=display.visible)
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
            result = review.assign_reviews(db, user.username, chosen, **options)
            st.success(session.tm("review_assigned", msg=i18n.message(result.messages(), session.lang())))
        else:
            result = review.preview_reviews(db, chosen, **options)
            st.info(display.md(i18n.message(result.messages(), session.lang())))
        tables.dataframe(result.loads, name="review_assignment_loads")
    except ReljudgeError as exc:
        session.error(exc)

st.subheader(session.t("current_assignments"))
current = review.active_review_assignments(db)
if current.empty:
    st.info(session.t("no_review_assignments"))
else:
    tables.dataframe(current, name="review_assignments")
