"""Assignments, queues, aggregation, adjudication and frozen versions on real DuckDB."""

from __future__ import annotations

import pandas as pd
import pytest

from reljudge.campaign import team_agreement
from reljudge import i18n
from reljudge.campaign import adjudication
from reljudge.campaign import assignment
from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.errors import ReljudgeError
from reljudge.storage import team


def _questions(n_per_type=6, sizes=(20, 35, 50)):
    rows = []
    for t_i, qtype in enumerate(["사실 확인", "개념 관계", "시대 변화", "전역 주제"]):
        for i in range(n_per_type):
            rows.append({"qid": f"q{t_i}{i}", "qtype": qtype, "pool_size": sizes[(i + t_i) % len(sizes)]})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("n_annot", [2, 3, 5])
@pytest.mark.parametrize("per_question", [1, 2])
def test_plan_gives_each_question_its_annotators_balanced(n_annot, per_question):
    qs = _questions()
    names = [f"a{i}" for i in range(n_annot)]
    p = assignment.plan(qs, names, per_question=per_question, seed=3)
    per_q = p.rows.groupby("qid").username.nunique()
    assert (per_q == per_question).all() and set(per_q.index) == set(qs.qid)
    assert not p.rows.duplicated().any()
    # LPT keeps loads within the largest pool of each other
    assert p.loads.paragraphs.max() - p.loads.paragraphs.min() <= qs.pool_size.max()


def test_plan_double_share_and_by_type():
    qs = _questions()
    p = assignment.plan(qs, ["a", "b", "c"], double_share=0.5, by_type=True, seed=1)
    per_q = p.rows.groupby("qid").username.nunique()
    assert (per_q >= 1).all() and (per_q == 2).sum() == 12  # half of 24
    merged = p.rows.merge(qs, on="qid")
    # with by_type, every annotator gets work from every type
    assert merged.groupby("username").qtype.nunique().min() == 4
    doubled_by_type = merged[merged.qid.isin(per_q[per_q == 2].index)].groupby("qtype").qid.nunique()
    assert list(doubled_by_type) == [3, 3, 3, 3]
    assert assignment.plan(qs, ["a", "b", "c"], double_share=0.5, seed=1).rows.equals(
        assignment.plan(qs, ["a", "b", "c"], double_share=0.5, seed=1).rows
    )  # reproducible


def test_plan_errors():
    qs = _questions()
    with pytest.raises(ReljudgeError):
        assignment.plan(qs, [], per_question=1)
    with pytest.raises(ReljudgeError, match="only 2 available"):
        assignment.plan(qs, ["a", "b"], per_question=3)


@pytest.mark.parametrize("seed", range(40))
def test_plan_keeps_started_work_with_whoever_started_it(seed):
    rng = __import__("random").Random(seed)
    qs = _questions()
    names = [f"a{i}" for i in range(4)]
    started = pd.DataFrame(
        [(q, a, rng.randint(1, 30)) for q in qs.qid for a in names + ["gone"] if rng.random() < 0.3],
        columns=["qid", "username", "n"],
    )
    per_question = rng.choice([1, 2])
    p = assignment.plan(qs, names, per_question=per_question, double_share=0.3, seed=seed, started=started)
    assert not p.rows.duplicated().any() and "gone" not in set(p.rows.username)
    per_q = p.rows.groupby("qid").username.apply(set)
    starters = started[started.username.isin(names)].groupby("qid").username.apply(set)
    assert set(per_q.index) == set(qs.qid)
    for qid, people in per_q.items():
        mine = starters.get(qid, set())
        assert mine <= people  # nobody loses started work
        assert len(people) == max(per_question, len(mine)) or len(people) == 2 > per_question
    doubled = (p.rows.groupby("qid").size() >= 2).sum()
    assert doubled >= round(0.3 * len(qs))  # the double share still holds
    assert p.kept == len(starters)


