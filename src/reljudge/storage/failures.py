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
