"""Hostile import files, continued (issue 34, points 13 and 14; see also
tests/test_hostile_input.py): every one is refused with one message naming the file and
the line, exit code 2 from the CLI, nothing written — or, for identical duplicate qrels
and gold rows, accepted once and counted.

* a JSON number of more than 4,300 digits (Python's limit for int()) in a corpus,
  questions, answers or reviews file;
* TREC run, qrels and gold lines split on ASCII space and tab only, as trec_eval does:
  a no-break space (U+00A0) or a line separator (U+2028) is part of its field;
* a file with CR-only line endings (or a bare CR inside a line) is refused as such;
* a gold or qrels grade that is a whole number out of the grade scale is "out of range".
"""

from __future__ import annotations

import io
import json

import duckdb
import pytest

from reljudge import i18n
from reljudge.campaign import export, quality
from reljudge.campaign import setup as campaign
from reljudge.cli import main as cli
from reljudge.errors import InputError
from reljudge.eval import trec_io
from reljudge.grades import GRADES
from reljudge.review import ingest
from reljudge.storage import answers as answer_store

HUGE = "9" * 5000  # past sys.get_int_max_str_digits() (4300)
NBSP, LS = "\u00a0", "\u2028"


def _write(path, text: str):
    path.write_bytes(text.encode("utf-8"))
    return path


def _cli(capsys, *args):
    code = cli.main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


class _Upload(io.BytesIO):
    def __init__(self, name: str, data: bytes):
        super().__init__(data)
        self.name = name


# -- point 13: a JSON number of more than 4,300 digits --------------------------------------


def _huge_number_files(tmp_path) -> dict[str, tuple[object, int]]:
    """{kind: (file, line of the huge number)}: the number sits in a field of its own."""
    return {
        "corpus": (
            _write(
                tmp_path / "corpus.jsonl",
                '{"pid":"z1","text":"fine"}\n{"pid":"z2","text":"t","metadata":{"n":' + HUGE + "}}\n",
            ),
            2,
        ),
        "questions": (
            _write(tmp_path / "questions.jsonl", '{"qid":"a","text":"질문","criteria":' + HUGE + "}\n"),
            1,
        ),
        "answers": (
            _write(
                tmp_path / "answers.jsonl",
                '{"qid":"q1","system":"bm25","answer":"답입니다."}\n'
                '{"qid":"q2","system":"bm25","answer":"답입니다.","score":' + HUGE + "}\n",
            ),
            2,
        ),
        "reviews": (
            _write(tmp_path / "reviews.jsonl", '{"qid":"q1","system":"bm25","reviewer":"r","support":-' + HUGE + "}\n"),
            1,
        ),
    }


def _import(db, kind, f):
    if kind == "answers":
        return ingest.import_answers(db, f)
    if kind == "reviews":
        return ingest.import_reviews(db, f, "hostile")
    return campaign.import_file(db, kind, f)


def _state(db):
    return (campaign.counts(db), len(answer_store.current_answer_tables(db)[0]), len(ingest.review_records(db)))


@pytest.mark.parametrize("kind", ["corpus", "questions", "answers", "reviews"])
def test_a_json_number_of_more_than_4300_digits_is_refused_with_file_and_line(campaign_db, tmp_path, kind):
    f, line = _huge_number_files(tmp_path)[kind]
    before = _state(campaign_db)
    with pytest.raises(InputError) as err:
        _import(campaign_db, kind, f)
    assert (err.value.file, err.value.line) == (str(f), line)
    assert "more than 4300 digits" in str(err.value), str(err.value)[:300]
    assert "4300자리" in i18n.message(err.value.message, "ko")
    assert _state(campaign_db) == before


def test_a_huge_json_number_in_a_csv_cell_is_refused_too(db, tmp_path):
    f = _write(tmp_path / "answers.csv", 'qid,system,answer,citations\nq1,bm25,답.,"[' + HUGE + ']"\n')
    with pytest.raises(InputError) as err:
        ingest.import_answers(db, f)
    assert err.value.line == 2 and "more than 4300 digits" in str(err.value)


def test_cli_huge_json_number_is_one_line_exit_2(tmp_path, capsys):
    db = tmp_path / "cli.duckdb"
    assert _cli(capsys, "--db", db, "init", "--demo")[0] == 0
    for kind, (f, line) in _huge_number_files(tmp_path).items():
        extra = ["--source", "hostile"] if kind == "reviews" else []
        code, _, err = _cli(capsys, "--db", db, "import", kind, f, *extra)
        assert code == 2, (kind, err)
        assert "Traceback" not in err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {f}, line {line}: "), (kind, lines)
        assert "more than 4300 digits" in lines[0]


