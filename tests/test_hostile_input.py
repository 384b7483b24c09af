"""Hostile import files: refused all or nothing with one line naming file, line and problem."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from reljudge.campaign import setup as campaign
from reljudge.errors import InputError


def _cli(db, *args):
    return subprocess.run([sys.executable, "-m", "reljudge", "--db", str(db), *args], capture_output=True, text=True)


LONE_SURROGATES = [
    ('{"pid":"z1","text":"fine"}\n{"pid":"z2","text":"a\\ud800b"}\n', 2, "text: lone surrogate escape \\ud800"),
    ('{"pid":"z1","text":"ok","metadata":{"note":"\\uDC00"}}\n', 1, "metadata.note: lone surrogate escape \\udc00"),
    ('{"pid":"z1","text":"ok","metadata":{"\\udbff":1}}\n', 1, "a key in metadata: lone surrogate escape \\udbff"),
]


@pytest.mark.parametrize("content,line,problem", LONE_SURROGATES)
def test_lone_surrogate_escape_in_jsonl_is_an_input_error(db, tmp_path, content, line, problem):
    f = tmp_path / "corpus.jsonl"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "corpus", f)
    assert (err.value.file, err.value.line) == (str(f), line)
    assert problem in str(err.value)
    assert campaign.counts(db)["paragraphs"] == 0


def test_a_surrogate_pair_and_an_escaped_backslash_are_fine(db, tmp_path):
    f = tmp_path / "corpus.jsonl"
    f.write_text(
        '{"pid":"z1","text":"웃음 \\ud83d\\ude00"}\n{"pid":"z2","text":"literal \\\\ud800"}\n', encoding="utf-8"
    )
    assert campaign.import_file(db, "corpus", f).inserted == 2
    texts = db.cursor().execute("SELECT text FROM paragraphs ORDER BY pid").fetchall()
    assert texts == [("웃음 😀",), ("literal \\ud800",)]


def test_lone_surrogate_questions_too(db, files, tmp_path):
    f = tmp_path / "q.jsonl"
    f.write_text('{"qid":"a","text":"질문 \\ud800"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 1: text: lone surrogate"):
        campaign.import_file(db, "questions", f)


def test_cli_lone_surrogate_is_one_line_exit_2(tmp_path):
    db = tmp_path / "cli.duckdb"
    f = tmp_path / "corpus.jsonl"
    f.write_text('{"pid":"z1","text":"fine"}\n{"pid":"z2","text":"a\\ud800b"}\n', encoding="utf-8")
    r = _cli(db, "import", "corpus", str(f))
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {f}, line 2: text: lone surrogate escape \\ud800")


class _Upload(io.BytesIO):
    def __init__(self, name: str, data: bytes):
        super().__init__(data)
        self.name = name


def test_app_upload_with_a_lone_surrogate_names_the_upload(db):
    from reljudge.ui import uploads

    bad = _Upload("문단.jsonl", b'{"pid":"z2","text":"a\\ud800b"}\n')
    with pytest.raises(InputError) as err:  # the page shows ReljudgeErrors as st.error
        uploads.import_upload(db, "corpus", bad, None, None)
    assert str(err.value).startswith("문단.jsonl, line 1: text: lone surrogate escape \\ud800")


UNTERMINATED = [
    # the issue's file: every later row would merge into z1's text
    ('pid,text\nz1,"abc\nz2,def\n', 2, "closing quote never comes"),
    # a legal multi-line quoted field first; the bad quote opens on line 4
    ('pid,text\nz0,"two\nlines"\nz1,"abc\nz2,def\nz3,ghi\n', 4, "closing quote never comes"),
    # a quote that closes on a later line followed by more text
    ('pid,text\nz1,"abc\nz2,"def\nz3,ghi\n', 2, "closed on line 3 and followed by more text"),
    # without a final line break
    ('pid,text\nz1,ok\nz2,"abc', 3, "closing quote never comes"),
]


@pytest.mark.parametrize("content,line,problem", UNTERMINATED)
def test_unterminated_csv_quote_is_refused_at_the_line_it_began(db, tmp_path, content, line, problem):
    f = tmp_path / "corpus.csv"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "corpus", f)
    assert (err.value.file, err.value.line) == (str(f), line)
    assert problem in str(err.value)
    assert campaign.counts(db)["paragraphs"] == 0


def test_quoted_csv_fields_with_line_breaks_and_quotes_still_import(db, tmp_path):
    f = tmp_path / "corpus.csv"
    f.write_text('pid,text\nz0,"첫 줄\n둘째 줄, ""인용"""\nz1,"x"\nz2,y\n', encoding="utf-8")
    assert campaign.import_file(db, "corpus", f).inserted == 3
    assert db.cursor().execute("SELECT text FROM paragraphs WHERE pid = 'z0'").fetchall() == [
        ('첫 줄\n둘째 줄, "인용"',)
    ]


