"""SQL that hands the campaign's runs, questions and abstentions to the metric engine."""

from __future__ import annotations

import pandas as pd

from reljudge.eval import ranking
from reljudge.storage.database import Database, registered


def stage(cur, policy: str, threshold: int, version: int | None) -> tuple[str, str, tuple[str, ...]]:
    """Aggregate the judgments into this cursor's temp tables; returns their names and the
    annotators the policy left out (``+exclude-flagged``, decided now). The qrels name each
    duplicate group by its first paragraph."""
    from reljudge.storage.team import stage_aggregates

    excluded = stage_aggregates(cur, policy, threshold, version)
    return "_rj_qrels", "_rj_verdicts", excluded


def items_qrels(cur, qrels_table: str, dedup: str) -> str:
    """The qrels keyed as the ranking's items under ``dedup`` (reljudge.eval.ranking):
    ``qrels_table`` itself under "first" (items are duplicate groups); under "keep"
    a view giving every copy of a judged group the group's grade, so that copies
    count in the recall base and the ideal ranking as they do in the ranking."""
    if ranking.item_column(dedup) == "dkey":
        return qrels_table
    # a pid outside the corpus (only possible in imported qrels) stays as it is
    cur.execute(f"""CREATE OR REPLACE TEMP VIEW _rj_qrels_copies AS
                    SELECT q.qid, coalesce(p.pid, q.pid) AS pid, q.grade
                    FROM {qrels_table} q LEFT JOIN paragraphs p ON p.canonical_pid = q.pid""")
    return "_rj_qrels_copies"


def pool_items(cur, dedup: str) -> str:
    """The pool keyed as the ranking's items under ``dedup`` (as :func:`items_qrels`):
    the pool itself under "first" (it names duplicate groups); under "keep" every copy
    of a pooled group. The bounds (reljudge.eval.bounds) read it: what is pooled and not
    judged can still be graded."""
    if ranking.item_column(dedup) == "dkey":
        return "pool"
    cur.execute("""CREATE OR REPLACE TEMP VIEW _rj_pool_copies AS
                   SELECT pool.qid, coalesce(p.pid, pool.pid) AS pid
                   FROM pool LEFT JOIN paragraphs p ON p.canonical_pid = pool.pid""")
    return "_rj_pool_copies"


def stage_run(cur, run: pd.DataFrame | None = None) -> str:
    """A temp view/table ``_rj_run`` (system, qid, pid, score, rank, dup_key): the
    imported runs, or ``run``; pid as the system returned it, dup_key its duplicate
    group's first paragraph (a pid outside the corpus is its own group)."""
    if run is None:
        from reljudge.storage.catalog import RUN_ROWS

        cur.execute(f"""CREATE OR REPLACE TEMP VIEW _rj_run AS
                        SELECT system, qid, pid, score, rank, dkey AS dup_key FROM ({RUN_ROWS})""")
        return "_rj_run"
    with registered(cur, "_given_run", run):
        cur.execute("""CREATE OR REPLACE TEMP TABLE _rj_given AS
                       SELECT r.system, r.qid, r.pid, r.score, r.rank,
                              coalesce(p.canonical_pid, r.pid) AS dup_key
                       FROM _given_run r LEFT JOIN paragraphs p USING (pid)""")
    return "_rj_given"


def no_answer_qids(cur, verdicts_table: str) -> list[str]:
    return [r[0] for r in cur.execute(f"SELECT qid FROM {verdicts_table} WHERE no_answer ORDER BY qid").fetchall()]


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
    """The text of each of ``pids`` (only those rows are read: on PostgreSQL the filter
    goes to the server instead of every paragraph's text coming over)."""
    where, params = db.keys_in("pid", sorted(set(pids)))
    return dict(db.cursor().execute(f"SELECT pid, text FROM paragraphs WHERE {where}", params).fetchall())


