"""The browser's events, whatever screen made them: paragraph judgments
(:mod:`reljudge.campaign.judging`) and answer reviews (:mod:`reljudge.review.events`) share one outbox
in the browser and one route on the server, and are told apart by ``kind``."""

from __future__ import annotations

from reljudge.campaign import judging
from reljudge.review import events as review_events
from reljudge.storage.db import Database


def is_review(event) -> bool:
    return isinstance(event, dict) and event.get("kind") in review_events.KINDS


def record_each(db: Database, username: str, events: list) -> tuple[list[str], dict[str, str], dict[str, int]]:
    """Store a mixed batch: each event goes to its own checks and table. Returns
    (acknowledged ids, {refused id: code}, {acknowledged id: stored event id}) as
    :func:`reljudge.campaign.judging.record_each` does for its kind."""
    acked: list[str] = []
    refused: dict[str, str] = {}
    eids: dict[str, int] = {}
    reviews = [e for e in events if is_review(e)]
    judgments = [e for e in events if not is_review(e)]
    for module, batch in ((judging, judgments), (review_events, reviews)):
        if batch:
            a, r, e = module.record_each(db, username, batch, with_ids=True, codes=True)
            acked += a
            refused.update(r)
            eids.update(e)
    return acked, refused, eids
