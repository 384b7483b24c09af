"""SQL of the judging plans (:mod:`reljudge.campaign.plan`; docs/judging-plans.md#판정-계획--judging-plans).

For every question of a queue, ONE query walks the campaign's top-K rankings
(:func:`reljudge.eval.ranking.ranked_sql`, the one ranking rule) joined with the pool and each
annotator's latest grades: how many items are to judge now and how many systems are not
settled (:func:`plan_overview`, :func:`plan_counts_pairs`). A second query orders the items to judge now of the
questions about to be shown (:func:`plan_items`): ordering every question's items costs
as much again, and the page shows one question at a time.
"""

from __future__ import annotations

from reljudge.storage.catalog import ranked_runs_sql
from reljudge.storage.database import Database
from reljudge.storage.judgments import OVERVIEW_COLUMNS, SHUFFLE_KEY, _IN_QUEUE

# One user's queue (as question_overview reads it).
_ONE_QUEUE = f"""SELECT me.username, q.qid FROM questions q
    CROSS JOIN (SELECT $user::VARCHAR AS username) me
    WHERE {_IN_QUEUE.format(user="me.username", qid="q.qid")}"""
# Given (username, qid) pairs: questions already known to be in those queues.
_PAIRS = """SELECT unnest($users::VARCHAR[]) AS username, unnest($qids::VARCHAR[]) AS qid"""


def _walk(queue: str, events_filter: str, ties: str, dedup: str, k: int, shuffle: bool, sample: bool = False) -> str:
    """The CTEs every plan query shares: queue (username, qid), items (every pooled item
    of a queued question with the annotator's latest grade), ranked (top-K rows) and walk:
    per annotator × question × system the first pooled item within K that is unjudged or
    relevant (reljudge.campaign.plan.settled); ``open`` = it is unjudged, i.e. the system is not
    settled and that item is on the frontier. ``sample``: items carry ``drawn`` from the
    sampling plans' draw (table sample_draws, read only then); else ``drawn`` is false."""
    key = SHUFFLE_KEY.format(qid="p.qid", user="q.username", pid="p.pid") if shuffle else "NULL"
    # pooled items are duplicate groups: a ranked row names its group by dkey. A question
    # whose pooled items are all graded has nothing to judge now and every system settled
    # (each walk ends on a relevant item or finds none): its rankings are not read.
    ranked = ranked_runs_sql(ties, dedup, k, where="r.qid IN (SELECT qid FROM items WHERE grade IS NULL)")
    drawn, draws = (
        "coalesce(d.drawn, FALSE)",
        "\n            LEFT JOIN sample_draws d ON d.qid = p.qid AND d.pid = p.pid",
    )
    if not sample:
        drawn, draws = "FALSE", ""
    return f"""
        queue AS MATERIALIZED ({queue}),
        mine AS (
            SELECT username, qid, pid, arg_max_null(grade, event_id) AS grade FROM judgment_events
            WHERE {events_filter} AND pid IS NOT NULL GROUP BY ALL),
        items AS MATERIALIZED (
            SELECT q.username, p.qid, p.pid, m.grade, {key} AS shuffle_key, {drawn} AS drawn
            FROM queue q JOIN pool p ON p.qid = q.qid
            LEFT JOIN mine m ON m.username = q.username AND m.qid = p.qid AND m.pid = p.pid{draws}),
        ranked AS MATERIALIZED (SELECT system, qid, dkey, r FROM ({ranked})),
        walk AS (
            SELECT i.username, c.qid, c.system, min_by(c.dkey, c.r) AS pid, min_by(i.grade IS NULL, c.r) AS open
            FROM ranked c JOIN items i ON i.qid = c.qid AND i.pid = c.dkey
            WHERE i.grade IS NULL OR i.grade >= $rel
            GROUP BY ALL)"""


# After _walk: the items to judge now under rr-first, with their order keys — the frontier
# (each unsettled system's first open item, phase 0; none under the sample plan, $walk
# false); or, with $rest once a question's frontier is empty, its ungraded items weighted by
# the sum over systems of 1/log2(rank + 1) within K; or, under a sampling plan ($sample), the
# drawn items not yet graded (phase 1, after the frontier, in the stable shuffle: they stay
# on the list until graded, whatever the frontier does). The count and the order of the
# items to judge now both read this one CTE.
_NOW = """
        frontier AS (SELECT DISTINCT username, qid, pid FROM walk WHERE open AND $walk),
        weight AS (SELECT qid, dkey AS pid, sum(1.0 / log2(r + 1)) AS w FROM ranked GROUP BY ALL),
        now AS (
            SELECT i.username, i.qid, i.pid, 0 AS phase, 0.0 AS w, i.shuffle_key
            FROM items i SEMI JOIN frontier f USING (username, qid, pid)
            UNION ALL
            SELECT i.username, i.qid, i.pid, 1 AS phase, coalesce(wt.w, 0.0) AS w, i.shuffle_key
            FROM items i LEFT JOIN weight wt USING (qid, pid)
            WHERE $rest AND i.grade IS NULL
              AND NOT EXISTS (SELECT 1 FROM frontier f WHERE f.username = i.username AND f.qid = i.qid)
            UNION ALL
            SELECT i.username, i.qid, i.pid, 1 AS phase, 0.0 AS w, i.shuffle_key
            FROM items i ANTI JOIN frontier f USING (username, qid, pid)
            WHERE i.drawn AND i.grade IS NULL AND NOT $rest)"""
