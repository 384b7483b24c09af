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

from reljudge import __version__, i18n
from reljudge.cli import accounts
from reljudge.cli.common import error, open_db
from reljudge.policy import Policy, source_policy
from reljudge.codes import Codes
from reljudge.grades import GRADES

CODES = Codes(error_source_policy_disagree=("source", "policy"))
"""The errors the command line itself raises (its subcommands' modules declare their own)."""

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


def _english(summary) -> str:
    """An import summary in the English catalog text."""
    return i18n.message(summary.messages(), "en", sep=summary.SEP)


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


def cmd_import(args) -> int:
    from reljudge.campaign import setup as campaign

    if args.replace and args.kind != "run":
        print("error: --replace is for runs (import run FILE --replace)", file=sys.stderr)
        return 2
    if args.update_questions and args.kind != "questions":
        print("error: --update-questions is for questions", file=sys.stderr)
        return 2
    db = _db(args, create=True)
    from reljudge.cli.forward import client_name

    display = client_name(args, args.file)  # through the running app: the client's name
    if args.kind == "answers":
        from reljudge.review import ingest

        versions = ingest.import_answers(
            db, args.file, system=args.system, fmt=args.format, replace=args.replace, display=display
        )
        print(f"answers {args.file}: " + ", ".join(f"{s} version {v}" for s, v in versions.items()))
        return 0
    if args.kind == "reviews":
        from reljudge.review import ingest

        if not args.source:
            print("error: import reviews needs --source NAME", file=sys.stderr)
            return 2
        n = ingest.import_reviews(db, args.file, args.source, display=display)
        print(f"reviews {args.file}: {n} reviewer × answer records as source {args.source!r}")
        return 0
    if args.kind == "qrels":
        from reljudge.campaign import export

        if args.format not in (None, "trec", "beir"):
            print("error: qrels are imported from --format trec or beir", file=sys.stderr)
            return 2
        done = export.import_qrels(db, args.file, args.source, args.format, display=display)
        print(f"qrels {args.file}: {done.rows} rows as source {args.source!r}")
        for notice in done.notices():  # identical duplicate rows, kept once
            print(i18n.message(notice, "en"))
        return 0
    summary = campaign.import_file(
        db,
        args.kind,
        args.file,
        fmt=args.format,
        system=args.system,
        display=display,
        progress=_terminal_progress(args.file),
        replace=args.replace,
        update_questions=args.update_questions,
    )
    print(_english(summary))
    if args.kind == "run" or campaign.counts(db)["systems"]:
        change = campaign.repool_change(db)
        print(f"pool: {change.size} items")
        if change.added or change.removed:
            print(i18n.message(change.to_message(), "en"))
    return 0