def test_an_integer_field_of_400_digits_is_out_of_range_not_a_non_integer(db, tmp_path):
    """Below Python's limit a long JSON integer parses; a field that takes an integer
    (position) then says it is out of range, which is the truth."""
    f = _write(tmp_path / "corpus.jsonl", '{"pid":"z1","text":"t","position":' + "9" * 400 + "}\n")
    with pytest.raises(InputError, match="line 1: .*out of range"):
        campaign.import_file(db, "corpus", f)


# -- point 14: fields split on ASCII space and tab only --------------------------------------


RUN_HEAD = "q1 Q0 p01 1 0.9 fresh\n"


@pytest.mark.parametrize(
    "line,problem",
    [
        # trec_eval reads "1\xa00.9" as one field: the line has 5 fields, not 6
        (f"q2 Q0 p04 1{NBSP}0.9 fresh", "expected 6 fields"),
        (f"q2 Q0 p04 1{LS}0.9 fresh", "expected 6 fields"),
        # a no-break space inside a paragraph id is part of the id: the id's own rule
        (f"q2 Q0 p{NBSP}04 1 0.9 fresh", "contains whitespace"),
        (f"q2 Q0 p{LS}04 1 0.9 fresh", "U+2028"),
    ],
)
def test_run_lines_split_on_ascii_whitespace_only(campaign_db, tmp_path, line, problem):
    f = _write(tmp_path / "run.trec", RUN_HEAD + line + "\n")
    before = campaign.list_runs(campaign_db)
    with pytest.raises(InputError) as err:
        campaign.import_file(campaign_db, "run", f)
    assert (err.value.file, err.value.line) == (str(f), 2)
    assert problem in str(err.value), str(err.value)
    assert campaign.list_runs(campaign_db).equals(before)


@pytest.mark.parametrize(
    "line,problem",
    [
        (f"q1{NBSP}0 p01 2", "expected 4 fields"),
        (f"q1 0 p01{LS}2", "expected 4 fields"),
        (f"q1 0 p01 2{NBSP}", "is not a whole number"),
        (f"q1 0 p{NBSP}01 2", "unknown pid"),
    ],
)
def test_qrels_lines_split_on_ascii_whitespace_only(campaign_db, tmp_path, line, problem):
    f = _write(tmp_path / "other.qrels", "q1 0 p02 1\n" + line + "\n")
    with pytest.raises(InputError) as err:
        export.import_qrels(campaign_db, f, "other")
    assert (err.value.file, err.value.line) == (str(f), 2)
    assert problem in str(err.value), str(err.value)
    assert export.sources(campaign_db) == []


@pytest.mark.parametrize(
    "line,problem",
    [
        (f"q1{NBSP}0 p01 2", "expected 4 fields"),
        (f"q1 0 p01{LS}2", "expected 4 fields"),
        (f"q1 0 p01 2{LS}", "is not a whole number"),
    ],
)
def test_gold_lines_split_on_ascii_whitespace_only(campaign_db, tmp_path, line, problem):
    f = _write(tmp_path / "gold.qrels", "q1 0 p02 1\n" + line + "\n")
    with pytest.raises(InputError) as err:
        quality.import_gold(campaign_db, f, "lee")
    assert (err.value.file, err.value.line) == (str(f), 2)
    assert problem in str(err.value), str(err.value)
    assert quality.gold_items(campaign_db).empty


def test_evaluate_reads_a_no_break_space_as_part_of_a_document_id(tmp_path):
    """The slow pass of evaluate --qrels (irregular spacing) splits as the fast one does."""
    qrels = _write(tmp_path / "q.txt", f"q1  0 d{NBSP}1 1\nq1 0 d2 0\n")
    run = _write(tmp_path / "r.trec", f"q1 Q0 d{NBSP}1  1 1.0 r\nq1 Q0 d2 2 0.5 r\n")
    con = duckdb.connect()
    assert trec_io.read_qrels(con, qrels, "qrels") == 2
    assert set(con.execute("SELECT pid FROM qrels").fetchall()) == {(f"d{NBSP}1",), ("d2",)}
    trec_io.read_run(con, run, "run")
    assert set(con.execute("SELECT pid FROM run").fetchall()) == {(f"d{NBSP}1",), ("d2",)}


# -- point 14: CR-only line endings ------------------------------------------------------------


CR_ONLY = {
    "run": "q1 Q0 p01 1 0.9 fresh\rq1 Q0 p02 2 0.8 fresh\r",
    "qrels": "q1 0 p01 2\rq1 0 p02 1\r",
    "gold": "q1 0 p01 2\rq1 0 p02 1\r",
}


