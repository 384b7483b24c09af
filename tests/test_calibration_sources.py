"""A model source against any reference (issue 39, points 2-5): an imported qrels source
counts the pooled pairs it does not list as 0, as trec_eval reads a qrels; a model source
leaves the pairs it could not grade out; the system figures of both sides are averaged over
the same questions; the confusion matrix comes with its margins; the report and the
Agreement page take any policy or source as the reference; a registered model source that
graded nothing exports an empty file and says so."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from reljudge.campaign import export, judging
from reljudge.campaign.evaluation import evaluate_campaign
from reljudge.cli.main import main
from reljudge.errors import ReljudgeError
from reljudge.judges import calibration
from reljudge.reporting import judge_tables
from reljudge.storage import judge_sources, open_database

from conftest import load_small_campaign

ERROR_COLUMNS = ["qid", "pid", "kind", "detail", "answer"]
# the small campaign's pool: q1 p01 p02 p03 p08, q2 p03 p04 p05, q3 p03 p08 (9 pairs)
MODEL_GRADES = [("q1", "p01", 2), ("q1", "p03", 0), ("q2", "p04", 2), ("q2", "p05", 1)]


def model_source(db, name: str, grades, errors=()) -> None:
    """A source as auto-judge leaves it: registered, its grades and the pairs it could not grade."""
    judge_sources.record_source(db, name, "endpoint", "tiny-model", "v1", "prompt", "sha", "{}")
    judge_sources.store_results(
        db,
        name,
        pd.DataFrame(list(grades), columns=["qid", "pid", "grade"]),
        pd.DataFrame([(q, p, "unparsable", "no final line", "…") for q, p in errors], columns=ERROR_COLUMNS),
    )


@pytest.fixture
def sources_db(db_path, files, tmp_path):
    """The small campaign with an imported truth (two pairs of q1 listed), a model source m
    (4 pooled pairs graded, q1 p02 not gradable) and the annotator ann's three grades."""
    db = load_small_campaign(open_database(db_path), files)
    truth = tmp_path / "truth.txt"
    truth.write_text("q1 0 p01 2\nq1 0 p02 1\n", encoding="utf-8")
    export.import_qrels(db, truth, "truth", "trec")
    model_source(db, "m", MODEL_GRADES, errors=[("q1", "p02")])
    judging.grade(db, "ann", "q1", "p01", 2)
    judging.grade(db, "ann", "q1", "p02", 1)
    judging.grade(db, "ann", "q2", "p04", 0)
    yield db
    db.close()


# -- point 2: calibrate ------------------------------------------------------------------------


def test_an_imported_reference_counts_the_pooled_pairs_it_does_not_list_as_zero(sources_db):
    result = calibration.calibrate(sources_db, "m", "source:truth", with_outcome=False)
    # every pair the model graded, not only the one both listed (q1 p01)
    assert result["n"] == len(MODEL_GRADES) == 4
    assert result["confusion"] == [[1, 1, 1], [0, 0, 0], [0, 0, 1]]
    assert result["margins"] == {"against": [3, 0, 1], "source": [1, 1, 2], "total": 4}
    assert result["against_kind"] == "imported" and result["source_kind"] == "model"
    assert result["errors"] == 1  # q1 p02: the model could not grade it, it is not a 0
    both = calibration.paired_grades(sources_db, "m", "source:truth")
    assert ("q1", "p02") not in set(zip(both.qid, both.pid))


def test_an_imported_source_grades_every_pooled_pair_against_the_people(sources_db):
    # truth against ann: ann's three pairs; against the model: the model's four
    assert calibration.calibrate(sources_db, "truth", "annotator:ann", with_outcome=False)["n"] == 3
    result = calibration.calibrate(sources_db, "truth", "source:m", with_outcome=False)
    assert result["n"] == 4 and result["source_kind"] == "imported" and result["against_kind"] == "model"
    assert result["against_described"] == "model source m"


def test_a_model_reference_leaves_out_the_pairs_it_could_not_grade(sources_db):
    model_source(sources_db, "m2", [("q1", "p01", 1), ("q2", "p05", 2)], errors=[("q1", "p03"), ("q2", "p04")])
    result = calibration.calibrate(sources_db, "m", "source:m2", with_outcome=False)
    assert result["n"] == 2 and result["margins"]["total"] == 2


def test_an_unknown_imported_reference_is_refused(sources_db):
    with pytest.raises(ReljudgeError, match="no source 'nope'"):
        calibration.calibrate(sources_db, "m", "source:nope")


def test_the_outcome_averages_both_sides_over_the_same_questions(sources_db):
    db = sources_db
    result = calibration.calibrate(db, "m", "source:truth")
    # truth covers q1 only; the model q1 and q2: both are averaged over q1
    assert result["outcome_questions"] == {"common": 1, "against": 1, "source": 2}
    model = evaluate_campaign(db, ["RR@10"], policy="source:m", n_boot=0, n_perm=0, with_bounds=False)
    on_q1 = model.result.per_query[model.result.per_query.qid == "q1"].set_index("system")["value"]
    whole = model.result.means[model.result.means.qtype == "all"].set_index("system")["mean"]
    assert (on_q1 != whole).all()  # the test means something: q2 moves the model's mean
    rr = result["outcome"]["RR(rel=2)@10"]
    assert rr["n_questions"] == 1
    for system in ("bm25", "vector"):
        assert rr["systems"][system]["source"] == pytest.approx(on_q1[system])


