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


def stage(cur, policy: str, threshold: int, version: int | None) -> tuple[str, str]:
    """Aggregate the judgments into this cursor's temp tables; returns their names."""
    from reljudge.storage.team import stage_aggregates
    stage_aggregates(cur, policy, threshold, version)
    return "_rj_qrels", "_rj_verdicts"


def stage_run(cur, run: pd.DataFrame | None = None) -> str:
    """A temp view/table ``_rj_run`` (system, qid, pid, score, rank) with pids mapped to
    their duplicate group's first paragraph: the imported runs, or ``run``."""
    if run is None:
        cur.execute("""CREATE OR REPLACE TEMP VIEW _rj_run AS
                       SELECT r.system, r.qid, p.canonical_pid AS pid, r.score, r.rank
                       FROM run_entries r JOIN paragraphs p USING (pid)""")
        return "_rj_run"
    with registered(cur, "_given_run", run):
        cur.execute("""CREATE OR REPLACE TEMP TABLE _rj_given AS
                       SELECT r.system, r.qid, coalesce(p.canonical_pid, r.pid) AS pid, r.score, r.rank
                       FROM _given_run r LEFT JOIN paragraphs p USING (pid)""")
    return "_rj_given"


def no_answer_qids(cur, verdicts_table: str) -> list[str]:
    return [r[0] for r in cur.execute(
        f"SELECT qid FROM {verdicts_table} WHERE no_answer ORDER BY qid").fetchall()]


def count(cur, table: str) -> int:
    return cur.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]


def systems(db: Database) -> list[str]:
    return [r[0] for r in db.cursor().execute("SELECT system FROM runs ORDER BY system").fetchall()]


def questions(db: Database) -> pd.DataFrame:
    return db.cursor().execute("SELECT qid, qtype FROM questions ORDER BY seq").df()


def abstentions(db: Database) -> pd.DataFrame:
    return db.cursor().execute("SELECT system, qid FROM run_abstentions").df()


def question_texts(db: Database) -> dict[str, str]:
    return dict(db.cursor().execute("SELECT qid, text FROM questions").fetchall())


def paragraph_texts(db: Database, pids: list[str]) -> dict[str, str]:
    return dict(db.cursor().execute("""
        SELECT p.pid, p.text FROM (SELECT DISTINCT unnest(?::VARCHAR[]) AS pid) w
        JOIN paragraphs p USING (pid)""", [list(pids)]).fetchall())


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
