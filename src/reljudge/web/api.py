"""The running app carries out ``reljudge`` commands for local clients (docs/served.md).

``POST /api/v1/cli`` with ``Authorization: Bearer <secret>`` — the secret of the runtime
file the app wrote beside its DuckDB file (reljudge.storage.runtime_file) — and the JSON
body the CLI builds (reljudge.cli.forward): ``{"argv", "db", "campaign", "inputs",
"outputs"}``. The command runs here, in this process, against the database the app already
has open (reljudge.web.routes.database, handed to :func:`serving`); the answer is ``{"code", "stdout", "stderr",
"files"}``: what it printed, its exit code, and the files it wrote (base64), which the
client writes on its side.

Who may call it: a client on this machine (a loopback peer, or the address the server
listens on; a request that came through a proxy is refused) that read the runtime file —
owner-only, so the user who started the app. The secret is compared in constant time and
never logged or echoed. Only the commands :func:`reljudge.cli.forward.forwarding` names are
carried out; any other is refused by code.

Refusals: 401 ``bad_secret`` (missing or wrong), 403 ``not_local``, 404 ``not_served`` (this
app holds no DuckDB file: PostgreSQL, or the file could not be opened), 400 ``bad_request``
or ``wrong_database`` or ``not_forwarded``, 413 ``too_large``.
"""

from __future__ import annotations

import atexit
import base64
import contextvars
import hmac
import io
import ipaddress
import json
import os
import shutil
import sys
import tempfile
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from reljudge.storage import runtime_file

#: The body of a forwarded command, its input files included (base64).
MAX_BODY_BYTES = 96 * 1024 * 1024

#: "info": the runtime file this process wrote; "database": how it opens its databases
_SERVED: dict[str, object] = {}
_SERVED_LOCK = threading.Lock()


# -- the runtime file, for the server's lifespan ----------------------------------------------
@contextmanager
def serving(database) -> Iterator[runtime_file.RuntimeInfo | None]:
    """While the block runs (the server's lifespan), the runtime file beside the DuckDB file
    this process holds; removed on a clean stop (the lifespan's end, or exit). Nothing when
    the database is PostgreSQL or could not be opened: then this process holds no file.
    ``database``: reljudge.web.routes.database, the process's open databases (passed in, so
    that this module does not import the routes that register it)."""
    from reljudge.storage.db import database_key, is_postgres
    from reljudge.ui.listening import listening

    info = None
    key = database_key(None)
    with _SERVED_LOCK:  # API tokens reach the database on either backend
        _SERVED["open"] = database
    if not is_postgres(key):
        try:
            database()  # opened (and the file held) by this process
            host, port, base = listening()
            info = runtime_file.RuntimeInfo(
                db=key, pid=os.getpid(), host=host, port=port, base_path=base, secret=runtime_file.new_secret()
            )
            runtime_file.write(info)
        except Exception as exc:  # noqa: BLE001 — the app serves its pages without it
            info = None
            print(f"reljudge: no runtime file for the CLI ({type(exc).__name__}: {exc})", file=sys.stderr, flush=True)
    if info is not None:
        with _SERVED_LOCK:
            _SERVED["info"], _SERVED["database"] = info, database
        # a stop that skips the lifespan's end (an exception at exit) still removes it
        atexit.register(runtime_file.remove, info)
        print(f"reljudge: the CLI reaches this app through {runtime_file.path_for(key)}", flush=True)
    try:
        yield info
    finally:
        if info is not None:
            with _SERVED_LOCK:
                _SERVED.pop("info", None)
                _SERVED.pop("database", None)
            runtime_file.remove(info)
        with _SERVED_LOCK:
            _SERVED.pop("open", None)


# -- what a forwarded command prints ---------------------------------------------------------
_CAPTURE: contextvars.ContextVar[tuple[io.StringIO, io.StringIO] | None] = contextvars.ContextVar(
    "reljudge_forward_capture", default=None
)


