"""Issue 37 §1, first slice: a read command on a DuckDB file the running app holds is carried
out by the app (reljudge.cli.forward, reljudge.web.api) and prints what it prints with the
app stopped. A real server (`streamlit run app.py`) on one copy of a campaign, the same
commands directly on a second copy; the CLI in subprocesses (DuckDB's lock is per process).
docs/served.md."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import load_small_campaign, write_campaign_files
from e2e_support import StreamlitServer
from reljudge.campaign import judging
from reljudge.storage import open_database, runtime_file

REPO = Path(__file__).resolve().parents[1]


def _build(folder: Path) -> Path:
    """The small campaign with a few grades (so that metrics, qrels and agreement say
    something), checkpointed and closed: a file to copy."""
    files = write_campaign_files(folder / "input")
    path = folder / "source.duckdb"
    db = open_database(path)
    load_small_campaign(db, files)
    grades = {
        "ann": [("q1", "p02", 2), ("q1", "p01", 1), ("q2", "p04", 2)],
        "bob": [("q1", "p02", 1), ("q2", "p05", 0)],
    }
    for user, rows in grades.items():
        judging.record(
            db, user, [{"id": f"{user}-{q}-{p}", "kind": "grade", "qid": q, "pid": p, "grade": g} for q, p, g in rows]
        )
    db.close()
    return path


def reljudge(
    db: Path, *argv: str, cwd: Path, timeout: float = 120, input: str | None = None
) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("RELJUDGE_CAMPAIGN", None)
    env.pop("RELJUDGE_PASSWORD", None)
    return subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(db), *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        input="" if input is None else input,
    )


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(served copy, direct copy, server, work dir): the same campaign twice, one held by a
    running app."""
    tmp = tmp_path_factory.mktemp("served")
    source = _build(tmp)
    served, direct = tmp / "served" / "camp.duckdb", tmp / "direct" / "camp.duckdb"
    for target in (served, direct):
        target.parent.mkdir()
        shutil.copy2(source, target)
        (target.parent / "out").mkdir()
    shutil.copy2(tmp / "input" / "bm25.trec", tmp / "extra.trec")
    server = StreamlitServer(db_path=served, log_path=tmp / "server.log").start()
    try:
        yield served, direct, server, tmp
    finally:
        server.stop()


def _same(pair, *argv: str) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """Run ``argv`` on both copies (each from its own out/ folder, so that relative output
    names read the same) and return both results with the database paths masked."""
    served, direct, _server, _tmp = pair
    results = []
    for db in (served, direct):
        r = reljudge(db, *argv, cwd=db.parent / "out")
        r.stdout, r.stderr = (t.replace(str(db.parent), "<DIR>") for t in (r.stdout, r.stderr))
        results.append(r)
    return results[0], results[1]


FORWARDED = [
    ("evaluate", "--format", "table"),
    ("evaluate", "--format", "tsv", "-m", "RR@10", "nDCG@10", "P@1"),
    ("evaluate", "--format", "json", "-m", "RR@10"),
    ("evaluate", "--policy", "annotator:nobody", "--format", "tsv"),  # a refusal: the same code and text
    ("next", "--user", "ann", "--limit", "3"),
    ("next", "--user", "bob", "--format", "table"),
    ("next", "--user", "nobody"),
    ("quality",),
    ("quality", "--format", "json"),
    ("calibrate", "llm", "--against", "adjudicated"),
    ("users", "list"),
    ("users", "requests"),
    ("campaigns", "list"),
    ("campaigns", "list", "--format", "json"),
    ("plan",),
    ("plan", "--estimate"),
    ("types", "list"),
    ("assign", "--show"),
    ("evaluate-answers",),
]


@pytest.mark.parametrize("argv", FORWARDED, ids=[" ".join(a) for a in FORWARDED])
def test_a_read_command_prints_the_same_through_the_running_app(pair, argv):
    through, alone = _same(pair, *argv)
    assert "in use by another process" not in through.stderr
    assert _said(through) == _said(alone)


