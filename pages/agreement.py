"""Progress and agreement (lead): per annotator and question type, speed, kappa and alpha."""

import streamlit as st

from reljudge import display
from reljudge.campaign import team_agreement
from reljudge.agreement import coefficients as agreement
from reljudge.reporting import charts
from reljudge.campaign import outcome_agreement
from reljudge.campaign import progress
from reljudge.judges import calibration
from reljudge.reporting import judge_tables
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("agreement_title"))
tables.dataframe(progress.by_annotator(db), name="progress")

st.subheader(session.t("speed"))
fast = st.number_input(session.t("fast_threshold"), min_value=0.5, max_value=60.0, value=2.0, step=0.5)
tables.dataframe(team_agreement.judging_speed(db, int(fast * 1000)), name="judging_speed")

st.subheader(session.t("annotator_summary"))
tables.dataframe(team_agreement.annotators_from_database(db), name="annotators")

report = team_agreement.from_database(db)
st.subheader(session.t("agreement_figures"))
tables.dataframe(agreement.figures_table(report), name="agreement_figures")

st.subheader(session.t("pairwise"))
weights = st.radio(
    session.t("weights"), ["none", "linear"], horizontal=True, format_func=lambda w: session.t(f"weights_{w}")
)
matrix = agreement.pairwise_matrix(report.grades, None if weights == "none" else "linear")
if matrix.notna().any().any():
    st.altair_chart(charts.heatmap(matrix, session.t("pairwise")), width="content")
tables.dataframe(matrix, hide_index=False, name="pairwise_agreement")

st.subheader(session.t("outcome_title"))
outcome = outcome_agreement.outcome_agreement(db)
st.caption(session.t("outcome_caption", measure=outcome.measure))
tables.dataframe(outcome.mrr, hide_index=False, name="outcome_mrr")
tables.dataframe(outcome.tau_table(), name="outcome_tau")
tables.dataframe(outcome.flagged, name="outcome_flagged")

st.subheader(session.t("judge_panel_title"))
model_sources = judge_tables.model_sources(db)
if not model_sources:
    st.info(session.t("judge_none"))
else:
    source = st.selectbox(session.t("judge_pick"), model_sources)
    against = st.selectbox(
        session.t("judge_reference"), judge_tables.reference_choices(db, source), key="judge_reference"
    )
    result = calibration.calibrate(db, source, against)
    st.caption(judge_tables.use_note(session.lang()))
    for line in judge_tables.info(result, session.lang()):
        st.caption(display.md(line))
    tables.dataframe(judge_tables.figures_frame(result), name="model_vs_people")
    st.caption(session.t("judge_confusion"))
    tables.dataframe(judge_tables.confusion_frame(result), hide_index=False, name="model_vs_people_confusion")
    st.caption(session.t("judge_outcome"))
    tables.dataframe(judge_tables.outcome_frame(result), name="model_vs_people_outcome")

st.subheader(session.t("answers_agreement"))
reviews = team_agreement.reviews_from_database(db)
review_figures = agreement.figures_table(reviews)
if review_figures.empty:
    st.info(session.t("answers_none"))
else:
    tables.dataframe(review_figures, name="review_agreement")
    tables.dataframe(agreement.pairs_table(reviews), name="review_agreement_pairs")
