"""SQL for the campaigns of one database (docs/team-server.md#여러-캠페인--several-campaigns).

A campaign is a schema: the default campaign is the schema every database has had
(``main`` in the DuckDB file, ``public`` on PostgreSQL), each other one ``campaign_<name>``,
registered in the shared table ``campaigns`` (:mod:`reljudge.storage.db`).
"""

from __future__ import annotations

import os

import duckdb

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage.db import DEFAULT_CAMPAIGN, Database, campaign_schema, check_campaign_name, open_database

CODES = Codes(error_campaign_exists=("name",))

#: What ``campaigns list`` counts in each campaign: (column, table).
COUNTED = (("questions", "questions"), ("pool", "pool"), ("judgment_events", "judgment_events"))


def _table(db: Database, campaign: str, table: str) -> str:
    """``table`` of ``campaign``, named so that any cursor of ``db`` finds it."""
    return db.table_in(campaign_schema(campaign), table)


def _is_complete(db: Database, name: str) -> bool:
    """Whether campaign ``name``'s schema holds every migration step. A stop (SIGKILL)
    during ``campaigns create`` leaves the name registered with its schema missing or
    half-built (issue 34.11); opening the campaign for writing finishes it."""
    from reljudge.storage.migrations import MIGRATIONS

    cur = db.cursor()
    try:
        db.refresh_catalog(cur)  # schemas made by other processes since this one connected
        top = cur.execute(f"SELECT max(version) FROM {_table(db, name, 'schema_migrations')}").fetchone()[0]
    except duckdb.Error:
        return False
    return top is not None and top >= MIGRATIONS[-1][0]


def half_made(target: str | os.PathLike | None) -> list[str]:
    """The registered campaigns of ``target`` whose schema a stop left unfinished."""
    db = open_database(target, must_exist=True, campaign=DEFAULT_CAMPAIGN)
    try:
        return [name for name in db.campaign_names()[1:] if not _is_complete(db, name)]
    finally:
        db.close()


def finish(target: str | os.PathLike | None, name: str) -> list[str]:
    """Build what a stopped ``campaigns create`` left of campaign ``name`` (its schema and
    the remaining migration steps; each step is its own checkpointed transaction, so a
    stop here too leaves a state that the next call finishes). Returns the steps applied."""
    made = open_database(target, campaign=name)
    try:
        return [n for _, n in made.applied_migrations()]
    finally:
        made.close()


def create(target: str | os.PathLike | None, name: str) -> list[str]:
    """Create campaign ``name`` in the database ``target`` (made if new): registered, and
    its schema built by every migration step. Returns the steps applied to it. A name that
    a stop left registered but half-built is finished, not refused."""
    name = check_campaign_name(name)
    db = open_database(target, campaign=DEFAULT_CAMPAIGN)
    try:
        if name in db.campaign_names():
            if _is_complete(db, name):
                raise ReljudgeError(CODES("error_campaign_exists", name=name))
        else:
            with db.transaction() as cur:
                cur.execute("INSERT INTO campaigns(name) VALUES (?)", [name])
    finally:
        db.close()
    made = open_database(target, campaign=name)
    try:
        return [n for _, n in made.applied_migrations()]
    finally:
        made.close()


def listing(db: Database) -> list[dict]:
    """Every campaign of ``db``'s database: its name and how many questions, pool items and
    judgment events it holds (the default campaign first). A campaign that a stop left
    half-built (:func:`half_made`; ``campaigns create NAME`` finishes it) has None counts."""
    cur = db.cursor()
    db.refresh_catalog(cur)  # schemas made by other processes since this one connected
    rows = []
    for name in db.campaign_names():
        if name != DEFAULT_CAMPAIGN and not _is_complete(db, name):
            rows.append({"campaign": name, **{column: None for column, _ in COUNTED}})
            continue
        counts = [cur.execute(f"SELECT count(*) FROM {_table(db, name, table)}").fetchone()[0] for _, table in COUNTED]
        rows.append({"campaign": name, **{column: int(n) for (column, _), n in zip(COUNTED, counts)}})
    return rows
