"""Import (lead): upload a corpus, questions, a run, generated answers, answer reviews or
external qrels (a named source) — every kind `reljudge import` reads, with its options, while
the app runs; declare the question types; rebuild the pool."""

import streamlit as st

from reljudge.storage import catalog
from reljudge import display, times
from reljudge.campaign import setup as campaign
from reljudge.errors import ReljudgeError
from reljudge.ui import session, tables, uploads

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("import_title"))
counts = st.empty()  # filled after the form, so it includes what was just imported

kind = st.selectbox(
    session.t("import_kind"), uploads.KINDS, format_func=lambda k: session.t(f"kind_{k}"), key="import_kind"
)
form = uploads.FORMS[kind]
st.caption(session.t(f"import_help_{kind}"))
with st.form("import", clear_on_submit=True):
    upload = st.file_uploader(session.t("file"), type=list(form.suffixes), help=session.t(f"import_fields_{kind}"))
    fmt = system = source = ""
    replace = update_questions = False
    if form.formats:
        fmt = st.selectbox(
            session.t("format"), ("",) + form.formats, format_func=lambda f: f or session.t("format_auto")
        )
    if form.system:
        system = st.text_input(session.t(form.system))
    if form.source:
        source = st.text_input(session.t("source_name"))
    if form.replace:
        replace = st.checkbox(session.t(form.replace), key=f"import_replace_{kind}")
    if form.update_questions:
        update_questions = st.checkbox(session.t("update_questions"), key="import_update_questions")
    submitted = st.form_submit_button(session.t("import_button"), type="primary")
if submitted and upload is None:
    st.warning(session.t("choose_file"))
elif submitted and form.source and not source.strip():
    st.warning(session.t("source_needed"))
elif submitted:
    try:
        done = uploads.import_any(
            db,
            kind,
            upload,
            fmt=fmt,
            system=system,
            source=source,
            replace=replace,
            update_questions=update_questions,
            lang=session.lang(),
        )
        (st.warning if done.warning else st.success)(session.tm("import_ok", msg=done.text))
    except ReljudgeError as exc:
        st.error(session.tm("import_failed", error=session.error_text(exc)))

counts.caption(session.t("campaign_counts", **campaign.counts(db)))

st.subheader(session.t("question_types_title"))
st.caption(session.t("question_types_help"))
session.show_flash()  # what the last declaration or withdrawal did
tables.dataframe(campaign.question_types_table(db), name="question_types")
untyped = campaign.untyped_questions(db)
if untyped:
    st.caption(session.t("untyped_questions", n=untyped))
with st.form("declare_type", clear_on_submit=True):
    new_type = st.text_input(session.t("new_type"), key="new_type")
    if st.form_submit_button(session.t("declare_type")):
        try:
            added = campaign.declare_types(db, [new_type], user.username)
            session.flash(session.tm("type_declared" if added else "type_already_declared", name=new_type.strip()))
            st.rerun()
        except ReljudgeError as exc:
            session.error(exc)
with st.form("withdraw_type"):
    withdrawn = st.selectbox(
        session.t("withdraw_type"),
        campaign.declared_types(db),
        index=None,
        placeholder=session.t("choose_type"),
        format_func=display.visible,
        key="withdraw_type",
    )
    if st.form_submit_button(session.t("withdraw_type_button")) and withdrawn is not None:
        try:
            campaign.withdraw_type(db, withdrawn, user.username)
            session.flash(session.tm("type_withdrawn", name=withdrawn))
            st.rerun()
        except ReljudgeError as exc:
            session.error(exc)

depth = st.number_input(
    session.t("pool_depth"), min_value=1, max_value=1000, value=int(campaign.settings(db)["pool_depth"])
)
if st.button(session.t("rebuild_pool")):
    st.success(session.t("pool_built", n=campaign.pool(db, int(depth))))

zones = times.zone_names()
zone = st.selectbox(
    session.t("time_zone"), zones, index=zones.index(catalog.campaign_zone(db)), help=session.t("time_zone_help")
)
if zone != catalog.campaign_zone(db):
    campaign.set_time_zone(db, zone)
    st.success(session.t("time_zone_saved", zone=zone))

st.subheader(session.t("runs_table"))
tables.dataframe(campaign.list_runs(db), name="runs")
replaced = campaign.run_versions(db)
if not replaced.empty:
    st.subheader(session.t("run_versions"))
    tables.dataframe(replaced, name="run_versions")