def _terminal_progress(name: str):
    """Lines read so far, on one line of stderr; only for a person at a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        text = (
            f"{name}: {done:,} / {total:,} lines read ({100 * done // max(total, 1)}%)"
            if done < total
            else f"{name}: checking and writing…"
        )
        print(f"\r\033[K{text}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    return show


def cmd_pool(args) -> int:
    from reljudge.campaign import setup as campaign

    db = _db(args)
    if args.depth is not None and args.depth < 1:
        print("error: --depth must be at least 1", file=sys.stderr)
        return 2
    n = campaign.pool(db, args.depth)
    print(f"pool: {n} items (depth {campaign.settings(db)['pool_depth']})")
    return 0


def cmd_assign(args) -> int:
    from reljudge.campaign import assignment

    db = _db(args)
    if args.reassign:
        moved = assignment.reassign(db, args.lead, args.reassign)
        print(f"moved {len(moved)} unfinished questions from {args.reassign}")
        for r in moved.itertuples():
            print(f"  {r.qid} -> {r.username}")
        return 0
    if not args.show:
        annotators = [a.strip() for a in args.annotators.split(",")] if args.annotators else None
        result = assignment.assign(
            db,
            args.lead,
            annotators,
            per_question=args.per_question,
            double_share=args.double_share,
            by_type=args.by_type,
            seed=args.seed,
        )
        print(i18n.message(result.messages(), "en"))
    frame = assignment.active_assignments(db)
    if args.show:
        print(
            frame[["qid", "username", "qtype"]].to_string(index=False)
            if not frame.empty
            else "no assignments: every annotator sees every question"
        )
    return 0


def cmd_freeze(args) -> int:
    from reljudge.campaign import adjudication

    db = _db(args)
    version = adjudication.freeze(db, args.lead, args.policy, args.note)
    print(f"qrels version {version} frozen ({adjudication.describe_policy(args.policy)})")
    for row in adjudication.version_exclusions(db, version).itertuples():
        print(f"  left out: {row.annotator} ({', '.join(row.reasons)})")
    return 0


#: The options of ``export`` that each kind of export takes (the rest are refused).
EXPORT_OPTIONS = {
    "qrels": {"format", "policy", "version", "min_grade", "include_no_answer"},
    "bundle": {"policy", "version", "dedup"},
    "judgments": {"format"},
    "adjudications": {"format"},
    "reviews": {"policy"},
}


def _export_policy(args) -> str | None:
    """``--source NAME`` is another spelling of ``--policy source:NAME``; both at once
    must agree. None when neither was given."""
    if args.source is not None:
        spelled = source_policy(args.source)
        if args.policy is not None and args.policy != spelled:
            from reljudge.errors import ReljudgeError

            raise ReljudgeError(CODES("error_source_policy_disagree", source=args.source, policy=args.policy))
        return spelled
    return args.policy


def cmd_export(args) -> int:
    from reljudge.campaign import export

    policy = _export_policy(args)
    given = {name for name in ("format", "version", "min_grade", "dedup") if getattr(args, name) is not None}
    if args.include_no_answer:
        given.add("include_no_answer")
    if policy is not None:
        given.add("policy")
    unused = sorted(given - EXPORT_OPTIONS[args.what])
    if unused:
        options = ", ".join("--" + name.replace("_", "-") for name in unused)
        return _error(f"export {args.what} takes no {options}")
    if args.what == "reviews" and policy is not None and Policy.parse(policy).source() is None:
        return _error(
            f"export reviews writes every reviewer's records; --policy {policy} does not apply "
            "(only source:NAME, an imported review source, as --source NAME)"
        )
    db = _db(args)
    if args.what == "judgments":
        fmt = args.format or "jsonl"
        n = export.write_judgments(db, args.output, fmt)
        print(f"{n} judgment events -> {args.output}")
        return 0
    if args.what == "reviews":
        from reljudge.review import ingest

        source = Policy.parse(policy).source() if policy else None
        n = ingest.write_reviews(db, args.output, source)
        print(f"{n} reviewer × answer records -> {args.output}")
        return 0
    if args.what == "adjudications":
        n = export.write_adjudications(db, args.output, args.format or "jsonl")
        print(f"{n} adjudications -> {args.output}")
        return 0
    policy = policy or "adjudicated"
    if args.what == "bundle":
        from reljudge.campaign import bundle

        built = bundle.build(db, policy, args.version, args.dedup)
        paths = bundle.write(built, args.output)
        print(f"bundle: {len(paths)} files -> {args.output} (bundle_sha256 {built.bundle_sha256})")
        return 0
    summary = export.write_qrels(
        db, args.output, args.format or "trec", policy, args.version, args.min_grade, args.include_no_answer
    )
    for notice in summary.notices:  # a model source: how many pairs it graded and could not grade
        print(i18n.message(notice, "en"), file=sys.stderr)
    print(summary.message())
    return 0


def cmd_report(args) -> int:
    from reljudge.reporting import report

    db = _db(args)
    data = report.build(db, args.policy, args.version, args.lang)
    fmt = "md" if args.format == "markdown" else args.format
    text = report.render(data, fmt)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(text, encoding="utf-8")
    print(f"report ({fmt}, {args.lang}) -> {args.output}")
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
        help="DuckDB file, or postgresql://USER@HOST:PORT/DBNAME for a team server "
        "(default: $RELJUDGE_DB or judgments/reljudge.duckdb)",
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

    p = add(
        "import",
        "import a corpus, questions, a run, qrels, generated answers or reviews (all or nothing)",
        "reljudge import run runs/bm25.trec --system bm25 [--replace]\n  reljudge import answers answers.jsonl "
        "--system rag\n  reljudge import reviews llm_reviews.jsonl --source llm-judge",
        cmd_import,
    )
    p.add_argument("kind", choices=["corpus", "questions", "run", "qrels", "answers", "reviews"])
    p.add_argument("file")
    p.add_argument("--source", help="name of an imported qrels or review source (import qrels, import reviews)")
    p.add_argument(
        "--format",
        choices=["jsonl", "csv", "trec", "beir"],
        help="file format (default: from the extension; runs default to TREC)",
    )
    p.add_argument("--system", help="system name for a run or answers (default: the tag/system column)")
    p.add_argument(
        "--replace",
        action="store_true",
        help="a run (or a system's answers) may replace one already imported (the old one is kept "
        "as a version; for a run the pool change is shown)",
    )
    p.add_argument(
        "--update-questions",
        action="store_true",
        help="questions that already have judgments may change (every earlier wording is "
        "kept; a field the file leaves out or empty keeps its value)",
    )

    p = add(
        "pool",
        "rebuild the judging pool: union of every run's top-D per question",
        "reljudge pool --depth 20",
        cmd_pool,
    )
    p.add_argument("--depth", type=int, help="pool depth D (default: the campaign's, 20)")

    accounts.register(sub, add)

    p = add(
        "assign",
        "assign questions to annotators, with overlap for agreement",
        "reljudge assign --per-question 1 --double-share 0.2 --by-type",
        cmd_assign,
    )
    p.add_argument("--per-question", type=int, default=1, help="annotators per question (default 1)")
    p.add_argument(
        "--double-share", type=float, default=0.0, help="share of questions judged by at least two annotators (0-1)"
    )
    p.add_argument("--by-type", action="store_true", help="balance within each question type")
    p.add_argument("--annotators", help="comma-separated usernames (default: all active annotators)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lead", default="cli", help="name recorded as the assigner")
    p.add_argument("--reassign", metavar="USER", help="move USER's unfinished questions to others")
    p.add_argument("--show", action="store_true", help="only list the current assignments")

    p = add(
        "freeze",
        "freeze the aggregated judgments as the next numbered qrels version",
        "reljudge freeze --note 'after adjudication round 1'",
        cmd_freeze,
    )
    p.add_argument(
        "--policy",
        default="adjudicated",
        help="adjudicated (default), majority, or annotator:NAME; adjudicated+exclude-flagged or "
        "majority+exclude-flagged records whom quality control flagged and leaves them out",
    )
    p.add_argument("--note")
    p.add_argument("--lead", default="cli", help="name recorded as the author")

    p = add(
        "export",
        "export qrels (aggregated, per annotator or a frozen version), the raw "
        "judgment history, the lead's adjudications with their reasons, a reproducibility "
        "bundle (qrels and runs exactly as evaluated, with the trec_eval commands for every number), "
        "or the answer reviews",
        "reljudge export qrels --format trec --policy adjudicated -o judgments/qrels.txt\n"
        "  reljudge export bundle --version 2 -o judgments/bundle-v2",
        cmd_export,
    )
    p.add_argument("what", choices=["qrels", "judgments", "adjudications", "bundle", "reviews"])
    p.add_argument(
        "--source",
        metavar="NAME",
        help="an imported source instead of the team's judgments or reviews: the same as --policy source:NAME",
    )
    p.add_argument(
        "--format",
        choices=["trec", "beir", "jsonl", "csv", "parquet", "trec-sampled"],
        help="qrels: trec (default), beir, jsonl, csv, parquet, trec-sampled (under a sampling plan: "
        "the draw with its strata, what TREC's sample_eval.pl reads); "
        "judgments, adjudications: jsonl (default), csv, parquet",
    )
    p.add_argument(
        "--policy",
        help="qrels, bundle: adjudicated (default), majority, annotator:NAME or source:NAME "
        "(adjudicated and majority take +exclude-flagged); reviews: source:NAME only",
    )
    p.add_argument("--version", type=int, help="a frozen qrels version instead of the live state")
    p.add_argument("--min-grade", type=int, choices=list(GRADES), help="only rows with grade >= this")
    p.add_argument(
        "--include-no-answer",
        action="store_true",
        help="qrels: keep the no-answer questions' rows (default: left out, as the evaluation "
        "leaves them out of the means, and listed in the .no_answer file beside)",
    )
    from reljudge.eval.ranking import DEDUP

    p.add_argument(
        "--dedup", choices=list(DEDUP), help="bundle: duplicates policy to evaluate under (default: the campaign's)"
    )
    p.add_argument("-o", "--output", required=True, help="output file (bundle: a new or empty directory)")

    p = add(
        "report",
        "write the evaluation report the methodology asks for (Markdown or HTML)",
        "reljudge report --format html -o judgments/report.html",
        cmd_report,
    )
    p.add_argument(
        "--format", choices=["md", "markdown", "html"], default="md", help="md or markdown (the same), or html"
    )
    p.add_argument("--lang", choices=["ko", "en"], default="ko")
    p.add_argument(
        "--policy",
        default="adjudicated",
        help="adjudicated (default), majority, annotator:NAME or source:NAME (imported or a model's); "
        "adjudicated and majority take +exclude-flagged; "
        "the model section compares every other model source with it (live grades)",
    )
    p.add_argument("--version", type=int, help="a frozen qrels version instead of the live judgments")
    p.add_argument("-o", "--output", required=True)

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
