"""What the keyboard widgets (judging, answer review) share on the Streamlit side: their
script (the shared outbox, then the widget's own), and the fragment's round trip — the
action a widget sends to move on (the outbox travels with it and is stored first), the
move itself, and the messages shown on the next render.

A widget gives its component key, a state prefix and two functions of its workflow:
``current(db, username)`` and ``step(db, username, delta, only_open=...)``; ``at_end``
says what to report when moving on found nothing further.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import streamlit as st

from reljudge import display, i18n
from reljudge.campaign import events, judging
from reljudge.errors import ReljudgeError
from reljudge.ui import session

ASSETS = Path(__file__).parent / "assets"


def script(name: str) -> str:
    """A keyboard widget's script: the shared outbox (outbox.js), then the widget's own."""
    return "\n".join((ASSETS / f).read_text(encoding="utf-8") for f in ("outbox.js", name))


def still_logged_in(db, username: str) -> bool:
    """A move reruns only the fragment, not workbench.py: re-check the session here."""
    user = session.current_user(db)
    return user is not None and user.username == username


@dataclass(frozen=True)
class Flow:
    key: str  # the component's key in session state
    prefix: str  # of this widget's session-state entries
    current: Callable  # (db, username) -> the item shown
    step: Callable  # (db, username, delta, only_open=) -> item
    at_end: Callable  # (db, username, item) -> what to report
    #: (db, username, item) -> None: go to an item of the user's queue (an unknown one
    #: raises ReljudgeError); lets a move start from the item the page showed (see on_action)
    go_to: Callable | None = None

    def _k(self, name: str) -> str:
        return f"_{self.prefix}_{name}"

    def on_action(self, db, username: str) -> None:
        """Runs before the fragment re-renders: store what the action carries, then move."""
        action = (st.session_state.get(self.key) or {}).get("action")
        if not isinstance(action, dict) or not action:
            return
        if not still_logged_in(db, username):
            st.session_state[self._k("error")] = "session"
            return
        try:
            # The outbox is shared by both widgets: store whatever kind it carries.
            acked, rejected, _ = events.record_each(db, username, list(action.get("events") or []))
            # Refused events leave the browser's outbox too, or they would be resent forever.
            st.session_state[self._k("acked")] = acked + list(rejected)
            if rejected:
                st.session_state[self._k("rejected")] = sorted(set(rejected.values()))
            to = action.get("nav")
            if to in ("next", "prev", "next_open"):
                shown = action.get("from")
                if self.go_to is not None and isinstance(shown, str) and shown != self.current(db, username):
                    # The page moves on before the server has (it paints the question it
                    # holds), and Streamlit keeps only the last action sent between two
                    # runs: two quick Enters reach the server as one. Move from the question
                    # the page showed, so the server ends where the page is.
                    try:
                        self.go_to(db, username, shown)
                    except ReljudgeError:
                        pass  # no longer in the queue: move from where the server is
                before = self.current(db, username)
                target = self.step(db, username, -1 if to == "prev" else 1, only_open=to == "next_open")
                st.session_state[self._k("navigated")] = True
                if to != "prev" and target == before:
                    # Say so instead of silently staying put.
                    st.session_state[self._k("at_end")] = self.at_end(db, username, before)
            st.session_state.pop(self._k("error"), None)
        except ReljudgeError as exc:
            st.session_state[self._k("error")] = session.error_text(exc)

    def begin(self, db, username: str, lang: str):
        """The fragment's first steps: None when there is nothing to show (not logged in,
        empty queue: said on the page), else the current item and what moving on found
        (``at_end``), after the errors and refusals of the last action are shown."""
        if not still_logged_in(db, username):
            st.error(i18n.t("not_logged_in", lang))
            session.unsaved_notice()
            return None, None
        item = self.current(db, username)
        if item is None:
            return None, None
        if st.session_state.pop(self._k("navigated"), False):
            st.rerun(scope="app")  # refresh the sidebar list after moving on
        if st.session_state.get(self._k("error")):
            error = st.session_state.pop(self._k("error"))
            st.error(i18n.t("not_logged_in", lang) if error == "session" else display.md(error))
        for code in st.session_state.pop(self._k("rejected"), []):
            st.warning(i18n.t("event_rejected", lang, reason=i18n.t(f"rejected_{code}", lang)))
        return item, st.session_state.pop(self._k("at_end"), None)

    def acked(self) -> list[str]:
        return st.session_state.get(self._k("acked"), [])

    def widget_data(self, db, username: str, payload: dict, labels: dict) -> dict:
        """What the widget is given beside its item's ``payload``: whose outbox it keeps
        (per account and campaign; its saves name the campaign), its labels, the events the
        last rerun stored (they leave the outbox), and the longest note."""
        return {
            **payload,
            "user": f"{username}@{db.campaign}" if db.schema else username,
            "campaign": db.campaign if db.schema else None,
            "labels": labels,
            "acked": self.acked(),
            "max_note": judging.MAX_NOTE,
        }
