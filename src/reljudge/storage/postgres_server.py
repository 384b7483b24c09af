"""PostgreSQL: the team backend of :class:`reljudge.storage.database.Database`.

DuckDB attaches the PostgreSQL database through its postgres extension and runs the same
SQL over it; the dialect's differences (DDL, views, triggers that fill defaults) are in
:mod:`reljudge.storage.postgres`. Other processes write at the same time; PostgreSQL's
constraints (unique client event ids) keep their events single, and several processes may
migrate a new database at the same moment (:meth:`PostgresServer._migrate_schema`).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

import duckdb

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.sql import ident
import reljudge.storage.database as database
import reljudge.storage.failures as failures
import reljudge.storage.migrations as migrations
import reljudge.storage.postgres as postgres
from reljudge.storage.database import Database, campaign_statements, in_list, memory_limit, run_step

CODES = Codes(error_no_campaign_on_server=("path",))
"""The errors this module raises as codes (a lost server: ``postgres.unavailable``)."""


class PostgresServer(Database):
    """A PostgreSQL database attached to an in-memory DuckDB, a cursor per thread."""

    backend = "postgresql"

    def __init__(self, url: str, read_only: bool = False, must_exist: bool = False, campaign: str | None = None):
        super().__init__(read_only, campaign)
        self.url = str(url)
        self.path = postgres.display_url(self.url)  # shown in messages: no password
        self._connect()
        if must_exist and not postgres.table_exists(self._con, "schema_migrations"):
            self._con.close()
            raise ReljudgeError(CODES("error_no_campaign_on_server", path=self.path))
        if not read_only:
            self.migrate()
        elif self.schema:
            self._check_campaign()

    def _connect(self) -> None:
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
        self._generation += 1
        try:
            self._create_views(con)
        except duckdb.Error as exc:
            self._raise_db_error(exc)

    def _create_views(self, cur) -> None:
        """The DuckDB views of every applied migration, in order, in ``memory.main``."""
        if not postgres.table_exists(cur, "schema_migrations", self.schema):
            return
        done = {row[0] for row in cur.execute("SELECT version FROM schema_migrations").fetchall()}
        for version, _name, sql in database.migration_steps():
            if version in done:
                for statement in migrations.statements(sql):
                    if postgres.kind(statement) == "view":
                        cur.execute(postgres.view_sql(statement))

    # -- the interface -----------------------------------------------------------------
    def _raise_db_error(self, exc: BaseException):
        """A lost server becomes DatabaseUnavailable (password-free, retryable); any other
        error keeps its text, without the password."""
        lost = self.lost_server(exc)
        if lost is None:
            raise exc
        self._broken = True
        raise lost from None

    def note_failure(self, exc: BaseException) -> bool:
        """The server was lost: attach again on the next use."""
        if isinstance(exc, postgres.DatabaseUnavailable) or failures.is_lost_connection(exc):
            self._broken = True
            return True
        return False

    def lost_server(self, exc: BaseException) -> ReljudgeError | None:
        if isinstance(exc, postgres.DatabaseUnavailable):
            return exc
        return postgres.unavailable(exc, self.url) if failures.is_lost_connection(exc) else None

    def reconnect(self) -> None:
        with self._write_lock:
            old = self._con
            self._connect()
            self._broken = False
            try:
                old.close()
            except duckdb.Error:
                pass

    def close(self) -> None:
        self._con.close()

    @property
    def version(self):
        """The server's current snapshot, which changes when any process commits a write."""
        try:
            return (self.url, self.campaign, postgres.snapshot(self.cursor()))
        except duckdb.Error as exc:
            self._raise_db_error(exc)

    def table_in(self, schema: str | None, table: str) -> str:
        return f"{postgres.ALIAS}.{schema or 'public'}.{table}"

    def catalog_and_schema(self) -> tuple[str, str]:
        return postgres.ALIAS, self.schema or "public"

    def continue_sequence(self, cur, sequence: str, top: int) -> None:
        postgres.execute_native(cur, f"SELECT setval('{sequence}', {int(top)})", self.schema)

    def refresh_catalog(self, cur) -> None:
        postgres.clear_cache(cur)

    def _prepare_cursor(self, cur) -> None:
        # (the default campaign's call stays as it was: tests wrap setup_cursor)
        postgres.setup_cursor(cur, self.schema) if self.schema else postgres.setup_cursor(cur)

    def _plain_cursor(self):
        cur = self._con.cursor()
        try:
            postgres.setup_cursor(cur)
        except BaseException:
            cur.close()
            raise
        return cur

    def _has_shared_table(self, cur, table: str) -> bool:
        return postgres.table_exists(cur, table)

    def keys_in(self, column: str, values: list) -> tuple[str, list]:
        """Always an :func:`in_list`: a filter the server answers from an index."""
        return f"{column} IN {in_list(values)}", list(values)

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
        (:meth:`transaction`) are not affected."""
        if getattr(self._local, "reading_once", False):
            yield
            return
        self._ensure_connected()
        try:
            cur = self._new_cursor()
            cur.begin()
            for table, columns in tables.items():
                names = ", ".join(ident(c) for c in columns) if columns else "*"
                cur.execute(
                    f"CREATE TEMP TABLE {ident(table)} AS SELECT {names} "
                    f"FROM {postgres.ALIAS}.{self.schema or 'public'}.{ident(table)}"
                )
            cur.commit()
        except duckdb.Error as exc:
            self._raise_db_error(exc)
        saved = (getattr(self._local, "cursor", None), getattr(self._local, "generation", None))
        self._local.cursor, self._local.generation = cur, self._generation
        self._local.reading_once = True
        try:
            yield
        finally:
            self._local.cursor, self._local.generation = saved
            self._local.reading_once = False
            cur.close()

    # -- schema ----------------------------------------------------------------
    def migrate(self) -> list[str]:
        try:
            applied = self._migrate_schema()
            if self.schema:
                self._check_campaign()
                applied += self._migrate_schema(self.schema)
            return applied
        except duckdb.Error as exc:
            self._raise_db_error(exc)

    def _migrate_schema(self, schema: str | None = None) -> list[str]:
        """The named steps: DDL translated and sent natively (one PostgreSQL transaction
        with its schema_migrations row when the step has no data statements), data
        statements as DuckDB SQL over the attachment, views in DuckDB.

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
                        if not failures.is_concurrent_ddl(exc):
                            raise
                try:
                    postgres.execute_native(cur, postgres.SCHEMA_MIGRATIONS_DDL, schema)
                except duckdb.Error as exc:
                    if not (failures.is_concurrent_ddl(exc) and self._recorded_elsewhere(cur, None, schema)):
                        raise
                postgres.clear_cache(cur)
                done = {row[0] for row in cur.execute("SELECT version FROM schema_migrations").fetchall()}
                # the views of steps another process applied since this one attached
                self._create_views(self._con)
                applied = []
                for version, name, sql in database.migration_steps():
                    if version in done:
                        continue
                    try:
                        self._apply_step(cur, version, name, sql, schema)
                        applied.append(name)
                    except duckdb.Error as exc:
                        if not (failures.is_concurrent_ddl(exc) and self._recorded_elsewhere(cur, version, schema)):
                            raise
                    for statement in migrations.statements(sql):
                        if postgres.kind(statement) == "view":
                            self._con.execute(postgres.view_sql(statement))
            finally:
                cur.close()
            if applied:
                self._writes += 1
            return applied

    @staticmethod
    def _apply_step(cur, version: int, name: str, sql: str, schema: str | None = None) -> None:
        split = campaign_statements if schema else migrations.statements
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
            run_step(cur, version, name, data)

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
                if failures.is_lost_connection(exc):
                    raise
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