def test_the_campaign_option_reaches_the_app(pair):
    through, alone = _same(pair, "--campaign", "round9", "next", "--user", "ann")
    assert alone.returncode == 2 and "round9" in alone.stderr
    assert _said(through) == _said(alone)


def test_evaluate_sends_the_clients_run_files(pair):
    tmp = pair[3]
    for db in pair[:2]:
        shutil.copy2(tmp / "extra.trec", db.parent / "out" / "extra.trec")
    through, alone = _same(pair, "evaluate", "extra.trec", "--format", "tsv", "-m", "RR@10")
    assert alone.returncode == 0, alone.stderr
    assert _said(through) == _said(alone)
    missing = _same(pair, "evaluate", "--format", "tsv", "no-such.trec")
    assert missing[1].returncode == 2 and "no-such.trec" in missing[1].stderr
    assert _said(missing[0]) == _said(missing[1])


@pytest.mark.parametrize(
    "argv, written",
    [
        (("export", "qrels", "-o", "qrels.txt"), ["qrels.txt", "qrels.no_answer.tsv"]),
        (("export", "qrels", "--format", "parquet", "-o", "sub/q.parquet"), None),
        (("export", "judgments", "-o", "judgments.jsonl"), ["judgments.jsonl"]),
        (("export", "adjudications", "--format", "csv", "-o", "adj.csv"), ["adj.csv"]),
        (("report", "--lang", "en", "-o", "report.md"), ["report.md"]),
        (("quality", "--export", "quality.jsonl"), ["quality.jsonl"]),
        (("export", "reviews", "-o", "reviews.jsonl"), None),
    ],
)
def test_an_export_is_written_on_the_clients_side(pair, argv, written):
    served, direct = pair[0], pair[1]
    through, alone = _same(pair, *argv)
    assert alone.returncode == 0, alone.stderr
    assert _said(through) == _said(alone)
    here = {p.relative_to(served.parent / "out") for p in (served.parent / "out").rglob("*") if p.is_file()}
    there = {p.relative_to(direct.parent / "out") for p in (direct.parent / "out").rglob("*") if p.is_file()}
    assert here == there
    for name in written or [argv[-1]]:
        a, b = (served.parent / "out" / name).read_bytes(), (direct.parent / "out" / name).read_bytes()
        if name.endswith(".md"):  # the report says when it was made
            a, b = (_without_times(x.decode()) for x in (a, b))
        assert a == b, name


