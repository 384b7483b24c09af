"""The keyboard judging widget: a Streamlit v2 component inside a fragment.

A keypress is painted in the browser at once; the widget posts the event to the JSON
route ``/api/events`` (reljudge.web.routes), which appends it to the database and answers with
the acknowledged ids: a save costs one short transaction, no Streamlit rerun. The
fragment reruns only to move to another question (the outbox travels along and is
stored first) or to take the server's state after an edit was refused.
"""

from __future__ import annotations

import sys

import streamlit as st

from reljudge import display, i18n
from reljudge.campaign import judging, plan
from reljudge.ui import keyboard, profiling

_LABEL_KEYS = [
    "question_n",
    "criteria",
    "grade2",
    "grade1",
    "grade0",
    "ungraded",
    "no_answer",
    "note",
    "evidence",
    "context_prev",
    "context_next",
    "no_context",
    "copies",
    "progress_q",
    "progress_all",
    "progress_all_plan",
    "questions_done",
    "saving",
    "saved",
    "offline",
    "save_waiting_server",
    "shortcuts",
    "prev_q",
    "next_q",
    "next_open",
    "na_conflict",
    "empty_pool",
    "evidence_short",
    "edit_hint",
    "save_login",
    "event_rejected",
    "na_ask",
    "na_ask_yes",
    "na_ask_only",
    "na_ask_cancel",
    "unfinished_before",
    "unfold_hint",
    "plan_settled",
    "plan_done",
    "plan_now",
    "plan_rest_items",
    "nothing_citable_ask",
    *(f"rejected_{code}" for code in judging.REJECTION_CODES),
]

_component = st.components.v2.component(
    "reljudge_judge",
    html="",
    css=(keyboard.ASSETS / "judge.css").read_text(encoding="utf-8"),
    js=keyboard.script("judge.js"),
)

_FLOW = keyboard.Flow("rj_judge", "rj", judging.current_question, judging.step, judging.work_left, judging.go_to)


def render(db, username: str, lang: str) -> None:
    """The judging widget for the annotator's current question (a fragment)."""

    @st.fragment
    def _fragment():
        # Every server-side run of the widget is recorded under $RELJUDGE_PROFILE (a page
        # run renders it too; reljudge.ui.profiling): under a plan no grade may cost one (issue 35.1, counted by
        # tests/test_e2e_plan_steps.py and bench/bench_judging_loop.py).
        run = profiling.start("fragments.jsonl")
        run.note(fragment="judge", user=username)
        try:
            _judge(run)
        finally:
            run.finish(profiling.ended(sys.exc_info()[1]))

    def _judge(run):
        qid, at_end = _FLOW.begin(db, username, lang)
        if qid is None:
            if judging.current_question(db, username) is None and keyboard.still_logged_in(db, username):
                st.info(i18n.t(judging.nothing_to_judge_reason(db, username), lang))
            return
        # moving on found nothing further: (other open questions, left here)
        if at_end == (0, 0):
            st.success(i18n.t("all_done", lang))
        elif at_end is not None and at_end[0] == 0:
            st.info(i18n.t("last_open_question", lang, n=at_end[1]))
        elif at_end is not None:
            st.info(i18n.t("no_further_question", lang, n=at_end[0]))
        run.note(qid=qid)
        payload = display.visible_payload(judging.payload(db, username, qid, lang))
        data = _FLOW.widget_data(db, username, payload, i18n.bundle(_LABEL_KEYS, lang))
        # the questions a move goes to, held by the page to paint at once (issue 35.2)
        ahead = judging.neighbours(db, username, qid)
        data["ahead"] = ahead
        data["ahead_payloads"] = {
            target: display.visible_payload(judging.payload(db, username, target, lang))
            for target in set(ahead.values())
        }
        _component(data=data, key="rj_judge", on_action_change=lambda: _FLOW.on_action(db, username))

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
    # Under a judging plan the count is the plan's (what is left to judge now; nothing on a
    # done question), as in the header: the pool's judged/size would read as unfinished work.
    planned = plan.current(db).name != "complete"

    def count(r) -> str:
        if not planned:
            return f" · {r.judged}/{r.pool_size}"
        return "" if done[r.qid] else " · " + i18n.t("plan_left_short", lang, n=max(int(r.open_now), 0))

    labels = {
        r.qid: f"▶ {r.qid} · {r.qtype}"
        if r.qid == current
        else f"{'●' if done[r.qid] else '◐' if r.judged or r.no_answer else '○'} {r.qid} · {r.qtype}{count(r)}"
        for r in ov.itertuples()
    }
    qids = list(ov.qid)
    choice = st.sidebar.selectbox(
        i18n.t("jump_to", lang),
        qids,
        index=qids.index(current) if current in qids else 0,
        format_func=lambda q: display.visible(labels.get(q)),
        key=f"rj_pick_{current}",
    )
    if choice != current:
        judging.go_to(db, username, choice)
        st.rerun()
