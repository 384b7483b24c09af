"""Pooling, blind judging views, append-only events, resume."""

from __future__ import annotations

import pytest

from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.campaign import progress
from reljudge.errors import ReljudgeError


def _pool(db, qid):
    return {r[0] for r in db.cursor().execute("SELECT pid FROM pool WHERE qid = ?", [qid]).fetchall()}


def test_pool_is_union_of_top_depth_with_duplicates_collapsed(campaign_db):
    # q1: bm25 p02,p01,p06(dup of p01),p03 ; vector p07(dup of p01),p08
    assert _pool(campaign_db, "q1") == {"p02", "p01", "p03", "p08"}
    assert _pool(campaign_db, "q2") == {"p04", "p05", "p03"}


def test_pool_depth_must_cover_the_largest_k(campaign_db):
    with pytest.raises(ReljudgeError, match="below the largest K") as err:
        campaign.pool(campaign_db, 5)  # K = 1, 3, 5, 10 by default
    from reljudge import i18n

    assert "풀 깊이 5" in i18n.message(err.value.message, "ko")  # the import page's wording


def test_pool_depth_closes_ranks_after_duplicates(campaign_db):
    from reljudge.storage import catalog

    catalog.set_setting(campaign_db, "ks", "1")
    campaign.pool(campaign_db, 2)
    # bm25 top-2 of q1 by score: p02 (9.0), then p06/p01 tie at 8.0 broken by pid desc -> p06,
    # which is p01's copy; vector top-2: p07 (copy of p01), p08.
    assert _pool(campaign_db, "q1") == {"p02", "p01", "p08"}
    campaign.pool(campaign_db, 1)
    assert _pool(campaign_db, "q1") == {"p02", "p01"}
    assert campaign.settings(campaign_db)["pool_depth"] == "1"


def test_payload_is_blind_and_shuffled_stably_per_annotator(campaign_db):
    a = judging.payload(campaign_db, "ann", "q1")
    again = judging.payload(campaign_db, "ann", "q1")
    assert [i["pid"] for i in a["items"]] == [i["pid"] for i in again["items"]]
    assert {i["pid"] for i in a["items"]} == {"p02", "p01", "p03", "p08"}
    flat = repr(a)
    for leak in ("bm25", "vector", "score", "rank", "9.0"):
        assert leak not in flat
    # the order differs between annotators for at least one question
    orders = {
        u: [[i["pid"] for i in judging.payload(campaign_db, u, q)["items"]] for q in ("q1", "q2")]
        for u in ("ann", "bob", "lee")
    }
    assert len({repr(o) for o in orders.values()}) > 1


def test_payload_gives_source_neighbours_and_copies(campaign_db):
    items = {i["pid"]: i for i in judging.payload(campaign_db, "ann", "q1")["items"]}
    assert items["p02"]["prev"].startswith("감사는") and items["p02"]["next"].startswith("그날")
    assert items["p01"]["prev"] is None
    assert items["p01"]["copies"] == 3
    assert items["p02"]["source"] == "[예시] 문서 d1 · 1980-01-01 · 1권 20쪽"
    assert judging.source_line("T", None, None, "5", "en") == "T · p. 5"


def test_events_are_append_only_latest_wins_and_idempotent(campaign_db):
    db = campaign_db
    judging.grade(db, "ann", "q1", "p02", 1)
    judging.grade(db, "ann", "q1", "p02", 2, note="정의가 분명함", evidence="감사의 생활이란…", ms=3200)
    events = [{"id": "e-1", "kind": "grade", "qid": "q1", "pid": "p01", "grade": 0, "ms": 900}]
    assert judging.record(db, "ann", events) == ["e-1"]
    assert judging.record(db, "ann", events) == ["e-1"]  # resent: stored once
    cur = db.cursor()
    assert cur.execute("SELECT count(*) FROM judgment_events").fetchone()[0] == 3
    rows = cur.execute(
        "SELECT pid, grade, note, evidence FROM current_judgments WHERE username='ann' ORDER BY pid"
    ).fetchall()
    assert rows == [("p01", 0, None, None), ("p02", 2, "정의가 분명함", "감사의 생활이란…")]
    hist = judging.history(db, "q1", "p02")
    assert list(hist.grade) == [1, 2] and hist.previous_grade.iloc[1] == 1
    # clearing a grade is a new event too
    judging.grade(db, "ann", "q1", "p02", None)
    assert cur.execute("SELECT count(*) FROM current_judgments WHERE pid='p02'").fetchone()[0] == 0
    assert cur.execute("SELECT count(*) FROM judgment_events").fetchone()[0] == 4


