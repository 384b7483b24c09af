"""Copying a whole campaign between databases, either backend to either backend.

The target database (its own DuckDB connection) attaches the source read-only and copies
every table of the schema row for row, columns by name, in one transaction: events,
accounts (password and session hashes as they are), runs, questions, paragraphs,
assignments, adjudications, frozen qrels versions, answers and reviews. The migrations'
record (``schema_migrations``) is each database's own; both must have the same steps.
Sequences of the target then continue after the copied ids.

One campaign at a time (docs/team-server.md#여러-캠페인--several-campaigns): ``target`` is a
Database of one campaign, and the copy fills that campaign's schema from the same
campaign's schema of the source. The default campaign's copy carries the shared tables
(accounts, the campaigns' register and roles) with it.
"""

from __future__ import annotations

import duckdb

from reljudge.errors import ReljudgeError
from reljudge.sql import ident
from reljudge.storage import postgres
from reljudge.storage.db import DEFAULT_CAMPAIGN, SHARED, Database, is_postgres
from reljudge.storage.migrations import MIGRATIONS, created_table, sequence_of, set_default, statements
from reljudge.codes import Codes

CODES = Codes(
    error_cannot_open_source_db=("source", "detail"),
    error_copy_target_not_empty=("path", "tables"),
    error_copy_migrations_differ=("steps",),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

SOURCE = "rj_source"


def sequences() -> list[tuple[str, str, str]]:
    """(table, column, sequence) for every column numbered by a sequence, as the last
    migration step that set it left it (decoy_events' ids come from judgment_event_seq
    since step 19)."""
    found: dict[tuple[str, str], str] = {}
    for _version, _name, sql in MIGRATIONS:
        for statement in statements(sql):
            if created := created_table(statement):
                table, declared = created
                found.update({(table, c.name): c.sequence for c in declared if c.sequence})
            elif altered := set_default(statement):
                table, column, default = altered
                if sequence := sequence_of(default):
                    found[(table, column)] = sequence
    return [(table, column, sequence) for (table, column), sequence in found.items()]


def tables(db: Database) -> list[str]:
    """The campaign's tables (base tables of its schema, not views), sorted by name."""
    catalog, schema = db.catalog_and_schema()
    cur = db.cursor()
    return [
        r[0]
        for r in cur.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = ? "
            "AND table_name <> 'schema_migrations' ORDER BY 1",
            [catalog, schema],
        ).fetchall()
    ]


def columns(db: Database, table: str) -> list[str]:
    return [
        r[0]
        for r in db.cursor()
        .execute("SELECT column_name FROM (DESCRIBE SELECT * FROM " + _table(db, table) + ")")
        .fetchall()
    ]


def _table(db: Database, name: str) -> str:
    """Table ``name`` of ``db``'s campaign, as stored: a shared table by its own name (in
    every campaign ``users`` reads as the campaign's view of the accounts)."""
    return db.shared(name) if name in SHARED else ident(name)


def row_counts(db: Database) -> dict[str, int]:
    cur = db.cursor()
    return {t: cur.execute(f"SELECT count(*) FROM {_table(db, t)}").fetchone()[0] for t in tables(db)}


def _attach_source(db: Database, source: str) -> None:
    cur = db.cursor()
    if is_postgres(source):
        cur.execute(f"LOAD '{postgres.extension_path()}'")
        try:
            cur.execute(f"ATTACH {postgres.quote(source)} AS {SOURCE} (TYPE postgres, READ_ONLY)")
        except duckdb.Error as exc:
            raise postgres.unavailable(exc, source) from None
    else:
        try:
            cur.execute(f"ATTACH {postgres.quote(source)} AS {SOURCE} (READ_ONLY)")
        except duckdb.Error as exc:
            raise ReljudgeError(CODES("error_cannot_open_source_db", source=str(source), detail=str(exc))) from None


# The account tables that name an account: a one-campaign copy keeps only the rows of the
# accounts it carries (issue 34.5: a copy of campaign C carried every account's password
# hash, live session hashes and login events, also of accounts with no role in C).
_BY_ACCOUNT = ("users", "login_events", "account_locks", "account_emails", "accounts_outside_default")


def _members_sql(only: str, ref) -> tuple[str, list]:
    """SQL (and parameters) of the accounts with a role in campaign ``only``: the default
    campaign's are every account but those outside it (migration 18); another campaign's
    are its rows of ``campaign_roles``. ``ref(table)`` names a table where it is read."""
    if only == DEFAULT_CAMPAIGN:
        return (
            f"SELECT username FROM {ref('users')} "
            f"WHERE username NOT IN (SELECT username FROM {ref('accounts_outside_default')})",
            [],
        )
    return f"SELECT username FROM {ref('campaign_roles')} WHERE campaign = ?", [only]


