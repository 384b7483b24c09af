"""The runtime file a running app leaves beside the DuckDB file it holds (docs/served.md).

DuckDB lets one process hold a file; while the app holds it, a ``reljudge`` command on
the same file cannot open it. The app therefore writes ``<file>.reljudge-server.json``
beside the database: where it listens, a random secret for local clients and the PID of
the process that holds the file. The CLI reads it to send its command to the running
server instead (reljudge.cli.forward), as Jupyter's CLI finds a running server through
its runtime files.

The file is created owner-only (mode 0600) and atomically (written under a random name,
then renamed), and is removed on a clean stop. A file that another user could read, that
another user owns, or whose process is gone is not trusted: :func:`read_live` ignores it.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from dataclasses import asdict, dataclass
from pathlib import Path

SUFFIX = ".reljudge-server.json"
FORMAT = 1


@dataclass(frozen=True)
class RuntimeInfo:
    """What a running server wrote: how to reach it and the secret local clients send."""

    db: str  # the database file's absolute path (what the server holds)
    pid: int  # the process that holds the file (under `reljudge serve`: the Streamlit child)
    host: str  # where a local client connects (a loopback address)
    port: int
    base_path: str  # Streamlit's server.baseUrlPath, "" or "/prefix"
    secret: str
    format: int = FORMAT

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{self.base_path}"

    def __repr__(self) -> str:  # never the secret, whatever prints this object
        return f"RuntimeInfo(db={self.db!r}, pid={self.pid}, url={self.url!r})"


def path_for(db_path: str | os.PathLike) -> Path:
    """The runtime file of a database file: beside it, its name plus SUFFIX."""
    db = Path(db_path)
    return db.with_name(db.name + SUFFIX)


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def write(info: RuntimeInfo) -> Path:
    """Write the runtime file of ``info.db``: mode 0600 from its creation (never widened
    afterwards: the secret is never readable by another user, not even for a moment), and
    renamed into place, so that a reader sees the whole file or the previous one."""
    target = path_for(info.db)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
    # O_EXCL: a name planted in advance (a symlink included) is refused, not followed
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(asdict(info), out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: not the server this user started
        return False
    return True


def read(db_path: str | os.PathLike) -> RuntimeInfo | None:
    """The runtime file beside ``db_path`` if it is there, this user's, owner-only and
    well-formed; None otherwise (whether its process lives is :func:`read_live`'s)."""
    target = path_for(db_path)
    try:
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        # another user's file, or one others can read or write: not a secret of ours
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
            return None
        with os.fdopen(fd, "r", encoding="utf-8") as handle:
            fd = -1
            data = json.load(handle)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    try:
        info = RuntimeInfo(
            db=str(data["db"]),
            pid=int(data["pid"]),
            host=str(data["host"]),
            port=int(data["port"]),
            base_path=str(data.get("base_path") or ""),
            secret=str(data["secret"]),
            format=int(data.get("format", FORMAT)),
        )
    except (KeyError, TypeError, ValueError):
        return None
    return info if info.format == FORMAT and info.secret else None


def read_live(db_path: str | os.PathLike) -> RuntimeInfo | None:
    """The runtime file beside ``db_path`` when its process still runs; a file left by a
    process that is gone (killed, crashed) is ignored (the next server replaces it)."""
    info = read(db_path)
    return info if info is not None and pid_alive(info.pid) else None


def remove(info: RuntimeInfo) -> None:
    """Remove the runtime file if it is still the one ``info`` describes (a later server's
    file is left alone)."""
    current = read(info.db)
    if current is not None and current.pid == info.pid and current.secret == info.secret:
        try:
            path_for(info.db).unlink()
        except FileNotFoundError:
            pass