def test_started_work_counts_in_the_balance():
    # 10 heavy questions (30 paragraphs) and 10 light ones (5) that a0 has started:
    # a0's kept load is counted before the heavy ones are shared out.
    qs = pd.DataFrame(
        {
            "qid": [f"h{i}" for i in range(10)] + [f"l{i}" for i in range(10)],
            "qtype": "x",
            "pool_size": [30] * 10 + [5] * 10,
        }
    )
    started = pd.DataFrame({"qid": [f"l{i}" for i in range(10)], "username": "a0", "n": 3})
    p = assignment.plan(qs, ["a0", "a1"], started=started, seed=2)
    loads = p.loads.set_index("username").paragraphs
    assert abs(loads["a0"] - loads["a1"]) <= 30, loads.to_dict()
    assert set(p.rows[p.rows.qid.str.startswith("l")].username) == {"a0"}


def test_plan_errors_when_nothing_is_pooled():
    qs = pd.DataFrame({"qid": ["a", "b"], "qtype": "x", "pool_size": [0, 0]})
    with pytest.raises(ReljudgeError, match="nothing is pooled yet"):
        assignment.plan(qs, ["a1"])


def test_assigning_keeps_started_questions_and_assigns_empty_pools(campaign_db, tmp_path):
    db = campaign_db
    extra = tmp_path / "more_questions.jsonl"
    extra.write_text(
        '{"qid": "q9", "text": "결과가 없는 질문", "type": "사실 확인", "criteria": "-"}\n', encoding="utf-8"
    )
    campaign.import_file(db, "questions", extra)
    judging.grade(db, "bob", "q1", "p02", 2)
    judging.grade(db, "bob", "q1", "p01", 1)
    judging.grade(db, "ann", "q1", "p03", 0)
    judging.mark_no_answer(db, "ann", "q2", True)
    judging.grade(db, "lee", "q3", "p08", 2)  # a lead's judgments do not bind
    result = assignment.assign(db, "lee", per_question=1, seed=5)
    active = team.active_assignments(db)
    owners = active.groupby("qid").username.apply(set).to_dict()
    assert owners["q1"] == {"ann", "bob"}  # both started q1: both keep it
    assert owners["q2"] == {"ann"} and len(owners["q9"]) == 1 and len(owners["q3"]) == 1
    assert result.kept == 2 and result.empty == ("q9",)
    text = i18n.message(result.messages(), "ko")
    assert "q9" in text and "이미 판정을 시작한 질문 2개" in text
    assert result.loads.paragraphs.dtype.kind == "i"
    assert "q1" in set(judging.overview(db, "bob").qid) and "q1" in set(judging.overview(db, "ann").qid)


def test_assigned_annotators_see_and_judge_only_their_queue(campaign_db):
    db = campaign_db
    team.replace_assignments(db, pd.DataFrame({"qid": ["q1", "q2", "q1"], "username": ["ann", "ann", "bob"]}), "lee")
    assert list(judging.overview(db, "ann").qid) == ["q1", "q2"]
    assert list(judging.overview(db, "bob").qid) == ["q1"]
    with pytest.raises(ReljudgeError, match="not assigned"):
        judging.grade(db, "bob", "q2", "p04", 2)
    with pytest.raises(ReljudgeError):
        judging.payload(db, "bob", "q2")
    judging.go_to(db, "ann", "q2")
    assert judging.current_question(db, "bob") == "q1"


def test_reassign_moves_unfinished_work(campaign_db):
    db = campaign_db
    auth.add_user(db, "cho", "password-cho", "annotator")
    team.replace_assignments(db, pd.DataFrame({"qid": ["q1", "q2", "q3"], "username": ["ann"] * 3}), "lee")
    for pid in ("p02", "p01", "p03", "p08"):  # ann finishes q1
        judging.grade(db, "ann", "q1", pid, 0)
    moved = assignment.reassign(db, "lee", "ann")
    assert sorted(moved.qid) == ["q2", "q3"]
    active = team.active_assignments(db)
    assert set(active[active.username == "ann"].qid) == {"q1"}
    assert set(active.qid) == {"q1", "q2", "q3"}
    # history is kept: the ended rows are still there
    assert db.cursor().execute("SELECT count(*) FROM assignments WHERE NOT active").fetchall()[0][0] == 2


