"""The DuckDB file: the zero-setup backend of :class:`reljudge.storage.database.Database`.

DuckDB allows one writing process per file. Inside that process one connection is shared
and every thread works on its own cursor.

Durability (docs/durability.md): DuckDB keeps committed changes in the write-ahead log
(<file>.wal) until a checkpoint folds them into the file. DuckDB 1.5.5 cannot replay some
schema changes from that log when the file is opened as the default database ("Calling
DatabaseManager::GetDefaultDatabase with no default database set", duckdb/duckdb#19712 and
#22044: an ALTER TABLE … ADD COLUMN with a DEFAULT, as our migrations have): a process
stopped after migrating a new file, before any checkpoint, left a campaign that nothing
could open. So no schema change lives only in the log (a checkpoint after migrating), the
log is folded in when the process has been idle a moment and when it ends, and a file
whose log does not replay is recovered on open (:func:`recover_wal`).
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import threading
import time
import weakref
from datetime import datetime, timezone
from pathlib import Path

import duckdb

from reljudge.codes import Codes
from reljudge.errors import DatabaseLockedError, ReljudgeError
from reljudge.sql import ident
import reljudge.storage.database as database
import reljudge.storage.failures as failures
from reljudge.storage.database import Database, owner_only, campaign_statements, memory_limit, run_step

CODES = Codes(
    error_db_locked=("path",),
    error_cannot_open_db=("path", "detail"),
    error_wal_unrecoverable=("path", "wal", "detail", "again"),
    error_cannot_reopen_db=("path", "detail"),
)
"""The errors this module raises as codes (the others carry DuckDB's own text)."""


def wal_path(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


#: Seconds without a write after which a DuckDB file is checkpointed.
IDLE_CHECKPOINT_S = 2.0

#: Every writable DuckDB file this process has open: checkpointed and closed at exit
#: (a clean stop, SIGTERM or SIGINT under ``streamlit run`` and ``reljudge serve``).
_OPEN_FILES: "weakref.WeakSet[DuckDBFile]" = weakref.WeakSet()


def _checkpoint_open_files_at_exit() -> None:
    for db in list(_OPEN_FILES):
        db.close()


atexit.register(_checkpoint_open_files_at_exit)

# Committed writes of this process to each DuckDB file (every Database object of it): the
# file's part of Database.version. Counted per file, not per object, so that a cache keyed
# on the version is never stale for an object opened after another one wrote the file (or
# one that Python put at the address of a closed one: id() is reused).
_FILE_WRITES: dict[str, int] = {}
_FILE_WRITES_LOCK = threading.Lock()


def _say(text: str) -> None:
    """A line for the operator (the server's log, the CLI's stderr)."""
    print(f"reljudge: {text}", file=sys.stderr, flush=True)


def _first_line(exc: BaseException) -> str:
    """DuckDB's internal errors carry a stack trace after the first line."""
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def recover_wal(path: Path) -> Path:
    """Replay the write-ahead log of ``path`` through an attachment and fold it into the
    file. DuckDB replays the same log without error when the file is attached to an
    in-memory database rather than opened as the default one (the defect above). The log
    is first copied beside the file (``<file>.wal.before-recovery-<UTC time>``, the file's
    own mode), so that nothing depends on the recovery being right. Returns that copy."""
    wal = wal_path(path)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    backup = wal.with_name(f"{wal.name}.before-recovery-{stamp}")
    with owner_only():
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


class DuckDBFile(Database):
    """One DuckDB connection for the whole process, a cursor per thread."""

    backend = "duckdb"
    url = None

    def __init__(self, path: str | os.PathLike, read_only: bool = False, campaign: str | None = None):
        super().__init__(read_only, campaign)
        self.path = Path(path)
        self._file_key = str(self.path.resolve())
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._closed = threading.Event()
        self._last_write = time.monotonic()
        self._checkpointed_writes = 0
        self._checkpointer: threading.Thread | None = None
        self._reopened = False
        self._con = self._connect_file()
        try:
            limit = memory_limit()
            if limit:
                self._con.execute(f"SET memory_limit = '{limit}'")
            self._catalog = self._con.execute("SELECT current_database()").fetchone()[0]
            if read_only and self.schema:
                self._check_campaign()
            if not read_only:
                self.migrate()
        except ReljudgeError:
            self._con.close()
            raise
        if not read_only:
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
                with owner_only():
                    return duckdb.connect(str(self.path), read_only=self.read_only)
            except duckdb.IOException as exc:
                if failures.is_lock_conflict(exc):
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
                        CODES(
                            "error_wal_unrecoverable",
                            path=str(self.path),
                            wal=wal_path(self.path).name,
                            detail=_first_line(exc),
                            again=_first_line(again),
                        )
                    ) from None
                _say(
                    f"{self.path}: its write-ahead log did not replay when opened directly "
                    f"(a DuckDB defect); it was replayed through an attachment and checkpointed "
                    f"into the file, every committed change kept. The log as it was is kept in {backup.name}."
                )
                self.recovered_from = backup
                recovered = True

    # -- the interface -----------------------------------------------------------------
    def note_failure(self, exc: BaseException) -> bool:
        """DuckDB invalidated the file (a failed checkpoint or write): open it again."""
        if failures.invalidates(exc):
            self._broken = True
            return True
        return False

    def reconnect(self) -> None:
        self._reopen_file()

    @property
    def version(self):
        """This process's count of committed writes to the file (only this process can
        write it), by any Database object of it."""
        return (self._file_key, self.campaign, _FILE_WRITES.get(self._file_key, 0))

    def _committed(self) -> None:
        self._writes += 1
        with _FILE_WRITES_LOCK:
            _FILE_WRITES[self._file_key] = _FILE_WRITES.get(self._file_key, 0) + 1
        self._last_write = time.monotonic()
        self._match_wal_mode()
        self._start_idle_checkpoints()

    def table_in(self, schema: str | None, table: str) -> str:
        return f"{ident(self._catalog)}.{schema or 'main'}.{table}"

    def catalog_and_schema(self) -> tuple[str, str]:
        return self._catalog, self.schema or "main"

    def continue_sequence(self, cur, sequence: str, top: int) -> None:
        # DuckDB has no setval: draw the sequence up to the copied maximum.
        have = cur.execute(
            "SELECT last_value FROM duckdb_sequences() WHERE sequence_name = ? "
            "AND database_name = current_database() AND schema_name = ?",
            [sequence, self.schema or "main"],
        ).fetchone()
        last = have[0] if have and have[0] is not None else 0
        if top > last:  # in a write transaction: a bare SELECT's draw may not be logged
            with self.transaction() as tx:
                tx.execute(f"SELECT max(nextval('{sequence}')) FROM range(?)", [int(top - last)])

    def _prepare_cursor(self, cur) -> None:
        if self.schema:  # this campaign's schema first, then the default's shared tables
            cur.execute(f"SET search_path = '{self.schema},main'")

    def _plain_cursor(self):
        return self._con.cursor()

    def _has_shared_table(self, cur, table: str) -> bool:
        return bool(
            cur.execute(
                "SELECT count(*) FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main' "
                "AND table_name = ?",
                [self._catalog, table],
            ).fetchone()[0]
        )

    # -- durability ----------------------------------------------------------------------
    def checkpoint(self) -> bool:
        """Fold the write-ahead log into the file (no-op on a read-only file). False when
        DuckDB refused (e.g. a full disk): the log still holds every committed change, and
        the next checkpoint tries again. DuckDB 1.5.5 invalidates the database when a
        checkpoint cannot write: the file is then opened again on its next use
        (:meth:`_reopen_file`)."""
        if self.read_only or self._closed.is_set():
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
                self.note_failure(exc)  # reopened on the next use (_reopen_file)
                return False
            self._checkpointed_writes = writes
            self._reopened = False
            return True

    def _start_idle_checkpoints(self) -> None:
        if self._checkpointer is not None:
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
        try:
            mode = self.path.stat().st_mode & 0o777
            wal = wal_path(self.path)
            if wal.stat().st_mode & 0o777 != mode:
                os.chmod(wal, mode)
        except OSError:  # no .wal right now (checkpointed), or not ours to change
            pass

    def close(self) -> None:
        """Checkpoint (a writable file) and close. Closing twice is harmless."""
        if self._closed.is_set():
            return
        self.checkpoint()
        with self._write_lock:
            self._closed.set()
            _OPEN_FILES.discard(self)
            self._con.close()

    def _reopen_file(self) -> None:
        """Open the DuckDB file again after DuckDB invalidated it (a write, typically a
        checkpoint, failed on a full disk or a read-only file system: every later use
        fails until it is reopened). The committed changes are in the file and its
        write-ahead log, which the new connection replays. While the storage still fails
        the open fails too: StorageUnavailable (retryable), and the next use tries again.
        Cursors made on the old connection are replaced (``_generation``)."""
        with self._write_lock:
            if not self._broken or self._closed.is_set():
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
                    CODES("error_cannot_reopen_db", path=str(self.path), detail=_first_line(exc))
                ) from None
            self._con = con
            self._generation += 1
            self._broken = False
            if not self._reopened:  # said once until a checkpoint succeeds
                _say(
                    f"{self.path}: opened again after a storage failure (DuckDB had invalidated it); "
                    "saves resume as soon as the storage takes writes"
                )
                self._reopened = True

    # -- schema ----------------------------------------------------------------
    def migrate(self) -> list[str]:
        applied = self._migrate_schema()
        if self.schema:
            self._check_campaign()
            applied += self._migrate_schema(self.schema)
        return applied

    def _migrate_schema(self, schema: str | None = None) -> list[str]:
        """The steps in the default schema or a campaign's own (``schema``: made if new;
        the statements naming shared tables are left out)."""
        with self._write_lock, owner_only():
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
            for version, name, sql in database.migration_steps():
                if version in done:
                    continue
                run_step(cur, version, name, campaign_statements(sql) if schema else [sql])
                applied.append(name)
            cur.close()
        self._match_wal_mode()
        return applied


def _checkpoint_when_idle(ref: "weakref.ref[DuckDBFile]") -> None:
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
