"""Issue 37 §1, the write commands through the running app (docs/served.md): every write
family — accounts, campaigns, types, plans, pool, assignments, freeze, gold, decoys,
quality settings, imports — run in the same order on two copies of one campaign, one held
by a real running app (`streamlit run app.py`), the other opened directly; each command
prints the same and exits with the same code, and the two databases end up the same. A
server killed (SIGKILL) or stopped (SIGTERM) in the middle of a forwarded import leaves
all of it or nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from e2e_support import StreamlitServer
from test_served_cli import _build, _said, reljudge

from reljudge.storage import runtime_file

GOLD = "q1 0 p02 2\nq2 0 p04 2\n"
BAD_GOLD = "q1 0 p02 2\nq2 0 p04 seven\n"
MORE_QUESTIONS = (
    json.dumps(
        {"qid": "q4", "text": "봉사는 어디에서 빛나는가?", "type": "사실 확인", "criteria": "봉사"}, ensure_ascii=False
    )
    + "\n"
)
MORE_CORPUS = "".join(
    json.dumps(
        {"pid": f"x{i:02d}", "doc_id": "dx", "position": i, "text": f"새 문단 {i}번: 봉사와 감사."}, ensure_ascii=False
    )
    + "\n"
    for i in range(5)
)
BROKEN_CORPUS = MORE_CORPUS.replace('"x03"', "").replace('"pid": ,', '"pid": "x03", "text": 3,')
RUN_C = "q1 Q0 p08 1 3.0 hybrid\nq1 Q0 x01 2 2.0 hybrid\nq2 Q0 p04 1 1.0 hybrid\nq4 Q0 x02 1 1.0 hybrid\n"
QRELS = "q1 0 p02 2\nq1 0 p01 1\nq2 0 p04 2\n"

#: (argv, stdin): run in this order on both copies. Refusals are included: the same code
#: and the same words, the client's file names in them.
STEPS: list[tuple[tuple[str, ...], str | None]] = [
    (("users", "add", "carol", "--role", "annotator", "--password-stdin"), "pw-carol-1234\n"),
    (("users", "add", "ann", "--password-stdin"), "pw-ann-again-1\n"),  # exists: refused
    (("users", "add", "dave"), None),  # no password on stdin, none in the environment
    (("users", "passwd", "carol", "--password-stdin"), "pw-carol-5678\n"),
    (("users", "unlock", "carol"), None),
    (("users", "deactivate", "bob"), None),
    (("users", "activate", "bob"), None),
    (("users", "email", "carol", "Carol@Example.org"), None),
    (("users", "list"), None),
    (("campaigns", "create", "round2"), None),
    (("campaigns", "create", "round2"), None),  # exists: refused
    (("--campaign", "round2", "users", "grant", "ann", "--role", "lead"), None),
    (("--campaign", "round2", "users", "list"), None),
    (("--campaign", "round2", "users", "revoke", "ann"), None),
    (("campaigns", "list"), None),
    (("types", "add", "인물", "역사 배경"), None),
    (("types", "remove", "인물"), None),
    (("types", "remove", "사실 확인"), None),  # questions have it: refused
    (("types", "list"), None),
    (("plan", "rr-first", "--then-rest"), None),
    (("plan",), None),
    (("next", "--user", "ann"), None),
    (("plan", "complete"), None),
    (("pool", "--depth", "5"), None),
    (("pool", "--depth", "0"), None),  # refused
    (("assign", "--per-question", "1", "--double-share", "0.5", "--seed", "3"), None),
    (("assign", "--reassign", "bob"), None),
    (("assign", "--show"), None),
    (("freeze", "--note", "round 1"), None),
    (("gold", "import", "gold.qrels"), None),
    (("gold", "import", "bad-gold.qrels"), None),  # file, line, problem: the client's name
    (("gold", "import", "no-such.qrels"), None),
    (("gold", "list"), None),
    (("decoys", "--rate", "0.2", "--seed", "5"), None),
    (("quality", "--min-gold", "1", "--min-accuracy", "0.5"), None),
    (("agreement",), None),
    (("agreement", "--format", "json"), None),
    (("judges", "errors", "--source", "nothing"), None),
    (("import", "questions", "more-questions.jsonl"), None),
    (("import", "corpus", "more-corpus.jsonl"), None),
    (("import", "corpus", "broken-corpus.jsonl"), None),  # nothing of it is kept
    (("import", "run", "hybrid.trec", "--system", "hybrid"), None),
    (("import", "qrels", "truth.qrels", "--source", "truth"), None),
    (("export", "qrels", "--source", "truth", "-o", "truth-out.txt"), None),
    (("evaluate", "--format", "tsv", "-m", "RR@10", "nDCG@10"), None),
]


def _inputs(folder: Path) -> None:
    for name, text in (
        ("gold.qrels", GOLD),
        ("bad-gold.qrels", BAD_GOLD),
        ("more-questions.jsonl", MORE_QUESTIONS),
        ("more-corpus.jsonl", MORE_CORPUS),
        ("broken-corpus.jsonl", BROKEN_CORPUS),
        ("hybrid.trec", RUN_C),
        ("truth.qrels", QRELS),
    ):
        (folder / name).write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def writes(tmp_path_factory):
    """(served copy, direct copy, server): the same campaign twice, one held by a running
    app; the input files in each copy's out/ folder (the commands' working folder)."""
    tmp = tmp_path_factory.mktemp("served-writes")
    source = _build(tmp)
    served, direct = tmp / "served" / "camp.duckdb", tmp / "direct" / "camp.duckdb"
    for target in (served, direct):
        target.parent.mkdir()
        shutil.copy2(source, target)
        (target.parent / "out").mkdir()
        _inputs(target.parent / "out")
    server = StreamlitServer(db_path=served, log_path=tmp / "server.log").start()
    try:
        yield served, direct, server
    finally:
        server.stop()


def _run_both(writes, argv, stdin):
    served, direct, _server = writes
    results = []
    for db in (served, direct):
        r = reljudge(db, *argv, cwd=db.parent / "out", input=stdin)
        r.stdout, r.stderr = (t.replace(str(db.parent), "<DIR>") for t in (r.stdout, r.stderr))
        results.append(r)
    return results


@pytest.mark.parametrize("argv, stdin", STEPS, ids=[" ".join(a) for a, _ in STEPS])
def test_a_write_command_does_the_same_through_the_running_app(writes, argv, stdin):
    through, alone = _run_both(writes, argv, stdin)
    assert "in use by another process" not in through.stderr
    assert "not carried out" not in through.stderr
    assert "Traceback" not in through.stderr + alone.stderr
    assert _said(through) == _said(alone)


def test_the_password_travels_in_the_body_never_on_a_command_line(writes, tmp_path):
    """The client reads the password as without the app (stdin here) and sends it in the
    request body: neither the client's argv nor the server's log holds it."""
    served, direct, server = writes
    secret_pw = "pw-eve-never-logged-9"
    through, alone = _run_both(writes, ("users", "add", "eve", "--password-stdin"), secret_pw + "\n")
    assert _said(through) == _said(alone) and through.returncode == 0
    assert secret_pw not in through.stdout + through.stderr
    assert secret_pw not in Path(server.log_path).read_text(encoding="utf-8", errors="replace")


#: Columns that differ between two equal histories: when a row was written, and the salted
#: hashes of a password (Argon2id draws a new salt every time).
_VOLATILE_TYPES = ("TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "DATE", "TIME")
_VOLATILE_NAMES = ("password_hash", "hash", "token_hash", "secret")


def _dump(path: Path) -> dict:
    """Every table of every schema of the file, its rows sorted, without time stamps and
    password hashes."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY 1, 2"
        ).fetchall()
        dump = {}
        for schema, table in tables:
            columns = [
                name
                for name, kind in con.execute(
                    "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() "
                    "AND schema_name = ? AND table_name = ? ORDER BY column_index",
                    [schema, table],
                ).fetchall()
                if kind not in _VOLATILE_TYPES and name not in _VOLATILE_NAMES
            ]
            if not columns:
                continue
            select = ", ".join(f'"{c}"' for c in columns)
            rows = con.execute(f'SELECT {select} FROM "{schema}"."{table}"').fetchall()
            dump[f"{schema}.{table}"] = (columns, sorted(rows, key=repr))
        return dump
    finally:
        con.close()


def test_the_two_databases_end_up_the_same(writes):
    served, direct, server = writes
    server.stop()  # the app checkpoints and lets go of the file
    assert not runtime_file.path_for(served).exists()
    ours, theirs = _dump(served), _dump(direct)
    assert ours.keys() == theirs.keys()
    differ = [table for table in ours if ours[table] != theirs[table]]
    # the app's own rows: its sessions and login events (none here: nobody logged in)
    assert differ == [], differ
    # a password changed through the app logs in
    r = reljudge(served, "users", "list", cwd=served.parent)
    assert r.returncode == 0 and "carol" in r.stdout
