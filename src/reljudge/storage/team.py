"""SQL for team judging: assignments, aggregation into one qrels, disagreements,
adjudication and frozen qrels versions."""

from __future__ import annotations

import pandas as pd

from reljudge.errors import ReljudgeError
from reljudge.policy import CODES as policy_codes
from reljudge.policy import Policy
from reljudge.storage import aggregation
from reljudge.storage import quality
from reljudge.storage.database import Database, in_list, registered
from reljudge.codes import Codes

CODES = Codes(
    error_no_qrels_version=("version",),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

PROVENANCES = aggregation.PROVENANCES


# -- assignments -----------------------------------------------------------------------


def questions_for_assignment(db: Database) -> pd.DataFrame:
    """Questions with their pool size (the work an assignment costs) and type."""
    return (
        db.cursor()
        .execute("""
        SELECT q.qid, q.qtype, q.seq, coalesce(p.n, 0) AS pool_size
        FROM questions q LEFT JOIN (SELECT qid, count(*) AS n FROM pool GROUP BY qid) p USING (qid)
        ORDER BY q.seq""")
        .df()
    )


def active_assignments(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""
        SELECT a.qid, a.username, q.qtype, a.assigned_at, a.assigned_by
        FROM assignments a JOIN questions q USING (qid) WHERE a.active
        ORDER BY q.seq, a.username""")
        .df()
    )


def replace_assignments(db: Database, rows: pd.DataFrame, by: str) -> None:
    """End every active assignment, then record ``rows`` (qid, username) as active."""
    with db.transaction() as cur:
        cur.execute("UPDATE assignments SET active = FALSE, ended_at = current_timestamp WHERE active")
        activate(cur, rows, by)


def add_assignments(db: Database, rows: pd.DataFrame, by: str) -> None:
    with db.transaction() as cur:
        activate(cur, rows, by)


def activate(cur, rows: pd.DataFrame, by: str, table: str = "assignments") -> None:
    """Record ``rows`` (qid, username) as active assignments in ``table`` (``assignments``
    for judging, ``review_assignments`` for answer review): a pair assigned before is
    made active again, by ``by``, from now."""
    if rows.empty:
        return
    with registered(cur, "_assign", rows[["qid", "username"]]):
        cur.execute(
            f"""
            INSERT INTO {table}(qid, username, active, assigned_by)
            SELECT qid, username, TRUE, ? FROM _assign
            ON CONFLICT (qid, username) DO UPDATE SET active = TRUE, ended_at = NULL,
                assigned_by = excluded.assigned_by, assigned_at = now()""",
            [by],
        )


def end_assignments(db: Database, username: str, qids: list[str]) -> None:
    if not qids:
        return
    with db.transaction() as cur:
        cur.execute(
            f"""UPDATE assignments SET active = FALSE, ended_at = current_timestamp
                        WHERE username = ? AND active AND qid IN {in_list(qids)}""",
            [username, *qids],
        )


def contested_no_answer(db: Database, policy: str = "adjudicated", threshold: int = 2) -> list[str]:
    """Live questions that an annotator marked "no answer" but the aggregation counts as
    answerable because a paragraph's *aggregated* grade reaches ``threshold``, with no
    lead ruling on the question (under ``policy``, adjudicated or majority)."""
    policy = Policy.parse(policy)
    if not policy.is_team:
        return []
    cur = db.cursor()
    excluded = excluded_annotators(cur, policy)
    qrels, params = qrels_sql(policy, None, excluded)
    ruled = (
        "SELECT qid FROM current_adjudications WHERE pid IS NULL"
        if policy.uses_adjudications
        else "SELECT NULL::VARCHAR AS qid WHERE FALSE"
    )
    left_out, left_out_params = _without(excluded)
    return [
        r[0]
        for r in cur.execute(
            f"""
        WITH agg AS ({qrels})
        SELECT v.qid FROM (SELECT DISTINCT qid FROM current_verdicts WHERE no_answer{left_out}) v
        JOIN questions q USING (qid)
        WHERE v.qid IN (SELECT qid FROM agg WHERE grade >= ?)
          AND v.qid NOT IN ({ruled})
        ORDER BY q.seq""",
            [*params, *left_out_params, threshold],
        ).fetchall()
    ]


def started_work(db: Database) -> pd.DataFrame:
    """(qid, username, n): how many current judgments (grades and no-answer verdicts)
    each annotator already has on each question."""
    return (
        db.cursor()
        .execute("""
        SELECT qid, username, count(*) AS n FROM (
            SELECT qid, username FROM current_judgments WHERE grade IS NOT NULL
            UNION ALL
            SELECT qid, username FROM current_verdicts WHERE no_answer)
        JOIN users USING (username) WHERE users.role = 'annotator'
        GROUP BY qid, username ORDER BY qid, n DESC, username""")
        .df()
    )


def active_annotators(db: Database) -> list[str]:
    return [
        r[0]
        for r in db.cursor()
        .execute("SELECT username FROM users WHERE active AND role = 'annotator' ORDER BY username")
        .fetchall()
    ]


# -- aggregation ---------------------------------------------------------------------


def excluded_annotators(cur, policy: "str | Policy") -> tuple[str, ...]:
    """The annotators a policy leaves out, decided now: with ``+exclude-flagged`` everyone
    quality control flags at this moment (reljudge.storage.quality.flagged), else nobody."""
    policy = Policy.parse(policy)
    if not policy.excludes_flagged:
        return ()
    return tuple(sorted(quality.flagged(cur)[0]))


def _without(excluded: tuple[str, ...], column: str = "username") -> tuple[str, list]:
    """`` AND column NOT IN (...)`` for the excluded annotators (nothing without any)."""
    if not excluded:
        return "", []
    return f" AND {column} NOT IN {in_list(excluded)}", list(excluded)


def qrels_sql(
    policy: "str | Policy" = "adjudicated", version: int | None = None, excluded: tuple[str, ...] = ()
) -> tuple[str, list]:
    """SQL (and parameters) giving qid, pid, grade, provenance, n_annotators.

    Policies (reljudge.policy): ``adjudicated`` (a lead's adjudication if any, else the
    majority, else the lower of the tied grades), ``majority`` (the same without
    adjudications), ``annotator:NAME`` (one annotator's grades), ``source:NAME`` (an
    imported or model source). ``excluded`` annotators' grades are left out of a team
    policy (``+exclude-flagged``: :func:`excluded_annotators`). ``version`` reads a frozen
    version."""
    if version is not None:
        return (
            """SELECT qid, pid, grade, provenance, n_annotators FROM qrels_version_rows
                   WHERE version = ?""",
            [version],
        )
    policy = Policy.parse(policy)
    if policy.kind == "annotator":
        return (
            """SELECT qid, pid, grade, 'single' AS provenance, 1 AS n_annotators
                   FROM current_judgments WHERE username = ?""",
            [policy.name],
        )
    if policy.kind == "source":
        # Judgments made elsewhere, keyed like the team's: by each duplicate group's
        # first paragraph (a copy's grade counts for its group, the highest if several).
        return (
            """SELECT e.qid, coalesce(p.canonical_pid, e.pid) AS pid,
                          CAST(max(e.grade) AS TINYINT) AS grade,
                          'external' AS provenance, 1 AS n_annotators
                   FROM external_qrels e LEFT JOIN paragraphs p USING (pid)
                   WHERE e.source = ? GROUP BY ALL""",
            [policy.name],
        )
    if not policy.is_team:
        # reviewer:NAME names answer reviews, not paragraph grades
        raise ReljudgeError(policy_codes("error_unknown_policy", policy=repr(str(policy))))
    left_out, params = _without(excluded)
    # the one rule of several raters → one decision (reljudge.storage.aggregation)
    decided = aggregation.decisions_sql(
        f"SELECT qid, pid, grade AS v FROM current_judgments WHERE TRUE{left_out}",
        ["qid", "pid"],
        "SELECT qid, pid, grade AS v FROM current_adjudications WHERE pid IS NOT NULL"
        if policy.uses_adjudications
        # (not None: its stand-in would repeat the ratings' query, and their parameters)
        else "SELECT qid, pid, grade AS v FROM current_adjudications WHERE FALSE",
        n_name="n_annotators",
    )
    return f"SELECT qid, pid, CAST(v AS TINYINT) AS grade, provenance, n_annotators FROM ({decided})", params


def verdicts_sql(
    qrels_table: str,
    policy: "str | Policy" = "adjudicated",
    threshold: int = 2,
    version: int | None = None,
    excluded: tuple[str, ...] = (),
) -> tuple[str, list]:
    """SQL giving qid, no_answer, provenance, n_annotators; ``qrels_table`` holds the
    aggregated qrels of the same policy (and the same ``excluded`` annotators).

    A question is no-answer when a lead adjudicated so, or else when no paragraph's
    aggregated grade reaches ``threshold`` and at least half of the annotators who worked
    on the question said "no answer in these results" (``effective_verdicts``: grading
    without saying so counts as "has an answer")."""
    if version is not None:
        return (
            """SELECT qid, no_answer, provenance, n_annotators FROM qrels_version_verdicts
                   WHERE version = ?""",
            [version],
        )
    policy = Policy.parse(policy)
    if policy.kind == "source":
        return (
            """SELECT NULL::VARCHAR AS qid, NULL::BOOLEAN AS no_answer, NULL::VARCHAR AS provenance,
                          NULL::INTEGER AS n_annotators WHERE FALSE""",
            [],
        )
    if policy.kind == "annotator":
        return (
            f"""SELECT qid, no_answer AND qid NOT IN (SELECT qid FROM {qrels_table} WHERE grade >= ?)
                           AS no_answer, 'single' AS provenance, 1 AS n_annotators
                    FROM effective_verdicts WHERE username = ?""",
            [threshold, policy.name],
        )
    use_adj = "TRUE" if policy.uses_adjudications else "FALSE"
    left_out, left_out_params = _without(excluded)
    return (
        f"""
        WITH v AS (SELECT qid, count(*) AS n, count(*) FILTER (WHERE no_answer) AS yes
                   FROM effective_verdicts WHERE TRUE{left_out} GROUP BY qid),
        adj AS (SELECT qid, no_answer FROM current_adjudications WHERE pid IS NULL AND {use_adj}),
        cited AS (SELECT DISTINCT qid FROM {qrels_table} WHERE grade >= ?)
        SELECT coalesce(v.qid, a.qid) AS qid,
               coalesce(a.no_answer, 2 * v.yes >= v.n AND v.yes > 0
                        AND v.qid NOT IN (SELECT qid FROM cited)) AS no_answer,
               CASE WHEN a.no_answer IS NOT NULL THEN 'adjudicated'
                    WHEN v.n = 1 THEN 'single'
                    WHEN v.yes = 0 OR v.yes = v.n THEN 'unanimous'
                    WHEN 2 * v.yes = v.n THEN 'tie' ELSE 'majority' END AS provenance,
               CAST(coalesce(v.n, 0) AS INTEGER) AS n_annotators
        FROM v FULL JOIN adj a ON a.qid = v.qid""",
        [*left_out_params, threshold],
    )


def _check_version(cur, version: int | None) -> None:
    if (
        version is not None
        and not cur.execute("SELECT count(*) FROM qrels_versions WHERE version = ?", [version]).fetchall()[0][0]
    ):
        raise ReljudgeError(CODES("error_no_qrels_version", version=version))


def aggregated_qrels(
    db: Database, policy: "str | Policy" = "adjudicated", version: int | None = None, excluded: tuple | None = None
) -> pd.DataFrame:
    """One grade per (qid, pid) with provenance and the number of annotators (see qrels_sql);
    ``excluded`` None: the policy's own (:func:`excluded_annotators`, decided now)."""
    cur = db.cursor()
    _check_version(cur, version)
    excluded = excluded_annotators(cur, policy) if excluded is None else tuple(excluded)
    sql, params = qrels_sql(policy, version, excluded)
    return cur.execute(f"SELECT * FROM ({sql}) ORDER BY qid, pid", params).df()


def aggregated_verdicts(
    db: Database,
    policy: "str | Policy" = "adjudicated",
    threshold: int = 2,
    version: int | None = None,
    excluded: tuple | None = None,
) -> pd.DataFrame:
    """Final no-answer verdict per question that has any verdict or adjudication."""
    cur = db.cursor()
    _check_version(cur, version)
    excluded = excluded_annotators(cur, policy) if excluded is None else tuple(excluded)
    q_sql, q_params = qrels_sql(policy, version, excluded)
    v_sql, v_params = verdicts_sql("_agg", policy, threshold, version, excluded)
    return cur.execute(f"WITH _agg AS ({q_sql}) SELECT * FROM ({v_sql}) ORDER BY qid", q_params + v_params).df()


def stage_aggregates(cur, policy: "str | Policy", threshold: int, version: int | None) -> tuple[str, ...]:
    """Materialise ``_rj_qrels`` and ``_rj_verdicts`` as temporary tables of this cursor,
    so the metric engine reads them inside DuckDB without a trip through Python. Returns
    the annotators the policy left out (decided now, for the figures' record)."""
    _check_version(cur, version)
    excluded = excluded_annotators(cur, policy) if version is None else ()
    q_sql, q_params = qrels_sql(policy, version, excluded)
    cur.execute(f"CREATE OR REPLACE TEMP TABLE _rj_qrels AS {q_sql}", q_params)
    v_sql, v_params = verdicts_sql("_rj_qrels", policy, threshold, version, excluded)
    cur.execute(f"CREATE OR REPLACE TEMP TABLE _rj_verdicts AS {v_sql}", v_params)
    return excluded


# -- disagreements and adjudication ----------------------------------------------------


def paragraph_disagreements(
    db: Database, k: int = 10, threshold: int = 2, ties: str | None = None, dedup: str | None = None
) -> pd.DataFrame:
    """Pooled paragraphs on which annotators' current grades differ and no lead has
    adjudicated since the last judgment. Most consequential first: the grade spread
    (2 vs 0 before 2 vs 1), then whether the paragraph decides some system's first
    citable rank within ``k`` (``changes_first``): some system ranks it within ``k``
    and above every paragraph all annotators called citable. Ranks follow the
    campaign's tie rule and duplicates policy (or ``ties``/``dedup``), as the metrics
    do; a paragraph's rank is its duplicate group's first."""
    from reljudge.storage.catalog import get_settings, ranked_runs_sql

    settings = get_settings(db)
    ranked = ranked_runs_sql(
        ties or settings["ties"], dedup or settings["dedup"], k, where="r.qid IN (SELECT qid FROM open_items)"
    )
    # the one rule of "raters disagree, no ruling since" (reljudge.storage.aggregation);
    # each annotator's grade, note and evidence at one place of the three lists, in an order
    # that does not follow their names
    shuffled = "ORDER BY md5(username || qid || pid)"
    disputed = aggregation.disagreements_sql(
        "SELECT qid, pid, grade AS v, created_at AS rated_at, username, note, evidence FROM current_judgments",
        ["qid", "pid"],
        "SELECT qid, pid, grade AS v, created_at AS rated_at FROM current_adjudications WHERE pid IS NOT NULL",
        f""", list(v {shuffled}) AS grades, list(coalesce(note, '') {shuffled}) AS notes,
               list(coalesce(evidence, '') {shuffled}) AS evidence""",
    )
    return (
        db.cursor()
        .execute(
            f"""
        WITH open_items AS (SELECT * FROM ({disputed}) WHERE is_open),
        ranked AS (   -- top k of every ranking of an open question; pid = duplicate group
            SELECT system, qid, dkey AS pid, r AS rk FROM ({ranked})),
        firsts AS (   -- first rank, per system, of a paragraph every annotator called citable
            SELECT r.system, r.qid, min(r.rk) AS first_sure
            FROM ranked r JOIN (SELECT qid, pid FROM current_judgments GROUP BY qid, pid
                                HAVING min(grade) >= ?) s ON s.qid = r.qid AND s.pid = r.pid
            GROUP BY ALL),
        decides AS (
            SELECT o.qid, o.pid, count(DISTINCT r.system) AS n_systems FROM open_items o
            JOIN ranked r ON r.qid = o.qid AND r.pid = o.pid
            LEFT JOIN firsts f ON f.system = r.system AND f.qid = r.qid
            WHERE o.hi >= ? AND o.lo < ? AND r.rk < coalesce(f.first_sure, 1e9)
            GROUP BY ALL)
        SELECT o.qid, q.text AS question, q.criteria, o.pid, p.text AS paragraph, o.lo, o.hi, o.spread,
               coalesce(d.n_systems, 0) > 0 AS changes_first, coalesce(d.n_systems, 0) AS n_systems,
               o.n AS n_annotators, o.grades, o.notes, o.evidence
        FROM open_items o JOIN questions q USING (qid) JOIN paragraphs p ON p.pid = o.pid
        LEFT JOIN decides d ON d.qid = o.qid AND d.pid = o.pid
        ORDER BY spread DESC, changes_first DESC, n_systems DESC, q.seq, o.pid""",
            [threshold, threshold, threshold],
        )
        .df()
    )


def verdict_disagreements(db: Database, contested: list[str] | tuple = ()) -> pd.DataFrame:
    """Questions whose "no answer" verdicts need a lead: annotators disagree, or (the
    ``contested`` qids, see :func:`contested_no_answer`) someone marked "no answer" while a
    paragraph's aggregated grade is citable — also when only one person judged it.
    Column ``contested`` says which; a ruling newer than every verdict settles either."""
    return (
        db.cursor()
        .execute(
            """
        WITH v AS (SELECT qid, count(*) AS n, count(*) FILTER (WHERE no_answer) AS yes,
                          max(created_at) AS last, list(no_answer ORDER BY md5(username || qid)) AS verdicts,
                          list(coalesce(note, '') ORDER BY md5(username || qid)) AS notes
                   FROM effective_verdicts GROUP BY qid HAVING (count(*) >= 2
                     AND count(*) FILTER (WHERE no_answer) NOT IN (0, count(*)))
                     OR list_contains(?::VARCHAR[], qid))
        SELECT v.qid, q.text AS question, v.n AS n_annotators, v.yes AS n_no_answer, v.verdicts, v.notes,
               list_contains(?::VARCHAR[], v.qid) AS contested
        FROM v JOIN questions q USING (qid)
        LEFT JOIN current_adjudications a ON a.qid = v.qid AND a.pid IS NULL
        WHERE a.adjudication_id IS NULL OR a.created_at < v.last ORDER BY q.seq""",
            [list(contested), list(contested)],
        )
        .df()
    )


def insert_adjudication(
    db: Database, lead: str, qid: str, pid: str | None, grade: int | None, no_answer: bool | None, reason: str
) -> None:
    with db.transaction() as cur:
        cur.execute(
            """INSERT INTO adjudications(qid, pid, grade, no_answer, reason, lead)
                       VALUES (?, ?, ?, ?, ?, ?)""",
            [qid, pid, grade, no_answer, reason, lead],
        )


def adjudication_history(db: Database, qid: str | None = None) -> pd.DataFrame:
    """Every adjudication, oldest first; ``in_force`` marks the latest ruling on its
    paragraph (or question verdict), the one qrels use."""
    cond, params = ("WHERE qid = ?", [qid]) if qid is not None else ("", [])
    return (
        db.cursor()
        .execute(
            f"""
        SELECT adjudication_id, created_at, lead, qid, pid, grade, no_answer, reason,
               row_number() OVER (PARTITION BY qid, pid ORDER BY adjudication_id DESC) = 1 AS in_force
        FROM adjudications {cond} ORDER BY adjudication_id""",
            params,
        )
        .df()
    )


# -- frozen versions ----------------------------------------------------------------


def freeze(
    db: Database,
    lead: str,
    policy: str,
    note: str | None,
    rows: pd.DataFrame,
    verdicts: pd.DataFrame,
    exclusions: dict[str, list[str]] | None = None,
    thresholds: dict | None = None,
) -> int:
    """Store the next numbered qrels version; ``exclusions`` ({annotator: reason codes}, with
    the ``thresholds`` that flagged them) records whom a ``+exclude-flagged`` policy left out."""
    with db.transaction() as cur:
        version = cur.execute("SELECT coalesce(max(version), 0) + 1 FROM qrels_versions").fetchall()[0][0]
        cur.execute(
            "INSERT INTO qrels_versions(version, created_by, policy, note) VALUES (?, ?, ?, ?)",
            [version, lead, str(policy), note],
        )
        for name, reasons in sorted((exclusions or {}).items()):
            cur.execute(
                """INSERT INTO qrels_version_exclusions
                       (version, username, reasons, min_gold, min_accuracy, max_failed_decoys)
                   VALUES (?, ?, ?, ?, ?, ?)""",
                [
                    version,
                    name,
                    ",".join(reasons),
                    int(thresholds["min_gold"]),
                    float(thresholds["min_accuracy"]),
                    int(thresholds["max_failed_decoys"]),
                ],
            )
        with registered(cur, "_rows", rows), registered(cur, "_verdicts", verdicts):
            cur.execute(
                """INSERT INTO qrels_version_rows
                           SELECT ?, qid, pid, grade, provenance, n_annotators FROM _rows""",
                [version],
            )
            cur.execute(
                """INSERT INTO qrels_version_verdicts
                           SELECT ?, qid, no_answer, provenance, n_annotators FROM _verdicts""",
                [version],
            )
    return version


def version_exclusions(db: Database, version: int | None = None) -> pd.DataFrame:
    """Whom frozen versions left out: version, annotator, reasons (list of codes) and the
    thresholds then in force; one version's, or every version's."""
    where, params = ("WHERE version = ?", [int(version)]) if version is not None else ("", [])
    frame = (
        db.cursor()
        .execute(
            f"""SELECT version, username AS annotator, reasons, min_gold, min_accuracy, max_failed_decoys
                FROM qrels_version_exclusions {where} ORDER BY version, username""",
            params,
        )
        .df()
    )
    frame["reasons"] = frame["reasons"].map(lambda r: [x for x in str(r).split(",") if x])
    return frame


def list_versions(db: Database) -> pd.DataFrame:
    """Frozen versions: ``n_judged`` judged paragraphs, ``n_qrels_rows`` qrels rows as exported
    (every duplicate copy gets its canonical paragraph's row)."""
    return (
        db.cursor()
        .execute("""
        SELECT v.version, v.created_by, v.created_at, v.policy, v.note,
               (SELECT count(*) FROM qrels_version_rows r WHERE r.version = v.version) AS n_judged,
               (SELECT count(*) FROM qrels_version_rows r JOIN paragraphs p ON p.canonical_pid = r.pid
                WHERE r.version = v.version) AS n_qrels_rows
        FROM qrels_versions v ORDER BY v.version""")
        .df()
    )


def current_grades(db: Database, username: str | None = None) -> pd.DataFrame:
    """Current grades (annotator, qid, pid, grade) — the input of agreement figures."""
    cond, params = ("WHERE username = ?", [username]) if username else ("", [])
    return (
        db.cursor()
        .execute(
            f"""SELECT username AS annotator, qid, pid, grade
                                   FROM current_judgments {cond} ORDER BY 1, 2, 3""",
            params,
        )
        .df()
    )


def current_verdict_rows(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""SELECT username AS annotator, qid, no_answer
                                  FROM effective_verdicts ORDER BY 1, 2""")
        .df()
    )


def question_types(db: Database) -> dict[str, str]:
    return dict(db.cursor().execute("SELECT qid, qtype FROM questions").fetchall())


def judging_speed(db: Database, fast_ms: int = 2000) -> pd.DataFrame:
    """Per annotator: judgments, median seconds per judgment, and how many took less than
    ``fast_ms`` (suspiciously fast for reading a paragraph). A judgment is an event that
    sets or changes a paragraph's grade; editing only the note or evidence is not one."""
    return (
        db.cursor()
        .execute(
            """
        WITH graded AS (
            SELECT username, grade, time_spent_ms,
                   lag(grade) OVER (PARTITION BY username, qid, pid ORDER BY event_id) AS before
            FROM judgment_events WHERE pid IS NOT NULL)
        SELECT username, count(*) AS grade_decisions,
               round(median(time_spent_ms) / 1000.0, 1) AS median_seconds,
               count(*) FILTER (WHERE time_spent_ms < ?) AS fast,
               round(100.0 * count(*) FILTER (WHERE time_spent_ms < ?) / count(*), 1) AS fast_percent
        FROM graded WHERE grade IS NOT NULL AND before IS DISTINCT FROM grade
        GROUP BY username ORDER BY username""",
            [fast_ms, fast_ms],
        )
        .df()
    )
