"""Opening the database, applying migrations, and handing out cursors.

Two backends, one decision (:func:`is_postgres`): a ``postgresql://`` URL selects
PostgreSQL (the team backend: DuckDB attaches it through its postgres extension and runs
the same SQL over it, see :mod:`reljudge.storage.postgres`); anything else is a DuckDB
file (the zero-setup default).

DuckDB allows one writing process per file. Inside that process one connection
is shared and every thread (Streamlit session) works on its own ``cursor()``;
writes are serialised by a lock because they are tiny and conflicts between
concurrent DuckDB transactions would otherwise surface as retries. On PostgreSQL the
same holds inside one process; other processes write at the same time, and PostgreSQL's
constraints (unique client event ids) keep their events single.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import sys
import threading
import time
import weakref
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import duckdb

from reljudge.codes import Codes
from reljudge.errors import DatabaseLockedError, ReljudgeError
import reljudge.storage.failures as failures
import reljudge.storage.postgres as postgres
from reljudge.storage.migrations import MIGRATIONS

DEFAULT_DB = Path("judgments") / "reljudge.duckdb"
ENV_VAR = "RELJUDGE_DB"
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


# The file holds password and session-token hashes: reljudge creates it (and DuckDB's
# write-ahead log beside it) readable by its owner only.
PRIVATE_UMASK = 0o077
_umask_lock = threading.Lock()


@contextmanager
def _owner_only() -> Iterator[None]:
    """Files created inside the block (the database, its .wal) get mode 600. The umask is
    process-wide: it only ever narrows, and only for the length of an open or a write."""
    with _umask_lock:
        old = os.umask(PRIVATE_UMASK)
        try:
            yield
        finally:
            os.umask(old)


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


# -- durability of the DuckDB file ---------------------------------------------------------
# DuckDB keeps committed changes in the write-ahead log (<file>.wal) until a checkpoint
# folds them into the file. DuckDB 1.5.5 cannot replay some schema changes from that log
# when the file is opened as the default database ("Calling DatabaseManager::
# GetDefaultDatabase with no default database set", duckdb/duckdb#19712 and #22044: an
# ALTER TABLE … ADD COLUMN with a DEFAULT, as our migrations have): a process stopped after
# migrating a new file, before any checkpoint, left a campaign that nothing could open.
# So (docs/durability.md): no schema change lives only in the log (a checkpoint after
# migrating), the log is folded in when the process has been idle a moment and when it
# ends, and a file whose log does not replay is recovered on open.

#: Seconds without a write after which a DuckDB file is checkpointed.
IDLE_CHECKPOINT_S = 2.0

#: Every writable DuckDB file this process has open: checkpointed and closed at exit
#: (a clean stop, SIGTERM or SIGINT under ``streamlit run`` and ``reljudge serve``).
_OPEN_FILES: "weakref.WeakSet[Database]" = weakref.WeakSet()


def _checkpoint_open_files_at_exit() -> None:
    for db in list(_OPEN_FILES):
        db.close()


atexit.register(_checkpoint_open_files_at_exit)


def _say(text: str) -> None:
    """A line for the operator (the server's log, the CLI's stderr)."""
    print(f"reljudge: {text}", file=sys.stderr, flush=True)


def recover_wal(path: Path) -> Path:
    """Replay the write-ahead log of ``path`` through an attachment and fold it into the
    file. DuckDB replays the same log without error when the file is attached to an
    in-memory database rather than opened as the default one (the defect above). The log
    is first copied beside the file (``<file>.wal.before-recovery-<UTC time>``, the file's
    own mode), so that nothing depends on the recovery being right. Returns that copy."""
    wal = wal_path(path)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    backup = wal.with_name(f"{wal.name}.before-recovery-{stamp}")
    with _owner_only():
        shutil.copy2(wal, backup)
    con = duckdb.connect(":memory:")
    try:
        # ATTACH takes no bound parameters: the path as a quoted SQL string literal.
        con.execute("ATTACH '" + str(path).replace("'", "''") + "' AS recovering")
        con.execute("CHECKPOINT recovering")
        con.execute("DETACH recovering")
    finally:
        con.close()
    return backup


def in_list(values) -> str:
    """``(?, ?, …)``: an IN list with one bound parameter per value (``(NULL)`` when there
    are none: it matches nothing). Write lookups of a few known keys as ``col IN
    in_list(keys)``, not ``list_contains(?, col)``: DuckDB makes the IN list a filter of
    the table scan, and on PostgreSQL the extension sends that filter to the server, where
    an index answers it; ``list_contains`` is evaluated here, after the whole table has been
    copied over (bench/bench_load.py, part 4, counts the rows a save reads)."""
    n = len(values)
    return "(" + ", ".join("?" * n) + ")" if n else "(NULL)"


#: Above this many keys, :meth:`Database.keys_in` on the DuckDB file binds one list instead
#: of an IN list: DuckDB binds 1,000 parameters in about 25 ms, a list in well under 1 ms.
MANY_KEYS = 50


def is_postgres(target) -> bool:
    """The one place that decides the backend: a postgresql:// (or postgres://) URL."""
    return postgres.is_url(str(target)) if target is not None else False


