"""The ``reljudge`` command line: a thin layer over the library the app uses.

Every subcommand has ``--help`` with an example. ``--db PATH`` (or $RELJUDGE_DB)
and ``--campaign NAME`` (or $RELJUDGE_CAMPAIGN) are global options placed before the
subcommand.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

from reljudge import __version__
from reljudge.cli import accounts, campaign_results, campaign_setup
from reljudge.cli.campaign_setup import _english
from reljudge.cli.common import error, open_db


EPILOG = """examples:
  reljudge init --demo
  reljudge --db judgments/campaign.duckdb import corpus corpus.jsonl
  reljudge import questions questions.csv
  reljudge types add '역사 배경'
  reljudge import run bm25.trec --system bm25
  reljudge pool --depth 20
  reljudge users add kim --role annotator
  reljudge campaigns create round2
  reljudge --campaign round2 users grant kim --role lead
  reljudge assign --per-question 1 --double-share 0.2 --by-type
  reljudge agreement --format json
  reljudge plan rr-first --then-rest
  reljudge next --user kim --limit 5
  reljudge serve
"""


_db = open_db


# -- handlers ------------------------------------------------------------------------


def cmd_init(args) -> int:
    from reljudge.campaign import setup as campaign

    db = _db(args, create=True)
    print(f"database: {db.path} (migrations: {', '.join(n for _, n in db.applied_migrations())})")
    if args.demo:
        if not campaign.is_empty(db):
            print("the database already holds a campaign; demo not loaded", file=sys.stderr)
            return 2
        for summary in campaign.load_demo(db):
            print(_english(summary))
        print("demo accounts: " + ", ".join(f"{u} / {p} ({r})" for u, p, r in campaign.DEMO_ACCOUNTS))
    return 0


def _die_with_parent(parent: int):
    """What the server's process runs before it starts Streamlit: ask Linux to send it
    SIGTERM (its clean stop: databases checkpointed) when ``parent`` dies, even by SIGKILL
    which ``serve`` cannot forward (issue 34.12: a killed ``serve`` left its server running
    as an orphan, answering logins and holding the DuckDB file's lock). Elsewhere, None."""
    if not sys.platform.startswith("linux"):
        return None

    def arm() -> None:
        import ctypes

        pr_set_pdeathsig = 1
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the request was made
            os.kill(os.getpid(), signal.SIGTERM)

    return arm


def cmd_serve(args) -> int:
    from reljudge.ui import webapp
    from reljudge.storage.db import database_key
    from reljudge.cli import forward

    held = forward.refuse_serve(args)  # the app that holds the file already serves it
    if held is not None:
        return held
    env = dict(os.environ)
    # The server runs from the package's web app folder (its .streamlit/config.toml):
    # hand it the absolute path (or the PostgreSQL URL) the rest of the CLI would use.
    env["RELJUDGE_DB"] = database_key(args.db)
    if args.campaign:  # the campaign the app opens when the URL names none
        from reljudge.storage.db import CAMPAIGN_ENV_VAR, campaign_name

        env[CAMPAIGN_ENV_VAR] = campaign_name(args.campaign)
    # uvicorn believes X-Forwarded-For from loopback unless told otherwise: only from the
    # proxies the operator named (none by default), so a client cannot choose its address.
    from reljudge.campaign.auth import trusted_proxies

    env["FORWARDED_ALLOW_IPS"] = ",".join(trusted_proxies())
    if not args.db and not os.environ.get("RELJUDGE_DB"):
        env["RELJUDGE_DEMO"] = "1"  # the default file: a brand-new one gets the demo
    # The server runs in the package's folder, where Streamlit would not find the secrets
    # file (organisation login's [auth]) of the folder `reljudge serve` was started in.
    secrets_file = Path(args.secrets) if args.secrets else Path(".streamlit") / "secrets.toml"
    if args.secrets and not secrets_file.is_file():
        return _error(f"no secrets file {args.secrets!r}")
    if secrets_file.is_file():
        env["STREAMLIT_SECRETS_FILES"] = str(secrets_file.resolve())
    if args.no_password_login:
        from reljudge.campaign.auth import PASSWORD_LOGIN_ENV

        env[PASSWORD_LOGIN_ENV] = "off"
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(webapp.LAUNCHER),
        "--server.port",
        str(args.port),
        "--server.address",
        args.address,
        "--server.headless",
        "true",
    ]
    # The server runs in a session of its own and this process forwards the stop signals
    # to it, once: a process manager's SIGTERM to `reljudge serve` then stops the server
    # cleanly (its databases checkpointed), and Ctrl+C in a terminal reaches it once (a
    # second SIGINT would make uvicorn skip its clean shutdown).
    server = subprocess.Popen(
        cmd, env=env, cwd=webapp.HERE, start_new_session=True, preexec_fn=_die_with_parent(os.getpid())
    )
    stopping = []

    def forward(signum, _frame):
        stopping.append(signum)
        server.send_signal(signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    code = server.wait()
    # The server re-raises the stop signal after its clean shutdown: that is a clean stop.
    return 0 if code < 0 and -code in stopping else (128 - code if code < 0 else code)


# -- parser --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reljudge",
        description="Relevance-judgment workbench for RAG retrieval evaluation.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="DuckDB file, or postgresql://USER@HOST:PORT/DBNAME for a team server, or "
        "https://HOST[:PORT][/BASE] for a remote reljudge server with an API token "
        "(default: $RELJUDGE_DB or judgments/reljudge.duckdb)",
    )
    parser.add_argument(
        "--token-env",
        metavar="VAR",
        help="with --db https://HOST: the environment variable that holds your API token (default: "
        "RELJUDGE_TOKEN; never the token itself on the command line); see docs/served.md",
    )
    parser.add_argument(
        "--campaign",
        metavar="NAME",
        help="the campaign of the database to work on (default: $RELJUDGE_CAMPAIGN or the default "
        "campaign); see `reljudge campaigns`",
    )
    parser.add_argument("--version", action="version", version=f"reljudge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def add(name, help_, example, handler):
        p = sub.add_parser(
            name,
            help=help_,
            description=help_,
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.set_defaults(handler=handler)
        return p

    p = add("init", "create (or upgrade) the database", "reljudge init --demo", cmd_init)
    p.add_argument("--demo", action="store_true", help="load the bundled synthetic demo campaign")

    campaign_setup.register(sub, add)
    accounts.register(sub, add)
    campaign_results.register(sub, add)

    p = add(
        "serve",
        "start the web app (on this machine only, unless --address widens it)",
        "reljudge serve --port 8501 --address 0.0.0.0",
        cmd_serve,
    )
    p.add_argument("--port", type=int, default=8501)
    p.add_argument(
        "--address",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every "
        "interface, e.g. for a team on a trusted network — put HTTPS in front, see docs/team-server.md)",
    )
    p.add_argument(
        "--secrets",
        metavar="FILE",
        help="Streamlit's secrets.toml, e.g. with [auth] for organisation login (default: "
        ".streamlit/secrets.toml in the current folder when there is one; docs/org-login.md)",
    )
    p.add_argument(
        "--no-password-login",
        action="store_true",
        help="organisation login only: the password form and /api/login refuse (RELJUDGE_PASSWORD_LOGIN=off)",
    )

    # Imported here, not at the top, so that other subcommands start without them; an
    # ImportError is not caught: a broken import must show itself, not make the
    # subcommand vanish as an "invalid choice".
    import importlib

    for module in (
        "reljudge.cli.evaluate_command",
        "reljudge.cli.agreement",
        "reljudge.cli.answers",
        "reljudge.campaign.copy_db",
        "reljudge.cli.plan",
        "reljudge.cli.judges",
        "reljudge.cli.quality",
    ):
        importlib.import_module(module).register(sub)
    return parser


_error = error


def main(argv: list[str] | None = None) -> int:
    """Run one command. A reader that goes away (``reljudge export … | head``) ends the
    command quietly with exit code 141 (128 + SIGPIPE, as a shell tool ends), without a
    traceback."""
    try:
        code = _main(argv)
        sys.stdout.flush()  # here, where a closed pipe can still be handled
        return code
    except BrokenPipeError:
        # Python would flush stdout again at exit and complain: point it at /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    return run_parsed(build_parser().parse_args(argv), argv)


def run_parsed(args, argv: list[str] | None = None) -> int:
    """Run the parsed command ``args``: its exit code, every refusal said on stderr. A
    running app serves it for a DuckDB file it holds (reljudge.cli.forward; ``argv`` is what
    it is sent; without it, as inside that app, nothing is forwarded)."""
    from reljudge.errors import DatabaseLockedError, OutOfMemory, ReljudgeError
    from reljudge.storage.db import chosen_campaign

    if argv is not None:
        from reljudge.cli import remote
        from reljudge.storage.db import ENV_VAR

        if remote.is_remote(args.db or os.environ.get(ENV_VAR)):  # --db https://HOST: a remote server
            args.db = args.db or os.environ.get(ENV_VAR)
            return remote.run(args, argv)
    try:
        handler = getattr(args, "handler", None) or args.func
        with chosen_campaign(args.campaign):
            return int(handler(args) or 0)
    except DatabaseLockedError as exc:
        if argv is not None:
            from reljudge.cli import forward

            code = forward.when_held(args, argv, exc)
            if code is not None:
                return code
        return _error(exc)
    except ReljudgeError as exc:
        return _error(exc)
    except MemoryError:
        return _error(OutOfMemory("the process ran out"))
    except BrokenPipeError:
        raise
    except Exception as exc:  # noqa: BLE001 — a lost PostgreSQL server, said plainly
        import duckdb

        if isinstance(exc, duckdb.OutOfMemoryException):
            return _error(OutOfMemory(str(exc).splitlines()[0]))
        from reljudge.storage import failures, postgres
        from reljudge.storage.db import database_key, is_postgres

        target = database_key(args.db)
        if is_postgres(target) and failures.is_lost_connection(exc):
            return _error(postgres.unavailable(exc, target))
        raise
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