class _ThreadStream(io.TextIOBase):
    """``sys.stdout`` (or ``sys.stderr``) of the server process: what a forwarded command
    prints goes to its own buffer (a context variable, so two commands at once and the
    server's own log never mix), everything else to the stream as it was."""

    def __init__(self, original, index: int):
        self._original = original
        self._index = index

    def _target(self):
        captured = _CAPTURE.get()
        return captured[self._index] if captured is not None else self._original

    def write(self, text) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        self._target().flush()

    def isatty(self) -> bool:
        return False if _CAPTURE.get() is not None else self._original.isatty()

    def fileno(self) -> int:
        if _CAPTURE.get() is not None:
            raise io.UnsupportedOperation("fileno")
        return self._original.fileno()

    @property
    def encoding(self):
        return "utf-8" if _CAPTURE.get() is not None else self._original.encoding

    def __getattr__(self, name):
        return getattr(self._original, name)


_STREAMS_LOCK = threading.Lock()


def _install_streams() -> None:
    with _STREAMS_LOCK:
        if not isinstance(sys.stdout, _ThreadStream):
            sys.stdout = _ThreadStream(sys.stdout, 0)
        if not isinstance(sys.stderr, _ThreadStream):
            sys.stderr = _ThreadStream(sys.stderr, 1)


@contextmanager
def _captured() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    _install_streams()
    buffers = (io.StringIO(), io.StringIO())
    token = _CAPTURE.set(buffers)
    try:
        yield buffers
    finally:
        _CAPTURE.reset(token)


# -- the database the command opens: the one this process holds --------------------------------
_BORROWED_CLASSES: dict[type, type] = {}


def _borrowed(db):
    """``db`` itself (the same state: one ``__dict__``), except that ``close`` does nothing:
    a command closes what it opened, and this one is the pages' and the routes' too."""
    cls = type(db)
    view_cls = _BORROWED_CLASSES.get(cls)
    if view_cls is None:
        view_cls = type(f"Borrowed{cls.__name__}", (cls,), {"close": lambda self: None})
        _BORROWED_CLASSES[cls] = view_cls
    view = object.__new__(view_cls)
    view.__dict__ = db.__dict__
    return view


def _provider(db_key: str, database):
    def provide(path: Path, campaign: str):
        try:
            same = str(Path(path).resolve()) == db_key
        except OSError:
            same = False
        return _borrowed(database(db_key, campaign)) if same else None

    return provide


@dataclass(frozen=True)
class Caller:
    """Who a command through an API token runs as: the token's account, its role in the
    token's campaign (reljudge.campaign.api_tokens.check)."""

    username: str
    campaign: str
    role: str


# -- the route ------------------------------------------------------------------------------
def _error(status: int, code: str, message: str) -> JSONResponse:
    # never the request's own values: a wrong secret is not echoed
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _local(request: Request) -> bool:
    """A peer on this machine, that came straight (no proxy said it forwarded a request)."""
    if any(h in request.headers for h in ("x-forwarded-for", "forwarded", "x-real-ip", "origin")):
        return False
    peer = request.client.host if request.client else None
    if not peer:
        return False
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    # 127.0.0.1 reaching a dual-stack socket ("::") shows as ::ffff:127.0.0.1
    if getattr(address, "ipv4_mapped", None) is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return True
    server = request.scope.get("server")
    return bool(server) and server[0] == peer  # this machine, through the address it listens on


def _bearer(request: Request) -> str:
    """The credential of ``Authorization: Bearer …`` ("" without one)."""
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return given.strip() if scheme.lower() == "bearer" else ""


def _authorized(request: Request, info: runtime_file.RuntimeInfo) -> bool:
    return hmac.compare_digest(_bearer(request).encode(), info.secret.encode())


#: A refused API token: (HTTP status, code, message); never the token.
_TOKEN_REFUSALS = {
    "unknown": (401, "bad_token", "unknown API token"),
    "revoked": (401, "token_revoked", "this API token was revoked"),
    "expired": (401, "token_expired", "this API token has expired"),
    "inactive": (401, "token_inactive", "the token's account is deactivated or has no role in its campaign any more"),
}


def _plain_http_from_afar(request: Request) -> bool:
    """A request over plain HTTP from another machine (no proxy said it came over HTTPS):
    a token must not travel so (the client refuses it too, reljudge.cli.remote)."""
    if request.url.scheme == "https" or request.headers.get("x-forwarded-proto", "").split(",")[0].strip() == "https":
        return False
    peer = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return True
    address = getattr(address, "ipv4_mapped", None) or address
    return not address.is_loopback


