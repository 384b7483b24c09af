"""Failures of the storage itself — a full disk, a read-only file or file system, a lost
permission, an I/O error, no memory — told apart from errors of a request.

A save that meets one of these is not refused for anything the annotator did: the route
answers ``503`` with ``Retry-After`` (reljudge.web.routes), the widget keeps the events and sends
them again, and they are stored once the storage works again.

Told by the exception's type where the type says it: Python's ``OSError`` by its errno,
DuckDB's ``IOException``, ``OutOfMemoryException`` and ``FatalException`` (the database was
invalidated, typically by a checkpoint that could not write: it must be reopened, see
:func:`invalidates` and ``Database.mark_broken``). DuckDB reports a failed write at commit
as a ``TransactionException`` whose text carries the operating system's own wording of
the errno (``strerror``: "No space left on device", "Read-only file system", …); only
those texts, made by ``os.strerror`` for the errnos below, are looked for there.

This module is the one place where storage tells errors apart. Three more cases have no
type or code of their own, and are read from the text here, each in one function:

- :func:`is_lock_conflict` — another process holds the DuckDB file: DuckDB raises a plain
  ``IOException``, as for any other failure to open it;
- :func:`is_lost_connection` — the PostgreSQL server was lost: the postgres extension
  raises ``IOException`` when it cannot connect, but a connection lost inside a
  transaction reaches us as a plain ``duckdb.Error`` with libpq's text, and the extension
  passes no SQLSTATE on;
- :func:`is_concurrent_ddl` — another process made the same table or recorded the same
  migration step at the same moment (SQLSTATE 42P07, 23505, 40001, 40P01, XX000 on the
  server; again only its text reaches us).
"""

from __future__ import annotations

import errno
import os

import duckdb

from reljudge.errors import ReljudgeError

#: errnos of a storage that cannot take a write now but may later (space freed, the file
#: system remounted writable, the permission given back, the device back).
ERRNOS = tuple(
    getattr(errno, name)
    for name in ("ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "EIO", "EFBIG", "ENOMEM")
    if hasattr(errno, name)
)
_TEXTS = tuple(os.strerror(code) for code in ERRNOS)


class StorageUnavailable(ReljudgeError):
    """The database could not be (re)opened after its storage failed; retryable."""


def is_storage_failure(exc: BaseException) -> bool:
    """The storage failed (retry later), as opposed to a refusal of the request."""
    if isinstance(exc, StorageUnavailable):
        return True
    if isinstance(exc, OSError):
        return exc.errno in ERRNOS
    if isinstance(exc, MemoryError):
        return True
    if isinstance(exc, (duckdb.FatalException, duckdb.OutOfMemoryException)):
        return True
    if isinstance(exc, duckdb.IOException) and not isinstance(exc, duckdb.HTTPException):
        return True
    if isinstance(exc, (duckdb.TransactionException, duckdb.InternalException)):
        text = str(exc)
        return any(t in text for t in _TEXTS)
    return False


def invalidates(exc: BaseException) -> bool:
    """DuckDB refuses every further use of the database after this error (``FatalException``:
    "database has been invalidated"): it must be closed and opened again."""
    return isinstance(exc, duckdb.FatalException)


def is_lock_conflict(exc: BaseException) -> bool:
    """Another process holds the DuckDB file ("Could not set lock on file …: Conflicting
    lock is held")."""
    text = str(exc).lower()
    return (
        isinstance(exc, duckdb.IOException)
        and "lock" in text
        and ("conflicting" in text or "could not set lock" in text)
    )


#: libpq's and PostgreSQL's words for a connection that is gone or cannot be made.
_LOST_CONNECTION = (
    "unable to connect",
    "connection to server",
    "could not connect",
    "server closed the connection",
    "terminating connection",
    "connection refused",
    "no connection to the server",
    "connection is bad",
    "the database system is starting up",
    "the database system is shutting down",
    "ssl syscall",
    "could not receive data",
    "could not send data",
    "connection not open",
)


def is_lost_connection(exc: BaseException) -> bool:
    """The PostgreSQL server cannot be reached, or dropped the connection (a retry after
    attaching again may succeed)."""
    text = str(exc).lower()
    return isinstance(exc, duckdb.Error) and any(m in text for m in _LOST_CONNECTION)


#: PostgreSQL's words for a statement that met the same statement of another process.
_CONCURRENT_DDL = (
    "already exists",
    "duplicate key value",
    "could not serialize access",
    "deadlock detected",
    "tuple concurrently updated",
)


def is_concurrent_ddl(exc: BaseException) -> bool:
    """A statement that failed because another process did the same at the same moment
    (two processes creating one table, recording one migration step)."""
    text = str(exc).lower()
    return isinstance(exc, duckdb.Error) and any(m in text for m in _CONCURRENT_DDL)