def test_cli_calibrate_says_where_a_side_is_imported_and_prints_the_margins(sources_db, db_path, capsys):
    sources_db.close()
    assert main(["--db", str(db_path), "calibrate", "m", "--against", "source:truth"]) == 0
    out = capsys.readouterr().out
    assert (
        "source:truth is an imported qrels source: pooled pairs it does not list count as grade 0, "
        "as trec_eval reads a qrels" in out
    )
    assert "n 4 " in out and "(pairs the model could not grade: 1)" in out
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split() == ["0", "1", "2", "sum"])
    assert [line.split() for line in lines[head + 1 : head + 5]] == [
        ["0", "1", "1", "1", "3"],
        ["1", "0", "0", "0", "0"],
        ["2", "0", "0", "1", "1"],
        ["sum", "1", "1", "2", "4"],
    ]
    assert "system figures averaged over the same 1 questions, those both qrels cover (against: 1, source: 2)" in out
    # against the people, nothing is imported: no such line
    assert main(["--db", str(db_path), "calibrate", "m", "--against", "annotator:ann"]) == 0
    assert "imported qrels source" not in capsys.readouterr().out
    assert main(["--db", str(db_path), "calibrate", "m", "--against", "source:truth", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("n", "exact_agreement", "kappa_linear", "confusion", "per_type", "outcome", "errors"):
        assert key in result  # the keys of before stay
    assert result["margins"] == {"against": [3, 0, 1], "source": [1, 1, 2], "total": 4}
    assert all("margins" in f for f in result["per_type"].values())
    assert result["outcome_questions"]["common"] == 1


# -- point 3 and 5: the report and the Agreement page take any reference -------------------------


def test_reference_choices_offer_every_policy_and_source_but_the_model_itself(sources_db):
    model_source(sources_db, "empty", [], errors=[("q1", "p01")])
    choices = judge_tables.reference_choices(sources_db, "m")
    assert choices[:2] == ["adjudicated", "majority"]
    assert {"annotator:ann", "source:truth", "source:empty"} <= set(choices)
    assert "source:m" not in choices


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_report_compares_the_model_with_an_imported_reference(sources_db, lang):
    from reljudge.reporting import report

    data = report.build(sources_db, "source:truth", lang=lang, n_boot=20)
    md = report.render(data, "md")
    section = md[md.index(judge_tables.i18n.t("judge_report_title", lang)) :]
    if lang == "ko":
        assert "둘 다 판정한 풀 문단 4개" in section and "둘 다 판정한 풀 문단 0개" not in section
        assert "켄달 타우 1.0" in section and "0.16–0.22" in section and "0.34–0.42" in section
        assert "등급 0으로 셉니다" in section
        assert "imported qrels source" not in section and "가져온 외부 판정 truth" in section  # issue 39.9
    else:
        assert "4 pooled pairs both graded" in section
        assert "Kendall τ 1.0" in section and "0.16–0.22" in section and "0.34–0.42" in section
        assert "not for reporting absolute values" in section
        assert "count as grade 0" in section
    html = report.render(data, "html")
    assert judge_tables.use_note(lang) in html.replace("&#x27;", "'")


def test_the_report_leaves_out_the_model_source_that_is_its_policy(sources_db):
    from reljudge.reporting import report

    model_source(sources_db, "m2", [("q1", "p01", 1), ("q2", "p05", 2)])
    section = report.build(sources_db, "source:m", lang="en", n_boot=20).model_judge
    assert [r["source"] for r in section.results] == ["m2"]
    assert all(r["against"] == "source:m" for r in section.results)


def test_the_agreement_page_takes_any_reference(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from app_support import demo_app
    from reljudge.ui import webapp

    app, db = demo_app(tmp_path / "app.duckdb", monkeypatch)
    pooled = judge_sources.pooled_pairs(db)
    graded = pooled.head(12)
    model_source(db, "m", [(q, p, k % 3) for k, (q, p) in enumerate(zip(graded.qid, graded.pid))])
    truth = tmp_path / "truth.txt"
    truth.write_text(f"{graded.qid.iloc[0]} 0 {graded.pid.iloc[0]} 2\n", encoding="utf-8")
    export.import_qrels(db, truth, "truth", "trec")
    at = AppTest.from_file(str(webapp.HERE / "workbench.py"), default_timeout=120).run()
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page("screens/agreement.py").run()
    assert not at.exception
    reference = at.selectbox(key="judge_reference")
    assert "source:truth" in reference.options and "source:m" not in reference.options
    reference.set_value("source:truth").run()
    assert not at.exception
    figures = next(d.value for d in at.dataframe if "kappa_linear" in d.value.columns)
    assert figures.iloc[0]["judged_pairs"] == 12  # every pair the model graded: truth's unlisted ones are 0
    confusion = next(d.value for d in at.dataframe if "model_sum" in d.value.columns)
    assert confusion.loc["Σ", "model_sum"] == 12
    assert any("0.16–0.22" in c.value for c in at.caption)


# -- point 4: export of a registered source that graded nothing --------------------------------------


def test_a_registered_source_with_no_grades_exports_empty_and_says_so(db_path, files, tmp_path, capsys):
    db = load_small_campaign(open_database(db_path), files)
    model_source(db, "smol", [], errors=[("q1", "p01"), ("q1", "p02"), ("q2", "p04")])
    db.close()
    out = tmp_path / "smol.trec"
    assert main(["--db", str(db_path), "export", "qrels", "--source", "smol", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert out.read_text(encoding="utf-8") == ""
    assert "model source 'smol': 0 graded, 3 errors" in captured.err
    assert "0 qrels rows" in captured.out
    # an unknown source is still an error
    assert main(["--db", str(db_path), "export", "qrels", "--source", "nope", "-o", str(out)]) == 2
    assert "nope" in capsys.readouterr().err