async def _token_call(request: Request, operation) -> Response:
    """A request with an API token (issue 37 §2): the token checked, throttled per
    address like a password login (reljudge.campaign.api_tokens.check); refused by code
    when it is unknown, revoked or expired; then ``operation(caller, database, body)``."""
    from starlette.concurrency import run_in_threadpool

    from reljudge.campaign import api_tokens, auth

    with _SERVED_LOCK:
        database = _SERVED.get("open")
    if database is None:
        return _error(404, "not_served", "this app serves no database yet")
    if operation is None:
        return _error(403, "not_permitted", "this route takes the local secret only")
    if _plain_http_from_afar(request):
        return _error(403, "https_required", "send API tokens over HTTPS")
    address = auth.client_address(
        request.client.host if request.client else None, request.headers.getlist("x-forwarded-for")
    )
    seen = await run_in_threadpool(api_tokens.check, database(), _bearer(request), address)
    if seen.refusal == "wait":
        response = _error(429, "token_wait", f"too many failed attempts; try again in {seen.wait_seconds} s")
        response.headers["Retry-After"] = str(seen.wait_seconds)
        return response
    if seen.refusal:
        return _error(*_TOKEN_REFUSALS[seen.refusal])
    data, bad = await _body(request)
    if bad:
        return bad
    caller = Caller(seen.username, seen.campaign, seen.role)
    try:
        status, answer = await run_in_threadpool(operation, caller, database, data)
    except _BadRequest as exc:
        return _error(400, "bad_request", str(exc))
    return await _answer(answer, status)


