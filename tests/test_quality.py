"""Quality control: gold items and each annotator's accuracy against them, decoys, and
``reljudge gold`` / ``decoys`` / ``quality`` (docs/quality-control.md#품질-관리--quality-control).
Tests taking ``db`` run on DuckDB and PostgreSQL."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypothesis_profiles import examples
from sklearn.metrics import cohen_kappa_score

from reljudge import i18n
from reljudge.campaign import judging, quality
from reljudge.cli import main as cli
from reljudge.errors import ReljudgeError

from conftest import load_small_campaign

# The small campaign's pool (canonical ids): q1 p01 p02 p03 p08, q2 p03 p04 p05, q3 p03 p08.
GOLD = {
    ("q1", "p01"): 2,
    ("q1", "p02"): 2,
    ("q1", "p03"): 0,
    ("q1", "p08"): 0,
    ("q2", "p03"): 0,
    ("q2", "p04"): 2,
    ("q2", "p05"): 1,
    ("q3", "p03"): 0,
    ("q3", "p08"): 0,
}
# ann agrees on 6 of 9; bob grades 4 of them, all right.
ANN = {
    ("q1", "p01"): 2,
    ("q1", "p02"): 1,
    ("q1", "p03"): 0,
    ("q1", "p08"): 1,
    ("q2", "p03"): 0,
    ("q2", "p04"): 2,
    ("q2", "p05"): 2,
    ("q3", "p03"): 0,
    ("q3", "p08"): 0,
}
BOB = {("q1", "p01"): 2, ("q1", "p02"): 2, ("q2", "p05"): 1, ("q3", "p08"): 0}


def _gold_file(tmp_path, gold=GOLD, name="gold.qrels"):
    path = tmp_path / name
    path.write_text("".join(f"{q} 0 {p} {g}\n" for (q, p), g in gold.items()), encoding="utf-8")
    return path


def _judge(db, user, grades, ms=5000):
    for (qid, pid), grade in grades.items():
        judging.grade(db, user, qid, pid, grade, ms=ms)


def _run(capsys, *args):
    code = cli.main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_pooled_paragraphs_are_as_the_tests_assume(campaign_db):
    pooled = {(q, p) for q in ("q1", "q2", "q3") for p in judging.pool_paragraphs(campaign_db, q).pid}
    assert pooled == set(GOLD)


def test_gold_accuracy_against_a_hand_computed_case(campaign_db, tmp_path):
    db = campaign_db
    assert quality.import_gold(db, _gold_file(tmp_path), "lee").rows == 9
    _judge(db, "ann", ANN)
    _judge(db, "bob", BOB, ms=500)  # every judgment under 2 s
    table = quality.annotator_quality(db).set_index("annotator")
    assert list(table.columns) == quality.COLUMNS[1:]
    ann, bob = table.loc["ann"], table.loc["bob"]
    assert ann.gold_judged == 9 and bob.gold_judged == 4
    assert ann.gold_accuracy == pytest.approx(6 / 9)
    assert bob.gold_accuracy == 1.0
    # linear weighted kappa by hand: observed disagreement weights 1+1+1 = 3 over 9 items;
    # ann's marginals (0: 4, 1: 2, 2: 3), gold's (0: 5, 1: 1, 2: 3); expected
    # sum_ij |i-j| r_i c_j / n^2 = (4*1 + 4*3*2 + 2*5 + 2*3 + 3*5*2 + 3*1) / 81 = 77/81
    assert ann.gold_kappa == pytest.approx(1 - (3 / 9) / (77 / 81))
    keys = sorted(GOLD)
    assert ann.gold_kappa == pytest.approx(
        cohen_kappa_score([ANN[k] for k in keys], [GOLD[k] for k in keys], weights="linear")
    )
    assert bob.gold_kappa == pytest.approx(1.0)
    assert ann.fast_percent == 0.0 and bob.fast_percent == 100.0
    # 9 gold items is below the default 10: nobody is flagged yet
    assert "lee" not in table.index  # a lead who judged nothing is not listed
    assert not table.flagged.any()
    quality.set_settings(db, min_gold=9)
    table = quality.annotator_quality(db).set_index("annotator")
    assert table.loc["ann"].flagged and table.loc["ann"].reasons == [quality.FLAG_LOW_GOLD]
    assert not table.loc["bob"].flagged  # 4 gold items only
    quality.set_settings(db, min_accuracy=0.6)
    assert not quality.annotator_quality(db).set_index("annotator").loc["ann"].flagged


def test_gold_grades_still_count_in_the_qrels(campaign_db, tmp_path):
    from reljudge.storage import team

    _judge(campaign_db, "ann", ANN)
    before = team.aggregated_qrels(campaign_db)
    quality.import_gold(campaign_db, _gold_file(tmp_path), "lee")
    after = team.aggregated_qrels(campaign_db)
    assert before.equals(after) and len(after) == 9


def test_gold_import_is_all_or_nothing_and_names_the_line(campaign_db, tmp_path):
    bad = tmp_path / "bad.qrels"
    bad.write_text("q1 0 p01 2\nq1 0 p04 2\n", encoding="utf-8")  # p04 is not pooled for q1
    with pytest.raises(ReljudgeError, match=r"bad.qrels, line 2: paragraph 'p04' is not in the pool of question"):
        quality.import_gold(campaign_db, bad)
    assert quality.gold_items(campaign_db).empty
    with pytest.raises(ReljudgeError) as refused:  # worded in the page's language too
        quality.import_gold(campaign_db, bad)
    assert i18n.message(refused.value.message, "ko").endswith("2번째 줄: 문단 'p04'은(는) 질문 'q1'의 풀에 없습니다")
    bad.write_text("q1 0 p01 2\nq9 0 p01 2\n", encoding="utf-8")
    with pytest.raises(ReljudgeError, match="line 2: unknown qid 'q9'"):
        quality.import_gold(campaign_db, bad)
    bad.write_text("q1 0 p01 2\nq1 0 p01 7\n", encoding="utf-8")
    with pytest.raises(ReljudgeError, match="line 2"):
        quality.import_gold(campaign_db, bad)
    # a duplicate copy stands for its pooled paragraph; two different grades are refused
    bad.write_text("q1 0 p01 2\nq1 0 p06 1\n", encoding="utf-8")
    with pytest.raises(ReljudgeError, match="line 2: .*two different gold grades"):
        quality.import_gold(campaign_db, bad)
    assert quality.gold_items(campaign_db).empty
    ok = tmp_path / "ok.qrels"
    ok.write_text("q1 0 p06 2\n", encoding="utf-8")
    assert quality.import_gold(campaign_db, ok).rows == 1
    assert list(quality.gold_items(campaign_db)[["qid", "pid", "grade", "origin"]].itertuples(index=False)) == [
        ("q1", "p01", 2, "import")
    ]


def test_use_as_gold_and_auto_promotion(db, files):
    load_small_campaign(db, files, users=("ann", "bob", "cho", "lee"))
    for user in ("ann", "bob", "cho"):
        judging.grade(db, user, "q2", "p04", 2, ms=4000)
    judging.grade(db, "ann", "q2", "p05", 1, ms=4000)
    judging.grade(db, "bob", "q2", "p05", 1, ms=4000)
    judging.grade(db, "cho", "q2", "p05", 0, ms=4000)
    quality.use_as_gold(db, "q1", "p02", 2, "lee")
    assert quality.promote(db) == 0  # off by default
    quality.set_settings(db, auto_gold=True)
    table = quality.annotator_quality(db).set_index("annotator")
    gold = quality.gold_items(db)
    assert set(zip(gold.qid, gold.pid, gold.origin)) == {("q1", "p02", "adjudication"), ("q2", "p04", "promoted")}
    assert table.loc["cho"].gold_judged == 1 and table.loc["cho"].gold_accuracy == 1.0


def test_quality_cli_json_and_table(tmp_path, capsys, db_path, files):
    from reljudge.storage import open_database

    db = open_database(db_path)
    load_small_campaign(db, files)
    _judge(db, "ann", ANN)
    db.close()
    code, out, err = _run(capsys, "--db", db_path, "gold", "import", _gold_file(tmp_path))
    assert code == 0 and "9" in out
    code, out, err = _run(capsys, "--db", db_path, "quality", "--format", "json", "--min-gold", "5")
    assert code == 0, err
    data = json.loads(out)
    assert data["gold_items"] == 9 and data["settings"]["min_gold"] == 5
    rows = {r["annotator"]: r for r in data["annotators"]}
    assert set(rows["ann"]) == set(quality.COLUMNS)
    assert rows["ann"]["gold_judged"] == 9 and math.isclose(rows["ann"]["gold_accuracy"], 6 / 9)
    assert rows["ann"]["flagged"] is True and rows["ann"]["reasons"] == ["low_gold_accuracy"]
    assert rows["bob"]["gold_accuracy"] is None and rows["bob"]["flagged"] is False
    code, out, _ = _run(capsys, "--db", db_path, "quality")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split("\t") == quality.COLUMNS
    assert lines[2].startswith("ann\t9\t0.667\t")
    code, out, _ = _run(capsys, "--db", db_path, "gold", "list")
    assert out.splitlines()[0] == "qid\tpid\tgrade\torigin" and len(out.splitlines()) == 10
    bad = tmp_path / "bad.qrels"
    bad.write_text("q1 0 p01 2\nq1 0 nope 2\n", encoding="utf-8")
    code, out, err = _run(capsys, "--db", db_path, "gold", "import", bad)
    assert code == 2 and err.count("\n") == 1 and "line 2" in err and "Traceback" not in err
    code, _, err = _run(capsys, "--db", db_path, "quality", "--min-accuracy", "2")
    assert code == 2 and err.startswith("error:")


# -- decoys ---------------------------------------------------------------------------


def _decoys_of(db, user):
    placed = quality.placements(db)
    return {(r.qid, r.pid) for r in placed.itertuples() if r.annotator == user}


def test_decoys_come_from_other_pools_without_the_questions_content_words(campaign_db):
    from reljudge.campaign import highlight

    db = campaign_db
    out = quality.place_decoys(db, 0.5, seed=3)
    assert out["annotators"] == 2 and out["placed"] >= 2
    questions = dict(zip(judging.all_questions(db).qid, judging.all_questions(db).text))
    texts = {}
    for qid in questions:
        texts.update(dict(zip(judging.pool_paragraphs(db, qid).pid, judging.pool_paragraphs(db, qid).text)))
    for user in ("ann", "bob"):
        mine = _decoys_of(db, user)
        assert mine and len({q for q, _ in mine}) == len(mine)  # at most one per question
        for qid, pid in mine:
            assert pid not in set(judging.pool_paragraphs(db, qid).pid)
            words = highlight.content_words(questions[qid])
            assert not any(w in texts[pid].lower() for w in words)
    # deterministic for a seed: placing again with it gives the same decoys
    before = {u: _decoys_of(db, u) for u in ("ann", "bob")}
    quality.place_decoys(db, 0.5, seed=3)
    assert {u: _decoys_of(db, u) for u in ("ann", "bob")} == before
    with pytest.raises(ReljudgeError, match="rate"):
        quality.place_decoys(db, 0)


def test_a_decoy_is_shown_offered_and_saved_blind_for_its_annotator_only(campaign_db):
    from reljudge.campaign import events

    db = campaign_db
    quality.place_decoys(db, 0.5, seed=3)
    (qid, pid), *_ = sorted(_decoys_of(db, "ann"))
    data = judging.payload(db, "ann", qid)
    items = {it["pid"]: it for it in data["items"]}
    pooled = set(judging.pool_paragraphs(db, qid).pid)
    assert set(items) == pooled | {pid}
    # nothing tells it apart: same keys, to be judged now, counted in the annotator's own totals
    assert {tuple(sorted(it)) for it in data["items"]} == {tuple(sorted(items[pid]))}
    assert items[pid]["now"] and data["progress"]["q_total"] == len(pooled) + 1
    # ordered in the stable shuffle like the pooled paragraphs
    keys = [judging._shuffle_key(qid, "ann", it["pid"]) for it in data["items"]]
    assert keys == sorted(keys)
    offered = {(r["qid"], r["pid"]) for r in judging.next_items(db, "ann")}
    assert (qid, pid) in offered
    assert pid not in {it["pid"] for it in judging.payload(db, "bob", qid)["items"]} or (
        (qid, pid) in _decoys_of(db, "bob")
    )
    # the save route's path: accepted for ann, refused for bob (not shown to him)
    acked, refused, eids = events.record_each(
        db, "ann", [{"id": "d1", "kind": "grade", "qid": qid, "pid": pid, "grade": 2, "ms": 4000}]
    )
    assert acked == ["d1"] and not refused and eids["d1"] > 0
    if (qid, pid) not in _decoys_of(db, "bob"):
        acked, refused, _ = events.record_each(
            db, "bob", [{"id": "d2", "kind": "grade", "qid": qid, "pid": pid, "grade": 0, "ms": 4000}]
        )
        assert acked == [] and refused == {"d2": "not_pooled"}
    # resending is acknowledged once; the grade shows in ann's view
    acked, refused, again = events.record_each(
        db, "ann", [{"id": "d1", "kind": "grade", "qid": qid, "pid": pid, "grade": 2, "ms": 4000}]
    )
    assert acked == ["d1"] and again["d1"] == eids["d1"]
    grade = {it["pid"]: it["grade"] for it in judging.payload(db, "ann", qid)["items"]}[pid]
    assert grade == 2
    assert (qid, pid) not in {(r["qid"], r["pid"]) for r in judging.next_items(db, "ann")}
    row = quality.annotator_quality(db).set_index("annotator").loc["ann"]
    assert row.decoys_judged == 1 and row.decoys_failed == 1 and not row.flagged
    # a second failed decoy flags (default: 2)
    quality.set_settings(db, max_failed_decoys=1)
    row = quality.annotator_quality(db).set_index("annotator").loc["ann"]
    assert row.flagged and row.reasons == [quality.FLAG_FAILED_DECOYS]


def _figures(db, tmp_path, tag):
    """Everything a decoy must never touch, as comparable values."""
    from reljudge.campaign import adjudication, export, progress, team_agreement
    from reljudge.campaign.evaluation import evaluate_campaign
    from reljudge.storage import catalog, team

    result = evaluate_campaign(db, ["RR@10", "nDCG@10", "R@10", "P@5", "Judged@10"], n_boot=50, n_perm=50)
    files = {}
    for fmt in ("trec", "jsonl", "csv"):
        path = tmp_path / f"{tag}.{fmt}"
        export.write_qrels(db, path, fmt)
        files[fmt] = path.read_bytes()
    from reljudge.campaign import bundle

    return {
        "bundle_sha256": bundle.build(db).bundle_sha256,
        "qrels": team.aggregated_qrels(db).to_json(orient="records", date_format="iso"),
        "per_annotator": team.current_grades(db).to_json(orient="records", date_format="iso"),
        "metrics": result.result.per_query.to_json(orient="records", date_format="iso"),
        "means": result.result.means[["system", "qtype", "measure", "n", "mean"]].to_json(
            orient="records", date_format="iso"
        ),
        "agreement": json.dumps(team_agreement.from_database(db).to_dict(), sort_keys=True, default=str),
        "disagreements": adjudication.queue(db).to_json(orient="records", date_format="iso"),
        "exports": files,
        "pool": catalog.counts(db)["pool"],
        "events": catalog.counts(db)["judgment_events"],
        "progress": progress.by_annotator(db).to_json(orient="records", date_format="iso"),
        "speed": team.judging_speed(db).to_json(orient="records", date_format="iso"),
    }


@pytest.mark.parametrize("seed", [1, 2])
def test_decoys_never_leak(db, files, tmp_path, seed):
    """Property: with random grades on the pool, qrels, metrics, agreement, the
    disagreement queue, qrels exports, the pool size and progress are identical whether
    or not decoys were placed and judged (any grades, cleared and changed)."""
    import random

    load_small_campaign(db, files)
    rng = random.Random(seed)
    for user in ("ann", "bob"):
        for qid in ("q1", "q2", "q3"):
            for pid in judging.pool_paragraphs(db, qid).pid:
                if rng.random() < 0.8:
                    judging.grade(db, user, qid, pid, rng.choice([0, 1, 2]), ms=rng.randint(500, 9000))
    before = _figures(db, tmp_path, "before")
    quality.place_decoys(db, 0.5, seed=seed)
    placed = quality.placements(db)
    assert len(placed) >= 2
    for r in placed.itertuples():
        for _ in range(rng.randint(1, 3)):
            judging.grade(db, r.annotator, r.qid, r.pid, rng.choice([0, 1, 2, None]), ms=rng.randint(100, 9000))
        judging.grade(db, r.annotator, r.qid, r.pid, rng.choice([1, 2]), ms=100)
    after = _figures(db, tmp_path, "after")
    assert after == before
    # and the decoys are in the quality export
    out = tmp_path / "quality.jsonl"
    quality.export_quality(db, out)
    kinds = [json.loads(line)["kind"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert kinds.count("decoy") == len(placed) and kinds.count("decoy_event") >= 2 * len(placed)
    table = quality.annotator_quality(db).set_index("annotator")
    assert table.decoys_failed.sum() == len(placed)


def test_reassigning_ignores_decoys_and_decoys_cli(tmp_path, capsys, db_path, files):
    from reljudge.storage import open_database

    db = open_database(db_path)
    load_small_campaign(db, files)
    db.close()
    code, out, err = _run(capsys, "--db", db_path, "decoys", "--rate", "0.5", "--seed", "3")
    assert code == 0 and "decoys in force" in out, err
    code, out, err = _run(capsys, "--db", db_path, "decoys", "--rate", "0")
    assert code == 2 and err.startswith("error:") and "Traceback" not in err
    code, out, _ = _run(capsys, "--db", db_path, "next", "--user", "ann")
    db = open_database(db_path)
    decoys = _decoys_of(db, "ann")
    db.close()
    offered = {(json.loads(line)["qid"], json.loads(line)["pid"]) for line in out.splitlines()}
    assert decoys <= offered


def test_the_report_states_the_quality_control_settings_and_figures(campaign_db, tmp_path):
    from reljudge.reporting import report

    db = campaign_db
    plain = dict(report.build(db, lang="en", n_boot=20).setup)
    assert plain["Quality control (gold items, decoys)"].startswith("not used")
    quality.import_gold(db, _gold_file(tmp_path), "lee")
    _judge(db, "ann", ANN)
    quality.place_decoys(db, 0.5, seed=3)
    quality.set_settings(db, min_gold=9)
    text = dict(report.build(db, lang="en", n_boot=20).setup)["Quality control (gold items, decoys)"]
    assert "9 gold item(s) (imported 9, adjudication 0, promoted 0; auto-promotion off)" in text
    assert "rate 0.5, seed 3" in text and "after at least 9 gold items" in text
    assert "ann — gold 9, accuracy 0.667" in text and "(flagged: low gold accuracy)" in text
    ko = report.build(db, lang="ko", n_boot=20)
    text = dict(ko.setup)["품질 관리 (골드·미끼)"]
    assert "골드 항목 9개" in text and "골드 정확도 낮음" in text
    assert "품질 관리 (골드·미끼)" in report.render(ko, "md")


@settings(max_examples=examples(5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    grades=st.lists(st.sampled_from([None, 0, 1, 2]), min_size=18, max_size=18),
    decoy_grades=st.lists(st.lists(st.sampled_from([None, 0, 1, 2]), min_size=1, max_size=3), min_size=6, max_size=6),
    rate=st.sampled_from([0.1, 0.3, 0.5]),
    seed=st.integers(0, 2**31 - 1),
)
def test_decoys_never_leak_property(tmp_path_factory, files, grades, decoy_grades, rate, seed):
    """Hypothesis: any grades on the pool by two annotators, any decoy rate and seed, any
    sequence of grades (clears included) on every decoy: qrels, metrics, agreement, the
    disagreement queue, qrels exports, the bundle, the pool size and progress stay the same."""
    from reljudge.storage import open_database

    folder = tmp_path_factory.mktemp("leak")
    db = open_database(folder / "leak.duckdb")
    try:
        load_small_campaign(db, files)
        cells = [(u, q, p) for u in ("ann", "bob") for q, p in sorted(GOLD)]
        for (user, qid, pid), grade in zip(cells, grades):
            if grade is not None:
                judging.grade(db, user, qid, pid, grade, ms=3000)
        before = _figures(db, folder, "before")
        quality.place_decoys(db, rate, seed=seed)
        placed = quality.placements(db)
        assert len(placed) >= 2  # one at least for each annotator
        for r, sequence in zip(placed.itertuples(), decoy_grades):
            for grade in sequence:
                judging.grade(db, r.annotator, r.qid, r.pid, grade, ms=1000)
        assert _figures(db, folder, "after") == before
    finally:
        db.close()
