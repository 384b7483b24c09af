"""SQL for judgments: append-only events, the judging view of a question, progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reljudge.storage import event_batches
from reljudge.storage.database import Database, in_list

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd

EVENT_COLUMNS = [
    "client_event_id",
    "qid",
    "pid",
    "grade",
    "no_answer",
    "note",
    "evidence",
    "time_spent_ms",
    "client_id",
    "base_event_id",
]

# A stable, per-(question, annotator) shuffle: nobody can infer a system or a rank
# from the order, and the order does not move between visits.
SHUFFLE_KEY = "md5({qid} || chr(31) || {user} || chr(31) || {pid})"
_SHUFFLE = SHUFFLE_KEY.format(qid="pool.qid", user="?", pid="pool.pid")
_DECOY_SHUFFLE = SHUFFLE_KEY.format(qid="d.qid", user="d.username", pid="d.pid")

# True when question {qid} is in {user}'s queue (both SQL expressions): every question
# while no assignment exists; otherwise the user's active assignments, and for a lead who
# has no assignment of their own the questions nobody is assigned. A question assigned to
# others is theirs: a lead's grade there would count as a silent extra annotator, so it is
# refused (``adjudicate_instead``) and the lead adjudicates instead (issue 39.7).
_LEAD_WITHOUT_OWN_WORK = """(EXISTS (SELECT 1 FROM users u WHERE u.username = {user} AND u.role = 'lead')
        AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.active AND a.username = {user}))"""
_ASSIGNED_TO_SOMEONE = "EXISTS (SELECT 1 FROM assignments a WHERE a.active AND a.qid = {qid})"
_IN_QUEUE = f"""(NOT EXISTS (SELECT 1 FROM assignments WHERE active)
    OR EXISTS (SELECT 1 FROM assignments a WHERE a.active AND a.qid = {{qid}} AND a.username = {{user}})
    OR ({_LEAD_WITHOUT_OWN_WORK} AND NOT {_ASSIGNED_TO_SOMEONE}))"""
_LEAD_ON_OTHERS_WORK = f"({_LEAD_WITHOUT_OWN_WORK} AND {_ASSIGNED_TO_SOMEONE})"


#: The columns of judgment_events that the views over them (latest_paragraph_events,
#: current_judgments, current_verdicts) and the figures read; the rest (client ids, the
#: base of an edit) serve the save path only.
VIEW_COLUMNS = (
    "event_id",
    "username",
    "qid",
    "pid",
    "grade",
    "no_answer",
    "note",
    "evidence",
    "time_spent_ms",
    "created_at",
)

STALE = event_batches.STALE  # the rejection code of an edit older than another browser's newer judgment


# the columns an insert of checked events fills: the author and the event's own columns
_EVENT_COLUMNS = ("username", *EVENT_COLUMNS)
_DECOY_EVENT_COLUMNS = tuple(c for c in _EVENT_COLUMNS if c != "no_answer")


def _insert_events(cur, table: str, columns: tuple[str, ...], events: list[tuple[str, dict]]) -> None:
    """Insert (username, checked row) events into ``table`` in one statement, values bound;
    an empty note or evidence is stored as NULL."""
    if not events:
        return
    blank_is_null = {"note", "evidence"}
    values = [
        value
        for username, row in events
        for value in (
            username if c == "username" else ((row[c] or None) if c in blank_is_null else row[c]) for c in columns
        )
    ]
    marks = "(" + ", ".join("?" for _ in columns) + ")"
    cur.execute(
        f"INSERT INTO {table}({', '.join(columns)}) VALUES " + ", ".join(marks for _ in events),  # noqa: S608
        values,
    )


def _has_decoys(db: Database) -> bool:
    """Whether the schema holds the decoy tables (migration quality_control): always, once
    a database is opened with today's migrations; asked once per opened database, so that
    a test that builds an older schema can still save through today's code."""
    known = getattr(db, "_rj_has_decoys", None)
    if known is None:
        known = any(name == "quality_control" for _, name in db.applied_migrations())
        try:
            db._rj_has_decoys = known
        except AttributeError:  # a database object that takes no attributes: ask each time
            pass
    return known


