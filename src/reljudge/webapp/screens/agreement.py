"""Progress and agreement (lead): per annotator and question type, speed, kappa and alpha."""

import streamlit as st

from reljudge import agreement, charts, judging, outcome_agreement
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("agreement_title"))
tables.dataframe(judging.progress_by_annotator(db))

st.subheader(session.t("speed"))
fast = st.number_input(session.t("fast_threshold"), min_value=0.5, max_value=60.0, value=2.0, step=0.5)
tables.dataframe(agreement.judging_speed(db, int(fast * 1000)))

st.subheader(session.t("annotator_summary"))
tables.dataframe(agreement.annotators_from_database(db))

report = agreement.from_database(db)
st.subheader(session.t("agreement_figures"))
tables.dataframe(agreement.figures_table(report))

st.subheader(session.t("pairwise"))
weights = st.radio(session.t("weights"), ["none", "linear"], horizontal=True,
                   format_func=lambda w: session.t(f"weights_{w}"))
matrix = agreement.pairwise_matrix(report.grades, None if weights == "none" else "linear")
if matrix.notna().any().any():
    st.altair_chart(charts.heatmap(matrix, session.t("pairwise")), width="content")
tables.dataframe(matrix, hide_index=False)

st.subheader(session.t("outcome_title"))
outcome = outcome_agreement.outcome_agreement(db)
st.caption(session.t("outcome_caption", measure=outcome.measure))
tables.dataframe(outcome.mrr, hide_index=False)
tables.dataframe(outcome.tau_table())
tables.dataframe(outcome.flagged)
