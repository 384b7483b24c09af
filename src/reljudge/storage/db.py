"""Opening the DuckDB file, applying migrations, and handing out cursors.

DuckDB allows one writing process per file. Inside that process one connection
is shared and every thread (Streamlit session) works on its own ``cursor()``;
writes are serialised by a lock because they are tiny and conflicts between
concurrent DuckDB transactions would otherwise surface as retries.
"""

from __future__ import annotations

import os
import re
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import duckdb

from reljudge.codes import Codes
from reljudge.errors import DatabaseLockedError, ReljudgeError
from reljudge.storage.migrations import MIGRATIONS

DEFAULT_DB = Path("judgments") / "reljudge.duckdb"
ENV_VAR = "RELJUDGE_DB"
#: DuckDB's memory_limit for this process (e.g. ``256MB``); unset: DuckDB's default, 80 % of
#: RAM. Beyond it DuckDB spills to disk (an import's staged rows, sorts, joins), so it bounds
#: what a large import holds (bench/bench_import.py).
MEMORY_ENV_VAR = "RELJUDGE_MEMORY_LIMIT"
_MEMORY_RE = re.compile(r"\d+(\.\d+)?\s*(B|[KMGT]i?B)", re.IGNORECASE)

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


def default_db_path(explicit: str | os.PathLike | None = None) -> Path:
    """``--db`` if given, else ``$RELJUDGE_DB``, else ``judgments/reljudge.duckdb``."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(ENV_VAR)
    return Path(env) if env else DEFAULT_DB


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


CODES = Codes(error_db_locked=("path",))
"""The error this module raises as a code (the others carry DuckDB's own text)."""


class Database:
    """One DuckDB connection for the whole process, a cursor per thread."""

    def __init__(self, path: str | os.PathLike, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with _owner_only():
                self._con = duckdb.connect(str(self.path), read_only=read_only)
        except duckdb.IOException as exc:
            if _is_lock_error(exc):
                raise DatabaseLockedError(CODES("error_db_locked", path=str(self.path))) from None
            raise ReljudgeError(f"{self.path}: cannot open database: {exc}") from None
        except duckdb.Error as exc:
            raise ReljudgeError(f"{self.path}: cannot open database: {exc}") from None
        limit = os.environ.get(MEMORY_ENV_VAR, "").strip()
        if limit:
            if not _MEMORY_RE.fullmatch(limit):
                self._con.close()
                raise ReljudgeError(f"${MEMORY_ENV_VAR}={limit!r}: expected a size such as 256MB or 2GB")
            self._con.execute(f"SET memory_limit = '{limit}'")
        self._write_lock = threading.RLock()
        self._local = threading.local()
        # Counts committed writes of this process: a cache keyed on it is exact, because
        # DuckDB lets only this process write the file.
        self.version = 0
        if not read_only:
            self.migrate()
        # Every connection of this database (cursors included) reads and writes time stamps
        # in UTC: `current_timestamp` stored into a TIMESTAMP column is UTC wall-clock time
        # whatever the server's zone. After migrate(): the step 'timestamps_in_utc' converts
        # older rows from the server's local zone. Shown in the campaign's zone: reljudge.times.
        self._con.execute("SET GLOBAL TimeZone = 'UTC'")

    # -- connections ---------------------------------------------------------
    def cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's cursor (created on first use)."""
        cur = getattr(self._local, "cursor", None)
        if cur is None:
            cur = self._con.cursor()
            self._local.cursor = cur
        return cur

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """All-or-nothing write: commits on success, rolls back on any error."""
        with self._write_lock:
            cur = self._con.cursor()
            try:
                with _owner_only():      # DuckDB creates the .wal on the first write after a checkpoint
                    cur.begin()
                    try:
                        yield cur
                    except BaseException:
                        cur.rollback()
                        raise
                    cur.commit()
                self.version += 1
            finally:
                cur.close()
            self._match_wal_mode()

    def _match_wal_mode(self) -> None:
        """The .wal holds the same data as the file: give it the file's own mode (600 for
        a file reljudge created; a lead who opened the file to a group keeps that)."""
        try:
            mode = self.path.stat().st_mode & 0o777
            wal = wal_path(self.path)
            if wal.stat().st_mode & 0o777 != mode:
                os.chmod(wal, mode)
        except OSError:          # no .wal right now (checkpointed), or not ours to change
            pass

    def close(self) -> None:
        self._con.close()

    # -- schema ----------------------------------------------------------------
    def migrate(self) -> list[str]:
        """Apply every migration not yet recorded; returns the names applied."""
        with self._write_lock, _owner_only():
            cur = self._con.cursor()
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
                    cur.execute(sql)
                    cur.execute(
                        "INSERT INTO schema_migrations(version, name) VALUES (?, ?)", [version, name]
                    )
                except BaseException:
                    cur.rollback()
                    raise
                cur.commit()
                applied.append(name)
            cur.close()
        self._match_wal_mode()
        return applied

    def applied_migrations(self) -> list[tuple[int, str]]:
        return self.cursor().execute(
            "SELECT version, name FROM schema_migrations ORDER BY version"
        ).fetchall()


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


def open_database(path: str | os.PathLike | None = None, read_only: bool = False,
                  must_exist: bool = False) -> Database:
    """Open (and migrate) the database; with ``must_exist`` a missing file is an error
    rather than a new, empty database (a mistyped --db must not look like a campaign)."""
    path = default_db_path(path)
    if must_exist and not path.exists():
        raise ReljudgeError(f"no database at {path}: check --db / {ENV_VAR}, "
                            "or create it with `reljudge init`")
    return Database(path, read_only=read_only)
