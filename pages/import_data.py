"""Import (lead): upload a corpus, questions or a run; rebuild the pool."""

import streamlit as st

from reljudge import campaign, i18n, times
from reljudge.errors import ReljudgeError
from reljudge.ui import session, tables, uploads

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("import_title"))
counts = st.empty()          # filled after the form, so it includes what was just imported

with st.form("import", clear_on_submit=True):
    kind = st.selectbox(session.t("import_kind"), campaign.KINDS,
                        format_func=lambda k: session.t(f"kind_{k}"))
    upload = st.file_uploader(session.t("file"), type=["jsonl", "json", "csv", "tsv", "txt", "trec", "run"])
    fmt = st.selectbox(session.t("format"), ["", "jsonl", "csv", "trec", "beir"],
                       format_func=lambda f: f or session.t("format_auto"))
    system = st.text_input(session.t("system_name"))
    replace = st.checkbox(session.t("replace_run"), key="import_replace")
    update_questions = st.checkbox(session.t("update_questions"), key="import_update_questions")
    submitted = st.form_submit_button(session.t("import_button"), type="primary")
if submitted and upload is None:
    st.warning(session.t("choose_file"))
if submitted and upload is not None:
    try:
        summary = uploads.import_upload(db, kind, upload, fmt, system, session.lang(),
                                        replace=replace, update_questions=update_questions)
        (st.warning if summary.incomplete else st.success)(
            session.tm("import_ok", msg=i18n.message(summary.messages(), session.lang(), sep=summary.SEP)))
    except ReljudgeError as exc:
        st.error(session.tm("import_failed", error=session.error_text(exc)))

counts.caption(session.t("campaign_counts", **campaign.counts(db)))

depth = st.number_input(session.t("pool_depth"), min_value=1, max_value=1000,
                        value=int(campaign.settings(db)["pool_depth"]))
if st.button(session.t("rebuild_pool")):
    st.success(session.t("pool_built", n=campaign.pool(db, int(depth))))

zones = times.zone_names()
zone = st.selectbox(session.t("time_zone"), zones, index=zones.index(times.campaign_zone(db)),
                    help=session.t("time_zone_help"))
if zone != times.campaign_zone(db):
    campaign.set_time_zone(db, zone)
    st.success(session.t("time_zone_saved", zone=zone))

st.subheader(session.t("runs_table"))
tables.dataframe(campaign.list_runs(db), name="runs")
replaced = campaign.run_versions(db)
if not replaced.empty:
    st.subheader(session.t("run_versions"))
    tables.dataframe(replaced, name="run_versions")
