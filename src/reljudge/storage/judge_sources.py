"""SQL for model judges (reljudge.judges): their grades live in ``external_qrels`` under
the source name, like an imported qrels source; ``judge_sources`` records what made them
and ``judge_errors`` the pairs a run could not grade."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reljudge.storage.database import Database, registered

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd

META_COLUMNS = (
    "source",
    "kind",
    "model",
    "model_version",
    "prompt_text",
    "prompt_sha256",
    "settings",
    "created_at",
    "updated_at",
)


def pooled_pairs(db: Database) -> pd.DataFrame:
    """Every pooled (question, paragraph) pair with what a judge reads: qid, pid, the
    question's text, type and judging criteria, and the paragraph's text."""
    return (
        db.cursor()
        .execute("""
        SELECT p.qid, p.pid, q.text AS question, q.qtype, q.criteria, g.text AS paragraph
        FROM pool p JOIN questions q USING (qid) JOIN paragraphs g ON g.pid = p.pid
        ORDER BY q.seq, g.seq""")
        .df()
    )


def graded_keys(db: Database, source: str) -> pd.DataFrame:
    """qid, pid the source has graded."""
    return db.cursor().execute("SELECT qid, pid FROM external_qrels WHERE source = ? ORDER BY qid, pid", [source]).df()


def pending_pairs(db: Database, source: str) -> pd.DataFrame:
    """The pooled pairs ``source`` has not graded yet (a pair with a recorded error is
    pending: the next run tries it again)."""
    return (
        db.cursor()
        .execute(
            """
        SELECT p.qid, p.pid, q.text AS question, q.qtype, q.criteria, g.text AS paragraph
        FROM pool p JOIN questions q USING (qid) JOIN paragraphs g ON g.pid = p.pid
        WHERE NOT EXISTS (SELECT 1 FROM external_qrels e
                          WHERE e.source = ? AND e.qid = p.qid AND e.pid = p.pid)
        ORDER BY q.seq, g.seq""",
            [source],
        )
        .df()
    )


def is_imported_source(db: Database, source: str) -> bool:
    """True when ``source`` holds imported qrels (no judge recorded for it)."""
    cur = db.cursor()
    has_rows = cur.execute("SELECT count(*) FROM external_qrels WHERE source = ?", [source]).fetchall()[0][0] > 0
    return has_rows and meta(db, source) is None


def meta(db: Database, source: str) -> dict | None:
    rows = (
        db.cursor()
        .execute(f"SELECT {', '.join(META_COLUMNS)} FROM judge_sources WHERE source = ?", [source])
        .fetchall()
    )
    return dict(zip(META_COLUMNS, rows[0])) if rows else None


def judge_source_names(db: Database) -> list[str]:
    return [r[0] for r in db.cursor().execute("SELECT source FROM judge_sources ORDER BY source").fetchall()]


def record_source(
    db: Database,
    source: str,
    kind: str,
    model: str,
    model_version: str,
    prompt_text: str,
    prompt_sha256: str,
    settings: str,
) -> None:
    """Record (or bring up to date) what judges ``source``; created_at stays the first run's."""
    with db.transaction() as cur:
        old = cur.execute("SELECT created_at FROM judge_sources WHERE source = ?", [source]).fetchall()
        cur.execute("DELETE FROM judge_sources WHERE source = ?", [source])
        cur.execute(
            """INSERT INTO judge_sources(source, kind, model, model_version, prompt_text, prompt_sha256,
                                         settings, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, coalesce(?, current_timestamp), current_timestamp)""",
            [
                source,
                kind,
                model,
                model_version,
                prompt_text,
                prompt_sha256,
                settings,
                old[0][0] if old else None,
            ],
        )


def store_results(db: Database, source: str, grades: pd.DataFrame, errors: pd.DataFrame) -> None:
    """One transaction: ``grades`` (qid, pid, grade) into the source (replacing any grade
    of the same pair, so a rerun never duplicates) and their error rows removed;
    ``errors`` (qid, pid, kind, detail, answer) recorded in place of earlier ones."""
    with db.transaction() as cur:
        if len(grades):
            with registered(cur, "_jg", grades[["qid", "pid", "grade"]]):
                cur.execute(
                    """DELETE FROM external_qrels WHERE source = ? AND EXISTS
                       (SELECT 1 FROM _jg x WHERE x.qid = external_qrels.qid AND x.pid = external_qrels.pid)""",
                    [source],
                )
                cur.execute(
                    """DELETE FROM judge_errors WHERE source = ? AND EXISTS
                       (SELECT 1 FROM _jg x WHERE x.qid = judge_errors.qid AND x.pid = judge_errors.pid)""",
                    [source],
                )
                cur.execute(
                    """INSERT INTO external_qrels(source, qid, pid, grade)
                       SELECT DISTINCT ?, qid, pid, CAST(grade AS TINYINT) FROM _jg""",
                    [source],
                )
        if len(errors):
            with registered(cur, "_je", errors[["qid", "pid", "kind", "detail", "answer"]]):
                cur.execute(
                    """DELETE FROM judge_errors WHERE source = ? AND EXISTS
                       (SELECT 1 FROM _je x WHERE x.qid = judge_errors.qid AND x.pid = judge_errors.pid)""",
                    [source],
                )
                cur.execute(
                    """INSERT INTO judge_errors(source, qid, pid, kind, detail, answer)
                       SELECT ?, qid, pid, kind, detail, answer FROM _je""",
                    [source],
                )


def errors(db: Database, source: str) -> pd.DataFrame:
    return (
        db.cursor()
        .execute(
            """SELECT qid, pid, kind, detail, answer, created_at FROM judge_errors
               WHERE source = ? ORDER BY qid, pid""",
            [source],
        )
        .df()
    )


def question_types(db: Database) -> dict[str, str]:
    return dict(db.cursor().execute("SELECT qid, qtype FROM questions").fetchall())


def grades_of(db: Database, source: str, qid: str) -> dict[str, int]:
    """pid -> the source's grade on question ``qid`` (for a plan a model source orders)."""
    rows = db.cursor().execute("SELECT pid, grade FROM external_qrels WHERE source = ? AND qid = ?", [source, qid])
    return {pid: int(grade) for pid, grade in rows.fetchall()}