_NOW_ORDER = "list(pid ORDER BY phase, w DESC, shuffle_key)"


def _counts_sql(
    queue: str, events_filter: str, ties: str, dedup: str, k: int, items: bool = False, sample: bool = False
) -> str:
    """Per queued (username, qid): open_now (the number of items to judge now), unsettled,
    systems; with ``items`` also the items to judge now, in the page's order."""
    listed = f", {_NOW_ORDER} AS items" if items else ""
    return f"""WITH {_walk(queue, events_filter, ties, dedup, k, shuffle=items, sample=sample)},{_NOW},
        settled AS (SELECT username, qid, count(*) FILTER (WHERE open) AS unsettled FROM walk GROUP BY ALL),
        counted AS (SELECT username, qid, count(*) AS n{listed} FROM now GROUP BY ALL)
        SELECT q.username, q.qid, coalesce(c.n, 0) AS open_now,
               coalesce(s.unsettled, 0) AS unsettled, (SELECT count(*) FROM runs) AS systems
               {", coalesce(c.items, []) AS items" if items else ""}
        FROM queue q LEFT JOIN counted c USING (username, qid) LEFT JOIN settled s USING (username, qid)"""


#: The columns of :func:`plan_overview`'s rows.
PLAN_OVERVIEW_COLUMNS = (*OVERVIEW_COLUMNS, "open_now", "unsettled", "systems")


def plan_overview(
    db: Database,
    username: str,
    rest: bool,
    ties: str,
    dedup: str,
    k: int,
    rel: int,
    qids: list[str] | None = None,
    items: bool = False,
    sample: bool = False,
    walk: bool = True,
) -> list[tuple]:
    """rr-first: :func:`reljudge.storage.judgments.question_overview` (the same columns,
    the same counts: pool size, this annotator's graded pooled paragraphs, their latest
    no-answer verdict) with ``open_now`` (items to judge now), ``unsettled`` and
    ``systems`` (columns :data:`PLAN_OVERVIEW_COLUMNS`), in ONE query for the whole queue
    (tests/test_plan.py compares the two). Plain rows: ``reljudge next`` runs without pandas.
    ``qids``: only these questions of the queue (the walk reads only their rankings).
    ``items``: each row ends with the items to judge now, in the page's order (as
    :func:`plan_items` orders them), so that one query serves both. ``sample``: the drawn
    items (table sample_draws) are to judge too, until graded; ``walk`` false (the sample
    plan): no frontier is asked for (the walk still counts the unsettled systems)."""
    queue = _ONE_QUEUE if qids is None else _ONE_QUEUE + " AND list_contains($qids::VARCHAR[], q.qid)"
    counts = _counts_sql(queue, "username = $user", ties, dedup, k, items, sample)
    head, select = counts.rsplit("SELECT q.username, q.qid,", 1)
    sql = f"""{head},
        verdict AS (
            SELECT qid, arg_max_null(no_answer, event_id) AS no_answer FROM judgment_events
            WHERE username = $user AND pid IS NULL GROUP BY qid),
        sizes AS (SELECT qid, count(*) AS pool_size, count(grade) AS judged FROM items GROUP BY qid),
        planned AS (SELECT q.username, q.qid, {select})
        SELECT qs.qid, qs.text, qs.qtype, qs.criteria, qs.seq,
               coalesce(z.pool_size, 0) AS pool_size, coalesce(z.judged, 0) AS judged,
               coalesce(v.no_answer, FALSE) AS no_answer,
               pl.open_now, pl.unsettled, pl.systems{", pl.items" if items else ""}
        FROM planned pl JOIN questions qs USING (qid)
        LEFT JOIN sizes z USING (qid) LEFT JOIN verdict v USING (qid)
        ORDER BY qs.seq"""
    params = {"user": username, "rel": int(rel), "rest": bool(rest), "walk": bool(walk)}
    if qids is not None:
        params["qids"] = list(qids)
    return db.cursor().execute(sql, params).fetchall()


def plan_counts_pairs(
    db: Database,
    users: list[str],
    qids: list[str],
    rest: bool,
    ties: str,
    dedup: str,
    k: int,
    rel: int,
    sample: bool = False,
    walk: bool = True,
) -> list[tuple]:
    """(username, qid, open_now, unsettled, systems) for (username, qid) pairs of several
    annotators (the progress page), in one query (``sample``, ``walk``: as :func:`plan_overview`)."""
    sql = _counts_sql(_PAIRS, "list_contains($users::VARCHAR[], username)", ties, dedup, k, sample=sample)
    params = {"users": list(users), "qids": list(qids), "rel": int(rel), "rest": bool(rest), "walk": bool(walk)}
    return db.cursor().execute(sql, params).fetchall()


