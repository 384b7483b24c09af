"""Imports: formats, field mapping, and all-or-nothing errors naming file and line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reljudge.campaign import setup as campaign
from reljudge.i18n import message
from reljudge.errors import InputError
from reljudge.storage import catalog


def _counts(db):
    return campaign.counts(db)


def test_corpus_jsonl_keeps_metadata_and_collapses_duplicates(db, files):
    summary = campaign.import_file(db, "corpus", files["corpus"])
    assert summary.inserted == 8
    rows = dict(db.cursor().execute("SELECT pid, canonical_pid FROM paragraphs").fetchall())
    assert rows["p06"] == "p01" and rows["p07"] == "p01"  # exact and near duplicate
    assert rows["p02"] == "p02"
    # re-importing the same file is harmless
    again = campaign.import_file(db, "corpus", files["corpus"])
    assert again.inserted == 0 and again.skipped == 8


def test_corpus_csv_and_beir(db, tmp_path):
    csv_file = tmp_path / "c.csv"
    csv_file.write_text('pid,text,title,speaker_note\nx1,"첫 문단, 쉼표 포함",제목,메모\nx2,둘째,,\n', encoding="utf-8")
    campaign.import_file(db, "corpus", csv_file)
    beir = tmp_path / "corpus.jsonl"
    beir.write_text(
        json.dumps(
            {"_id": "b1", "title": "T", "text": "BEIR 문단", "metadata": {"date": "1990", "volume": 7, "lang": "ko"}},
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    campaign.import_file(db, "corpus", beir, fmt="beir")
    cur = db.cursor()
    assert cur.execute("SELECT text FROM paragraphs WHERE pid='x1'").fetchone()[0] == "첫 문단, 쉼표 포함"
    assert json.loads(cur.execute("SELECT metadata FROM paragraphs WHERE pid='x1'").fetchone()[0]) == {
        "speaker_note": "메모"
    }
    date, volume, meta = cur.execute("SELECT date, volume, metadata FROM paragraphs WHERE pid='b1'").fetchone()
    assert (date, volume, json.loads(meta)) == ("1990", "7", {"lang": "ko"})


def test_questions_csv_with_flags_and_update(db, tmp_path):
    f = tmp_path / "q.csv"
    f.write_text(
        "qid,text,type,criteria,no_answer_expected\na,첫 질문,사실 확인,기준,false\nb,둘째,시대 변화,,true\n",
        encoding="utf-8",
    )
    s = campaign.import_file(db, "questions", f)
    assert s.inserted == 2 and s.incomplete == 1  # b has no criteria
    assert message(s.messages(), "ko", sep=s.SEP) == (
        f"질문 {f}: 2개 추가. 주의: 질문 1개에 유형이나 판정 기준(criteria)이 없습니다 — "
        "판정자가 무엇을 근거로 볼지 알 수 있게 채워서 다시 가져오세요"
    )
    f.write_text("qid,text,type,criteria,no_answer_expected\na,첫 질문(수정),사실 확인,기준,false\n", encoding="utf-8")
    s = campaign.import_file(db, "questions", f)
    assert s.updated == 1 and s.inserted == 0 and s.incomplete == 0
    assert message(s.messages(), "en", sep=s.SEP) == f"Questions {f}: 0 added, 1 updated"
    rows = db.cursor().execute("SELECT qid, text, no_answer_expected FROM questions ORDER BY seq").fetchall()
    assert rows == [("a", "첫 질문(수정)", False), ("b", "둘째", True)]


def test_run_formats_and_abstention(db, files, tmp_path):
    campaign.import_file(db, "corpus", files["corpus"])
    campaign.import_file(db, "questions", files["questions"])
    f = tmp_path / "graph.jsonl"
    f.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"qid": "q1", "pid": "p02", "rank": 1, "score": 3.5},
                {"qid": "q1", "pid": "p05", "rank": 2},
                {"qid": "q3", "abstained": True},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    s = campaign.import_file(db, "run", f, system="graphrag")
    assert s.systems == ("graphrag",)
    cur = db.cursor()
    assert cur.execute("SELECT count(*) FROM run_entries WHERE system='graphrag'").fetchone()[0] == 2
    assert cur.execute("SELECT qid FROM run_abstentions").fetchall() == [("q3",)]
    # a system that retrieved and then abstained: its rows are ranked and it abstained
    f.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"qid": "q1", "pid": "p02", "score": 2, "abstained": True},
                {"qid": "q1", "pid": "p05", "score": 1, "abstained": True},
                {"qid": "q2", "pid": "p04", "score": 1, "abstained": False},
                {"qid": "q3", "abstained": True},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    assert campaign.import_file(db, "run", f, system="graphrag", replace=True).inserted == 4  # lines
    assert cur.execute("SELECT qid, pid FROM run_entries WHERE system='graphrag' ORDER BY 1, 2").fetchall() == [
        ("q1", "p02"),
        ("q1", "p05"),
        ("q2", "p04"),
    ]
    assert cur.execute("SELECT qid FROM run_abstentions ORDER BY 1").fetchall() == [("q1",), ("q3",)]
    assert cur.execute("SELECT n_rows FROM runs WHERE system='graphrag'").fetchone()[0] == 4  # lines
    # CSV run, system from the tag column
    c = tmp_path / "r.csv"
    c.write_text("qid,pid,score,tag\nq1,p01,1.0,sparse\nq2,p04,0.5,sparse\n", encoding="utf-8")
    assert campaign.import_file(db, "run", c).systems == ("sparse",)
    # re-import with replace=True replaces the system's rows
    f.write_text(json.dumps({"qid": "q2", "pid": "p04", "score": 1}) + "\n", encoding="utf-8")
    campaign.import_file(db, "run", f, system="graphrag", replace=True)
    assert cur.execute("SELECT count(*) FROM run_entries WHERE system='graphrag'").fetchone()[0] == 1
    assert cur.execute("SELECT count(*) FROM run_abstentions").fetchone()[0] == 0


BAD_CASES = [
    ("corpus", "bad.jsonl", b'{"pid": "a", "text": "ok"}\n{"pid": "b", "text": \n', 2, "malformed JSON"),
    (
        "corpus",
        "bad.jsonl",
        b'{"pid": "a", "text": "ok"}\n{"pid": "b", "text": "no closing brace"\n',
        2,
        "malformed JSON: Expecting ',' delimiter (column 40)",
    ),  # just past the end
    ("corpus", "bad.jsonl", b'{"pid": "a", "text": "ok"}\n{"pid": "a", "text": "again"}\n', 2, "duplicate pid"),
    ("corpus", "bad.jsonl", b'{"pid": "a", "text": "ok"}\n{"pid": "b", "text": "\xff\xfe"}\n', 2, "invalid UTF-8"),
    ("corpus", "bad.jsonl", b'{"pid": "a", "text": "ok"}\n{"pid": "b"}\n', 2, "missing or empty text"),
    ("corpus", "bad.csv", b"id_x,body\n1,text\n", 1, "missing column"),
    ("corpus", "empty.jsonl", b"", None, "empty"),
    ("corpus", "blank.jsonl", b"\n\n", None, "empty"),
    (
        "questions",
        "q.jsonl",
        b'{"qid": "x", "text": "t"}\n{"qid": "y", "text": "u", "no_answer_expected": "maybe"}\n',
        2,
        "true or false",
    ),
    ("run", "r.trec", b"q1 Q0 p01 1 1.0 s\nq1 Q0 p02 2 s\n", 2, "expected 6 fields"),
    ("run", "r.trec", b"q1 Q0 p01 1 1.0 s\nq1 Q0 p02 x 0.5 s\n", 2, "rank must be an integer"),
    ("run", "r.trec", b"q1 Q0 p01 1 1.0 s\nq9 Q0 p02 2 0.5 s\n", 2, "unknown qid"),
    ("run", "r.trec", b"q1 Q0 p01 1 1.0 s\nq1 Q0 zz 2 0.5 s\n", 2, "unknown pid"),
    ("run", "r.trec", b"q1 Q0 p01 1 1.0 s\nq1 Q0 p02 2 0.5 s\nq1 Q0 p01 3 0.2 s\n", 3, "appears twice"),
    ("run", "r.jsonl", b'{"qid": "q1", "pid": "p01", "rank": 1}\n', 1, "no system name"),
]


@pytest.mark.parametrize("kind,name,content,line,problem", BAD_CASES)
def test_bad_input_names_file_line_problem_and_writes_nothing(db, files, tmp_path, kind, name, content, line, problem):
    campaign.import_file(db, "corpus", files["corpus"])
    campaign.import_file(db, "questions", files["questions"])
    campaign.import_file(db, "run", files["run_a"])
    before = _counts(db)
    entries_before = db.cursor().execute("SELECT count(*) FROM run_entries").fetchone()[0]
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        campaign.import_file(db, kind, path)
    assert err.value.file == str(path)
    assert err.value.line == line
    assert problem in str(err.value)
    assert _counts(db) == before
    assert db.cursor().execute("SELECT count(*) FROM run_entries").fetchone()[0] == entries_before


def test_failed_run_reimport_keeps_previous_rows(db, files, tmp_path):
    campaign.import_file(db, "corpus", files["corpus"])
    campaign.import_file(db, "questions", files["questions"])
    campaign.import_file(db, "run", files["run_a"])
    bad = tmp_path / "bm25.trec"
    bad.write_text("q1 Q0 p01 1 1.0 bm25\nq1 Q0 nope 2 0.5 bm25\n", encoding="utf-8")
    with pytest.raises(InputError):
        campaign.import_file(db, "run", bad)
    assert db.cursor().execute("SELECT count(*) FROM run_entries WHERE system='bm25'").fetchone()[0] == 7


def test_large_corpus_streams_in_chunks(db, tmp_path, monkeypatch):
    from reljudge.campaign import importers

    monkeypatch.setattr(importers, "CHUNK_ROWS", 1000)
    f = tmp_path / "big.jsonl"
    with open(f, "w", encoding="utf-8") as fh:
        for i in range(25_000):
            fh.write(
                json.dumps(
                    {"pid": f"p{i}", "text": f"문단 {i} 내용", "doc_id": f"d{i // 100}", "position": i % 100},
                    ensure_ascii=False,
                )
                + "\n"
            )
    chunks = list(importers.corpus_chunks(importers.Source.of(f)))
    assert len(chunks) == 25 and max(len(c) for c in chunks) == 1000
    assert campaign.import_file(db, "corpus", f).inserted == 25_000


def test_progress_counts_lines_up_to_the_total(db, tmp_path, monkeypatch):
    from reljudge.campaign import importers

    monkeypatch.setattr(importers, "CHUNK_ROWS", 1000)
    f = tmp_path / "progress.csv"
    rows = ["pid,text"] + [f"p{i},문단 {i}" for i in range(4_500)] + ['"p-last","여러 줄에 걸친\n문단"']
    f.write_text("\n".join(rows), encoding="utf-8")  # no newline at the end
    assert importers.count_lines(f) == 4_503
    seen = []
    summary = campaign.import_file(db, "corpus", f, progress=lambda done, total: seen.append((done, total)))
    assert summary.inserted == 4_501
    assert {total for _, total in seen} == {4_503}
    done = [d for d, _ in seen]
    assert done == sorted(done) and done[-1] == 4_503 and len(done) >= 5
    assert done.count(4_503) == 1  # "checking and writing" once


def test_progress_on_a_missing_file_is_the_usual_error(db, tmp_path):
    with pytest.raises(InputError, match="file not found"):
        campaign.import_file(db, "corpus", tmp_path / "nope.jsonl", progress=lambda d, t: None)


def test_cli_import_errors_exit_nonzero_without_traceback(tmp_path, files):
    db = tmp_path / "cli.duckdb"

    def run(*a):
        return subprocess.run([sys.executable, "-m", "reljudge", "--db", str(db), *a], capture_output=True, text=True)

    assert run("init").returncode == 0
    assert run("import", "corpus", str(files["corpus"])).returncode == 0
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"qid": "a"}\n', encoding="utf-8")
    r = run("import", "questions", str(bad))
    assert r.returncode == 2
    assert f"{bad}, line 1: missing or empty question text" in r.stderr
    assert "Traceback" not in r.stderr
    r = run("import", "run", str(tmp_path / "missing.trec"))
    assert r.returncode == 2 and "file not found" in r.stderr


def test_cli_shows_progress_at_a_terminal_only(tmp_path, files):
    import os
    import pty

    db = tmp_path / "tty.duckdb"
    cmd = [sys.executable, "-m", "reljudge", "--db", str(db), "import", "corpus", str(files["corpus"])]
    piped = subprocess.run(cmd, capture_output=True, text=True)
    assert piped.returncode == 0 and "lines read" not in piped.stderr and "checking" not in piped.stderr
    (tmp_path / "tty.duckdb").unlink()
    primary, secondary = pty.openpty()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=secondary, text=True)
    os.close(secondary)
    shown = b""
    while True:
        try:
            block = os.read(primary, 4096)
        except OSError:  # the terminal is closed once everything was read
            break
        if not block:
            break
        shown += block
    os.close(primary)
    assert proc.returncode == 0 and "added" in proc.stdout
    assert f"{files['corpus']}: checking and writing" in shown.decode()


def test_second_process_gets_clear_lock_message(db_path, db):
    r = subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(db_path), "users", "list"], capture_output=True, text=True
    )
    assert r.returncode == 2
    assert "in use by another process" in r.stderr
    assert "Traceback" not in r.stderr


def test_settings_defaults(db):
    s = catalog.get_settings(db)
    assert s["pool_depth"] == "20" and s["rel_threshold"] == "2" and s["ties"] == "trec10"


def test_out_of_range_numbers_are_input_errors(db, files, tmp_path):
    big = tmp_path / "big.jsonl"
    big.write_text('{"pid": "a", "text": "t", "position": 1e30}\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 1: position 1e\\+30 is out of range"):
        campaign.import_file(db, "corpus", big)
    campaign.import_file(db, "corpus", files["corpus"])
    campaign.import_file(db, "questions", files["questions"])
    run = tmp_path / "r.trec"
    run.write_text("q1 Q0 p01 99999999999999999999 1.0 s\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1: rank .* is out of range"):
        campaign.import_file(db, "run", run)


def test_demo_loads_only_into_a_brand_new_database(db):
    from reljudge.campaign import auth

    auth.add_user(db, "boss", "boss-password", "lead")
    assert campaign.ensure_demo(db) is False
    assert campaign.counts(db)["questions"] == 0 and campaign.counts(db)["users"] == 1


@pytest.mark.parametrize("kind,name,content,line,problem", BAD_CASES)
def test_bad_input_reads_in_korean_on_the_pages(db, files, tmp_path, kind, name, content, line, problem):
    """The reader raises its problem as a code: str() (the CLI) is English, the import page
    words the same error in Korean through the catalog, file and line included."""
    import re
    from reljudge.i18n import message

    campaign.import_file(db, "corpus", files["corpus"])
    campaign.import_file(db, "questions", files["questions"])
    campaign.import_file(db, "run", files["run_a"])
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        campaign.import_file(db, kind, path)
    assert err.value.message is not None, "this problem is still a sentence, not a code"
    korean = message(err.value.message, "ko")
    assert korean.startswith(f"{path}, {line}번째 줄: " if line else f"{path}: ")
    assert re.search(r"[\uac00-\ud7a3]", korean[len(str(path)) :])
    assert message(err.value.message, "en") == str(err.value)
