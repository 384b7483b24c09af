"""The team server end to end: app processes (`streamlit run app.py`) on one PostgreSQL
database. A save through one is seen through the other; when PostgreSQL goes away the
save route answers a retryable 503 (the browser's outbox keeps the events), and once the
server is back the same post is stored once, without restarting the app."""

from __future__ import annotations

import uuid

import pytest

from e2e_support import StreamlitServer, build_campaign
from postgres_support import PostgresServer
from reljudge.campaign import auth
from reljudge.campaign import judging
from reljudge.storage import open_database
from test_api_routes import post

ACCOUNTS = {"annotator1": ("annotator-pass-1", "annotator"), "lead1": ("lead-pass-0001", "lead")}


def _event(qid, pid, grade=2):
    return {"id": str(uuid.uuid4()), "kind": "grade", "qid": qid, "pid": pid, "grade": grade}


def _stored(url: str, client_id: str) -> int:
    db = open_database(url)
    try:
        return (
            db.cursor()
            .execute("SELECT count(*) FROM judgment_events WHERE client_event_id = ?", [client_id])
            .fetchone()[0]
        )
    finally:
        db.close()


@pytest.fixture
def own_server():
    """A PostgreSQL server of this test's own (it is stopped and started again)."""
    try:
        server = PostgresServer(durable=True)
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"cannot start PostgreSQL for the tests: {exc}", pytrace=False)
    yield server
    server.destroy()


def test_a_lost_database_gives_a_retryable_error_and_the_resent_post_is_stored_once(own_server, tmp_path):
    url = own_server.url(own_server.new_database())
    camp = build_campaign(url, tmp_path / "input", n_questions=2, pool_size=4, accounts=ACCOUNTS)
    db = open_database(url)
    token = auth.start_session(db, auth.User("annotator1", "annotator"))
    db.close()
    qid = camp.qids[0]
    with StreamlitServer(db_path=url, log_path=tmp_path / "app.log") as app:
        route = f"{app.url}/api/events"
        first = _event(qid, camp.pool[qid][0])
        status, answer, _ = post(route, {"events": [first]}, token)
        assert status == 200 and answer["acked"] == [first["id"]], answer
        own_server.stop("immediate")  # acknowledged: must survive this
        second = _event(qid, camp.pool[qid][1], 1)
        status, answer, _ = post(route, {"events": [second]}, token)
        assert status == 503 and answer["error"] == "db_unavailable", (status, answer, app.log_tail())
        own_server.start()
        status, answer, _ = post(route, {"events": [second]}, token)  # the outbox resends
        assert status == 200 and answer["acked"] == [second["id"]], (status, answer, app.log_tail())
        status, answer, _ = post(route, {"events": [second]}, token)  # and resends again
        assert status == 200 and answer["acked"] == [second["id"]]
        assert "Traceback" not in app.log_tail(20000)
    assert _stored(url, first["id"]) == 1 and _stored(url, second["id"]) == 1


def test_two_app_processes_serve_one_database(pg_server, tmp_path):
    url = pg_server.url(pg_server.new_database())
    camp = build_campaign(url, tmp_path / "input", n_questions=2, pool_size=4, accounts=ACCOUNTS)
    db = open_database(url)
    token = auth.start_session(db, auth.User("annotator1", "annotator"))
    with (
        StreamlitServer(db_path=url, log_path=tmp_path / "a.log") as one,
        StreamlitServer(db_path=url, log_path=tmp_path / "b.log") as two,
    ):
        qid = camp.qids[0]
        events = [_event(qid, pid, g) for pid, g in zip(camp.pool[qid], (2, 1, 0, 2))]
        for i, ev in enumerate(events):  # alternate between the processes
            app = (one, two)[i % 2]
            status, answer, _ = post(f"{app.url}/api/events", {"events": [ev]}, token)
            assert status == 200 and answer["acked"] == [ev["id"]], answer
        # The same session cookie works on both; a resend to the other process is stored once.
        status, answer, _ = post(f"{two.url}/api/events", {"events": [events[0]]}, token)
        assert status == 200 and answer["acked"] == [events[0]["id"]]
        # The CLI-side library reads the shared state while both run.
        ov = judging.overview(db, "annotator1")
        assert int(ov.loc[ov.qid == qid, "judged"].iloc[0]) == 4
    n = db.cursor().execute("SELECT count(*) FROM judgment_events").fetchone()[0]
    db.close()
    assert n == 4


def test_reljudge_serve_twice_on_one_database_and_the_cli_while_they_run(pg_server, tmp_path, capsys):
    import os
    import signal
    import subprocess
    import sys

    from e2e_support import free_port, wait_for_health
    from reljudge.cli import main as cli

    url = pg_server.url(pg_server.new_database())
    camp = build_campaign(url, tmp_path / "input", n_questions=2, pool_size=4, accounts=ACCOUNTS)
    procs, bases = [], []
    try:
        for _ in range(2):
            port = free_port()
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "reljudge", "--db", url, "serve", "--port", str(port)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        for base, proc in zip(bases, procs):
            wait_for_health(base, proc, 90, what="reljudge serve")
        # Log in through the first process; save through the second with that cookie.
        status, answer, cookie = post(
            f"{bases[0]}/api/login", {"username": "annotator1", "password": "annotator-pass-1"}
        )
        assert status == 200, answer
        token = cookie.split("reljudge_session=", 1)[1].split(";", 1)[0]
        qid = camp.qids[1]
        ev = _event(qid, camp.pool[qid][2], 2)
        status, answer, _ = post(f"{bases[1]}/api/events", {"events": [ev]}, token)
        assert status == 200 and answer["acked"] == [ev["id"]], answer
        out = tmp_path / "history.jsonl"
        capsys.readouterr()
        assert cli.main(["--db", url, "export", "judgments", "-o", str(out)]) == 0  # while both serve
        assert camp.pool[qid][2] in out.read_text(encoding="utf-8")
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=30)


def test_the_app_says_in_korean_when_postgresql_is_lost_and_recovers_without_a_restart(own_server, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from reljudge.web import routes as api
    from reljudge.ui import webapp

    secret = "pw-Secret-123"  # trust authentication: accepted, never needed
    url = own_server.url(own_server.new_database()).replace("postgres@", f"postgres:{secret}@")
    monkeypatch.setenv("RELJUDGE_DB", url)
    monkeypatch.setenv("RELJUDGE_DEMO", "1")
    monkeypatch.setattr(api, "_DATABASES", {})

    def texts(at) -> str:
        return " ".join(str(e.value) for e in list(at.error) + list(at.markdown) + list(at.warning))

    at = AppTest.from_file(str(webapp.HERE / "workbench.py"), default_timeout=60).run()
    assert not at.exception and not at.error
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("demo-lead")
    at.button[0].click().run()
    assert not at.exception and not at.error
    try:
        own_server.stop("fast")
        at.run()
        shown = texts(at)
        assert "데이터베이스 서버에 연결할 수 없습니다" in shown, shown
        assert secret not in shown and not at.exception
        own_server.start()
        at.run()
        assert not at.exception and not at.error, texts(at)
    finally:
        for db in api._DATABASES.values():
            db.close()