def append_event_batches(
    db: Database, batches: list[tuple[str, list[dict], bool]]
) -> list[tuple[dict[str, int], dict[str, tuple[str, str | None]]]]:
    """Store several saves in ONE transaction (group commit), with the result each would
    have had alone, in order. ``batches``: (username, event rows, all_or_nothing).

    Returns per batch ({client event id: stored event_id}, {refused id: (code, detail)}).
    Codes: ``unknown_question``, ``not_pooled`` (detail: the paragraph), ``not_assigned``,
    ``adjudicate_instead`` (a lead without work of their own, on a question assigned to others),
    ``held_back`` (all_or_nothing and another event of the batch was refused) and
    ``STALE``: since the state the edit was made on (``base_event_id``), another browser
    (``client_id``) stored a newer event for the same item; the newer one is kept.
    Resending an id that is stored already is acknowledged, not stored twice; ids are
    the author's own (another annotator's event with the same id is a different event).

    Every paragraph event must name a pooled paragraph of its question, and once a lead
    assigns work the question must be in the annotator's queue, so a forged request
    cannot judge what the annotator was never shown. The checks are a few set-wise
    lookups for the whole group: their cost is shared by every save waiting for it."""
    rows = [(b, username, row) for b, (username, events, _) in enumerate(batches) for row in events]
    results: list[tuple[dict, dict]] = [({}, {}) for _ in batches]
    if not rows:
        return results
    users = sorted({u for _, u, _ in rows})
    qids = sorted({r["qid"] for _, _, r in rows})
    pids = sorted({r["pid"] for _, _, r in rows if r["pid"] is not None})
    ids = [r["client_event_id"] for _, _, r in rows]
    has_decoys = _has_decoys(db)
    with db.transaction() as cur:
        pairs = sorted({(u, r["qid"]) for _, u, r in rows})
        known = {r[0] for r in cur.execute(f"SELECT qid FROM questions WHERE qid IN {in_list(qids)}", qids).fetchall()}
        queue = {
            (u, q): (q in known, in_queue, lead_elsewhere)
            for u, q, in_queue, lead_elsewhere in cur.execute(
                f"""
            SELECT b.username, b.qid, {_IN_QUEUE.format(user="b.username", qid="b.qid")} AS in_queue,
                {_LEAD_ON_OTHERS_WORK.format(user="b.username", qid="b.qid")} AS lead_elsewhere
            FROM (SELECT unnest(?::VARCHAR[]) AS username, unnest(?::VARCHAR[]) AS qid) b""",
                [[u for u, _ in pairs], [q for _, q in pairs]],
            ).fetchall()
        }
        pooled = (
            set(
                cur.execute(
                    f"SELECT qid, pid FROM pool WHERE qid IN {in_list(qids)} AND pid IN {in_list(pids)}", qids + pids
                ).fetchall()
            )
            if pids
            else set()
        )
        # A decoy (storage.quality) is judged by the one annotator it is placed for, as if
        # pooled; its events go to decoy_events, never to judgment_events.
        decoys = (
            set(
                cur.execute(
                    f"SELECT username, qid, pid FROM decoy_placements WHERE username IN {in_list(users)} "
                    f"AND qid IN {in_list(qids)} AND pid IN {in_list(pids)}",
                    users + qids + pids,
                ).fetchall()
            )
            if pids and has_decoys
            else set()
        )
        # ids are per author across both event tables
        also_decoys = (
            f"UNION ALL SELECT username, client_event_id, event_id FROM decoy_events "
            f"WHERE client_event_id IN {in_list(ids)} AND username IN {in_list(users)}"
            if has_decoys
            else ""
        )
        both = ids + users + (ids + users if has_decoys else [])
        stored_before = {
            (u, cid)
            for u, cid, _ in cur.execute(
                f"SELECT username, client_event_id, event_id FROM judgment_events "
                f"WHERE client_event_id IN {in_list(ids)} AND username IN {in_list(users)} {also_decoys}",
                both,
            ).fetchall()
        }
        latest = {}
        if any(r["base_event_id"] is not None for _, _, r in rows):
            for table in ("judgment_events", "decoy_events") if decoys else ("judgment_events",):
                latest.update(
                    {
                        (u, q, p): (eid, client)
                        for u, q, p, eid, client in cur.execute(
                            f"""
                SELECT username, qid, pid, max(event_id), arg_max_null(client_id, event_id)
                FROM {table} WHERE username IN {in_list(users)} AND qid IN {in_list(qids)}
                GROUP BY ALL""",
                            users + qids,
                        ).fetchall()
                    }
                )
        problems: dict[int, dict[str, tuple[str, str | None]]] = {}
        for b, username, row in rows:
            known, in_queue, lead_elsewhere = queue[(username, row["qid"])]
            problem = (
                ("unknown_question", None)
                if not known
                else ("not_pooled", row["pid"])
                if row["pid"] is not None
                and (row["qid"], row["pid"]) not in pooled
                and (username, row["qid"], row["pid"]) not in decoys
                else ("adjudicate_instead" if lead_elsewhere else "not_assigned", None)
                if not in_queue
                else None
            )
            if problem:
                problems.setdefault(b, {})[row["client_event_id"]] = problem
        to_insert, results = event_batches.sort_out(
            batches, rows, problems, stored_before, latest, lambda username, row: (username, row["qid"], row["pid"])
        )
        on_decoys = [(u, r) for u, r in to_insert if (u, r["qid"], r["pid"]) in decoys]
        to_insert = [(u, r) for u, r in to_insert if (u, r["qid"], r["pid"]) not in decoys]
        # a decoy's grade goes to its own table: nothing that reads judgment_events sees it
        _insert_events(cur, "decoy_events", _DECOY_EVENT_COLUMNS, on_decoys)
        # Events are stored in the order they were made: the last one wins.
        _insert_events(cur, "judgment_events", _EVENT_COLUMNS, to_insert)
        eids = {
            (u, cid): eid
            for u, cid, eid in cur.execute(
                f"SELECT username, client_event_id, event_id FROM judgment_events "
                f"WHERE client_event_id IN {in_list(ids)} AND username IN {in_list(users)} {also_decoys}",
                both,
            ).fetchall()
        }
    return event_batches.acknowledge(rows, results, eids)