def _selection(
    db: Database, only: str | None, ref, all_accounts: bool = False, sessions: bool = True
) -> dict[str, tuple[str, list]]:
    """{table: row filter} of what a copy of ``db``'s schema carries; ``ref(table)`` names
    a table of the database the filter reads (the attached source, or ``db`` itself).

    Every table, whole, unless ``only`` names the one campaign being copied: then the
    default schema gives the accounts with a role in that campaign (every account with
    ``all_accounts``) and, of the campaigns' register and roles, only that campaign's rows
    (none when it is the default campaign), never a live session nor a pending identity;
    another campaign's schema is not touched (only its own copy reads it). ``sessions``
    False leaves the live sessions out of a whole-database copy too."""
    names = tables(db)
    if db.schema:
        return {t: ("TRUE", []) for t in names}
    if only is None:
        # live sessions and API tokens are credentials: a copy without sessions carries neither
        return {t: ("TRUE" if sessions or t not in ("sessions", "api_tokens") else "FALSE", []) for t in names}
    if only != DEFAULT_CAMPAIGN:
        names = [t for t in names if t in SHARED]
    params = [] if only == DEFAULT_CAMPAIGN else [only]
    keep = "FALSE" if only == DEFAULT_CAMPAIGN else "{column} = ?"
    filters = {
        "campaigns": (keep.format(column="name"), params),
        "campaign_roles": (keep.format(column="campaign"), params),
        "sessions": ("FALSE", []),
        "api_tokens": ("FALSE", []),  # credentials, like the sessions
    }
    if not all_accounts:
        members, member_params = _members_sql(only, ref)
        filters["identity_requests"] = ("FALSE", [])
        for table in _BY_ACCOUNT:
            filters[table] = (f"username IN ({members})", member_params)
    return {t: filters.get(t, ("TRUE", [])) for t in names}


def copy(
    source: str, target: Database, only: str | None = None, all_accounts: bool = False, sessions: bool = True
) -> dict[str, int]:
    """Copy every table of the database at ``source`` (a file path or a PostgreSQL URL,
    fully migrated) into the empty database ``target``; returns rows per table. ``only``:
    one campaign is copied, with the accounts that have a role there (``all_accounts``:
    every account) and no live session; ``sessions`` False: a whole copy without the live
    sessions (:func:`_selection`; ``copy-db --campaign NAME``, ``--all-accounts``,
    ``--drop-sessions``)."""
    not_empty = {t: n for t, n in row_counts(target).items() if n}
    if not_empty:
        raise ReljudgeError(
            CODES(
                "error_copy_target_not_empty",
                path=str(target.path),
                tables=", ".join(f"{t}: {n}" for t, n in sorted(not_empty.items())),
            )
        )
    _attach_source(target, source)
    schema = target.schema or ("public" if is_postgres(source) else "main")
    try:
        selection = _selection(
            target, only, lambda t: f"{SOURCE}.{schema}.{ident(t)}", all_accounts=all_accounts, sessions=sessions
        )
        cur = target.cursor()
        source_steps = {
            r[0] for r in cur.execute(f"SELECT version FROM {SOURCE}.{schema}.schema_migrations").fetchall()
        }
        target_steps = {r[0] for r in target.applied_migrations()}
        if source_steps != target_steps:
            raise ReljudgeError(CODES("error_copy_migrations_differ", steps=str(sorted(source_steps ^ target_steps))))
        counts = {}
        with target.transaction() as tx:
            for table, (where, params) in selection.items():
                cols = ", ".join(ident(c) for c in columns(target, table))
                tx.execute(
                    f"INSERT INTO {_table(target, table)} ({cols}) SELECT {cols} FROM {SOURCE}.{schema}.{ident(table)} "
                    f"WHERE {where}",
                    params,
                )
                counts[table] = tx.execute(f"SELECT count(*) FROM {_table(target, table)}").fetchone()[0]
        _continue_sequences(target)
        return counts
    finally:
        try:
            target.cursor().execute(f"DETACH {SOURCE}")
        except duckdb.Error:
            pass


def _continue_sequences(db: Database) -> None:
    """Every sequence of the target goes on after the largest copied id."""
    cur = db.cursor()
    own = set(tables(db))
    tops: dict[str, int] = {}
    for table, column, sequence in sequences():
        if table not in own:  # a shared table, seen from another campaign
            continue
        top = cur.execute(f"SELECT max({ident(column)}) FROM {_table(db, table)}").fetchone()[0]
        if top is not None:  # a sequence that numbers two tables goes on after both
            tops[sequence] = max(tops.get(sequence, int(top)), int(top))
    for sequence, top in tops.items():
        db.continue_sequence(cur, sequence, top)


def compare(
    a: Database, b: Database, only: str | None = None, all_accounts: bool = False, sessions: bool = True
) -> dict[str, str]:
    """Tables whose rows differ between ``a`` and ``b`` (empty: identical), for tests and
    for ``copy-db``'s own check; ``only``, ``all_accounts``, ``sessions``: what that copy
    carries (:func:`copy`)."""
    differ = {}
    selection = _selection(a, only, lambda t: _table(a, t), all_accounts=all_accounts, sessions=sessions)
    for table, (where, params) in selection.items():
        cols = columns(a, table)
        order = ", ".join(ident(c) for c in cols)
        left = (
            a.cursor().execute(f"SELECT {order} FROM {_table(a, table)} WHERE {where} ORDER BY ALL", params).fetchall()
        )
        right = b.cursor().execute(f"SELECT {order} FROM {_table(b, table)} ORDER BY ALL").fetchall()
        if left != right:
            differ[table] = f"{len(left)} rows vs {len(right)} rows"
    return differ
