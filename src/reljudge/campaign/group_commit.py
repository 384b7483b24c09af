"""Group commit: saves that arrive while a transaction runs are stored together in the next.

The first caller to find no transaction running leads: it takes every waiting save,
stores them in one transaction through ``store(db, batches)`` (one set of checks, one
commit), hands each caller its own result and steps down; one of those still waiting
leads the next group. Under load the groups grow, so the cost per save falls as people
are added instead of every save queueing for its own transaction.

A group that fails as a whole (not a conflict with another process) is stored again
member by member, each in its own transaction: one session's save that fails in storage
cannot fail the saves of the people grouped with it.

``store`` receives [(username, rows, all_or_nothing), ...] and returns one result per
batch, in order (e.g. :func:`reljudge.storage.answers.append_review_batches`). This is
the rule of :class:`reljudge.campaign.judging._GroupCommit`, written once with the store as a
parameter so that review events share it.
"""

from __future__ import annotations

import threading
import time

from reljudge.storage import failures

#: A group that collides with another process's commit (PostgreSQL: the same client event
#: id stored meanwhile, a serialization failure, a deadlock) is stored again, whole: the
#: retry sees the other commit and acknowledges those events as resends, stored once.
RETRIES = 5
_CONFLICTS = (
    "duplicate key value violates unique constraint",
    "could not serialize access",
    "deadlock detected",
    "conflict on tuple",
)


def is_conflict(exc: BaseException) -> bool:
    return any(marker in str(exc) for marker in _CONFLICTS)


class GroupCommit:
    def __init__(self, store):
        self._store = store
        self._cond = threading.Condition()
        self._waiting: list[dict] = []
        self._leading = False

    def submit(self, db, username: str, rows: list[dict], all_or_nothing: bool):
        entry = {"batch": (username, rows, all_or_nothing), "done": False, "result": None}
        with self._cond:
            self._waiting.append(entry)
            while not entry["done"] and self._leading:
                self._cond.wait()
            if not entry["done"]:
                self._leading = True
                group, self._waiting = self._waiting, []
        if not entry["done"]:
            results = self._store_group(db, [e["batch"] for e in group])
            with self._cond:
                for item, result in zip(group, results):
                    item["result"], item["done"] = result, True
                self._leading = False
                self._cond.notify_all()
        if isinstance(entry["result"], BaseException):
            raise entry["result"]
        return entry["result"]

    def _attempt(self, db, batches: list) -> list:
        """Store ``batches`` in one transaction, again (whole) after a conflict."""
        for attempt in range(RETRIES):
            try:
                return self._store(db, batches)
            except BaseException as exc:
                if attempt + 1 < RETRIES and is_conflict(exc):
                    time.sleep(0.005 * 2**attempt)
                    continue
                raise
        raise AssertionError("unreachable")

    def _store_group(self, db, batches: list) -> list:
        """One result per batch: its own, or the exception that storing it raised. When the
        group fails as a whole for a reason other than a conflict, each member is stored
        on its own, so that a member whose rows fail in storage fails alone and the
        others of the group are stored. A failure of the storage itself (a full disk, a
        read-only file: reljudge.storage.failures) fails every member at once."""
        try:
            return self._attempt(db, batches)
        except BaseException as exc:  # every save of the group learns of the failure
            if len(batches) == 1 or not isinstance(exc, Exception) or failures.is_storage_failure(exc):
                return [exc] * len(batches)
        results = []
        for batch in batches:
            try:
                results.append(self._attempt(db, [batch])[0])
            except BaseException as exc:  # noqa: BLE001 — this member's own failure
                results.append(exc)
        return results


_GROUPS: dict[tuple, GroupCommit] = {}
_LOCK = threading.Lock()


def for_database(db, store) -> GroupCommit:
    """The group commit of ``store`` on ``db`` (one per database and store)."""
    with _LOCK:
        return _GROUPS.setdefault((id(db), store), GroupCommit(store))