def test_others_work_does_not_make_a_newcomer_skip_questions(campaign_db):
    """Issue 13: a new annotator opened on 'question 2 of 25' with no word why (the
    least-judged rule skipped what others had started). Now: their queue's first
    unfinished question, in campaign order."""
    db = campaign_db
    judging.grade(db, "bob", "q1", "p02", 2)
    judging.grade(db, "lee", "q1", "p02", 2)
    judging.grade(db, "lee", "q2", "p04", 2)
    assert judging.current_question(db, "ann") == "q1"


def test_next_unfinished_resumes_started_work_first(campaign_db):
    """U (next unfinished) goes to a question this annotator has started before any
    untouched one; then to the next unfinished one after the current, in campaign order."""
    db = campaign_db
    pool = {q: [it["pid"] for it in judging.payload(db, "ann", q)["items"]] for q in ("q1", "q2", "q3")}
    judging.grade(db, "bob", "q2", pool["q2"][0], 2)  # q2 is judged by someone else
    judging.go_to(db, "ann", "q3")
    judging.grade(db, "ann", "q2", pool["q2"][0], 1)  # ann started q2
    assert judging.step(db, "ann", 1, only_open=True) == "q2"  # not q1 (untouched, least judged)
    for pid in pool["q2"]:
        judging.grade(db, "ann", "q2", pid, 0)
    assert judging.step(db, "ann", 1, only_open=True) == "q3"  # after q2 in campaign order
    assert judging.step(db, "ann", 1, only_open=True) == "q1"  # then around


def _judge(db, table):
    for user, qid, pid, grade in table:
        judging.grade(db, user, qid, pid, grade)


def test_aggregation_provenance_and_adjudication(campaign_db):
    db = campaign_db
    auth.add_user(db, "cho", "password-cho", "annotator")
    _judge(
        db,
        [
            ("ann", "q1", "p02", 2),
            ("bob", "q1", "p02", 2),  # unanimous 2
            ("ann", "q1", "p01", 2),
            ("bob", "q1", "p01", 0),
            ("cho", "q1", "p01", 2),  # majority 2
            ("ann", "q1", "p03", 1),
            ("bob", "q1", "p03", 0),  # tie -> 0
            ("ann", "q1", "p08", 1),  # single
        ],
    )
    q = adjudication.qrels(db).set_index("pid")
    assert q.loc["p02", ["grade", "provenance"]].tolist() == [2, "unanimous"]
    assert q.loc["p01", ["grade", "provenance", "n_annotators"]].tolist() == [2, "majority", 3]
    assert q.loc["p03", ["grade", "provenance"]].tolist() == [0, "tie"]
    assert q.loc["p08", ["grade", "provenance"]].tolist() == [1, "single"]
    # the queue: 2-vs-0 before 1-vs-0, names never shown
    queue = adjudication.queue(db)
    assert list(queue.pid) == ["p01", "p03"]
    shown = {str(v) for col in queue.columns for v in queue[col]} | set(queue.columns)
    assert not {"ann", "bob", "cho", "username"} & shown
    assert sorted(queue.iloc[0].grades.split(" · ")) == ["0", "2", "2"]
    adjudication.adjudicate(db, "lee", "q1", "p03", 1, "둘째 문장이 부분 근거")
    q = adjudication.qrels(db).set_index("pid")
    assert q.loc["p03", ["grade", "provenance"]].tolist() == [1, "adjudicated"]
    assert list(adjudication.qrels(db, "majority").set_index("pid").loc[["p03"], "grade"]) == [0]
    assert list(adjudication.queue(db).pid) == ["p01"]
    assert set(adjudication.qrels(db, "annotator:bob").pid) == {"p02", "p01", "p03"}
    with pytest.raises(ReljudgeError, match="reason"):
        adjudication.adjudicate(db, "lee", "q1", "p01", 2, "  ")


