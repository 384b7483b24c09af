"""The campaign evaluated from the database: same numbers as trec_eval-style file mode,
duplicates, no-answer questions, abstention, frozen versions, the dashboard tables."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from e2e_support import build_campaign
from reljudge.campaign import adjudication
from reljudge.reporting import dashboard
from reljudge.campaign import evaluation
from reljudge.campaign import export
from reljudge.campaign import judging
from reljudge.storage import open_database


def _cli(db_path, *args):
    return subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(db_path), *args], capture_output=True, text=True
    )


@pytest.fixture
def judged_campaign(tmp_path):
    camp = build_campaign(tmp_path / "eval.duckdb", tmp_path / "input", n_questions=4, pool_size=12)
    db = open_database(camp.db_path)
    grades = [2, 0, 1, 0, 2, 0, 0, 1, 0, 0, 2, 0]
    for qi, qid in enumerate(camp.qids):
        for k, pid in enumerate(camp.pool[qid]):
            judging.grade(db, "annotator1", qid, pid, grades[(k + 3 * qi) % len(grades)])
    db.close()
    return camp


def _tsv(text):
    return {
        tuple(line.split("\t")[:3]): float(line.split("\t")[3])
        for line in text.splitlines()
        if line and not line.startswith("#")
    }


def test_database_mode_equals_file_mode_on_exported_qrels(judged_campaign, tmp_path):
    camp = judged_campaign
    db = open_database(camp.db_path)
    export.write_qrels(db, tmp_path / "qrels.txt", "trec")
    db.close()
    measures = ["RR(rel=2)@10", "nDCG@10", "R(rel=2)@5", "P(rel=1)@3"]
    runs = [str(tmp_path / "input" / "a.run"), str(tmp_path / "input" / "b.run")]
    files = _cli(
        camp.db_path, "evaluate", "--qrels", str(tmp_path / "qrels.txt"), *runs, "-m", *measures, "--per-query"
    )
    assert files.returncode == 0, files.stderr
    base = _cli(camp.db_path, "evaluate", "-m", *measures, "--per-query")
    assert base.returncode == 0, base.stderr
    got, want = _tsv(base.stdout), _tsv(files.stdout)
    assert set(got) == set(want) and len(got) == 2 * 4 * 5
    for key, value in want.items():
        assert got[key] == pytest.approx(value, abs=1e-4), key
    # RUN files in database mode give the same numbers as the imported runs
    given = _cli(camp.db_path, "evaluate", *runs, "-m", *measures, "--per-query")
    assert _tsv(given.stdout) == want


def test_default_threshold_is_citable_and_named(judged_campaign):
    r = _cli(judged_campaign.db_path, "evaluate", "-m", "RR@10", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert {m["measure"] for m in doc["means"]} == {"RR(rel=2)@10"}
    assert doc["qrels"].startswith("live judgments")
    assert doc["policies"]["ties"] == "trec10" and doc["policies"]["dedup"] == "first"


def test_duplicates_no_answer_abstention_and_versions(campaign_db):
    db = campaign_db
    # q1 pool: p02, p01 (p06, p07 are its copies), p03, p08; bm25 ranks p02, p01, p06, p03
    for pid, grade in (("p02", 0), ("p01", 2), ("p03", 0), ("p08", 0)):
        judging.grade(db, "ann", "q1", pid, grade)
    judging.grade(db, "ann", "q2", "p05", 2)
    judging.mark_no_answer(db, "ann", "q3", True)
    ev = evaluation.evaluate_campaign(db, ["RR@10", "R@10"], n_boot=0, n_perm=0)
    r = ev.result
    pq = r.per_query.set_index(["system", "qid", "measure"]).value
    assert pq[("bm25", "q1", "RR(rel=2)@10")] == 0.5  # p01 at 2; its copy p06 is dropped
    assert pq[("vector", "q1", "RR(rel=2)@10")] == 1.0  # p07 is a copy of p01: citable
    assert pq[("vector", "q2", "RR(rel=2)@10")] == 1.0
    assert r.n_questions == {"all": 3, "answerable": 2, "no_answer": 1}
    assert ev.no_answer_qids == ["q3"]
    assert r.mean("bm25", "RR(rel=2)@10") == pytest.approx((0.5 + 0.5) / 2)
    v1 = adjudication.freeze(db, "lee")
    judging.grade(db, "ann", "q1", "p02", 2)
    live = evaluation.evaluate_campaign(db, ["RR@10"], n_boot=0, n_perm=0).result
    frozen = evaluation.evaluate_campaign(db, ["RR@10"], version=v1, n_boot=0, n_perm=0).result
    assert live.mean("bm25", "RR(rel=2)@10") == 0.75 and frozen.mean("bm25", "RR(rel=2)@10") == 0.5


def test_abstention_rates(tmp_path, campaign_db):
    import json as _json
    from reljudge.campaign import setup as campaign

    db = campaign_db
    run = tmp_path / "graph.jsonl"
    run.write_text(
        "\n".join(
            _json.dumps(r)
            for r in [
                {"qid": "q1", "pid": "p02", "score": 1},
                {"qid": "q2", "abstained": True},
                {"qid": "q3", "abstained": True},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    campaign.import_file(db, "run", run, system="graphrag")
    judging.grade(db, "ann", "q1", "p02", 2)
    judging.grade(db, "ann", "q2", "p04", 2)
    judging.mark_no_answer(db, "ann", "q3", True)
    ev = evaluation.evaluate_campaign(db, ["RR@10"], n_boot=0, n_perm=0)
    a = ev.result.abstention
    row = a[(a.system == "graphrag") & (a.qtype == "all")].iloc[0]
    assert (row.n_appropriate, row.appropriate_rate) == (1, 1.0)  # abstained on q3 (no answer)
    assert (row.n_false, row.false_rate) == (1, 0.5)  # and on q2 (answerable)
    assert row.no_answer_rate == pytest.approx(1 / 3)


def test_a_short_but_fully_judged_run_is_not_provisional(judged_campaign, tmp_path):
    """GraphRAG returns two paragraphs per question, both judged: Judged@10 = 0.2 as
    trec_eval counts it, yet nothing it returned is unjudged, so it is not provisional."""
    from reljudge.campaign import setup as campaign

    camp = judged_campaign
    db = open_database(camp.db_path)
    run = tmp_path / "graph.jsonl"
    run.write_text(
        "".join(
            json.dumps({"qid": q, "pid": p, "score": 2 - i}) + "\n"
            for q in camp.qids
            for i, p in enumerate(camp.pool[q][:2])
        ),
        encoding="utf-8",
    )
    campaign.import_file(db, "run", run, system="graphrag")
    ev = dashboard.evaluate_for_dashboard(db, 10, 2, n_boot=0, n_perm=0)
    overall = dashboard.summary_table(ev, 10).query("qtype == 'all'").set_index("system")
    assert overall.loc["graphrag", "Judged@10"] == pytest.approx(0.2)
    assert overall.loc["graphrag", "judged_returned"] == 1.0
    assert not overall.loc["graphrag", "provisional"]
    db.close()


def test_dashboard_tables(judged_campaign):
    db = open_database(judged_campaign.db_path)
    ev = dashboard.evaluate_for_dashboard(db, 5, 2, n_boot=200, n_perm=200)
    table = dashboard.summary_table(ev, 5)
    overall = table[table.qtype == "all"].set_index("system")
    assert set(overall.index) == {"sysA", "sysB"}
    assert overall.loc["sysA", "n"] == 4
    assert not overall.provisional.any()  # every pooled paragraph is judged
    assert ev.result.mean("sysA", "RR(rel=2)@5") == pytest.approx(overall.loc["sysA", "MRR@5"])
    fails = dashboard.failure_cases(db, ev, 5)
    assert set(fails.columns) >= {"question", "first_pid", "first_text"}
    detail = dashboard.question_detail(db, ev, judged_campaign.qids[0], 3)
    assert list(detail.groupby("system").size()) == [3, 3] and detail.grade.notna().all()
    db.close()


def test_questions_used_counts_the_campaigns_questions(campaign_db):
    """questions_used counts the questions table alone (it no longer asks campaign.counts,
    which streams paragraphs, pool and all events on PostgreSQL): same total, on both backends."""
    from reljudge.campaign import setup as campaign

    ev = dashboard.evaluate_for_dashboard(campaign_db, 5, 2, n_boot=50, n_perm=50)
    used = dashboard.questions_used(campaign_db, ev)
    assert used["total"] == campaign.counts(campaign_db)["questions"] > 0
    assert used["unjudged"] == used["total"] - int(ev.result.n_questions["all"])


def test_metrics_on_an_imported_source(campaign_db, tmp_path):
    db = campaign_db
    f = tmp_path / "ext.qrels"
    f.write_text("q1 0 p06 2\nq2 0 p05 2\n", encoding="utf-8")  # p06: a copy of p01
    export.import_qrels(db, f, "ref")
    ev = evaluation.evaluate_campaign(db, ["RR@10"], policy="source:ref", n_boot=0, n_perm=0)
    pq = ev.result.per_query.set_index(["system", "qid"]).value
    assert pq[("bm25", "q1")] == 0.5 and pq[("vector", "q1")] == 1.0 and pq[("vector", "q2")] == 1.0
    assert ev.qrels_label.endswith("imported qrels source ref")
    with pytest.raises(Exception, match="already fixed"):
        adjudication.freeze(db, "lee", policy="source:ref")


def test_database_mode_equals_file_mode_for_trec_evals_official_measures(judged_campaign, tmp_path):
    """The measures added with the registry (AP, GMAP, Rprec, Bpref, IPrec, the counts,
    Unj) give the same per-question values and summaries on the campaign as trec_eval-style
    file mode on the exported qrels."""
    camp = judged_campaign
    db = open_database(camp.db_path)
    export.write_qrels(db, tmp_path / "qrels.txt", "trec")
    db.close()
    measures = [
        "AP(rel=2)",
        "GMAP(rel=1)",
        "Rprec(rel=2)",
        "Bpref(rel=1)",
        "IPrec(rel=2)@0.5",
        "NumRet",
        "NumRel(rel=2)",
        "NumRelRet(rel=1)",
        "Unj@10",
    ]
    runs = [str(tmp_path / "input" / "a.run"), str(tmp_path / "input" / "b.run")]
    files = _cli(
        camp.db_path, "evaluate", "--qrels", str(tmp_path / "qrels.txt"), *runs, "-m", *measures, "--per-query"
    )
    assert files.returncode == 0, files.stderr
    base = _cli(camp.db_path, "evaluate", "-m", *measures, "--per-query")
    assert base.returncode == 0, base.stderr
    got, want = _tsv(base.stdout), _tsv(files.stdout)
    assert set(got) == set(want) and len(got) == 2 * len(measures) * 5
    for key, value in want.items():
        assert got[key] == pytest.approx(value, abs=1e-4), key
    assert any(k[1] == "NumRet" and k[2] == "all" and v > 4 for k, v in got.items())  # summed, not averaged


@pytest.mark.parametrize("n", [0, 1, 3, 80])
def test_paragraph_texts_reads_exactly_the_paragraphs_asked_for(db, n):
    """A few keys and many keys (above storage.db.MANY_KEYS: a semi-join on the file, an
    IN list on PostgreSQL) give the same texts as the table, and nothing else."""
    from reljudge.campaign import setup as campaign
    from reljudge.storage import db as storage_db
    from reljudge.storage import evaluation_inputs

    campaign.load_demo(db)
    rows = db.cursor().execute("SELECT pid, text FROM paragraphs ORDER BY pid").fetchall()
    assert len(rows) > storage_db.MANY_KEYS + 10
    wanted = dict(rows[:n])
    asked = list(wanted) + list(wanted)[:2] + ["no-such-paragraph"]
    assert evaluation_inputs.paragraph_texts(db, asked) == wanted


def test_the_dashboard_lists_questions_with_nothing_citable_and_what_marking_them_does(campaign_db):
    """Issue 35.4: a question judged with nothing citable and not marked "no answer" is RR 0
    in every MRR; the dashboard lists it with each system's MRR if it were marked, and
    that figure is what the evaluation gives once it is marked."""
    db = campaign_db
    for pid in ("p02", "p01", "p03", "p08"):
        judging.grade(db, "ann", "q1", pid, 0)
    judging.grade(db, "ann", "q2", "p05", 2)
    judging.grade(db, "ann", "q3", "p03", 1)  # below the threshold too
    judging.grade(db, "ann", "q3", "p08", 0)  # q3's whole pool: the plan (complete) asks no more
    ev = dashboard.evaluate_for_dashboard(db, 10, 2, n_boot=0, n_perm=0)
    table = dashboard.nothing_citable(db, ev, 10)
    assert sorted(set(table.qid)) == ["q1", "q3"] and set(table.system) == {"bm25", "vector"}
    by = table.set_index(["qid", "system"])
    # q2: bm25 ranks p05 second (RR 0.5), vector first (RR 1); q1 and q3 hold nothing citable
    assert by.loc[("q1", "bm25"), "mrr_now"] == pytest.approx(0.5 / 3)
    assert by.loc[("q1", "bm25"), "mrr_if_marked"] == pytest.approx(0.5 / 2)
    assert by.loc[("q1", "vector"), "mrr_if_marked"] == pytest.approx(1.0 / 2)
    assert by.loc[("q1", "bm25"), "judged"] == 4 and "감사의 생활" in by.loc[("q1", "bm25"), "question"]
    judging.mark_no_answer(db, "ann", "q1", True)
    ev = dashboard.evaluate_for_dashboard(db, 10, 2, n_boot=0, n_perm=0)
    for system in ("bm25", "vector"):
        assert ev.result.mean(system, "RR(rel=2)@10") == pytest.approx(by.loc[("q1", system), "mrr_if_marked"])
    assert list(dashboard.nothing_citable(db, ev, 10).qid.unique()) == ["q3"]
    judging.mark_no_answer(db, "ann", "q3", True)
    ev = dashboard.evaluate_for_dashboard(db, 10, 2, n_boot=0, n_perm=0)
    assert dashboard.nothing_citable(db, ev, 10).empty
