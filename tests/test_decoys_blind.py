"""Decoys cannot be told apart from pooled paragraphs by what reaches the browser (issue
34.6): one id space for the stored events (a decoy's acknowledged id was 1 while ordinary
ones were 30-67), the same fields and shapes, and the same place in every order (under
``plan complete --order-by SOURCE`` every decoy sorted last). Runs on DuckDB and PostgreSQL."""

from __future__ import annotations

import pandas as pd

from conftest import load_small_campaign
from reljudge.campaign import auth, events, judging, plan, quality
from reljudge.storage import judge_sources, open_database


def _decoys_of(db, user):
    return {(r.qid, r.pid) for r in quality.placements(db).itertuples() if r.annotator == user}


def _save(db, user, cid, qid, pid, grade=0):
    return events.record_each(
        db, user, [{"id": cid, "kind": "grade", "qid": qid, "pid": pid, "grade": grade, "ms": 3000}]
    )


def test_a_decoy_and_a_pooled_item_look_alike_in_the_page_and_in_the_reply(db, files):
    load_small_campaign(db, files)
    quality.place_decoys(db, 0.5, seed=3)
    (qid, decoy), *_ = sorted(_decoys_of(db, "ann"))
    pooled = [p for p in judging.pool_paragraphs(db, qid).pid]
    # other work first, so that the judgment events' sequence is well ahead of 1
    for i, p in enumerate(pooled[1:]):
        _save(db, "bob", f"b{i}", qid, p)
    replies = [_save(db, "ann", "o1", qid, pooled[0]), _save(db, "ann", "d1", qid, decoy)]
    replies.append(_save(db, "ann", "o2", qid, pooled[1]))
    # the replies: the same shape; the ids one sequence (a decoy's is not 1, 2, ...)
    assert [sorted(r[2]) for r in replies] == [["o1"], ["d1"], ["o2"]]
    assert all(r[0] == [cid] and r[1] == {} for r, cid in zip(replies, ["o1", "d1", "o2"]))
    o1, d1, o2 = (r[2][cid] for r, cid in zip(replies, ["o1", "d1", "o2"]))
    assert o1 < d1 < o2 and d1 > len(pooled)
    # the page: every field of the decoy's card of the same type as a pooled card's
    items = {it["pid"]: it for it in judging.payload(db, "ann", qid)["items"]}

    def shape(item):  # a neighbour is None at a document's edge, for any paragraph
        return {k: "str" if k in ("prev", "next") and v is None else type(v).__name__ for k, v in item.items()}

    assert shape(items[pooled[0]]) == shape(items[decoy])  # both graded 0 by ann
    for p in pooled:  # graded or not, the same fields
        assert set(items[p]) == set(items[decoy])
    assert items[decoy]["eid"] == d1 and items[pooled[0]]["eid"] == o1
    assert items[decoy]["grade"] == 0 == items[pooled[0]]["grade"]


def test_decoys_take_a_random_place_when_a_model_source_orders_the_plan(db, files):
    """Before the fix every decoy sorted last (no model grade): with a pool of 2-4 items per
    question, a random place is the last one 1 time in 3 to 5."""
    load_small_campaign(db, files)
    names = [f"judge{i:02d}" for i in range(24)]
    for name in names:
        auth.add_user(db, name, f"password-{name}", "annotator")
    pairs = judge_sources.pooled_pairs(db)[["qid", "pid"]]
    judge_sources.record_source(db, "model", "endpoint", "m", "1", "prompt", "0" * 64, "{}")
    grades = pairs.assign(grade=[i % 3 for i in range(len(pairs))])
    judge_sources.store_results(db, "model", grades, pd.DataFrame(columns=["qid", "pid", "kind", "detail", "answer"]))
    plan.set_plan(db, "complete", order_source="model")
    quality.place_decoys(db, 0.5, seed=5)
    last = seen = 0
    for name in names:
        for qid, decoy in _decoys_of(db, name):
            page = [it["pid"] for it in judging.payload(db, name, qid)["items"]]
            offered = [i["pid"] for i in judging.next_items(db, name) if i["qid"] == qid]
            assert decoy in page and decoy in offered
            # the pooled items keep the model's order around it
            model = {p: g for p, g in zip(grades[grades.qid == qid].pid, grades[grades.qid == qid].grade)}
            ranked = [model[p] for p in page if p != decoy]
            assert ranked == sorted(ranked, reverse=True)
            seen += 1
            last += page[-1] == decoy
    assert seen >= 24 and last / seen < 0.6, (last, seen)


def test_a_copy_goes_on_numbering_decoy_and_pooled_events_in_one_sequence(tmp_path, files):
    from reljudge.cli.main import main

    first = tmp_path / "first.duckdb"
    db = load_small_campaign(open_database(first), files)
    quality.place_decoys(db, 0.5, seed=3)
    (qid, decoy), *_ = sorted(_decoys_of(db, "ann"))
    pooled = list(judging.pool_paragraphs(db, qid).pid)
    _save(db, "ann", "o1", qid, pooled[0])
    top = _save(db, "ann", "d1", qid, decoy)[2]["d1"]  # the last id given is a decoy's
    db.close()
    copy = tmp_path / "copy.duckdb"
    assert main(["copy-db", str(first), str(copy)]) == 0
    db = open_database(copy)
    try:
        assert _save(db, "ann", "o2", qid, pooled[1])[2]["o2"] > top
        assert _save(db, "ann", "d2", qid, decoy, grade=1)[2]["d2"] > top
    finally:
        db.close()


def test_under_a_plan_the_saves_answer_about_a_decoy_has_the_shape_of_any_other(db, files):
    """Issue 35.1 with 34.6: the plan's state the save route answers with is built by one
    function whatever was graded: the same fields and types after grading a decoy as after
    a pooled paragraph, the decoy listed among the cards to judge now like any card until
    graded. The one difference the plan itself makes: a grade can settle a system or bring
    the next paragraph of a ranking, which a decoy (in no ranking) never does; a pooled
    paragraph graded 0 whose successor is already offered brings nothing either."""
    load_small_campaign(db, files)
    plan.set_plan(db, "rr-first")
    quality.place_decoys(db, 0.5, seed=3)
    (qid, decoy), *_ = sorted(_decoys_of(db, "ann"))
    before = judging.plan_states(db, "ann", [qid])[qid]
    assert decoy in before["now"]
    ordinary = next(p for p in before["now"] if p != decoy)

    def shape(state):
        return {k: type(v).__name__ for k, v in state.items()}

    _save(db, "ann", "d1", qid, decoy)
    after_decoy = judging.plan_states(db, "ann", [qid])[qid]
    _save(db, "ann", "o1", qid, ordinary)
    after_ordinary = judging.plan_states(db, "ann", [qid])[qid]
    assert shape(after_decoy) == shape(after_ordinary) == shape(before)
    assert decoy not in after_decoy["now"] and ordinary not in after_ordinary["now"]
    assert after_decoy["settled"] == before["settled"]
