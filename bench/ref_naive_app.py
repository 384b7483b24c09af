"""Reference page for bench_judging.py: the naive design the judging widget replaces.

The same question, the same 50 pooled paragraphs and the same library calls as the
real judging page (reljudge.campaign.judging.payload to read, .record to save), but drawn
with one st.radio per paragraph and no fragment: every click reruns the whole
script and re-sends all 50 paragraphs. The benchmark times a click until the
grade read back from DuckDB is shown after that rerun.
"""

import os
import uuid

import streamlit as st

from reljudge.campaign import judging
from reljudge.storage import open_database

USER = os.environ.get("REF_USER", "annotator1")
OPTIONS = [2, 1, 0]
LABELS = {2: "2 직접 근거", 1: "1 관련", 0: "0 무관"}


@st.cache_resource
def _db():
    return open_database()


db = _db()
qid = judging.current_question(db, USER)


def _save(pid: str, key: str) -> None:
    judging.record(
        db, USER, [{"id": str(uuid.uuid4()), "kind": "grade", "qid": qid, "pid": pid, "grade": st.session_state[key]}]
    )


data = judging.payload(db, USER, qid)
st.subheader(data["question"]["text"])
for i, it in enumerate(data["items"]):
    st.text(it["text"])
    st.caption(it["source"])
    key = f"g_{it['pid']}"
    st.radio(
        f"문단 {i + 1}",
        OPTIONS,
        index=None if it["grade"] is None else OPTIONS.index(it["grade"]),
        format_func=LABELS.get,
        horizontal=True,
        key=key,
        on_change=_save,
        args=(it["pid"], key),
    )
    # The grade as stored, read back on this rerun; the benchmark waits for this text.
    shown = "-" if it["grade"] is None else it["grade"]
    st.markdown(f'<span id="ref-grade-{i}">grade {shown}</span>', unsafe_allow_html=True)
