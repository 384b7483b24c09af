"""Quality control: gold items and each annotator's accuracy against them, decoys, and
``reljudge gold`` / ``decoys`` / ``quality`` (README "품질 관리 / Quality control").
Tests taking ``db`` run on DuckDB and PostgreSQL."""

from __future__ import annotations

import json
import math

import pytest
from sklearn.metrics import cohen_kappa_score

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
    assert quality.import_gold(db, _gold_file(tmp_path), "lee") == 9
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
    assert quality.import_gold(campaign_db, ok) == 1
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