async def _body(request: Request) -> tuple[dict | None, JSONResponse | None]:
    """The request's JSON object, decoded off the event loop (a forwarded import's body is
    tens of megabytes: decoding it on the loop would stall every save meanwhile)."""
    from starlette.concurrency import run_in_threadpool

    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None, _error(413, "too_large", f"the body exceeds {MAX_BODY_BYTES} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None, _error(413, "too_large", f"the body exceeds {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:
        data = await run_in_threadpool(json.loads, b"".join(chunks) or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, _error(400, "bad_request", "the body is not valid JSON")
    if not isinstance(data, dict):
        return None, _error(400, "bad_request", "the body must be a JSON object")
    return data, None


class _BadRequest(Exception):
    pass


def _files(value, what: str) -> list[dict]:
    if not isinstance(value, list) or not all(
        isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("data"), (str, type(None)))
        for f in value
    ):
        raise _BadRequest(f"'inputs.{what}' must be a list of {{name, data}}")
    return value


def _own_name(client_name: str) -> str:
    """The output's own name (the last part of the client's path), so that what the
    command prints about it reads the same."""
    return Path(os.path.abspath(client_name)).name or "output"


def _folder_shown(client_name: str) -> str:
    """How the client's command would name a file beside ``client_name``: its folder as the
    client wrote it (nothing for the current folder), e.g. ``sub/`` for ``sub/q.txt``."""
    parent = os.path.dirname(client_name)
    return f"{parent}{os.sep}" if parent else ""


def _carry_out(info: runtime_file.RuntimeInfo, database, data: dict) -> tuple[int, dict]:
    """Run the command a local client forwarded (the runtime file's secret); (HTTP
    status, answer)."""
    if data.get("db") != info.db:
        return 400, {"error": "wrong_database", "message": "this app holds another database"}
    return _run_command(info.db, database, data)


def _carry_out_for(caller: Caller, database, data: dict) -> tuple[int, dict]:
    """Run the command a client sent with an API token: against this app's own database
    (``db`` of the body is not read), in the token's campaign (a body's other campaign is
    refused), if the token's role there permits it (reljudge.cli.forward.permitted)."""
    from reljudge.storage.db import database_key

    campaign = data.get("campaign")
    if campaign is None:
        data = {**data, "campaign": caller.campaign}
    elif campaign != caller.campaign:
        return 403, {"error": "wrong_campaign", "message": "the token is for another campaign"}
    return _run_command(database_key(None), database, data, caller)


def _run_command(db_key: str, database, data: dict, caller: Caller | None = None) -> tuple[int, dict]:
    """Run a forwarded command on ``db_key`` (the database this app has open); (HTTP
    status, answer). ``caller``: the account of an API token (None: the local secret's
    operator)."""
    from reljudge.cli import forward
    from reljudge.cli import main as cli
    from reljudge.storage.db import is_campaign_name, served_by

    argv, campaign = data.get("argv"), data.get("campaign")
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        raise _BadRequest("'argv' must be a list of strings")
    if not is_campaign_name(campaign):
        raise _BadRequest("'campaign' must be a campaign's name")
    inputs, outputs = data.get("inputs") or {}, data.get("outputs") or {}
    if not isinstance(inputs, dict) or not isinstance(outputs, dict):
        raise _BadRequest("'inputs' and 'outputs' must be objects")
    with _captured() as (out, err):
        try:
            args = cli.build_parser().parse_args(argv)
        except SystemExit as stop:  # argparse said why on (captured) stderr
            return 200, {"code": int(stop.code or 0), "stdout": out.getvalue(), "stderr": err.getvalue(), "files": []}
    spec = forward.forwarding(args)
    if spec is None or args.command in forward.NEVER:
        return 400, {"error": "not_forwarded", "message": "this command is not carried out by the running app"}
    if caller is not None:
        if not forward.permitted(args, caller.username, caller.role):
            return 403, {
                "error": "not_permitted",
                "message": f"a token with the role {caller.role} may not run this command",
            }
        args.acting_user, args.acting_role = caller.username, caller.role
        if getattr(args, "lead", None) == "cli":  # who changed it: the token's account, not "cli"
            args.lead = caller.username
    args.db, args.campaign = db_key, campaign
    if spec.password:  # the client read it (never this server's stdin, terminal or environment)
        password = data.get("password")
        if not isinstance(password, str):
            raise _BadRequest("'password' must be a string for this command")
        args.password_given = password
    work = Path(tempfile.mkdtemp(prefix="reljudge-forward-"))  # mode 0700
    shown: dict[str, str] = {}  # a path of the server's → how the client named it
    client_names: dict[str, str] = {}  # the same, for the input files (what an import records)
    args.client_names = client_names
    try:
        for attr in spec.inputs:
            value = getattr(args, attr, None)
            if not value:
                continue
            sent = _files(inputs.get(attr), attr)
            paths = []
            for i, item in enumerate(sent):
                folder = work / "in" / attr / str(i)
                folder.mkdir(parents=True)
                path = folder / (_own_name(item["name"]))
                if item["data"] is not None:  # None: the client has no such file, nor has this folder
                    path.write_bytes(base64.b64decode(item["data"], validate=True))
                shown[str(path)] = item["name"]
                client_names[str(path)] = item["name"]
                shown[f"{folder}{os.sep}"] = _folder_shown(item["name"])
                paths.append(str(path))
            setattr(args, attr, paths if isinstance(value, list) else (paths[0] if paths else None))
        placed: dict[str, dict[Path, tuple[int, int]]] = {}
        for attr in spec.outputs:
            if not getattr(args, attr, None):
                continue
            asked = outputs.get(attr)
            if not isinstance(asked, dict) or not isinstance(asked.get("name"), str):
                raise _BadRequest(f"'outputs.{attr}' must name the output")
            root = work / "out" / attr
            root.mkdir(parents=True)
            path = root / _own_name(asked["name"])
            placed[attr] = _mirror(path, asked.get("mirror"))
            shown[str(path)] = asked["name"]
            # files the command writes beside its output (qrels' no-answer list)
            shown[f"{root}{os.sep}"] = _folder_shown(asked["name"])
            setattr(args, attr, str(path))
        with _captured() as (out, err), served_by(_provider(db_key, database)):
            try:
                code = cli.run_parsed(args)  # no argv: never forwarded again
            except SystemExit as stop:
                if isinstance(stop.code, str):
                    print(stop.code, file=sys.stderr)
                code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            except Exception:  # noqa: BLE001 — the client gets one line, the log the trace
                traceback.print_exc(file=sys.__stderr__)
                print("error: the running app failed to carry out the command (see its log)", file=sys.stderr)
                code = 1
        files = []
        for attr, before in placed.items():
            root = work / "out" / attr
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                stat = path.stat()
                if before.get(path) == (stat.st_size, stat.st_mtime_ns):
                    continue  # a stand-in for what the client has: not written by the command
                files.append(
                    {
                        "attr": attr,
                        "path": path.relative_to(root).as_posix(),
                        "data": base64.b64encode(path.read_bytes()).decode("ascii"),
                    }
                )

        def as_client(text: str) -> str:
            for server_path in sorted(shown, key=len, reverse=True):
                text = text.replace(server_path, shown[server_path])
            return text

        return 200, {
            "code": code,
            "stdout": as_client(out.getvalue()),
            "stderr": as_client(err.getvalue()),
            "files": files,
        }
    except (ValueError, TypeError) as exc:  # base64 that is not, and the like
        raise _BadRequest(f"a file of the request is not well-formed ({type(exc).__name__})") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _mirror(path: Path, mirror) -> dict[Path, tuple[int, int]]:
    """Put empty stand-ins where the client already has files at the output, so that the
    command finds what it would find there (a bundle refuses other files in its folder);
    returns them with their size and time, to tell them from what the command wrote."""
    if mirror is None:
        return {}
    if not isinstance(mirror, list) or not all(isinstance(m, str) for m in mirror):
        raise _BadRequest("'mirror' must be a list of relative paths")
    made: dict[Path, tuple[int, int]] = {}
    if mirror == [""]:
        stand_ins = [path]
    else:
        path.mkdir(parents=True, exist_ok=True)
        stand_ins = []
        for rel in mirror[:10_000]:
            parts = Path(rel).parts
            if not parts or Path(rel).is_absolute() or ".." in parts:
                raise _BadRequest("'mirror' must be a list of relative paths")
            stand_ins.append(path.joinpath(*parts))
    for stand_in in stand_ins:
        stand_in.parent.mkdir(parents=True, exist_ok=True)
        stand_in.touch()
        stat = stand_in.stat()
        made[stand_in] = (stat.st_size, stat.st_mtime_ns)
    return made


async def _served_call(request: Request, operation, token_operation=None) -> Response:
    """A local client's request to the app that holds the file: refused unless the app
    serves a DuckDB file, the request comes from this machine and carries the runtime
    file's secret; then ``operation(info, database, body)`` → (status, answer), run off
    the event loop. A bearer that is an API token (``rjt_…``) goes to
    ``token_operation(caller, database, body)`` instead (:func:`_token_call`)."""
    from starlette.concurrency import run_in_threadpool

    from reljudge.campaign import api_tokens

    if _bearer(request).startswith(api_tokens.PREFIX):
        return await _token_call(request, token_operation)
    with _SERVED_LOCK:
        info, database = _SERVED.get("info"), _SERVED.get("database")
    if info is None:
        return _error(404, "not_served", "this app holds no DuckDB file for the CLI")
    if not _local(request):
        return _error(403, "not_local", "the local secret is accepted from this machine only")
    if not _authorized(request, info):
        return _error(401, "bad_secret", "missing or wrong secret (read it from the runtime file)")
    data, bad = await _body(request)
    if bad:
        return bad
    try:
        status, answer = await run_in_threadpool(operation, info, database, data)
    except _BadRequest as exc:
        return _error(400, "bad_request", str(exc))
    return await _answer(answer, status)


async def cli_route(request: Request) -> Response:
    """``POST /api/v1/cli``: one CLI command carried out by the app (docs/served.md)."""
    return await _served_call(request, _carry_out, _carry_out_for)


async def _answer(answer: dict | bytes, status: int) -> Response:
    """A JSON answer, or the Arrow stream of a frame (bytes)."""
    if isinstance(answer, bytes):
        return Response(answer, status_code=status, media_type=ARROW_STREAM)
    return await _json_answer(answer, status)


async def _json_answer(answer: dict, status: int) -> Response:
    """The answer encoded off the event loop (an export's files, a run's pairs travel in it);
    a value JSON has no type for (a time stamp of a table) as its text."""
    from starlette.concurrency import run_in_threadpool

    encoded = await run_in_threadpool(json.dumps, answer, ensure_ascii=False, separators=(",", ":"), default=str)
    return Response(encoded.encode("utf-8"), status_code=status, media_type="application/json")


# -- a model judge beside the app: pairs out, batches of grades in ------------------------------
#: What ``POST /api/v1/judge`` does: the operations of reljudge.judges.runner.JudgePlace.
JUDGE_OPS = (
    "check_source",
    "pooled_pairs",
    "pending_pairs",
    "reference",
    "record_source",
    "store_results",
    "graded_count",
)


def _judge_op(info: runtime_file.RuntimeInfo, database, data: dict) -> tuple[int, dict]:
    """One operation of a model judge's run on the client (reljudge.cli.served_judge.ServedPlace)
    against the database this app holds: the same library calls as a run on the file."""
    from reljudge.errors import ReljudgeError
    from reljudge.judges import runner
    from reljudge.storage.db import is_campaign_name

    op, args, campaign = data.get("op"), data.get("args"), data.get("campaign")
    if data.get("db") != info.db:
        return 400, {"error": "wrong_database", "message": "this app holds another database"}
    if op not in JUDGE_OPS or not isinstance(args, list):
        raise _BadRequest("'op' must name an operation and 'args' be a list")
    if not is_campaign_name(campaign):
        raise _BadRequest("'campaign' must be a campaign's name")
    try:
        place = runner.LocalPlace(database(info.db, campaign))
        if op == "store_results":
            source, grades, errors = args
            grades = runner.frame_from_json(grades).astype({"qid": str, "pid": str, "grade": "int64"})
            errors = runner.frame_from_json(errors).astype(
                {"qid": str, "pid": str, "kind": str, "detail": str, "answer": object}
            )
            place.store_results(source, grades, errors)
            return 200, {"result": None}
        result = getattr(place, op)(*args)
    except ReljudgeError as exc:
        said = exc.message.to_dict() if exc.message is not None else {"text": str(exc)}
        return 200, {"refused": said}
    except (TypeError, ValueError, KeyError) as exc:
        raise _BadRequest(f"bad arguments for {op} ({type(exc).__name__})") from None
    if op in ("pooled_pairs", "pending_pairs", "reference"):
        return 200, {"result": runner.frame_to_json(result)}
    return 200, {"result": result}


async def judge_route(request: Request) -> Response:
    """``POST /api/v1/judge``: a model judge's read or batch of grades (docs/served.md)."""
    return await _served_call(request, _judge_op)


# -- a notebook's frames (reljudge.notebook.ServedFrames): Arrow IPC, not JSON rows -------------
ARROW_STREAM = "application/vnd.apache.arrow.stream"


def _frame_answer(db, data: dict) -> tuple[int, dict | bytes]:
    """Frame ``data["frame"]`` of the open campaign ``db`` as an Arrow IPC stream (its
    pandas index and dtypes kept in the schema's metadata), or a library refusal."""
    import pandas as pd
    import pyarrow as pa

    from reljudge.errors import ReljudgeError
    from reljudge.notebook import campaign_frame

    name, kwargs = data.get("frame"), data.get("kwargs") or {}
    if not isinstance(name, str) or not isinstance(kwargs, dict):
        raise _BadRequest("'frame' must name a frame and 'kwargs' be an object")
    try:
        frame = campaign_frame(db, name, kwargs)
    except ReljudgeError as exc:
        said = exc.message.to_dict() if exc.message is not None else {"text": str(exc)}
        return 422, {"error": "refused", "message": str(exc), "refused": said}
    except TypeError as exc:
        raise _BadRequest(str(exc)) from None
    table = pa.Table.from_pandas(frame)
    # Arrow has one null: an object column whose missing values are pd.NA (not None) is
    # named, so that the client restores the same values (reljudge.notebook.ServedFrames)
    na_columns = [str(c) for c in frame.columns if frame[c].dtype == object and any(v is pd.NA for v in frame[c])]
    if na_columns:
        table = table.replace_schema_metadata(
            {**(table.schema.metadata or {}), b"reljudge.na_columns": json.dumps(na_columns).encode()}
        )
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return 200, sink.getvalue().to_pybytes()


def _frame_op(info: runtime_file.RuntimeInfo, database, data: dict) -> tuple[int, dict | bytes]:
    from reljudge.storage.db import is_campaign_name

    if data.get("db") != info.db:
        return 400, {"error": "wrong_database", "message": "this app holds another database"}
    if not is_campaign_name(data.get("campaign")):
        raise _BadRequest("'campaign' must be a campaign's name")
    return _frame_answer(database(info.db, data["campaign"]), data)


def _frame_op_for(caller: Caller, database, data: dict) -> tuple[int, dict | bytes]:
    """A notebook's frame through an API token: a lead's (the frames are the whole
    campaign's judgments), in the token's campaign."""
    from reljudge.storage.db import database_key

    campaign = data.get("campaign")
    if campaign is not None and campaign != caller.campaign:
        return 403, {"error": "wrong_campaign", "message": "the token is for another campaign"}
    if caller.role != "lead":
        return 403, {
            "error": "not_permitted",
            "message": f"a token with the role {caller.role} may not read the frames",
        }
    return _frame_answer(database(database_key(None), caller.campaign), data)


async def frame_route(request: Request) -> Response:
    """``POST /api/v1/frame``: one of a notebook's DataFrames, as Arrow (reljudge.notebook)."""
    return await _served_call(request, _frame_op, _frame_op_for)


async def openapi_route(request: Request) -> Response:
    """``GET /api/v1/openapi.json``: the OpenAPI description of these routes."""
    return JSONResponse(openapi())


def routes() -> list[Route]:
    return [
        Route("/api/v1/cli", cli_route, methods=["POST"]),
        Route("/api/v1/judge", judge_route, methods=["POST"]),
        Route("/api/v1/frame", frame_route, methods=["POST"]),
        Route("/api/v1/openapi.json", openapi_route, methods=["GET"]),
    ]


# -- the OpenAPI description, built from the routes above and the shapes they declare ----------
_ERROR = {"$ref": "#/components/schemas/Error"}
_SCHEMAS = {
    "Error": {
        "type": "object",
        "required": ["error", "message"],
        "properties": {
            "error": {
                "type": "string",
                "description": "the refusal's code: bad_secret, not_local, not_served, bad_request, wrong_database, "
                "not_forwarded, too_large; with an API token also bad_token, token_revoked, token_expired, "
                "token_inactive, token_wait, https_required, wrong_campaign, not_permitted",
            },
            "message": {"type": "string", "description": "the same in English words (never the request's values)"},
        },
    },
    "CliRequest": {
        "type": "object",
        "required": ["argv"],
        "properties": {
            "argv": {"type": "array", "items": {"type": "string"}, "description": "the command line after `reljudge`"},
            "db": {
                "type": ["string", "null"],
                "description": "the database file the local client resolved (must be the app's; not read with a token)",
            },
            "campaign": {
                "type": ["string", "null"],
                "description": "the campaign; with a token null means the token's own, another is refused",
            },
            "inputs": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"$ref": "#/components/schemas/File"}},
                "description": "the files the command reads, by its option's name",
            },
            "outputs": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "mirror": {"type": ["array", "null"]}},
                },
                "description": "the files or folders the command writes, as the client named them",
            },
            "password": {"type": "string", "description": "users add / users passwd: the password the client read"},
        },
    },
    "File": {
        "type": "object",
        "required": ["name", "data"],
        "properties": {"name": {"type": "string"}, "data": {"type": ["string", "null"], "format": "byte"}},
    },
    "CliAnswer": {
        "type": "object",
        "required": ["code", "stdout", "stderr", "files"],
        "properties": {
            "code": {"type": "integer", "description": "the command's exit code"},
            "stdout": {"type": "string"},
            "stderr": {"type": "string"},
            "files": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "attr": {"type": "string"},
                        "path": {"type": "string"},
                        "data": {"type": "string", "format": "byte"},
                    },
                },
                "description": "the files the command wrote, relative to the output it named",
            },
        },
    },
    "JudgeRequest": {
        "type": "object",
        "required": ["op", "args", "db", "campaign"],
        "properties": {
            "op": {"type": "string", "enum": list(JUDGE_OPS)},
            "args": {"type": "array"},
            "db": {"type": "string"},
            "campaign": {"type": "string"},
        },
    },
    "FrameRequest": {
        "type": "object",
        "required": ["frame"],
        "properties": {
            "frame": {"type": "string", "enum": ["judgments", "events", "qrels", "evaluate"]},
            "kwargs": {"type": "object", "description": "the keyword arguments of the Campaign method"},
            "campaign": {"type": ["string", "null"]},
            "db": {"type": ["string", "null"]},
        },
    },
    "JudgeAnswer": {
        "type": "object",
        "properties": {"result": {}, "refused": {"type": "object", "description": "a message code and its values"}},
    },
}


