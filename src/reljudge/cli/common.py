"""What every CLI command module shares: how a command opens the campaign's database and
how a refusal ends (one line on stderr, exit code 2)."""

from __future__ import annotations

import sys


def open_db(args, create: bool = False):
    """The campaign database named by ``--db`` (default: $RELJUDGE_DB or the default file);
    only commands that set one up (init, import, users add) may create it."""
    from reljudge.storage import open_database

    return open_database(getattr(args, "db", None), must_exist=not create)


def error(message) -> int:
    """One line on stderr, exit code 2: how every refusal of the CLI ends."""
    print(f"error: {message}", file=sys.stderr)
    return 2
