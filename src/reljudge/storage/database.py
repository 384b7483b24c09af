"""What every backend of a campaign's database offers: :class:`Database`.

Two backends implement it, chosen by the target (:func:`reljudge.storage.db.open_database`):

- :class:`reljudge.storage.duckdb_file.DuckDBFile` — one DuckDB file, the zero-setup
  default: one writing process, its write-ahead log folded into the file after migrating,
  when idle and at exit, a log that does not replay recovered on open;
- :class:`reljudge.storage.postgres_server.PostgresServer` — the team backend: DuckDB
  attaches a PostgreSQL database through its postgres extension and runs the same SQL
  over it (:mod:`reljudge.storage.postgres`), so several processes share a campaign.

Everything above storage talks to this interface only: a cursor per thread
(:meth:`Database.cursor`), all-or-nothing writes (:meth:`Database.transaction`), a cache
key (:attr:`Database.version`), the names of tables (:meth:`Database.table_in`,
:meth:`Database.shared`), and what to do after a failure (:meth:`Database.note_failure`,
:meth:`Database.lost_server`). Inside one process one connection is shared and every
thread (Streamlit session) works on its own ``cursor()``; writes are serialised by a lock
because they are tiny and conflicts between concurrent DuckDB transactions would otherwise
surface as retries.

Campaigns (docs/team-server.md#여러-캠페인--several-campaigns): one database holds several. The
default campaign is the schema every database has used from the start (``main`` in the
DuckDB file, ``public`` on PostgreSQL), so nothing moves in an existing database; every
other campaign is a schema of its own, ``campaign_<name>``, on both backends, built by the
same named migrations. The account tables (:data:`SHARED`) live in the default schema only
and are shared by every campaign of the database; a campaign's roles are rows of
``campaign_roles`` there (the default campaign keeps its role in ``users.role``).
"""

from __future__ import annotations

import os
import re
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ContextManager, Iterator

import duckdb

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage.migrations import MIGRATIONS, statements

CODES = Codes(
    error_memory_limit=("variable", "value"),
    error_campaign_name=("name",),
    error_unknown_campaign=("name", "known"),
)
"""The errors this module raises as codes."""

#: DuckDB's memory_limit for this process (e.g. ``256MB``); unset: DuckDB's default, 80 % of
#: RAM. Beyond it DuckDB spills to disk (an import's staged rows, sorts, joins), so it bounds
#: what a large import holds (bench/bench_import.py).
MEMORY_ENV_VAR = "RELJUDGE_MEMORY_LIMIT"
_MEMORY_RE = re.compile(r"\d+(\.\d+)?\s*(B|[KMGT]i?B)", re.IGNORECASE)


def memory_limit() -> str | None:
    """$RELJUDGE_MEMORY_LIMIT (e.g. ``256MB``), checked; None when unset."""
    limit = os.environ.get(MEMORY_ENV_VAR, "").strip()
    if limit and not _MEMORY_RE.fullmatch(limit):
        raise ReljudgeError(CODES("error_memory_limit", variable=MEMORY_ENV_VAR, value=repr(limit)))
    return limit or None


# The DuckDB file holds password and session-token hashes: reljudge creates it (and
# DuckDB's write-ahead log beside it, and the files DuckDB spills to during a write on
# either backend) readable by its owner only.
PRIVATE_UMASK = 0o077
_umask_lock = threading.Lock()


@contextmanager
def owner_only() -> Iterator[None]:
    """Files created inside the block (the database, its .wal, spill files) get mode 600.
    The umask is process-wide: it only ever narrows, and only for the length of an open or
    a write. Its lock is held around every write transaction of the process, so that the
    process's writers (the campaigns' Database objects, on either backend) take turns."""
    with _umask_lock:
        old = os.umask(PRIVATE_UMASK)
        try:
            yield
        finally:
            os.umask(old)


