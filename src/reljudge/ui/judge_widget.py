"""The keyboard judging widget: a Streamlit v2 component inside a fragment.

A keypress is painted in the browser at once; the widget posts the event to the JSON
route ``/api/events`` (reljudge.api), which appends it to the database and answers with
the acknowledged ids: a save costs one short transaction, no Streamlit rerun. The
fragment reruns only to move to another question (the outbox travels along and is
stored first) or to take the server's state after an edit was refused.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from reljudge import display, events, i18n, judging
from reljudge.errors import ReljudgeError
from reljudge.ui import session

_ASSETS = Path(__file__).parent / "assets"


def keyboard_script(name: str) -> str:
    """A keyboard widget's script: the shared outbox (outbox.js), then the widget's own."""
    return "\n".join((_ASSETS / f).read_text(encoding="utf-8") for f in ("outbox.js", name))
_LABEL_KEYS = ["question_n", "criteria", "grade2", "grade1", "grade0", "ungraded", "no_answer",
               "note", "evidence", "context_prev", "context_next", "no_context", "copies",
               "progress_q", "progress_all", "questions_done", "saving", "saved", "offline",
               "shortcuts", "prev_q", "next_q", "next_open", "na_conflict", "empty_pool", "evidence_short",
               "edit_hint", "save_login", "event_rejected", "na_ask", "na_ask_yes", "na_ask_only",
               "na_ask_cancel", "unfinished_before", "unfold_hint",
               *(f"rejected_{code}" for code in judging.REJECTION_CODES)]

_component = st.components.v2.component(
    "reljudge_judge",
    html="",
    css=(_ASSETS / "judge.css").read_text(encoding="utf-8"),
    js=keyboard_script("judge.js"),
)

_ACKED = "_rj_acked"
_NAVIGATED = "_rj_navigated"
_ERROR = "_rj_error"
_REJECTED = "_rj_rejected"
_AT_END = "_rj_at_end"          # moving on found no further question: (other open questions, left here)


def _still_logged_in(db, username: str) -> bool:
    """A move to another question reruns only the fragment, not workbench.py: re-check the session here."""
    user = session.current_user(db)
    return user is not None and user.username == username


def _on_action(db, username: str) -> None:
    """Runs before the fragment re-renders: save events, then navigate."""
    action = (st.session_state.get("rj_judge") or {}).get("action")
    if not isinstance(action, dict) or not action:
        return
    if not _still_logged_in(db, username):
        st.session_state[_ERROR] = "session"
        return
    try:
        # The outbox is shared with the review screen: store whatever kind it carries.
        acked, rejected, _ = events.record_each(db, username, list(action.get("events") or []))
        # Rejected events leave the browser's outbox too, or they would be resent forever.
        st.session_state[_ACKED] = acked + list(rejected)
        if rejected:
            st.session_state[_REJECTED] = sorted(set(rejected.values()))
        to = action.get("nav")
        if to in ("next", "prev", "next_open"):
            before = judging.current_question(db, username)
            target = judging.step(db, username, -1 if to == "prev" else 1, only_open=to == "next_open")
            st.session_state[_NAVIGATED] = True
            if to != "prev" and target == before:
                # Say so instead of silently staying put: done, or where work is left.
                st.session_state[_AT_END] = judging.work_left(db, username, before)
        st.session_state.pop(_ERROR, None)
    except ReljudgeError as exc:
        st.session_state[_ERROR] = session.error_text(exc)


def render(db, username: str, lang: str) -> None:
    """The judging widget for the annotator's current question (a fragment)."""

    @st.fragment
    def _fragment():
        if not _still_logged_in(db, username):
            st.error(i18n.t("not_logged_in", lang))
            session.unsaved_notice()
            return
        qid = judging.current_question(db, username)
        if qid is None:
            st.info(i18n.t("no_questions", lang))
            return
        if st.session_state.pop(_NAVIGATED, False):
            # Refresh the whole page (sidebar question list) after moving on.
            st.rerun(scope="app")
        if st.session_state.get(_ERROR):
            error = st.session_state.pop(_ERROR)
            st.error(i18n.t("not_logged_in", lang) if error == "session" else display.md(error))
        at_end = st.session_state.pop(_AT_END, None)
        if at_end == (0, 0):
            st.success(i18n.t("all_done", lang))
        elif at_end is not None and at_end[0] == 0:
            st.info(i18n.t("last_open_question", lang, n=at_end[1]))
        elif at_end is not None:
            st.info(i18n.t("no_further_question", lang, n=at_end[0]))
        for code in st.session_state.pop(_REJECTED, []):
            st.warning(i18n.t("event_rejected", lang, reason=i18n.t(f"rejected_{code}", lang)))
        data = display.visible_payload(judging.payload(db, username, qid, lang))
        data["user"] = username
        data["labels"] = i18n.bundle(_LABEL_KEYS, lang)
        data["acked"] = st.session_state.get(_ACKED, [])
        data["max_note"] = judging.MAX_NOTE
        _component(data=data, key="rj_judge",
                   on_action_change=lambda: _on_action(db, username))

    _fragment()


def question_picker(db, username: str, lang: str) -> None:
    """Sidebar list of questions with this annotator's progress; choosing one moves there."""
    ov = judging.overview(db, username)
    if ov.empty:
        return
    current = judging.current_question(db, username)
    # The open question's own count lives in the widget's header (saves rerun only the
    # widget, not this sidebar), so its label leaves the count out rather than go stale.
    done = dict(zip(ov.qid, judging.finished(ov)))
    labels = {
        r.qid: f"▶ {r.qid} · {r.qtype}" if r.qid == current else
               f"{'●' if done[r.qid] else '◐' if r.judged or r.no_answer else '○'} "
               f"{r.qid} · {r.qtype} · {r.judged}/{r.pool_size}"
        for r in ov.itertuples()
    }
    qids = list(ov.qid)
    choice = st.sidebar.selectbox(i18n.t("jump_to", lang), qids,
                                  index=qids.index(current) if current in qids else 0,
                                  format_func=lambda q: display.visible(labels.get(q)), key=f"rj_pick_{current}")
    if choice != current:
        judging.go_to(db, username, choice)
        st.rerun()
