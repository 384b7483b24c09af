"""`reljudge auto-judge` with a chat model (issue 39, point 1): the pre-flight ``--probe``,
``--max-tokens`` and the end mark sent as ``stop``, the concurrency the server offers
(``GET /props``), the progress lines off a terminal and the run's estimate, and
``reljudge judges errors``. Against tests/judge_server.py's real HTTP server (real e5
grades) and real DuckDB files; the real chat model is in tests/test_judges_llm.py."""

from __future__ import annotations

import io
import json
import re

import duckdb
import pytest

from reljudge.cli import judges as judges_cli
from reljudge.cli.main import main
from reljudge.errors import ReljudgeError
from reljudge.judges import prompt, runner
from reljudge.judges.endpoint import EndpointJudge
from reljudge.storage import judge_sources, open_database

from conftest import load_small_campaign
from judge_server import JudgeServer


@pytest.fixture(scope="module")
def server():
    s = JudgeServer(slots=1)
    yield s
    s.close()


@pytest.fixture
def campaign_file(db_path, files):
    db = load_small_campaign(open_database(db_path), files)
    db.close()
    return db_path


def _tables(path) -> dict[str, list]:
    """Every table's rows, sorted: what a command must leave unchanged."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        names = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()]
        return {n: sorted(map(repr, con.execute(f'SELECT * FROM "{n}"').fetchall())) for n in sorted(names)}
    finally:
        con.close()


def _auto(path, url, *extra) -> list[str]:
    return ["--db", str(path), "auto-judge", "--source", "llm", "--endpoint", url, *extra]


def test_probe_grades_n_pairs_prints_the_parse_rate_and_stores_nothing(campaign_file, server, capsys):
    before = _tables(campaign_file)
    requests = server.requests
    assert main(_auto(campaign_file, server.url, "--model", "e5-judge", "--probe", "3")) == 0
    out = capsys.readouterr().out
    assert server.requests - requests == 3
    assert "3/3 parsed (100%)" in out and "s per pair" in out and "nothing was stored" in out
    assert out.count("    answer: ") == 2 and "##final score:" in out
    assert "⏎" in out  # the answer's line breaks shown, on one line
    assert _tables(campaign_file) == before  # no grade, no error, no source recorded


def test_a_probe_with_nothing_parsed_says_so_with_a_hint_in_both_languages(campaign_file, server, capsys):
    before = _tables(campaign_file)
    assert main(_auto(campaign_file, server.url, "--model", "e5-garbled", "--probe", "2")) == 0
    captured = capsys.readouterr()
    assert "0/2 parsed (0%)" in captured.out and "unparsable" in captured.out
    assert (
        "--max-tokens" in captured.err and "시험 판정" in captured.err and "the probe parsed no answer" in captured.err
    )
    assert _tables(campaign_file) == before


def test_a_probe_answer_is_escaped_for_a_terminal(campaign_file, capsys):
    from judge_server import RawServer, chat_answer, http_answer

    def behaviour(conn, head, body, srv):
        srv.send(conn, http_answer(chat_answer("\x1b[2J\x1b]0;pwned\x07 " + "가" * 2000)))

    raw = RawServer(behaviour)
    try:
        assert main(_auto(campaign_file, raw.url, "--model", "raw", "--probe", "1", "--concurrency", "1")) == 0
    finally:
        raw.close()
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "⟨U+001B⟩" in out
    answer = next(line for line in out.splitlines() if line.startswith("    answer: "))
    assert len(answer) <= len("    answer: ") + judges_cli.PROBE_ANSWER_CHARS and answer.endswith("…")


def test_max_tokens_and_the_end_mark_as_stop_are_sent(campaign_file, server):
    start = len(server.bodies)
    assert main(_auto(campaign_file, server.url, "--model", "e5-judge", "--limit", "2", "--max-tokens", "40")) == 0
    assert [(b["max_tokens"], b["stop"]) for b in server.bodies[start:]] == [(40, [prompt.END_MARK])] * 2
    start = len(server.bodies)
    assert main(_auto(campaign_file, server.url, "--model", "e5-judge", "--limit", "1")) == 0
    assert server.bodies[start]["max_tokens"] == prompt.DEFAULT_MAX_TOKENS == 128
    # the stop removed the end mark, not the score line: every pair graded
    db = open_database(campaign_file)
    try:
        assert len(judge_sources.graded_keys(db, "llm")) == 3 and judge_sources.errors(db, "llm").empty
        assert json.loads(judge_sources.meta(db, "llm")["settings"])["stop"] == [prompt.END_MARK]
    finally:
        db.close()


def test_the_prompt_asks_for_the_end_mark_after_the_score_line():
    assert prompt.PROMPT_TEMPLATE.endswith("##final score: N\n" + prompt.END_MARK)
    assert prompt.parse_final_score("M: ok.\n##final score: 2\n") == 2  # the stop removed the mark
    assert prompt.parse_final_score("M: ok.\n##final score: 1\n##end") == 1  # a server that ignored the stop
    assert prompt.parse_final_score("M: ok.\n##end\n##final score: 1\nmore") is None


def test_concurrency_defaults_to_the_servers_total_slots_else_one(db_path, files):
    db = load_small_campaign(open_database(db_path), files)
    one, three, none = JudgeServer(slots=1, delay_s=0.05), JudgeServer(slots=3), JudgeServer()
    try:
        judge = EndpointJudge(one.url, "e5-judge", concurrency=None)
        runner.run(db, "one", judge, limit=4)
        assert judge.concurrency == 1 and judge.concurrency_from == "server" and one.max_in_flight == 1
        assert [path for path, _ in one.gets] == ["/props"]  # asked once
        assert json.loads(judge_sources.meta(db, "one")["settings"])["concurrency_from"] == "server"
        assert EndpointJudge(three.url + "/v1", "e5-judge", concurrency=None).concurrency == 3
        judge = EndpointJudge(none.url, "e5-judge", concurrency=None)
        assert (judge.concurrency, judge.concurrency_from) == (1, "default")
        # given wins, and the server is not asked
        judge = EndpointJudge(three.url, "e5-judge", concurrency=2)
        gets = len(three.gets)
        assert judge.concurrency == 2 and len(three.gets) == gets
    finally:
        for s in (one, three, none):
            s.close()
        db.close()


def test_the_cli_default_concurrency_asks_the_server(campaign_file):
    srv = JudgeServer(slots=2)
    try:
        assert main(_auto(campaign_file, srv.url, "--model", "e5-judge", "--limit", "1")) == 0
        assert [path for path, _ in srv.gets] == ["/props"]
        assert main(["--db", str(campaign_file), "auto-judge", "--source", "x", "--endpoint", srv.url, "--model", "e5-judge", "--limit", "1", "--concurrency", "3"]) == 0  # fmt: skip
        assert len(srv.gets) == 1
    finally:
        srv.close()
    db = open_database(campaign_file)
    try:
        assert json.loads(judge_sources.meta(db, "llm")["settings"])["concurrency"] == 2
        assert json.loads(judge_sources.meta(db, "x")["settings"])["concurrency"] == 3
    finally:
        db.close()


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_off_a_terminal_every_interval_and_an_estimate_after_the_first_pairs():
    clock, stream = _Clock(), io.StringIO()
    show = judges_cli.Progress("smol", stream=stream, tty=False, interval=5.0, clock=clock)
    for t, done in ((2, 1), (4, 2), (6, 3), (8, 4), (11.5, 5), (13, 6)):
        clock.now = 100.0 + t
        show(done, 10, done - 1, 1)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "smol: 3/10 · graded 2 · errors 1 · elapsed 6 s · ETA 14 s" or lines[0].startswith(
        "smol: estimate"
    )
    assert "smol: estimate for the whole run 20 s (10 pairs at 2.0 s per pair)" in lines
    status = [line for line in lines if "ETA" in line]
    # a line at 6 s (5 s since the start) and at 11.5 s (5.5 s later), none in between
    assert status == [
        "smol: 3/10 · graded 2 · errors 1 · elapsed 6 s · ETA 14 s",
        "smol: 5/10 · graded 4 · errors 1 · elapsed 12 s · ETA 12 s",
    ]
    clock.now = 200.0
    show(10, 10, 9, 1)  # the end is always said
    assert stream.getvalue().splitlines()[-1] == "smol: 10/10 · graded 9 · errors 1 · elapsed 1 min 40 s · ETA 0 s"
    assert "\x1b" not in stream.getvalue()


def test_progress_at_a_terminal_gives_the_estimate_too():
    clock, stream = _Clock(), io.StringIO()
    show = judges_cli.Progress("smol", stream=stream, tty=True, clock=clock)
    for done in range(1, 5):
        clock.now += 3
        show(done, 100, done, 0)
    assert stream.getvalue().count("estimate for the whole run 5 min 00 s (100 pairs at 3.0 s per pair)") == 1


def test_auto_judge_writes_progress_lines_to_a_log(campaign_file, server, capsys, monkeypatch):
    monkeypatch.setattr(judges_cli, "PROGRESS_SECONDS", 0.0)  # a line each pair, no waiting
    assert main(_auto(campaign_file, server.url, "--model", "e5-judge", "--limit", "4")) == 0
    err = capsys.readouterr().err
    assert [line.split(" · ")[0] for line in err.splitlines() if "ETA" in line] == [f"llm: {i}/4" for i in range(1, 5)]
    assert err.count("llm: estimate for the whole run") == 1


def test_judges_errors_lists_and_exports_what_the_model_could_not_grade(campaign_file, server, capsys, tmp_path):
    assert main(_auto(campaign_file, server.url, "--model", "e5-garbled", "--limit", "9")) == 0
    capsys.readouterr()
    base = ["--db", str(campaign_file), "judges", "errors", "--source", "llm"]
    assert main(base + ["--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["source"] == "llm" and len(data["errors"]) == 9
    row = data["errors"][0]
    assert set(row) == {"qid", "pid", "kind", "detail", "answer", "created_at"}
    assert row["kind"] == "unparsable" and row["answer"]
    # like every export, in the campaign's zone (Asia/Seoul by default) with its offset (39.1)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00", row["created_at"]), row["created_at"]
    out = tmp_path / "errors.tsv"
    assert main(base + ["--format", "tsv", "--output", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "qid\tpid\tkind\tdetail\tanswer\tcreated_at" and len(lines) == 10
    assert all(len(line.split("\t")) == 6 for line in lines)  # the answers' line breaks escaped
    broken = [r for r in data["errors"] if "\n" in r["answer"]]
    assert broken and sum("\\n" in line for line in lines[1:]) == len(broken)
    assert main(base) == 0
    table = capsys.readouterr().out
    assert "9 pairs the model could not grade" in table and table.count("    answer: ") == 9


def test_judges_errors_of_an_unknown_source_names_it(campaign_file, capsys):
    assert main(["--db", str(campaign_file), "judges", "errors", "--source", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "'nosuch'" in err and "Traceback" not in err


def test_a_source_graded_under_another_prompt_is_not_continued(campaign_file, server):
    db = open_database(campaign_file)
    try:
        judge = EndpointJudge(server.url, "e5-judge")
        # a source with no grade under an old prompt is taken over (its errors are tried again)
        judge_sources.record_source(db, "old", "endpoint", "e5-judge", "v", "old prompt", "ab" * 32, "{}")
        runner.check_source(db, "old", "endpoint", "e5-judge", prompt.prompt_sha256())
        runner.run(db, "old", judge, limit=1)
        assert judge_sources.meta(db, "old")["prompt_sha256"] == prompt.prompt_sha256()
        # once it holds grades made under another prompt, it is not continued under this one
        judge_sources.record_source(db, "old", "endpoint", "e5-judge", "v", "old prompt", "ab" * 32, "{}")
        with pytest.raises(ReljudgeError) as caught:
            runner.run(db, "old", judge, limit=1)
        assert caught.value.message.code == "judge_error_other_prompt"
        assert "abababababab" in str(caught.value) and prompt.prompt_sha256()[:12] in str(caught.value)
        with pytest.raises(ReljudgeError):
            runner.probe(db, "old", judge, 1)
        assert len(judge_sources.graded_keys(db, "old")) == 1
        # the same prompt continues as before
        runner.run(db, "same", judge, limit=1)
        runner.run(db, "same", judge, limit=1)
        assert len(judge_sources.graded_keys(db, "same")) == 2
    finally:
        db.close()
