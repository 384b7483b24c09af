"""`reljudge copy-db SOURCE TARGET`: move a whole campaign between backends.

File → PostgreSQL to grow into a team server, PostgreSQL → file to archive (or any pair):
every table, exactly (events, accounts with their hashes as they are, runs, questions,
paragraphs, assignments, adjudications, frozen versions, answers and reviews). The target
must be new or empty; each campaign's copy is one transaction, checked table by table
afterwards. Every campaign of the source is copied (README "여러 캠페인 / Several
campaigns"): the default one with the shared accounts first, then each other one into a
campaign of the same name. With the global ``--campaign NAME`` (or $RELJUDGE_CAMPAIGN),
only that campaign: the shared accounts, that campaign's place in the register and its
roles, and its own tables.
"""

from __future__ import annotations

import argparse
import sys

from reljudge.errors import ReljudgeError

EPILOG = """\
SOURCE and TARGET are DuckDB files or postgresql://USER@HOST:PORT/DBNAME URLs (a
password from the URL, PGPASSWORD or ~/.pgpass). The source must not be in use by a
running app when it is a DuckDB file. The global --db is not used. Every campaign of the
source is copied, under the same names (the accounts, shared by them, once); with the
global --campaign NAME (or $RELJUDGE_CAMPAIGN) only that one, with the accounts.

examples:
  reljudge copy-db judgments/reljudge.duckdb postgresql://reljudge@db.lab:5432/campaign
  reljudge copy-db postgresql://reljudge@db.lab:5432/campaign judgments/archive-2026.duckdb
  reljudge --campaign round2 copy-db postgresql://reljudge@db.lab:5432/campaign round2.duckdb
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
                counts = transfer.copy(source, dst, only)
                src = open_database(source, read_only=True, campaign=name)
                try:
                    differ = transfer.compare(src, dst, only)
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
    return 0
