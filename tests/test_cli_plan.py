"""``reljudge plan`` and ``reljudge next`` (docs/judging-plans.md#판정-계획--judging-plans)."""

from __future__ import annotations

import json

from reljudge.campaign import setup as campaign
from reljudge.cli import main as cli
from reljudge.campaign import judging
from reljudge.campaign import plan
from reljudge.storage import open_database


def _demo(tmp_path):
    path = tmp_path / "demo.duckdb"
    db = open_database(path)
    campaign.load_demo(db)
    db.close()
    return str(path)


def _run(capsys, *args):
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_plan_round_trip(tmp_path, capsys):
    path = _demo(tmp_path)
    assert _run(capsys, "--db", path, "plan") == (0, "complete\n", "")
    code, out, _ = _run(capsys, "--db", path, "plan", "rr-first", "--then-rest")
    assert code == 0 and "rr-first" in out and "then the rest" in out
    code, out, _ = _run(capsys, "--db", path, "plan")
    assert out.startswith("rr-first (K = 10, rel >= 2, then the rest of the pool)")
    assert _run(capsys, "--db", path, "plan", "rr-first")[0] == 0
    assert _run(capsys, "--db", path, "plan")[1].startswith("rr-first (K = 10, rel >= 2)")
    assert _run(capsys, "--db", path, "plan", "complete")[0] == 0
    assert _run(capsys, "--db", path, "plan")[1] == "complete\n"
    code, _, err = _run(capsys, "--db", path, "plan", "complete", "--then-rest")
    assert code == 2 and "rr-first" in err


def test_next_prints_the_pages_items_and_nothing_when_done(tmp_path, capsys):
    path = _demo(tmp_path)
    for name in ("complete", "rr-first"):
        _run(capsys, "--db", path, "plan", name)
        code, out, err = _run(capsys, "--db", path, "next", "--user", "annotator1", "--limit", "7")
        assert code == 0 and err == ""
        rows = [json.loads(line) for line in out.splitlines()]
        assert len(rows) == 7
        db = open_database(path)
        assert rows == judging.next_items(db, "annotator1", 7)
        first = rows[0]["qid"]
        assert first == judging.current_question(db, "annotator1")
        ov = judging.overview(db, "annotator1").set_index("qid")
        now = plan.now_items(db, "annotator1", [first])[first]
        n = len(now)
        assert n == ov.loc[first].open_now
        assert [r["pid"] for r in rows if r["qid"] == first] == now[:7]
        assert all(set(r) == {"qid", "pid", "question_index", "position"} for r in rows)
        if name == "rr-first":
            assert n < ov.loc[first].pool_size
        db.close()
    code, out, _ = _run(capsys, "--db", path, "next", "--user", "annotator1", "--format", "table", "--limit", "2")
    lines = out.splitlines()
    assert code == 0 and lines[0].split("\t") == ["question_index", "qid", "position", "pid"] and len(lines) == 3
    # nothing left under rr-first: every offered item judged, in every question
    db = open_database(path)
    while True:
        items = judging.next_items(db, "annotator2")
        if not items:
            break
        for item in items:
            judging.grade(db, "annotator2", item["qid"], item["pid"], 0)
    db.close()
    assert _run(capsys, "--db", path, "next", "--user", "annotator2") == (0, "", "")


def test_next_for_an_unknown_user_is_an_error(tmp_path, capsys):
    path = _demo(tmp_path)
    code, out, err = _run(capsys, "--db", path, "next", "--user", "nobody")
    assert code == 2 and out == "" and "no account 'nobody' on this server" in err


def test_plan_and_next_have_help_with_examples_and_run_as_a_process(tmp_path):
    import subprocess
    import sys

    for command in ("plan", "next"):
        r = subprocess.run([sys.executable, "-m", "reljudge", command, "--help"], capture_output=True, text=True)
        assert r.returncode == 0 and "examples:" in r.stdout and f"reljudge {command}" in r.stdout
    path = _demo(tmp_path)
    r = subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", path, "next", "--user", "annotator1", "--limit", "2"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and [json.loads(line)["qid"] for line in r.stdout.splitlines()] == ["q01", "q01"]
    r = subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", path, "next", "--user", "ghost"], capture_output=True, text=True
    )
    assert (
        r.returncode == 2
        and r.stderr.strip() == "error: no account 'ghost' on this server"
        and "Traceback" not in r.stderr
    )


def test_next_as_a_process_loads_neither_pandas_nor_numpy(tmp_path):
    """DuckDB's client imports pandas and numpy the first time a query binds a parameter
    (about half a second of a `reljudge next` process); `next` needs neither and runs
    without them (cli.plan._without_pandas), printing what the library computes."""
    import subprocess
    import sys

    path = _demo(tmp_path)
    db = open_database(path)
    plan.set_plan(db, "rr-first")
    db.close()
    # the command as `python -m reljudge` runs it, then: which of the two did the process load?
    script = (
        "import sys\n"
        "from reljudge.cli import main\n"
        f"code = main.main(['--db', {path!r}, 'next', '--user', 'annotator1'])\n"
        "print(sorted(m for m in ('pandas', 'numpy') if sys.modules.get(m)), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stderr.strip() == "[]"
    db = open_database(path, read_only=True)
    expected = judging.next_items(db, "annotator1")
    db.close()
    assert [json.loads(line) for line in r.stdout.splitlines()] == expected and expected


def test_after_next_the_same_process_uses_pandas_normally(tmp_path):
    """The mark that keeps pandas away lasts for `next` only: a script that calls the CLI's
    main() for `next` and then for a command that needs pandas gets both answers."""
    import subprocess
    import sys

    path = _demo(tmp_path)
    script = (
        "import sys\n"
        "from reljudge.cli import main\n"
        f"assert main.main(['--db', {path!r}, 'next', '--user', 'annotator1', '--limit', '1']) == 0\n"
        "assert 'pandas' not in sys.modules\n"
        f"code = main.main(['--db', {path!r}, 'evaluate', '-m', 'RR@10', '--format', 'tsv'])\n"
        "assert 'pandas' in sys.modules and sys.modules['pandas'] is not None\n"
        "sys.exit(code)\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert json.loads(lines[0])["qid"] == "q01"
    rows = [line.split("\t") for line in lines[1:] if not line.startswith("#")]
    assert rows and all(row[1] == "RR(rel=2)@10" and row[2] == "all" for row in rows), lines


def test_a_plan_changed_through_another_database_object_is_seen(tmp_path):
    """Regression: the queue's cache was keyed on one Database object's own count of
    writes (and its id(), which Python reuses for a new object at a closed one's address):
    an object that had not written itself kept serving the overview of the plan before
    another object of the same file (the CLI, a script) changed it."""
    path = _demo(tmp_path)
    reader, writer = open_database(path), open_database(path)
    try:
        qid = judging.current_question(reader, "annotator1")
        assert judging.overview(reader, "annotator1").set_index("qid").loc[qid].open_now == len(
            plan.now_items(reader, "annotator1", [qid])[qid]
        )
        plan.set_plan(writer, "rr-first")
        now = plan.now_items(reader, "annotator1", [qid])[qid]
        assert judging.overview(reader, "annotator1").set_index("qid").loc[qid].open_now == len(now)
        assert len(now) < judging.overview(reader, "annotator1").set_index("qid").loc[qid].pool_size
    finally:
        writer.close()
        reader.close()
