"""SQL that hands the campaign's runs, questions and abstentions to the metric engine."""

from __future__ import annotations

import pandas as pd

from reljudge.storage.db import Database, registered


def canonical_run(db: Database, run: pd.DataFrame | None = None) -> pd.DataFrame:
    """system, qid, pid (the duplicate group's first paragraph), score, rank; from the
    imported runs, or from ``run`` (pids not in the corpus are kept as they are)."""
    cur = db.cursor()
    if run is None:
        return cur.execute("""
            SELECT r.system, r.qid, p.canonical_pid AS pid, r.score, r.rank
            FROM run_entries r JOIN paragraphs p USING (pid)""").df()
    with registered(cur, "_run", run):
        return cur.execute("""
            SELECT r.system, r.qid, coalesce(p.canonical_pid, r.pid) AS pid, r.score, r.rank
            FROM _run r LEFT JOIN paragraphs p USING (pid)""").df()


def systems(db: Database) -> list[str]:
    return [r[0] for r in db.cursor().execute("SELECT system FROM runs ORDER BY system").fetchall()]


def questions(db: Database) -> pd.DataFrame:
    return db.cursor().execute("SELECT qid, qtype FROM questions ORDER BY seq").df()


def abstentions(db: Database) -> pd.DataFrame:
    return db.cursor().execute("SELECT system, qid FROM run_abstentions").df()


def question_texts(db: Database) -> dict[str, str]:
    return dict(db.cursor().execute("SELECT qid, text FROM questions").fetchall())


def paragraph_texts(db: Database, pids: list[str]) -> dict[str, str]:
    return dict(db.cursor().execute("SELECT pid, text FROM paragraphs WHERE list_contains(?, pid)",
                                    [list(pids)]).fetchall())


def top_k(db: Database, qid: str, k: int, ties: str = "trec") -> pd.DataFrame:
    """Every system's top K for one question (duplicates mapped to their group's first
    paragraph, first copy counting), with the paragraph text."""
    from reljudge.storage.catalog import ranking_order_sql
    order = ranking_order_sql(ties)
    return db.cursor().execute(f"""
        WITH ranked AS (
            SELECT r.system, p.canonical_pid AS pid,
                   row_number() OVER (PARTITION BY r.system ORDER BY {order}) AS pos
            FROM run_entries r JOIN paragraphs p USING (pid) WHERE r.qid = ?),
        firsts AS (SELECT system, pid, min(pos) AS pos FROM ranked GROUP BY ALL),
        closed AS (SELECT system, pid, row_number() OVER (PARTITION BY system ORDER BY pos) AS rank
                   FROM firsts)
        SELECT c.system, c.rank, c.pid, p.text FROM closed c JOIN paragraphs p USING (pid)
        WHERE c.rank <= ? ORDER BY c.system, c.rank""", [qid, k]).df()
