"""SQL for quality control: gold items, decoy placements and the grades given to decoys.

Decoys are kept out of every other reader by construction: their placements are not in
``pool`` and their grade events are not in ``judgment_events`` (migration
``quality_control``), so qrels, metrics, agreement, adjudication, qrels exports, pool
sizes and progress counts never see them. Only this module, the judging view of the
annotator they are placed for (storage.judgments) and the save path read them."""

from __future__ import annotations

import pandas as pd

from reljudge.codes import Codes
from reljudge.errors import InputError
from reljudge.storage.database import Database, in_list, registered

CODES = Codes(
    error_gold_unknown_qid=("qid",),
    error_gold_unknown_pid=("pid",),
    error_gold_not_pooled=("qid", "pid"),
    error_gold_two_grades=("qid", "pid"),
)
"""What a gold import can refuse (worded by reljudge.i18n)."""

#: The lead's quality-control settings (table ``settings``) and their defaults.
DEFAULTS = {
    "quality_min_gold": "10",  # gold items judged before the accuracy floor applies
    "quality_min_accuracy": "0.7",  # flagged below this exact-match share
    "quality_max_failed_decoys": "2",  # flagged at this many decoys graded above 0
    "quality_auto_gold": "off",  # promote unanimous items (>= 3 annotators) to gold
    "quality_auto_gold_min": "3",
}


def settings(db: Database) -> dict[str, str]:
    keys = list(DEFAULTS)
    rows = dict(db.cursor().execute(f"SELECT key, value FROM settings WHERE key IN {in_list(keys)}", keys).fetchall())
    return {**DEFAULTS, **rows}


def set_settings(db: Database, values: dict[str, str]) -> None:
    with db.transaction() as cur:
        for key, value in values.items():
            cur.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", [key, str(value)])


# -- gold -----------------------------------------------------------------------------


def import_gold(db: Database, rows: pd.DataFrame, file: str, by: str | None) -> int:
    """Add (or replace) gold items from ``rows`` (line, qid, pid, grade): every pair must
    name a known question and a paragraph pooled for it (a duplicate copy stands for its
    pooled paragraph); an error names the line; all or nothing. Returns the rows stored."""
    with db.transaction() as cur, registered(cur, "_gold", rows):
        bad = cur.execute(
            "SELECT line, qid FROM _gold WHERE qid NOT IN (SELECT qid FROM questions) ORDER BY line LIMIT 1"
        ).fetchall()
        if bad:
            raise InputError(file, int(bad[0][0]), CODES("error_gold_unknown_qid", qid=bad[0][1]))
        bad = cur.execute(
            "SELECT line, pid FROM _gold WHERE pid NOT IN (SELECT pid FROM paragraphs) ORDER BY line LIMIT 1"
        ).fetchall()
        if bad:
            raise InputError(file, int(bad[0][0]), CODES("error_gold_unknown_pid", pid=bad[0][1]))
        cur.execute("""CREATE TEMP TABLE _gold_items AS
            SELECT g.line, g.qid, p.canonical_pid AS pid, g.grade FROM _gold g JOIN paragraphs p USING (pid)""")
        try:
            bad = cur.execute("""SELECT line, qid, pid FROM _gold_items g
                WHERE NOT EXISTS (SELECT 1 FROM pool WHERE pool.qid = g.qid AND pool.pid = g.pid)
                ORDER BY line LIMIT 1""").fetchall()
            if bad:
                raise InputError(file, int(bad[0][0]), CODES("error_gold_not_pooled", qid=bad[0][1], pid=bad[0][2]))
            bad = cur.execute("""SELECT max(line), qid, pid FROM _gold_items GROUP BY qid, pid
                HAVING count(DISTINCT grade) > 1 ORDER BY 1 LIMIT 1""").fetchall()
            if bad:
                raise InputError(file, int(bad[0][0]), CODES("error_gold_two_grades", qid=bad[0][1], pid=bad[0][2]))
            cur.execute(
                "DELETE FROM gold_items g WHERE EXISTS "
                "(SELECT 1 FROM _gold_items n WHERE n.qid = g.qid AND n.pid = g.pid)"
            )
            cur.execute(
                "INSERT INTO gold_items(qid, pid, grade, origin, added_by) "
                "SELECT qid, pid, min(grade), 'import', ? FROM _gold_items GROUP BY qid, pid",
                [by],
            )
            n = cur.execute("SELECT count(*) FROM (SELECT DISTINCT qid, pid FROM _gold_items)").fetchall()[0][0]
            cur.execute(
                "INSERT INTO import_log(kind, source_file, n_rows, detail) VALUES ('gold', ?, ?, NULL)",
                [file, len(rows)],
            )
        finally:
            cur.execute("DROP TABLE IF EXISTS _gold_items")
    return int(n)


