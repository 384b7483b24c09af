"""Quality control (lead): each annotator's accuracy against gold items and decoys, the
flagging thresholds, gold import and decoy placement (reljudge.campaign.quality)."""

import streamlit as st

from reljudge import i18n
from reljudge.campaign import quality
from reljudge.errors import ReljudgeError
from reljudge.ui import lead_forms, navigation, session, tables, uploads

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("quality_title"))
session.show_flash()
st.caption(session.t("quality_caption"))
settings = quality.settings(db)
table = quality.annotator_quality(db, settings)
st.caption(
    session.t(
        "quality_rule",
        min_gold=settings.min_gold,
        min_accuracy=settings.min_accuracy,
        max_failed=settings.max_failed_decoys,
        n_gold=len(quality.gold_items(db)),
        n_decoys=len(quality.placements(db)),
    )
)
shown = table.assign(reasons=[", ".join(session.t(f"quality_reason_{r}") for r in rs) for rs in table.reasons])
tables.dataframe(shown, name="quality")
for name in table.annotator[table.flagged]:
    navigation.link_to_reassign(name, session.tm("quality_reassign_link", name=name))  # the label is Markdown
st.download_button(
    session.t("quality_export"),
    data=lambda: quality.export_bytes(db),
    file_name="quality.jsonl",
    mime="application/jsonl",
    on_click="ignore",
)

with st.expander(session.t("quality_settings")):
    with st.form("quality_settings"):
        min_gold = st.number_input(session.t("quality_min_gold"), min_value=0, value=settings.min_gold, step=1)
        min_accuracy = st.number_input(
            session.t("quality_min_accuracy"), min_value=0.0, max_value=1.0, value=settings.min_accuracy, step=0.05
        )
        max_failed = st.number_input(
            session.t("quality_max_failed"), min_value=1, value=settings.max_failed_decoys, step=1
        )
        auto_gold = st.checkbox(session.t("quality_auto_gold"), value=settings.auto_gold)
        if st.form_submit_button(session.t("quality_save")):
            try:
                quality.set_settings(db, int(min_gold), float(min_accuracy), int(max_failed), auto_gold)
                session.flash(session.t("quality_saved"))
                st.rerun()
            except ReljudgeError as exc:
                session.error(exc)

st.subheader(session.t("gold_header"))
with st.form("gold_import", clear_on_submit=True):
    upload = st.file_uploader(session.t("gold_upload"), type=["txt", "qrels", "trec", "tsv"])
    if st.form_submit_button(session.t("gold_import")) and upload is not None:
        try:
            done = uploads.import_gold_upload(db, upload, user.username)
            notices = [i18n.message(m, session.lang()) for m in done.notices()]  # duplicates kept once
            session.flash(" ".join([session.t("gold_imported", n=done.rows), *notices]))
            st.rerun()
        except ReljudgeError as exc:
            session.error(exc)
tables.dataframe(quality.gold_items(db), name="gold_items")

st.subheader(session.t("decoys_header"))
lead_forms.decoy_form(db)
with st.expander(session.t("decoy_history")):
    tables.dataframe(quality.decoy_grades(db), name="decoys")
