"""SQL for judgments: append-only events, the judging view of a question, progress."""

from __future__ import annotations

import pandas as pd

from reljudge.errors import ReljudgeError
from reljudge.storage.db import Database

EVENT_COLUMNS = ["client_event_id", "qid", "pid", "grade", "no_answer", "note", "evidence",
                 "time_spent_ms", "client_id", "base_event_id"]

# A stable, per-(question, annotator) shuffle: nobody can infer a system or a rank
# from the order, and the order does not move between visits.
_SHUFFLE = "md5(pool.qid || chr(31) || ? || chr(31) || pool.pid)"

# True when the question (column ``qid`` of ``alias``) is in the user's queue. Parameters:
# (sees_all, username) — see :func:`sees_all_questions`.
_IN_QUEUE = """(? OR EXISTS (SELECT 1 FROM assignments a
                             WHERE a.active AND a.qid = {alias}.qid AND a.username = ?))"""


def sees_all_questions(cur, username: str) -> bool:
    """Every question is in the queue while no assignment exists, and for a lead who has
    no assignment of their own; otherwise only the user's active assignments are."""
    return cur.execute("""
        SELECT NOT EXISTS (SELECT 1 FROM assignments WHERE active)
            OR (EXISTS (SELECT 1 FROM users WHERE username = ? AND role = 'lead')
                AND NOT EXISTS (SELECT 1 FROM assignments WHERE active AND username = ?))""",
        [username, username]).fetchall()[0][0]


def _values(rows: list[dict]) -> tuple[str, list]:
    """The batch as an inline ``VALUES`` table with its order (bound parameters): for the
    few events of one save this is cheaper than registering a DataFrame."""
    cols = EVENT_COLUMNS + ["batch_order"]
    row_sql = "(" + ", ".join("?" for _ in cols) + ")"
    params = [value for i, row in enumerate(rows) for value in [row[c] for c in EVENT_COLUMNS] + [i]]
    return f"(VALUES {', '.join(row_sql for _ in rows)}) AS e({', '.join(cols)})", params


def append_events(db: Database, username: str, rows: list[dict]) -> tuple[dict[str, int], list[str]]:
    """Insert events (idempotent on client_event_id); returns ({id now stored: its
    event_id}, stale ids).

    An event is stale when, since the state it was made on (``base_event_id``), another
    browser (``client_id``) stored a newer event for the same item: the newer one is kept.

    Every paragraph event must name a pooled paragraph of its question, so a
    forged request cannot judge something the annotator was never shown."""
    if not rows:
        return {}, []
    events_sql, params = _values(rows)
    with db.transaction() as cur:
        # One pass over the batch: every paragraph must be pooled for its question and,
        # once a lead assigns work, the question must be in this annotator's queue.
        bad = cur.execute(f"""
            SELECT e.qid, e.pid,
                   e.qid IN (SELECT qid FROM questions)
                   AND (e.pid IS NULL OR EXISTS (
                        SELECT 1 FROM pool p WHERE p.qid = e.qid AND p.pid = e.pid)) AS pooled
            FROM {events_sql}
            WHERE NOT pooled OR {_IN_QUEUE.format(alias='e')} IS NOT TRUE
            LIMIT 1""", params + [sees_all_questions(cur, username), username]).fetchall()
        if bad:
            qid, pid, pooled = bad[0]
            if not pooled:
                raise ReljudgeError(f"paragraph {pid!r} is not in the pool of question {qid!r}")
            raise ReljudgeError(f"question {qid!r} is not assigned to {username!r}")
        # Only the items of this batch are looked at (the latest event per item).
        stale = [r[0] for r in cur.execute(f"""
            WITH batch AS (SELECT * FROM {events_sql}),
            latest AS (
                SELECT j.qid, j.pid, max(j.event_id) AS eid, arg_max(j.client_id, j.event_id) AS client
                FROM judgment_events j
                WHERE j.username = ? AND j.qid IN (SELECT qid FROM batch)
                GROUP BY j.qid, j.pid)
            SELECT e.client_event_id FROM batch e
            JOIN latest l ON l.qid = e.qid AND l.pid IS NOT DISTINCT FROM e.pid
            WHERE e.base_event_id IS NOT NULL AND l.eid > CAST(e.base_event_id AS BIGINT)
              AND l.client IS DISTINCT FROM e.client_id
              AND e.client_event_id NOT IN (SELECT client_event_id FROM judgment_events)""",
            params + [username]).fetchall()]
        # Events of one batch are stored in the order they were made: the last one wins.
        cur.execute(f"""
            INSERT OR IGNORE INTO judgment_events(client_event_id, username, qid, pid, grade,
                no_answer, note, evidence, time_spent_ms, client_id, base_event_id)
            SELECT client_event_id, ?, qid, pid, CAST(grade AS TINYINT),
                   CAST(no_answer AS BOOLEAN), nullif(note, ''), nullif(evidence, ''),
                   CAST(time_spent_ms AS BIGINT), client_id, CAST(base_event_id AS BIGINT)
            FROM {events_sql} WHERE NOT list_contains(?, e.client_event_id)
            ORDER BY batch_order""", [username] + params + [stale])
        ids = [row["client_event_id"] for row in rows]
        stored = dict(cur.execute(
            "SELECT client_event_id, event_id FROM judgment_events WHERE list_contains(?, client_event_id)",
            [ids]).fetchall())
    return stored, stale