# -- campaigns: one schema each ------------------------------------------------------------
# One database holds several campaigns (README "여러 캠페인 / Several campaigns"). The default
# campaign is the schema every database has used from the start (``main`` in the DuckDB
# file, ``public`` on PostgreSQL), so nothing moves in an existing database; every other
# campaign is a schema of its own, ``campaign_<name>``, on both backends, built by the same
# named migrations. The account tables (:data:`SHARED`) live in the default schema only and
# are shared by every campaign of the database; a campaign's roles are rows of
# ``campaign_roles`` there (the default campaign keeps its role in ``users.role``).

CAMPAIGN_ENV_VAR = "RELJUDGE_CAMPAIGN"
DEFAULT_CAMPAIGN = "default"
CAMPAIGN_NAME = re.compile(r"[a-z][a-z0-9_]{0,40}")
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
)
_SHARED_RE = re.compile(r"\b(" + "|".join(SHARED) + r")\b", re.IGNORECASE)

_chosen_campaign: ContextVar[str | None] = ContextVar("reljudge_campaign", default=None)


@contextmanager
def chosen_campaign(name: str | None) -> Iterator[None]:
    """Inside the block, :func:`open_database` opens campaign ``name`` when not told one
    (the CLI's global ``--campaign``); ``None`` leaves $RELJUDGE_CAMPAIGN or the default."""
    token = _chosen_campaign.set(name)
    try:
        yield
    finally:
        _chosen_campaign.reset(token)


def campaign_name(explicit: str | None = None) -> str:
    """``explicit``, else the CLI's ``--campaign``, else $RELJUDGE_CAMPAIGN, else the
    default campaign; checked (lower-case letters, digits, ``_``; a letter first)."""
    name = explicit or _chosen_campaign.get() or os.environ.get(CAMPAIGN_ENV_VAR, "").strip() or DEFAULT_CAMPAIGN
    if not isinstance(name, str) or not CAMPAIGN_NAME.fullmatch(name):
        raise ReljudgeError(CODES("error_campaign_name", name=repr(name)))
    return name


def campaign_schema(name: str) -> str | None:
    """The schema of a (checked) campaign name; None for the default campaign."""
    return None if name == DEFAULT_CAMPAIGN else f"campaign_{name}"


def campaign_statements(sql: str) -> list[str]:
    """A migration step's statements for a campaign's own schema: those that do not name a
    shared table."""
    return [s for s in postgres.statements(sql) if not _SHARED_RE.search(s)]


def default_db_path(explicit: str | os.PathLike | None = None) -> Path | str:
    """``--db`` if given, else ``$RELJUDGE_DB``, else ``judgments/reljudge.duckdb``.
    A PostgreSQL URL is returned as the string it is (a ``Path`` would mangle it)."""
    target = explicit if explicit else os.environ.get(ENV_VAR)
    if not target:
        return DEFAULT_DB
    return str(target) if is_postgres(target) else Path(target)


def database_key(explicit: str | os.PathLike | None = None) -> str:
    """What identifies the database across processes: the URL, or the file's absolute path
    (what ``reljudge serve`` hands to its app process)."""
    target = default_db_path(explicit)
    return target if isinstance(target, str) else str(target.resolve())


def _first_line(exc: BaseException) -> str:
    """DuckDB's internal errors carry a stack trace after the first line."""
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


CODES = Codes(
    error_db_locked=("path",),
    error_memory_limit=("variable", "value"),
    error_cannot_open_db=("path", "detail"),
    error_no_database=("path", "variable"),
    error_campaign_name=("name",),
    error_unknown_campaign=("name", "known"),
)
"""The errors this module raises as codes (the others carry DuckDB's own text)."""


