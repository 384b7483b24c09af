"""The JSON save route beside the pages (reljudge.web.routes), against a real server process
(`streamlit run app.py`) on a real DuckDB file: who may save what, and that a resent
save is stored once. The browser's side of it is in test_e2e_save_route.py."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from e2e_support import StreamlitServer, build_campaign
from reljudge.campaign import assignment
from reljudge.campaign import auth
from reljudge.campaign import judging
from reljudge.storage import accounts, open_database

ACCOUNTS = {
    "annotator1": ("annotator-pass-1", "annotator"),
    "annotator2": ("annotator-pass-2", "annotator"),
    "gone": ("gone-pass-123", "annotator"),
    "lead1": ("lead-pass-0001", "lead"),
}


def post(url: str, body, token: str | None = None, headers: dict | None = None, raw: bytes | None = None):
    """(status, JSON answer, Set-Cookie header) of one POST."""
    data = raw if raw is not None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(
        url, data=data, method="POST", headers={"Content-Type": "application/json", **(headers or {})}
    )
    if token:
        req.add_header("Cookie", f"reljudge_session={token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null"), r.headers.get("Set-Cookie", "")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), exc.headers.get("Set-Cookie", "")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("api")
    camp = build_campaign(tmp / "api.duckdb", tmp / "input", n_questions=2, pool_size=4, accounts=ACCOUNTS)
    db = open_database(camp.db_path)
    assignment.assign(db, "lead1", ["annotator1", "annotator2"], per_question=1)
    queue = {u: list(judging.overview(db, u).qid) for u in ("annotator1", "annotator2")}
    tokens = {u: auth.start_session(db, auth.User(u, "annotator")) for u in ("annotator1", "gone")}
    expired = "expired-token-for-annotator1"
    accounts.insert_session(db, auth._token_hash(expired), "annotator1", -1)  # ended an hour ago
    auth.set_active(db, "gone", False)
    db.close()
    server = StreamlitServer(db_path=camp.db_path, log_path=tmp / "server.log").start()
    try:
        yield server, camp, queue, tokens, expired
    finally:
        server.stop()


def event(qid: str, pid: str, grade=2, **extra) -> dict:
    import uuid

    return {"id": str(uuid.uuid4()), "kind": "grade", "qid": qid, "pid": pid, "grade": grade, **extra}


def test_the_route_refuses_saves_without_a_valid_login(served):
    server, camp, queue, tokens, expired = served
    qid = queue["annotator1"][0]
    batch = {"events": [event(qid, camp.pool[qid][0])]}
    url = f"{server.url}/api/events"
    assert post(url, batch)[0] == 401  # no cookie
    assert post(url, batch, token="forged-" + tokens["annotator1"][7:])[0] == 401
    assert post(url, batch, token=expired)[0] == 401  # expired session
    assert post(url, batch, token=tokens["gone"])[0] == 401  # deactivated account
    assert post(f"{server.url}/api/login", {"username": "gone", "password": "gone-pass-123"})[0] == 401
    assert post(f"{server.url}/api/login", {"username": "annotator1", "password": "wrong-password"})[0] == 401
    assert post(f"{server.url}/api/session", {"grant": "made-up"})[0] == 401


def test_the_route_refuses_other_sites_and_bodies_that_are_not_json(served):
    server, camp, queue, tokens, _ = served
    qid = queue["annotator1"][0]
    url = f"{server.url}/api/events"
    batch = {"events": [event(qid, camp.pool[qid][0])]}
    status, answer, _ = post(url, batch, tokens["annotator1"], headers={"Origin": "https://evil.example"})
    assert status == 403 and answer["error"] == "cross_origin"
    assert (
        post(url, None, tokens["annotator1"], headers={"Content-Type": "text/plain"}, raw=json.dumps(batch).encode())[0]
        == 415
    )
    assert post(url, None, tokens["annotator1"], raw=b"{not json")[0] == 400
    assert post(url, {"events": "all of them"}, tokens["annotator1"])[0] == 400
    assert declared_too_large(server, tokens["annotator1"]) == 413


def declared_too_large(server, token: str) -> int:
    """A body announced as 2 MB is refused from its header, before it is read."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.putrequest("POST", "/api/events")
        for name, value in (
            ("Content-Type", "application/json"),
            ("Content-Length", "2000000"),
            ("Cookie", f"reljudge_session={token}"),
        ):
            conn.putheader(name, value)
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_each_event_is_checked_like_the_pages_check_it(served):
    server, camp, queue, tokens, _ = served
    mine, theirs = queue["annotator1"][0], queue["annotator2"][0]
    good = event(mine, camp.pool[mine][0], 1, note="근거 문장이 분명함")
    others = event(theirs, camp.pool[theirs][0])  # another annotator's question
    unpooled = event(mine, camp.pool[theirs][1])  # a paragraph never shown for it
    bad_grade = event(mine, camp.pool[mine][1], 5)
    long_note = event(mine, camp.pool[mine][2], 0, note="가" * (judging.MAX_NOTE + 1))
    status, answer, _ = post(
        f"{server.url}/api/events", {"events": [good, others, unpooled, bad_grade, long_note]}, tokens["annotator1"]
    )
    assert status == 200
    assert answer["acked"] == [good["id"]] and set(answer["eids"]) == {good["id"]}
    assert answer["rejected"] == {
        others["id"]: "not_assigned",
        unpooled["id"]: "not_pooled",
        bad_grade["id"]: "malformed",
        long_note["id"]: "malformed",
    }