def question_overview(db: Database, username: str) -> pd.DataFrame:
    """One row per question of the user's queue, in campaign order: pool size, this
    annotator's judged count and no-answer verdict, how many annotators judged it."""
    return db.cursor().execute(f"""
        SELECT q.qid, q.text, q.qtype, q.criteria, q.seq,
               coalesce(ps.n, 0) AS pool_size,
               coalesce(js.n, 0) AS judged,
               coalesce(v.no_answer, FALSE) AS no_answer,
               coalesce(o.n, 0) AS n_annotators_judging
        FROM questions q
        LEFT JOIN (SELECT qid, count(*) AS n FROM pool GROUP BY qid) ps USING (qid)
        LEFT JOIN (SELECT j.qid, count(*) AS n FROM current_judgments j
                   JOIN pool p ON p.qid = j.qid AND p.pid = j.pid
                   WHERE j.username = ? GROUP BY j.qid) js USING (qid)
        LEFT JOIN (SELECT qid, no_answer FROM current_verdicts WHERE username = ?) v USING (qid)
        LEFT JOIN (SELECT qid, count(DISTINCT username) AS n FROM current_judgments GROUP BY qid) o USING (qid)
        WHERE {_IN_QUEUE.format(alias="q")}
        ORDER BY q.seq""", [username, username, sees_all_questions(db.cursor(), username), username]).df()


def question_items(db: Database, username: str, qid: str) -> pd.DataFrame:
    """The pooled paragraphs of one question as this annotator sees them: shuffled,
    blind (no system, rank or score), with source fields, neighbours and how many
    duplicate copies each stands for. Changes only when the pool is rebuilt."""
    return db.cursor().execute(f"""
        WITH items AS (
            SELECT pool.pid, {_SHUFFLE} AS shuffle_key FROM pool WHERE pool.qid = ?),
        docs AS (
            SELECT DISTINCT doc_id FROM paragraphs
            WHERE pid IN (SELECT pid FROM items) AND doc_id IS NOT NULL),
        neighbours AS (
            SELECT pid, lag(text) OVER w AS prev_text, lead(text) OVER w AS next_text
            FROM paragraphs WHERE doc_id IN (SELECT doc_id FROM docs)
            WINDOW w AS (PARTITION BY doc_id ORDER BY position NULLS LAST, seq)),
        copies AS (
            SELECT canonical_pid AS pid, count(*) AS n_copies FROM paragraphs
            WHERE canonical_pid IN (SELECT pid FROM items) GROUP BY canonical_pid)
        SELECT p.pid, p.text, p.title, p.date, p.volume, p.page, p.doc_id,
               n.prev_text, n.next_text, coalesce(c.n_copies, 1) AS n_copies
        FROM items i JOIN paragraphs p USING (pid)
        LEFT JOIN neighbours n USING (pid)
        LEFT JOIN copies c USING (pid)
        ORDER BY i.shuffle_key""", [username, qid]).df()


def my_latest(db: Database, username: str, qid: str) -> dict[str, tuple]:
    """This annotator's latest (grade, note, evidence, event_id) per paragraph of a question."""
    rows = db.cursor().execute("""
        SELECT pid, grade, note, evidence, event_id FROM latest_paragraph_events
        WHERE username = ? AND qid = ?""", [username, qid]).fetchall()
    return {r[0]: r[1:] for r in rows}


