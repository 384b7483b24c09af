"""SQL of the judging plans (:mod:`reljudge.plan`): for every question of a queue, the
items to judge now, computed for all of them in ONE query (README "판정 계획 / Judging
plans"): the campaign's top-K rankings (:func:`reljudge.ranking.ranked_sql`, the one
ranking rule) joined with the pool and each annotator's latest grades."""

from __future__ import annotations

from reljudge.storage.catalog import ranked_runs_sql
from reljudge.storage.db import Database
from reljudge.storage.judgments import SHUFFLE_KEY, _IN_QUEUE

# One user's queue (as question_overview reads it).
_ONE_QUEUE = f"""SELECT me.username, q.qid, q.seq FROM questions q
    CROSS JOIN (SELECT $user::VARCHAR AS username) me
    WHERE {_IN_QUEUE.format(user="me.username", qid="q.qid")}"""
# Given (username, qid) pairs (the progress page's rows of every annotator).
_PAIRS_QUEUE = """SELECT b.username, b.qid, q.seq FROM (
    SELECT unnest($users::VARCHAR[]) AS username, unnest($qids::VARCHAR[]) AS qid) b
    JOIN questions q USING (qid)"""


def _sql(queue: str, events_filter: str, plan: str, ties: str, dedup: str, k: int) -> str:
    common = f"""
        queue AS ({queue}),
        mine AS (
            SELECT username, qid, pid, arg_max_null(grade, event_id) AS grade FROM judgment_events
            WHERE {events_filter} AND pid IS NOT NULL GROUP BY ALL),
        items AS (
            SELECT q.username, p.qid, p.pid, m.grade,
                   {SHUFFLE_KEY.format(qid="p.qid", user="q.username", pid="p.pid")} AS shuffle_key
            FROM queue q JOIN pool p ON p.qid = q.qid
            LEFT JOIN mine m ON m.username = q.username AND m.qid = p.qid AND m.pid = p.pid)"""
    if plan == "complete":
        return f"""WITH {common},
        now AS (SELECT username, qid, pid, 0.0 AS w, shuffle_key FROM items WHERE grade IS NULL),
        unsettled AS (SELECT NULL::VARCHAR AS username, NULL::VARCHAR AS qid, NULL::BIGINT AS n WHERE FALSE)
        {_SELECT}"""
    # ranked top-K rows (system, qid, pid, dkey, r); pooled items are duplicate groups (dkey)
    ranked = ranked_runs_sql(ties, dedup, k, where="r.qid IN (SELECT qid FROM queue)")
    return f"""WITH {common},
        ranked AS (SELECT system, qid, dkey, r FROM ({ranked})),
        -- per annotator × question × system: the first pooled item within K that is unjudged
        -- or relevant (reljudge.plan.settled); unjudged = the system is not settled yet
        walk AS (
            SELECT i.username, c.qid, c.system, c.dkey AS pid, i.grade
            FROM ranked c JOIN items i ON i.qid = c.qid AND i.pid = c.dkey
            WHERE i.grade IS NULL OR i.grade >= $rel
            QUALIFY row_number() OVER (PARTITION BY i.username, c.qid, c.system ORDER BY c.r) = 1),
        frontier AS (SELECT DISTINCT username, qid, pid FROM walk WHERE grade IS NULL),
        unsettled AS (SELECT username, qid, count(*) AS n FROM walk WHERE grade IS NULL GROUP BY ALL),
        weight AS (SELECT qid, dkey AS pid, sum(1.0 / log2(r + 1)) AS w FROM ranked GROUP BY ALL),
        now AS (
            SELECT i.username, i.qid, i.pid, 0.0 AS w, i.shuffle_key
            FROM items i SEMI JOIN frontier f USING (username, qid, pid)
            UNION ALL
            SELECT i.username, i.qid, i.pid, coalesce(wt.w, 0.0) AS w, i.shuffle_key
            FROM items i LEFT JOIN weight wt USING (qid, pid)
            WHERE $rest AND i.grade IS NULL
              AND NOT EXISTS (SELECT 1 FROM frontier f WHERE f.username = i.username AND f.qid = i.qid))
        {_SELECT}"""


_SELECT = """,
        lists AS (SELECT username, qid, list(pid ORDER BY w DESC, shuffle_key) AS now_items
                  FROM now GROUP BY ALL)
        SELECT q.username, q.qid, coalesce(l.now_items, []::VARCHAR[]) AS now_items,
               coalesce(u.n, 0) AS unsettled, (SELECT count(*) FROM runs) AS systems
        FROM queue q LEFT JOIN lists l USING (username, qid) LEFT JOIN unsettled u USING (username, qid)
        ORDER BY q.username, q.seq"""


def plan_state(db: Database, username: str, plan: str, rest: bool, ties: str, dedup: str,
               k: int, rel: int) -> list[tuple]:
    """(username, qid, now_items, unsettled systems, systems) per question of ``username``'s
    queue in campaign order; ``now_items`` in the order the page presents them."""
    sql = _sql(_ONE_QUEUE, "username = $user", plan, ties, dedup, k)
    params = {"user": username}
    if plan != "complete":
        params.update(rel=int(rel), rest=bool(rest))
    return db.cursor().execute(sql, params).fetchall()


def plan_state_pairs(db: Database, users: list[str], qids: list[str], plan: str, rest: bool,
                     ties: str, dedup: str, k: int, rel: int) -> list[tuple]:
    """:func:`plan_state` for given (username, qid) pairs of several annotators."""
    sql = _sql(_PAIRS_QUEUE, "list_contains($users::VARCHAR[], username)", plan, ties, dedup, k)
    params = {"users": list(users), "qids": list(qids)}
    if plan != "complete":
        params.update(rel=int(rel), rest=bool(rest))
    return db.cursor().execute(sql, params).fetchall()