def test_changes_first_flag(campaign_db):
    db = campaign_db
    # bm25 ranks q2: p04 (1), p05 (2); vector: p05 (1), p03 (2)
    _judge(
        db,
        [
            ("ann", "q2", "p05", 2),
            ("bob", "q2", "p05", 0),
            ("ann", "q2", "p03", 2),
            ("bob", "q2", "p03", 0),
            ("ann", "q2", "p04", 2),
            ("bob", "q2", "p04", 2),
        ],
    )
    queue = adjudication.queue(db).set_index("pid")
    # p05 sits above bm25's sure first citable? no (p04 is rank 1 in bm25), but vector has no
    # sure citable at all, so p05 (vector rank 1) and p03 (vector rank 2) both decide vector's first.
    assert bool(queue.loc["p05", "changes_first"]) and bool(queue.loc["p03", "changes_first"])
    assert queue.loc["p05", "n_systems"] == 1


def test_verdicts_and_freeze(campaign_db):
    db = campaign_db
    judging.mark_no_answer(db, "ann", "q3", True)
    judging.mark_no_answer(db, "bob", "q3", True)
    judging.mark_no_answer(db, "ann", "q2", True)
    judging.mark_no_answer(db, "bob", "q2", False)
    _judge(db, [("ann", "q1", "p02", 2), ("bob", "q1", "p02", 1)])
    v = adjudication.verdicts(db).set_index("qid")
    assert bool(v.loc["q3", "no_answer"]) and v.loc["q3", "provenance"] == "unanimous"
    assert bool(v.loc["q2", "no_answer"]) and v.loc["q2", "provenance"] == "tie"
    queue = adjudication.verdict_queue(db)
    assert list(queue.qid) == ["q2"]
    # The library gives codes; the pages word them (i18n.localized_values, via ui.tables).
    assert {m.code for m in queue.verdicts[0]} == {"ruling_no_answer", "ruling_has_answer"}
    assert set(i18n.localized_values(queue, "ko").verdicts[0].split(" · ")) == {"근거 없음", "근거 있음"}
    assert set(i18n.localized_values(queue, "en").verdicts[0].split(" · ")) == {"no answer", "has an answer"}
    adjudication.adjudicate_verdict(db, "lee", "q2", False, "p04가 근거")
    v1 = adjudication.freeze(db, "lee", note="첫 동결")
    judging.grade(db, "ann", "q1", "p01", 2)  # later work does not change v1
    frozen = adjudication.qrels(db, version=v1)
    assert len(frozen) == 1 and frozen.iloc[0].provenance == "tie"
    assert len(adjudication.qrels(db)) == 2
    assert adjudication.freeze(db, "lee") == v1 + 1
    versions = adjudication.versions(db).set_index("version")
    assert list(versions.index) == [1, 2]
    # p01 stands for its copies p06 and p07: the listed row count is what the export writes
    from reljudge.campaign import export

    assert (versions.loc[2, "n_judged"], versions.loc[2, "n_qrels_rows"]) == (2, 4)
    assert len(export.qrels_table(db, version=2)[0]) == 4
    fv = adjudication.verdicts(db, version=v1).set_index("qid")
    assert not bool(fv.loc["q2", "no_answer"]) and fv.loc["q2", "provenance"] == "adjudicated"
    adjudication.adjudicate(db, "lee", "q1", "p02", 1, "관련만 있음")
    rulings = adjudication.history_table(db)
    assert [m.code for m in rulings.ruling] == ["ruling_has_answer", "grade1"]
    assert rulings.pid[0].code == "question_verdict" and rulings.pid[1] == "p02"
    shown = i18n.localized_values(rulings, "ko")
    assert shown[["pid", "ruling"]].values.tolist() == [
        ["(질문 전체: 근거 유무)", "근거 있음"],
        ["p02", "1 관련 있으나 단독 인용 불가"],
    ]
    assert i18n.localized_values(rulings, "en").ruling.tolist() == ["has an answer", "1 related, not citable alone"]
    assert not bool(adjudication.verdicts(db).set_index("qid").loc["q2", "no_answer"])
    with pytest.raises(ReljudgeError, match="no qrels version"):
        adjudication.qrels(db, version=99)