def question_verdict(db: Database, username: str, qid: str) -> tuple[bool, str | None, int | None]:
    rows = db.cursor().execute(
        "SELECT no_answer, note, event_id FROM current_verdicts WHERE username = ? AND qid = ?",
        [username, qid]).fetchall()
    return (bool(rows[0][0]), rows[0][1], rows[0][2]) if rows else (False, None, None)


def get_position(db: Database, username: str) -> str | None:
    row = db.cursor().execute(
        "SELECT qid FROM user_positions WHERE username = ? AND qid IN (SELECT qid FROM questions)",
        [username]).fetchone()
    return row[0] if row else None


def set_position(db: Database, username: str, qid: str) -> None:
    with db.transaction() as cur:
        cur.execute("INSERT OR REPLACE INTO user_positions(username, qid) VALUES (?, ?)",
                    [username, qid])


def event_history(db: Database, qid: str, pid: str | None = None) -> pd.DataFrame:
    """Every event on a paragraph (or the question verdict when pid is None), oldest first."""
    cond = "pid = ?" if pid is not None else "pid IS NULL"
    params = [qid] + ([pid] if pid is not None else [])
    return db.cursor().execute(f"""
        SELECT event_id, username, grade, no_answer, note, evidence,
               round(time_spent_ms / 1000.0, 1) AS seconds_spent, created_at,
               lag(grade) OVER (PARTITION BY username ORDER BY event_id) AS previous_grade
        FROM judgment_events WHERE qid = ? AND {cond} ORDER BY event_id""", params).df()


def last_judged_question(db: Database) -> str | None:
    """The question of the most recent judgment event, if any."""
    row = db.cursor().execute("SELECT qid FROM judgment_events ORDER BY event_id DESC LIMIT 1").fetchall()
    return row[0][0] if row else None


def event_counts(db: Database, qid: str) -> dict[str | None, int]:
    """Number of events per paragraph of a question (None: the question verdict)."""
    return dict(db.cursor().execute(
        "SELECT pid, count(*) FROM judgment_events WHERE qid = ? GROUP BY pid", [qid]).fetchall())


def all_events(db: Database) -> pd.DataFrame:
    return db.cursor().execute("SELECT * FROM judgment_events ORDER BY event_id").df()


def progress_by_annotator(db: Database) -> pd.DataFrame:
    """Per annotator and question type: judged pooled paragraphs, pool size, median
    seconds per judgment, no-answer verdicts."""
    return db.cursor().execute("""
        WITH pooled AS (SELECT q.qtype, count(*) AS pool_size FROM pool p
                        JOIN questions q USING (qid) GROUP BY q.qtype),
        judged AS (
            SELECT j.username, q.qtype, count(*) AS judged,
                   round(median(j.time_spent_ms) / 1000.0, 1) AS median_seconds
            FROM current_judgments j JOIN pool p ON p.qid = j.qid AND p.pid = j.pid
            JOIN questions q ON q.qid = j.qid GROUP BY ALL),
        verdicts AS (
            SELECT v.username, q.qtype, count(*) FILTER (WHERE v.no_answer) AS no_answer
            FROM current_verdicts v JOIN questions q USING (qid) GROUP BY ALL)
        SELECT u.username, pooled.qtype, coalesce(judged.judged, 0) AS judged, pooled.pool_size,
               round(100.0 * coalesce(judged.judged, 0) / pooled.pool_size, 1) AS percent,
               judged.median_seconds, coalesce(verdicts.no_answer, 0) AS no_answer
        FROM users u CROSS JOIN pooled
        LEFT JOIN judged ON judged.username = u.username AND judged.qtype = pooled.qtype
        LEFT JOIN verdicts ON verdicts.username = u.username AND verdicts.qtype = pooled.qtype
        WHERE u.active AND (u.role = 'annotator'
                            OR u.username IN (SELECT username FROM judgment_events))
        ORDER BY u.username, pooled.qtype""").df()


def all_questions(db: Database) -> pd.DataFrame:
    """Every question of the campaign (for leads' pages), in campaign order."""
    return db.cursor().execute("SELECT qid, text, qtype FROM questions ORDER BY seq").df()


def pool_paragraphs(db: Database, qid: str) -> pd.DataFrame:
    return db.cursor().execute("""
        SELECT p.pid, left(p.text, 80) AS text FROM pool JOIN paragraphs p USING (pid)
        WHERE pool.qid = ? ORDER BY p.pid""", [qid]).df()
