"""Review adjudication (lead): answers whose reviewers disagree on a support grade or on
the interpretation, read blind, and the lead's final grade with a reason."""

import streamlit as st

from reljudge import display
from reljudge.review import adjudication as review_adjudication
from reljudge.ui import lead_forms, session, tables

user = session.require_role("lead")
db = session.get_db()

st.title(session.t("review_adjudicate_title"))
st.caption(session.t("review_adjudicate_help"))
session.show_flash()
queue = review_adjudication.disagreements(db)
if queue.empty:
    st.info(session.t("review_queue_empty"))
    st.stop()

answers = review_adjudication.disputed_answers(queue)
st.caption(session.t("review_queue_n", n=len(queue), open=int(queue.ruling.isna().sum()), a=len(answers)))
info = answers.set_index("answer_id")
answer_id = st.selectbox(
    session.t("review_disputed_answer"),
    list(answers.answer_id),
    format_func=lambda a: display.visible(
        session.t(
            "review_disputed_label",
            qid=info.loc[a, "qid"],
            a=a,
            open=int(info.loc[a, "n_open"]),
            n=int(info.loc[a, "n_items"]),
            gap=int(info.loc[a, "gap"]),
        )
    ),
)
items = queue[queue.answer_id == answer_id]
keys = [(r.kind, r.sentence, r.pid) for r in items.itertuples()]
kind, sentence, pid = st.selectbox(
    session.t("review_disputed_item"),
    keys,
    format_func=lambda k: display.visible(
        session.t("review_item_support", s=k[1] + 1, pid=k[2]) if k[0] == "support" else session.t("interpretation")
    ),
)
item = review_adjudication.disputed_item(db, queue, answer_id, kind, sentence, pid, session.lang())

st.markdown(f"**{session.t('question')}** {display.md(item['qid'])}")
st.text(display.visible(item["question"]))  # data: plain text, never Markdown
if item["criteria"]:
    st.markdown(f"**{session.t('criteria')}**")
    st.text(display.visible(item["criteria"]))
st.markdown(f"**{session.t('review_answer_text')}**")
st.text(display.visible("\n".join(f"{i + 1}. {text}" for i, text in item["sentences"])))
if kind == "support":
    st.markdown(f"**{session.t('review_the_sentence', s=sentence + 1)}**")
    st.text(display.visible(item["sentence"]))
    st.markdown(f"**{session.t('paragraph')}** {display.md(pid)}")
    st.caption(display.md(item["source"]))
    st.text(display.visible(item["paragraph"]))
st.markdown(f"**{session.t('grades_given')}**")
st.text(" · ".join(str(g) for g in item["grades"]))
if item["notes"]:
    st.markdown(f"**{session.t('notes_given')}**")
    for note in item["notes"]:
        st.text(display.visible(note))
if item["ruling"] is not None:
    st.caption(session.t("review_ruled", g=item["ruling"]))

scale = "support" if kind == "support" else "interp"
lead_forms.final_grade(
    "review_adjudicate",
    f"{answer_id}_{kind}_{sentence}_{pid}",
    lambda g: session.t(f"{scale}{g}"),
    lambda grade, reason: review_adjudication.adjudicate(
        db, user.username, answer_id, kind, sentence=sentence, pid=pid, grade=grade, reason=reason
    ),
    f"{item['qid']} · {session.t('answer_short', n=answer_id)}",
)

st.subheader(session.t("review_queue_table"))
tables.dataframe(queue.drop(columns=["seq"]), name="review_disagreements")