def test_poisoned_events_are_refused_by_code_and_the_rest_of_the_request_is_stored(served):
    """Values that used to pass the parser and fail the transaction (a 500 for everyone
    grouped with them): each is refused on its own; the good event beside them is acked."""
    server, camp, queue, tokens, _ = served
    qid = queue["annotator1"][0]
    pid = camp.pool[qid][1]
    poisoned = [
        event(qid, pid, 1, base=1e30),
        event(qid, pid, 1, note="x\ud800y"),
        event(qid, pid, True),
        event(qid, pid, 2.0),
        {**event(qid, pid), "kind": "verdict", "no_answer": "false"},
    ]
    good = event(qid, pid, 0)
    status, answer, _ = post(f"{server.url}/api/events", {"events": poisoned + [good]}, tokens["annotator1"])
    assert status == 200
    assert answer["acked"] == [good["id"]]
    assert answer["rejected"] == {e["id"]: "malformed" for e in poisoned}
    # an id that is no string (the reply's plan part looks events up by id) is refused too
    odd = {**event(qid, pid, 1), "id": ["not", "a", "string"]}
    status, answer, _ = post(f"{server.url}/api/events", {"events": [odd, event(qid, pid, 2)]}, tokens["annotator1"])
    assert status == 200 and len(answer["acked"]) == 1 and len(answer["rejected"]) == 1, answer


def test_deeply_nested_json_is_refused_with_a_code(served):
    server, _, _, tokens, _ = served
    depth = 100_000
    body = b'{"events": ' + b"[" * depth + b"]" * depth + b"}"
    status, answer, _ = post(f"{server.url}/api/events", None, tokens["annotator1"], raw=body)
    assert status == 400 and answer["error"] == "too_deep"


def test_a_resent_save_is_acknowledged_again_and_stored_once(served):
    server, camp, queue, tokens, _ = served
    qid = queue["annotator1"][0]
    batch = {
        "events": [
            event(qid, camp.pool[qid][3], 2, client="tab-1", base=0),
            event(qid, camp.pool[qid][3], 0, client="tab-1", base=0),
        ]
    }
    first = post(f"{server.url}/api/events", batch, tokens["annotator1"])[1]
    again = post(f"{server.url}/api/events", batch, tokens["annotator1"])[1]
    assert first == again and len(first["acked"]) == 2 and first["rejected"] == {}
    assert first["eids"][batch["events"][0]["id"]] < first["eids"][batch["events"][1]["id"]]  # in order


def test_login_sets_an_httponly_cookie_and_logout_ends_it(served):
    server, camp, queue, _, _ = served
    status, answer, cookie = post(f"{server.url}/api/login", {"username": "annotator2", "password": "annotator-pass-2"})
    assert status == 200 and answer == {"username": "annotator2", "role": "annotator"}
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower() and "Path=/" in cookie
    token = cookie.split(";")[0].split("=", 1)[1]
    qid = queue["annotator2"][0]
    assert post(f"{server.url}/api/events", {"events": [event(qid, camp.pool[qid][0])]}, token)[1]["rejected"] == {}
    status, _, cleared = post(f"{server.url}/api/logout", {}, token)
    assert status == 200 and "reljudge_session=" in cleared and "Max-Age=0" in cleared
    assert post(f"{server.url}/api/events", {"events": [event(qid, camp.pool[qid][1])]}, token)[0] == 401


def test_what_the_route_acknowledged_is_in_the_file(served):
    """Run last in this module: stops the server to read the file (DuckDB: one process)."""
    server, camp, queue, tokens, _ = served
    qid = queue["annotator1"][1] if len(queue["annotator1"]) > 1 else queue["annotator1"][0]
    events = [event(qid, pid, k % 3) for k, pid in enumerate(camp.pool[qid])]
    answer = post(f"{server.url}/api/events", {"events": events}, tokens["annotator1"])[1]
    server.stop()
    db = open_database(camp.db_path)
    stored = dict(db.cursor().execute("SELECT client_event_id, count(*) FROM judgment_events GROUP BY ALL").fetchall())
    db.close()
    assert all(stored.get(cid) == 1 for cid in answer["acked"]) and len(answer["acked"]) == len(events)
