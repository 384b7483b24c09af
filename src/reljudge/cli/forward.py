"""A command on a DuckDB file the running app holds is carried out by that app (docs/served.md).

DuckDB lets one process hold a file. When a command cannot open its file because another
process holds it, and that process is a reljudge app that left its runtime file beside the
database (reljudge.storage.runtime_file), the command is sent to the app
(``POST /api/v1/cli``, reljudge.web.api) with the local secret, carried out there against
the database the app already has open, and its stdout, stderr and exit code are printed
here as if it had run here. Files the command reads are sent along; files it writes come
back and are written here, on the client's side.

This first slice forwards the commands that only read the campaign (:func:`forwarding`);
the others say that the app holds the file and what to do, by code.
"""

from __future__ import annotations

import base64
import getpass
import http.client
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from reljudge import i18n
from reljudge.codes import Codes

CODES = Codes(
    error_served_not_forwarded=("path", "url", "command"),
    error_served_init=("path", "url"),
    error_served_serve=("path", "url"),
    error_served_copy_db=("path", "url"),
    error_served_refused=("path", "url"),
    error_served_failed=("url", "detail"),
    error_served_lost=("path", "url", "command"),
    error_served_client_file=("path", "detail"),
    served_interrupted=("url",),
    served_interrupted_write=("url", "command"),
)
"""The messages of a command that meets the running app."""

ROUTE = "/api/v1/cli"
CONNECT_SECONDS = 5.0
#: Files a forwarded command reads, all together, at most (the body the server accepts).
MAX_INPUT_BYTES = 64 * 1024 * 1024
#: Entries of an existing output directory mirrored to the server (see _mirror).
MAX_MIRRORED = 10_000


@dataclass(frozen=True)
class Forwarding:
    """How a command is carried out by the server: the ``args`` attributes that name files
    it reads (a path or a list of paths: sent along) and files or folders it writes (made
    on the server in a private temporary folder, sent back, written here); ``password``:
    the command reads a password (``users add``, ``users passwd``), read here as it would
    be without the app (``--password-stdin``, $RELJUDGE_PASSWORD, the terminal) and sent
    in the body, never on a command line; ``writes``: it changes the campaign (what Ctrl+C
    on the client says, docs/served.md#앱을-거치는-명령--what-is-forwarded)."""

    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    password: bool = False
    writes: bool = False


#: The options of ``quality`` that change the campaign's settings.
_QUALITY_WRITES = ("min_gold", "min_accuracy", "max_failed_decoys", "auto_gold")
#: ``users`` actions that only read.
_USERS_READS = ("list", "requests")
#: Commands the running app never carries out: each says what to do instead (init, serve,
#: copy-db) or is not forwarded yet (auto-judge: its model runs on the client's side).
NEVER = ("init", "serve", "copy-db")


def forwarding(args) -> Forwarding | None:
    """How the parsed command ``args`` is forwarded, or None when it is not (yet). Every
    command that opens the campaign is, but ``init``, ``serve``, ``copy-db`` and
    ``auto-judge``; one table, read by the client and by the server."""
    command, action = args.command, getattr(args, "action", None)
    if command in NEVER or command == "auto-judge":
        return None
    if command == "evaluate":
        return Forwarding(inputs=("runs",))
    if command in ("next", "calibrate", "evaluate-answers", "agreement"):
        return Forwarding()
    if command in ("export", "report"):
        return Forwarding(outputs=("output",))
    if command == "judges":
        return Forwarding(outputs=("output",))
    if command == "quality":
        writes = any(getattr(args, name, None) is not None for name in _QUALITY_WRITES)
        return Forwarding(outputs=("export",), writes=writes)
    if command == "plan":  # show it, --estimate, or choose one (the argv as it is)
        return Forwarding(writes=getattr(args, "plan", None) is not None)
    if command == "users":
        reads = action in _USERS_READS or (action == "token" and getattr(args, "token_action", None) == "list")
        return Forwarding(password=action in ("add", "passwd"), writes=not reads)
    if command in ("campaigns", "types"):
        return Forwarding(writes=action != "list")
    if command == "assign":
        return Forwarding(writes=not getattr(args, "show", False) or bool(getattr(args, "reassign", None)))
    if command == "gold":
        if getattr(args, "gold_cmd", None) == "import":
            return Forwarding(inputs=("file",), writes=True)
        return Forwarding()
    if command == "import":
        return Forwarding(inputs=("file",), writes=True)
    if command in ("pool", "freeze", "decoys"):
        return Forwarding(writes=True)
    return None