def _without_times(text: str) -> list[str]:
    import re

    return [re.sub(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?\S*", "<TIME>", line) for line in text.splitlines()]


def test_a_bundle_folder_is_written_here_and_its_checks_see_the_clients_folder(pair):
    served, direct = pair[0], pair[1]
    for db in (served, direct):
        stray = db.parent / "out" / "bundle-stray"
        stray.mkdir()
        (stray / "notes.txt").write_text("mine\n", encoding="utf-8")
    refused = _same(pair, "export", "bundle", "-o", "bundle-stray")
    assert refused[1].returncode == 2 and "notes.txt" in refused[1].stderr
    assert _said(refused[0]) == _said(refused[1])
    assert (served.parent / "out" / "bundle-stray" / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    through, alone = _same(pair, "export", "bundle", "-o", "bundle")
    assert alone.returncode == 0, alone.stderr
    assert (through.stdout, through.returncode) == (alone.stdout, alone.returncode)
    ours = sorted(
        p.relative_to(served.parent / "out" / "bundle") for p in (served.parent / "out" / "bundle").rglob("*")
    )
    theirs = sorted(
        p.relative_to(direct.parent / "out" / "bundle") for p in (direct.parent / "out" / "bundle").rglob("*")
    )
    assert ours == theirs and ours


@pytest.mark.parametrize(
    "argv, says",
    [
        (("init",), "already created this database"),
        (("serve", "--port", "1"), "already serves this database: open http://127.0.0.1:"),
    ],
)
def test_a_command_that_is_not_forwarded_says_what_to_do(pair, argv, says):
    served = pair[0]
    r = reljudge(served, *argv, cwd=served.parent / "out")
    assert r.returncode == 2
    assert says in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {served}: ") and r.stdout == ""


def test_copy_db_from_the_held_file_says_what_to_do(pair):
    served, _direct, _server, tmp = pair
    r = subprocess.run(
        [sys.executable, "-m", "reljudge", "copy-db", str(served), str(tmp / "copy.duckdb")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and "cannot be copied as it is: stop the app, then run copy-db" in r.stderr
    assert not (tmp / "copy.duckdb").exists()


def _post(server, body: bytes, headers: dict) -> tuple[int, bytes]:
    req = urllib.request.Request(f"{server.url}/api/v1/cli", data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_a_wrong_secret_is_refused_without_being_echoed(pair):
    served, _direct, server, tmp = pair
    info = runtime_file.read(served)
    body = json.dumps({"argv": ["users", "list"], "db": info.db, "campaign": "default"}).encode()
    wrong = "not-the-secret-" + "x" * 20
    for headers in ({}, {"Authorization": f"Bearer {wrong}"}, {"Authorization": f"Basic {wrong}"}):
        status, answer = _post(server, body, {"Content-Type": "application/json", **headers})
        assert status == 401 and json.loads(answer)["error"] == "bad_secret"
        assert wrong.encode() not in answer
    # the right secret through a proxy (a forwarded-for header) is not a local client
    status, answer = _post(
        server,
        body,
        {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {info.secret}",
            "X-Forwarded-For": "203.0.113.9",
        },
    )
    assert status == 403 and json.loads(answer)["error"] == "not_local"
    # and with it, straight from here, the route answers
    status, answer = _post(server, body, {"Content-Type": "application/json", "Authorization": f"Bearer {info.secret}"})
    assert status == 200 and json.loads(answer)["code"] == 0
    # a command that is not forwarded is refused by the server too, whoever asks
    refused = json.dumps({"argv": ["init"], "db": info.db, "campaign": "default"}).encode()
    status, answer = _post(
        server, refused, {"Content-Type": "application/json", "Authorization": f"Bearer {info.secret}"}
    )
    assert status == 400 and json.loads(answer)["error"] == "not_forwarded"
    assert info.secret not in Path(server.log_path).read_text(encoding="utf-8", errors="replace")


def test_the_runtime_file_is_owner_only_names_the_server_and_goes_on_a_clean_stop(tmp_path):
    source = _build(tmp_path)
    path = tmp_path / "own.duckdb"
    shutil.copy2(source, path)
    server = StreamlitServer(db_path=path, log_path=tmp_path / "server.log").start()
    try:
        written = runtime_file.path_for(path)
        mode = stat.S_IMODE(written.stat().st_mode)
        assert mode == 0o600, oct(mode)
        info = runtime_file.read_live(path)
        assert info is not None and info.pid == server.proc.pid and info.port == server.port
        assert info.db == str(path.resolve()) and len(info.secret) >= 40
        assert info.secret not in repr(info)
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no half-written file left
    finally:
        server.stop()
    assert server.proc.returncode is not None
    assert not runtime_file.path_for(path).exists()
    r = reljudge(path, "users", "list", cwd=tmp_path)  # and the file opens directly again
    assert r.returncode == 0 and "ann" in r.stdout


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _plant(db: Path, pid: int, mode: int = 0o600) -> None:
    info = runtime_file.RuntimeInfo(
        db=str(db.resolve()), pid=pid, host="127.0.0.1", port=9, base_path="", secret="planted-secret"
    )
    runtime_file.write(info)
    os.chmod(runtime_file.path_for(db), mode)


def test_a_runtime_file_whose_process_is_gone_is_ignored(tmp_path):
    source = _build(tmp_path)
    path = tmp_path / "stale.duckdb"
    shutil.copy2(source, path)
    _plant(path, _dead_pid())
    assert runtime_file.read(path) is not None and runtime_file.read_live(path) is None
    r = reljudge(path, "users", "list", cwd=tmp_path)  # nobody holds the file: it opens directly
    assert r.returncode == 0 and "ann" in r.stdout


def _said(done: subprocess.CompletedProcess) -> tuple:
    """What a command told its user: stdout, stderr and the exit code."""
    return done.stdout, done.stderr, done.returncode


def _hold(path) -> subprocess.Popen:
    """Another process (not an app) that opens ``path`` and keeps it until its stdin closes;
    it prints "ok" once DuckDB's lock is taken."""
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('ok', flush=True); sys.stdin.read()",
            str(path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def test_a_held_file_without_a_live_app_keeps_the_old_refusal(tmp_path):
    """Another process (not an app) holds the file: a stale runtime file, one that others
    could read, or one whose address nothing answers, changes nothing."""
    source = _build(tmp_path)
    path = tmp_path / "held.duckdb"
    shutil.copy2(source, path)
    holder = _hold(path)
    try:
        assert holder.stdout.readline().strip() == "ok"  # the lock is taken
        for pid, mode in ((_dead_pid(), 0o600), (holder.pid, 0o644), (holder.pid, 0o600)):
            _plant(path, pid, mode)
            r = reljudge(path, "users", "list", cwd=tmp_path)
            assert r.returncode == 2, (pid, mode, r.stderr)
            assert "in use by another process" in r.stderr and "planted-secret" not in r.stderr
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


def _request(client: str, headers: dict | None = None, server=("127.0.0.1", 8501)):
    from starlette.requests import Request

    raw = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    return Request({"type": "http", "method": "POST", "headers": raw, "client": (client, 5000), "server": server})


def test_only_a_client_on_this_machine_that_came_straight_is_local():
    from reljudge.web.api import _local

    assert _local(_request("127.0.0.1")) and _local(_request("::1")) and _local(_request("::ffff:127.0.0.1"))
    assert _local(_request("192.0.2.7", server=("192.0.2.7", 8501)))  # this machine, through its own address
    assert not _local(_request("192.0.2.8", server=("192.0.2.7", 8501)))
    assert not _local(_request("::ffff:192.0.2.8"))
    for header in ("X-Forwarded-For", "Forwarded", "X-Real-IP", "Origin"):
        assert not _local(_request("127.0.0.1", {header: "x"})), header


def test_a_runtime_file_through_a_symlink_or_not_owner_only_is_not_read(tmp_path):
    db = tmp_path / "x.duckdb"
    info = runtime_file.RuntimeInfo(
        db=str(db), pid=os.getpid(), host="127.0.0.1", port=1, base_path="", secret="s" * 43
    )
    runtime_file.write(info)
    assert runtime_file.read_live(db) == info
    os.chmod(runtime_file.path_for(db), 0o640)
    assert runtime_file.read(db) is None
    os.chmod(runtime_file.path_for(db), 0o600)
    elsewhere = tmp_path / "y.duckdb"
    os.symlink(runtime_file.path_for(db), runtime_file.path_for(elsewhere))
    assert runtime_file.read(elsewhere) is None
    runtime_file.remove(runtime_file.RuntimeInfo(**{**info.__dict__, "secret": "other"}))  # not ours: kept
    assert runtime_file.path_for(db).exists()
    runtime_file.remove(info)
    assert not runtime_file.path_for(db).exists()


def test_which_commands_are_forwarded():
    from reljudge.cli.forward import forwarding
    from reljudge.cli.main import build_parser

    def spec(*argv):
        return forwarding(build_parser().parse_args(list(argv)))

    assert spec("export", "qrels", "-o", "q.txt").outputs == ("output",)
    assert spec("evaluate", "run.trec").inputs == ("runs",)
    assert spec("quality", "--export", "q.jsonl").outputs == ("export",)
    assert spec("import", "corpus", "c.jsonl").inputs == ("file",) and spec("import", "corpus", "c.jsonl").writes
    assert spec("gold", "import", "g.qrels").inputs == ("file",)
    assert spec("judges", "errors", "--source", "m", "-o", "e.tsv").outputs == ("output",)
    for writes in (("quality", "--auto-gold", "on"), ("plan", "rr-first"), ("users", "add", "x"), ("pool",)):
        assert spec(*writes).writes, writes
    assert spec("users", "add", "x").password and spec("users", "passwd", "x").password
    assert not spec("users", "grant", "x", "--role", "lead").password
    for reads in (("plan", "--estimate"), ("assign", "--show"), ("users", "list"), ("quality",), ("gold", "list")):
        assert not spec(*reads).writes, reads
    assert spec("assign").writes
    for never in (("init",), ("serve",), ("copy-db", "a", "b")):
        assert spec(*never) is None, never


@pytest.mark.parametrize(
    "argv, says",
    [
        (("export", "qrels", "-o", "q.txt"), "finishes the read and drops its answer"),
        (("pool",), "carries `reljudge pool` out to its end (each of its writes all or nothing)"),
    ],
)
def test_ctrl_c_on_the_client_stops_waiting_and_writes_nothing(tmp_path, argv, says):
    """A forwarded command that has not answered yet: Ctrl+C ends the client at once (130,
    said on stderr: a read is dropped, a write is carried out whole by the app), and the
    output file it would have written is not there."""
    import signal
    import socket
    import threading

    source = _build(tmp_path)
    path = tmp_path / "slow.duckdb"
    shutil.copy2(source, path)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    got_request = threading.Event()
    accepted = []

    def serve_slowly():  # reads the request and never answers
        conn, _ = listener.accept()
        accepted.append(conn)
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(65536)
        got_request.set()

    threading.Thread(target=serve_slowly, daemon=True).start()
    holder = _hold(path)
    try:
        assert holder.stdout.readline().strip() == "ok"
        info = runtime_file.RuntimeInfo(
            db=str(path.resolve()),
            pid=holder.pid,
            host="127.0.0.1",
            port=listener.getsockname()[1],
            base_path="",
            secret="t" * 43,
        )
        runtime_file.write(info)
        client = subprocess.Popen(
            [sys.executable, "-m", "reljudge", "--db", str(path), *argv],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert got_request.wait(60), "the client never sent its command"
        client.send_signal(signal.SIGINT)
        out, err = client.communicate(timeout=30)
        assert client.returncode == 130, err
        assert "interrupted: no longer waiting" in err and says in err
        assert "Traceback" not in err and "t" * 43 not in err
        assert not (tmp_path / "q.txt").exists()
    finally:
        for conn in accepted:
            conn.close()
        listener.close()
        holder.stdin.close()
        holder.wait(timeout=30)


def test_under_reljudge_serve_the_runtime_file_names_the_streamlit_child(tmp_path):
    import signal

    from e2e_support import free_port, wait_for_health

    source = _build(tmp_path)
    path = tmp_path / "serve.duckdb"
    shutil.copy2(source, path)
    direct = reljudge(source, "users", "list", cwd=tmp_path)
    port = free_port()
    with open(tmp_path / "serve.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "reljudge", "--db", str(path), "serve", "--port", str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_health(f"http://127.0.0.1:{port}", proc, 60, what="reljudge serve")
            info = runtime_file.read_live(path)
            assert info is not None and info.port == port
            assert info.pid != proc.pid  # the Streamlit child holds the file, not `serve`
            through = reljudge(path, "users", "list", cwd=tmp_path)
            assert _said(through) == (direct.stdout, direct.stderr, 0)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
    assert proc.returncode == 0
    assert not runtime_file.path_for(path).exists()
