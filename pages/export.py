"""Export (lead): qrels under a policy or a frozen version, the reproducibility bundle, the raw
history, the report (external qrels come in on the Import page)."""

import streamlit as st

from reljudge import policy as policies
from reljudge import display
from reljudge.campaign import bundle
from reljudge.campaign import export
from reljudge.reporting import report
from reljudge.review import ingest
from reljudge.errors import ReljudgeError
from reljudge.ui import session

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("export_title"))
choices = export.export_choices(db)
policy, version = st.selectbox(
    session.t("qrels_source"),
    choices,
    format_func=lambda c: display.visible(policies.qrels_label(c[0], c[1], session.lang())),
)
fmt = st.selectbox(session.t("format"), export.QRELS_FORMATS)
min_grade = st.selectbox(session.t("min_grade"), [None, 0, 1, 2], format_func=lambda g: "—" if g is None else str(g))
include_no_answer = st.checkbox(session.t("include_no_answer"), value=False, key="include_no_answer")
st.caption(session.t("no_answer_included" if include_no_answer else "no_answer_left_out"))
# Every file is built only when its button is clicked (a deferred callable): a render of
# this page serialises nothing (bench/bench_export_page.py).
for download in export.downloads(db, fmt, policy, version, min_grade, include_no_answer):
    st.download_button(
        session.t(f"download_{download.key}"),
        download.build,
        file_name=download.file_name,
        mime=download.mime,
        key=f"download_{download.key}",
        on_click="ignore",
        type="primary" if download.key == "qrels" else "secondary",
    )

st.download_button(
    session.t("download_reviews"),
    lambda: ingest.reviews_bytes(db),
    file_name="reviews.jsonl",
    mime="application/jsonl",
    key="download_reviews",
    on_click="ignore",
)

if st.button(session.t("build_bundle"), key="build_bundle"):
    try:
        with st.spinner(session.t("building_bundle")):
            built = bundle.build(db, policy, version)
        st.caption(session.t("bundle_caption", h=built.bundle_sha256))
        st.download_button(
            session.t("download_bundle"),
            bundle.zip_bytes(built),
            file_name=f"bundle-{built.bundle_sha256[:12]}.zip",
            mime="application/zip",
        )
    except ReljudgeError as exc:
        session.error(exc)

st.subheader(session.t("report_title"))
report_lang = st.radio(
    session.t("report_lang"), ["ko", "en"], horizontal=True, format_func=lambda code: session.t(f"lang_{code}")
)
report_fmt = st.radio(session.t("format"), ["html", "md"], horizontal=True)
if st.button(session.t("build_report"), key="build_report"):
    with st.spinner(session.t("building_report")):
        data = report.build(db, policy, version, report_lang)
    st.download_button(
        session.t("download_report", fmt=report_fmt),
        report.render(data, report_fmt),
        file_name=f"report.{report_fmt}",
        type="primary",
    )

st.subheader(session.t("import_qrels"))
st.caption(session.t("import_qrels_moved"))  # one place for every import: the Import page