def test_a_lead_without_assignments_sees_the_questions_nobody_is_assigned(campaign_db):
    # q1 is ann's: a lead's grade there would be a silent extra annotator (issue 39.7)
    team.replace_assignments(campaign_db, pd.DataFrame({"qid": ["q1"], "username": ["ann"]}), "lee")
    assert list(judging.overview(campaign_db, "lee").qid) == ["q2", "q3"]
    assert list(judging.overview(campaign_db, "bob").qid) == []
    assert list(judging.all_questions(campaign_db).qid) == ["q1", "q2", "q3"]


def test_contested_no_answer_follows_the_aggregation(campaign_db):
    db = campaign_db
    auth.add_user(db, "cho", "password-cho", "annotator")
    # 1 vs 2: the aggregated grade is 0, the question really is no-answer: nothing to flag
    judging.grade(db, "ann", "q1", "p02", 2)
    for who in ("bob", "cho"):
        judging.grade(db, who, "q1", "p02", 0)
        judging.mark_no_answer(db, who, "q1", True)
    assert team.contested_no_answer(db) == []
    # 2 vs 1: the paragraph is citable after aggregation, yet someone said "no answer"
    judging.grade(db, "bob", "q1", "p02", 2)
    assert team.contested_no_answer(db) == ["q1"]
    assert team.contested_no_answer(db, threshold=1) == ["q1"]
    assert team.contested_no_answer(db, "annotator:ann") == []
    # a lead's ruling settles it (under the adjudicated policy, not under plain majority)
    adjudication.adjudicate_verdict(db, "lee", "q1", False, "2점 근거가 있음")
    assert team.contested_no_answer(db) == []
    assert team.contested_no_answer(db, "majority") == ["q1"]


def test_grading_without_pressing_n_counts_as_has_an_answer(campaign_db):
    """Found in a walkthrough: only pressed N's were verdicts, so one annotator's N made
    a question no-answer and the no-answer rate was always 100 %."""

    db = campaign_db
    judging.grade(db, "ann", "q1", "p02", 0)
    judging.mark_no_answer(db, "ann", "q1", True)
    judging.grade(db, "bob", "q1", "p02", 1)  # graded, no N: has an answer
    judging.grade(db, "ann", "q2", "p04", 1)
    rows = team.current_verdict_rows(db).set_index(["annotator", "qid"]).no_answer
    assert rows.to_dict() == {("ann", "q1"): True, ("ann", "q2"): False, ("bob", "q1"): False}
    assert list(team.verdict_disagreements(db).qid) == ["q1"]
    verdicts = adjudication.verdicts(db).set_index("qid")
    assert verdicts.loc["q1", "no_answer"] and verdicts.loc["q1", "provenance"] == "tie"
    summary = team_agreement.annotators_from_database(db).set_index("annotator")
    assert summary.loc["ann", "no_answer_rate"] == 0.5 and summary.loc["bob", "no_answer_rate"] == 0.0
    judging.grade(db, "lee", "q1", "p02", 1)  # a third voice: 1 of 3 says no answer
    assert not adjudication.verdicts(db).set_index("qid").loc["q1", "no_answer"]