def test_events_outside_the_pool_or_invalid_are_refused(campaign_db):
    with pytest.raises(ReljudgeError, match="not in the pool"):
        judging.grade(campaign_db, "ann", "q1", "p05", 2)
    with pytest.raises(ReljudgeError, match="grade must be"):
        judging.record(campaign_db, "ann", [{"kind": "grade", "qid": "q1", "pid": "p02", "grade": 3}])
    with pytest.raises(ReljudgeError):
        judging.record(campaign_db, "ann", [{"kind": "delete", "qid": "q1"}])
    assert campaign_db.cursor().execute("SELECT count(*) FROM judgment_events").fetchone()[0] == 0


def test_database_constraints_guard_invariants(campaign_db):
    import duckdb

    cur = campaign_db.cursor()
    # DuckDB raises ConstraintException; PostgreSQL's own refusal comes back through the
    # postgres extension as a duckdb.Error quoting it ("violates check constraint").
    with pytest.raises(duckdb.Error, match="(?i)constraint"):
        cur.execute(
            "INSERT INTO judgment_events(client_event_id, username, qid, pid, grade) "
            "VALUES ('x', 'ann', 'q1', 'p02', 5)"
        )
    with pytest.raises(duckdb.Error, match="(?i)constraint"):
        cur.execute(
            "INSERT INTO judgment_events(client_event_id, username, qid, pid, grade, evidence) "
            "VALUES ('y', 'ann', 'q1', 'p02', 1, 'not citable')"
        )


def test_no_answer_verdict_and_progress(campaign_db):
    db = campaign_db
    judging.mark_no_answer(db, "ann", "q3", True, note="우주 관련 문단 없음")
    judging.grade(db, "ann", "q1", "p02", 2)
    p = judging.payload(db, "ann", "q3")
    assert p["no_answer"] is True and p["verdict_note"] == "우주 관련 문단 없음"
    assert p["progress"]["judged"] == 1 and p["progress"]["total"] == 9
    # 'no answer' alone does not finish a question whose paragraphs are ungraded
    assert p["progress"]["questions_done"] == 0
    for item in p["items"]:
        judging.grade(db, "ann", "q3", item["pid"], 0)
    assert judging.payload(db, "ann", "q3")["progress"]["questions_done"] == 1
    judging.mark_no_answer(db, "ann", "q3", False)
    assert judging.payload(db, "ann", "q3")["no_answer"] is False


def test_resume_where_left_off_and_navigation(campaign_db):
    db = campaign_db
    assert judging.current_question(db, "ann") == "q1"
    assert judging.step(db, "ann", 1) == "q2"
    assert judging.current_question(db, "ann") == "q2"  # remembered in the database
    assert judging.step(db, "ann", 5) == "q3"  # clamps at the end
    judging.go_to(db, "ann", "q1")
    for pid in ("p02", "p01", "p03", "p08"):
        judging.grade(db, "ann", "q1", pid, 0)
    assert judging.step(db, "ann", 1, only_open=True) == "q2"
    with pytest.raises(ReljudgeError):
        judging.go_to(db, "ann", "nope")
    ov = judging.overview(db, "ann")
    assert list(ov.judged) == [4, 0, 0] and list(ov.pool_size) == [4, 3, 2]


def test_progress_by_annotator(campaign_db):
    judging.grade(campaign_db, "ann", "q1", "p02", 2, ms=2000)
    judging.grade(campaign_db, "ann", "q1", "p01", 1, ms=4000)
    prog = progress.by_annotator(campaign_db)
    row = prog[(prog.username == "ann") & (prog.qtype == "사실 확인")].iloc[0]
    assert row.judged == 2 and row.pool_size == 4 and row.median_seconds == 3.0


def test_one_bad_event_does_not_block_the_batch(campaign_db):
    events = [
        {"id": "ok-1", "kind": "grade", "qid": "q1", "pid": "p02", "grade": 2},
        {"id": "bad", "kind": "grade", "qid": "q1", "pid": "p05", "grade": 2},  # not pooled
        {"id": "ok-2", "kind": "verdict", "qid": "q3", "no_answer": True},
    ]
    acked, rejected = judging.record_each(campaign_db, "ann", events)
    assert acked == ["ok-1", "ok-2"] and list(rejected) == ["bad"] and "not in the pool" in rejected["bad"]