def _operation(summary: str, request: str | None, answer: str | None, refusals: dict[str, str]) -> dict:
    op: dict = {
        "summary": summary,
        "responses": {
            "200": {
                "description": "done",
                # a frame (answer None): Arrow IPC, its schema the DataFrame's
                "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{answer}"}}}
                if answer is not None
                else {ARROW_STREAM: {}},
            },
            **{
                status: {"description": said, "content": {"application/json": {"schema": _ERROR}}}
                for status, said in refusals.items()
            },
        },
    }
    if request is not None:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{request}"}}},
        }
        op["security"] = [{"bearer": []}]
    return op


_REFUSALS = {
    "400": "a body that is not a well-formed request (bad_request, wrong_database, not_forwarded)",
    "401": "a missing or wrong secret or token (bad_secret, bad_token, token_revoked, token_expired, token_inactive)",
    "403": "not_local, https_required, wrong_campaign, not_permitted",
    "404": "not_served: this app holds no database for it",
    "413": "too_large",
    "429": "token_wait: too many failed tokens from this address (Retry-After)",
}

#: What each route of :func:`routes` takes and answers, by (method, path); the one place a
#: new route is described (tests/test_openapi.py fails on a route without it, or on an
#: entry for a route that does not exist).
DESCRIBED: dict[tuple[str, str], dict] = {
    ("POST", "/api/v1/cli"): _operation(
        "Run one reljudge command (the local secret of the runtime file, or an API token: the token's role in "
        "its campaign)",
        "CliRequest",
        "CliAnswer",
        _REFUSALS,
    ),
    ("POST", "/api/v1/judge"): _operation(
        "One operation of a model judge's run beside the app (the local secret only)",
        "JudgeRequest",
        "JudgeAnswer",
        _REFUSALS,
    ),
    ("POST", "/api/v1/frame"): _operation(
        "One of a notebook's DataFrames (reljudge.open_campaign), as an Arrow IPC stream (the local secret, "
        "or a lead's API token)",
        "FrameRequest",
        None,
        {**_REFUSALS, "422": "refused: the library's own refusal (a message code in 'refused')"},
    ),
    ("GET", "/api/v1/openapi.json"): {
        "summary": "This description",
        "responses": {"200": {"description": "the OpenAPI document", "content": {"application/json": {}}}},
    },
}