def test_speed_counts_grade_decisions_not_note_edits(campaign_db):

    db = campaign_db
    judging.grade(db, "ann", "q1", "p01", 2, ms=6000)
    judging.grade(db, "ann", "q1", "p01", 2, note="정의가 둘째 문장에 있음", ms=500)  # note only
    judging.grade(db, "ann", "q1", "p01", 2, note="정의가 둘째 문장에 있음", evidence="감사의 생활이란", ms=400)
    judging.grade(db, "ann", "q1", "p02", 0, ms=1000)
    judging.grade(db, "ann", "q1", "p02", 1, ms=3000)  # a changed grade
    speed = team_agreement.judging_speed(db, fast_ms=2000).set_index("username")
    assert speed.loc["ann", "grade_decisions"] == 3
    assert speed.loc["ann", "fast"] == 1 and speed.loc["ann", "median_seconds"] == 3.0
    judging.grade(db, "ann", "q1", "p02", None, ms=800)  # cleared
    judging.grade(db, "ann", "q1", "p02", 1, ms=7000)  # and decided again
    assert team_agreement.judging_speed(db).set_index("username").loc["ann", "grade_decisions"] == 4


def test_a_no_answer_mark_against_a_citable_grade_reaches_the_verdict_queue_with_one_annotator(db, files):
    """The dashboard warns when someone marked "no answer" while a paragraph's aggregated
    grade is citable, and sends the lead to adjudication: the question must be there
    even when a single annotator judged it, and a ruling settles it."""
    from reljudge.reporting import dashboard

    for kind, path in (("corpus", files["corpus"]), ("questions", files["questions"])):
        campaign.import_file(db, kind, path)
    campaign.import_file(db, "run", files["run_a"], system="bm25")
    campaign.pool(db, 10)
    _judge(db, [("ann", "q1", "p02", 2)])
    judging.mark_no_answer(db, "ann", "q1", True)  # one person, contradicting themself
    assert dashboard.contested_no_answer(db, "adjudicated", None, 2) == ["q1"]
    queue = adjudication.verdict_queue(db)
    assert list(queue.qid) == ["q1"] and bool(queue.contested[0])
    adjudication.adjudicate_verdict(db, "lee", "q1", False, "p02가 근거")
    assert adjudication.verdict_queue(db).empty
    assert dashboard.contested_no_answer(db, "adjudicated", None, 2) == []


def test_a_leads_grade_on_a_question_assigned_to_others_is_refused_not_counted(campaign_db):
    """Issue 39.7: with the work assigned, a lead without assignments of their own was a
    silent extra annotator (3 of 3 grades accepted and counted). Now the grade is refused
    with ``adjudicate_instead`` and the aggregate stays the annotators'; adjudicating still
    works, and a question nobody is assigned stays open to the lead."""
    db = campaign_db
    qids = list(judging.overview(db, "ann").qid)
    assignment.assign(db, "lee", ["ann", "bob"], per_question=1)
    qid = next(q for q in qids if q in set(judging.overview(db, "ann").qid))
    pid = judging.payload(db, "ann", qid)["items"][0]["pid"]
    judging.grade(db, "ann", qid, pid, 0)
    before = adjudication.qrels(db, "majority")
    with pytest.raises(ReljudgeError, match="adjudication"):
        judging.grade(db, "lee", qid, pid, 2)
    acked, refused = judging.record_each(
        db, "lee", [{"client_event_id": "e1", "qid": qid, "pid": pid, "grade": 2}], codes=True
    )
    assert acked == [] and list(refused.values()) == ["adjudicate_instead"]
    assert adjudication.qrels(db, "majority").equals(before)
    assert qid not in set(judging.overview(db, "lee").qid)
    assert judging.nothing_to_judge_reason(db, "lee") == "lead_all_assigned"
    assert judging.nothing_to_judge_reason(db, "ann") == "none_assigned"