def in_list(values) -> str:
    """``(?, ?, …)``: an IN list with one bound parameter per value (``(NULL)`` when there
    are none: it matches nothing). Write lookups of a few known keys as ``col IN
    in_list(keys)``, not ``list_contains(?, col)``: DuckDB makes the IN list a filter of
    the table scan, and on PostgreSQL the extension sends that filter to the server, where
    an index answers it; ``list_contains`` is evaluated here, after the whole table has been
    copied over (bench/bench_load.py, part 4, counts the rows a save reads)."""
    n = len(values)
    return "(" + ", ".join("?" * n) + ")" if n else "(NULL)"


#: Rows of an import staged under one hold of the write lock (:meth:`Database.stage`):
#: about 0.1 s of a save's wait on two busy cores (bench/bench_served.py).
STAGE_ROWS = 5_000

#: Above this many keys, :meth:`Database.keys_in` on the DuckDB file binds one list instead
#: of an IN list: DuckDB binds 1,000 parameters in about 25 ms, a list in well under 1 ms.
MANY_KEYS = 50


@contextmanager
def registered(cur: duckdb.DuckDBPyConnection, name: str, frame) -> Iterator[None]:
    """Expose a DataFrame to SQL as ``name`` for the duration of the block."""
    cur.register(name, frame)
    try:
        yield
    finally:
        # An aborted transaction refuses the unregister; the original error matters more.
        try:
            cur.unregister(name)
        except duckdb.Error:
            pass


# -- campaigns: one schema each ------------------------------------------------------------
CAMPAIGN_ENV_VAR = "RELJUDGE_CAMPAIGN"
DEFAULT_CAMPAIGN = "default"
_CAMPAIGN_NAME = re.compile(r"[a-z][a-z0-9_]{0,40}")
#: Tables (and their sequence) shared by every campaign: they are made, migrated and
#: written in the default schema only; a migration statement naming one of them is skipped
#: in a campaign's own schema.
SHARED = (
    "users",
    "sessions",
    "login_events",
    "account_locks",
    "login_event_seq",
    "account_emails",
    "identity_requests",
    "campaigns",
    "campaign_roles",
    "accounts_outside_default",
    "api_tokens",
)
_SHARED_RE = re.compile(r"\b(" + "|".join(SHARED) + r")\b", re.IGNORECASE)

_chosen_campaign: ContextVar[str | None] = ContextVar("reljudge_campaign", default=None)


@contextmanager
def chosen_campaign(name: str | None) -> Iterator[None]:
    """Inside the block, :func:`reljudge.storage.db.open_database` opens campaign ``name``
    when not told one (the CLI's global ``--campaign``); ``None`` leaves $RELJUDGE_CAMPAIGN
    or the default."""
    token = _chosen_campaign.set(name)
    try:
        yield
    finally:
        _chosen_campaign.reset(token)


def is_campaign_name(name: object) -> bool:
    """The one rule for a campaign's name, wherever one comes from (the CLI's --campaign,
    $RELJUDGE_CAMPAIGN, ``campaigns create``, the URL's ?campaign=, the save route): a
    string of a lower-case ASCII letter, then lower-case letters, digits or ``_``, 41
    characters at most (its schema, ``campaign_NAME``, stays within PostgreSQL's 63)."""
    return isinstance(name, str) and _CAMPAIGN_NAME.fullmatch(name) is not None


def campaign_name(explicit: str | None = None) -> str:
    """``explicit``, else the CLI's ``--campaign``, else $RELJUDGE_CAMPAIGN, else the
    default campaign; checked (lower-case letters, digits, ``_``; a letter first)."""
    name = explicit or _chosen_campaign.get() or os.environ.get(CAMPAIGN_ENV_VAR, "").strip() or DEFAULT_CAMPAIGN
    return check_campaign_name(name)


def check_campaign_name(name: object) -> str:
    """``name`` when it is a campaign's name (:func:`is_campaign_name`), else the error
    that says the rule (an empty name too: here nothing stands in for it)."""
    if not is_campaign_name(name):
        raise ReljudgeError(CODES("error_campaign_name", name=repr(name)))
    return name


def campaign_schema(name: str) -> str | None:
    """The schema of a (checked) campaign name; None for the default campaign."""
    return None if name == DEFAULT_CAMPAIGN else f"campaign_{name}"


