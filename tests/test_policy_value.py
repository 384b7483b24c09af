"""The policy value, parsed once (reljudge.policy), and its option ``+exclude-flagged``
(issue 39.6): the annotators quality control flags are left out of the figures, decided
when the figures are computed, recorded by ``freeze`` and by the bundle. Tests taking
``db`` / ``campaign_db`` run on DuckDB and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reljudge import policy as policies
from reljudge.campaign import adjudication, bundle, quality
from reljudge.campaign.evaluation import evaluate_campaign
from reljudge.cli import main as cli
from reljudge.errors import ReljudgeError
from reljudge.policy import Policy
from reljudge.reporting import dashboard
from reljudge.storage import team

from test_quality import GOLD, _gold_file, _judge

# ann: a careless annotator — 4 of the 9 gold items wrong, every paragraph of q1 graded 0
# but p08; bob grades exactly the gold. With at least 9 gold items needed, ann is flagged.
CARELESS = {
    ("q1", "p01"): 0,
    ("q1", "p02"): 0,
    ("q1", "p03"): 0,
    ("q1", "p08"): 2,
    ("q2", "p03"): 2,
    ("q2", "p04"): 2,
    ("q2", "p05"): 1,
    ("q3", "p03"): 0,
    ("q3", "p08"): 0,
}


def _two_annotators(db, tmp_path):
    quality.import_gold(db, _gold_file(tmp_path), "lee")
    _judge(db, "ann", CARELESS)
    _judge(db, "bob", GOLD)
    quality.set_settings(db, min_gold=9)
    return db


# -- the parser ----------------------------------------------------------------------


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).filter(lambda s: s.strip() == s)


@given(
    st.one_of(
        st.tuples(st.sampled_from(policies.TEAM_KINDS), st.none(), st.sets(st.sampled_from(policies.OPTIONS))),
        st.tuples(st.sampled_from(policies.NAMED_KINDS), names, st.just(set())),
    )
)
def test_every_policy_value_survives_its_string(parts):
    kind, name, options = parts
    value = Policy(kind, name, tuple(o for o in policies.OPTIONS if o in options))
    assert Policy.parse(str(value)) == value
    assert str(Policy.parse(str(value))) == str(value)


def test_the_values_scripts_already_use_keep_their_meaning():
    assert Policy.parse("adjudicated") == Policy("adjudicated")
    assert Policy.parse("majority").uses_adjudications is False
    assert Policy.parse("source:e5:v2") == Policy("source", "e5:v2")  # a name may hold ':'
    assert Policy.parse("annotator:kim+lee").name == "kim+lee"  # and '+'
    assert Policy.parse("adjudicated+exclude-flagged").excludes_flagged
    assert Policy.parse("adjudicated+exclude-flagged").base == Policy("adjudicated")


@pytest.mark.parametrize(
    "value, code",
    [
        ("adjudicatd", "error_unknown_policy"),
        ("judge:e5", "error_unknown_policy"),
        ("source:", "error_policy_name"),
        ("adjudicated+exclude-slow", "error_policy_option"),
        ("majority+", "error_policy_option"),
    ],
)
def test_a_bad_policy_is_refused_with_its_code(value, code):
    with pytest.raises(ReljudgeError) as err:
        Policy.parse(value)
    assert err.value.message.code == code


def test_labels_in_both_languages():
    assert "제외" in policies.qrels_label("adjudicated+exclude-flagged", None, "ko")
    assert "left out" in policies.qrels_label("majority+exclude-flagged", None, "en")
    assert policies.qrels_label("not a policy", None, "ko") == "not a policy"


# -- excluding the flagged annotators ---------------------------------------------------


def test_the_flagged_annotator_is_left_out_of_qrels_and_figures(campaign_db, tmp_path):
    db = _two_annotators(campaign_db, tmp_path)
    flagged = quality.annotator_quality(db).set_index("annotator")
    assert flagged.loc["ann"].flagged and not flagged.loc["bob"].flagged
    kept = team.aggregated_qrels(db, "adjudicated+exclude-flagged")
    assert set(kept.n_annotators) == {1}
    assert {(r.qid, r.pid): int(r.grade) for r in kept.itertuples()} == GOLD
    # with ann: ties fall to the lower grade, so q1's citable paragraphs are lost
    both = team.aggregated_qrels(db, "adjudicated").set_index(["qid", "pid"]).grade
    assert both[("q1", "p01")] == 0 and both[("q1", "p02")] == 0

    measures = ["RR@10", "nDCG@10"]
    left_out = evaluate_campaign(db, measures, policy="adjudicated+exclude-flagged", n_boot=0, n_perm=0)
    only_bob = evaluate_campaign(db, measures, policy="annotator:bob", n_boot=0, n_perm=0)
    everyone = evaluate_campaign(db, measures, policy="adjudicated", n_boot=0, n_perm=0)
    assert left_out.excluded == ("ann",) and everyone.excluded == ()
    assert "left out: ann" in left_out.qrels_label
    cols = ["system", "qtype", "measure", "n", "mean"]
    a = left_out.result.means[cols].reset_index(drop=True)
    assert a.equals(only_bob.result.means[cols].reset_index(drop=True))
    assert not a.equals(everyone.result.means[cols].reset_index(drop=True))


def test_who_is_left_out_is_decided_when_the_figures_are_computed(campaign_db, tmp_path):
    db = _two_annotators(campaign_db, tmp_path)
    assert team.excluded_annotators(db.cursor(), "majority+exclude-flagged") == ("ann",)
    quality.set_settings(db, min_accuracy=0.5)  # 5 of 9 right is now enough
    assert team.excluded_annotators(db.cursor(), "majority+exclude-flagged") == ()
    assert team.aggregated_qrels(db, "majority+exclude-flagged").equals(team.aggregated_qrels(db, "majority"))


def test_a_failed_decoy_count_flags_too(campaign_db):
    from reljudge.campaign import events
    from reljudge.storage import quality as quality_store

    db = campaign_db
    _judge(db, "bob", GOLD)
    quality.place_decoys(db, 0.5, seed=3)
    placed = quality.placements(db)
    row = placed[placed.annotator == "ann"].iloc[0]
    event = {"id": "d1", "kind": "grade", "qid": row.qid, "pid": row.pid, "grade": 2, "ms": 4000}
    assert events.record_each(db, "ann", [event])[0] == ["d1"]
    assert team.excluded_annotators(db.cursor(), "adjudicated+exclude-flagged") == ()  # 1 of 2
    quality.set_settings(db, max_failed_decoys=1)
    assert team.excluded_annotators(db.cursor(), "adjudicated+exclude-flagged") == ("ann",)
    assert quality_store.flagged(db.cursor())[0] == {"ann": [quality.FLAG_FAILED_DECOYS]}
    # the same rule as the quality table
    table = quality.annotator_quality(db).set_index("annotator")
    assert list(table.index[table.flagged]) == ["ann"]


def test_freeze_records_who_was_left_out_and_keeps_it(campaign_db, tmp_path):
    db = _two_annotators(campaign_db, tmp_path)
    v = adjudication.freeze(db, "lee", "adjudicated+exclude-flagged", "without ann")
    record = adjudication.version_exclusions(db, v)
    assert list(record.annotator) == ["ann"] and list(record.reasons) == [[quality.FLAG_LOW_GOLD]]
    assert record.iloc[0].min_gold == 9 and record.iloc[0].min_accuracy == pytest.approx(0.7)
    assert adjudication.versions(db).set_index("version").loc[v].policy == "adjudicated+exclude-flagged"
    frozen = adjudication.qrels(db, version=v)
    quality.set_settings(db, min_accuracy=0.1)  # ann no longer flagged: the version does not move
    assert adjudication.qrels(db, version=v).equals(frozen)
    assert {(r.qid, r.pid): int(r.grade) for r in frozen.itertuples()} == GOLD
    # a version frozen without the option records nobody
    assert adjudication.version_exclusions(db, adjudication.freeze(db, "lee", "adjudicated")).empty


def test_the_bundle_names_who_was_left_out(campaign_db, tmp_path):
    db = _two_annotators(campaign_db, tmp_path)
    made = bundle.build(db, "adjudicated+exclude-flagged")
    pol = made.manifest["policies"]
    assert pol["qrels_policy"] == "adjudicated+exclude-flagged"
    assert pol["excluded_annotators"] == [{"annotator": "ann", "reasons": ["low_gold_accuracy"]}]
    assert pol["exclusion_thresholds"] == {"min_gold": 9, "min_accuracy": 0.7, "max_failed_decoys": 2}
    assert "left out: ann (low_gold_accuracy)" in made.files["REPRODUCE.md"].decode("utf-8")
    # the qrels file holds bob's grades only
    lines = made.files["qrels.txt"].decode("utf-8").split("\n")
    assert "q1 0 p01 2" in lines
    assert "excluded_annotators" not in bundle.build(db, "adjudicated").manifest["policies"]


def test_the_dashboard_offers_it(campaign_db):
    choices = dashboard.qrels_choices(campaign_db)
    assert ("adjudicated+exclude-flagged", None) in choices and ("majority+exclude-flagged", None) in choices


def test_the_cli_takes_the_option_and_refuses_a_wrong_one(tmp_path, capsys, db_path, files):
    from conftest import load_small_campaign
    from reljudge.storage.db import open_database

    db = open_database(db_path)
    load_small_campaign(db, files)
    _two_annotators(db, tmp_path)
    db.close()
    code = cli.main(
        ["--db", str(db_path), "evaluate", "--policy", "adjudicated+exclude-flagged", "-m", "RR@10", "--format", "json"]
    )
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "left out: ann" in json.loads(out.out)["qrels"]
    code = cli.main(["--db", str(db_path), "freeze", "--policy", "majority+exclude-flagged"])
    out = capsys.readouterr()
    assert code == 0 and "left out: ann (low_gold_accuracy)" in out.out
    code = cli.main(["--db", str(db_path), "evaluate", "--policy", "adjudicated+exclude-slow", "-m", "RR@10"])
    out = capsys.readouterr()
    assert code != 0 and "exclude-slow" in out.err and "Traceback" not in out.err


def test_the_report_names_who_was_left_out(campaign_db, tmp_path):
    from reljudge.reporting import report

    db = _two_annotators(campaign_db, tmp_path)
    en = report.render(report.build(db, "adjudicated+exclude-flagged", lang="en", n_boot=20), "md")
    assert "left out of these figures: ann" in en
    assert "--policy adjudicated+exclude-flagged" in en  # the bundle command of these figures
    ko = report.render(report.build(db, "adjudicated+exclude-flagged", lang="ko", n_boot=20), "md")
    assert "이번 계산에서 뺀 판정자: ann" in ko
    assert "left out of these figures" not in report.render(report.build(db, lang="en", n_boot=20), "md")
