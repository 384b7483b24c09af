"""`reljudge copy-db SOURCE TARGET`: move a whole campaign between backends.

File → PostgreSQL to grow into a team server, PostgreSQL → file to archive (or any pair):
every table, exactly (events, accounts with their hashes as they are, runs, questions,
paragraphs, assignments, adjudications, frozen versions, answers and reviews). The target
must be new or empty; each campaign's copy is one transaction, checked table by table
afterwards. Every campaign of the source is copied (docs/team-server.md#여러-캠페인--several-campaigns): the default one with the shared accounts first, then each other one into a
campaign of the same name, live sessions included (``--drop-sessions`` leaves them out).
With the global ``--campaign NAME`` (or $RELJUDGE_CAMPAIGN), only that campaign: the
accounts with a role in it (``--all-accounts``: every account), never a live session nor a
pending organisation identity, that campaign's place in the register and its roles, and
its own tables. Each copy says what it carried of the accounts (issue 34.5).
"""

from __future__ import annotations

import argparse
import sys

from reljudge.errors import DatabaseLockedError, ReljudgeError

EPILOG = """\
SOURCE and TARGET are DuckDB files or postgresql://USER@HOST:PORT/DBNAME URLs (a
password from the URL, PGPASSWORD or ~/.pgpass). The source must not be in use by a
running app when it is a DuckDB file. The global --db is not used. Every campaign of the
source is copied, under the same names (the accounts, shared by them, once), with the live
login sessions (--drop-sessions: without them, everyone logs in again); with the global
--campaign NAME (or $RELJUDGE_CAMPAIGN) only that one, with the accounts that have a role
in it (--all-accounts: every account, password hashes and login events included) and never
a live session. The copy says what it carried.

examples:
  reljudge copy-db judgments/reljudge.duckdb postgresql://reljudge@db.lab:5432/campaign
  reljudge copy-db postgresql://reljudge@db.lab:5432/campaign judgments/archive-2026.duckdb
  reljudge --campaign round2 copy-db postgresql://reljudge@db.lab:5432/campaign round2.duckdb
  reljudge copy-db --drop-sessions judgments/reljudge.duckdb judgments/backup.duckdb
"""


def register(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "copy-db",
        help="copy a whole campaign to a new database (DuckDB file <-> PostgreSQL)",
        description="Copy every table of SOURCE into the new, empty TARGET, exactly.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("source", help="DuckDB file or postgresql:// URL holding the campaign")
    p.add_argument("target", help="new DuckDB file or empty postgresql:// database")
    p.add_argument(
        "--all-accounts",
        action="store_true",
        help="with --campaign: every account of the source, not only those with a role in the campaign",
    )
    p.add_argument(
        "--drop-sessions",
        action="store_true",
        help="leave the live login sessions and API tokens behind (a one-campaign copy never carries them)",
    )
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from reljudge.storage import open_database, postgres, transfer
    from reljudge.storage.db import database_key, is_postgres

    source, target = database_key(args.source), database_key(args.target)
    shown = {
        source: postgres.display_url(source) if is_postgres(source) else source,
        target: postgres.display_url(target) if is_postgres(target) else target,
    }
    if source == target:
        print("error: SOURCE and TARGET are the same database", file=sys.stderr)
        return 2
    import os

    from reljudge.storage.db import CAMPAIGN_ENV_VAR, DEFAULT_CAMPAIGN, campaign_name

    copied: list[tuple[str, dict[str, int]]] = []
    try:
        # one campaign when one is named (the global --campaign, or $RELJUDGE_CAMPAIGN)
        named = getattr(args, "campaign", None) or os.environ.get(CAMPAIGN_ENV_VAR, "").strip() or None
        only = campaign_name(named) if named else None
        all_accounts, drop_sessions = getattr(args, "all_accounts", False), getattr(args, "drop_sessions", False)
        if all_accounts and only is None:
            print(
                "error: --all-accounts goes with --campaign NAME (a whole copy carries every account)", file=sys.stderr
            )
            return 2
        carry = {"all_accounts": all_accounts, "sessions": not drop_sessions and only is None}
        accounts_there = 0
        # Open the source first: it must exist, and opening migrates it (and each of its
        # campaigns) to this version.
        first = open_database(source, must_exist=True, campaign=DEFAULT_CAMPAIGN)
        names = first.campaign_names()
        first.close()
        if only is not None:
            if only not in names:
                open_database(source, must_exist=True, campaign=only).close()  # says which exist
            names = [DEFAULT_CAMPAIGN] + ([only] if only != DEFAULT_CAMPAIGN else [])
        for name in names[1:]:
            open_database(source, must_exist=True, campaign=name).close()
        # the default campaign first: it carries the shared accounts and the campaigns'
        # register, so that the target then knows the other campaigns
        for name in names:
            dst = open_database(target, campaign=name)
            try:
                counts = transfer.copy(source, dst, only, **carry)
                src = open_database(source, read_only=True, campaign=name)
                try:
                    differ = transfer.compare(src, dst, only, **carry)
                    if name == DEFAULT_CAMPAIGN:
                        accounts_there = transfer.row_counts(src)["users"]
                finally:
                    src.close()
            finally:
                dst.close()
            if differ:
                print(
                    f"error: the copy of campaign {name} differs from the source in {', '.join(sorted(differ))}",
                    file=sys.stderr,
                )
                return 1
            copied.append((name, counts))
    except DatabaseLockedError:
        raise  # the command line's: it says what to do when the running app holds the file
    except ReljudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    total = sum(sum(counts.values()) for _, counts in copied)
    n_tables = sum(len(counts) for _, counts in copied)
    what = "" if only is None else f" (campaign {only} and the accounts)"
    print(f"copied {total} rows in {n_tables} tables{what}: {shown[source]} -> {shown[target]}")
    for name, counts in copied:
        if len(copied) > 1:
            print(f" campaign {name}:")
        for table, n in counts.items():
            if n:
                print(f"  {table}: {n}")
    print(_carried(dict(copied)[DEFAULT_CAMPAIGN], accounts_there, only, all_accounts, drop_sessions))
    return 0


def _carried(shared: dict[str, int], accounts_there: int, only, all_accounts: bool, drop_sessions: bool) -> str:
    """What the copy carried of the accounts, in words (issue 34.5: a copy must say it)."""
    n_accounts, n_sessions = shared.get("users", 0), shared.get("sessions", 0)
    if only is None:
        who = f"accounts: all {n_accounts}, with their password hashes and login events"
    elif all_accounts:
        who = f"accounts: all {n_accounts} (--all-accounts), with their password hashes and login events"
    else:
        who = (
            f"accounts: the {n_accounts} with a role in campaign {only} (of {accounts_there}), with their "
            "password hashes and login events; --all-accounts copies every account"
        )
    if only is not None:
        sessions = "live sessions: none (a one-campaign copy never carries them)"
    elif drop_sessions:
        sessions = "live sessions: none (--drop-sessions; everyone logs in again on the copy)"
    else:
        sessions = (
            f"live sessions: {n_sessions} carried (whoever holds one stays logged in on the copy; "
            "--drop-sessions leaves them behind)"
        )
    return f"{who}\n{sessions}"