#: The columns of :func:`question_overview`'s rows.
OVERVIEW_COLUMNS = ("qid", "text", "qtype", "criteria", "seq", "pool_size", "judged", "no_answer")


def question_overview(db: Database, username: str) -> list[tuple]:
    """One row per question of the user's queue, in campaign order (columns
    :data:`OVERVIEW_COLUMNS`): pool size, this annotator's judged count and no-answer
    verdict. Only this annotator's events are aggregated (their latest event per item), not
    everyone's. Plain rows, not a DataFrame: ``reljudge next`` runs without pandas."""
    return (
        db.cursor()
        .execute(
            f"""
        WITH mine AS (
            SELECT qid, pid, arg_max_null(grade, event_id) AS grade FROM judgment_events
            WHERE username = $user AND pid IS NOT NULL GROUP BY qid, pid),
        verdict AS (
            SELECT qid, arg_max_null(no_answer, event_id) AS no_answer FROM judgment_events
            WHERE username = $user AND pid IS NULL GROUP BY qid)
        SELECT q.qid, q.text, q.qtype, q.criteria, q.seq,
               coalesce(ps.n, 0) AS pool_size,
               coalesce(js.n, 0) AS judged,
               coalesce(v.no_answer, FALSE) AS no_answer
        FROM questions q
        LEFT JOIN (SELECT qid, count(*) AS n FROM pool GROUP BY qid) ps USING (qid)
        LEFT JOIN (SELECT m.qid, count(*) AS n FROM mine m
                   JOIN pool p ON p.qid = m.qid AND p.pid = m.pid
                   WHERE m.grade IS NOT NULL GROUP BY m.qid) js USING (qid)
        LEFT JOIN verdict v USING (qid)
        CROSS JOIN (SELECT $user::VARCHAR AS username) me
        WHERE {_IN_QUEUE.format(user="me.username", qid="q.qid")}
        ORDER BY q.seq""",
            {"user": username},
        )
        .fetchall()
    )


def question_items(db: Database, username: str, qid: str) -> pd.DataFrame:
    """The pooled paragraphs of one question as this annotator sees them: shuffled,
    blind (no system, rank or score), with source fields, neighbours and how many
    duplicate copies each stands for. The decoys placed for this annotator on the
    question (storage.quality) are among them, in the same shuffle, told apart by
    nothing. Changes only when the pool is rebuilt or decoys are placed."""
    return (
        db.cursor()
        .execute(
            f"""
        WITH items AS (
            SELECT pool.pid, {_SHUFFLE} AS shuffle_key FROM pool WHERE pool.qid = ?
            UNION ALL
            SELECT d.pid, {_DECOY_SHUFFLE} AS shuffle_key FROM decoy_placements d
            WHERE d.qid = ? AND d.username = ?),
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
        ORDER BY i.shuffle_key""",
            [username, qid, qid, username],
        )
        .df()
    )