# Committed writes of this process to each DuckDB file (every Database object of it): the
# file's part of Database.version. Counted per file, not per object, so that a cache keyed
# on the version is never stale for an object opened after another one wrote the file (or
# one that Python put at the address of a closed one: id() is reused).
_FILE_WRITES: dict[str, int] = {}
_FILE_WRITES_LOCK = threading.Lock()


class Database:
    """One DuckDB connection for the whole process, a cursor per thread."""

    def __init__(
        self, path: str | os.PathLike, read_only: bool = False, must_exist: bool = False, campaign: str | None = None
    ):
        self.read_only = read_only
        self.campaign = campaign_name(campaign)
        #: this campaign's own schema; None for the default campaign (main / public)
        self.schema = campaign_schema(self.campaign)
        self._write_lock = threading.RLock()
        self._local = threading.local()
        self._writes = 0
        if is_postgres(path):
            self.backend = "postgresql"
            self.url = str(path)
            self.path = postgres.display_url(self.url)  # shown in messages: no password
            self._connect_postgres()
            if must_exist and not postgres.table_exists(self._con, "schema_migrations"):
                self._con.close()
                raise ReljudgeError(
                    f"{self.path}: this PostgreSQL database holds no reljudge campaign: "
                    "check --db / $RELJUDGE_DB, or create it with `reljudge init`"
                )
            if not read_only:
                self.migrate()
            elif self.schema:
                self._check_campaign()
            return
        self.backend = "duckdb"
        self.url = None
        self.path = Path(path)
        self._file_key = str(self.path.resolve())
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._con = self._connect_file()
        try:
            limit = memory_limit()
        except ReljudgeError:
            self._con.close()
            raise
        if limit:
            self._con.execute(f"SET memory_limit = '{limit}'")
        # Counts committed writes of this process: a cache keyed on it is exact, because
        # DuckDB lets only this process write the file.
        self._writes = 0
        self._closed = threading.Event()
        self._last_write = time.monotonic()
        self._checkpointed_writes = 0
        self._checkpointer: threading.Thread | None = None
        self._catalog = self._con.execute("SELECT current_database()").fetchone()[0]
        if read_only and self.schema:
            try:
                self._check_campaign()
            except ReljudgeError:
                self._con.close()
                raise
        if not read_only:
            try:
                self.migrate()
            except ReljudgeError:
                self._con.close()
                raise
            # The file now holds the whole schema: no schema change is left in the log
            # alone, where DuckDB 1.5.5 may fail to replay it (see recover_wal).
            self.checkpoint()
            _OPEN_FILES.add(self)
        # Every connection of this database (cursors included) reads and writes time stamps
        # in UTC: `current_timestamp` stored into a TIMESTAMP column is UTC wall-clock time
        # whatever the server's zone. After migrate(): the step 'timestamps_in_utc' converts
        # older rows from the server's local zone. Shown in the campaign's zone: reljudge.times.
        self._con.execute("SET GLOBAL TimeZone = 'UTC'")

    def _connect_file(self) -> duckdb.DuckDBPyConnection:
        """Open the DuckDB file; a write-ahead log that does not replay is recovered
        (:func:`recover_wal`), said on stderr, and the file opened again."""
        recovered = False
        while True:
            try:
                with _owner_only():
                    return duckdb.connect(str(self.path), read_only=self.read_only)
            except duckdb.IOException as exc:
                if _is_lock_error(exc):
                    raise DatabaseLockedError(CODES("error_db_locked", path=str(self.path))) from None
                raise ReljudgeError(CODES("error_cannot_open_db", path=str(self.path), detail=str(exc))) from None
            except duckdb.Error as exc:
                if recovered or not wal_path(self.path).exists():
                    raise ReljudgeError(
                        CODES("error_cannot_open_db", path=str(self.path), detail=_first_line(exc))
                    ) from None
                try:
                    backup = recover_wal(self.path)
                except (duckdb.Error, OSError) as again:
                    raise ReljudgeError(
                        f"{self.path}: cannot open database: its write-ahead log "
                        f"{wal_path(self.path).name} does not replay ({_first_line(exc)}), and recovering "
                        f"it failed too ({_first_line(again)}); the files are unchanged"
                    ) from None
                _say(
                    f"{self.path}: its write-ahead log did not replay when opened directly "
                    f"(a DuckDB defect); it was replayed through an attachment and checkpointed "
                    f"into the file, every committed change kept. The log as it was is kept in {backup.name}."
                )
                self.recovered_from = backup
                recovered = True

    def _connect_postgres(self) -> None:
        """(Re)attach the PostgreSQL database: a fresh in-memory DuckDB, the extension, the
        attachment, UTC, the DuckDB views of the applied migrations."""
        con = postgres.connect(self.url, read_only=self.read_only)
        try:
            limit = memory_limit()
        except ReljudgeError:
            con.close()
            raise
        if limit:
            con.execute(f"SET memory_limit = '{limit}'")
        con.execute("SET GLOBAL TimeZone = 'UTC'")
        postgres.setup_cursor(con)
        self._con = con
        if self.schema:
            # a campaign other than the default: created (campaigns create), its schema made
            # (DuckDB's search path names only schemas that exist), then first in the path
            try:
                self._check_campaign()
                if not self.read_only:
                    postgres.execute_native(con, f"CREATE SCHEMA IF NOT EXISTS {self.schema}")
                    postgres.clear_cache(con)
                postgres.setup_cursor(con, self.schema)
            except duckdb.Error as exc:
                con.close()
                self._raise_db_error(exc)
            except ReljudgeError:
                con.close()
                raise
        self._generation = getattr(self, "_generation", 0) + 1
        try:
            self._create_views(con)
        except duckdb.Error as exc:
            self._raise_db_error(exc)

    def _create_views(self, cur) -> None:
        """The DuckDB views of every applied migration, in order, in ``memory.main``."""
        if not postgres.table_exists(cur, "schema_migrations", self.schema):
            return
        done = {row[0] for row in cur.execute("SELECT version FROM schema_migrations").fetchall()}
        for version, _name, sql in MIGRATIONS:
            if version in done:
                for statement in postgres.statements(sql):
                    if postgres.kind(statement) == "view":
                        cur.execute(postgres.view_sql(statement))

    def _raise_db_error(self, exc: BaseException):
        """A lost PostgreSQL server becomes DatabaseUnavailable (password-free, retryable);
        any other error keeps its text, without the password."""
        if self.backend == "postgresql":
            if postgres.is_connection_error(exc):
                self._broken = True
                raise postgres.unavailable(exc, self.url) from None
        elif failures.invalidates(exc):
            self._broken = True
        raise exc

    def mark_broken(self) -> None:
        """The server was lost, or DuckDB invalidated the file after a failed write (seen by
        a caller): attach or open again on the next use."""
        self._broken = True

    def reconnect(self) -> None:
        """After the PostgreSQL server was lost: attach again (the next save or page
        works again without restarting the app). The DuckDB file: :meth:`_reopen_file`."""
        if self.backend == "duckdb":
            self._reopen_file()
            return
        with self._write_lock:
            old = self._con
            self._connect_postgres()
            self._broken = False
            try:
                old.close()
            except duckdb.Error:
                pass

    def _ensure_connected(self) -> None:
        if getattr(self, "_broken", False):
            self.reconnect()

    # -- a DuckDB file that its storage failed ------------------------------------------
    def _reopen_file(self) -> None:
        """Open the DuckDB file again after DuckDB invalidated it (a write, typically a
        checkpoint, failed on a full disk or a read-only file system: every later use
        fails until it is reopened). The committed changes are in the file and its
        write-ahead log, which the new connection replays. While the storage still fails
        the open fails too: StorageUnavailable (retryable), and the next use tries again.
        Cursors made on the old connection are replaced (``_generation``)."""
        with self._write_lock:
            if not getattr(self, "_broken", False) or self._closed.is_set():
                return
            try:
                self._con.close()
            except duckdb.Error:
                pass
            try:
                con = self._connect_file()
                limit = memory_limit()
                if limit:
                    con.execute(f"SET memory_limit = '{limit}'")
                con.execute("SET GLOBAL TimeZone = 'UTC'")
            except (ReljudgeError, duckdb.Error, OSError) as exc:
                raise failures.StorageUnavailable(
                    f"{self.path}: cannot open the database again after its storage failed: {_first_line(exc)}"
                ) from None
            self._con = con
            self._generation = getattr(self, "_generation", 0) + 1
            self._broken = False
            if not getattr(self, "_reopened", False):  # said once until a checkpoint succeeds
                _say(
                    f"{self.path}: opened again after a storage failure (DuckDB had invalidated it); "
                    "saves resume as soon as the storage takes writes"
                )
                self._reopened = True

    @property
    def version(self):
        """A cache key that changes whenever something was written, and names what was
        read (the database and the campaign). The DuckDB file: this process's count of
        committed writes to the file (only this process can write it), by any Database
        object. PostgreSQL: the server's current snapshot, which changes when any process
        commits a write."""
        if self.backend == "postgresql":
            try:
                return (self.url, self.campaign, postgres.snapshot(self.cursor()))
            except duckdb.Error as exc:
                self._raise_db_error(exc)
        return (self._file_key, self.campaign, _FILE_WRITES.get(self._file_key, 0))

    def _count_write(self) -> None:
        self._writes += 1
        if self.backend == "duckdb":
            with _FILE_WRITES_LOCK:
                _FILE_WRITES[self._file_key] = _FILE_WRITES.get(self._file_key, 0) + 1

    # -- connections ---------------------------------------------------------
    def cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's cursor (created on first use)."""
        self._ensure_connected()
        cur = getattr(self._local, "cursor", None)
        if cur is not None and getattr(self._local, "generation", None) != getattr(self, "_generation", None):
            cur = None  # made on a connection that was replaced
        if cur is None:
            cur = self._new_cursor()
            self._local.cursor = cur
            self._local.generation = getattr(self, "_generation", None)
        return cur

    def _new_cursor(self) -> duckdb.DuckDBPyConnection:
        cur = self._con.cursor()
        if self.backend == "postgresql":
            # (the default campaign's call stays as it was: tests wrap setup_cursor)
            postgres.setup_cursor(cur, self.schema) if self.schema else postgres.setup_cursor(cur)
        if self.schema:
            self._setup_campaign(cur)
        elif self._has_outside_default(cur):
            # the default campaign's view of the accounts: those with a role in it
            cur.execute(f"CREATE OR REPLACE TEMP VIEW users AS {self.default_accounts()}")
        return cur

    # -- campaigns ---------------------------------------------------------------------
    def shared(self, table: str) -> str:
        """The name to write a shared table (:data:`SHARED`) by, or to read all its rows:
        in every campaign ``users`` is the campaign's view of the accounts (those with a
        role in it, with that role), so a write and a read of every account name the
        table of the default schema."""
        if self.backend == "postgresql":
            return f"{postgres.ALIAS}.public.{table}"
        return '"' + self._catalog.replace('"', '""') + f'".main.{table}'

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
        known = getattr(self, "_outside_default", None)
        if known is None:
            own = cur is None
            cur = self._con.cursor() if own else cur
            try:
                if self.backend == "postgresql":
                    known = postgres.table_exists(cur, "accounts_outside_default")
                else:
                    known = bool(
                        cur.execute(
                            "SELECT count(*) FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main' "
                            "AND table_name = 'accounts_outside_default'",
                            [self._catalog],
                        ).fetchone()[0]
                    )
            finally:
                if own:
                    cur.close()
            self._outside_default = known
        return known

    def _setup_campaign(self, cur) -> None:
        """A cursor of a campaign other than the default: its schema first (then the
        default schema's shared tables), and ``users`` as this campaign sees the accounts:
        those with a role in it, with that role (a temporary view: this cursor only)."""
        if self.backend == "duckdb":
            cur.execute(f"SET search_path = '{self.schema},main'")
        cur.execute(
            "CREATE OR REPLACE TEMP VIEW users AS SELECT u.* REPLACE (r.role AS role) "
            f"FROM {self.shared('users')} u JOIN {self.shared('campaign_roles')} r "
            f"ON r.username = u.username AND r.campaign = '{self.campaign}'"
        )

    def campaign_names(self) -> list[str]:
        """The campaigns of this database: the default first, then the others by name."""
        cur = self._con.cursor()
        try:
            if self.backend == "postgresql":
                postgres.setup_cursor(cur)
                if not postgres.table_exists(cur, "campaigns"):
                    return [DEFAULT_CAMPAIGN]
            elif not cur.execute(
                "SELECT count(*) FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main' "
                "AND table_name = 'campaigns'",
                [self._catalog],
            ).fetchone()[0]:
                return [DEFAULT_CAMPAIGN]
            rows = cur.execute(f"SELECT name FROM {self.shared('campaigns')} ORDER BY name").fetchall()
        except duckdb.Error as exc:
            self._raise_db_error(exc)
        finally:
            cur.close()
        return [DEFAULT_CAMPAIGN] + [r[0] for r in rows]

    def _check_campaign(self) -> None:
        """A campaign other than the default must have been created (campaigns create)."""
        known = self.campaign_names()
        if self.campaign not in known:
            raise ReljudgeError(CODES("error_unknown_campaign", name=self.campaign, known=", ".join(known)))

    def keys_in(self, column: str, values: list) -> tuple[str, list]:
        """(``column IN …``, its parameters) for a set of keys, as each backend answers it
        best: on PostgreSQL an :func:`in_list` (a filter the server answers from an
        index); on the DuckDB file the same for a few keys, and a semi-join with one
        bound list for many (:data:`MANY_KEYS`)."""
        if self.backend == "postgresql" or len(values) <= MANY_KEYS:
            return f"{column} IN {in_list(values)}", list(values)
        return f"{column} IN (SELECT unnest(?))", [list(values)]

    @contextmanager
    def reading_once(self, tables: dict[str, tuple[str, ...] | None]) -> Iterator[None]:
        """For the length of the block, this thread's queries read ``tables`` as they were
        at its start, copied from PostgreSQL once. A dashboard refresh runs a dozen
        queries, and each view over the judgment events (current judgments, verdicts,
        adjudications) would otherwise copy the whole table again. The copies are
        temporary tables of a cursor of the block's own, which DuckDB finds before the
        attached tables of the same name; they are taken in one transaction, so they agree
        with each other. ``tables`` maps each table to the columns to copy (None: all); a
        query in the block that needs another column fails (it is not there), it cannot
        read a wrong value. A block inside another reads the outer block's copies. Writes
        (:meth:`transaction`) are not affected. On the DuckDB
        file nothing changes: its queries read the file in place."""
        if self.backend != "postgresql" or getattr(self._local, "reading_once", False):
            yield
            return
        self._ensure_connected()
        try:
            cur = self._new_cursor()
            cur.begin()
            for table, columns in tables.items():
                names = ", ".join(f'"{c}"' for c in columns) if columns else "*"
                cur.execute(
                    f'CREATE TEMP TABLE "{table}" AS SELECT {names} FROM {postgres.ALIAS}.{self.schema or "public"}."{table}"'
                )
            cur.commit()
        except duckdb.Error as exc:
            self._raise_db_error(exc)
        saved = (getattr(self._local, "cursor", None), getattr(self._local, "generation", None))
        self._local.cursor, self._local.generation = cur, getattr(self, "_generation", None)
        self._local.reading_once = True
        try:
            yield
        finally:
            self._local.cursor, self._local.generation = saved
            self._local.reading_once = False
            cur.close()

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
                with _owner_only():  # DuckDB creates the .wal on the first write after a checkpoint
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
                self._count_write()
                self._last_write = time.monotonic()
                failed = False
            finally:
                if failed:  # a cursor in an unknown state is not used again
                    self._local.write_cursor = None
                    try:
                        cur.close()
                    except duckdb.Error:
                        pass
            self._match_wal_mode()
            self._start_idle_checkpoints()

    def _write_cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's cursor for transactions, kept between them: a campaign's cursor
        is set up with its view of the accounts (about a millisecond), which a save must
        not pay each time. Replaced when the connection was, or after a failed write."""
        cur = getattr(self._local, "write_cursor", None)
        generation = getattr(self, "_generation", None)
        if cur is None or getattr(self._local, "write_generation", None) != generation:
            cur = self._new_cursor()
            self._local.write_cursor, self._local.write_generation = cur, generation
        return cur

    def checkpoint(self) -> bool:
        """Fold the DuckDB file's write-ahead log into the file (no-op on PostgreSQL and on
        a read-only file). False when DuckDB refused (e.g. a full disk): the log still
        holds every committed change, and the next checkpoint tries again. DuckDB 1.5.5
        invalidates the database when a checkpoint cannot write: the file is then opened
        again on its next use (:meth:`_reopen_file`)."""
        if self.backend != "duckdb" or self.read_only or self._closed.is_set():
            return True
        with self._write_lock:
            writes = self._writes
            try:
                cur = self._con.cursor()
                try:
                    cur.execute("CHECKPOINT")
                finally:
                    cur.close()
            except duckdb.Error as exc:
                if failures.invalidates(exc):
                    self._broken = True  # reopened on the next use (_reopen_file)
                return False
            self._checkpointed_writes = writes
            self._reopened = False
            return True

    def _start_idle_checkpoints(self) -> None:
        if self.backend != "duckdb" or self._checkpointer is not None:
            return
        self._checkpointer = threading.Thread(
            target=_checkpoint_when_idle,
            args=(weakref.ref(self),),
            name=f"reljudge-checkpoint {self.path.name}",
            daemon=True,
        )
        self._checkpointer.start()

    def _match_wal_mode(self) -> None:
        """The .wal holds the same data as the file: give it the file's own mode (600 for
        a file reljudge created; a lead who opened the file to a group keeps that)."""
        if self.backend != "duckdb":
            return
        try:
            mode = self.path.stat().st_mode & 0o777
            wal = wal_path(self.path)
            if wal.stat().st_mode & 0o777 != mode:
                os.chmod(wal, mode)
        except OSError:  # no .wal right now (checkpointed), or not ours to change
            pass

    def close(self) -> None:
        """Checkpoint (a writable DuckDB file) and close. Closing twice is harmless."""
        if self.backend == "duckdb":
            if self._closed.is_set():
                return
            self.checkpoint()
            with self._write_lock:
                self._closed.set()
                _OPEN_FILES.discard(self)
                self._con.close()
            return
        self._con.close()

    # -- schema ----------------------------------------------------------------
    def migrate(self) -> list[str]:
        """Apply every migration not yet recorded; returns the names applied. In a campaign
        other than the default, the default schema (the shared accounts) first, then the
        campaign's own schema, which must have been created (campaigns create)."""
        if self.backend == "postgresql":
            try:
                applied = self._migrate_postgres()
                if self.schema:
                    self._check_campaign()
                    applied += self._migrate_postgres(self.schema)
                return applied
            except duckdb.Error as exc:
                self._raise_db_error(exc)
        applied = self._migrate_file()
        if self.schema:
            self._check_campaign()
            applied += self._migrate_file(self.schema)
        return applied

    def _migrate_file(self, schema: str | None = None) -> list[str]:
        """The steps on the DuckDB file, in the default schema or a campaign's own
        (``schema``: made if new; the statements naming shared tables are left out)."""
        with self._write_lock, _owner_only():
            cur = self._con.cursor()
            if schema:
                cur.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
                cur.execute(f"SET search_path = '{schema}'")
            cur.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations("
                "version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, "
                "applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)"
            )
            done = {row[0] for row in cur.execute("SELECT version FROM schema_migrations").fetchall()}
            applied = []
            for version, name, sql in MIGRATIONS:
                if version in done:
                    continue
                cur.begin()
                try:
                    for statement in campaign_statements(sql) if schema else [sql]:
                        cur.execute(statement)
                    cur.execute("INSERT INTO schema_migrations(version, name) VALUES (?, ?)", [version, name])
                except BaseException:
                    cur.rollback()
                    raise
                cur.commit()
                applied.append(name)
            cur.close()
        self._match_wal_mode()
        return applied

    def _migrate_postgres(self, schema: str | None = None) -> list[str]:
        """The same named steps on PostgreSQL: DDL translated and sent natively (one
        PostgreSQL transaction with its schema_migrations row when the step has no data
        statements), data statements as DuckDB SQL over the attachment, views in DuckDB.

        Several app processes may open a new database at the same moment: a step that
        fails because another process is applying it (its table exists, its row in
        schema_migrations is taken) is not an error once that process has recorded it."""
        with self._write_lock:
            cur = self._con.cursor()
            try:
                postgres.setup_cursor(cur, schema) if schema else postgres.setup_cursor(cur)
                if schema:
                    try:
                        postgres.execute_native(cur, f"CREATE SCHEMA IF NOT EXISTS {schema}")
                    except duckdb.Error as exc:
                        if not postgres.is_collision(exc):
                            raise
                try:
                    postgres.execute_native(cur, postgres.SCHEMA_MIGRATIONS_DDL, schema)
                except duckdb.Error as exc:
                    if not (postgres.is_collision(exc) and self._recorded_elsewhere(cur, None, schema)):
                        raise
                postgres.clear_cache(cur)
                done = {row[0] for row in cur.execute("SELECT version FROM schema_migrations").fetchall()}
                # the views of steps another process applied since this one attached
                self._create_views(self._con)
                applied = []
                for version, name, sql in MIGRATIONS:
                    if version in done:
                        continue
                    try:
                        self._apply_postgres_step(cur, version, name, sql, schema)
                        applied.append(name)
                    except duckdb.Error as exc:
                        if not (postgres.is_collision(exc) and self._recorded_elsewhere(cur, version, schema)):
                            raise
                    for statement in postgres.statements(sql):
                        if postgres.kind(statement) == "view":
                            self._con.execute(postgres.view_sql(statement))
            finally:
                cur.close()
            if applied:
                self._writes += 1
            return applied

    @staticmethod
    def _apply_postgres_step(cur, version: int, name: str, sql: str, schema: str | None = None) -> None:
        split = campaign_statements if schema else postgres.statements
        parts = [] if version in postgres.NATIVE_ONLY else split(sql)
        ddl = []
        for statement in parts:
            if postgres.kind(statement) == "ddl":
                ddl.append(postgres.translate_ddl(statement))
                triggers = postgres.default_triggers(ddl[-1])
                ddl += [postgres.in_schema(t) for t in triggers] if schema else triggers
        ddl += postgres.NATIVE_STEPS.get(version, [])
        data = [] if version in postgres.SKIP_DATA else [s for s in parts if postgres.kind(s) == "data"]
        record = f"INSERT INTO schema_migrations(version, name) VALUES ({int(version)}, {postgres.quote(name)})"
        if ddl or not data:
            postgres.execute_native(cur, "; ".join(ddl + ([] if data else [record])), schema)
            postgres.clear_cache(cur)
        if data:
            cur.begin()
            try:
                for statement in data:
                    cur.execute(statement)
                cur.execute("INSERT INTO schema_migrations(version, name) VALUES (?, ?)", [version, name])
            except BaseException:
                cur.rollback()
                raise
            cur.commit()

    @staticmethod
    def _recorded_elsewhere(cur, version: int | None, schema: str | None = None, wait_s: float = 60.0) -> bool:
        """After a step collided with another process's: True once that process has
        recorded the step (``None``: created schema_migrations). A step with data
        statements is recorded after its DDL commits, so this waits for it a while."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                postgres.clear_cache(cur)
                if postgres.table_exists(cur, "schema_migrations", schema) and (
                    version is None
                    or cur.execute("SELECT count(*) FROM schema_migrations WHERE version = ?", [version]).fetchone()[0]
                ):
                    return True
            except duckdb.Error as exc:
                if postgres.is_connection_error(exc):
                    raise
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)

    def applied_migrations(self) -> list[tuple[int, str]]:
        return self.cursor().execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()


def _checkpoint_when_idle(ref: "weakref.ref[Database]") -> None:
    """The idle checkpointer of one DuckDB file (a daemon thread): after a write, once
    :data:`IDLE_CHECKPOINT_S` have passed without another, checkpoint. Holds the database
    only weakly, so that a forgotten Database can still be collected."""
    while True:
        db = ref()
        if db is None or db._closed.wait(IDLE_CHECKPOINT_S / 4):
            return
        if db._writes != db._checkpointed_writes and time.monotonic() - db._last_write >= IDLE_CHECKPOINT_S:
            db.checkpoint()
        del db


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


def open_database(
    path: str | os.PathLike | None = None,
    read_only: bool = False,
    must_exist: bool = False,
    campaign: str | None = None,
) -> Database:
    """Open (and migrate) the database; with ``must_exist`` a missing file is an error
    rather than a new, empty database (a mistyped --db must not look like a campaign).
    ``campaign``: see :func:`campaign_name` (a campaign other than the default must exist)."""
    path = default_db_path(path)
    name = campaign_name(campaign)
    if isinstance(path, str):  # PostgreSQL: init creates the schema
        return Database(path, read_only=read_only, must_exist=must_exist, campaign=name)
    if must_exist and not path.exists():
        raise ReljudgeError(CODES("error_no_database", path=str(path), variable=ENV_VAR))
    return Database(path, read_only=read_only, campaign=name)
