"""Progress (lead): campaign size and each annotator's progress per question type."""

import streamlit as st

from reljudge.campaign import setup as campaign
from reljudge.campaign import progress
from reljudge.ui import session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("overview_title"))
st.caption(session.t("campaign_counts", **campaign.counts(db)))
tables.dataframe(progress.by_annotator(db), name="progress")
