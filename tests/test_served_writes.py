"""Issue 37 §1, the write commands through the running app (docs/served.md): every write
family — accounts, campaigns, types, plans, pool, assignments, freeze, gold, decoys,
quality settings, imports — run in the same order on two copies of one campaign, one held
by a real running app (`streamlit run app.py`), the other opened directly; each command
prints the same and exits with the same code, and the two databases end up the same. A
server killed (SIGKILL) or stopped (SIGTERM) in the middle of a forwarded import leaves
all of it or nothing."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
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


def _reading_forwarded(pid: int, name: str) -> bool:
    """Whether the server ``pid`` reads its copy of the client's file ``name`` (in its
    private folder of a forwarded command) past its start (Linux /proc)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if "reljudge-forward-" in target and target.endswith("/" + name):
                info = Path(f"/proc/{pid}/fdinfo/{fd}").read_text()
                if int(re.search(r"pos:\s+(\d+)", info).group(1)) > 0:
                    return True
        except (OSError, AttributeError):
            continue
    return False


def _count_big(path: Path) -> int:
    con = duckdb.connect(str(path))  # replays a log a kill left behind
    try:
        return con.execute("SELECT count(*) FROM paragraphs WHERE pid LIKE 'big-%'").fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_server_stopped_during_a_forwarded_import_leaves_all_or_nothing(tmp_path, sig):
    source = _build(tmp_path)
    path = tmp_path / "kill.duckdb"
    shutil.copy2(source, path)
    n = 150_000
    big = tmp_path / "big-corpus.jsonl"
    with open(big, "w", encoding="utf-8") as fh:
        for k in range(n):
            fh.write(
                json.dumps(
                    {"pid": f"big-{k}", "doc_id": f"d{k // 50}", "text": f"문단 {k}: 믿음과 소망."}, ensure_ascii=False
                )
                + "\n"
            )
    server = StreamlitServer(db_path=path, log_path=tmp_path / "server.log").start()
    client = None
    try:
        env = {k: v for k, v in os.environ.items() if k != "RELJUDGE_CAMPAIGN"}
        client = subprocess.Popen(
            [sys.executable, "-m", "reljudge", "--db", str(path), "import", "corpus", str(big)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while client.poll() is None and time.monotonic() < deadline:
            if _reading_forwarded(server.proc.pid, big.name):
                break
            time.sleep(0.005)
        assert client.poll() is None, f"the import ended before the server could be stopped: {client.stderr.read()}"
        server.proc.send_signal(sig)
        server.proc.wait(timeout=120)
        out, err = client.communicate(timeout=120)
    finally:
        if client is not None and client.poll() is None:
            client.kill()
        server.stop()
    if client.returncode == 0:  # SIGTERM: the app may finish the command before it stops
        assert sig == signal.SIGTERM and f"{n} " in out
    else:
        assert client.returncode == 2, err
        assert "stopped before it answered `reljudge import`" in err and "Traceback" not in err
    again = StreamlitServer(db_path=path, log_path=tmp_path / "again.log").start()  # the app opens it again
    try:
        listed = reljudge(path, "users", "list", cwd=tmp_path)  # through the restarted app
        assert listed.returncode == 0 and "ann" in listed.stdout, listed.stderr
    finally:
        again.stop()
    got = _count_big(path)
    assert got in (0, n), got  # all or nothing
    if client.returncode == 0:  # the client was told it was done: it is there
        assert got == n


def test_auto_judge_runs_on_the_client_and_stores_its_grades_through_the_running_app(tmp_path):
    """The model (here an OpenAI-compatible endpoint) is asked by the client's process; the
    pairs come from the app and the grades go back through it, stored as the source: the
    same summary, the same grades as a run on the file with the app stopped, the same
    refusal for a source another model made."""
    from judge_server import JudgeServer

    source = _build(tmp_path)
    served, direct = tmp_path / "served.duckdb", tmp_path / "direct.duckdb"
    for target in (served, direct):
        shutil.copy2(source, target)
    model = JudgeServer()
    server = StreamlitServer(db_path=served, log_path=tmp_path / "server.log").start()
    try:
        argv = ("auto-judge", "--source", "llm", "--endpoint", model.url, "--model", "e5-judge")
        through = reljudge(served, *argv, "--concurrency", "2", cwd=tmp_path)
        asked_through = model.requests
        alone = reljudge(direct, *argv, "--concurrency", "2", cwd=tmp_path)
        assert through.returncode == 0, through.stderr
        assert "in use by another process" not in through.stderr and "Traceback" not in through.stderr
        assert (through.stdout, through.returncode) == (alone.stdout, alone.returncode)
        assert asked_through > 0 and model.requests == 2 * asked_through  # one request per pair, each run
        for db, name in ((served, "through.txt"), (direct, "alone.txt")):
            r = reljudge(db, "export", "qrels", "--source", "llm", "-o", name, cwd=tmp_path)
            assert r.returncode == 0, r.stderr
        assert (tmp_path / "through.txt").read_text() == (tmp_path / "alone.txt").read_text()
        assert (tmp_path / "through.txt").read_text().strip()
        again = [reljudge(db, *argv, cwd=tmp_path) for db in (served, direct)]  # nothing pending
        assert again[0].stdout == again[1].stdout and "0 graded now" in again[0].stdout
        _judge_route_refuses(server, served)
        # e5-small (on the client's CPU): the people's grades it calibrates on come through the app too
        e5 = [
            reljudge(db, "auto-judge", "--source", "e5", "--model", "e5-small", "--threads", "1", cwd=tmp_path)
            for db in (served, direct)
        ]
        assert e5[1].returncode == 0, e5[1].stderr
        assert (e5[0].stdout, e5[0].returncode) == (e5[1].stdout, e5[1].returncode)
        for db, name in ((served, "e5-through.txt"), (direct, "e5-alone.txt")):
            assert reljudge(db, "export", "qrels", "--source", "e5", "-o", name, cwd=tmp_path).returncode == 0
        assert (tmp_path / "e5-through.txt").read_text() == (tmp_path / "e5-alone.txt").read_text()
        assert (tmp_path / "e5-through.txt").read_text().strip()
        other = ("auto-judge", "--source", "llm", "--endpoint", model.url, "--model", "another")
        refused = [reljudge(db, *other, cwd=tmp_path) for db in (served, direct)]
        assert refused[1].returncode == 2 and "llm" in refused[1].stderr
        assert _said(refused[0]) == _said(refused[1])
    finally:
        server.stop()
        model.close()


def _judge_route_refuses(server, served: Path) -> None:
    """POST /api/v1/judge takes the runtime file's secret only, and only its operations."""
    import urllib.error
    import urllib.request

    info = runtime_file.read(served)

    def post(body: dict, secret: str) -> int:
        req = urllib.request.Request(
            f"{server.url}/api/v1/judge",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {secret}"},
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code

    asked = {"db": info.db, "campaign": "default", "op": "graded_count", "args": ["llm"]}
    assert post(asked, "w" * 43) == 401
    assert post({**asked, "op": "drop_everything"}, info.secret) == 400
    assert post({**asked, "db": "/elsewhere.duckdb"}, info.secret) == 400
    assert post(asked, info.secret) == 200


def test_an_import_lets_other_writes_in_between_its_pieces(tmp_path, monkeypatch):
    """An import stages its rows a piece at a time (Database.stage), the write lock free
    between pieces: another thread's writes get in while it runs, not only after it; and
    every reader sees all of it or none of it."""
    import threading

    from reljudge.campaign import setup
    from reljudge.storage import database as storage_database
    from reljudge.storage import open_database

    monkeypatch.setattr(storage_database, "STAGE_ROWS", 1_000)
    big = tmp_path / "corpus.jsonl"
    with open(big, "w", encoding="utf-8") as fh:
        for k in range(20_000):
            fh.write(json.dumps({"pid": f"s{k}", "text": f"문단 {k}: 소망과 인내."}, ensure_ascii=False) + "\n")
    db = open_database(shutil.copy2(_build(tmp_path), tmp_path / "pieces.duckdb"))
    holds: list[tuple[str, float, float]] = []  # (thread, start, end) of every hold of the write lock
    original = storage_database.owner_only

    from contextlib import contextmanager

    @contextmanager
    def timed():
        with original():
            start = time.perf_counter()
            try:
                yield
            finally:
                holds.append((threading.current_thread().name, start, time.perf_counter()))

    monkeypatch.setattr(storage_database, "owner_only", timed)
    stop, seen = threading.Event(), []

    def other_writer():
        while not stop.is_set():
            with db.transaction() as cur:
                cur.execute("SELECT 1")
            seen.append(db.cursor().execute("SELECT count(*) FROM paragraphs WHERE pid LIKE 's%'").fetchone()[0])
            stop.wait(0.002)

    thread = threading.Thread(target=other_writer, name="other")
    thread.start()
    try:
        setup.import_file(db, "corpus", big)
    finally:
        stop.set()
        thread.join()
    own = [(a, b) for name, a, b in holds if name != "other"]
    assert len(own) >= 20  # the table, 20 pieces, the final switch
    first_piece_end, last_piece_start = own[1][1], own[-2][0]  # own[0]: the table; own[-1]: the switch
    between = [a for name, a, _b in holds if name == "other" and first_piece_end < a < last_piece_start]
    assert between, "no other write got the lock while the import staged its pieces"
    assert set(seen) <= {0, 20_000}  # all or nothing to every reader
    assert db.cursor().execute("SELECT count(*) FROM paragraphs WHERE pid LIKE 's%'").fetchone()[0] == 20_000
    db.close()
