"""`reljudge copy-db SOURCE TARGET`: move a whole campaign between backends.

File → PostgreSQL to grow into a team server, PostgreSQL → file to archive (or any pair):
every table, exactly (events, accounts with their hashes as they are, runs, questions,
paragraphs, assignments, adjudications, frozen versions, answers and reviews). The target
must be new or empty; the copy is one transaction, checked table by table afterwards.
"""

from __future__ import annotations

import argparse
import sys

from reljudge.errors import ReljudgeError

EPILOG = """\
SOURCE and TARGET are DuckDB files or postgresql://USER@HOST:PORT/DBNAME URLs (a
password from the URL, PGPASSWORD or ~/.pgpass). The source must not be in use by a
running app when it is a DuckDB file. The global --db is not used.

examples:
  reljudge copy-db judgments/reljudge.duckdb postgresql://reljudge@db.lab:5432/campaign
  reljudge copy-db postgresql://reljudge@db.lab:5432/campaign judgments/archive-2026.duckdb
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
    try:
        # Open the source first: it must exist, and opening migrates it to this version.
        open_database(source, must_exist=True).close()
        dst = open_database(target)
        try:
            counts = transfer.copy(source, dst)
            src = open_database(source, read_only=True)
            try:
                differ = transfer.compare(src, dst)
            finally:
                src.close()
        finally:
            dst.close()
    except ReljudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if differ:
        print(f"error: the copy differs from the source in {', '.join(sorted(differ))}", file=sys.stderr)
        return 1
    total = sum(counts.values())
    print(f"copied {total} rows in {len(counts)} tables: {shown[source]} -> {shown[target]}")
    for table, n in counts.items():
        if n:
            print(f"  {table}: {n}")
    return 0
