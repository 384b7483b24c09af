"""One session's bad input never fails another session's save.

Every field of a browser event is checked before the transaction (reljudge.campaign.event_fields,
one routine for paragraph judgments and answer reviews): a bad event is refused by code
on its own while the good events of the same request are stored; and the group commit
stores each member of a group on its own when the group as a whole fails, so a member
that fails in storage takes only its own save down. Real databases (both backends)."""

from __future__ import annotations

import json
import threading
import time

import pytest

from reljudge.campaign import events
from reljudge.campaign import group_commit
from reljudge.review import ingest
from reljudge.storage import judgments as judgment_store

ANSWERS = [
    {"qid": "q1", "system": "rag", "answer": "감사는 받은 것을 헤아리는 데서 시작됩니다 [p01].", "citations": []}
]


def grade_event(cid: str, **extra) -> dict:
    return {"id": cid, "kind": "grade", "qid": "q1", "pid": "p02", "grade": 1, "ms": 500, **extra}


# Each of these passed the old judgment parser (and most failed the whole group in storage).
POISONED_JUDGMENTS = {
    "base_1e30": grade_event("x", base=1e30),
    "base_beyond_bigint": grade_event("x", base=10**30),
    "base_negative": grade_event("x", base=-5),
    "note_lone_surrogate": grade_event("x", note="x\ud800y"),
    "note_nul": grade_event("x", note="a\x00b"),
    "evidence_lone_surrogate": grade_event("x", grade=2, evidence="\udfff"),
    "note_not_a_string": grade_event("x", note={"a": [1, 2]}),
    "grade_true": grade_event("x", grade=True),
    "grade_float": grade_event("x", grade=2.0),
    "grade_string": grade_event("x", grade="2"),
    "ms_nan": grade_event("x", ms=float("nan")),
    "ms_string": grade_event("x", ms="900"),
    "client_lone_surrogate": grade_event("x", client="\ud800"),
    "pid_nested": grade_event("x", pid=[[["p02"]]]),
    "verdict_string_false": {"id": "x", "kind": "verdict", "qid": "q1", "no_answer": "false"},
    "verdict_number": {"id": "x", "kind": "verdict", "qid": "q1", "no_answer": 0},
    "kind_nested": {"id": "x", "kind": [["grade"]], "qid": "q1"},
}


@pytest.mark.parametrize("name", sorted(POISONED_JUDGMENTS))
def test_a_bad_judgment_event_is_refused_by_code_and_the_good_one_beside_it_is_stored(campaign_db, name):
    bad = POISONED_JUDGMENTS[name]
    good = grade_event("good-1", grade=2, note="정의가 분명함")
    acked, refused, eids = events.record_each(campaign_db, "ann", [bad, good])
    assert acked == ["good-1"] and set(eids) == {"good-1"}
    assert refused == {"x": "malformed"}
    stored = campaign_db.cursor().execute("SELECT client_event_id, grade FROM judgment_events").fetchall()
    assert stored == [("good-1", 2)]


def test_a_bad_id_is_answered_under_a_placeholder_that_can_be_sent_back(campaign_db):
    acked, refused, _ = events.record_each(
        campaign_db, "ann", [grade_event("\ud800"), grade_event("k" * 101), grade_event("ok")]
    )
    assert acked == ["ok"] and refused == {"?": "malformed"}
    json.dumps({"acked": acked, "rejected": refused}, ensure_ascii=False).encode("utf-8")


@pytest.fixture
def answered(campaign_db, tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ANSWERS), encoding="utf-8")
    ingest.import_answers(campaign_db, path)
    return campaign_db, int(campaign_db.cursor().execute("SELECT answer_id FROM current_answers").fetchone()[0])


def support(cid: str, answer_id, **extra) -> dict:
    return {"id": cid, "kind": "support", "answer_id": answer_id, "sentence": 0, "pid": "p01", "grade": 2, **extra}


