"""Progress and agreement (lead): per annotator and question type, speed, kappa and alpha."""

import streamlit as st

from reljudge import agreement, judging, outcome_agreement
from reljudge.storage import team
from reljudge import charts
from reljudge.ui import session

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("agreement_title"))
st.dataframe(judging.progress_by_annotator(db), hide_index=True, width="stretch")

st.subheader(session.t("speed"))
fast = st.number_input(session.t("fast_threshold"), min_value=0.5, max_value=60.0, value=2.0, step=0.5)
st.dataframe(team.judging_speed(db, int(fast * 1000)), hide_index=True, width="stretch")

st.subheader(session.t("annotator_summary"))
st.dataframe(agreement.annotator_summary(team.current_grades(db), team.current_verdict_rows(db)),
             hide_index=True, width="stretch")

report = agreement.from_database(db)
st.subheader(session.t("agreement_figures"))
st.dataframe(agreement.figures_table(report), hide_index=True, width="stretch")

st.subheader(session.t("pairwise"))
weights = st.radio(session.t("weights"), ["none", "linear"], horizontal=True)
matrix = agreement.pairwise_matrix(report.grades, None if weights == "none" else "linear")
if matrix.notna().any().any():
    st.altair_chart(charts.heatmap(matrix, session.t("pairwise")), width="stretch")
st.dataframe(matrix)

st.subheader(session.t("outcome_title"))
outcome = outcome_agreement.outcome_agreement(db)
st.caption(session.t("outcome_caption", measure=outcome.measure))
st.dataframe(outcome.mrr, width="stretch")
st.write({pair: None if tau is None else round(tau, 3) for pair, tau in outcome.kendall_tau.items()})
st.dataframe(outcome.flagged, hide_index=True, width="stretch")
