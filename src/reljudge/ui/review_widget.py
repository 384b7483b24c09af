"""The keyboard answer-review widget (methodology §4: people check what each RAG system
said with the paragraphs it cites): a Streamlit v2 component inside a fragment, on the
same outbox, route and save contract as the judging widget (reljudge.campaign.events)."""

from __future__ import annotations

import streamlit as st

from reljudge import display, i18n
from reljudge.campaign import judging
from reljudge.review import events
from reljudge.review import queue as answer_queue
from reljudge.ui import keyboard

_LABEL_KEYS = [
    "answer_n",
    "answer_in_question",
    "criteria",
    "no_answer_expected",
    "answer_abstained",
    "interpretation",
    "interp2",
    "interp1",
    "interp0",
    "abstention_q",
    "yes",
    "no",
    "review_note",
    "review_keys",
    "relevance_now",
    "support2",
    "support1",
    "support0",
    "ungraded",
    "cites_nothing",
    "needs_no_citation",
    "pairs_done",
    "saving",
    "saved",
    "offline",
    "save_waiting_server",
    "save_login",
    "event_rejected",
    "prev_answer",
    "next_answer",
    "next_open_answer",
    "answer_empty",
    *(f"rejected_{code}" for code in sorted(set(judging.REJECTION_CODES) | set(events.REJECTION_CODES))),
]

_component = st.components.v2.component(
    "reljudge_review",
    html="",
    css="\n".join((keyboard.ASSETS / f).read_text(encoding="utf-8") for f in ("judge.css", "review.css")),
    js=keyboard.script("review.js"),
)

_FLOW = keyboard.Flow(
    "rv_review", "rv", answer_queue.current_answer, answer_queue.step, lambda db, username, before: True
)


def render(db, username: str, lang: str) -> None:
    """The review widget for the reviewer's current answer (a fragment)."""

    @st.fragment
    def _fragment():
        answer_id, at_end = _FLOW.begin(db, username, lang)
        if answer_id is None:
            if answer_queue.current_answer(db, username) is None and keyboard.still_logged_in(db, username):
                st.info(i18n.t("no_answers_to_review", lang))
            return
        if at_end:
            st.info(i18n.t("no_further_answer", lang))
        payload = display.visible_payload(answer_queue.payload(db, username, answer_id, lang))
        data = _FLOW.widget_data(db, username, payload, i18n.bundle(_LABEL_KEYS, lang))
        _component(data=data, key="rv_review", on_action_change=lambda: _FLOW.on_action(db, username))

    _fragment()


def answer_picker(db, username: str, lang: str) -> None:
    """Sidebar list of the reviewer's answers (blind: question and a number, no system)."""
    queue = answer_queue.review_queue(db, username)
    if queue.empty:
        return
    current = answer_queue.current_answer(db, username)
    done = dict(zip(queue.answer_id, answer_queue.finished(queue)))
    number = queue.groupby("qid").cumcount() + 1
    labels = {
        int(r.answer_id): f"{'▶' if r.answer_id == current else '●' if done[r.answer_id] else '○'} "
        f"{r.qid} · {i18n.t('answer_short', lang, n=int(n))}"
        for r, n in zip(queue.itertuples(), number)
    }
    ids = [int(a) for a in queue.answer_id]
    choice = st.sidebar.selectbox(
        i18n.t("jump_to_answer", lang),
        ids,
        index=ids.index(current) if current in ids else 0,
        format_func=lambda q: display.visible(labels.get(q)),
        key=f"rv_pick_{current}",
    )
    if choice != current:
        answer_queue.go_to(db, username, choice)
        st.rerun()
