"""Shared fixtures: real databases (a DuckDB file in tmp_path, and a PostgreSQL database
on a server the suite starts itself) and a small Korean campaign.

Every test that takes ``db`` (or ``campaign_db``) runs on both backends (``backend``:
duckdb, postgresql), unless it also takes ``db_path`` — those open the file by its path
themselves and stay on the DuckDB file. Without PostgreSQL's server binaries the
postgresql cases fail (CI installs them: scripts/test.sh)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.storage import open_database

import e2e_support
import hypothesis_profiles  # noqa: F401  (loads HYPOTHESIS_PROFILE before the test modules)
from postgres_support import PostgresServer

BACKENDS = ("duckdb", "postgresql")

# Argon2id with its smallest parameters for the thousands of accounts the suite creates, in
# this process and in every server or CLI process it starts (which inherit the environment);
# tests/test_auth.py checks the default parameters where they are the subject.
os.environ.setdefault(auth.PASSWORD_HASHING_ENV, "fast")

PARAGRAPHS = [
    # pid, doc, position, text
    ("p01", "d1", 1, "감사는 받은 것을 헤아리는 데서 시작됩니다."),
    ("p02", "d1", 2, "감사의 생활이란 날마다 작은 은혜를 기록하는 것입니다."),
    ("p03", "d1", 3, "그날 강연은 봄비 속에서 열렸습니다."),
    ("p04", "d2", 1, "용서는 상대를 위한 것이기 전에 나를 살리는 일입니다."),
    ("p05", "d2", 2, "가정의 평화는 서로의 말을 끝까지 듣는 데서 옵니다."),
    ("p06", "d3", 1, "감사는 받은 것을 헤아리는 데서 시작됩니다."),  # exact duplicate of p01
    ("p07", "d3", 2, "감사는, 받은 것을  헤아리는 데서 시작됩니다!"),  # near duplicate of p01
    ("p08", "d3", 3, "봉사는 보이지 않는 곳에서 더 빛납니다."),
]
QUESTIONS = [
    ("q1", "감사의 생활은 무엇이라고 설명되는가?", "사실 확인", "감사의 생활을 직접 정의한 문단"),
    ("q2", "용서와 가정의 평화는 어떤 관계인가?", "개념 관계", "용서와 평화를 함께 설명한 문단"),
    ("q3", "우주 탐사에 대한 견해는?", "전역 주제", "해당 없음"),
]
RUN_A = """q1 Q0 p02 1 9.0 bm25
q1 Q0 p01 2 8.0 bm25
q1 Q0 p06 3 8.0 bm25
q1 Q0 p03 4 1.0 bm25
q2 Q0 p04 1 5.0 bm25
q2 Q0 p05 2 4.0 bm25
q3 Q0 p08 1 0.5 bm25
"""
RUN_B = """q1 Q0 p07 1 0.9 vector
q1 Q0 p08 2 0.8 vector
q2 Q0 p05 1 0.7 vector
q2 Q0 p03 2 0.6 vector
q3 Q0 p03 1 0.1 vector
"""


def write_campaign_files(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus.jsonl"
    corpus.write_text(
        "".join(
            json.dumps(
                {
                    "pid": pid,
                    "doc_id": doc,
                    "title": f"[예시] 문서 {doc}",
                    "date": "1980-01-01",
                    "volume": "1",
                    "page": str(pos * 10),
                    "position": pos,
                    "text": text,
                },
                ensure_ascii=False,
            )
            + "\n"
            for pid, doc, pos, text in PARAGRAPHS
        ),
        encoding="utf-8",
    )
    questions = folder / "questions.jsonl"
    questions.write_text(
        "".join(
            json.dumps(
                {"qid": qid, "text": text, "type": qtype, "criteria": crit, "no_answer_expected": qid == "q3"},
                ensure_ascii=False,
            )
            + "\n"
            for qid, text, qtype, crit in QUESTIONS
        ),
        encoding="utf-8",
    )
    run_a = folder / "bm25.trec"
    run_a.write_text(RUN_A, encoding="utf-8")
    run_b = folder / "vector.trec"
    run_b.write_text(RUN_B, encoding="utf-8")
    return {"corpus": corpus, "questions": questions, "run_a": run_a, "run_b": run_b}


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "judgments" / "test.duckdb"


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        if "db_path" in metafunc.fixturenames and "db" in metafunc.fixturenames:
            metafunc.parametrize("backend", ["duckdb"], indirect=True)
        else:
            metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request) -> str:
    return getattr(request, "param", "duckdb")


def _browser_module(module) -> bool:
    marks = getattr(module, "pytestmark", [])
    marks = marks if isinstance(marks, list) else [marks]
    return any(getattr(mark, "name", None) == "browser" for mark in marks)


@pytest.fixture(scope="module", autouse=True)
def _one_chromium_per_browser_module(request):
    """One chromium for all the tests of a browser module (``pytestmark = browser``):
    launching one per test cost seconds each on two busy cores. Each test still gets fresh
    browser contexts (e2e_support.chromium closes those it left open), and the browser is
    closed when the module ends, so no Playwright driver outlives its module."""
    if not _browser_module(request.module):
        yield
        return
    e2e_support.share_chromium(True)
    try:
        yield
    finally:
        e2e_support.share_chromium(False)


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the session (fails, not skips, without the binaries)."""
    try:
        server = PostgresServer()
    except Exception as exc:  # noqa: BLE001 — reported as the failure
        pytest.fail(f"cannot start PostgreSQL for the tests: {exc}", pytrace=False)
    yield server
    server.destroy()