#: What a caller through an API token may run (issue 37 §2; docs/served.md#토큰과-원격-클라이언트--tokens-and-remote-clients):
#: a lead of the token's campaign, every forwarded command but these (a new campaign is the
#: database's, not one campaign's); an annotator, only :func:`permitted`'s few.
LEAD_NEVER = (("campaigns", "create"),)


def permitted(args, username: str, role: str) -> bool:
    """Whether ``username``, with ``role`` in the token's campaign, may run the parsed
    command ``args`` (one that :func:`forwarding` carries out): a lead, all of them but
    :data:`LEAD_NEVER`; an annotator, ``next --user <self>`` and the token commands (which
    let them manage only their own tokens, reljudge.campaign.api_tokens.acting_user)."""
    command, action = args.command, getattr(args, "action", None)
    if role == "lead":
        return (command, action) not in LEAD_NEVER
    if command == "next":
        return getattr(args, "user", None) == username
    return command == "users" and action == "token"


def read_password(args) -> str:
    """The password of ``users add`` / ``users passwd``: --password-stdin, else
    $RELJUDGE_PASSWORD, else asked twice at the terminal. A command carried out by the
    running app gets the one its client read (reljudge.cli.forward)."""
    given = getattr(args, "password_given", None)
    if given is not None:
        return given
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    env = os.environ.get("RELJUDGE_PASSWORD")
    if env:
        return env
    if not sys.stdin.isatty():
        raise SystemExit("error: no password: use --password-stdin or RELJUDGE_PASSWORD")
    first = getpass.getpass("password: ")
    if first != getpass.getpass("again: "):
        raise SystemExit("error: the passwords differ")
    return first


def client_name(args, path) -> str | None:
    """How the client named the input file that the server carries out a command on (its
    own copy of the client's file): what an import records as its source file, so that
    the database reads the same as without the app. None outside a forwarded command."""
    name = (getattr(args, "client_names", None) or {}).get(path)
    return None if name is None else str(Path(name))  # as reljudge.campaign.importers.Source names it


def _say(message) -> int:
    print(f"error: {i18n.message(message, 'en')}", file=sys.stderr)
    return 2


def held_by_app(path: str | os.PathLike):
    """The live runtime file of the app that holds ``path``, or None."""
    from reljudge.storage import runtime_file

    try:
        resolved = str(Path(path).resolve())
    except OSError:
        return None
    info = runtime_file.read_live(resolved)
    return info if info is not None and info.db == resolved else None


def refuse_serve(args) -> int | None:
    """``reljudge serve`` on a file an app already serves: where to find it instead."""
    from reljudge.storage.db import database_key, is_postgres

    key = database_key(args.db)
    info = None if is_postgres(key) else held_by_app(key)
    return _say(CODES("error_served_serve", path=key, url=info.url)) if info else None


def when_held(args, argv: list[str], exc) -> int | None:
    """After ``exc`` (DatabaseLockedError): the command's exit code when the holder is a
    running app (carried out by it, or refused with what to do); None when no live app
    holds the file (the caller says the usual refusal)."""
    from reljudge.storage.db import database_key

    locked = exc.message.kwargs.get("path") if exc.message is not None else None
    if not locked:
        return None
    info = held_by_app(locked)
    if info is None:
        return None
    command = args.command
    if command == "init":
        return _say(CODES("error_served_init", path=info.db, url=info.url))
    if command == "copy-db":
        return _say(CODES("error_served_copy_db", path=info.db, url=info.url))
    spec = forwarding(args)
    if spec is None or database_key(getattr(args, "db", None)) != info.db:
        return _say(CODES("error_served_not_forwarded", path=info.db, url=info.url, command=_shown(args)))
    return carry_out(args, argv, info, spec)


