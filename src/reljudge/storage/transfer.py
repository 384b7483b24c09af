"""Copying a whole campaign between databases, either backend to either backend.

The target database (its own DuckDB connection) attaches the source read-only and copies
every table of the schema row for row, columns by name, in one transaction: events,
accounts (password and session hashes as they are), runs, questions, paragraphs,
assignments, adjudications, frozen qrels versions, answers and reviews. The migrations'
record (``schema_migrations``) is each database's own; both must have the same steps.
Sequences of the target then continue after the copied ids.

One campaign at a time (README "여러 캠페인 / Several campaigns"): ``target`` is a
Database of one campaign, and the copy fills that campaign's schema from the same
campaign's schema of the source. The default campaign's copy carries the shared tables
(accounts, the campaigns' register and roles) with it.
"""

from __future__ import annotations

import re

import duckdb

from reljudge.errors import ReljudgeError
from reljudge.storage import postgres
from reljudge.storage.db import DEFAULT_CAMPAIGN, SHARED, Database, is_postgres
from reljudge.storage.migrations import MIGRATIONS
from reljudge.codes import Codes

CODES = Codes(
    error_cannot_open_source_db=("source", "detail"),
    error_copy_target_not_empty=("path", "tables"),
    error_copy_migrations_differ=("steps",),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

SOURCE = "rj_source"
_SEQUENCE_COLUMN = re.compile(r"^\s*(\w+)\s+[A-Z]+[^\n]*DEFAULT\s+nextval\('(\w+)'\)", re.I | re.M)
_TABLE = re.compile(r"CREATE\s+TABLE\s+(\w+)\s*\((.*?)\n\);", re.I | re.S)


def sequences() -> list[tuple[str, str, str]]:
    """(table, column, sequence) for every column numbered by a sequence."""
    found = []
    for _version, _name, sql in MIGRATIONS:
        for table, body in _TABLE.findall(sql):
            for column, sequence in _SEQUENCE_COLUMN.findall(body):
                found.append((table, column, sequence))
    return found


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


def _ident(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"not a table name: {name!r}")
    return '"' + name + '"'


def _table(db: Database, name: str) -> str:
    """Table ``name`` of ``db``'s campaign, as stored: a shared table by its own name (in
    every campaign ``users`` reads as the campaign's view of the accounts)."""
    return db.shared(name) if name in SHARED else _ident(name)


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


def _selection(db: Database, only: str | None) -> dict[str, tuple[str, list]]:
    """{table: row filter} of what a copy of ``db``'s schema carries. Every table, whole,
    unless ``only`` names the one campaign being copied: then the default schema gives the
    shared accounts whole, and of the campaigns' register and roles only that campaign's
    rows (none when it is the default campaign); another campaign's schema is not touched
    (only its own copy reads it)."""
    names = tables(db)
    if only is None or db.schema:
        return {t: ("TRUE", []) for t in names}
    if only != DEFAULT_CAMPAIGN:
        names = [t for t in names if t in SHARED]
    params = [] if only == DEFAULT_CAMPAIGN else [only]
    keep = "FALSE" if only == DEFAULT_CAMPAIGN else "{column} = ?"
    filters = {"campaigns": keep.format(column="name"), "campaign_roles": keep.format(column="campaign")}
    return {t: (filters[t], params) if t in filters else ("TRUE", []) for t in names}


def copy(source: str, target: Database, only: str | None = None) -> dict[str, int]:
    """Copy every table of the database at ``source`` (a file path or a PostgreSQL URL,
    fully migrated) into the empty database ``target``; returns rows per table. ``only``:
    one campaign is copied (:func:`_selection`; ``copy-db --campaign NAME``)."""
    not_empty = {t: n for t, n in row_counts(target).items() if n}
    if not_empty:
        raise ReljudgeError(
            CODES(
                "error_copy_target_not_empty",
                path=str(target.path),
                tables=", ".join(f"{t}: {n}" for t, n in sorted(not_empty.items())),
            )
        )
    selection = _selection(target, only)
    _attach_source(target, source)
    schema = target.schema or ("public" if is_postgres(source) else "main")
    try:
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
                cols = ", ".join(_ident(c) for c in columns(target, table))
                tx.execute(
                    f"INSERT INTO {_table(target, table)} ({cols}) SELECT {cols} FROM {SOURCE}.{schema}.{_ident(table)} "
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
    for table, column, sequence in sequences():
        if table not in own:  # a shared table, seen from another campaign
            continue
        top = cur.execute(f"SELECT max({_ident(column)}) FROM {_table(db, table)}").fetchone()[0]
        if top is None:
            continue
        db.continue_sequence(cur, sequence, int(top))


def compare(a: Database, b: Database, only: str | None = None) -> dict[str, str]:
    """Tables whose rows differ between ``a`` and ``b`` (empty: identical), for tests and
    for ``copy-db``'s own check; ``only``: what a copy of that one campaign carries."""
    differ = {}
    for table, (where, params) in _selection(a, only).items():
        cols = columns(a, table)
        order = ", ".join(_ident(c) for c in cols)
        left = (
            a.cursor().execute(f"SELECT {order} FROM {_table(a, table)} WHERE {where} ORDER BY ALL", params).fetchall()
        )
        right = b.cursor().execute(f"SELECT {order} FROM {_table(b, table)} ORDER BY ALL").fetchall()
        if left != right:
            differ[table] = f"{len(left)} rows vs {len(right)} rows"
    return differ
