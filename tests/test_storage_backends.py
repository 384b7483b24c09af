"""The two storage backends behind one interface, and how storage tells failures apart.

Everything above storage uses :class:`reljudge.storage.database.Database` only: these
tests pin that both backends implement all of it, that no module outside them asks
which backend it has, and that each failure class is recognised from the errors DuckDB
and its postgres extension really raise (not from strings made up here).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from postgres_support import PostgresServer
from reljudge.errors import DatabaseLockedError
from reljudge.storage import failures, postgres
from reljudge.storage.database import Database
from reljudge.storage.db import open_database
from reljudge.storage.duckdb_file import DuckDBFile
from reljudge.storage.postgres_server import PostgresServer as ServerDatabase

SRC = Path(__file__).resolve().parents[1] / "src" / "reljudge"
BACKENDS = {"storage/database.py", "storage/duckdb_file.py", "storage/postgres_server.py"}


def _abstract(cls) -> set[str]:
    """The methods (and properties) of ``cls`` whose body only raises NotImplementedError."""
    names = set()
    tree = ast.parse((SRC / "storage" / "database.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    body = [s for s in item.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
                    if (
                        len(body) == 1
                        and isinstance(body[0], ast.Raise)
                        and "NotImplementedError" in ast.unparse(body[0])
                    ):
                        names.add(item.name)
    return names


def test_both_backends_implement_the_whole_interface():
    required = _abstract(Database)
    assert {"migrate", "close", "version", "table_in", "continue_sequence"} <= required
    for backend in (DuckDBFile, ServerDatabase):
        missing = [name for name in required if name not in vars(backend)]
        assert not missing, f"{backend.__name__} does not implement {missing}"


def test_no_module_outside_the_backends_asks_which_backend_it_has():
    """A backend difference is a method of the backends, not a branch in its caller."""
    found = []
    for path in SRC.rglob("*.py"):
        if str(path.relative_to(SRC)) in BACKENDS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "backend":
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert not found


def test_open_database_picks_the_backend_by_target(tmp_path, pg_url):
    file_db = open_database(tmp_path / "x.duckdb")
    server_db = open_database(pg_url)
    try:
        assert isinstance(file_db, DuckDBFile) and file_db.backend == "duckdb"
        assert isinstance(server_db, ServerDatabase) and server_db.backend == "postgresql"
        # one interface: the same call names each backend's table
        assert file_db.shared("users").endswith(".main.users")
        assert server_db.shared("users") == f"{postgres.ALIAS}.public.users"
    finally:
        file_db.close()
        server_db.close()


HOLD_FILE = textwrap.dedent("""
    import sys, duckdb
    con = duckdb.connect(sys.argv[1])
    print("holding", flush=True)
    sys.stdin.read()
""")


def test_a_file_held_by_another_process_is_a_lock_conflict_and_other_io_errors_are_not(tmp_path):
    path = tmp_path / "held.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_FILE, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(duckdb.IOException) as held:
            duckdb.connect(str(path))
        assert failures.is_lock_conflict(held.value)
        with pytest.raises(DatabaseLockedError):
            open_database(path)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    not_a_database = tmp_path / "notes.duckdb"
    not_a_database.write_bytes(b"this is not a DuckDB file" * 200)
    with pytest.raises(duckdb.Error) as other:
        duckdb.connect(str(not_a_database))
    assert not failures.is_lock_conflict(other.value)


@pytest.fixture
def own_server():
    """A PostgreSQL server of this test's own: it is stopped and started."""
    server = PostgresServer()
    yield server
    server.destroy()


def _raised(call) -> duckdb.Error:
    with pytest.raises(duckdb.Error) as caught:
        call()
    return caught.value


def test_a_lost_server_and_a_concurrent_step_are_told_from_a_refused_statement(own_server):
    con = postgres.connect(own_server.url(own_server.new_database()))
    try:
        postgres.setup_cursor(con)
        postgres.execute_native(con, "CREATE TABLE t(a int PRIMARY KEY)")
        postgres.clear_cache(con)
        con.execute("INSERT INTO t VALUES (1)")

        exists = _raised(lambda: postgres.execute_native(con, "CREATE TABLE t(a int)"))
        duplicate = _raised(lambda: con.execute("INSERT INTO t VALUES (1)"))
        assert failures.is_concurrent_ddl(exists) and failures.is_concurrent_ddl(duplicate)
        refused = _raised(lambda: con.execute("SELECT * FROM no_such_table"))
        assert not failures.is_concurrent_ddl(refused) and not failures.is_lost_connection(refused)
        assert not failures.is_lost_connection(exists) and not failures.is_lost_connection(duplicate)

        # a connection dropped inside a transaction: a plain duckdb.Error with libpq's words
        cur = con.cursor()
        postgres.setup_cursor(cur)
        cur.begin()
        cur.execute("INSERT INTO t VALUES (2)")
        own_server.admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND datname IS NOT NULL"
        )
        dropped = _raised(lambda: cur.execute("INSERT INTO t VALUES (3)"))
        assert failures.is_lost_connection(dropped)
        try:
            cur.rollback()
        except duckdb.Error:
            pass

        # the server gone: the extension cannot connect (an IOException)
        own_server.stop()
        gone = _raised(lambda: con.execute("SELECT count(*) FROM t").fetchall())
        assert isinstance(gone, duckdb.IOException) and failures.is_lost_connection(gone)
        assert not failures.is_storage_failure(refused)
    finally:
        con.close()


def test_the_backends_say_what_a_failure_means_for_them(tmp_path, pg_url):
    """A lost server concerns the server's databases only; an invalidated file the files only
    (the errors' texts as the two previous tests saw DuckDB raise them)."""
    file_db, server_db = open_database(tmp_path / "x.duckdb"), open_database(pg_url)
    try:
        lost = duckdb.IOException('IO Error: Unable to connect to Postgres at "x": connection refused')
        assert server_db.lost_server(lost) is not None and file_db.lost_server(lost) is None
        invalidated = duckdb.FatalException("FATAL Error: database has been invalidated")
        assert file_db.note_failure(invalidated) and not server_db.note_failure(invalidated)
        assert server_db.note_failure(lost) and not file_db.note_failure(lost)
    finally:
        file_db._broken = server_db._broken = False
        file_db.close()
        server_db.close()
