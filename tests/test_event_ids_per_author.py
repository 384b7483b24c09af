"""A client event id is unique per author, not across the team (migration 12).

Annotator B resending an id that annotator A used was acknowledged with A's stored event
number and nothing was stored for B: an acknowledged save that did not exist, and a leak
of A's event number. Both backends; and a database made before the step keeps its events
and numbers when it is migrated."""

from __future__ import annotations

import json

import pytest

from reljudge.campaign import events
from reljudge.review import ingest
from reljudge.storage import migrations
from reljudge.storage.db import open_database


def grade_event(cid: str, grade: int, pid: str = "p02") -> dict:
    return {"id": cid, "kind": "grade", "qid": "q1", "pid": pid, "grade": grade}


def test_another_annotator_reusing_an_id_gets_an_event_of_their_own(campaign_db):
    db = campaign_db
    acked_a, refused_a, eids_a = events.record_each(db, "ann", [grade_event("same-id", 2)])
    assert acked_a == ["same-id"] and refused_a == {}
    acked_b, refused_b, eids_b = events.record_each(db, "bob", [grade_event("same-id", 0)])
    assert acked_b == ["same-id"] and refused_b == {}
    assert eids_b["same-id"] != eids_a["same-id"], "B was told A's event number"
    # Resends: each is acknowledged with its own number, and stored once.
    assert events.record_each(db, "ann", [grade_event("same-id", 2)])[2] == eids_a
    assert events.record_each(db, "bob", [grade_event("same-id", 0)])[2] == eids_b
    rows = (
        db.cursor()
        .execute(
            "SELECT username, grade, event_id FROM judgment_events WHERE client_event_id = 'same-id' ORDER BY username"
        )
        .fetchall()
    )
    assert rows == [("ann", 2, eids_a["same-id"]), ("bob", 0, eids_b["same-id"])]


def test_two_annotators_with_one_id_in_one_group(campaign_db):
    """The same id from two people in one call of the store (one group commit)."""
    from reljudge.storage import judgments as store

    db = campaign_db

    def row(grade):
        return {
            "client_event_id": "shared",
            "qid": "q1",
            "pid": "p02",
            "grade": grade,
            "no_answer": None,
            "note": None,
            "evidence": None,
            "time_spent_ms": None,
            "client_id": None,
            "base_event_id": None,
        }

    (stored_a, _), (stored_b, _) = store.append_event_batches(db, [("ann", [row(1)], False), ("bob", [row(2)], False)])
    assert set(stored_a) == set(stored_b) == {"shared"} and stored_a["shared"] != stored_b["shared"]
    assert sorted(db.cursor().execute("SELECT username, grade FROM judgment_events").fetchall()) == [
        ("ann", 1),
        ("bob", 2),
    ]


def test_review_event_ids_are_per_author_too(campaign_db, tmp_path):
    db = campaign_db
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        json.dumps(
            {"qid": "q1", "system": "rag", "answer": "감사는 시작됩니다 [p01].", "citations": []}, ensure_ascii=False
        )
        + "\n",
        encoding="utf-8",
    )
    ingest.import_answers(db, answers)
    a = int(db.cursor().execute("SELECT answer_id FROM current_answers").fetchone()[0])
    event = {"id": "r-1", "kind": "interpretation", "answer_id": a, "grade": 2}
    _, _, eids_a = events.record_each(db, "ann", [event])
    acked, refused, eids_b = events.record_each(db, "bob", [dict(event, grade=0)])
    assert acked == ["r-1"] and refused == {} and eids_b["r-1"] != eids_a["r-1"]
    assert events.record_each(db, "ann", [event])[2] == eids_a
    assert sorted(db.cursor().execute("SELECT username, grade FROM review_events").fetchall()) == [
        ("ann", 2),
        ("bob", 0),
    ]


@pytest.fixture
def empty_target(backend, request, tmp_path):
    """A database with no schema yet: a new file, or a new PostgreSQL database (not the
    migrated template)."""
    if backend == "postgresql":
        server = request.getfixturevalue("pg_server")
        return server.url(server.new_database())
    return tmp_path / "before.duckdb"


def test_a_database_made_before_the_step_keeps_its_events_and_numbers(empty_target, files):
    """Migrated to step 11 (the schema as shipped before), events stored, then opened with
    step 12: every event keeps its number and fields, new numbers continue after them, and
    the per-author rule holds."""
    from reljudge.campaign import auth
    from reljudge.campaign import setup as campaign

    shipped = list(migrations.MIGRATIONS)
    migrations.MIGRATIONS[:] = [m for m in shipped if m[0] <= 11]
    try:
        db = open_database(empty_target)
        # questions as that schema held them (today's import also checks the declared
        # types of a later step)
        from conftest import QUESTIONS

        with db.transaction() as cur:
            for qid, text, qtype, criteria in QUESTIONS:
                cur.execute(
                    "INSERT INTO questions(qid, text, qtype, criteria, no_answer_expected) VALUES (?, ?, ?, ?, ?)",
                    [qid, text, qtype, criteria, qid == "q3"],
                )
        for kind, key in (("corpus", "corpus"), ("run", "run_a")):
            campaign.import_file(db, kind, files[key])
        campaign.pool(db, 10)
        auth.add_user(db, "ann", "password-ann", "annotator")
        auth.add_user(db, "bob", "password-bob", "annotator")
        events.record_each(db, "ann", [grade_event("old-1", 2), grade_event("old-2", 1, "p01")])
        before = db.cursor().execute("SELECT * FROM judgment_events ORDER BY event_id").fetchall()
        db.close()
    finally:
        migrations.MIGRATIONS[:] = shipped
    db = open_database(empty_target)
    try:
        assert (12, "event_ids_per_author") in db.applied_migrations()
        assert db.cursor().execute("SELECT * FROM judgment_events ORDER BY event_id").fetchall() == before
        _, _, eids = events.record_each(db, "bob", [grade_event("old-1", 0)])
        assert eids["old-1"] > max(r[0] for r in before)
        assert events.record_each(db, "ann", [grade_event("old-1", 2)])[2] == {"old-1": before[0][0]}
        assert db.cursor().execute("SELECT count(*) FROM judgment_events").fetchone()[0] == 3
    finally:
        db.close()