def _trec_import(db, kind, f):
    if kind == "run":
        return campaign.import_file(db, "run", f)
    if kind == "qrels":
        return export.import_qrels(db, f, "other")
    return quality.import_gold(db, f, "lee")


@pytest.mark.parametrize("kind", sorted(CR_ONLY))
def test_cr_only_line_endings_are_refused_as_such(campaign_db, tmp_path, kind):
    f = _write(tmp_path / f"{kind}.txt", CR_ONLY[kind])
    with pytest.raises(InputError) as err:
        _trec_import(campaign_db, kind, f)
    assert (err.value.file, err.value.line) == (str(f), 1)
    assert "line endings" in str(err.value), str(err.value)
    assert "줄 끝" in i18n.message(err.value.message, "ko")
    assert export.sources(campaign_db) == [] and quality.gold_items(campaign_db).empty


@pytest.mark.parametrize("kind", sorted(CR_ONLY))
def test_a_bare_cr_inside_a_crlf_file_is_refused_at_its_line(campaign_db, tmp_path, kind):
    good, bad = CR_ONLY[kind].split("\r")[:2]
    f = _write(tmp_path / f"{kind}.txt", f"{good}\r\n{bad.replace(' ', chr(13), 1)}\r\n")
    with pytest.raises(InputError) as err:
        _trec_import(campaign_db, kind, f)
    assert err.value.line == 2 and "line endings" in str(err.value), str(err.value)


def test_crlf_files_still_import(campaign_db, tmp_path):
    f = _write(tmp_path / "other.qrels", "q1 0 p01 2\r\nq1 0 p02 1\r\n")
    assert export.import_qrels(campaign_db, f, "other").rows == 2


@pytest.mark.parametrize("reader", ["qrels", "run"])
def test_evaluate_refuses_cr_only_line_endings(tmp_path, reader):
    text = "q1 0 d1 1\rq1 0 d2 0\r" if reader == "qrels" else "q1 Q0 d1 1 1.0 r\rq1 Q0 d2 2 0.5 r\r"
    f = _write(tmp_path / "cr.txt", text)
    con = duckdb.connect()
    read = trec_io.read_qrels if reader == "qrels" else trec_io.read_run
    with pytest.raises(InputError) as err:
        read(con, f, "t")
    assert err.value.line == 1 and "line endings" in str(err.value)
    with pytest.raises(InputError, match="line endings"):
        trec_io.read_run_top(con, f, "t", 10) if reader == "run" else trec_io.read_qrels(con, f, "t")


def test_cr_only_jsonl_is_refused_as_line_endings(db, tmp_path):
    f = _write(tmp_path / "corpus.jsonl", '{"pid":"z1","text":"a"}\r{"pid":"z2","text":"b"}\r')
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "corpus", f)
    assert (err.value.file, err.value.line) == (str(f), 1)
    assert "line endings" in str(err.value)
    assert campaign.counts(db)["paragraphs"] == 0


def test_cli_cr_only_run_is_one_line_exit_2(tmp_path, capsys):
    db = tmp_path / "cli.duckdb"
    f = _write(tmp_path / "run.trec", CR_ONLY["run"])
    code, _, err = _cli(capsys, "--db", db, "import", "run", f)
    assert code == 2 and "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()] and err.startswith(f"error: {f}, line 1: ")
    assert "line endings" in err


# -- point 14: a whole number out of the grade scale ---------------------------------------------


@pytest.mark.parametrize("grade", ["99999999999999999999", "-99999999999999999999", "3", "2147483648"])
@pytest.mark.parametrize("kind", ["qrels", "gold"])
def test_a_grade_off_the_scale_is_out_of_range_not_a_non_whole_number(campaign_db, tmp_path, kind, grade):
    f = _write(tmp_path / f"{kind}.txt", f"q1 0 p01 2\nq1 0 p02 {grade}\n")
    with pytest.raises(InputError) as err:
        _trec_import(campaign_db, kind, f)
    text = str(err.value)
    assert err.value.line == 2
    assert "out of range" in text and "not a whole number" not in text, text
    assert ", ".join(map(str, GRADES)) in text  # the scale's one definition, reljudge.grades


# -- point 14: identical duplicate rows, kept once and counted ----------------------------------


DUPLICATED = "q1 0 p01 2\nq1 0 p01 2\nq1 0 p02 1\nq1 0 p02 1\nq1 0 p02 1\n"


