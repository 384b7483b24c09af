"""Re-imports that would change judged material: questions keep every wording and never
lose a field the file leaves out; a run under an existing system name needs --replace,
is kept as a version, and the pool change is stated."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reljudge import i18n
from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.errors import InputError


def _question(db, qid):
    return (
        db.cursor()
        .execute("SELECT text, qtype, criteria, no_answer_expected FROM questions WHERE qid = ?", [qid])
        .fetchall()[0]
    )


def _write(path, *records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_reimport_with_fewer_fields_never_blanks_and_keeps_the_old_wording(campaign_db, tmp_path):
    db = campaign_db
    before = _question(db, "q3")
    judging.mark_no_answer(db, "ann", "q3", True)
    judging.grade(db, "ann", "q3", "p08", 0)
    f = _write(tmp_path / "q.jsonl", {"qid": "q3", "text": "x"})
    # the file: judged question, fewer fields -> refused without the flag
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "questions", f)
    assert err.value.line == 1
    assert "question 'q3' already has 2 judgments; changing its text needs --update-questions" in str(err.value)
    assert _question(db, "q3") == before
    # with the flag: the text changes, type, criteria and the no-answer flag stay
    s = campaign.import_file(db, "questions", f, update_questions=True)
    assert (s.updated, s.versioned) == (1, ("q3",))
    assert _question(db, "q3") == ("x", before[1], before[2], before[3])
    assert before[1] and before[2] and before[3] is True
    versions = campaign.question_versions(db, "q3")
    assert list(versions.version) == [1, 2]
    assert list(versions.text) == [before[0], "x"]
    assert list(versions.qtype) == [before[1]] * 2 and list(versions.criteria) == [before[2]] * 2
    # the two events were made under version 1; a new one goes to version 2
    judging.grade(db, "ann", "q3", "p08", 1)
    versions = campaign.question_versions(db, "q3")
    assert list(versions.judgment_events) == [2, 1]


def test_unjudged_questions_change_without_the_flag_and_versions_accumulate(campaign_db, tmp_path):
    db = campaign_db
    f = _write(tmp_path / "q.jsonl", {"qid": "q2", "text": "새 문구", "criteria": "새 기준"})
    s = campaign.import_file(db, "questions", f)
    assert s.updated == 1 and s.versioned == ()
    assert _question(db, "q2")[1:3] == ("개념 관계", "새 기준")
    _write(f, {"qid": "q2", "text": "새 문구"})  # nothing changes
    assert campaign.import_file(db, "questions", f).updated == 0
    _write(f, {"qid": "q2", "text": "세 번째"})
    campaign.import_file(db, "questions", f)
    assert list(campaign.question_versions(db, "q2").text) == [
        "용서와 가정의 평화는 어떤 관계인가?",
        "새 문구",
        "세 번째",
    ]


def test_an_empty_csv_cell_keeps_the_field(campaign_db, tmp_path):
    db = campaign_db
    f = tmp_path / "q.csv"
    f.write_text("qid,text,type,criteria,no_answer_expected\nq1,다시 쓴 질문,,,\n", encoding="utf-8")
    campaign.import_file(db, "questions", f)
    assert _question(db, "q1") == ("다시 쓴 질문", "사실 확인", "감사의 생활을 직접 정의한 문단", False)


def test_an_adjudicated_question_counts_as_judged(campaign_db, tmp_path):
    from reljudge.campaign import adjudication

    db = campaign_db
    adjudication.adjudicate_verdict(db, "lee", "q1", False, "근거가 있음")
    f = _write(tmp_path / "q.jsonl", {"qid": "q1", "text": "바뀐 질문", "type": "사실 확인"})
    with pytest.raises(InputError, match="needs --update-questions"):
        campaign.import_file(db, "questions", f)


def _count(db, sql, params=()):
    return db.cursor().execute(sql, list(params)).fetchall()[0][0]


def test_run_under_an_existing_system_needs_replace_and_is_kept(campaign_db, files, tmp_path):
    db = campaign_db
    pool_before = _count(db, "SELECT count(*) FROM pool")
    judging.grade(db, "ann", "q1", "p03", 0)  # p03 is only in bm25's q1 ranking
    small = tmp_path / "bm25-small.trec"
    small.write_text("q1 Q0 p02 1 9.0 bm25\nq2 Q0 p04 1 5.0 bm25\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "run", small)
    assert err.value.line == 1
    assert "system 'bm25' already has a run (7 lines from" in str(err.value)
    assert "--replace" in str(err.value)
    assert _count(db, "SELECT count(*) FROM run_entries WHERE system = 'bm25'") == 7
    s = campaign.import_file(db, "run", small, replace=True, repool=True)
    assert [(r.system, r.version, r.n_rows) for r in s.replaced] == [("bm25", 1, 7)]
    assert _count(db, "SELECT count(*) FROM run_entries WHERE system = 'bm25'") == 2
    assert _count(db, "SELECT count(*) FROM run_version_entries WHERE system = 'bm25' AND version = 1") == 7
    versions = campaign.run_versions(db)
    assert list(versions.system) == ["bm25"] and versions.source_file[0] == str(files["run_a"])
    change = s.pool_change
    assert change.before == pool_before and change.size == _count(db, "SELECT count(*) FROM pool")
    assert change.removed == pool_before - change.size > 0 and change.added == 0
    assert change.removed_judged == 1  # the p03 judgment is outside the pool now
    text = i18n.message(s.messages(), "en", sep=s.SEP)
    assert "replaced the run of system bm25 (7 lines from" in text and "kept as version 1" in text
    assert f"judging pool rebuilt: {pool_before} → {change.size} items (0 joined, {change.removed} left" in text
    # a second replacement is version 2
    campaign.import_file(db, "run", files["run_a"], replace=True)
    assert list(campaign.run_versions(db).sort_values("version").n_rows) == [7, 2]


def test_cli_import_run_replace(tmp_path, files):
    db = tmp_path / "cli.duckdb"

    def run(*a):
        return subprocess.run([sys.executable, "-m", "reljudge", "--db", str(db), *a], capture_output=True, text=True)

    for kind, key in (("corpus", "corpus"), ("questions", "questions"), ("run", "run_a")):
        assert run("import", kind, str(files[key])).returncode == 0
    small = tmp_path / "small.trec"
    small.write_text("q1 Q0 p02 1 9.0 bm25\n", encoding="utf-8")
    r = run("import", "run", str(small))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"error: {small}, line 1: system 'bm25' already has a run" in r.stderr
    r = run("import", "run", str(small), "--replace")
    assert r.returncode == 0, r.stderr
    assert "replaced the run of system bm25" in r.stdout and "left" in r.stdout
    q = tmp_path / "q.jsonl"
    q.write_text('{"qid": "q1", "text": "x"}\n', encoding="utf-8")
    assert run("import", "questions", str(q), "--update-questions").returncode == 0
    assert run("import", "questions", str(q), "--replace").returncode == 2


def test_migration_keeps_the_present_wording_as_version_one(campaign_db):
    rows = campaign_db.cursor().execute("SELECT qid, version FROM question_versions ORDER BY qid").fetchall()
    assert rows == [("q1", 1), ("q2", 1), ("q3", 1)]


def test_report_and_audit_page_show_which_wording_was_judged(campaign_db, tmp_path):
    from reljudge.reporting import report

    db = campaign_db
    judging.grade(db, "ann", "q1", "p02", 2)
    f = _write(tmp_path / "q.jsonl", {"qid": "q1", "text": "감사의 생활이란? (고침)"})
    campaign.import_file(db, "questions", f, update_questions=True)
    judging.grade(db, "bob", "q1", "p02", 1)
    data = report.build(db, n_boot=0, lang="en")
    assert data.wordings[["qid", "version", "text", "judgment_events"]].values.tolist() == [
        ["q1", 1, "감사의 생활은 무엇이라고 설명되는가?", 1],
        ["q1", 2, "감사의 생활이란? (고침)", 1],
    ]
    md = report.render(data, "md")
    assert "Questions changed after judging began: which wording was judged" in md
    assert "| q1 | 2 | 감사의 생활이란? (고침) |" in md
    assert "which wording was judged" in report.render(data, "html")
    # no changed question, no section
    f = _write(tmp_path / "q2.jsonl", {"qid": "q2", "text": "바뀐 둘째"})
    campaign.import_file(db, "questions", f)  # q2 has no judgments: not in the report
    assert list(report.build(db, n_boot=0).wordings.qid.unique()) == ["q1"]
