"""Live metrics (lead): every measure per system × question type, with intervals,
shares, abstention, coverage and the failure cases — recomputed from the judgments."""

import streamlit as st

from reljudge import policy as policies
from reljudge import display, i18n
from reljudge.campaign import setup as campaign
from reljudge.reporting import charts
from reljudge.reporting import dashboard
from reljudge.campaign import evaluation
from reljudge.reporting import report_answers
from reljudge.ui import dashboard_view, session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("dashboard_title"))
REFRESH_S = 15

ks = evaluation.settings_ks(db)
cols = st.columns(4)
k = cols[0].selectbox(session.t("k"), ks, index=len(ks) - 1)
threshold = cols[1].selectbox(session.t("threshold"), [2, 1])
choices = dashboard.qrels_choices(db)
policy, version = cols[2].selectbox(
    session.t("qrels_choice"),
    choices,
    format_func=lambda c: display.visible(policies.qrels_label(c[0], c[1], session.lang())),
)
qtypes = cols[3].multiselect(
    session.t("qtypes"), dashboard.question_types(db), placeholder=session.t("all"), format_func=display.visible
)
systems = st.multiselect(
    session.t("systems"), list(campaign.list_runs(db).system), placeholder=session.t("all"), format_func=display.visible
)


@st.fragment(run_every=REFRESH_S)
def live():
    session.require_role("lead")  # the refresh reruns only this fragment
    with dashboard.one_reading(db):
        show_live()


def show_live():
    ev = dashboard.evaluate_for_dashboard(db, k, threshold, policy, version)
    p = ev.result.policies
    st.caption(
        session.tm(
            "dashboard_caption",
            s=REFRESH_S,
            rel=threshold,
            qrels=policies.qrels_label(policy, version, session.lang()),
            ties=session.t(f"report_ties_{p['ties']}"),
            dedup=session.t(f"report_dedup_{p['dedup']}"),
        )
    )
    if ev.n_qrels == 0:
        st.info(session.t("no_judgments_yet"))
    else:
        used = dashboard.questions_used(db, ev)
        (st.info if used["unjudged"] else st.caption)(session.t("questions_used", **used))
        contested = dashboard.contested_no_answer(db, policy, version, threshold)
        if contested:
            st.warning(session.tm("contested_no_answer", t=threshold, qids=", ".join(contested)))
    # one value per measure with its bounds, settled or provisional; nothing judged yet is
    # still something to show: every figure provisional, its bounds open
    st.subheader(session.t("glance_title"))
    status = dashboard.measure_status(ev, k, qtypes or None, systems or None)
    tables.dataframe(dashboard_view.glance(status), name="means")
    st.caption(session.t("glance_note", **dashboard.pool_judged(ev)))
    # under a sampling plan: what "추정" (estimated) means (docs/sampling.md)
    if note := dashboard_view.estimate_note(status):
        st.caption(note)
    if stale := dashboard.stale_draws(ev):
        st.warning(session.tm("estimates_out_of_date", qids=", ".join(stale)))
    st.markdown(dashboard_view.plan_sentence(dashboard.plan_summary(db, ev, k)))
    chart = dashboard.chart_frame(ev, k, "RR", qtypes, systems)
    if not chart.empty:
        measure = dashboard.label("RR", k)
        st.caption(session.t("bounds_chart_title", m=measure))
        st.altair_chart(dashboard_view.bounds_chart(chart, measure))
    if ev.n_qrels == 0:
        return
    table = dashboard.summary_table(ev, k, qtypes or None, systems or None)
    st.subheader(session.t("sample_title"))
    st.caption(session.t("sample_note"))
    tables.dataframe(dashboard.sample_table(table), name="sample")
    if not table.empty and table.few_questions.any():
        st.caption(session.t("few_questions_note", m=dashboard.FEW_QUESTIONS_BELOW))
    family = st.radio(
        session.t("chart_measure"),
        dashboard.chart_families(),
        horizontal=True,
        format_func=lambda f: "MRR" if f == "RR" else f,
    )
    intervals = tables.localized(dashboard.chart_frame(ev, k, family, qtypes, systems))
    st.altair_chart(charts.means_with_intervals(intervals, dashboard.label(family, k)))
    st.subheader(session.t("counts_title"))
    tables.dataframe(dashboard.counts_table(table), name="counts")

    nothing = dashboard.nothing_citable(db, ev, k)
    if not nothing.empty:
        st.subheader(session.t("nothing_citable_title"))
        st.caption(session.t("nothing_citable_note", t=threshold, k=k))
        tables.dataframe(nothing, name="nothing_citable")
    st.subheader(session.t("abstention"))
    tables.dataframe(dashboard.abstention_table(ev), name="abstention")
    st.subheader(session.t("tests"))
    tables.dataframe(dashboard.tests_table(ev), name="tests")
    st.caption(i18n.test_procedure(dashboard.test_procedure(ev), session.lang()))

    st.subheader(session.t("failures"))
    fails = dashboard.failure_cases(db, ev, k, systems or None)
    tables.dataframe(fails, name="failures")
    if not fails.empty:
        qid = st.selectbox(session.t("failure_pick"), sorted(set(fails.qid)), format_func=display.visible)
        tables.dataframe(dashboard.question_detail(db, ev, qid, k), name="question_detail")


live()


st.header(session.t("answers_title"))
answers = report_answers.build(db, session.lang())
if answers is None:
    st.info(session.t("answers_none"))
else:
    tables.dataframe(answers.disclosure_frame(), name="answer_review_disclosure")
    st.subheader(session.t("answers_means"))
    tables.dataframe(answers.measures, name="answer_measures")
    st.subheader(session.t("answers_counts"))
    st.caption(session.t("answers_counts_text"))
    tables.dataframe(answers.counts, name="answer_counts")
    st.subheader(session.t("answers_agreement"))
    tables.dataframe(answers.agreement, name="answer_agreement")
    tables.dataframe(answers.pairs, name="answer_agreement_pairs")
    st.subheader(session.t("answers_failures"))
    tables.dataframe(answers.failures, name="answer_failures")