def test_cli_unterminated_quote_exit_2(tmp_path):
    db = tmp_path / "cli.duckdb"
    f = tmp_path / "corpus.csv"
    f.write_text('pid,text\nz1,"abc\nz2,def\n', encoding="utf-8")
    r = _cli(db, "import", "corpus", str(f))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{f}, line 2: a quoted field begins here" in r.stderr


DEEP = 100_000


@pytest.mark.parametrize(
    "kind,prefix",
    [
        ("corpus", '{"pid":"z2","text":"t","metadata":'),
        ("questions", '{"qid":"a","text":"질문","type":"사실 확인","criteria":'),
    ],
)
def test_deeply_nested_json_is_an_input_error_not_a_crash(db, tmp_path, kind, prefix):
    """A JSONL line nested 100,000 deep (or just past the limit) is refused with file and
    line, all or nothing, instead of a RecursionError."""
    from reljudge.campaign.importers import MAX_JSON_DEPTH

    f = tmp_path / f"{kind}.jsonl"
    good = '{"pid":"z1","text":"fine"}\n' if kind == "corpus" else '{"qid":"b","text":"좋은 질문"}\n'
    for depth in (DEEP, MAX_JSON_DEPTH + 1):
        f.write_text(good + prefix + "[" * depth + "]" * depth + "}\n", encoding="utf-8")
        with pytest.raises(InputError) as err:
            campaign.import_file(db, kind, f)
        assert (err.value.file, err.value.line) == (str(f), 2)
        assert "nests too deeply" in str(err.value)
        assert campaign.counts(db)["paragraphs" if kind == "corpus" else "questions"] == 0


def test_cli_deeply_nested_answers_and_reviews_exit_2_with_one_line(tmp_path):
    db = tmp_path / "deep.duckdb"
    assert _cli(db, "init", "--demo").returncode == 0
    nested = "[" * DEEP + "]" * DEEP
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"qid":"q01","system":"bm25","answer":"답.","sentences":' + nested + "}\n", encoding="utf-8")
    reviews = tmp_path / "reviews.jsonl"
    reviews.write_text('{"qid":"q01","system":"bm25","reviewer":"r","support":' + nested + "}\n", encoding="utf-8")
    for args, f in (
        (["import", "answers", str(answers)], answers),
        (["import", "reviews", str(reviews), "--source", "deep"], reviews),
    ):
        r = _cli(db, *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {f}, line 1:") and "too deeply" in lines[0]


def test_app_upload_of_deeply_nested_json_names_the_upload(db):
    from reljudge.ui import uploads

    bad = _Upload("문단.jsonl", b'{"pid":"z2","text":"a","metadata":' + b"[" * DEEP + b"]" * DEEP + b"}\n")
    with pytest.raises(InputError) as err:
        uploads.import_upload(db, "corpus", bad, None, None)
    assert str(err.value).startswith("문단.jsonl, line 1:") and "nests too deeply" in str(err.value)
