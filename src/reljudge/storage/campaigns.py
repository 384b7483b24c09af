"""SQL for the campaigns of one database (README "여러 캠페인 / Several campaigns").

A campaign is a schema: the default campaign is the schema every database has had
(``main`` in the DuckDB file, ``public`` on PostgreSQL), each other one ``campaign_<name>``,
registered in the shared table ``campaigns`` (:mod:`reljudge.storage.db`).
"""

from __future__ import annotations

import os

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage.db import DEFAULT_CAMPAIGN, Database, campaign_name, campaign_schema, open_database

CODES = Codes(error_campaign_exists=("name",))

#: What ``campaigns list`` counts in each campaign: (column, table).
COUNTED = (("questions", "questions"), ("pool", "pool"), ("judgment_events", "judgment_events"))


def _table(db: Database, campaign: str, table: str) -> str:
    """``table`` of ``campaign``, named so that any cursor of ``db`` finds it."""
    return db.table_in(campaign_schema(campaign), table)


def create(target: str | os.PathLike | None, name: str) -> list[str]:
    """Create campaign ``name`` in the database ``target`` (made if new): registered, and
    its schema built by every migration step. Returns the steps applied to it."""
    name = campaign_name(name)
    db = open_database(target, campaign=DEFAULT_CAMPAIGN)
    try:
        if name in db.campaign_names():
            raise ReljudgeError(CODES("error_campaign_exists", name=name))
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
    judgment events it holds (the default campaign first)."""
    cur = db.cursor()
    db.refresh_catalog(cur)  # schemas made by other processes since this one connected
    rows = []
    for name in db.campaign_names():
        counts = [cur.execute(f"SELECT count(*) FROM {_table(db, name, table)}").fetchone()[0] for _, table in COUNTED]
        rows.append({"campaign": name, **{column: int(n) for (column, _), n in zip(COUNTED, counts)}})
    return rows
