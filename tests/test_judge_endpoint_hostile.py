"""The endpoint judge's client against a hostile or broken OpenAI-compatible server (issue
34, points 7-10): real sockets on loopback (tests/judge_server.py's RawServer writes the
answers by hand), the real runner and CLI, the real DuckDB file.

- a redirect is never followed, so the API key never reaches another origin;
- an answer over 1 MB is refused after at most 1 MB + 1 byte is read;
- ``--timeout`` is a deadline for the whole request, not for each read;
- what an endpoint says (reason phrase, status line, Location, ``model``, the answer) is
  stored and printed shortened, with control and bidi characters made visible, and the
  key masked as ``***``.
"""

from __future__ import annotations

import time

import pytest

from reljudge.campaign import judging
from reljudge.cli.main import main
from reljudge.judges import endpoint, runner
from reljudge.judges.endpoint import EndpointJudge
from reljudge.storage import judge_sources, open_database

from conftest import load_small_campaign
from judge_server import RawServer, chat_answer, http_answer

pytestmark = pytest.mark.model_judge

KEY = "sk-hostile-0123456789abcdefXYZ"
MB = 1024 * 1024


@pytest.fixture
def small_db(db_path, files):
    db = load_small_campaign(open_database(db_path), files)
    yield db
    db.close()


@pytest.fixture
def servers():
    """RawServers made by the test, all closed after it."""
    made = []

    def make(behaviour):
        s = RawServer(behaviour)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def graded(conn, head, body, server):
    server.send(conn, http_answer(chat_answer("M: 2\n##final score: 2")))


def stored_text(db) -> str:
    """Every row the judge stores, as one string."""
    cur = db.cursor()
    rows = cur.execute("SELECT * FROM judge_sources").fetchall()
    rows += cur.execute("SELECT * FROM judge_errors").fetchall()
    rows += cur.execute("SELECT * FROM external_qrels").fetchall()
    return repr(rows)


# -- clean_text ------------------------------------------------------------------------------


def test_clean_text_marks_controls_bounds_and_masks():
    clean_text = endpoint.clean_text
    assert clean_text("plain 한국어", 100) == "plain 한국어"
    assert clean_text("a\nb\tc\r\nd", 100) == "a b c  d"  # one line
    assert clean_text("a\nb\tc", 100, one_line=False) == "a\nb\tc"
    shown = clean_text("x\x1b[31mred\u202eevil\u2066y\x00\x85", 100)
    for ch in "\x1b\u202e\u2066\x00\x85":
        assert ch not in shown
    assert "⟨U+001B⟩[31mred⟨U+202E⟩evil⟨U+2066⟩y" in shown
    long = clean_text("z" * 10_000, 50)
    assert len(long) == 50 and long.endswith("…")
    assert clean_text(f"k={KEY} again {KEY}", 100, secret=KEY) == "k=*** again ***"
    # a key straddling the cut is masked before the cut: no prefix of it survives
    cut = clean_text("a" * 40 + KEY, 45, secret=KEY)
    assert KEY[:4] not in cut and len(cut) <= 45
    assert clean_text(None, 10) == ""


# -- 7. redirects ----------------------------------------------------------------------------


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_is_never_followed_and_the_key_stays_home(small_db, servers, monkeypatch, code):
    monkeypatch.setenv("RJ_HOSTILE_KEY", KEY)
    elsewhere = servers(graded)  # another origin (another port) that records what reaches it
    location = f"{elsewhere.url}/v1/chat/completions?stolen={KEY}&pad={'p' * 5000}\x1b[2J"

    def redirect(conn, head, body, server):
        server.send(conn, http_answer(b"", f"{code} Moved", (f"Location: {location}",)))

    origin = servers(redirect)
    judge = EndpointJudge(origin.url, "raw", api_key_env="RJ_HOSTILE_KEY", retries=2, backoff_s=0.01)
    summary = runner.run(small_db, "redir", judge, limit=3)
    assert elsewhere.connections == 0 and elsewhere.heads == []  # nothing, so no Authorization
    assert "authorization: bearer" in origin.heads[0].lower()  # the key went to the origin only
    assert summary.errors == 3 and summary.graded == 0
    assert origin.connections == 3  # a redirect is an answer, not a failure to retry
    errors = judge_sources.errors(small_db, "redir")
    assert set(errors.kind) == {"http"}
    for detail in errors.detail:
        assert detail.startswith(f"HTTP {code}: redirects are not followed (Location {elsewhere.url}/")
        assert "***" in detail and "\x1b" not in detail and len(detail) <= 500
    assert KEY not in stored_text(small_db)