@pytest.fixture(scope="session")
def pg_template(pg_server) -> str:
    """A database with every migration applied, cloned for each test."""
    name = pg_server.new_database()
    open_database(pg_server.url(name)).close()
    return name


@pytest.fixture
def pg_url(pg_server, pg_template) -> str:
    """A fresh, migrated PostgreSQL database of its own."""
    return pg_server.url(pg_server.new_database(template=pg_template))


@pytest.fixture(scope="session")
def duckdb_template(tmp_path_factory) -> Path:
    """A DuckDB file with every migration applied, copied for each test (applying them
    all to a new file costs about a second on two busy cores; a copy, milliseconds).
    The tests of migrating a new file open their own paths (``db_path``, test_upgrade)."""
    path = tmp_path_factory.mktemp("duckdb-template") / "template.duckdb"
    open_database(path).close()  # closed: checkpointed, no write-ahead log beside it
    return path


@pytest.fixture
def db_target(backend, request, tmp_path):
    """Where ``db`` lives: the DuckDB file (a copy of the migrated template, with its
    owner-only mode) or a fresh PostgreSQL database's URL."""
    if backend == "postgresql":
        return request.getfixturevalue("pg_url")
    path = tmp_path / "judgments" / "test.duckdb"
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(request.getfixturevalue("duckdb_template"), path)
    return path


@pytest.fixture
def db(db_target):
    database = open_database(db_target)
    yield database
    database.close()


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    return write_campaign_files(tmp_path / "input")


def load_small_campaign(db, files: dict[str, Path], users=("ann", "bob", "lee")):
    """The small campaign into ``db``: corpus, questions, two runs, pooled at depth 10, and
    the accounts named in ``users`` (ann and bob annotate, lee leads)."""
    campaign.import_file(db, "corpus", files["corpus"])
    campaign.import_file(db, "questions", files["questions"])
    campaign.import_file(db, "run", files["run_a"])
    campaign.import_file(db, "run", files["run_b"])
    campaign.pool(db, 10)
    for name in users:
        auth.add_user(db, name, f"password-{name}", "lead" if name == "lee" else "annotator")
    return db


@pytest.fixture
def campaign_db(db, files):
    """A database holding the small campaign, pooled at depth 10, with accounts."""
    return load_small_campaign(db, files)


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory):
    """A DuckDB file holding the bundled demo campaign (its accounts too), made once per
    session: copy it (shutil.copy) for a test's own campaign; never open this one."""
    path = tmp_path_factory.mktemp("demo-template") / "demo.duckdb"
    db = open_database(path)
    campaign.load_demo(db)
    db.close()
    return path