def add_gold(db: Database, qid: str, pid: str, grade: int, origin: str, by: str | None) -> None:
    """One gold item (replacing an earlier gold grade of the pair)."""
    with db.transaction() as cur:
        cur.execute("DELETE FROM gold_items WHERE qid = ? AND pid = ?", [qid, pid])
        cur.execute(
            "INSERT INTO gold_items(qid, pid, grade, origin, added_by) VALUES (?, ?, ?, ?, ?)",
            [qid, pid, int(grade), origin, by],
        )


def remove_gold(db: Database, qid: str, pid: str) -> None:
    with db.transaction() as cur:
        cur.execute("DELETE FROM gold_items WHERE qid = ? AND pid = ?", [qid, pid])


def promote_unanimous(db: Database, min_annotators: int) -> int:
    """Add as gold (origin 'promoted') every pooled item not yet gold on which at least
    ``min_annotators`` annotators agree unanimously (their current grades); returns how many."""
    with db.transaction() as cur:
        before = cur.execute("SELECT count(*) FROM gold_items").fetchall()[0][0]
        cur.execute(
            """
            INSERT INTO gold_items(qid, pid, grade, origin, added_by)
            SELECT j.qid, j.pid, min(j.grade), 'promoted', NULL
            FROM current_judgments j JOIN pool p ON p.qid = j.qid AND p.pid = j.pid
            WHERE NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.qid = j.qid AND g.pid = j.pid)
            GROUP BY j.qid, j.pid
            HAVING count(DISTINCT j.username) >= ? AND count(DISTINCT j.grade) = 1""",
            [int(min_annotators)],
        )
        after = cur.execute("SELECT count(*) FROM gold_items").fetchall()[0][0]
    return int(after - before)


def adjudicated_not_gold(db: Database) -> pd.DataFrame:
    """The lead's rulings in force on pooled paragraphs that are not gold yet (qid, pid,
    grade), newest first: what the adjudication page offers to "use as gold"."""
    return (
        db.cursor()
        .execute("""
        SELECT a.qid, a.pid, a.grade FROM current_adjudications a
        JOIN pool p ON p.qid = a.qid AND p.pid = a.pid
        WHERE a.pid IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM gold_items g WHERE g.qid = a.qid AND g.pid = a.pid)
        ORDER BY a.adjudication_id DESC""")
        .df()
    )


def gold_items(db: Database) -> pd.DataFrame:
    return (
        db.cursor().execute("SELECT qid, pid, grade, origin, added_by, added_at FROM gold_items ORDER BY qid, pid").df()
    )


def gold_pairs(db: Database) -> pd.DataFrame:
    """Every annotator's current grade on a gold item, beside the gold grade."""
    return (
        db.cursor()
        .execute("""
        SELECT j.username AS annotator, j.qid, j.pid, j.grade, g.grade AS gold, j.time_spent_ms
        FROM current_judgments j JOIN gold_items g ON g.qid = j.qid AND g.pid = j.pid
        ORDER BY j.username, j.qid, j.pid""")
        .df()
    )


# -- decoys ---------------------------------------------------------------------------