@pytest.mark.parametrize(
    "name",
    [
        "grade_true",
        "grade_float",
        "answer_id_string",
        "answer_id_true",
        "sentence_float",
        "base_1e30",
        "note_surrogate",
        "flag_string",
        "flag_number",
    ],
)
def test_a_bad_review_event_is_refused_by_the_same_checks(answered, name):
    db, a = answered
    bad = {
        "grade_true": support("x", a, grade=True),
        "grade_float": support("x", a, grade=2.0),
        "answer_id_string": support("x", str(a)),
        "answer_id_true": support("x", True),
        "sentence_float": support("x", a, sentence=0.0),
        "base_1e30": support("x", a, base=1e30),
        "note_surrogate": support("x", a, note="\ud800"),
        "flag_string": {"id": "x", "kind": "needs_citation", "answer_id": a, "sentence": 0, "needs_citation": "false"},
        "flag_number": {"id": "x", "kind": "abstention", "answer_id": a, "appropriate": 1},
    }[name]
    acked, refused, _ = events.record_each(db, "ann", [bad, support("good-r", a)])
    assert acked == ["good-r"] and refused == {"x": "malformed"}


def test_one_annotator_posting_poisoned_saves_never_fails_another_annotators_save(campaign_db):
    """The measured fault: while one account posted poisoned saves, another annotator's
    saves, grouped with them in one transaction, failed. Both post at once here."""
    db = campaign_db
    poison = list(POISONED_JUDGMENTS.values())
    stop = threading.Event()
    failures: list[BaseException] = []
    b_results: list[tuple] = []

    def poisoner():
        k = 0
        while not stop.is_set():
            k += 1
            batch = [dict(e, id=f"a-{k}-{i}") for i, e in enumerate(poison[k % len(poison) :] + poison[:1])]
            try:
                events.record_each(db, "bob", batch)
            except BaseException:  # noqa: BLE001 — the poisoner's own failures do not matter
                pass

    def annotator():
        try:
            for k in range(120):
                b_results.append(events.record_each(db, "ann", [grade_event(f"b-{k}", grade=k % 3)]))
        except BaseException as exc:  # noqa: BLE001 — reported below
            failures.append(exc)
        finally:
            stop.set()

    threads = [threading.Thread(target=poisoner), threading.Thread(target=poisoner), threading.Thread(target=annotator)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not failures, f"an annotator's save failed because of another's input: {failures[0]!r}"
    assert all(r[0] == [f"b-{k}"] and r[1] == {} for k, r in enumerate(b_results))
    n = db.cursor().execute("SELECT count(*) FROM judgment_events WHERE username = 'ann'").fetchone()[0]
    assert n == 120


def wait_until(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.005)


def test_the_group_commit_stores_each_member_alone_when_the_group_fails(campaign_db):
    """A member whose rows pass every check but fail in storage (a real CHECK constraint
    of judgment_events: grade 7, rows handed to the store directly, past the parser) is
    grouped with another annotator's good save: only the faulty member gets the error."""
    db = campaign_db
    commit = group_commit.for_database(db, judgment_store.append_event_batches)

    def row(cid: str, grade: int) -> dict:
        return {
            "client_event_id": cid,
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

    results: dict[str, object] = {}

    def submit(name: str, user: str, rows: list[dict]):
        try:
            results[name] = commit.submit(db, user, rows, False)
        except BaseException as exc:  # noqa: BLE001 — compared below
            results[name] = exc

    # Hold the write lock so that a first save leads and waits, and the two others queue
    # up behind it: they are then stored as one group.
    with db._write_lock:
        first = threading.Thread(target=submit, args=("first", "lee", [row("lead-1", 0)]))
        first.start()
        wait_until(lambda: commit._leading)
        others = [
            threading.Thread(target=submit, args=("bad", "bob", [row("bad-1", 7)])),
            threading.Thread(target=submit, args=("good", "ann", [row("good-1", 2), row("good-2", 1)])),
        ]
        for t in others:
            t.start()
        wait_until(lambda: len(commit._waiting) == 2)
    for t in [first, *others]:
        t.join(timeout=60)
    assert not isinstance(results["good"], BaseException), f"the good save failed with the bad one: {results['good']!r}"
    stored, refused = results["good"]
    assert set(stored) == {"good-1", "good-2"} and refused == {}
    assert isinstance(results["bad"], BaseException)
    assert not isinstance(results["first"], BaseException)
    rows = db.cursor().execute("SELECT client_event_id FROM judgment_events ORDER BY 1").fetchall()
    assert rows == [("good-1",), ("good-2",), ("lead-1",)]