def campaign_statements(sql: str) -> list[str]:
    """A migration step's statements for a campaign's own schema: those that do not name a
    shared table."""
    return [s for s in statements(sql) if not _SHARED_RE.search(s)]


def migration_steps() -> list[tuple[int, str, str]]:
    """The named steps every backend applies, in order (read at each migration, so that a
    test can stand in for an older release by replacing this module's ``MIGRATIONS``)."""
    return MIGRATIONS


def run_step(cur, version: int, name: str, statements: list[str]) -> None:
    """Run a migration step's statements and record the step in ``schema_migrations``, in
    one transaction: a step is applied whole or not at all."""
    cur.begin()
    try:
        for statement in statements:
            cur.execute(statement)
        cur.execute("INSERT INTO schema_migrations(version, name) VALUES (?, ?)", [version, name])
    except BaseException:
        cur.rollback()
        raise
    cur.commit()


class Database:
    """A campaign's database, whichever backend holds it (see the module's docstring).

    A backend sets ``backend`` (``"duckdb"`` or ``"postgresql"``), ``path`` (what messages
    show: the file, or the URL without its password), ``url`` (None for a file) and
    ``_con``, and implements the methods that raise NotImplementedError here."""

    backend: str
    url: str | None
    path: object

    def __init__(self, read_only: bool, campaign: str | None):
        self.read_only = read_only
        self.campaign = campaign_name(campaign)
        #: this campaign's own schema; None for the default campaign (main / public)
        self.schema = campaign_schema(self.campaign)
        self._write_lock = threading.RLock()
        self._local = threading.local()
        # Committed writes through this object (the idle checkpointer compares it).
        self._writes = 0
        # Which connection the cursors were made on: a reconnect raises it, and a cursor
        # of an older generation is replaced.
        self._generation = 0
        self._broken = False
        self._outside_default: bool | None = None

    # -- what each backend provides ------------------------------------------------------
    def migrate(self) -> list[str]:
        """Apply every migration not yet recorded; returns the names applied. In a campaign
        other than the default, the default schema (the shared accounts) first, then the
        campaign's own schema, which must have been created (campaigns create)."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the connection (a writable DuckDB file is checkpointed first). Closing
        twice is harmless."""
        raise NotImplementedError

    def reconnect(self) -> None:
        """Open or attach again after the storage or the server failed (the next save or
        page works again without restarting the app)."""
        raise NotImplementedError

    @property
    def version(self):
        """A cache key that changes whenever something was written, and names what was
        read (the database and the campaign)."""
        raise NotImplementedError

    def table_in(self, schema: str | None, table: str) -> str:
        """``table`` of the campaign whose schema is ``schema`` (None: the default
        campaign), named so that any cursor of this database finds it."""
        raise NotImplementedError

    def catalog_and_schema(self) -> tuple[str, str]:
        """Where this campaign's tables are, as ``duckdb_tables()`` names them."""
        raise NotImplementedError

    def continue_sequence(self, cur, sequence: str, top: int) -> None:
        """Sequence ``sequence`` of this campaign goes on after ``top`` (a copy's largest id)."""
        raise NotImplementedError

    def _prepare_cursor(self, cur) -> None:
        """A new cursor's catalog and search path (this campaign's schema first)."""
        raise NotImplementedError

    def _plain_cursor(self):
        """A cursor of the connection that reads the default schema (made for one use)."""
        raise NotImplementedError

    def _has_shared_table(self, cur, table: str) -> bool:
        """Whether the default schema has ``table`` (an older database may not)."""
        raise NotImplementedError

    def _raise_db_error(self, exc: BaseException):
        """Raise ``exc`` as callers should see it (a backend turns a lost server into a
        retryable error and marks itself broken when the connection is lost)."""
        self.note_failure(exc)
        raise exc

    # -- what a backend may refine -------------------------------------------------------
    def note_failure(self, exc: BaseException) -> bool:
        """After ``exc`` reached a caller: True (and opened or attached again on the next
        use) when it says this database's connection cannot be used any more."""
        return False

    def lost_server(self, exc: BaseException) -> ReljudgeError | None:
        """The error to show when ``exc`` says the database server was lost; None when it
        does not (a file has no server to lose)."""
        return None

    def refresh_catalog(self, cur) -> None:
        """See schemas and tables other processes made since this one connected."""

    def checkpoint(self) -> bool:
        """Make every committed change durable in the database itself; True when done
        (only the DuckDB file has work to do: its write-ahead log)."""
        return True

    def keys_in(self, column: str, values: list) -> tuple[str, list]:
        """(``column IN …``, its parameters) for a set of keys: an :func:`in_list` for a
        few keys, a semi-join with one bound list for many (:data:`MANY_KEYS`)."""
        if len(values) <= MANY_KEYS:
            return f"{column} IN {in_list(values)}", list(values)
        return f"{column} IN (SELECT unnest(?))", [list(values)]

    @contextmanager
    def reading_once(self, tables: dict[str, tuple[str, ...] | None]) -> Iterator[None]:
        """For the length of the block, this thread's queries read ``tables`` as they were
        at its start (a backend whose reads are copies makes them once; the DuckDB file
        reads in place, so nothing changes there)."""
        yield

    def _write_guard(self) -> ContextManager:
        """Held around a transaction: files created meanwhile are owner-only (DuckDB makes
        the file's .wal on the first write after a checkpoint, and spills to temporary
        files), and the process's writers take turns (:func:`owner_only`)."""
        return owner_only()

    def _committed(self) -> None:
        """After a transaction committed."""
        self._writes += 1

    # -- common to every backend ---------------------------------------------------------
    def mark_broken(self) -> None:
        """The server was lost, or DuckDB invalidated the file after a failed write (seen by
        a caller): attach or open again on the next use."""
        self._broken = True

    def _ensure_connected(self) -> None:
        if self._broken:
            self.reconnect()

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's cursor (created on first use)."""
        self._ensure_connected()
        cur = getattr(self._local, "cursor", None)
        if cur is not None and getattr(self._local, "generation", None) != self._generation:
            cur = None  # made on a connection that was replaced
        if cur is None:
            cur = self._new_cursor()
            self._local.cursor = cur
            self._local.generation = self._generation
        return cur

    def _new_cursor(self) -> duckdb.DuckDBPyConnection:
        cur = self._con.cursor()
        self._prepare_cursor(cur)
        if self.schema:
            self._setup_campaign(cur)
        elif self._has_outside_default(cur):
            # the default campaign's view of the accounts: those with a role in it
            cur.execute(f"CREATE OR REPLACE TEMP VIEW users AS {self.default_accounts()}")
        return cur

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All-or-nothing write: commits on success, rolls back on any error."""
        self._ensure_connected()
        with self._write_lock:
            try:
                cur = self._write_cursor()
            except duckdb.Error as exc:
                self._raise_db_error(exc)
            failed = True
            try:
                with self._write_guard():
                    cur.begin()
                    try:
                        yield cur
                    except BaseException as exc:
                        try:
                            cur.rollback()
                        except duckdb.Error:
                            pass
                        if isinstance(exc, duckdb.Error):
                            self._raise_db_error(exc)
                        raise
                    try:
                        cur.commit()
                    except duckdb.Error as exc:
                        self._raise_db_error(exc)
                failed = False
            finally:
                if failed:  # a cursor in an unknown state is not used again
                    self._local.write_cursor = None
                    try:
                        cur.close()
                    except duckdb.Error:
                        pass
            self._committed()

    def stage(self, table: str, ddl: str, chunks) -> int:
        """Stage an import's rows (``chunks``: DataFrames) in the temporary table ``table``
        of this thread's write cursor, a chunk at a time, before the import's transaction:
        each chunk holds the process's write lock only for its own insert, and reading and
        checking the file's next chunk happens with the lock free, so that the saves of the
        annotators beside a long import wait for a piece, not for the file (docs/served.md).
        Nothing of it is visible to any other cursor; the import's one transaction (on the
        same thread, so the same cursor) checks it and makes its rows visible in one switch.
        Returns the rows staged; on any error the table is dropped."""
        self._ensure_connected()
        total = 0
        with self._write_lock:
            cur = self._write_cursor()
        try:
            with self._write_lock, self._write_guard():
                cur.execute(f"CREATE OR REPLACE TEMP TABLE {table}({ddl})")
            for chunk in chunks:
                for start in range(0, len(chunk), STAGE_ROWS):
                    piece = chunk.iloc[start : start + STAGE_ROWS]
                    # Not register()/unregister(): DuckDB would keep every registered
                    # DataFrame alive until a commit, i.e. the whole file in Python objects.
                    with self._write_lock, self._write_guard():
                        cur.from_df(piece).insert_into(table)
                total += len(chunk)
        except BaseException as exc:
            try:
                with self._write_lock:
                    cur.execute(f"DROP TABLE IF EXISTS {table}")
            except duckdb.Error:
                pass
            if isinstance(exc, duckdb.Error):
                self._raise_db_error(exc)
            raise
        return total

    def _write_cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's cursor for transactions, kept between them: a campaign's cursor
        is set up with its view of the accounts (about a millisecond), which a save must
        not pay each time. Replaced when the connection was, or after a failed write."""
        cur = getattr(self._local, "write_cursor", None)
        if cur is None or getattr(self._local, "write_generation", None) != self._generation:
            cur = self._new_cursor()
            self._local.write_cursor, self._local.write_generation = cur, self._generation
        return cur

    def applied_migrations(self) -> list[tuple[int, str]]:
        return self.cursor().execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()

    # -- campaigns ---------------------------------------------------------------------
    def shared(self, table: str) -> str:
        """The name to write a shared table (:data:`SHARED`) by, or to read all its rows:
        in every campaign ``users`` is the campaign's view of the accounts (those with a
        role in it, with that role), so a write and a read of every account name the
        table of the default schema."""
        return self.table_in(None, table)

    def default_accounts(self) -> str:
        """SQL of the default campaign's accounts, with their role there: every account
        but those outside it (made in another campaign, or revoked; migration 18)."""
        if not self._has_outside_default():
            return f"SELECT * FROM {self.shared('users')}"
        return (
            f"SELECT * FROM {self.shared('users')} "
            f"WHERE username NOT IN (SELECT username FROM {self.shared('accounts_outside_default')})"
        )

    def _has_outside_default(self, cur=None) -> bool:
        """Whether the database has migration 18's table (a read-only database made by an
        older release may not; every account then has its ``users.role``). Asked once."""
        if self._outside_default is None:
            own = cur is None
            cur = self._plain_cursor() if own else cur
            try:
                self._outside_default = self._has_shared_table(cur, "accounts_outside_default")
            finally:
                if own:
                    cur.close()
        return self._outside_default

    def _setup_campaign(self, cur) -> None:
        """A cursor of a campaign other than the default: ``users`` as this campaign sees
        the accounts: those with a role in it, with that role (a temporary view: this
        cursor only)."""
        cur.execute(
            "CREATE OR REPLACE TEMP VIEW users AS SELECT u.* REPLACE (r.role AS role) "
            f"FROM {self.shared('users')} u JOIN {self.shared('campaign_roles')} r "
            f"ON r.username = u.username AND r.campaign = '{self.campaign}'"
        )

    def campaign_names(self) -> list[str]:
        """The campaigns of this database: the default first, then the others by name."""
        try:
            cur = self._plain_cursor()
            try:
                if not self._has_shared_table(cur, "campaigns"):
                    return [DEFAULT_CAMPAIGN]
                rows = cur.execute(f"SELECT name FROM {self.shared('campaigns')} ORDER BY name").fetchall()
            finally:
                cur.close()
        except duckdb.Error as exc:
            self._raise_db_error(exc)
        return [DEFAULT_CAMPAIGN] + [r[0] for r in rows]

    def _check_campaign(self) -> None:
        """A campaign other than the default must have been created (campaigns create)."""
        known = self.campaign_names()
        if self.campaign not in known:
            raise ReljudgeError(CODES("error_unknown_campaign", name=self.campaign, known=", ".join(known)))