def _shown(args) -> str:
    action = getattr(args, "action", None)
    return f"{args.command} {action}" if isinstance(action, str) else args.command


# -- the client's side of a forwarded command ---------------------------------------------
def _mirror(path: Path) -> list[str] | None:
    """What already is at an output path, for the server to find the same there (a bundle
    refuses a folder with other files, and says which): None when nothing is there, [""]
    for a file, else the files of the folder (relative, POSIX)."""
    if not path.exists():
        return None
    if not path.is_dir():
        return [""]
    found = []
    for entry in path.rglob("*"):
        if entry.is_file():
            found.append(entry.relative_to(path).as_posix())
            if len(found) >= MAX_MIRRORED:
                break
    return found


def _request_body(args, argv: list[str], info, spec: Forwarding) -> dict:
    from reljudge.errors import ReljudgeError
    from reljudge.storage.db import campaign_name

    inputs: dict[str, list[dict]] = {}
    total = 0
    for attr in spec.inputs:
        value = getattr(args, attr, None)
        if not value:
            continue
        sent = []
        for name in value if isinstance(value, list) else [value]:
            try:
                data = Path(name).read_bytes()
            except FileNotFoundError:
                # the server's stand-in is missing too: the command says what it says here
                sent.append({"name": name, "data": None})
                continue
            except OSError as exc:
                raise ReljudgeError(CODES("error_served_client_file", path=name, detail=exc.strerror or str(exc)))
            total += len(data)
            if total > MAX_INPUT_BYTES:
                raise ReljudgeError(
                    CODES("error_served_client_file", path=name, detail=f"more than {MAX_INPUT_BYTES} bytes to send")
                )
            sent.append({"name": name, "data": base64.b64encode(data).decode("ascii")})
        inputs[attr] = sent
    outputs = {}
    for attr in spec.outputs:
        value = getattr(args, attr, None)
        if value:
            outputs[attr] = {"name": value, "mirror": _mirror(Path(value))}
    body = {
        "argv": argv,
        "db": info.db,
        # the campaign as this process would choose it (--campaign, else $RELJUDGE_CAMPAIGN):
        # the server's own environment must not choose another
        "campaign": campaign_name(getattr(args, "campaign", None)) if info.db is not None else _chosen(args),
        "inputs": inputs,
        "outputs": outputs,
    }
    if spec.password:  # read here, as without the app; never on a command line
        body["password"] = read_password(args)
    return body


def _chosen(args) -> str | None:
    """The campaign a remote client named (--campaign, $RELJUDGE_CAMPAIGN), None when it
    named none: the server then takes the token's own campaign."""
    from reljudge.storage.db import CAMPAIGN_ENV_VAR, check_campaign_name

    name = getattr(args, "campaign", None) or os.environ.get(CAMPAIGN_ENV_VAR, "").strip()
    return check_campaign_name(name) if name else None


class _Lost(Exception):
    """The app went away after the command was sent (stopped, killed, crashed)."""


def _post(info, body: bytes, route: str = ROUTE) -> tuple[int, dict | None]:
    """POST ``body`` (JSON) to ``route`` of the app (:func:`send`); its JSON answer."""
    status, raw, _kind = send(info, body, route)
    try:
        data = json.loads(raw or b"null")
    except ValueError:
        data = None
    return status, data if isinstance(data, dict) else None