def plan_items(
    db: Database,
    username: str,
    qids: list[str],
    plan: str,
    rest: bool,
    ties: str,
    dedup: str,
    k: int,
    rel: int,
    order_source: str | None = None,
    sample: bool = False,
    walk: bool = True,
) -> dict[str, list[str]]:
    """{qid: the items to judge now, in the page's order} for ``qids`` of ``username``'s
    queue. complete: the ungraded pooled items in the annotator's stable shuffle;
    rr-first: the frontier in the stable shuffle, or (``rest``, once settled) the ungraded
    items by weight (sum over systems of 1/log2(rank + 1) within K), then the shuffle.
    ``order_source`` (complete only): the model source's grade first, highest first.
    ``sample``, ``walk``: as :func:`plan_overview` (the sample plan: the drawn items alone)."""
    params = {"qids": list(qids), "user": username}
    if plan == "complete":
        key = SHUFFLE_KEY.format(qid="p.qid", user="$user", pid="p.pid")
        params["src"] = order_source or ""
        sql = f"""
            WITH mine AS (
                SELECT qid, pid, arg_max_null(grade, event_id) AS grade FROM judgment_events
                WHERE username = $user AND pid IS NOT NULL AND list_contains($qids::VARCHAR[], qid) GROUP BY ALL),
            model AS (SELECT qid, pid, grade FROM external_qrels
                      WHERE source = $src AND list_contains($qids::VARCHAR[], qid))
            SELECT p.qid, list(p.pid ORDER BY coalesce(o.grade, -1) DESC, {key}) FROM pool p
            LEFT JOIN mine m ON m.qid = p.qid AND m.pid = p.pid
            LEFT JOIN model o ON o.qid = p.qid AND o.pid = p.pid
            WHERE list_contains($qids::VARCHAR[], p.qid) AND m.grade IS NULL GROUP BY p.qid"""
    else:
        params.update(users=[username] * len(qids), rel=int(rel), rest=bool(rest), walk=bool(walk))
        sql = f"""WITH {_walk(_PAIRS, "username = $user", ties, dedup, k, shuffle=True, sample=sample)},{_NOW}
            SELECT qid, {_NOW_ORDER} FROM now GROUP BY qid"""
    found = dict(db.cursor().execute(sql, params).fetchall()) if qids else {}
    return {q: list(found.get(q) or []) for q in qids}


def estimate_inputs(db: Database, ties: str, dedup: str, k: int) -> dict:
    """What a cost estimate of the plans rests on (:func:`reljudge.campaign.plan.estimate`):
    ``rankings`` (qid, system, item, r: every system's top K as the metrics rank it, items
    named as judgments name them), ``pool`` (qid, pid), ``judged`` (username, qid, pid,
    grade: every annotator's current grades), ``assignees`` (qid → active assignments),
    ``annotators`` (accounts with the annotator role) and ``median_ms`` (the median time
    a judgment took, from the pages' time_spent_ms; None before any)."""
    cur = db.cursor()
    rankings = cur.execute(
        f"SELECT qid, system, dkey AS item, r FROM ({ranked_runs_sql(ties, dedup, k)}) ORDER BY qid, system, r"
    ).df()
    pool = cur.execute("SELECT qid, pid FROM pool").df()
    judged = cur.execute("SELECT username, qid, pid, grade FROM current_judgments").df()
    assignees = dict(cur.execute("SELECT qid, count(*) FROM assignments WHERE active GROUP BY qid").fetchall())
    annotators = cur.execute("SELECT count(*) FROM users WHERE role = 'annotator'").fetchone()[0]
    median_ms = cur.execute("SELECT median(time_spent_ms) FROM current_judgments WHERE time_spent_ms > 0").fetchone()[0]
    return {
        "rankings": rankings,
        "pool": pool,
        "judged": judged,
        "assignees": {str(q): int(n) for q, n in assignees.items()},
        "annotators": int(annotators),
        "median_ms": None if median_ms is None else float(median_ms),
    }


def plan_walks(db: Database, username: str, qid: str, ties: str, dedup: str, k: int, rel: int) -> list[tuple]:
    """(pids, opens) for every system whose RR@K is not settled in question ``qid`` for
    ``username``: the whole rest of its walk, in rank order: the pooled items within K that
    are unjudged or relevant (``opens``: whether each is unjudged; the first one is). The
    plan's tree of what grades do (reljudge.campaign.plan.after_grade, several grades
    deep) walks these lists; no system name leaves this function. The same walk as
    :func:`plan_items`."""
    sql = f"""WITH {_walk(_PAIRS, "username = $user", ties, dedup, k, shuffle=False)},
        steps AS (
            SELECT c.system, list(c.dkey ORDER BY c.r) AS pids, list(i.grade IS NULL ORDER BY c.r) AS opens
            FROM ranked c JOIN items i ON i.qid = c.qid AND i.pid = c.dkey
            WHERE i.grade IS NULL OR i.grade >= $rel
            GROUP BY ALL)
        SELECT pids, opens FROM steps WHERE opens[1] ORDER BY system"""
    params = {"user": username, "users": [username], "qids": [qid], "rel": int(rel)}
    return [(list(p), list(o)) for p, o in db.cursor().execute(sql, params).fetchall()]
