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
            assert set(delta) == {"drop", "add", "settle"}


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