def top_k(db: Database, qid: str, k: int, ties: str = ranking.DEFAULT_TIES, dedup: str = "first") -> pd.DataFrame:
    """Every system's top K for one question under the tie rule and duplicates policy
    (the ranks the metrics use): system, rank, pid (as the system returned it),
    group_pid (its duplicate group's first paragraph, which judgments name), text."""
    from reljudge.storage.catalog import ranked_runs_sql

    ranked = ranked_runs_sql(ties, dedup, k, where="r.qid = $qid")
    top = (
        db.cursor()
        .execute(
            f"""
        SELECT c.system, c.r AS rank, c.pid, c.dkey AS group_pid
        FROM ({ranked}) c ORDER BY c.system, c.r""",
            {"qid": qid},
        )
        .df()
    )
    texts = paragraph_texts(db, list(top.pid))
    top["text"] = top.pid.map(texts)
    return top[top.pid.isin(list(texts))].reset_index(drop=True)


def evaluated_qrels(cur, items_table: str) -> pd.DataFrame:
    """qid, pid, grade: the staged qrels exactly as the metric engine reads them
    (:func:`reljudge.eval.metrics.judged_items_sql`), ordered by qid, pid."""
    from reljudge.eval.metrics import judged_items_sql

    return cur.execute(f"SELECT * FROM ({judged_items_sql(items_table)}) ORDER BY qid, pid").df()


def stage_ranked(cur, run_table: str, ties: str, dedup: str, depth: int) -> str:
    """A temp table ``_rj_ranked`` (system, qid, pid, score, rank, dup_key, position): every
    ranking of the staged run ranked once by the one rule (:func:`reljudge.eval.ranking.ranked_sql`)
    down to ``depth``, for the metric engine and the bounds (reljudge.eval.bounds) to share —
    ranking the run is most of an evaluation's time."""
    source = (
        f"(SELECT system::VARCHAR AS system, qid::VARCHAR AS qid, pid::VARCHAR AS pid, "
        f"score::DOUBLE AS score, rank::BIGINT AS rank, dup_key::VARCHAR AS dkey FROM {run_table} "
        "WHERE pid IS NOT NULL AND system IS NOT NULL)"
    )
    cur.execute(f"""CREATE OR REPLACE TEMP TABLE _rj_ranked AS
                    SELECT system, qid, pid, NULL::DOUBLE AS score, NULL::BIGINT AS rank, dkey AS dup_key,
                           r AS position
                    FROM ({ranking.ranked_sql(source, ties, dedup, depth)})""")
    return "_rj_ranked"


def evaluated_rankings(cur, run_table: str, ties: str, dedup: str, depth: int, qids: list[str]) -> pd.DataFrame:
    """system, qid, docid, rank: the staged run's rankings of the questions ``qids``
    as the metric engine ranks them (:func:`reljudge.eval.ranking.ranked_sql`, ranks
    1..``depth``), each row naming the item judgments are looked up by
    (:func:`reljudge.eval.ranking.item_column`: the duplicate group under "first", the
    returned id under "keep")."""
    item = ranking.item_column(dedup)
    source = (
        f"(SELECT system::VARCHAR AS system, qid::VARCHAR AS qid, pid::VARCHAR AS pid, "
        f"score::DOUBLE AS score, rank::BIGINT AS rank, dup_key::VARCHAR AS dkey FROM {run_table} "
        "WHERE pid IS NOT NULL AND system IS NOT NULL AND qid::VARCHAR IN (SELECT unnest($qids::VARCHAR[])))"
    )
    ranked = ranking.ranked_sql(source, ties, dedup, depth)
    return cur.execute(
        f"SELECT system, qid, {item} AS docid, r AS rank FROM ({ranked}) ORDER BY system, qid, r", {"qids": list(qids)}
    ).df()


def group_grades(cur, qrels_table: str) -> list[tuple]:
    """(qid, pid, grade) of the staged qrels, keyed by duplicate group as the pool and the
    sampling plans' draws name items (:func:`reljudge.eval.metrics.judged_items_sql`)."""
    from reljudge.eval.metrics import judged_items_sql

    return cur.execute(judged_items_sql(qrels_table)).fetchall()


def ranked_groups(cur, ranked_table: str) -> list[tuple]:
    """(system, qid, dup_key) of a staged ranked run (:func:`stage_ranked`) in rank order:
    every ranking as the metric engine ranks it, items named by duplicate group."""
    return cur.execute(f"SELECT system, qid, dup_key FROM {ranked_table} ORDER BY system, qid, position").fetchall()


def pooled_groups(cur) -> list[tuple]:
    """(qid, pid) of the pool (pids name duplicate groups)."""
    return cur.execute("SELECT qid, pid FROM pool").fetchall()
