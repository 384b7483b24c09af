"""A real PostgreSQL server for the tests, started from Debian's binaries in a temporary
directory: unix socket only (``listen_addresses=''``), trust authentication for the
``postgres`` role. PostgreSQL refuses to run as root, and CI runs as root: then initdb,
pg_ctl and the server run as the ``postgres`` system user (``runuser``)."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote


def binaries() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin with initdb, pg_ctl and postgres."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
    )
    for folder in reversed(found):
        if all(os.access(os.path.join(folder, b), os.X_OK) for b in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """One PostgreSQL cluster in its own temporary directory."""

    _names = itertools.count(1)

    def __init__(self, durable: bool = False):
        """``durable``: commits reach the WAL before they are acknowledged (synchronous_commit
        on), so an acknowledged write survives ``pg_ctl stop -m immediate``; otherwise the
        server trades that for speed (the tests that share it never kill it)."""
        self.durable = durable
        bin_dir = binaries()
        if bin_dir is None:
            raise RuntimeError(
                "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: "
                "install Debian's postgresql package (scripts/test.sh does)"
            )
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="rj-pg-"))
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, user="postgres", group="postgres")
        self.data = self.root / "data"
        self.port = _free_port()
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        self.start()

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin / program), *args]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120)

    def start(self) -> None:
        options = (
            f"-c listen_addresses='' -k {self.root} -p {self.port} -c fsync=off "
            f"-c synchronous_commit={'on' if self.durable else 'off'} "
            "-c full_page_writes=off -c max_connections=200"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", check=False)

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, dbname: str = "postgres", user: str = "postgres") -> str:
        return f"postgresql://{user}@{quote(str(self.root), safe='')}:{self.port}/{dbname}"

    def admin(self, sql: str) -> None:
        """Run one statement outside a transaction (CREATE / DROP DATABASE) as postgres."""
        if (self.bin / "psql").exists():
            self._run(
                "psql",
                "-X",
                "-q",
                "-h",
                str(self.root),
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                sql,
            )
        else:
            self._admin_duckdb(sql)

    def _admin_duckdb(self, sql: str) -> None:
        from reljudge.storage import postgres

        con = postgres.connect(self.url())
        try:
            postgres.execute_native(con, sql)
        finally:
            con.close()

    def new_database(self, template: str | None = None) -> str:
        name = f"rj_{os.getpid()}_{next(self._names)}"
        self.admin(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return name
