"""The small JSON routes served beside the Streamlit pages (Streamlit's ``st.App``).

Saves do not go through Streamlit reruns: the judging widget posts its outbox to
``POST /api/events`` and gets the acknowledged ids back from one short transaction.

Routes (all ``POST``, JSON bodies, same origin only):

``/api/login``    ``{"username", "password"}`` → sets the HttpOnly session cookie (scripts,
                  load tests; the browser logs in through the Streamlit form and then
                  calls ``/api/session``). 403 ``password_login_off`` when password login
                  is turned off ($RELJUDGE_PASSWORD_LOGIN=off).
``/api/session``  ``{"grant"}`` → swaps a one-time grant, issued by the Streamlit login
                  form (or the organisation login, st.login) to the browser that logged
                  in, for the HttpOnly session cookie.
``/api/logout``   ends the cookie's session and clears the cookie.
``/api/events``   ``{"events": [...], "campaign": NAME}`` (paragraph judgments and answer
                  reviews, told apart by ``kind``; ``campaign`` optional, default: the
                  default campaign) → ``{"acked": [ids], "rejected": {id: code},
                  "eids": {id: stored event id}}``. The session, and the role, assignment
                  and pool in that campaign are checked on every call, exactly as on the
                  pages (no role in the campaign, or a campaign the database does not
                  hold: the same 403 ``not_in_campaign``, so that an account cannot
                  enumerate the campaign names of the server).

The cookie is HttpOnly (page scripts cannot read it) and SameSite=Strict; a request
whose ``Origin`` names another site, or whose body is not JSON, is refused, so another
site cannot make a browser post judgments.

When the database cannot be reached (PostgreSQL down or restarting) every route answers
``503`` with ``{"error": "db_unavailable"}`` and a ``Retry-After``: the widget keeps the
events in its outbox and sends them again; the next request attaches the database anew
(no app restart), and a resent event id is stored once. When the storage fails (a full
disk, a read-only file or file system: reljudge.storage.failures) the answer is the same
``503`` with ``{"error": "storage_unavailable"}``; a DuckDB file that DuckDB invalidated
after a failed write is opened again on the next request, so saves resume once space
returns, without restarting the app. Nothing the request sent is refused for it.

This module does not import Streamlit: Starlette comes with it and is all it needs.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import threading
import time
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.campaign import events
from reljudge.campaign import judging
from reljudge.storage import failures, postgres
from reljudge.web import api as cli_api
from reljudge.errors import ReljudgeError
from reljudge.storage.db import DEFAULT_CAMPAIGN, ENV_VAR, Database, database_key, is_campaign_name, open_database

COOKIE = "reljudge_session"
MAX_BODY_BYTES = 1_000_000
MAX_EVENTS = 500
GRANT_SECONDS = 120

_DATABASES: dict[tuple[str, str], Database] = {}
_DB_LOCK = threading.Lock()


DEMO_ENV = "RELJUDGE_DEMO"


def demo_allowed(path: str | Path | None = None) -> bool:
    """The demo campaign (with accounts whose passwords are published) fills a brand-new
    database only where the README's first command puts it: the default file (no
    ``--db``, no ``$RELJUDGE_DB``), or when ``$RELJUDGE_DEMO=1`` asks for it (``reljudge
    serve`` without ``--db``). Any other new database starts empty and asks for its
    first lead account."""
    return os.environ.get(DEMO_ENV) == "1" or (path is None and not os.environ.get(ENV_VAR))


def database(path: str | Path | None = None, campaign_name: str = DEFAULT_CAMPAIGN) -> Database:
    """The process-wide database for ``path`` (default: ``--db``/``$RELJUDGE_DB``/the
    default file) and campaign, opened once and shared by the pages and the routes: DuckDB
    allows one process per file, so both must use the same connection (the campaigns of
    one file share DuckDB's one instance of it). A campaign the database does not hold
    raises ReljudgeError (and is not kept)."""
    key = database_key(path)
    with _DB_LOCK:
        db = _DATABASES.get((key, campaign_name))
        if db is None:
            db = open_database(key, campaign=campaign_name)
            if campaign_name == DEFAULT_CAMPAIGN and demo_allowed(path):
                campaign.ensure_demo(db)
            _DATABASES[(key, campaign_name)] = db
        return db


def close_databases() -> None:
    """Checkpoint and close every database this process opened (its DuckDB file then holds
    every committed change, with no write-ahead log left to replay)."""
    with _DB_LOCK:
        opened = list(_DATABASES.values())
        _DATABASES.clear()
    for db in opened:
        db.close()


@asynccontextmanager
async def lifespan(_app):
    """The web server's lifespan (``st.App(lifespan=…)``): on a clean stop — SIGTERM or
    SIGINT, which uvicorn turns into a graceful shutdown before it re-raises the signal
    (so that no ``atexit`` hook would run) — the databases are checkpointed and closed.
    At the start the database is opened (migrated), so that a new one says at once, in
    the server's log, the setup code that its first lead account needs."""
    try:
        auth.announce_setup_code(database())
    except Exception as exc:  # noqa: BLE001 — e.g. PostgreSQL not up yet: the pages say it
        print(f"reljudge: the database could not be opened yet: {exc}", flush=True)
    with cli_api.serving(database):  # the runtime file for the CLI (docs/served.md), gone before the close
        yield
    close_databases()


# -- one-time grants: the Streamlit login form → the browser's HttpOnly cookie --------
_GRANTS: dict[str, tuple[str, float]] = {}
_GRANT_LOCK = threading.Lock()


def issue_grant(token: str) -> str:
    """A random single-use code that ``/api/session`` swaps for a cookie holding
    ``token``. The Streamlit server cannot set cookies on its websocket, so the form
    hands the browser this code, never the token itself."""
    grant = secrets.token_urlsafe(24)
    now = time.monotonic()
    with _GRANT_LOCK:
        for code in [c for c, (_, t) in _GRANTS.items() if t < now]:
            del _GRANTS[code]
        _GRANTS[grant] = (token, now + GRANT_SECONDS)
    return grant


def grant_pending(grant: str | None) -> bool:
    with _GRANT_LOCK:
        hit = _GRANTS.get(grant or "")
    return hit is not None and hit[1] >= time.monotonic()


def _redeem(grant) -> str | None:
    if not isinstance(grant, str):
        return None
    with _GRANT_LOCK:
        token, expires = _GRANTS.pop(grant, (None, 0.0))
    return token if token and expires >= time.monotonic() else None


# -- request helpers ---------------------------------------------------------------------
def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _refusal(request: Request) -> JSONResponse | None:
    """Refuse cross-site and non-JSON posts before anything else is read."""
    origin = request.headers.get("origin")
    # "null" is what a sandboxed frame, a file:// page or a privacy redirect sends: not us
    if origin and (origin == "null" or urlsplit(origin).netloc != request.headers.get("host")):
        return _error(403, "cross_origin", "requests from another site are refused")
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _error(415, "not_json", "send a JSON body (Content-Type: application/json)")
    return None


async def _json_body(request: Request) -> tuple[dict | None, JSONResponse | None]:
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None, _error(413, "too_large", f"the body exceeds {MAX_BODY_BYTES} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return None, _error(413, "too_large", f"the body exceeds {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return None, _error(400, "bad_json", "the body is not valid JSON")
    except RecursionError:
        # e.g. 100,000 nested lists: refused as the request's own fault, never a 500
        return None, _error(400, "too_deep", "the body's JSON is nested too deeply")
    if not isinstance(data, dict):
        return None, _error(400, "bad_json", "the body must be a JSON object")
    return data, None


def _secure(request: Request) -> bool:
    """Served over HTTPS (directly or behind a proxy that says so): the cookie is Secure."""
    return (
        request.url.scheme == "https" or request.headers.get("x-forwarded-proto", "").split(",")[0].strip() == "https"
    )


async def _posted_json(request: Request) -> tuple[dict | None, JSONResponse | None]:
    """The JSON object a same-origin POST carries, or the refusal to answer with."""
    refused = _refusal(request)
    if refused:
        return None, refused
    return await _json_body(request)


def _with_cookie(request: Request, response: JSONResponse, token: str) -> JSONResponse:
    response.set_cookie(
        COOKIE,
        token,
        max_age=auth.SESSION_HOURS * 3600,
        path="/",
        httponly=True,
        samesite="strict",
        secure=_secure(request),
    )
    return response


RETRY_SECONDS = 2


_UNAVAILABLE = {
    "db_unavailable": "the database cannot be reached right now; keep the events and send them again",
    "storage_unavailable": "the database cannot store anything right now (its disk is full or it cannot be "
    "written); keep the events and send them again",
}


def _unavailable(code: str = "db_unavailable") -> JSONResponse:
    response = _error(503, code, _UNAVAILABLE[code])
    response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response


_storage_failing = threading.Event()


def _database_down(exc: BaseException) -> str | None:
    """The code of a 503 when the database was lost or its storage failed (not a refusal
    of the request), None otherwise. A lost server is marked for a fresh attach, a DuckDB
    file that DuckDB invalidated for reopening."""
    if isinstance(exc, postgres.DatabaseUnavailable):
        return "db_unavailable"
    if failures.is_lost_connection(exc):
        for db in list(_DATABASES.values()):
            db.note_failure(exc)  # a server's connection: attached again on its next use
        return "db_unavailable"
    if failures.is_storage_failure(exc):
        for db in list(_DATABASES.values()):
            db.note_failure(exc)  # a file that DuckDB invalidated: opened again on its next use
        if not _storage_failing.is_set():  # once per episode in the server's log
            _storage_failing.set()
            print(
                f"reljudge: saves are answered 503 (retry) while the storage fails: "
                f"{str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}",
                file=sys.stderr,
                flush=True,
            )
        return "storage_unavailable"
    return None


def _run(func, *args):
    from starlette.concurrency import run_in_threadpool

    return run_in_threadpool(func, *args)


def _guarded(route):
    """A route that answers 503 (retryable) instead of 500 when the database is down."""

    async def handler(request: Request) -> JSONResponse:
        try:
            response = await route(request)
        except Exception as exc:  # noqa: BLE001 — only a lost database is answered here
            code = _database_down(exc)
            if code:
                return _unavailable(code)
            raise
        if _storage_failing.is_set() and response.status_code < 500:
            _storage_failing.clear()
            print("reljudge: the storage works again; saves are stored", file=sys.stderr, flush=True)
        return response

    handler.__name__ = route.__name__
    return handler


# -- routes ------------------------------------------------------------------------------
async def login(request: Request) -> JSONResponse:
    data, bad = await _posted_json(request)
    if bad:
        return bad
    db = database()
    outcome = await _run(
        auth.login,
        db,
        str(data.get("username") or ""),
        str(data.get("password") or ""),
        auth.client_address(
            request.client.host if request.client else None, request.headers.getlist("x-forwarded-for")
        ),
    )
    if outcome.refusal == "wait":
        response = _error(429, "login_wait", f"too many failed logins; try again in {outcome.wait_seconds} s")
        response.headers["Retry-After"] = str(outcome.wait_seconds)
        return response
    if outcome.refusal == "disabled":
        return _error(403, "password_login_off", "password login is turned off; sign in with the organisation account")
    if outcome.refusal == "locked":
        return _error(423, "login_locked", "the account is locked after too many failed logins; a lead can unlock it")
    if outcome.user is None:
        return _error(401, "login_failed", "wrong username or password, or the account is inactive")
    user = outcome.user
    token = await _run(auth.start_session, db, user)
    return _with_cookie(request, JSONResponse({"username": user.username, "role": user.role}), token)


async def session(request: Request) -> JSONResponse:
    data, bad = await _posted_json(request)
    if bad:
        return bad
    token = _redeem(data.get("grant"))
    account = token and await _run(auth.account_for_token, database(), token)
    if not account:
        return _error(401, "bad_grant", "unknown or expired login grant")
    user = await _run(auth.user_for_token, database(), token)  # the role in the default campaign, if any
    return _with_cookie(request, JSONResponse({"username": account, "role": user.role if user else None}), token)


async def logout(request: Request) -> JSONResponse:
    refused = _refusal(request)
    if refused:
        return refused
    await _run(auth.end_session, database(), request.cookies.get(COOKIE))
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=_secure(request))
    return response


def _not_in_campaign(campaign_name: str) -> JSONResponse:
    """The one refusal for a campaign the account may not use, whether or not it exists."""
    return _error(403, "not_in_campaign", f"this account has no role in campaign {campaign_name!r}")


def _save(token: str | None, batch, campaign_name: str = DEFAULT_CAMPAIGN) -> JSONResponse:
    if campaign_name == DEFAULT_CAMPAIGN:
        db = database()
        user = auth.user_for_token(db, token)  # one read on the common path
        if user is None and auth.account_for_token(db, token) is None:
            return _error(401, "not_logged_in", "log in first (missing, expired or ended session)")
    else:
        if auth.account_for_token(database(), token) is None:
            return _error(401, "not_logged_in", "log in first (missing, expired or ended session)")
        try:
            db = database(campaign_name=campaign_name)
        except ReljudgeError:
            if campaign_name not in database().campaign_names():
                # answered as "no role there" (issue 34.4): a 404 told any logged-in
                # account which campaign names exist
                return _not_in_campaign(campaign_name)
            raise
        user = auth.user_for_token(db, token)
    if user is None:
        return _not_in_campaign(campaign_name)
    if user.role not in auth.ROLES:
        return _error(403, "forbidden", "this account may not judge")
    acked, rejected, eids = events.record_each(db, user.username, batch)
    reply = {"acked": acked, "rejected": rejected, "eids": eids}
    # Under a judging plan the reply says what to judge next in every question a stored
    # grade touched, so that the page updates its list in place instead of rerunning
    # (issue 35.1); the same answer whatever was graded (a decoy included).
    done = set(acked)
    touched = [
        e["qid"]
        for e in batch
        if isinstance(e, dict) and isinstance(e.get("id"), str) and e["id"] in done and e.get("kind") == "grade"
    ]
    if touched:
        states = judging.plan_states(db, user.username, touched)
        if states:
            reply["plan"] = states
    return JSONResponse(reply)


async def events_route(request: Request) -> JSONResponse:
    data, bad = await _posted_json(request)
    if bad:
        return bad
    batch = data.get("events")
    if not isinstance(batch, list):
        return _error(400, "bad_events", "'events' must be a list")
    if len(batch) > MAX_EVENTS:
        return _error(413, "too_many_events", f"send at most {MAX_EVENTS} events at a time")
    name = DEFAULT_CAMPAIGN if data.get("campaign") is None else data["campaign"]
    if not is_campaign_name(name):
        return _error(400, "bad_campaign", "'campaign' must be a campaign's name (a-z, 0-9, _; a letter first)")
    return await _run(_save, request.cookies.get(COOKIE), batch, name)


def routes() -> list[Route]:
    return [
        Route("/api/login", _guarded(login), methods=["POST"]),
        Route("/api/session", _guarded(session), methods=["POST"]),
        Route("/api/logout", _guarded(logout), methods=["POST"]),
        Route("/api/events", _guarded(events_route), methods=["POST"]),
        *cli_api.routes(),  # /api/v1/…: the CLI through the running app (docs/served.md)
    ]
