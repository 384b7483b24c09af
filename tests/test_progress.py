"""Progress per annotator counts the questions assigned to them (issue 13, item 7), with
a question finished by the one rule of judging.finished."""

from __future__ import annotations

from reljudge.campaign import assignment
from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.campaign import progress


def _grade_everything_assigned(db, username):
    for qid in judging.overview(db, username).qid:
        pids = judging.store.question_items(db, username, qid).pid
        judging.record(
            db,
            username,
            [
                {"id": f"{username}-{qid}-{pid}", "kind": "grade", "qid": qid, "pid": pid, "grade": 0, "ms": 1500}
                for pid in pids
            ],
        )
        if pids.empty:  # an empty pool is finished by its verdict
            judging.mark_no_answer(db, username, qid)


def test_everything_assigned_and_graded_reads_100_percent(db):
    """Two annotators with overlap who judged all their work: 100 % for every type each
    one has, not the share of the whole pool of the type (59–78 % in the issue)."""
    campaign.load_demo(db)
    plan = assignment.assign(db, "lead", ["annotator1", "annotator2"], double_share=0.3, seed=1)
    for username in ("annotator1", "annotator2"):
        _grade_everything_assigned(db, username)
    prog = progress.by_annotator(db)
    assert set(prog.username) == {"annotator1", "annotator2"}
    assert list(prog.percent.unique()) == [100.0]
    assert (prog.finished == prog.questions).all()
    assigned = plan.rows.merge(judging.all_questions(db), on="qid").groupby(["username", "qtype"]).size()
    got = prog.set_index(["username", "qtype"]).questions
    assert got.sort_index().to_dict() == assigned.sort_index().to_dict()
    assert (prog.median_seconds == 1.5).all()


def test_progress_is_partial_over_the_assigned_questions_only(campaign_db):
    db = campaign_db
    rows = judging.all_questions(db)[["qid"]].assign(username=["ann", "bob", "bob"])
    from reljudge.storage import team

    team.replace_assignments(db, rows[["qid", "username"]], "lee")
    judging.grade(db, "ann", "q1", "p02", 2, ms=2000)  # q1 has 4 pooled paragraphs
    judging.grade(db, "ann", "q1", "p01", 1, ms=4000)
    judging.grade(db, "bob", "q2", "p04", 0, ms=1000)  # not bob's finished question yet
    prog = progress.by_annotator(db).set_index(["username", "qtype"])
    ann = prog.loc[("ann", "사실 확인")]
    assert (ann.questions, ann.finished, ann.judged, ann.pool_size, ann.percent) == (1, 0, 2, 4, 50.0)
    assert ann.median_seconds == 3.0
    # ann has no question of the other types: no row says she is 0 % through them
    assert set(prog.loc["ann"].index) == {"사실 확인"}
    assert set(prog.loc["bob"].index) == {"개념 관계", "전역 주제"}
    # finishing is judging.finished: every pooled paragraph graded
    for pid in ("p01", "p02", "p03", "p08"):
        judging.grade(db, "ann", "q1", pid, 0)
    ann = progress.by_annotator(db).set_index(["username", "qtype"]).loc[("ann", "사실 확인")]
    assert (ann.finished, ann.percent) == (1, 100.0)