def send(info, body: bytes, route: str = ROUTE) -> tuple[int, bytes, str]:
    """POST to the app straight over a socket to its loopback address: never through an
    HTTP proxy of the environment (``http_proxy``), which would see the secret. An OSError
    before anything was sent (nothing answers: a stale runtime file) is raised as it is;
    one after it, as :class:`_Lost`."""
    if getattr(info, "tls", False):  # a remote server (reljudge.cli.remote): its certificate checked
        import ssl

        conn = http.client.HTTPSConnection(
            info.host, info.port, timeout=CONNECT_SECONDS, context=ssl.create_default_context()
        )
    else:
        conn = http.client.HTTPConnection(info.host, info.port, timeout=CONNECT_SECONDS)
    try:
        conn.connect()
        conn.sock.settimeout(None)  # a long report is worth waiting for; Ctrl+C stops it
        try:
            conn.request(
                "POST",
                info.base_path + route,
                body=body,
                headers={"Content-Type": "application/json", "Authorization": f"Bearer {info.secret}"},
            )
            response = conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as exc:
            raise _Lost() from exc
    finally:
        conn.close()
    return response.status, raw, response.getheader("Content-Type", "")


def _destination(client_name: str, rel: str) -> Path:
    """Where a file the server sent back goes: under the folder of the output the command
    named (``rel`` starts with that output's own name); anything else is refused."""
    parts = Path(rel).parts
    if not parts or Path(rel).is_absolute() or ".." in parts:
        raise ValueError(rel)
    return Path(os.path.abspath(client_name)).parent.joinpath(*parts)


def _write_back(files: list[dict], outputs: dict) -> None:
    from reljudge.errors import ReljudgeError

    for item in files:
        name = outputs[item["attr"]]["name"]
        target = _destination(name, item["path"])
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.reljudge-part")
            tmp.write_bytes(base64.b64decode(item["data"]))
            os.replace(tmp, target)  # a reader never sees half a file
        except OSError as exc:
            raise ReljudgeError(CODES("error_served_client_file", path=str(target), detail=exc.strerror or str(exc)))


def carry_out(args, argv: list[str], info, spec: Forwarding, refused=None) -> int | None:
    """Send the command to the app, write the files it wrote, print what it printed and
    return its exit code; None when nothing answers at the runtime file's address.
    ``refused(status, answer)``: the message of a refusal other than a 200 (a remote
    server's, reljudge.cli.remote), None to say it as for the runtime file."""
    from reljudge.errors import ReljudgeError

    try:
        body = _request_body(args, argv, info, spec)
        try:
            status, answer = _post(info, json.dumps(body).encode("utf-8"))
        except _Lost:
            # the app stopped with the command in hand: a write was done whole or not at all
            return _say(CODES("error_served_lost", path=info.db or info.url, url=info.url, command=_shown(args)))
        except (ConnectionError, OSError):
            return None  # nothing answers: a file left by a stopped server — the usual refusal
        said = refused(status, answer) if refused is not None and status != 200 else None
        if said is not None:
            return _say(said)
        if status in (401, 403):
            return _say(CODES("error_served_refused", path=info.db, url=info.url))
        if status != 200 or answer is None or not isinstance(answer.get("code"), int):
            detail = (answer or {}).get("message") or f"HTTP {status}"
            return _say(CODES("error_served_failed", url=info.url, detail=str(detail)))
        try:
            _write_back(answer.get("files") or [], body["outputs"])
        except (KeyError, TypeError, ValueError):
            return _say(CODES("error_served_failed", url=info.url, detail="a file it sent back is not well-formed"))
    except ReljudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # the server finishes the command and its answer is dropped; nothing was written
        # here. A read changes nothing; a write is carried out whole, each of its
        # transactions all or nothing (an import is one), as if the client had waited.
        said = (
            CODES("served_interrupted_write", url=info.url, command=_shown(args))
            if spec.writes
            else CODES("served_interrupted", url=info.url)
        )
        print(i18n.message(said, "en"), file=sys.stderr)
        return 130
    sys.stdout.write(answer.get("stdout") or "")
    sys.stderr.write(answer.get("stderr") or "")
    sys.stderr.flush()
    return answer["code"]


# -- auto-judge beside the app: the model here, the pairs and grades there ---------------------
JUDGE_ROUTE = "/api/v1/judge"
