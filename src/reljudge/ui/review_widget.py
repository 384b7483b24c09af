"""The keyboard answer-review widget (methodology §4: people check what each RAG system
said with the paragraphs it cites): a Streamlit v2 component inside a fragment, on the
same outbox, route and save contract as the judging widget (reljudge.events)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from reljudge import display, events, i18n, judging, review
from reljudge.errors import ReljudgeError
from reljudge.ui import session
from reljudge.ui.judge_widget import keyboard_script

_ASSETS = Path(__file__).parent / "assets"
_LABEL_KEYS = ["answer_n", "answer_in_question", "criteria", "no_answer_expected", "answer_abstained",
               "interpretation", "interp2", "interp1", "interp0", "abstention_q", "yes", "no", "review_note",
               "review_keys", "relevance_now", "support2", "support1", "support0", "ungraded", "cites_nothing",
               "needs_no_citation", "pairs_done", "saving", "saved", "offline", "save_login", "event_rejected",
               "prev_answer", "next_answer", "next_open_answer", "answer_empty",
               *(f"rejected_{code}" for code in sorted(set(judging.REJECTION_CODES) | set(review.REJECTION_CODES)))]

_component = st.components.v2.component(
    "reljudge_review",
    html="",
    css="\n".join((_ASSETS / f).read_text(encoding="utf-8") for f in ("judge.css", "review.css")),
    js=keyboard_script("review.js"),
)

_ACKED, _NAVIGATED, _ERROR, _AT_END = "_rv_acked", "_rv_navigated", "_rv_error", "_rv_at_end"


def _still_logged_in(db, username: str) -> bool:
    user = session.current_user(db)
    return user is not None and user.username == username


def _on_action(db, username: str) -> None:
    """Runs before the fragment re-renders: store what the move carries, then move."""
    action = (st.session_state.get("rv_review") or {}).get("action")
    if not isinstance(action, dict) or not action:
        return
    if not _still_logged_in(db, username):
        st.session_state[_ERROR] = "session"
        return
    try:
        acked, rejected, _ = events.record_each(db, username, list(action.get("events") or []))
        st.session_state[_ACKED] = acked + list(rejected)
        to = action.get("nav")
        if to in ("next", "prev", "next_open"):
            before = review.current_answer(db, username)
            target = review.step(db, username, -1 if to == "prev" else 1, only_open=to == "next_open")
            st.session_state[_NAVIGATED] = True
            if to != "prev" and target == before:
                st.session_state[_AT_END] = True
        st.session_state.pop(_ERROR, None)
    except ReljudgeError as exc:
        st.session_state[_ERROR] = session.error_text(exc)


def render(db, username: str, lang: str) -> None:
    """The review widget for the reviewer's current answer (a fragment)."""

    @st.fragment
    def _fragment():
        if not _still_logged_in(db, username):
            st.error(i18n.t("not_logged_in", lang))
            session.unsaved_notice()
            return
        answer_id = review.current_answer(db, username)
        if answer_id is None:
            st.info(i18n.t("no_answers_to_review", lang))
            return
        if st.session_state.pop(_NAVIGATED, False):
            st.rerun(scope="app")
        if st.session_state.get(_ERROR):
            error = st.session_state.pop(_ERROR)
            st.error(i18n.t("not_logged_in", lang) if error == "session" else display.md(error))
        if st.session_state.pop(_AT_END, None):
            st.info(i18n.t("no_further_answer", lang))
        data = display.visible_payload(review.payload(db, username, answer_id, lang))
        data["user"] = username
        data["labels"] = i18n.bundle(_LABEL_KEYS, lang)
        data["acked"] = st.session_state.get(_ACKED, [])
        data["max_note"] = judging.MAX_NOTE
        _component(data=data, key="rv_review", on_action_change=lambda: _on_action(db, username))

    _fragment()


def answer_picker(db, username: str, lang: str) -> None:
    """Sidebar list of the reviewer's answers (blind: question and a number, no system)."""
    queue = review.review_queue(db, username)
    if queue.empty:
        return
    current = review.current_answer(db, username)
    done = dict(zip(queue.answer_id, review.finished(queue)))
    number = queue.groupby("qid").cumcount() + 1
    labels = {int(r.answer_id): f"{'▶' if r.answer_id == current else '●' if done[r.answer_id] else '○'} "
                                f"{r.qid} · {i18n.t('answer_short', lang, n=int(n))}"
              for r, n in zip(queue.itertuples(), number)}
    ids = [int(a) for a in queue.answer_id]
    choice = st.sidebar.selectbox(i18n.t("jump_to_answer", lang), ids,
                                  index=ids.index(current) if current in ids else 0,
                                  format_func=lambda q: display.visible(labels.get(q)), key=f"rv_pick_{current}")
    if choice != current:
        review.go_to(db, username, choice)
        st.rerun()
