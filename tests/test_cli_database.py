"""The CLI and the database file: a mistyped --db never becomes a new, empty campaign."""

from __future__ import annotations

import json

import pytest

from cli_support import run_cli


def _cli(*args, cwd=None, input=None):
    return run_cli(*args, cwd=cwd, input=input)


@pytest.mark.parametrize(
    "command",
    [
        ["evaluate", "-m", "RR@10"],
        ["agreement"],
        ["report", "-o", "r.md"],
        ["export", "qrels", "-o", "q.txt"],
        ["export", "judgments", "-o", "j.jsonl"],
        ["pool"],
        ["users", "list"],
        ["freeze"],
        ["assign", "--show"],
    ],
)
def test_commands_on_a_missing_database_fail_and_create_nothing(tmp_path, command):
    missing = tmp_path / "typo" / "campaign.duckdb"
    r = _cli("--db", str(missing), *command, cwd=tmp_path)
    assert r.returncode == 2
    assert f"no database at {missing}" in r.stderr and "reljudge init" in r.stderr
    assert "Traceback" not in r.stderr
    assert not any(tmp_path.iterdir())  # no database, no folder, no output file


def test_setting_up_commands_create_the_database(tmp_path, files):
    for command in (["init"], ["import", "corpus", str(files["corpus"])]):
        db = tmp_path / f"{command[0]}.duckdb"
        assert _cli("--db", str(db), *command).returncode == 0 and db.exists()
    db = tmp_path / "users.duckdb"
    r = _cli("--db", db, "users", "add", "boss", "--role", "lead", "--password-stdin", input="a-long-password\n")
    assert r.returncode == 0 and db.exists()


def test_evaluate_before_any_judgment_says_so_and_gives_the_bounds(tmp_path):
    """Nothing judged yet: the figures are bounds only (every pooled paragraph open), and
    stderr says why there is no value."""
    db = tmp_path / "demo.duckdb"
    assert _cli("--db", str(db), "init", "--demo").returncode == 0
    for fmt in ("table", "tsv", "json"):
        r = _cli("--db", str(db), "evaluate", "-m", "RR@10", "--format", fmt)
        assert r.returncode == 0, r.stderr
        assert "no answerable question has judgments yet: only the bounds" in r.stderr
        assert "아직" not in r.stderr  # the command line speaks English; the catalog has the Korean
        if fmt == "table":
            assert "[0.0000, 1.0000]" in r.stdout and "nan" not in r.stdout
        elif fmt == "json":
            assert json.loads(r.stdout)["means"][0]["bound_high"] == 1.0
    # a campaign with nothing pooled has nothing to bound either: still the error
    empty = tmp_path / "empty.duckdb"
    assert _cli("--db", str(empty), "init").returncode == 0
    r = _cli("--db", str(empty), "evaluate", "-m", "RR@10")
    assert r.returncode == 2 and "nothing to evaluate yet" in r.stderr


def test_evaluate_with_only_no_answer_questions_says_so(tmp_path):
    """The other questions are not judged yet: bounds only, and stderr says so."""
    db_path = tmp_path / "demo.duckdb"
    assert _cli("--db", str(db_path), "init", "--demo").returncode == 0
    from reljudge.campaign import judging
    from reljudge.storage import open_database

    db = open_database(db_path)
    judging.mark_no_answer(db, "annotator1", "q03", True)
    db.close()
    r = _cli("--db", str(db_path), "evaluate", "-m", "RR@10", "--format", "table")
    assert r.returncode == 0 and "no answerable question has judgments yet (1 no-answer questions)" in r.stderr
    assert "nan" not in r.stdout and "[0.0000, 1.0000]" in r.stdout


def test_a_broken_subcommand_import_shows_the_real_error(monkeypatch):
    # issue 10: the ImportError was swallowed and `evaluate` became an "invalid choice"
    from reljudge.cli import main as cli

    # None in sys.modules makes `import reljudge.cli.evaluate` raise ImportError
    monkeypatch.setitem(__import__("sys").modules, "reljudge.cli.evaluate", None)
    with pytest.raises(ImportError, match="reljudge.cli.evaluate"):
        cli.main(["evaluate", "--qrels", "q.txt", "r.trec", "-m", "RR@10"])


def test_a_closed_pipe_ends_every_command_quietly(tmp_path):
    """`reljudge … | head`: the reader goes away; the command ends without a traceback
    (exit 0 or 141, as a shell tool), whatever it was printing."""
    import subprocess
    import sys

    db = tmp_path / "pipe.duckdb"
    assert (
        subprocess.run(
            [sys.executable, "-m", "reljudge", "--db", str(db), "init", "--demo"], capture_output=True
        ).returncode
        == 0
    )
    run = tmp_path / "run.trec"
    run.write_text("".join(f"q{q} Q0 d{d} {d + 1} {100 - d} sys\n" for q in range(300) for d in range(20)))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{q} 0 d{q % 20} 1\n" for q in range(300)))
    commands = [
        ["--help"],
        ["--db", str(db), "users", "list"],
        ["evaluate", "--format", "trec_eval", "-q", "--qrels", str(qrels), str(run)],
    ]
    for command in commands:
        proc = subprocess.Popen(
            [sys.executable, "-m", "reljudge", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        proc.stdout.read(10)  # `head -c 10`: read a little, then go away
        proc.stdout.close()
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=120)
        assert code in (0, 141), (command, code, err)
        assert "Traceback" not in err and "BrokenPipeError" not in err, (command, err)


def test_database_evaluate_defaults_to_the_campaigns_measures_and_report_takes_markdown(tmp_path, capsys):
    """Issue 39.9: ``evaluate --policy source:e5`` without -m gives the dashboard's measures
    (it said "no measure given"); ``report --format markdown`` is ``md``."""
    from reljudge.cli.main import main
    from reljudge.campaign import judging
    from reljudge.campaign import setup as campaign
    from reljudge.campaign import auth
    from reljudge.storage import open_database

    path = tmp_path / "c.duckdb"
    db = open_database(path)
    campaign.load_demo(db, with_accounts=False)
    auth.add_user(db, "ann", "password-1", "annotator")
    for k, item in enumerate(judging.payload(db, "ann", "q01")["items"]):
        judging.grade(db, "ann", "q01", item["pid"], 2 if k == 0 else 0)
    db.close()
    code = main(["--db", str(path), "evaluate", "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert {"RR(rel=2)@10", "nDCG@10", "R(rel=2)@10"} <= set(json.loads(out)["measures"])  # demo threshold 2
    assert main(["--db", str(path), "report", "--format", "markdown", "-o", str(tmp_path / "r.md")]) == 0
    assert (tmp_path / "r.md").read_text(encoding="utf-8").startswith("# ")
