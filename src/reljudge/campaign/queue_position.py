"""Where a person is in their work queue, and how they move in it: one rule for the
judging queue (questions, :mod:`reljudge.campaign.judging`) and the review queue (answers,
:mod:`reljudge.review.queue`).

The position is remembered per user; when it is not (or no longer) in the queue, the
user lands on the first unfinished item (the queue's own ``next_open`` rule) and that
place is remembered, so an item does not change under their hands when it becomes
complete. Stepping moves within the queue's order and stops at its ends; "next
unfinished" asks ``next_open`` for the item after the current one and stays put when
there is none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from reljudge.storage.db import Database

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd


@dataclass(frozen=True)
class WorkQueue:
    load: Callable[[Database, str], pd.DataFrame]  # the user's queue, in order
    key: str  # the item id column
    next_open: Callable[..., object]  # (queue, after=None) -> item or None
    get_position: Callable[[Database, str], object]
    set_position: Callable[[Database, str, object], None]
    not_in_queue: Callable[[object, str], Exception]  # (item, username) -> the error to raise
    cast: Callable[[object], object] = lambda x: x  # an id as the caller returns it

    def current(self, db: Database, username: str, queue: pd.DataFrame | None = None):
        """Where the user left off; else their first unfinished item (remembered)."""
        q = self.load(db, username) if queue is None else queue
        if q.empty:
            return None
        here = self.get_position(db, username)
        if here in set(q[self.key]):
            return here
        target = self.next_open(q) or self.cast(q.iloc[0][self.key])
        self.set_position(db, username, target)
        return target

    def go_to(self, db: Database, username: str, item) -> None:
        if item not in set(self.load(db, username)[self.key]):
            raise self.not_in_queue(item, username)
        self.set_position(db, username, item)

    def peek(self, db: Database, username: str, delta: int, only_open: bool = False):
        """Where :meth:`step` would move, without moving (the page paints that item
        before the server has moved, issue 35.2)."""
        return self.peeks(db, username, {"to": (delta, only_open)}).get("to")

    def peeks(self, db: Database, username: str, moves: dict) -> dict:
        """:meth:`peek` of several moves (name → (delta, only_open)) from one read of the
        queue; a move that goes nowhere (an empty queue) is left out."""
        q = self.load(db, username)
        if q.empty:
            return {}
        cur = self.current(db, username, q)
        ids = [self.cast(x) for x in q[self.key]]
        i = ids.index(cur) if cur in ids else 0
        return {
            name: (self.next_open(q, after=cur) or cur) if only_open else ids[min(max(i + delta, 0), len(ids) - 1)]
            for name, (delta, only_open) in moves.items()
        }

    def step(self, db: Database, username: str, delta: int, only_open: bool = False):
        """Move ``delta`` items forward/back, or (``only_open``) to the next unfinished
        item after the current one; returns where the user is now."""
        target = self.peek(db, username, delta, only_open)
        if target is not None:
            self.set_position(db, username, target)
        return target
