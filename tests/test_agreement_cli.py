"""`reljudge agreement FILE.csv` through a small argparse harness (the lead wires it into cli.py)."""

from __future__ import annotations

import argparse
import json

import pandas as pd
import pytest

from reljudge.agreement.coefficients import compute_agreement
from reljudge.cli.agreement import read_grades_csv, readable_reasons, register
from reljudge.errors import InputError

ROWS = """\
annotator,qid,pid,grade
김목사,q1,p1,2
김목사,q1,p2,0
김목사,q2,p3,1
김목사,q2,p4,2
B,q1,p1,2
B,q1,p2,1
B,q2,p3,1
B,q2,p4,0
C,q1,p1,2
C,q2,p3,1
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="reljudge")
    p.add_argument("--db")
    register(p.add_subparsers(dest="command"))
    return p


def run(*argv: str) -> int:
    args = parser().parse_args(list(argv))
    return args.func(args)


def write(tmp_path, text: str | bytes, name: str = "grades.csv") -> str:
    path = tmp_path / name
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return str(path)


def strict_loads(text: str) -> dict:
    def no_constants(name):
        raise AssertionError(f"non-standard JSON constant {name}")

    return json.loads(text, parse_constant=no_constants)


def test_json_matches_library(tmp_path, capsys):
    path = write(tmp_path, ROWS)
    assert run("agreement", path, "--format", "json") == 0
    out = strict_loads(capsys.readouterr().out)
    expected = compute_agreement(pd.read_csv(path, dtype={"annotator": str, "qid": str, "pid": str})).to_dict()
    # Reasons read in English for people; their codes stay beside them for programs.
    assert out == json.loads(json.dumps(readable_reasons(expected)))
    for key in (
        "percent_agreement",
        "cohen_kappa",
        "cohen_kappa_linear",
        "fleiss_kappa",
        "krippendorff_alpha_nominal",
        "krippendorff_alpha_ordinal",
        "n_items",
        "reasons",
        "by_type",
    ):
        assert key in out
    assert set(out["cohen_kappa"]) == {"B|C", "B|김목사", "C|김목사"}
    assert out["n_items"] == 4
    # 4 items: p1 (2,2,2) all agree; p2 (0,1) no; p3 (1,1,1) all; p4 (2,0) no → 0.5
    assert out["percent_agreement"] == pytest.approx(0.5)
    # Fleiss: rater counts 3,2,3,2 tie → m = 3 on p1 and p3, every rating agrees.
    assert (out["fleiss_raters"], out["n"]["fleiss_kappa"]) == (3, 2)


def test_table_for_people(tmp_path, capsys):
    assert run("agreement", write(tmp_path, ROWS)) == 0
    out = capsys.readouterr().out
    assert "Paragraph grades: 3 annotator(s), 4 of 4 items" in out
    assert "percent agreement" in out and "0.500" in out
    assert "Krippendorff's alpha, ordinal" in out
    assert "B|김목사" in out


def test_per_type_breakdown_and_null_reasons(tmp_path, capsys):
    text = (
        "annotator,qid,pid,grade,type\nA,q1,p1,2,사실\nB,q1,p1,2,사실\nA,q2,p2,0,why\n"
        "B,q2,p2,1,why\nA,q2,p3,1,why\nB,q2,p3,1,\n"
    )
    assert run("agreement", write(tmp_path, text), "--format", "json") == 0
    out = strict_loads(capsys.readouterr().out)
    assert set(out["by_type"]) == {"사실", "why"}
    fact = out["by_type"]["사실"]
    assert fact["n_items"] == 1 and fact["percent_agreement"] == 1.0
    assert fact["cohen_kappa"] == {"A|B": None}
    assert fact["reasons"]["cohen_kappa[A|B]"] == (
        "both annotators put all 1 common items in the same single category: chance agreement is 1, kappa is undefined"
    )
    assert fact["reason_codes"]["cohen_kappa[A|B]"] == {"code": "reason_cohen_one_category", "items": 1}
    assert out["by_type"]["why"]["n_items"] == 2


def test_single_annotator_prints_nulls_not_crash(tmp_path, capsys):
    assert run("agreement", write(tmp_path, "annotator,qid,pid,grade\nA,q,p,2\n"), "--format", "json") == 0
    out = strict_loads(capsys.readouterr().out)
    assert out["fleiss_kappa"] is None and out["cohen_kappa"] == {}
    assert out["reasons"]["fleiss_kappa"] == "fewer than two annotators"
    assert run("agreement", write(tmp_path, "annotator,qid,pid,grade\nA,q,p,2\n")) == 0
    assert "fewer than two annotators" in capsys.readouterr().out


def test_bom_repeated_identical_rows_and_blank_lines(tmp_path):
    text = "\ufeffannotator, qid ,pid,grade\r\nA,q,p,2\r\n\r\nA,q,p,2\r\nB,q,p, 1\r\n"
    grades, types = read_grades_csv(write(tmp_path, text))
    assert grades.values.tolist() == [["A", "q", "p", 2], ["B", "q", "p", 1]]
    assert types is None


@pytest.mark.parametrize(
    "text, line, problem",
    [
        ("annotator,qid,grade\nA,q,2\n", 1, "missing column(s) pid"),
        ("annotator,qid,pid,grade\nA,q,p,2\nA,q,p2,high\n", 3, "grade 'high' is not an integer"),
        ("annotator,qid,pid,grade\nA,q,p,1.5\n", 2, "grade '1.5' is not an integer"),
        ("annotator,qid,pid,grade\nA,q,p,2\nB,q,p,3\n", 3, "grade 3 is out of range"),
        ("annotator,qid,pid,grade\nA,q,p,-1\n", 2, "grade -1 is out of range"),
        (
            "annotator,qid,pid,grade\nA,q,p,2\nB,q,p,2\nA,q,p,0\n",
            4,
            "grades qid 'q', pid 'p' as 0 here but as 2 on line 2",
        ),
        ("annotator,qid,pid,grade\nA,q,p\n", 2, "expected 4 fields, found 3"),
        ("annotator,qid,pid,grade\nA,,p,1\n", 2, "empty qid"),
        ("annotator,qid,pid,grade,type\nA,q,p,1,x\nB,q,p,1,y\n", 3, "has type 'y' here but 'x'"),
    ],
)
def test_bad_rows_name_file_line_and_problem(tmp_path, capsys, text, line, problem):
    path = write(tmp_path, text)
    assert run("agreement", path, "--format", "json") == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert "\n" not in err
    assert f"{path}, line {line}: " in err and problem in err
    with pytest.raises(InputError) as info:
        read_grades_csv(path)
    assert (info.value.file, info.value.line) == (path, line)


def test_invalid_utf8_names_the_line(tmp_path, capsys):
    path = write(tmp_path, "annotator,qid,pid,grade\nA,q,p,2\n".encode() + b"\xb1\xe8,q,p,1\n")
    assert run("agreement", path) == 2
    assert f"{path}, line 3: not valid UTF-8" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "the file is empty"),
        ("\n  \n", "the file is empty"),
        ("annotator,qid,pid,grade\n", "no judgments"),
    ],
)
def test_empty_files(tmp_path, capsys, text, problem):
    path = write(tmp_path, text)
    assert run("agreement", path) == 2
    assert problem in capsys.readouterr().err


def test_missing_file(tmp_path, capsys):
    assert run("agreement", str(tmp_path / "nope.csv")) == 2
    assert "nope.csv: cannot read the file" in capsys.readouterr().err


def test_database_mode(tmp_path, capsys):
    from reljudge.campaign import setup as campaign
    from reljudge.campaign import judging
    from reljudge.storage import open_database

    path = tmp_path / "j.duckdb"
    db = open_database(path)
    campaign.load_demo(db, with_accounts=False)
    items = judging.payload(db, "a", "q01")["items"][:4]
    for user, grades in (("a", [2, 1, 0, 0]), ("b", [2, 0, 0, 0])):
        for item, grade in zip(items, grades):
            judging.grade(db, user, "q01", item["pid"], grade)
    db.close()
    assert run("--db", str(path), "agreement", "--format", "json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n_items"] == 4
    assert out["percent_agreement"] == pytest.approx(0.75)
    assert set(out["cohen_kappa"]) == {"a|b"}
    assert set(out["outcome"]["rankings"]) == {"a", "b"} and "a|b" in out["outcome"]["kendall_tau"]
    args = parser().parse_args(["--db", "x.duckdb", "agreement"])
    assert args.db == "x.duckdb" and args.file is None


def test_help_has_an_example(capsys):
    with pytest.raises(SystemExit) as info:
        parser().parse_args(["agreement", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "reljudge agreement grades.csv --format json" in out
    assert "annotator,qid,pid,grade" in out