def decoy_inputs(db: Database) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """What decoy placement needs: (queues: annotator, qid, question text, pool size — every
    active annotator's queue, as the judging page has it; pooled paragraphs: qid, pid,
    text; placements: annotator, qid, pid, judged)."""
    from reljudge.storage.judgments import _IN_QUEUE

    cur = db.cursor()
    queues = cur.execute(f"""
        SELECT me.username AS annotator, q.qid, q.text, q.seq, coalesce(ps.n, 0) AS pool_size
        FROM (SELECT username FROM users WHERE active AND role = 'annotator') me
        CROSS JOIN questions q
        LEFT JOIN (SELECT qid, count(*) AS n FROM pool GROUP BY qid) ps USING (qid)
        WHERE {_IN_QUEUE.format(user="me.username", qid="q.qid")}
        ORDER BY me.username, q.seq""").df()
    pooled = cur.execute("""
        SELECT pool.qid, pool.pid, p.text FROM pool JOIN paragraphs p USING (pid)
        ORDER BY pool.qid, pool.pid""").df()
    placed = cur.execute("""
        SELECT d.username AS annotator, d.qid, d.pid,
               EXISTS (SELECT 1 FROM decoy_events e
                       WHERE e.username = d.username AND e.qid = d.qid AND e.pid = d.pid) AS judged
        FROM decoy_placements d ORDER BY 1, 2, 3""").df()
    return queues, pooled, placed


def replace_decoys(db: Database, keep_judged: pd.DataFrame, new: pd.DataFrame, rate: float, seed: int) -> int:
    """Drop every placement that has no grade event yet except those in ``keep_judged``,
    and add ``new`` (annotator, qid, pid). Returns the placements now in force."""
    with db.transaction() as cur:
        cur.execute("""DELETE FROM decoy_placements d WHERE NOT EXISTS (
            SELECT 1 FROM decoy_events e WHERE e.username = d.username AND e.qid = d.qid AND e.pid = d.pid)""")
        if not new.empty:
            with registered(cur, "_decoys", new[["annotator", "qid", "pid"]]):
                cur.execute(
                    "INSERT INTO decoy_placements(username, qid, pid, rate, seed) "
                    "SELECT annotator, qid, pid, ?, ? FROM _decoys",
                    [float(rate), int(seed)],
                )
        n = cur.execute("SELECT count(*) FROM decoy_placements").fetchall()[0][0]
        version = cur.execute("SELECT value FROM settings WHERE key = 'decoys_version'").fetchall()
        cur.execute(
            "INSERT OR REPLACE INTO settings VALUES ('decoys_version', ?)",
            [str(int(version[0][0]) + 1 if version else 1)],
        )
    return int(n)


def decoys_version(db: Database) -> int:
    rows = db.cursor().execute("SELECT value FROM settings WHERE key = 'decoys_version'").fetchall()
    return int(rows[0][0]) if rows else 0


