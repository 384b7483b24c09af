"""What grading an item does to rr-first's list, known before the save's answer (issue 35.1).

The page moves to the next card at once by applying ``plan_state(...)["then"]``
(reljudge.campaign.plan.after_grade) to its state. These tests grade real DuckDB campaigns
with random rankings, step by step, through the same storage the save route uses, and
compare every prediction with the plan's state the server computes after the grade is
stored: the same items to judge now, the same settled count, the same count of items to
judge now and the same "done".
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from reljudge.campaign import judging, plan, quality
from reljudge.campaign import setup as campaign
from reljudge.campaign import auth
from reljudge.storage import open_database

USER = "ann"


def _random_campaign(path: Path, rng: random.Random, n_questions: int = 4, systems: int = 4):
    """Questions with 6-12 paragraphs, ``systems`` runs ranking random overlapping subsets
    (so that systems share first items and one system's next item is another's first)."""
    work = path.parent / "input"
    work.mkdir()
    corpus, questions, runs = [], [], {f"sys{s}": [] for s in range(systems)}
    for q in range(n_questions):
        qid = f"Q{q}"
        questions.append({"qid": qid, "text": f"질문 {q}: 피난 시절 교회는 무엇을 했는가?"})
        pids = [f"{qid}-p{i}" for i in range(rng.randint(6, 12))]
        for i, pid in enumerate(pids):
            corpus.append({"pid": pid, "doc_id": f"{qid}-d", "text": f"문단 {q}-{i} 설교 본문 {rng.random()}"})
        for name in runs:
            ranked = rng.sample(pids, rng.randint(3, len(pids)))
            runs[name] += [f"{qid} Q0 {pid} {r} {100 - r} {name}" for r, pid in enumerate(ranked, 1)]
    (work / "corpus.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in corpus), "utf-8")
    (work / "questions.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in questions), "utf-8")
    db = open_database(path)
    campaign.import_file(db, "corpus", work / "corpus.jsonl")
    campaign.import_file(db, "questions", work / "questions.jsonl")
    for name, lines in runs.items():
        (work / f"{name}.run").write_text("\n".join(lines) + "\n", "utf-8")
        campaign.import_file(db, "run", work / f"{name}.run", system=name)
    campaign.catalog.set_setting(db, "ks", "1,3,5")
    campaign.pool(db, 5)
    auth.add_user(db, USER, "ann-password-1", "annotator")
    return db, [q["qid"] for q in questions]


def _apply(state: dict, delta: dict) -> dict:
    """The page's rule (judge.js predictState): drop the graded item, add the new ones."""
    now = [p for p in state["now"] if p != delta["drop"]] + [p for p in delta["add"] if p not in state["now"]]
    open_now = state["open_now"] - 1 + len(delta["add"])
    return {"now": set(now), "settled": state["settled"] + delta["settle"], "open_now": open_now, "done": open_now <= 0}


def _grade(db, qid: str, pid: str, grade: int, n: int) -> None:
    acked, refused, _ = judging.record_each(
        db, USER, [{"id": f"e{n}", "qid": qid, "pid": pid, "grade": grade}], with_ids=True, codes=True
    )
    assert acked == [f"e{n}"], refused


@pytest.mark.parametrize("rest", [False, True], ids=["rr-first", "rr-first-then-rest"])
@pytest.mark.parametrize("seed", range(4))
def test_every_prediction_is_the_servers_state_after_the_grade(tmp_path, seed, rest):
    rng = random.Random(seed)
    db, qids = _random_campaign(tmp_path / "c.duckdb", rng)
    plan.set_plan(db, "rr-first", rest=rest)
    if seed % 2:
        quality.place_decoys(db, 0.3, seed=seed)  # decoys: graded, they change nothing
    predicted = unknown = 0
    n = 0
    for qid in qids:
        state = judging.plan_state(db, USER, qid)
        while state["now"]:
            assert set(state["then"]) == set(state["now"])
            pid = rng.choice(state["now"])
            grade = rng.choice([0, 0, 1, 2])  # rel_threshold 2: mostly not relevant
            delta = state["then"][pid]["rel" if grade >= 2 else "not"]
            n += 1
            _grade(db, qid, pid, grade, n)
            after = judging.plan_state(db, USER, qid)
            if delta is None:
                # only where the rest of the pool follows the last settling grade
                assert rest and after["settled"] == after["systems"] and after["now"]
                unknown += 1
            else:
                got = {"now": set(after["now"]), **{k: after[k] for k in ("settled", "open_now", "done")}}
                assert _apply(state, delta) == got, (qid, pid, grade)
                predicted += 1
            state = after
        assert state["done"]
    assert predicted > 10
    assert unknown <= len(qids)  # at most once per question


def test_the_prediction_names_no_system_rank_or_score(tmp_path):
    """Blind: what the page holds is card ids, counts and flags only."""
    db, qids = _random_campaign(tmp_path / "c.duckdb", random.Random(7))
    plan.set_plan(db, "rr-first")
    then = judging.plan_state(db, USER, qids[0])["then"]
    text = json.dumps(then)
    assert then and "sys" not in text
    for branches in then.values():
        for delta in branches.values():
            assert set(delta) <= {"drop", "add", "settle", "then"}


def _walk_tree(then: dict):
    """Every change of a tree of predictions, at every depth."""
    for branches in then.values():
        for delta in branches.values():
            if delta is not None:
                yield delta
                yield from _walk_tree(delta.get("then", {}))