def test_the_props_question_follows_the_same_rules(small_db, servers, monkeypatch):
    """``GET /props`` (the concurrency a server offers) goes to the chat route's origin
    only, with the key; a redirect is not followed (the key never reaches the Location),
    and a server that answers so offers nothing: one request at a time."""
    monkeypatch.setenv("RJ_HOSTILE_KEY", KEY)
    elsewhere = servers(lambda conn, head, body, server: server.send(conn, http_answer(b'{"total_slots": 8}')))

    def origin_behaviour(conn, head, body, server):
        if head.startswith("GET /props "):
            server.send(conn, http_answer(b"", "302 Found", (f"Location: {elsewhere.url}/props?k={KEY}",)))
        else:
            graded(conn, head, body, server)

    origin = servers(origin_behaviour)
    judge = EndpointJudge(origin.url + "/v1", "raw", api_key_env="RJ_HOSTILE_KEY", concurrency=None)
    summary = runner.run(small_db, "props", judge, limit=2)
    assert (judge.concurrency, judge.concurrency_from) == (1, "default") and summary.graded == 2
    assert elsewhere.connections == 0 and elsewhere.heads == []
    assert origin.heads[0].startswith("GET /props ") and "authorization: bearer" in origin.heads[0].lower()
    assert [h.split(" ")[0] for h in origin.heads] == ["GET", "POST", "POST"]  # asked once

    # a huge, slow or odd /props answer is no offer either
    for answer in (b'{"total_slots": "8"}', b'{"total_slots": true}', b'{"total_slots": 0}', b"[1]", b"x" * (MB + 10)):
        odd = servers(lambda conn, head, body, server, a=answer: server.send(conn, http_answer(a)))
        assert EndpointJudge(odd.url, "raw", concurrency=None).concurrency == 1
    big = servers(lambda conn, head, body, server: server.send(conn, http_answer(b'{"total_slots": 100000}')))
    assert EndpointJudge(big.url, "raw", concurrency=None).concurrency == endpoint.MAX_OFFERED_SLOTS

    def drip(conn, head, body, server):
        server.send(conn, b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
        while not server.stop.is_set():
            server.send(conn, b" ")
            time.sleep(0.05)

    slow = servers(drip)
    started = time.monotonic()
    assert EndpointJudge(slow.url, "raw", concurrency=None, timeout_s=1).concurrency == 1
    assert time.monotonic() - started < 30  # the request deadline holds for /props too


# -- 8. the size of an answer ----------------------------------------------------------------


def streaming(framing: str, cap: int = 48 * MB):
    """An answer whose JSON never ends: declared 5 MB long (``length``), read until the
    server closes (``until-close``) or in endless chunks (``chunked``). The server stops
    at ``cap`` bytes or when the client hangs up."""

    def behaviour(conn, head, body, server):
        start = b'{"model": "big", "choices": [{"message": {"content": "'
        piece = b"x" * 65536
        if framing == "length":
            total = 5 * MB
            server.send(conn, f"HTTP/1.1 200 OK\r\nContent-Length: {total}\r\n\r\n".encode() + start)
            sent = len(start)
            while sent < total:
                server.send(conn, piece[: total - sent])
                sent += len(piece)
            return
        chunked = framing == "chunked"
        extra = "Transfer-Encoding: chunked\r\n" if chunked else ""
        server.send(conn, f"HTTP/1.1 200 OK\r\n{extra}Connection: close\r\n\r\n".encode())
        for data in [start] + [piece] * (cap // len(piece)):
            server.send(conn, b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)

    return behaviour


@pytest.mark.parametrize("framing", ["length", "until-close", "chunked"])
def test_an_answer_over_1_mb_is_refused_not_read(servers, framing):
    server = servers(streaming(framing))
    judge = EndpointJudge(server.url, "raw", retries=2, backoff_s=0.01, timeout_s=60)
    out = judge.grade_one("q1", "p1", "질문", "", "문단")
    assert out.kind == "response" and out.detail == "answer larger than 1 MB, not read"
    assert out.grade is None and out.answer is None
    assert server.connections == 1  # refused, not retried
    if framing != "length":  # 5 MB may fit in loopback's buffers; an endless answer cannot
        assert server.ended.wait(30)
        assert server.ends == ["peer closed"]  # the client hung up: the read stopped
        assert server.sent < 48 * MB


def test_an_answer_just_under_1_mb_is_read(servers):
    content = "y" * (MB - 200) + "\n##final score: 1"
    server = servers(lambda conn, head, body, s: s.send(conn, http_answer(chat_answer(content))))
    out = EndpointJudge(server.url, "raw").grade_one("q1", "p1", "질문", "", "문단")
    assert out.grade == 1


# -- 9. the deadline ---------------------------------------------------------------------------


def dripping(phase: str, for_s: float = 20.0):
    """One byte every 0.3 s, in the headers or in the body, for ``for_s`` seconds at most
    (so that an unbounded client ends too, late, instead of hanging the test)."""

    def behaviour(conn, head, body, server):
        if phase == "headers":
            server.send(conn, b"HTTP/1.1 200 OK\r\nX-Drip: ")
        else:
            server.send(conn, b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{")
        until = time.monotonic() + for_s
        while time.monotonic() < until and not server.stop.wait(0.3):
            server.send(conn, b"a")

    return behaviour


@pytest.mark.parametrize("phase", ["headers", "body"])
def test_the_timeout_is_a_deadline_for_the_whole_request(servers, phase):
    server = servers(dripping(phase))
    judge = EndpointJudge(server.url, "raw", retries=0, timeout_s=1.5)
    start = time.monotonic()
    out = judge.grade_one("q1", "p1", "질문", "", "문단")
    elapsed = time.monotonic() - start
    assert out.kind == "request" and out.detail.startswith("no complete answer within 1.5 s")
    assert elapsed < 10  # generous: the deadline is 1.5 s; unbounded, the drip lasts 20 s


def test_a_request_past_its_deadline_is_retried_and_recorded(small_db, servers):
    server = servers(dripping("body"))
    start = time.monotonic()
    summary = runner.run(
        small_db, "drip", EndpointJudge(server.url, "raw", retries=1, backoff_s=0.01, timeout_s=1), limit=1
    )
    elapsed = time.monotonic() - start
    assert summary.errors == 1 and server.connections == 2
    errors = judge_sources.errors(small_db, "drip")
    assert errors.kind.tolist() == ["request"]
    assert errors.detail.tolist() == ["no complete answer within 1 s (after 2 attempts)"]
    assert elapsed < 20


def test_the_cli_says_timeout_is_a_deadline(capsys):
    with pytest.raises(SystemExit):
        main(["auto-judge", "--help"])
    assert "deadline for the whole request" in " ".join(capsys.readouterr().out.split())


# -- 10. what a hostile endpoint says, stored and printed ------------------------------------------


def auto_judge(db_path, source: str, url: str, *extra: str) -> int:
    args = ["--db", str(db_path), "auto-judge", "--source", source, "--endpoint", url, "--model", "raw"]
    return main(args + ["--api-key-env", "RJ_HOSTILE_KEY", "--retries", "0", *extra])


@pytest.fixture
def cli_db(db_path, files, monkeypatch):
    monkeypatch.setenv("RJ_HOSTILE_KEY", KEY)
    db = load_small_campaign(open_database(db_path), files)
    for pid, grade in (("p01", 2), ("p02", 1), ("p03", 0)):
        judging.grade(db, "ann", "q1", pid, grade)
    db.close()
    return db_path


def test_a_reason_phrase_and_a_status_line_carrying_the_key_are_stored_masked(cli_db, servers, capsys):
    reason = f"{KEY} boom \x1b[2J\x1b]0;title\x07 " + "z" * 3000

    def error_500(conn, head, body, server):
        server.send(conn, f"HTTP/1.1 500 {reason}\r\nContent-Length: 0\r\n\r\n".encode("latin-1"))

    def bad_status(conn, head, body, server):
        server.send(conn, f"XTTP/9 {KEY} \x1b[31m{'w' * 3000}\r\n\r\n".encode("latin-1"))

    for source, behaviour in (("r500", error_500), ("rbad", bad_status)):
        assert auto_judge(cli_db, source, servers(behaviour).url, "--limit", "2") == 0
    capsys.readouterr()
    db = open_database(cli_db)
    try:
        e500 = judge_sources.errors(db, "r500")
        assert set(e500.kind) == {"http"} and len(e500) == 2
        assert all(d.startswith("HTTP 500 *** boom ⟨U+001B⟩[2J") for d in e500.detail)
        ebad = judge_sources.errors(db, "rbad")
        assert set(ebad.kind) == {"request"} and len(ebad) == 2
        assert all("BadStatusLine" in d and "***" in d for d in ebad.detail)
        for detail in list(e500.detail) + list(ebad.detail):
            assert len(detail) <= 500 and "\x1b" not in detail and "\x07" not in detail
        assert KEY not in stored_text(db)
    finally:
        db.close()


def test_a_hostile_model_field_and_answer_are_bounded_masked_and_calibrate_prints_them_so(cli_db, servers, capsys):
    model = "\x1b[2J\x1b[31m" + "m" * 200_000 + "\u202e" + KEY

    def echo(conn, head, body, server):
        auth = next(line for line in head.split("\r\n") if line.lower().startswith("authorization:"))
        if b"p01" in body or b"p02" in body:  # graded, so calibrate has pairs to compare
            content = f"{auth}\n##final score: 2"
        else:  # unparsable: the raw answer is stored
            content = f"you sent {auth}\x1b[2J\u2067 " + "y" * 10_000
        server.send(conn, http_answer(chat_answer(content, model=model)))

    assert auto_judge(cli_db, "echo", servers(echo).url) == 0
    capsys.readouterr()
    db = open_database(cli_db)
    try:
        version = judge_sources.meta(db, "echo")["model_version"]
        assert len(version) <= 200 and version.endswith("…")
        assert version.startswith("⟨U+001B⟩[2J⟨U+001B⟩[31mmmm") and "\x1b" not in version
        errors = judge_sources.errors(db, "echo")
        assert len(errors) and set(errors.kind) == {"unparsable"}
        for answer in errors.answer:
            assert answer.startswith("you sent Authorization: Bearer ***⟨U+001B⟩[2J⟨U+2067⟩ yyy")
            assert len(answer) <= 4000
        assert KEY not in stored_text(db)
    finally:
        db.close()
    assert main(["--db", str(cli_db), "calibrate", "echo", "--against", "annotator:ann"]) == 0
    out = capsys.readouterr().out
    assert KEY not in out and "\x1b" not in out and "\u202e" not in out
    assert max(len(line) for line in out.splitlines()) < 400


def test_calibrate_bounds_a_version_stored_before_the_fix(cli_db, capsys):
    db = open_database(cli_db)
    try:
        judge_sources.record_source(db, "old", "endpoint", "raw", "\x1b[2J" + "v" * 200_000, "p", "s", "{}")
    finally:
        db.close()
    assert main(["--db", str(cli_db), "calibrate", "old", "--against", "annotator:ann"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and max(len(line) for line in out.splitlines()) < 400
