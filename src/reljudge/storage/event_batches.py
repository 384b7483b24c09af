"""The rule of a group commit of browser events, shared by paragraph judgments
(storage.judgments) and answer reviews (storage.answers): which events of the group are
stored, which are refused and why, and what each save is told. Each caller checks its
own items (pooled paragraph, cited sentence, queue) and writes its own table; this
decides the rest the same way for both."""

from __future__ import annotations

from typing import Callable, Hashable

STALE = "stale"  # the rejection code of an edit older than another browser's newer decision

Row = tuple[int, str, dict]  # (batch index, username, event row)
Results = list[tuple[dict[str, int], dict[str, tuple[str, str | None]]]]


def sort_out(
    batches: list[tuple[str, list[dict], bool]],
    rows: list[Row],
    problems: dict[int, dict[str, tuple[str, str | None]]],
    stored_before: set[tuple[str, str]],
    latest: dict[Hashable, tuple[float, str | None]],
    item_of: Callable[[str, dict], Hashable],
) -> tuple[list[tuple[str, dict]], Results]:
    """(the events to insert, in the order they were made, as (username, row); the
    result of each batch so far: {} acknowledgments, {refused id: (code, detail)}).

    An event with a problem (``problems[batch][client id]``) is refused with it; the other
    events of an all-or-nothing batch that has one are ``held_back``; an id its author stored
    before (``stored_before``: (username, client id) pairs: ids are per author) or earlier in
    this group is not stored again (acknowledged by :func:`acknowledge`);
    an edit made on a state (``base_event_id``) older than another browser's newer event
    on the same item (``latest[item]``: (event id, client id)) is ``STALE``, the newer
    one is kept."""
    results: Results = [({}, {}) for _ in batches]
    to_insert, seen = [], set(stored_before)
    for b, username, row in rows:
        cid = row["client_event_id"]
        if cid in problems.get(b, {}):
            results[b][1][cid] = problems[b][cid]
            continue
        if batches[b][2] and problems.get(b):
            results[b][1][cid] = ("held_back", None)
            continue
        if (username, cid) in seen:
            continue  # resent: acknowledged below, stored once
        item = item_of(username, row)
        newest = latest.get(item)
        base = row["base_event_id"]
        if base is not None and newest is not None and newest[0] > base and newest[1] != row["client_id"]:
            results[b][1][cid] = (STALE, None)
            continue
        seen.add((username, cid))
        to_insert.append((username, row))
        # Later events of this group compare with this one: it is newer than any base.
        latest[item] = (float("inf"), row["client_id"])
    return to_insert, results


def acknowledge(rows: list[Row], results: Results, eids: dict[tuple[str, str], int]) -> Results:
    """Acknowledge every event of ``rows`` that is stored (``eids``: (username, client id)
    → event id: ids are per author) and was not refused in its batch; returns ``results``."""
    for b, username, row in rows:
        cid = row["client_event_id"]
        if (username, cid) in eids and cid not in results[b][1]:
            results[b][0][cid] = eids[(username, cid)]
    return results