def test_identical_duplicate_qrels_rows_are_stored_once_and_counted(campaign_db, tmp_path):
    f = _write(tmp_path / "other.qrels", DUPLICATED)
    done = export.import_qrels(campaign_db, f, "other")
    assert (done.rows, done.duplicates) == (2, 3)
    assert [m.code for m in done.notices()] == ["notice_identical_duplicates"]
    assert i18n.message(done.notices(), "en") == "3 identical duplicate rows skipped: each row is kept once"
    assert "3개" in i18n.message(done.notices(), "ko")
    rows = export.qrels_table(campaign_db, "source:other")[0]
    assert sorted(zip(rows.qid, rows.pid, rows.grade)) == [("q1", "p01", 2), ("q1", "p02", 1)]
    clean = export.import_qrels(campaign_db, _write(tmp_path / "clean.qrels", "q1 0 p01 2\n"), "clean")
    assert (clean.rows, clean.duplicates, clean.notices()) == (1, 0, [])


def test_identical_duplicate_gold_rows_are_stored_once_and_counted(campaign_db, tmp_path):
    done = quality.import_gold(campaign_db, _write(tmp_path / "gold.qrels", DUPLICATED), "lee")
    assert (done.rows, done.duplicates) == (2, 3)
    assert len(quality.gold_items(campaign_db)) == 2


def test_conflicting_duplicates_are_still_refused(campaign_db, tmp_path):
    f = _write(tmp_path / "bad.qrels", "q1 0 p01 2\nq1 0 p01 2\nq1 0 p01 1\n")
    with pytest.raises(InputError, match="line 3: conflicting duplicate"):
        export.import_qrels(campaign_db, f, "other")
    with pytest.raises(InputError, match="line 3: conflicting duplicate"):
        quality.import_gold(campaign_db, f, "lee")


def test_cli_says_how_many_identical_duplicates_it_kept_once(tmp_path, capsys, campaign_db):
    db = campaign_db.path
    campaign_db.close()
    f = _write(tmp_path / "other.qrels", DUPLICATED)
    code, out, err = _cli(capsys, "--db", db, "import", "qrels", f, "--source", "other")
    assert code == 0, err
    assert "2 rows as source 'other'" in out
    assert "3 identical duplicate rows skipped: each row is kept once" in out
    code, out, err = _cli(capsys, "--db", db, "gold", "import", f)
    assert code == 0, err
    assert "gold items: 2" in out and "3 identical duplicate rows skipped: each row is kept once" in out


def test_import_and_quality_pages_show_the_duplicates_notice(campaign_db):
    from reljudge.ui import uploads

    done = uploads.import_any(
        campaign_db, "qrels", _Upload("외부.qrels", DUPLICATED.encode()), source="other", lang="ko"
    )
    assert "3개" in done.text and done.warning
    gold = uploads.import_gold_upload(campaign_db, _Upload("골드.qrels", DUPLICATED.encode()), "lee")
    assert (gold.rows, gold.duplicates) == (2, 3)


def test_huge_json_number_upload_names_the_upload(db):
    from reljudge.ui import uploads

    bad = _Upload("문단.jsonl", b'{"pid":"z2","text":"a","n":' + HUGE.encode() + b"}\n")
    with pytest.raises(InputError) as err:
        uploads.import_upload(db, "corpus", bad, None, None)
    assert str(err.value).startswith("문단.jsonl, line 1:") and "4300" in str(err.value)


def test_the_hostile_files_are_json_free_of_python_limits():
    """The test data itself: HUGE is past Python's int-parsing limit, so the tests above
    exercise the refusal and not a parse that happens to succeed."""
    import sys

    assert len(HUGE) > sys.get_int_max_str_digits() > 0
    with pytest.raises(ValueError):
        json.loads(HUGE)


@pytest.mark.parametrize("reader", ["qrels", "run", "run_top"])
def test_evaluate_refuses_a_bare_cr_inside_an_lf_file_at_its_line(tmp_path, reader):
    if reader == "qrels":
        f = _write(tmp_path / "mid.qrels", "q1 0 d1 1\nq1 0 d2 0\rq1 0 d3 1\n")
    else:
        f = _write(tmp_path / "mid.run", "q1 Q0 d1 1 1.0 r\nq1 Q0 d2 2 0.5 r\rq1 Q0 d3 3 0.2 r\n")
    read = {
        "qrels": trec_io.read_qrels,
        "run": trec_io.read_run,
        "run_top": lambda con, f, t: trec_io.read_run_top(con, f, t, 10),
    }[reader]
    with pytest.raises(InputError) as err:
        read(duckdb.connect(), f, "t")
    assert err.value.line == 2 and "line endings" in str(err.value)