def test_a_late_offline_edit_does_not_replace_a_newer_one_from_another_browser(campaign_db):
    db = campaign_db

    def ev(cid, client, base, grade):
        return {"id": cid, "kind": "grade", "qid": "q1", "pid": "p02", "grade": grade, "client": client, "base": base}

    # browser A grades twice before any acknowledgment: both are its own edits
    assert sorted(judging.record(db, "ann", [ev("a1", "A", 0, 2), ev("a2", "A", 0, 1)])) == ["a1", "a2"]
    assert db.cursor().execute("SELECT grade FROM current_judgments WHERE pid = 'p02'").fetchall() == [(1,)]
    latest = judging.payload(db, "ann", "q1")["items"]
    eid = next(i["eid"] for i in latest if i["pid"] == "p02")
    # browser B, up to date, changes it to 0
    assert judging.record(db, "ann", [ev("b1", "B", eid, 0)]) == ["b1"]
    # browser A's edit made offline on the old state arrives late: refused, B's grade stays
    acked, rejected = judging.record_each(db, "ann", [ev("a3", "A", eid, 2), ev("a4", "A", 0, 2)])
    assert acked == [] and set(rejected) == {"a3", "a4"} and "another browser" in rejected["a3"]
    assert db.cursor().execute("SELECT grade FROM current_judgments WHERE pid = 'p02'").fetchall() == [(0,)]
    # a script without a base is never refused
    judging.grade(db, "ann", "q1", "p02", 1)
    assert db.cursor().execute("SELECT grade FROM current_judgments WHERE pid = 'p02'").fetchall() == [(1,)]


def test_work_left_counts_other_questions_and_what_is_left_here(campaign_db):
    db = campaign_db
    pool = {q: [it["pid"] for it in judging.payload(db, "ann", q)["items"]] for q in ("q1", "q2", "q3")}
    others, here = judging.work_left(db, "ann", "q1")
    assert (others, here) == (sum(1 for q in ("q2", "q3") if pool[q]), len(pool["q1"]))
    judging.grade(db, "ann", "q1", pool["q1"][0], 2)
    assert judging.work_left(db, "ann", "q1")[1] == len(pool["q1"]) - 1
    for q in ("q2", "q3"):
        judging.mark_no_answer(db, "ann", q, True)  # 'no answer' alone does not finish it
    assert judging.work_left(db, "ann", "q1")[0] == 2
    for q in ("q2", "q3"):
        for pid in pool[q]:
            judging.grade(db, "ann", q, pid, 0)  # grading its paragraphs does
    assert judging.work_left(db, "ann", "q1")[0] == 0
    for pid in pool["q1"][1:]:
        judging.grade(db, "ann", "q1", pid, 0)
    assert judging.work_left(db, "ann", "q1") == (0, 0)


def test_a_cleared_grade_counts_as_ungraded_everywhere_the_annotator_looks(campaign_db):
    db = campaign_db
    judging.grade(db, "ann", "q1", "p02", 2, note="근거")
    judging.grade(db, "ann", "q1", "p02", None)  # cleared: the latest event has no grade
    item = next(i for i in judging.payload(db, "ann", "q1")["items"] if i["pid"] == "p02")
    assert item["grade"] is None and item["note"] == ""
    assert judging.overview(db, "ann").set_index("qid").loc["q1", "judged"] == 0


def test_an_offline_edit_does_not_replace_a_newer_judgment_made_by_a_script(campaign_db):
    """A script's event carries no browser id; it is still newer than the browser's state."""
    db = campaign_db
    judging.record(
        db, "ann", [{"id": "a1", "kind": "grade", "qid": "q1", "pid": "p02", "grade": 2, "client": "A", "base": 0}]
    )
    base = next(i["eid"] for i in judging.payload(db, "ann", "q1")["items"] if i["pid"] == "p02")
    judging.grade(db, "ann", "q1", "p02", 0)  # a script, no client id
    acked, rejected = judging.record_each(
        db, "ann", [{"id": "a2", "kind": "grade", "qid": "q1", "pid": "p02", "grade": 1, "client": "A", "base": base}]
    )
    assert acked == [] and list(rejected) == ["a2"]
    assert db.cursor().execute("SELECT grade FROM current_judgments WHERE pid = 'p02'").fetchall() == [(0,)]


def test_a_new_annotator_opens_on_the_first_unfinished_question_of_their_queue(campaign_db):
    """Another annotator's work does not make a newcomer skip a question (it did: the
    least-judged rule opened q2 because someone had started q1)."""
    db = campaign_db
    judging.grade(db, "ann", "q1", "p02", 2)
    assert judging.current_question(db, "bob") == "q1"
    assert judging.payload(db, "bob", "q1")["unfinished_before"] == 0


def test_the_widget_says_when_unfinished_questions_come_before(campaign_db):
    db = campaign_db
    judging.go_to(db, "ann", "q3")
    assert judging.payload(db, "ann", "q3")["unfinished_before"] == 2
    for pid in ("p02", "p01", "p03", "p08"):
        judging.grade(db, "ann", "q1", pid, 0)
    assert judging.payload(db, "ann", "q3")["unfinished_before"] == 1
    assert judging.step(db, "ann", 1, only_open=True) == "q2"  # U: the next unfinished one
