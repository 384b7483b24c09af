"""The sampling plans wired into the campaign (issue 36 §1; docs/sampling.md): `reljudge plan
sample RATE` and `reljudge plan rr-first --then-sample RATE`, the draw stored once per
question, and the judging queue that follows it (real DuckDB files, the demo campaign)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace

import pytest

from reljudge.campaign import judging, plan
from reljudge.campaign import setup as campaign
from reljudge.cli import main as cli
from reljudge.eval import sampling
from reljudge.storage import evaluation_inputs, open_database

USERS = ("annotator1", "annotator2")


@pytest.fixture
def demo(demo_template, tmp_path):
    path = tmp_path / "demo.duckdb"
    shutil.copy(demo_template, path)
    return str(path)


def _run(capsys, *args):
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _stored(path):
    db = open_database(path)
    try:
        return [d.to_dict() for d in plan.draws_of(db)], plan.current(db)
    finally:
        db.close()


# -- the command line ---------------------------------------------------------------------


def test_plan_sample_and_then_sample_are_stored_and_described(demo, capsys):
    code, out, err = _run(capsys, "--db", demo, "plan", "sample", "0.25", "--seed", "7")
    assert (code, err) == (0, "") and out.startswith("judging plan: sample (")
    draws, chosen = _stored(demo)
    assert (chosen.name, chosen.sample_rate, chosen.sample_seed, chosen.rest) == ("sample", 0.25, 7, False)
    assert len(draws) == 24 and all(d["rate"] == 0.25 and d["seed"] == 7 for d in draws)
    assert _run(capsys, "--db", demo, "plan")[1] == "sample (a random sample of 0.25 of each pool, seed 7)\n"

    code, out, err = _run(capsys, "--db", demo, "plan", "rr-first", "--then-sample", "0.5")
    assert (code, err) == (0, "")
    draws, chosen = _stored(demo)
    assert (chosen.name, chosen.sample_rate, chosen.sample_seed) == ("rr-first", 0.5, plan.DEFAULT_SAMPLE_SEED)
    assert all(d["rate"] == 0.5 for d in draws)
    assert "then a random sample of 0.5" in _run(capsys, "--db", demo, "plan")[1]
    # back to plain rr-first: nothing sampled any more
    assert _run(capsys, "--db", demo, "plan", "rr-first")[0] == 0
    assert _stored(demo)[1].sample_rate is None


@pytest.mark.parametrize(
    "args, words",
    [
        (("sample", "0"), "above 0"),
        (("sample", "1.5"), "at most 1"),
        (("sample", "-0.2"), "above 0"),
        (("sample", "nan"), "sampling rate"),
        (("sample", "abc"), "sampling rate 'abc'"),
        (("sample",), "needs a rate"),
        (("sample", "0.2", "--seed", "x"), "seed 'x'"),
        (("sample", "0.2", "--seed", "-3"), "seed '-3'"),
        (("rr-first", "--then-sample", "0.2", "--then-rest"), "exclude each other"),
        (("rr-first", "--then-sample", "2"), "at most 1"),
        (("complete", "--then-sample", "0.2"), "--then-sample is for rr-first"),
        (("complete", "0.2"), "a rate goes with sample"),
        (("rr-first", "0.2"), "--then-sample 0.2"),
        (("rr-first", "--seed", "3"), "--seed goes with a sample"),
        (("--then-sample", "0.2"), "go with a plan"),
        (("--estimate", "--then-sample", "0.2"), "--estimate"),
    ],
)
def test_bad_sampling_options_are_one_clear_line_and_change_nothing(demo, capsys, args, words):
    before = _stored(demo)
    code, out, err = _run(capsys, "--db", demo, "plan", *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and words in err and "Traceback" not in err and err.count("\n") == 1
    assert _stored(demo) == before


def test_a_different_draw_is_refused_once_judging_has_begun(demo, capsys):
    assert _run(capsys, "--db", demo, "plan", "sample", "0.2", "--seed", "1")[0] == 0
    first, _ = _stored(demo)
    db = open_database(demo)
    judging.grade(db, "annotator1", "q01", judging.plan_state(db, "annotator1", "q01")["now"][0], 0)
    db.close()
    # the same rate and seed again: accepted, the draw unchanged
    assert _run(capsys, "--db", demo, "plan", "sample", "0.2", "--seed", "1")[0] == 0
    assert _run(capsys, "--db", demo, "plan", "rr-first", "--then-sample", "0.2", "--seed", "1")[0] == 0
    assert _stored(demo)[0] == first
    for other in (("sample", "0.3", "--seed", "1"), ("sample", "0.2", "--seed", "2")):
        code, _, err = _run(capsys, "--db", demo, "plan", *other)
        assert code == 2 and "judging has begun" in err and "rate 0.2, seed 1" in err
    draws, chosen = _stored(demo)
    assert draws == first and (chosen.name, chosen.sample_rate) == ("rr-first", 0.2)


def test_the_draw_is_the_same_in_two_campaigns_with_the_same_seed_and_reads_no_grade(demo, tmp_path, capsys):
    other = str(tmp_path / "other.duckdb")
    shutil.copy(demo, other)
    db = open_database(other)  # grades in one of them only: the draw must not read them
    for qid in ("q01", "q02"):
        for pid in judging.pool_paragraphs(db, qid).pid[:5]:
            judging.grade(db, "annotator2", qid, pid, 2)
    db.close()
    # the graded campaign is drawn with another seed first; the draw is then refused
    assert _run(capsys, "--db", demo, "plan", "sample", "0.3", "--seed", "11")[0] == 0
    assert _run(capsys, "--db", demo, "plan", "sample", "0.3", "--seed", "11")[0] == 0
    db = open_database(other)
    plan.make_draws(db, 0.3, 11)  # no refusal: nothing stored yet, and grades are ignored
    db.close()
    a, b = _stored(demo)[0], _stored(other)[0]
    assert a == b
    # the stored draw is the library's draw, and another seed draws another sample
    db = open_database(demo)
    try:
        again = plan._compute_draws(db, 0.3, 11)
        assert [d.to_dict() for d in again] == a
        assert [d.to_dict() for d in plan._compute_draws(db, 0.3, 12)] != a
        d0 = sampling.Draw.from_dict(a[0])
        assert d0.to_judge() and all(0 < x.pi <= 1 for x in d0.items) and not any(x.known for x in d0.items)
        assert sum(s.size for s in d0.strata) == len(judging.pool_paragraphs(db, d0.qid))
    finally:
        db.close()


# -- the queue ------------------------------------------------------------------------------


def _drawn(db) -> dict[str, list[str]]:
    return {d.qid: d.to_judge() for d in plan.draws_of(db)}


def test_under_sample_every_annotator_judges_the_drawn_items_in_their_own_shuffle(demo):
    db = open_database(demo)
    try:
        plan.set_plan(db, "sample", sample=0.2, seed=5)
        drawn = _drawn(db)
        for user in USERS:
            now = plan.now_items(db, user, list(drawn))
            for qid, items in drawn.items():
                assert set(now[qid]) == set(items)
                assert now[qid] == sorted(items, key=lambda p: judging._shuffle_key(qid, user, p))
        a, b = (plan.now_items(db, u, ["q01"])["q01"] for u in USERS)
        assert a != b  # the same items, each annotator's own order
        state = judging.plan_state(db, "annotator1", "q01")
        assert state["open_now"] == len(drawn["q01"]) and not state["done"]
        text = json.dumps(state)  # blind: card ids, counts and flags, never a system, rank or score
        assert all(system not in text for system in evaluation_inputs.systems(db))
        assert "rank" not in text and "score" not in text
        # judged in any order, the question is done when its drawn items are
        rows = judging.next_items(db, "annotator1")
        assert [r["pid"] for r in rows if r["qid"] == "q01"] == state["now"]
        for n, pid in enumerate(reversed(state["now"])):
            assert not judging.plan_state(db, "annotator1", "q01")["done"]
            judging.grade(db, "annotator1", "q01", pid, n % 3)
        state = judging.plan_state(db, "annotator1", "q01")
        assert state["done"] and state["now"] == [] and state["open_now"] == 0
        entry = judging.queue(db, "annotator1", qids=["q01"])[0]
        assert judging.is_finished(entry.pool_size, entry.open_now, entry.no_answer)
        assert entry.judged == len(drawn["q01"]) < entry.pool_size  # the rest of the pool stays open
        assert all(r["qid"] != "q01" for r in judging.next_items(db, "annotator1"))
        # the other annotator still has every drawn item of q01
        assert set(plan.now_items(db, "annotator2", ["q01"])["q01"]) == set(drawn["q01"])
    finally:
        db.close()


def test_under_rr_first_then_sample_the_frontier_comes_first_then_the_drawn_items(demo):
    db = open_database(demo)
    try:
        plan.set_plan(db, "rr-first", sample=0.2, seed=3)
        drawn = _drawn(db)
        qid, user = "q02", "annotator1"
        while True:
            state = judging.plan_state(db, user, qid)
            now = state["now"]
            if not now:
                break
            rr = plan.now_items(db, user, [qid], replace(plan.current(db), sample_rate=None))[qid]
            graded = judging.store.my_latest(db, user, qid)
            waiting = [p for p in drawn[qid] if p not in graded]
            # rr-first's items first (a drawn one among them too), then every drawn item not yet graded
            assert now[: len(rr)] == rr
            assert now[len(rr) :] == [p for p in now if p in waiting and p not in rr]
            assert set(now) == set(rr) | set(waiting)
            assert state["open_now"] == len(now)
            # grade rr-first's items first, not relevant, so that its walk goes deep
            judging.grade(db, user, qid, now[0], 0)
        graded = judging.store.my_latest(db, user, qid)
        assert set(drawn[qid]) <= set(graded)
        assert state["done"] and state["settled"] == state["systems"]
    finally:
        db.close()


def test_the_cost_estimate_counts_the_drawn_items(demo):
    db = open_database(demo)
    try:
        assert "with_sample_low" not in plan.estimate(db)["totals"]
        plan.set_plan(db, "sample", sample=0.2, seed=5)
        est = plan.estimate(db)
        n = sum(len(v) for v in _drawn(db).values())
        people = est["per_question"][0]["annotators"]
        assert est["totals"]["sample_drawn"] == n * people
        assert est["totals"]["with_sample_low"] == est["totals"]["with_sample_high"] == n * people
        plan.set_plan(db, "rr-first", sample=0.2, seed=5)
        est = plan.estimate(db)
        t = est["totals"]
        assert t["rr_first_low"] < t["with_sample_low"] <= t["with_sample_high"]
        assert t["with_sample_low"] <= t["rr_first_low"] + t["sample_drawn"]
        assert t["with_sample_expected"] is None  # nothing judged yet: only the range
    finally:
        db.close()


# -- reljudge evaluate --------------------------------------------------------------------

ESTIMATE_KEYS = {"estimate", "estimate_low", "estimate_high", "estimated"}
MEASURES = ["nDCG@10", "R@10", "P@5", "AP", "RR@10"]


def _judge(path, name, **kw):
    """Under plan ``name``: annotator1 judges the plan's items of q01-q03 (random grades,
    seeded) and the whole pool of q04."""
    import random

    rng = random.Random(4)
    db = open_database(path)
    try:
        plan.set_plan(db, name, **kw)
        for qid in ("q01", "q02", "q03"):
            while now := judging.plan_state(db, "annotator1", qid)["now"]:
                judging.grade(db, "annotator1", qid, now[0], rng.choice([0, 0, 1, 2]))
        for pid in judging.pool_paragraphs(db, "q04").pid:
            judging.grade(db, "annotator1", "q04", pid, rng.choice([0, 0, 1, 2]))
    finally:
        db.close()


def _evaluate_json(capsys, path):
    code, out, err = _run(capsys, "--db", path, "evaluate", "--format", "json", "--per-query", "-m", *MEASURES)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("name", ["sample", "rr-first"])
def test_evaluate_json_gains_the_estimates_under_a_sampling_plan(demo, capsys, name):
    _judge(demo, name, sample=0.3, seed=2)
    doc = _evaluate_json(capsys, demo)
    estimated = {"nDCG@10", "R(rel=2)@10", "P(rel=2)@5", "AP(rel=2)"}
    assert set(doc["measures"]) == estimated | {"RR(rel=2)@10"}
    assert doc["means"] and doc["per_query"]
    for row in doc["means"] + doc["per_query"]:
        assert ESTIMATE_KEYS <= set(row)
        if row["measure"] not in estimated:
            assert all(row[k] is None for k in ESTIMATE_KEYS)
    means = [r for r in doc["means"] if r["qtype"] == "all" and r["measure"] in estimated]
    assert len(means) == 4 * len(doc["systems"])
    for r in means:
        assert r["estimated"] is True
        assert (
            r["bound_low"] - 1e-9 <= r["estimate_low"] <= r["estimate"] <= r["estimate_high"] <= r["bound_high"] + 1e-9
        )
    assert any(r["estimate_high"] - r["estimate_low"] > 0.01 for r in means)
    rows = [r for r in doc["per_query"] if r["measure"] in estimated]
    # the fully judged question: its exact value, a zero-width interval, not estimated
    full = [r for r in rows if r["qid"] == "q04"]
    assert full and all(r["estimated"] is False for r in full)
    for r in full:
        assert r["estimate"] == pytest.approx(r["value"], abs=1e-12)
        assert r["estimate_low"] == pytest.approx(r["value"], abs=1e-12) == r["estimate_high"]
    # partly judged questions are estimated; nobody's question has no estimate yet
    assert all(r["estimated"] is True for r in rows if r["qid"] in ("q01", "q02", "q03"))
    unjudged = [r for r in rows if r["qid"] == "q10"]
    assert unjudged and all(r["estimate"] is None and r["value"] is None for r in unjudged)
    for r in rows:
        if r["estimate"] is not None:
            assert r["bound_low"] - 1e-9 <= r["estimate"] <= r["bound_high"] + 1e-9
    assert doc["policies"]["estimates"]["rate"] == 0.3


def test_evaluate_json_has_no_estimate_keys_without_a_sampling_plan(demo, capsys):
    _judge(demo, "rr-first")
    doc = _evaluate_json(capsys, demo)
    for row in doc["means"] + doc["per_query"]:
        assert not ESTIMATE_KEYS & set(row)
    assert "estimates" not in doc["policies"]


# -- reljudge export qrels --format trec-sampled --------------------------------------------


def test_export_trec_sampled_writes_the_draw_with_the_grades(demo, tmp_path, capsys):
    out = tmp_path / "sampled.txt"
    code, _, err = _run(capsys, "--db", demo, "export", "qrels", "--format", "trec-sampled", "-o", str(out))
    assert code == 2 and "needs a sampling plan" in err and not out.exists()
    _judge(demo, "rr-first", sample=0.3, seed=9)
    trec = tmp_path / "plain.txt"
    assert _run(capsys, "--db", demo, "export", "qrels", "-o", str(trec))[0] == 0
    code, _, err = _run(capsys, "--db", demo, "export", "qrels", "--format", "trec-sampled", "-o", str(out))
    assert (code, err) == (0, "")
    lines = [line.split(" ") for line in out.read_text("utf-8").splitlines()]
    db = open_database(demo)
    try:
        draws = plan.draws_of(db)
        pooled = {(q, p) for q in {d.qid for d in draws} for p in judging.pool_paragraphs(db, q).pid}
    finally:
        db.close()
    # every pooled item once: qid 0 pid stratum grade, the stratum of the draw
    assert {(q, p) for q, _, p, _, _ in lines} == pooled and len(lines) == len(pooled)
    stratum = {(d.qid, x.item): x.stratum for d in draws for x in d.items}
    drawn = {(d.qid, x.item) for d in draws for x in d.items if x.drawn}
    assert all(z == "0" and int(s) == stratum[(q, p)] >= 1 for q, z, p, s, _ in lines)
    # a grade where the item was drawn and judged, -1 elsewhere (rr-first's own items included)
    plain = {(q, p): g for q, _, p, g in (line.split(" ") for line in trec.read_text("utf-8").splitlines())}
    for q, _, p, _, g in lines:
        assert g == (plain[(q, p)] if (q, p) in drawn and (q, p) in plain else "-1")
    assert {g for *_, g in lines} > {"-1"}
    assert any((q, p) in plain and (q, p) not in drawn for q, _, p, _, _ in lines)
    # the library's text, byte for byte
    grades: dict = {}
    for (q, p), g in plain.items():
        grades.setdefault(q, {})[p] = int(g)
    assert out.read_text("utf-8") == sampling.trec_sampled_qrels(draws, grades)
    code, _, err = _run(
        capsys, "--db", demo, "export", "qrels", "--format", "trec-sampled", "--min-grade", "1", "-o", str(out)
    )
    assert code == 2 and "--min-grade" in err


def test_the_other_qrels_formats_are_unchanged_by_a_sampling_plan(demo, tmp_path, capsys):
    _judge(demo, "rr-first", sample=0.3, seed=9)
    before = {}
    for fmt in ("trec", "beir", "jsonl"):
        path = tmp_path / f"a.{fmt}"
        assert _run(capsys, "--db", demo, "export", "qrels", "--format", fmt, "-o", str(path))[0] == 0
        before[fmt] = path.read_bytes()
    assert _run(capsys, "--db", demo, "plan", "rr-first")[0] == 0
    for fmt in ("trec", "beir", "jsonl"):
        path = tmp_path / f"b.{fmt}"
        assert _run(capsys, "--db", demo, "export", "qrels", "--format", fmt, "-o", str(path))[0] == 0
        assert path.read_bytes() == before[fmt]


def test_a_rebuilt_pool_is_drawn_again_until_judging_begins_then_its_changed_questions_get_no_estimate(demo, capsys):
    db = open_database(demo)
    try:
        plan.set_plan(db, "sample", sample=0.3, seed=4)
        depth = int(campaign.catalog.get_settings(db)["pool_depth"])
        before = {d.qid: {x.item for x in d.items} for d in plan.draws_of(db)}
        campaign.pool(db, depth - 5)
        pooled = {d.qid: {x.item for x in d.items} for d in plan.draws_of(db)}
        assert pooled["q01"] == set(judging.pool_paragraphs(db, "q01").pid) != before["q01"]
    finally:
        db.close()
    _judge(demo, "sample", sample=0.3, seed=4)
    db = open_database(demo)
    try:
        kept = [d.to_dict() for d in plan.draws_of(db)]
        campaign.pool(db, depth)  # judging has begun: the draw stays as it was made
        assert [d.to_dict() for d in plan.draws_of(db)] == kept
    finally:
        db.close()
    doc = _evaluate_json(capsys, demo)
    stale = doc["policies"]["estimates"]["draw_out_of_date"]
    assert "q01" in stale
    assert all(r["estimate"] is None for r in doc["per_query"] if r["qid"] in stale)


def test_the_report_and_the_dashboard_name_the_sampling_plan(demo):
    from reljudge.reporting import dashboard, report

    chosen = plan.Plan("sample", False, 10, 2, "trec10", "first", None, 0.25, 3)
    assert "0.25" in report._plan_text(chosen, "en") and "sample" in report._plan_text(chosen, "en")
    assert "표본" in report._plan_text(chosen, "ko") and "seed 3" in report._plan_text(chosen, "en")
    then = plan.Plan("rr-first", False, 10, 2, "trec10", "first", None, 0.25, 3)
    assert report._plan_text(then, "en").startswith("rr-first") and "0.25" in report._plan_text(then, "en")
    assert not any(plan.settles(chosen, f, 10, 2) for f in ("RR", "Success", "nDCG", "R"))
    assert plan.settles(then, "RR", 10, 2) and not plan.settles(then, "nDCG", 10, 2)
    db = open_database(demo)
    try:
        plan.set_plan(db, "sample", sample=0.25, seed=3)
        from reljudge.campaign.evaluation import evaluate_campaign

        s = dashboard.plan_summary(db, evaluate_campaign(db, n_boot=0, n_perm=0), 10)
        drawn = sum(len(v) for v in _drawn(db).values())
        assert s["plan"] == "sample" and s["samples"] and s["settles"] == []
        assert s["plan_low"] == s["plan_high"] == drawn * plan.estimate(db)["per_question"][0]["annotators"]
    finally:
        db.close()