def placements(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""SELECT username AS annotator, qid, pid, rate, seed, placed_at
                    FROM decoy_placements ORDER BY username, qid, pid""")
        .df()
    )


def decoy_grades(db: Database) -> pd.DataFrame:
    """Every placement with the annotator's latest grade on it (NULL: not graded)."""
    return (
        db.cursor()
        .execute("""
        WITH latest AS (
            SELECT username, qid, pid, arg_max_null(grade, event_id) AS grade,
                   arg_max_null(time_spent_ms, event_id) AS time_spent_ms
            FROM decoy_events GROUP BY ALL)
        SELECT d.username AS annotator, d.qid, d.pid, l.grade, l.time_spent_ms, d.placed_at
        FROM decoy_placements d
        LEFT JOIN latest l ON l.username = d.username AND l.qid = d.qid AND l.pid = d.pid
        ORDER BY 1, 2, 3""")
        .df()
    )


def decoy_history(db: Database, qid: str | None = None) -> pd.DataFrame:
    """Every grade event on a decoy (of one question, or all), oldest first (the quality
    export, the audit page)."""
    where, params = ("WHERE qid = ?", [qid]) if qid is not None else ("", [])
    return (
        db.cursor()
        .execute(
            f"""
        SELECT event_id, username AS annotator, qid, pid, grade, note, evidence, time_spent_ms, created_at
        FROM decoy_events {where} ORDER BY event_id""",
            params,
        )
        .df()
    )


def people(db: Database) -> list[str]:
    """Annotators the quality table lists: active annotators and anyone who judged."""
    return [
        r[0]
        for r in db.cursor()
        .execute("""
        SELECT username FROM users WHERE active AND role = 'annotator'
        UNION SELECT username FROM judgment_events
        UNION SELECT username FROM decoy_events
        ORDER BY 1""")
        .fetchall()
    ]


# -- the flagging rule ------------------------------------------------------------------
#: why an annotator is flagged (codes, worded by reljudge.i18n)
FLAG_LOW_GOLD = "low_gold_accuracy"
FLAG_FAILED_DECOYS = "failed_decoys"


def flag_reasons(
    n_gold: int, accuracy: float, failed_decoys: int, min_gold: int, min_accuracy: float, max_failed_decoys: int
) -> list[str]:
    """The one rule of flagging (the quality table, the CLI, the report, and the policies
    with ``+exclude-flagged``): FLAG_LOW_GOLD when at least ``min_gold`` gold items are
    judged (and at least one) and the exact-match share is below ``min_accuracy``;
    FLAG_FAILED_DECOYS when at least ``max_failed_decoys`` decoys were graded above 0."""
    reasons = []
    if n_gold >= min_gold and n_gold and accuracy < min_accuracy:
        reasons.append(FLAG_LOW_GOLD)
    if failed_decoys >= max_failed_decoys:
        reasons.append(FLAG_FAILED_DECOYS)
    return reasons


def flagged(cur) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Who quality control flags now, read through one cursor (inside an evaluation's or a
    freeze's transaction): ({annotator: reasons}, the thresholds applied). Reads only: an
    auto-promotion of unanimous items to gold waits for the quality page or ``reljudge quality``."""
    keys = list(DEFAULTS)
    values = {
        **DEFAULTS,
        **dict(cur.execute(f"SELECT key, value FROM settings WHERE key IN {in_list(keys)}", keys).fetchall()),
    }
    thresholds = {
        "min_gold": int(values["quality_min_gold"]),
        "min_accuracy": float(values["quality_min_accuracy"]),
        "max_failed_decoys": int(values["quality_max_failed_decoys"]),
    }
    rows = cur.execute("""
        WITH gold AS (
            SELECT j.username, count(*) AS n_gold,
                   avg(CASE WHEN j.grade = g.grade THEN 1.0 ELSE 0.0 END) AS accuracy
            FROM current_judgments j JOIN gold_items g ON g.qid = j.qid AND g.pid = j.pid
            GROUP BY j.username),
        latest AS (
            SELECT username, qid, pid, arg_max_null(grade, event_id) AS grade
            FROM decoy_events GROUP BY ALL),
        decoys AS (
            SELECT d.username, count(*) FILTER (WHERE l.grade > 0) AS failed
            FROM decoy_placements d
            JOIN latest l ON l.username = d.username AND l.qid = d.qid AND l.pid = d.pid
            GROUP BY d.username)
        SELECT coalesce(g.username, d.username) AS username, coalesce(g.n_gold, 0),
               coalesce(g.accuracy, 'NaN'::DOUBLE), coalesce(d.failed, 0)
        FROM gold g FULL JOIN decoys d ON d.username = g.username
        ORDER BY 1""").fetchall()
    out = {}
    for name, n_gold, accuracy, failed in rows:
        reasons = flag_reasons(int(n_gold), float(accuracy), int(failed), **thresholds)
        if reasons:
            out[str(name)] = reasons
    return out, thresholds