def openapi(route_list: list[Route] | None = None) -> dict:
    """The OpenAPI 3.1 description of the ``/api/v1`` routes (``route_list``, default
    :func:`routes`): each route's method and path from the route table, what it takes and
    answers from :data:`DESCRIBED`. A route without an entry, or an entry without its
    route, raises LookupError: the description cannot drift from the routes."""
    from reljudge import __version__

    paths: dict[str, dict] = {}
    seen = set()
    for route in route_list if route_list is not None else routes():
        if not route.path.startswith("/api/v1/"):
            continue
        for method in sorted((route.methods or set()) - {"HEAD"}):
            key = (method, route.path)
            if key not in DESCRIBED:
                raise LookupError(f"no OpenAPI description of {method} {route.path} (reljudge.web.api.DESCRIBED)")
            seen.add(key)
            paths.setdefault(route.path, {})[method.lower()] = DESCRIBED[key]
    stale = sorted(set(DESCRIBED) - seen)
    if stale:
        raise LookupError(f"OpenAPI descriptions of routes that do not exist: {stale}")
    return {
        "openapi": "3.1.0",
        "info": {"title": "reljudge API", "version": __version__},
        "paths": paths,
        "components": {
            "schemas": _SCHEMAS,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "an API token (`reljudge users token create`, rjt_…), or the local secret of the "
                    "runtime file",
                }
            },
        },
    }
