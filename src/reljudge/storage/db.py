"""Opening a campaign's database: the front door of storage.

One decision picks the backend (:func:`is_postgres`): a ``postgresql://`` URL selects
PostgreSQL (the team backend, :mod:`reljudge.storage.postgres_server`); anything else is a
DuckDB file (the zero-setup default, :mod:`reljudge.storage.duckdb_file`). Both implement
one interface, :class:`reljudge.storage.database.Database`, which is all the rest of
reljudge uses; this module re-exports it with the helpers callers build SQL with.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Callable, Iterator

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
import reljudge.storage.postgres as postgres
from reljudge.storage.database import (  # noqa: F401 — the names storage's callers import from here
    CAMPAIGN_ENV_VAR,
    DEFAULT_CAMPAIGN,
    MANY_KEYS,
    MEMORY_ENV_VAR,
    SHARED,
    Database,
    campaign_name,
    check_campaign_name,
    campaign_schema,
    campaign_statements,
    chosen_campaign,
    in_list,
    is_campaign_name,
    memory_limit,
    registered,
)
from reljudge.storage.duckdb_file import DuckDBFile
from reljudge.storage.postgres_server import PostgresServer

DEFAULT_DB = Path("judgments") / "reljudge.duckdb"
ENV_VAR = "RELJUDGE_DB"

CODES = Codes(error_no_database=("path", "variable"))
"""The errors this module raises as codes."""


def is_postgres(target) -> bool:
    """The one place that decides the backend: a postgresql:// (or postgres://) URL."""
    return postgres.is_url(str(target)) if target is not None else False


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


#: Set while a running server carries out a client's command (reljudge.web.api): the
#: database the server already holds stands in for the file the command opens, as DuckDB
#: lets only one process (and, through it, one open instance) hold the file.
_SERVED: ContextVar[Callable[[Path, str], Database | None] | None] = ContextVar("reljudge_served", default=None)


@contextmanager
def served_by(provider: Callable[[Path, str], Database | None]) -> Iterator[None]:
    """Inside the block, :func:`open_database` of a DuckDB file asks ``provider(path,
    campaign)`` first; a Database it returns is used, None opens the file as usual."""
    token = _SERVED.set(provider)
    try:
        yield
    finally:
        _SERVED.reset(token)


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
        return PostgresServer(path, read_only=read_only, must_exist=must_exist, campaign=name)
    provider = _SERVED.get()
    if provider is not None:
        token = _SERVED.set(None)  # the provider opens its own database the usual way
        try:
            served = provider(path, name)
        finally:
            _SERVED.reset(token)
        if served is not None:
            return served
    if must_exist and not path.exists():
        raise ReljudgeError(CODES("error_no_database", path=str(path), variable=ENV_VAR))
    return DuckDBFile(path, read_only=read_only, campaign=name)