def my_latest(db: Database, username: str, qid: str) -> dict[str, tuple]:
    """This annotator's latest (grade, note, evidence, event_id) per paragraph of a question
    (aggregated from their own events of that question only; decoys placed for them too)."""
    rows = (
        db.cursor()
        .execute(
            """
        SELECT pid, arg_max_null(grade, event_id), arg_max_null(note, event_id),
               arg_max_null(evidence, event_id), max(event_id)
        FROM judgment_events WHERE username = ? AND qid = ? AND pid IS NOT NULL
        GROUP BY pid
        UNION ALL
        SELECT pid, arg_max_null(grade, event_id), arg_max_null(note, event_id),
               arg_max_null(evidence, event_id), max(event_id)
        FROM decoy_events WHERE username = ? AND qid = ?
        GROUP BY pid""",
            [username, qid, username, qid],
        )
        .fetchall()
    )
    return {r[0]: r[1:] for r in rows}


def question_verdict(db: Database, username: str, qid: str) -> tuple[bool, str | None, int | None]:
    rows = (
        db.cursor()
        .execute(
            "SELECT no_answer, note, event_id FROM current_verdicts WHERE username = ? AND qid = ?", [username, qid]
        )
        .fetchall()
    )
    return (bool(rows[0][0]), rows[0][1], rows[0][2]) if rows else (False, None, None)


def get_position(db: Database, username: str) -> str | None:
    row = (
        db.cursor()
        .execute("SELECT qid FROM user_positions WHERE username = ? AND qid IN (SELECT qid FROM questions)", [username])
        .fetchone()
    )
    return row[0] if row else None


def set_position(db: Database, username: str, qid: str) -> None:
    with db.transaction() as cur:
        cur.execute("INSERT OR REPLACE INTO user_positions(username, qid) VALUES (?, ?)", [username, qid])


def event_history(db: Database, qid: str, pid: str | None = None) -> pd.DataFrame:
    """Every event on a paragraph (or the question verdict when pid is None), oldest first."""
    cond = "pid = ?" if pid is not None else "pid IS NULL"
    params = [qid] + ([pid] if pid is not None else [])
    return (
        db.cursor()
        .execute(
            f"""
        SELECT event_id, username, grade, no_answer, note, evidence,
               round(time_spent_ms / 1000.0, 1) AS seconds_spent, created_at,
               lag(grade) OVER (PARTITION BY username ORDER BY event_id) AS previous_grade
        FROM judgment_events WHERE qid = ? AND {cond} ORDER BY event_id""",
            params,
        )
        .df()
    )


def last_judged_question(db: Database) -> str | None:
    """The question of the most recent judgment event, if any."""
    row = db.cursor().execute("SELECT qid FROM judgment_events ORDER BY event_id DESC LIMIT 1").fetchall()
    return row[0][0] if row else None


def event_counts(db: Database, qid: str) -> dict[str | None, int]:
    """Number of events per paragraph of a question (None: the question verdict)."""
    return dict(
        db.cursor().execute("SELECT pid, count(*) FROM judgment_events WHERE qid = ? GROUP BY pid", [qid]).fetchall()
    )