def _predict(state: dict, then: dict, pid: str, grade: int):
    """The page's rule several grades deep (judge.js ``predicted``): the change of the
    grade's outcome, applied to the state, with the change's own tree for the next grade;
    None where the tree says nothing (the page waits for the server)."""
    delta = (then.get(pid) or {}).get("rel" if grade >= 2 else "not")
    if delta is None:
        return None, None
    now = [p for p in state["now"] if p != delta["drop"]] + [p for p in delta["add"] if p not in state["now"]]
    open_now = state["open_now"] - 1 + len(delta["add"])
    after = {"now": now, "settled": state["settled"] + delta["settle"], "open_now": open_now, "done": open_now <= 0}
    return after, delta.get("then")


@pytest.mark.parametrize("rest", [False, True], ids=["rr-first", "rr-first-then-rest"])
@pytest.mark.parametrize("seed", range(4))
def test_grades_back_to_back_are_predicted_from_one_tree(tmp_path, seed, rest):
    """Keys pressed back to back (issue 35): the page applies grade after grade from the one
    tree it holds, before any answer. For random grade sequences, the state predicted after
    each prefix is the plan's state the server computes after storing those grades, as
    deep as the tree goes (then the server's state and tree take over)."""
    rng = random.Random(50 + seed)
    db, qids = _random_campaign(tmp_path / "c.duckdb", rng, systems=5)
    plan.set_plan(db, "rr-first", rest=rest)
    if seed % 2:
        quality.place_decoys(db, 0.3, seed=seed)
    deep = n = 0
    for qid in qids:
        server = judging.plan_state(db, USER, qid)
        state, then, steps = dict(server), server["then"], 0
        while server["now"]:
            # the judge's key: on a card the page shows to judge now
            pid = rng.choice(state["now"])
            grade = rng.choice([0, 0, 1, 2])
            state, then = _predict(state, then, pid, grade)
            n += 1
            _grade(db, qid, pid, grade, n)
            server = judging.plan_state(db, USER, qid)
            steps += 1
            if state is None:
                # the tree ended (depth, budget or the rest of the pool): the server's takes over
                assert steps > plan.AFTER_GRADE_DEPTH or rest, (qid, steps)
                state, then, steps = dict(server), server["then"], 0
                continue
            got = {"now": set(server["now"]), **{k: server[k] for k in ("settled", "open_now", "done")}}
            assert {**state, "now": set(state["now"])} == got, (qid, pid, grade, steps)
            deep += steps > 1
            if then is None:
                state, then, steps = dict(server), server["then"], 0
        assert server["done"]
    assert deep > 5  # grades predicted two or more deep


def test_the_tree_is_bounded(tmp_path):
    """However many systems and items to judge now, the tree has at most the budget's
    changes (it goes less deep where the list is long)."""
    db, qids = _random_campaign(tmp_path / "c.duckdb", random.Random(3), systems=8)
    plan.set_plan(db, "rr-first")
    for qid in qids:
        then = judging.plan_state(db, USER, qid)["then"]
        assert len(list(_walk_tree(then))) <= plan.AFTER_GRADE_BUDGET


def test_the_payload_names_no_system_rank_or_score(tmp_path):
    """Blind, at every depth: the widget's payload (the tree of predictions included) holds
    no system's name, no rank and no score of a run."""
    db, qids = _random_campaign(tmp_path / "c.duckdb", random.Random(11))
    plan.set_plan(db, "rr-first")
    for qid in qids:
        data = judging.payload(db, USER, qid)
        text = json.dumps(data, ensure_ascii=False)
        # the runs are named sys0, sys1, …; their scores are 100 − rank
        assert not re.search(r"sys\d", text)
        assert '"rank' not in text and '"score' not in text and '"system"' not in text
        for delta in _walk_tree(data["plan"]["then"]):
            assert set(delta) <= {"drop", "add", "settle", "then"}
            assert isinstance(delta["settle"], int) and all(isinstance(p, str) for p in delta["add"])


@pytest.mark.parametrize("name", ["sample", "rr-first"], ids=["sample", "rr-first-then-sample"])
@pytest.mark.parametrize("seed", range(3))
def test_under_sampling_plans_every_prediction_is_the_servers_state(tmp_path, seed, name):
    """The drawn items stay on the list until graded: every grade's outcome is known ahead
    (no outcome waits for the server), and the question ends with its drawn items graded."""
    rng = random.Random(100 + seed)
    db, qids = _random_campaign(tmp_path / "c.duckdb", rng)
    plan.set_plan(db, name, sample=0.4, seed=seed)
    drawn = {d.qid: set(d.to_judge()) for d in plan.draws_of(db)}
    assert any(drawn.values())
    n = 0
    for qid in qids:
        state = judging.plan_state(db, USER, qid)
        assert drawn[qid] <= set(state["now"])
        while state["now"]:
            assert set(state["then"]) == set(state["now"])
            pid = rng.choice(state["now"])
            grade = rng.choice([0, 0, 1, 2])
            delta = state["then"][pid]["rel" if grade >= 2 else "not"]
            assert delta is not None
            n += 1
            _grade(db, qid, pid, grade, n)
            after = judging.plan_state(db, USER, qid)
            got = {"now": set(after["now"]), **{k: after[k] for k in ("settled", "open_now", "done")}}
            assert _apply(state, delta) == got, (qid, pid, grade)
            state = after
        assert state["done"] and drawn[qid] <= set(judging.store.my_latest(db, USER, qid))
        if name == "rr-first":
            assert state["settled"] == state["systems"]
