"""Judging plans (docs/judging-plans.md#판정-계획--judging-plans, reljudge.campaign.plan): the frontier rule
against brute force, the SQL frontier against the pure one, the plan's notion of done in
the queue and the progress, and ``next_items`` under both plans."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

from hypothesis import HealthCheck, given, settings, strategies as st

from hypothesis_profiles import examples

from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.campaign import plan
from reljudge.campaign import progress
from reljudge.storage import catalog, evaluation_inputs, team

ITEMS = [f"d{i}" for i in range(7)]


def _rr(ranking, relevant, k):
    for r, item in enumerate(list(ranking)[:k], 1):
        if relevant(item):
            return 1.0 / r
    return 0.0


def _bounds(ranking, grades, pooled, rel, k):
    """RR@K's (lower, upper) bound: unjudged pooled items all not relevant / all relevant
    (items outside the pool are never relevant)."""
    low = _rr(ranking, lambda d: d in pooled and grades.get(d, -1) >= rel, k)
    high = _rr(ranking, lambda d: d in pooled and (d not in grades or grades[d] >= rel), k)
    return low, high


def _settled_brute(ranking, grades, pooled, rel, k):
    """Settled = the same RR@K under every grading of the unjudged pooled items."""
    open_ = sorted({d for d in list(ranking)[:k] if d in pooled and d not in grades})
    values = set()
    for combo in itertools.product((0, rel), repeat=len(open_)):
        full = {**grades, **dict(zip(open_, combo))}
        values.add(_rr(ranking, lambda d: d in pooled and full.get(d, -1) >= rel, k))
    return len(values) == 1


@st.composite
def cases(draw):
    pooled = set(draw(st.lists(st.sampled_from(ITEMS), unique=True)))
    systems = draw(st.integers(1, 4))
    rankings = {
        f"s{i}": draw(st.lists(st.sampled_from(ITEMS), max_size=7, unique=draw(st.booleans()))) for i in range(systems)
    }
    rel = draw(st.integers(1, 2))
    k = draw(st.integers(1, 7))
    judged = draw(st.lists(st.sampled_from(sorted(pooled)), unique=True)) if pooled else []
    grades = {d: draw(st.integers(0, 2)) for d in judged}
    return rankings, grades, pooled, rel, k


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.randoms(use_true_random=False))
def test_frontier_against_brute_force(case, rnd):
    rankings, grades, pooled, rel, k = case
    offered = plan.frontier(rankings, grades, pooled, rel, k)
    assert len(offered) == len(set(offered))  # never twice
    for system, ranking in rankings.items():
        assert plan.settled(ranking, grades, pooled, rel, k) == _settled_brute(ranking, grades, pooled, rel, k)
    assert (not offered) == all(plan.settled(r, grades, pooled, rel, k) for r in rankings.values())
    for item in offered:
        assert item in pooled and item not in grades
        # graded relevant or not relevant, it moves some unsettled system's RR@K bounds
        for g in (rel, 0):
            after = {**grades, item: g}
            assert any(
                not plan.settled(r, grades, pooled, rel, k)
                and _bounds(r, after, pooled, rel, k) != _bounds(r, grades, pooled, rel, k)
                for r in rankings.values()
            )
    # judging what is offered, with arbitrary grades, ends with every RR@K settled
    grades = dict(grades)
    for _ in range(len(pooled) + 1):
        offered = plan.frontier(rankings, grades, pooled, rel, k)
        if not offered:
            break
        for item in offered:
            assert item not in grades
            grades[item] = rnd.randint(0, 2)
    assert not plan.frontier(rankings, grades, pooled, rel, k)
    # ... and each RR@K is then what it is with the rest of the pool graded arbitrarily
    rest = {d: rnd.randint(0, 2) for d in pooled if d not in grades}
    full = {**grades, **rest}
    for ranking in rankings.values():
        low, high = _bounds(ranking, grades, pooled, rel, k)
        assert low == high == _rr(ranking, lambda d: d in pooled and full[d] >= rel, k)


def test_frontier_example():
    # s1: a (not pooled) skipped, b judged 0, c unjudged -> c; s2: b 0, d judged 2 -> settled
    rankings = {"s1": ["a", "b", "c", "d"], "s2": ["b", "d", "c"], "s3": ["c"]}
    assert plan.frontier(rankings, {"b": 0, "d": 2}, {"b", "c", "d"}, 2, 10) == ["c"]
    two = {"s1": rankings["s1"], "s2": rankings["s2"]}
    assert plan.frontier(two, {"b": 0, "d": 2}, {"b", "c", "d"}, 2, 2) == []  # c beyond K for s1
    assert plan.frontier(rankings, {}, {"b", "c", "d"}, 2, 10) == ["b", "c"]


def _now(db, username, qid=None):
    """The items to judge now: {qid: items} (or one question's items)."""
    qids = list(judging.overview(db, username).qid)
    found = plan.now_items(db, username, qids)
    return found if qid is None else found[qid]


def _sql_matches_pure(db, username, chosen):
    """The SQL frontier (plan.overview) is the pure frontier of the metric engine's rankings,
    and the plan's overview counts the queue as question_overview does."""
    ov = judging.overview(db, username)
    base = judging.store.question_overview(db, username)
    columns = list(judging.store.OVERVIEW_COLUMNS)
    assert [tuple(r) for r in ov[columns].itertuples(index=False)] == [tuple(r) for r in base]
    now = _now(db, username)
    mine = {}
    for qid in ov.qid:
        mine[qid] = {p: g for p, (g, *_rest) in judging.store.my_latest(db, username, qid).items() if g is not None}
    for row in ov.itertuples():
        top = evaluation_inputs.top_k(db, row.qid, chosen.k, chosen.ties, chosen.dedup)
        rankings = {s: list(g.group_pid) for s, g in top.groupby("system")}
        pooled = {r[0] for r in db.cursor().execute("SELECT pid FROM pool WHERE qid = ?", [row.qid]).fetchall()}
        expected = plan.frontier(rankings, mine[row.qid], pooled, chosen.rel, chosen.k)
        assert sorted(now[row.qid]) == sorted(expected), row.qid
        assert row.open_now == len(expected)
        unsettled = sum(not plan.settled(r, mine[row.qid], pooled, chosen.rel, chosen.k) for r in rankings.values())
        assert row.unsettled == unsettled
        # the page's order: the annotator's stable shuffle
        shuffle = list(judging.store.question_items(db, username, row.qid).pid)
        assert now[row.qid] == [p for p in shuffle if p in set(expected)]


def test_sql_frontier_is_the_pure_frontier_on_the_demo(db):
    campaign.load_demo(db)
    chosen = plan.set_plan(db, "rr-first")
    judging.mark_no_answer(db, "annotator1", "q03")
    judging.mark_no_answer(db, "annotator1", "q04")
    judging.mark_no_answer(db, "annotator1", "q04", False)
    rnd = random.Random(7)
    for _round in range(3):
        _sql_matches_pure(db, "annotator1", chosen)
        for qid, items in _now(db, "annotator1").items():
            for pid in items:
                if rnd.random() < 0.7:
                    judging.grade(db, "annotator1", qid, pid, rnd.choice([0, 0, 1, 2]))
    _sql_matches_pure(db, "annotator1", chosen)
    catalog.set_setting(db, "dedup", "keep")
    catalog.set_setting(db, "ks", "1,3")
    _sql_matches_pure(db, "annotator1", plan.current(db))


def test_rr_first_done_predicate_drives_progress_and_queue(campaign_db):
    db = campaign_db
    plan.set_plan(db, "rr-first")
    ov = judging.overview(db, "ann")
    q1 = ov.set_index("qid").loc["q1"]
    assert q1.systems == 2 and q1.unsettled == 2 and q1.open_now == len(_now(db, "ann", "q1")) == 2
    # judge q1's offered paragraphs until it is settled: done before the whole pool is judged
    while True:
        items = _now(db, "ann", "q1")
        if not items:
            break
        for pid in items:
            judging.grade(db, "ann", "q1", pid, 2)
    ov = judging.overview(db, "ann")
    row = ov.set_index("qid").loc["q1"]
    assert row.judged < row.pool_size and row.unsettled == 0
    assert bool(judging.finished(ov).iloc[0])
    payload = judging.payload(db, "ann", "q1")
    assert payload["plan"]["done"] and payload["plan"]["settled"] == payload["plan"]["systems"] == 2
    assert payload["progress"]["questions_done"] == 1
    assert judging.work_left(db, "ann", "q1") == (2, 0)
    assert judging.next_unfinished(ov, "q1") == "q2"
    prog = progress.by_annotator(db).set_index(["username", "qtype"])
    assert prog.loc[("ann", "사실 확인"), "finished"] == 1
    assert prog.loc[("ann", "사실 확인"), "percent"] == 100.0  # the plan's share: q1 is done
    assert prog.loc[("ann", "개념 관계"), "percent"] == 0.0
    # the complete plan does not count it done: the pool is not all graded
    plan.set_plan(db, "complete")
    assert not bool(judging.finished(judging.overview(db, "ann")).iloc[0])
    assert progress.by_annotator(db).set_index(["username", "qtype"]).loc[("ann", "사실 확인"), "finished"] == 0
    # then-rest: the rest of q1's pool comes next, and q1 is done only when all is graded
    plan.set_plan(db, "rr-first", rest=True)
    ov = judging.overview(db, "ann")
    rest = _now(db, "ann", "q1")
    assert rest and len(rest) == row.pool_size - row.judged == ov.set_index("qid").loc["q1"].open_now
    assert not bool(judging.finished(ov).iloc[0])


def test_then_rest_orders_by_weight(campaign_db):
    db = campaign_db
    plan.set_plan(db, "rr-first", rest=True)
    # settle q1 with relevant grades on its frontier (bm25: p02; vector: p07, i.e. group p01),
    # leaving p03 (bm25 rank 3 once p06, a copy of p01, is removed) and p08 (vector rank 2)
    judging.grade(db, "ann", "q1", "p02", 2)
    judging.grade(db, "ann", "q1", "p01", 2)
    q1 = judging.overview(db, "ann").set_index("qid").loc["q1"]
    assert q1.unsettled == 0
    # p08: 1/log2(3) ≈ 0.63 > p03: 1/log2(4) = 0.5
    assert _now(db, "ann", "q1") == ["p08", "p03"]


def test_next_items_under_both_plans(campaign_db):
    db = campaign_db
    items = judging.next_items(db, "ann")
    # complete: every unjudged pooled item, question by question, in the page's order
    for qid in ("q1", "q2", "q3"):
        shuffle = list(judging.store.question_items(db, "ann", qid).pid)
        assert [i["pid"] for i in items if i["qid"] == qid] == shuffle
    assert [i["qid"] for i in items] == sorted(i["qid"] for i in items)
    assert set(items[0]) == {"qid", "pid", "question_index", "position"}
    assert len(judging.next_items(db, "ann", limit=3)) == 3
    plan.set_plan(db, "rr-first")
    items = judging.next_items(db, "ann")
    ov = judging.overview(db, "ann")
    now = _now(db, "ann")
    assert [(i["qid"], i["pid"]) for i in items] == [(q, p) for q in ov.qid for p in now[q]]
    # the page's current question comes first
    judging.go_to(db, "ann", "q2")
    assert judging.next_items(db, "ann")[0]["qid"] == "q2"
    assert [i["qid"] for i in judging.next_items(db, "ann")][-1] == "q1"
    # nothing left: empty
    for r in judging.overview(db, "ann").itertuples():
        judging.record(
            db,
            "ann",
            [
                {"id": f"x-{r.qid}-{p}", "qid": r.qid, "pid": p, "grade": 0}
                for p in judging.store.question_items(db, "ann", r.qid).pid
            ],
        )
    assert judging.next_items(db, "ann") == []


def test_reassign_moves_only_questions_unsettled_under_rr_first(campaign_db):
    from reljudge.campaign import assignment

    db = campaign_db
    rows = judging.all_questions(db)[["qid"]].assign(username="ann")
    team.replace_assignments(db, rows[["qid", "username"]], "lee")
    plan.set_plan(db, "rr-first")
    for pid in _now(db, "ann", "q1"):
        judging.grade(db, "ann", "q1", pid, 2)
    assert judging.overview(db, "ann").set_index("qid").loc["q1"].open_now == 0
    moved = assignment.reassign(db, "lee", "ann")
    assert set(moved.qid) == {"q2", "q3"}


def test_sql_frontier_with_copies_in_one_ranking(campaign_db):
    """bm25 ranks p01 and its copy p06 (q1): under keep both count at their own ranks and
    name the same pooled group; under first the copy is removed and the ranks close up."""
    db = campaign_db
    for dedup in ("first", "keep"):
        catalog.set_setting(db, "dedup", dedup)
        chosen = plan.set_plan(db, "rr-first")
        _sql_matches_pure(db, "ann", chosen)
        judging.grade(db, "ann", "q1", "p02", 0)
        judging.grade(db, "ann", "q2", "p05", 1)
        _sql_matches_pure(db, "ann", chosen)
        judging.grade(db, "ann", "q1", "p01", 0)
        _sql_matches_pure(db, "ann", chosen)
        judging.grade(db, "ann", "q1", "p01", None)  # cleared: unjudged again
        _sql_matches_pure(db, "ann", chosen)
        for pid in ("p02", "p05"):
            judging.grade(db, "ann", "q1" if pid == "p02" else "q2", pid, None)


def test_next_with_a_limit_is_the_head_of_the_whole_answer(db, monkeypatch):
    """``reljudge next --limit N`` reads the plan's counts only for the questions it reaches,
    a few at a time (judging._LazyCounts, here two per read so that the reads run across
    many batches): in every state it prints exactly the first N items of the answer computed
    from the whole queue, wherever the annotator's remembered place is — on an unfinished
    question, on a finished one, or nowhere."""
    from reljudge.campaign import quality

    monkeypatch.setattr(judging._LazyCounts, "AHEAD", 2)
    campaign.load_demo(db)
    quality.place_decoys(db, 0.2, seed=3)  # the annotator's own view counts decoys too
    rnd = random.Random(5)
    qids = list(judging.overview(db, "annotator1").qid)
    for name, rest in (("rr-first", False), ("rr-first", True), ("complete", False)):
        plan.set_plan(db, name, rest)
        for _round in range(6):
            whole = judging.next_items(db, "annotator1")
            for limit in (1, 2, 3, 7, 25):
                assert judging.next_items(db, "annotator1", limit) == whole[:limit], (name, rest, limit)
            for item in whole[: rnd.randint(1, 12)]:
                judging.grade(db, "annotator1", item["qid"], item["pid"], rnd.choice([0, 0, 1, 2]))
            move = rnd.random()
            if move < 0.4:
                judging.go_to(db, "annotator1", rnd.choice(qids))
            elif move < 0.6 and whole:
                judging.go_to(db, "annotator1", whole[0]["qid"])  # where it may just have finished


def test_the_plan_state_the_save_route_answers_with_is_what_the_page_would_show(campaign_db):
    """Issue 35.1: after each grade under rr-first, the state the save route sends (now
    items, settled, done, counts) equals what a fresh page payload says; the complete plan
    sends none."""
    db = campaign_db
    assert judging.plan_states(db, "ann", ["q1"]) == {}
    plan.set_plan(db, "rr-first")
    for _ in range(12):
        state = judging.plan_states(db, "ann", ["q1", "q1", "nope"])
        assert list(state) == ["q1"]
        state = state["q1"]
        page = judging.payload(db, "ann", "q1")
        assert state["now"] == [it["pid"] for it in page["items"] if it["now"]]
        assert state["now_key"] == page["plan"]["now_key"]
        for key in ("settled", "systems", "open_now", "done"):
            assert state[key] == page["plan"][key]
        if state["done"]:
            break
        judging.grade(db, "ann", "q1", state["now"][0], 0)
    assert state["done"] and state["now"] == [] and state["open_now"] == 0


def test_the_cost_estimate_spans_the_rankings_and_projects_from_the_judgments(campaign_db):
    """Issue 39.10: before judging, rr-first's range comes from the rankings alone (the
    first frontier .. every pooled item within K) and nothing is "expected"; once judging
    has started, the expected count lies in that range and the hours follow the team's
    median seconds per judgment."""
    db = campaign_db
    before = plan.estimate(db)
    assert before["totals"]["rr_first_expected"] is None and before["hours"]["complete"] is None
    for row in before["per_question"]:
        assert 1 <= row["rr_first_low"] <= row["rr_first_high"] <= row["complete"]
    # no assignments: both annotators judge every question
    assert before["totals"]["complete"] == 2 * sum(r["complete"] for r in before["per_question"])
    plan.set_plan(db, "rr-first")
    times = []
    for grade, ms in ((0, 4000), (2, 7000)):
        for pid in _now(db, "ann", "q1"):
            judging.grade(db, "ann", "q1", pid, grade, ms=ms)
            times.append(ms)
    after = plan.estimate(db)
    t = after["totals"]
    assert t["rr_first_low"] <= t["rr_first_expected"] <= t["rr_first_high"]
    assert after["median_seconds_per_judgment"] == pytest.approx(float(np.median(times)) / 1000)
    assert after["hours"]["complete"] == pytest.approx(t["complete"] * after["median_seconds_per_judgment"] / 3600)
    assert plan.estimate(db) == after  # seeded: the same figures twice


def test_the_estimate_starts_from_each_annotators_grades_and_ends_at_what_was_spent(campaign_db):
    """Issue 35 (the dashboard's plan sentence): a question an annotator has finished
    under rr-first counts exactly the judgments it took, not a fresh simulation; once
    every annotator has finished every question, the expected total is the judgments
    made."""
    db = campaign_db
    plan.set_plan(db, "rr-first")
    rnd = random.Random(3)
    made = 0
    for user in ("ann", "bob"):
        for qid in judging.overview(db, user).qid:
            while items := _now(db, user, qid):
                judging.grade(db, user, qid, items[0], rnd.choice([0, 0, 2]), ms=3000)
                made += 1
    est = plan.estimate(db)
    assert est["totals"]["rr_first_expected"] == pytest.approx(made)
    assert all(r["rr_first_expected"] <= r["rr_first_high"] for r in est["per_question"])


def test_plan_estimate_on_the_command_line(tmp_path, capsys):
    from reljudge.cli.main import main
    from reljudge.storage import open_database

    path = tmp_path / "c.duckdb"
    db = open_database(path)
    campaign.load_demo(db, with_accounts=True)
    db.close()
    assert main(["--db", str(path), "plan", "--estimate"]) == 0
    out = capsys.readouterr().out
    assert "complete" in out and "judgments from the rankings" in out and "after the first judgments" in out
    assert main(["--db", str(path), "plan", "--estimate", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["rr_first_low"] <= data["totals"]["rr_first_high"] <= data["totals"]["complete"]
    assert main(["--db", str(path), "plan", "rr-first", "--estimate"]) == 2