def progress_by_annotator(db: Database) -> pd.DataFrame:
    """One row per annotator and question of their queue (their active assignments; every
    question while nothing is assigned, as in the judging queue), in campaign order: pool
    size, their graded pooled paragraphs, their no-answer verdict, and their median seconds
    per judgment over the assigned questions of that type. People shown: active annotators,
    and anyone who judged or holds an assignment. ``reljudge.campaign.progress`` aggregates these
    rows per question type, counting a question finished by ``judging.finished``."""
    return (
        db.cursor()
        .execute(f"""
        WITH people AS (
            SELECT username, seq FROM (
                SELECT username, row_number() OVER (ORDER BY username) AS seq FROM users
                WHERE active AND (role = 'annotator'
                                  OR username IN (SELECT username FROM judgment_events)
                                  OR username IN (SELECT username FROM assignments WHERE active)))),
        queue AS (
            SELECT me.username, me.seq AS user_seq, q.qid, q.qtype, q.seq
            FROM people me CROSS JOIN questions q
            WHERE {_IN_QUEUE.format(user="me.username", qid="q.qid")}),
        pooled AS (SELECT qid, count(*) AS n FROM pool GROUP BY qid),
        graded AS (
            SELECT j.username, j.qid, j.time_spent_ms FROM current_judgments j
            JOIN pool p ON p.qid = j.qid AND p.pid = j.pid
            JOIN queue ON queue.username = j.username AND queue.qid = j.qid),
        judged AS (SELECT username, qid, count(*) AS n FROM graded GROUP BY ALL),
        speed AS (
            SELECT g.username, q.qtype, round(median(g.time_spent_ms) / 1000.0, 1) AS median_seconds
            FROM graded g JOIN questions q USING (qid) GROUP BY ALL)
        SELECT queue.username, queue.qtype, queue.qid,
               coalesce(pooled.n, 0) AS pool_size, coalesce(judged.n, 0) AS judged,
               coalesce(v.no_answer, FALSE) AS no_answer, speed.median_seconds
        FROM queue
        LEFT JOIN pooled USING (qid)
        LEFT JOIN judged ON judged.username = queue.username AND judged.qid = queue.qid
        LEFT JOIN current_verdicts v ON v.username = queue.username AND v.qid = queue.qid
        LEFT JOIN speed ON speed.username = queue.username AND speed.qtype = queue.qtype
        ORDER BY queue.user_seq, queue.seq""")
        .df()
    )


def all_questions(db: Database) -> pd.DataFrame:
    """Every question of the campaign (for leads' pages), in campaign order."""
    return db.cursor().execute("SELECT qid, text, qtype FROM questions ORDER BY seq").df()


def pool_paragraphs(db: Database, qid: str) -> pd.DataFrame:
    return (
        db.cursor()
        .execute(
            """
        SELECT p.pid, left(p.text, 80) AS text FROM pool JOIN paragraphs p USING (pid)
        WHERE pool.qid = ? ORDER BY p.pid""",
            [qid],
        )
        .df()
    )


def decoy_counts(db: Database, username: str) -> dict[str, tuple[int, int]]:
    """{qid: (decoys placed, decoys graded now)} for the questions of the annotator's
    queue that hold decoys placed for them. The annotator's own view counts them like
    pooled paragraphs; nobody else's figures do."""
    rows = (
        db.cursor()
        .execute(
            """
        WITH latest AS (
            SELECT qid, pid, arg_max_null(grade, event_id) AS grade FROM decoy_events
            WHERE username = $user GROUP BY ALL)
        SELECT d.qid, count(*) AS decoys, count(l.grade) AS decoys_judged
        FROM decoy_placements d LEFT JOIN latest l ON l.qid = d.qid AND l.pid = d.pid
        WHERE d.username = $user GROUP BY d.qid""",
            {"user": username},
        )
        .fetchall()
    )
    return {qid: (int(placed), int(graded)) for qid, placed, graded in rows}


def placed_decoys(db: Database, username: str, qid: str) -> set[str]:
    """The decoys placed for the annotator on one question, graded or not."""
    if not _has_decoys(db):
        return set()
    rows = (
        db.cursor()
        .execute("SELECT pid FROM decoy_placements WHERE username = ? AND qid = ?", [username, qid])
        .fetchall()
    )
    return {pid for (pid,) in rows}


def open_decoys(db: Database, username: str, qids: list[str]) -> dict[str, list[str]]:
    """The decoys placed for the annotator on these questions that they have not graded."""
    if not qids:
        return {}
    rows = (
        db.cursor()
        .execute(
            f"""
        WITH latest AS (
            SELECT qid, pid, arg_max_null(grade, event_id) AS grade FROM decoy_events
            WHERE username = ? AND qid IN {in_list(qids)} GROUP BY ALL)
        SELECT d.qid, d.pid FROM decoy_placements d
        LEFT JOIN latest l ON l.qid = d.qid AND l.pid = d.pid
        WHERE d.username = ? AND d.qid IN {in_list(qids)} AND l.grade IS NULL""",
            [username, *qids, username, *qids],
        )
        .fetchall()
    )
    out: dict[str, list[str]] = {}
    for qid, pid in rows:
        out.setdefault(qid, []).append(pid)
    return out
