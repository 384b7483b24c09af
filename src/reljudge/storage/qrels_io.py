"""SQL for qrels exchange: external qrels sources and the raw judgment history."""

from __future__ import annotations

import pandas as pd

from reljudge.codes import Codes
from reljudge.errors import InputError
from reljudge.storage.database import Database, registered

CODES = Codes(error_unknown_qid=("qid",), error_unknown_pid=("pid",))  # worded as storage.catalog's
"""What this module can tell people: codes worded by reljudge.i18n."""


def import_external(db: Database, source: str, rows: pd.DataFrame, file: str) -> int:
    """Replace source ``source`` with ``rows`` (line, qid, pid, grade); unknown ids are
    errors naming the line; all or nothing."""
    with db.transaction() as cur, registered(cur, "_qrels", rows):
        bad = cur.execute("""SELECT line, qid FROM _qrels WHERE qid NOT IN (SELECT qid FROM questions)
                             ORDER BY line LIMIT 1""").fetchall()
        if bad:
            raise InputError(file, int(bad[0][0]), CODES("error_unknown_qid", qid=bad[0][1]))
        bad = cur.execute("""SELECT line, pid FROM _qrels WHERE pid NOT IN (SELECT pid FROM paragraphs)
                             ORDER BY line LIMIT 1""").fetchall()
        if bad:
            raise InputError(file, int(bad[0][0]), CODES("error_unknown_pid", pid=bad[0][1]))
        cur.execute("DELETE FROM external_qrels WHERE source = ?", [source])
        cur.execute(
            """INSERT INTO external_qrels(source, qid, pid, grade)
                       SELECT DISTINCT ?, qid, pid, grade FROM _qrels""",
            [source],
        )
        cur.execute(
            "INSERT INTO import_log(kind, source_file, n_rows, detail) VALUES ('qrels', ?, ?, ?)",
            [file, len(rows), source],
        )
        return cur.execute("SELECT count(*) FROM external_qrels WHERE source = ?", [source]).fetchall()[0][0]


def external(db: Database, source: str) -> pd.DataFrame:
    return (
        db.cursor()
        .execute(
            """
        SELECT qid, pid, grade, 'external' AS provenance, 1 AS n_annotators
        FROM external_qrels WHERE source = ? ORDER BY qid, pid""",
            [source],
        )
        .df()
    )


def sources(db: Database) -> list[str]:
    return [r[0] for r in db.cursor().execute("SELECT DISTINCT source FROM external_qrels ORDER BY source").fetchall()]


def external_as_grades(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""SELECT 'source:' || source AS annotator, qid, pid, grade
                                  FROM external_qrels ORDER BY 1, 2, 3""")
        .df()
    )


def expand_to_copies(db: Database, qrels: pd.DataFrame) -> pd.DataFrame:
    """Give every copy of a duplicate paragraph the judgment of its canonical paragraph."""
    cur = db.cursor()
    with registered(cur, "_q", qrels):
        return cur.execute("""
            SELECT q.qid, p.pid, q.* EXCLUDE (qid, pid), q.pid AS judged_as
            FROM _q q JOIN paragraphs p ON p.canonical_pid = q.pid
            ORDER BY q.qid, p.pid""").df()


def judgment_details(db: Database) -> pd.DataFrame:
    """Notes and evidence spans per (qid, pid) across annotators (for rich exports)."""
    return (
        db.cursor()
        .execute("""
        SELECT qid, pid, list(note ORDER BY username) FILTER (WHERE note IS NOT NULL) AS notes,
               list(evidence ORDER BY username) FILTER (WHERE evidence IS NOT NULL) AS evidence
        FROM current_judgments GROUP BY qid, pid""")
        .df()
    )


def raw_events(db: Database) -> pd.DataFrame:
    return db.cursor().execute("SELECT * FROM judgment_events ORDER BY event_id").df()
