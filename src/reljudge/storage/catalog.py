"""SQL for the campaign's material: paragraphs, questions, runs, the pool, settings.

Imports are all-or-nothing: rows are staged in a temporary table inside one
transaction, validated with SQL (duplicates, unknown ids), then merged; any
error rolls the whole file back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable


from reljudge import question_types
from reljudge.eval import ranking
from reljudge.codes import Codes, Message
from reljudge.errors import InputError, ReljudgeError
from reljudge.storage.database import Database

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd

DEFAULT_SETTINGS = {
    "pool_depth": "20",
    "rel_threshold": "2",
    "ties": ranking.DEFAULT_TIES,  # trec10; campaigns made before it are pinned to trec9 (migration 6)
    "dedup": "first",
    "ks": "1,3,5,10",
    "highlight": "off",  # mark the question's content words in paragraphs (reljudge.campaign.highlight)
    "time_zone": "Asia/Seoul",  # times are stored in UTC, shown and exported in this zone (reljudge.times)
}


CODES = Codes(
    summary_head=("kind", "source", "parts"),  # kind: a kind_* message; parts: summary_* messages
    kind_corpus=(),
    kind_questions=(),
    kind_run=(),
    summary_added=("n",),
    summary_updated=("n",),
    summary_unchanged=("n",),
    summary_systems=("names",),
    summary_pooled=("n",),
    summary_incomplete=("n",),
    summary_pool_change=("before", "size", "added", "removed", "judged"),
    summary_versioned=("n", "qids"),
    summary_replaced=("system", "n", "source", "v"),
    error_duplicate_id=("field", "value", "first"),
    error_pid_changed=("pid",),
    error_unknown_qid=("qid",),
    error_unknown_pid=("pid",),
    error_run_twice=("pid", "qid", "system", "first"),
    error_undeclared_type=("qtype", "declared"),
    error_undeclared_type_near=("qtype", "declared", "near"),
    error_type_variant=("qtype", "near"),
    error_type_not_declared=("qtype", "declared"),
    error_type_in_use=("qtype", "n"),
    error_question_judged=("qid", "events", "changed"),
    error_run_exists=("system", "n", "source", "imported"),
)
"""What an import did (:meth:`ImportSummary.messages`) and why it was refused (``InputError``)."""


@dataclass
class ImportSummary:
    kind: str
    source: str
    inserted: int
    skipped: int = 0
    updated: int = 0
    systems: tuple[str, ...] = ()
    incomplete: int = 0  # questions without a type or criteria
    pooled: int | None = None  # pool size after the import rebuilt it (None: not rebuilt)
    versioned: tuple[str, ...] = ()  # judged questions changed: earlier wording kept as a version
    replaced: tuple["ReplacedRun", ...] = ()  # runs replaced (import --replace), kept as versions
    pool_change: "PoolChange | None" = None  # what the rebuilt pool gained and lost

    SEP = ". "
    """Between the messages when they are written as one line."""

    def messages(self) -> list[Message]:
        """What the import did, as messages (:data:`CODES`); ``i18n.message(...,
        sep=ImportSummary.SEP)`` words them."""
        parts = [CODES("summary_added", n=self.inserted)]
        if self.updated:
            parts.append(CODES("summary_updated", n=self.updated))
        if self.skipped:
            parts.append(CODES("summary_unchanged", n=self.skipped))
        if self.systems:
            parts.append(CODES("summary_systems", names=tuple(self.systems)))
        out = [CODES("summary_head", kind=CODES(f"kind_{self.kind}"), source=str(self.source), parts=tuple(parts))]
        if self.versioned:
            out.append(CODES("summary_versioned", n=len(self.versioned), qids=tuple(self.versioned)))
        for run in self.replaced:
            out.append(
                CODES("summary_replaced", system=run.system, n=run.n_rows, source=run.source_file or "?", v=run.version)
            )
        if self.pool_change is not None:
            out.append(self.pool_change.to_message())
        elif self.pooled is not None:
            out.append(CODES("summary_pooled", n=self.pooled))
        if self.incomplete:
            out.append(CODES("summary_incomplete", n=self.incomplete))
        return out


@dataclass(frozen=True)
class ReplacedRun:
    system: str
    version: int  # the version number the replaced run is kept under
    n_rows: int
    source_file: str | None


@dataclass(frozen=True)
class PoolChange:
    """A pool rebuild: its size before and after, items that joined and left, and how
    many of those that left had already been judged (their judgments stay, unused)."""

    size: int
    before: int
    added: int
    removed: int
    removed_judged: int

    def to_message(self) -> Message:
        """The rebuild as a message (:data:`CODES`)."""
        if self.added == 0 and self.removed == 0:
            return CODES("summary_pooled", n=self.size)
        return CODES(
            "summary_pool_change",
            before=self.before,
            size=self.size,
            added=self.added,
            removed=self.removed,
            judged=self.removed_judged,
        )


def _stage(db: Database, table: str, ddl: str, chunks: Iterable[pd.DataFrame]) -> int:
    """The file's rows in the temporary table ``table``, staged a chunk at a time before the
    import's one transaction (:meth:`Database.stage`), which reads them on the same cursor."""
    return db.stage(table, ddl, chunks)


def _first(cur, sql: str, params=None):
    # fetchall, not fetchone: DuckDB keeps a half-read result open on the cursor.
    rows = cur.execute(sql, params or []).fetchall()
    return rows[0] if rows else None


# -- settings ---------------------------------------------------------------------


def campaign_zone(db: Database) -> str:
    """The campaign's time zone (setting ``time_zone``; reljudge.times shows stamps in it)."""
    return get_settings(db)["time_zone"]


def get_settings(db: Database) -> dict[str, str]:
    rows = dict(db.cursor().execute("SELECT key, value FROM settings").fetchall())
    return {**DEFAULT_SETTINGS, **rows}


def set_setting(db: Database, key: str, value: str) -> None:
    with db.transaction() as cur:
        cur.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", [key, str(value)])


# -- corpus -----------------------------------------------------------------------


def import_corpus(db: Database, chunks: Iterable[pd.DataFrame], source: str) -> ImportSummary:
    n = _stage(
        db,
        "stage_corpus",
        "line BIGINT, pid VARCHAR, doc_id VARCHAR, title VARCHAR, date VARCHAR, "
        "volume VARCHAR, page VARCHAR, position BIGINT, text VARCHAR, text_key VARCHAR, "
        "metadata VARCHAR",
        chunks,
    )
    with db.transaction() as cur:
        dup = _first(
            cur,
            """
            SELECT pid, min(line), max(line) FROM (
              SELECT pid, line, row_number() OVER (PARTITION BY pid ORDER BY line) AS k FROM stage_corpus)
            WHERE k <= 2 GROUP BY pid HAVING count(*) > 1 ORDER BY 3 LIMIT 1""",
        )
        if dup:
            raise InputError(source, dup[2], CODES("error_duplicate_id", field="pid", value=dup[0], first=dup[1]))
        clash = _first(
            cur,
            """
            SELECT s.line, s.pid FROM stage_corpus s JOIN paragraphs p USING (pid)
            WHERE p.text <> s.text ORDER BY s.line LIMIT 1""",
        )
        if clash:
            raise InputError(source, clash[0], CODES("error_pid_changed", pid=clash[1]))
        skipped = _first(cur, "SELECT count(*) FROM stage_corpus JOIN paragraphs USING (pid)")[0]
        cur.execute("""
            INSERT INTO paragraphs(pid, doc_id, title, date, volume, page, position, text,
                                   text_key, canonical_pid, metadata)
            SELECT s.pid, s.doc_id, s.title, s.date, s.volume, s.page, s.position, s.text,
                   s.text_key, coalesce(e.canonical_pid, g.first_pid), s.metadata
            FROM stage_corpus s
            JOIN (SELECT text_key, arg_min(pid, line) AS first_pid FROM stage_corpus GROUP BY text_key) g
              USING (text_key)
            LEFT JOIN (SELECT text_key, arg_min(canonical_pid, seq) AS canonical_pid
                       FROM paragraphs GROUP BY text_key) e USING (text_key)
            WHERE s.pid NOT IN (SELECT pid FROM paragraphs)
            ORDER BY s.line""")
        cur.execute("INSERT INTO import_log(kind, source_file, n_rows) VALUES ('corpus', ?, ?)", [source, n - skipped])
        cur.execute("DROP TABLE stage_corpus")
    return ImportSummary("corpus", source, n - skipped, skipped=skipped)


# -- questions ----------------------------------------------------------------------


def import_questions(
    db: Database, chunks: Iterable[pd.DataFrame], source: str, update_questions: bool = False
) -> ImportSummary:
    """New questions are added; a known question takes the fields the file gives (a field
    left out or empty keeps its value). Changing a question that already has judgments
    needs ``update_questions``; every wording is kept in ``question_versions``."""
    n = _stage(
        db,
        "stage_questions",
        "line BIGINT, qid VARCHAR, text VARCHAR, qtype VARCHAR, criteria VARCHAR, no_answer_expected BOOLEAN",
        chunks,
    )
    with db.transaction() as cur:
        dup = _first(
            cur,
            """
            SELECT qid, min(line), max(line) FROM (
              SELECT qid, line, row_number() OVER (PARTITION BY qid ORDER BY line) AS k FROM stage_questions)
            WHERE k <= 2 GROUP BY qid HAVING count(*) > 1 ORDER BY 3 LIMIT 1""",
        )
        if dup:
            raise InputError(source, dup[2], CODES("error_duplicate_id", field="qid", value=dup[0], first=dup[1]))
        _check_types(cur, source)
        # What each question becomes: a field the file does not give keeps its value.
        cur.execute("""
            CREATE OR REPLACE TEMP TABLE merged_questions AS
            SELECT line, qid, text, qtype, criteria, no_answer_expected, existing,
                   concat_ws(', ',
                     CASE WHEN existing AND text IS DISTINCT FROM old_text THEN 'text' END,
                     CASE WHEN existing AND qtype IS DISTINCT FROM old_qtype THEN 'type' END,
                     CASE WHEN existing AND criteria IS DISTINCT FROM old_criteria THEN 'criteria' END,
                     CASE WHEN existing AND no_answer_expected IS DISTINCT FROM old_no_answer
                          THEN 'no_answer_expected' END) AS changed
            FROM (SELECT s.line, s.qid, s.text,
                         coalesce(s.qtype, q.qtype, '') AS qtype,
                         coalesce(s.criteria, q.criteria, '') AS criteria,
                         coalesce(s.no_answer_expected, q.no_answer_expected, FALSE) AS no_answer_expected,
                         q.qid IS NOT NULL AS existing, q.text AS old_text, q.qtype AS old_qtype,
                         q.criteria AS old_criteria, q.no_answer_expected AS old_no_answer
                  FROM stage_questions s LEFT JOIN questions q USING (qid))""")
        judged = cur.execute("""
            SELECT m.line, m.qid, m.changed,
                   (SELECT count(*) FROM judgment_events e WHERE e.qid = m.qid)
                   + (SELECT count(*) FROM adjudications a WHERE a.qid = m.qid) AS n
            FROM merged_questions m WHERE m.changed <> '' AND n > 0 ORDER BY m.line""").fetchall()
        if judged and not update_questions:
            line, qid, changed, events = judged[0]
            raise InputError(source, line, CODES("error_question_judged", qid=qid, events=events, changed=changed))
        updated = _first(cur, "SELECT count(*) FROM merged_questions WHERE changed <> ''")[0]
        existing = _first(cur, "SELECT count(*) FROM merged_questions WHERE existing")[0]
        incomplete = _first(
            cur,
            """SELECT count(*) FROM merged_questions
                                    WHERE trim(qtype) = '' OR trim(criteria) = ''""",
        )[0]
        # Questions may be corrected (criteria, typos) after judging started: update in place,
        # keeping their order, and keep the new wording as the next version.
        cur.execute("""
            UPDATE questions SET text = m.text, qtype = m.qtype, criteria = m.criteria,
                   no_answer_expected = m.no_answer_expected
            FROM merged_questions m WHERE questions.qid = m.qid AND m.changed <> ''""")
        cur.execute("""
            INSERT INTO questions(qid, text, qtype, criteria, no_answer_expected)
            SELECT qid, text, qtype, criteria, no_answer_expected FROM merged_questions
            WHERE NOT existing ORDER BY line""")
        cur.execute(
            """
            INSERT INTO question_versions(qid, version, text, qtype, criteria, no_answer_expected,
                                          source_file)
            SELECT m.qid, coalesce(v.last, 0) + 1, m.text, m.qtype, m.criteria, m.no_answer_expected, ?
            FROM merged_questions m
            LEFT JOIN (SELECT qid, max(version) AS last FROM question_versions GROUP BY qid) v USING (qid)
            WHERE NOT m.existing OR m.changed <> ''""",
            [source],
        )
        cur.execute("INSERT INTO import_log(kind, source_file, n_rows) VALUES ('questions', ?, ?)", [source, n])
        cur.execute("DROP TABLE stage_questions")
        cur.execute("DROP TABLE merged_questions")
    return ImportSummary(
        "questions",
        source,
        n - existing,
        updated=updated,
        skipped=existing - updated,
        incomplete=incomplete,
        versioned=tuple(r[1] for r in judged),
    )


def _check_types(cur, source: str) -> None:
    """The first staged question whose type is not declared is refused: file, line, the
    type, the declared list (and the declared type it is a variant of, if one)."""
    declared = _declared_types(cur)
    bad = _first(
        cur,
        """SELECT line, qtype FROM stage_questions
                         WHERE qtype IS NOT NULL AND NOT list_contains(CAST(? AS VARCHAR[]), qtype)
                         ORDER BY line LIMIT 1""",
        [declared],
    )
    if bad:
        line, qtype = bad
        near = question_types.near(qtype, declared)
        raise InputError(
            source,
            line,
            CODES("error_undeclared_type_near", qtype=qtype, declared=_listed(declared), near=near)
            if near
            else CODES("error_undeclared_type", qtype=qtype, declared=_listed(declared)),
        )


# -- question types ---------------------------------------------------------------------


def _listed(declared: list[str]) -> tuple[str, ...]:
    """The declared list as a message shows it (a dash when nothing is declared)."""
    return tuple(declared) or ("—",)


def _declared_types(cur) -> list[str]:
    rows = cur.execute("SELECT name, declared FROM question_types ORDER BY seq").fetchall()
    return question_types.effective(rows)


def declared_types(db: Database) -> list[str]:
    """The campaign's declared question types, in order (:mod:`reljudge.question_types`)."""
    return _declared_types(db.cursor())


def question_type_counts(db: Database) -> dict[str, int]:
    """{type: number of questions}, over the types questions use ('' = no type)."""
    return dict(db.cursor().execute("SELECT qtype, count(*) FROM questions GROUP BY qtype").fetchall())


def _set_type(cur, name: str, declared: bool, by: str | None) -> None:
    # one row per type: its latest change (re-declared, it moves to the end of the order)
    cur.execute("DELETE FROM question_types WHERE name = ?", [name])
    cur.execute("INSERT INTO question_types(name, declared, changed_by) VALUES (?, ?, ?)", [name, declared, by])


def declare_question_types(db: Database, names: list[str], by: str | None) -> list[str]:
    """Declare ``names`` (checked by the caller), all at once; returns those that were not
    declared yet. A name that differs from a declared type only in spacing, case or
    punctuation is refused: it would be a second group of the same type."""
    with db.transaction() as cur:
        declared = _declared_types(cur)
        for name in names:
            near = question_types.near(name, declared)
            if near and name not in declared:
                raise ReljudgeError(CODES("error_type_variant", qtype=name, near=near))
        added = [name for name in dict.fromkeys(names) if name not in declared]
        for name in added:
            _set_type(cur, name, True, by)
    return added


def withdraw_question_type(db: Database, name: str, by: str | None) -> None:
    """Withdraw a declared type; refused while questions have it (their type would be
    undeclared) or when it is not declared."""
    with db.transaction() as cur:
        declared = _declared_types(cur)
        if name not in declared:
            raise ReljudgeError(CODES("error_type_not_declared", qtype=name, declared=_listed(declared)))
        n = _first(cur, "SELECT count(*) FROM questions WHERE qtype = ?", [name])[0]
        if n:
            raise ReljudgeError(CODES("error_type_in_use", qtype=name, n=n))
        _set_type(cur, name, False, by)


def question_versions(db: Database, qid: str) -> pd.DataFrame:
    """Every wording question ``qid`` has had, oldest first, with the judgment events
    made while each was in force (from its valid_from to the next version's)."""
    return (
        db.cursor()
        .execute(
            """
        WITH v AS (
            SELECT *, lead(valid_from) OVER (ORDER BY version) AS valid_until
            FROM question_versions WHERE qid = ?)
        SELECT v.version, v.valid_from, v.text, v.qtype, v.criteria, v.no_answer_expected,
               v.source_file,
               (SELECT count(*) FROM judgment_events e WHERE e.qid = ?
                  AND (e.created_at >= v.valid_from OR v.version = 1)
                  AND (v.valid_until IS NULL OR e.created_at < v.valid_until)) AS judgment_events
        FROM v ORDER BY v.version""",
            [qid, qid],
        )
        .df()
    )


def judged_wordings(db: Database) -> pd.DataFrame:
    """Questions that changed after they were first judged: per version, its wording and
    the judgment events made under it (for the report)."""
    return (
        db.cursor()
        .execute("""
        WITH v AS (
            SELECT *, lead(valid_from) OVER (PARTITION BY qid ORDER BY version) AS valid_until
            FROM question_versions),
        counted AS (
            SELECT v.qid, v.version, v.text, v.valid_from,
                   (SELECT count(*) FROM judgment_events e WHERE e.qid = v.qid
                      AND (e.created_at >= v.valid_from OR v.version = 1)
                      AND (v.valid_until IS NULL OR e.created_at < v.valid_until)) AS judgment_events
            FROM v)
        SELECT c.* FROM counted c
        WHERE c.qid IN (SELECT qid FROM question_versions GROUP BY qid HAVING count(*) > 1)
          AND c.qid IN (SELECT qid FROM judgment_events)
        ORDER BY c.qid, c.version""")
        .df()
    )


# -- runs ---------------------------------------------------------------------------


def import_run(db: Database, chunks: Iterable[pd.DataFrame], source: str, replace: bool = False) -> ImportSummary:
    """Stores the run of every system named in the file; unknown qids/pids are errors.
    A system that already has a run is refused unless ``replace``: then its old run is
    kept whole in ``run_versions`` and the file's rows take its place."""
    n = _stage(
        db,
        "stage_run",
        "line BIGINT, system VARCHAR, qid VARCHAR, pid VARCHAR, rank BIGINT, score DOUBLE, abstained BOOLEAN",
        chunks,
    )
    with db.transaction() as cur:
        # a line with a pid and abstained=true is staged as two rows (ranked + abstention)
        n = cur.execute("SELECT count(DISTINCT line) FROM stage_run").fetchall()[0][0] if n else 0
        bad = _first(
            cur,
            """
            SELECT line, qid FROM stage_run WHERE qid NOT IN (SELECT qid FROM questions)
            ORDER BY line LIMIT 1""",
        )
        if bad:
            raise InputError(source, bad[0], CODES("error_unknown_qid", qid=bad[1]))
        bad = _first(
            cur,
            """
            SELECT line, pid FROM stage_run WHERE pid IS NOT NULL
              AND pid NOT IN (SELECT pid FROM paragraphs) ORDER BY line LIMIT 1""",
        )
        if bad:
            raise InputError(source, bad[0], CODES("error_unknown_pid", pid=bad[1]))
        dup = _first(
            cur,
            """
            SELECT system, qid, pid, min(line), max(line) FROM (
              SELECT *, row_number() OVER (PARTITION BY system, qid, pid ORDER BY line) AS k
              FROM stage_run WHERE pid IS NOT NULL)
            WHERE k <= 2 GROUP BY system, qid, pid HAVING count(*) > 1 ORDER BY 5 LIMIT 1""",
        )
        if dup:
            raise InputError(
                source, dup[4], CODES("error_run_twice", pid=dup[2], qid=dup[1], system=dup[0], first=dup[3])
            )
        systems = tuple(r[0] for r in cur.execute("SELECT DISTINCT system FROM stage_run ORDER BY system").fetchall())
        clash = cur.execute("""
            SELECT r.system, min(s.line), r.n_rows, r.source_file, r.imported_at,
                   coalesce((SELECT max(version) FROM run_versions v WHERE v.system = r.system), 0) + 1
            FROM stage_run s JOIN runs r USING (system)
            GROUP BY ALL ORDER BY 2""").fetchall()
        if clash and not replace:
            system, line, n_rows, old_source, imported_at = clash[0][:5]
            raise InputError(
                source,
                line,
                CODES(
                    "error_run_exists",
                    system=system,
                    n=n_rows,
                    source=old_source,
                    imported=f"{imported_at:%Y-%m-%d %H:%M}",
                ),
            )
        for system, _line, _n, _src, _at, version in clash:
            cur.execute(
                """
                INSERT INTO run_versions(system, version, source_file, n_rows, imported_at, replaced_by)
                SELECT system, ?, source_file, n_rows, imported_at, ? FROM runs WHERE system = ?""",
                [version, source, system],
            )
            cur.execute(
                """INSERT INTO run_version_entries
                           SELECT system, ?, qid, pid, rank, score FROM run_entries WHERE system = ?""",
                [version, system],
            )
            cur.execute(
                """INSERT INTO run_version_abstentions
                           SELECT system, ?, qid FROM run_abstentions WHERE system = ?""",
                [version, system],
            )
        for table in ("run_entries", "run_abstentions", "runs"):
            cur.execute(f"DELETE FROM {table} WHERE system IN (SELECT DISTINCT system FROM stage_run)")
        cur.execute("""
            INSERT INTO run_entries SELECT system, qid, pid, rank, score FROM stage_run
            WHERE NOT abstained""")
        cur.execute("""
            INSERT INTO run_abstentions SELECT DISTINCT system, qid FROM stage_run WHERE abstained""")
        cur.execute(
            """
            INSERT INTO runs(system, source_file, n_rows)
            SELECT system, ?, count(DISTINCT line) FROM stage_run GROUP BY system""",
            [source],
        )
        cur.execute(
            "INSERT INTO import_log(kind, source_file, n_rows, detail) VALUES ('run', ?, ?, ?)",
            [source, n, ",".join(systems)],
        )
        cur.execute("DROP TABLE stage_run")
    replaced = tuple(
        ReplacedRun(system, version, n_rows, old_source) for system, _line, n_rows, old_source, _at, version in clash
    )
    return ImportSummary("run", source, n, systems=systems, replaced=replaced)


def run_versions(db: Database) -> pd.DataFrame:
    """Runs replaced under their system name, newest first."""
    return (
        db.cursor()
        .execute("""
        SELECT system, version, source_file, n_rows, imported_at, replaced_at, replaced_by
        FROM run_versions ORDER BY replaced_at DESC, system""")
        .df()
    )


# -- pool ---------------------------------------------------------------------------

# The campaign's run rows as reljudge.eval.ranking reads them: dkey is the paragraph's
# duplicate group (its first paragraph), which pool items and judgments are keyed by.
RUN_ROWS = (
    "SELECT r.system, r.qid, r.pid, r.score, r.rank, p.canonical_pid AS dkey "
    "FROM run_entries r JOIN paragraphs p USING (pid)"
)


def ranked_runs_sql(ties: str, dedup: str, depth: int, where: str = "") -> str:
    """A query giving system, qid, pid (as returned), dkey (its duplicate group), r:
    the campaign's rankings under the tie rule and duplicates policy, ranks 1..depth
    (:func:`reljudge.eval.ranking.ranked_sql`, the one ranking rule). ``where`` filters
    the run rows (columns of run_entries r) before ranking; it may hold parameters."""
    source = f"({RUN_ROWS}{' WHERE ' + where if where else ''})"
    return ranking.ranked_sql(source, ties, dedup, depth)


def build_pool(db: Database, depth: int, ties: str = ranking.DEFAULT_TIES) -> int:
    """Union of every run's top-``depth`` per question under the tie rule ``ties``,
    duplicates collapsed to their group's first paragraph (first copy counts, ranks
    closed up). Returns the pool size."""
    return rebuild_pool(db, depth, ties).size


def rebuild_pool(db: Database, depth: int, ties: str = "trec") -> PoolChange:
    """:func:`build_pool`, saying what changed: items added, removed, and removed items
    that had been judged."""
    if depth < 1:
        raise ValueError("pool depth must be at least 1")
    # Always "first": the pool shows one copy of each group. Under "keep" the top
    # `depth` rows hold no group that the collapsed top `depth` lacks (collapsing only
    # moves rows up), so this pool covers what every measure at K <= depth reads.
    ranked = ranked_runs_sql(ties, "first", depth)
    with db.transaction() as cur:
        cur.execute("CREATE OR REPLACE TEMP TABLE old_pool AS SELECT * FROM pool")
        cur.execute("DELETE FROM pool")
        cur.execute(f"INSERT INTO pool SELECT DISTINCT qid, dkey FROM ({ranked})")
        cur.execute("INSERT OR REPLACE INTO settings VALUES ('pool_depth', ?)", [str(depth)])
        # Lets readers cache what a pool shows until it is rebuilt.
        cur.execute("""INSERT OR REPLACE INTO settings
                       SELECT 'pool_version', CAST(coalesce(max(CAST(value AS BIGINT)), 0) + 1 AS VARCHAR)
                       FROM settings WHERE key = 'pool_version'""")
        row = cur.execute("""
            SELECT (SELECT count(*) FROM pool), (SELECT count(*) FROM old_pool),
                   (SELECT count(*) FROM pool p ANTI JOIN old_pool o USING (qid, pid)),
                   (SELECT count(*) FROM old_pool o ANTI JOIN pool p USING (qid, pid)),
                   (SELECT count(*) FROM (SELECT qid, pid FROM old_pool o ANTI JOIN pool p USING (qid, pid)) r
                    WHERE EXISTS (SELECT 1 FROM current_judgments j WHERE j.qid = r.qid AND j.pid = r.pid))
            """).fetchall()[0]
        cur.execute("DROP TABLE old_pool")
        return PoolChange(*row)


def import_count(db: Database) -> int:
    return db.cursor().execute("SELECT count(*) FROM import_log").fetchall()[0][0]


def pool_version(db: Database) -> int:
    rows = db.cursor().execute("SELECT value FROM settings WHERE key = 'pool_version'").fetchall()
    return int(rows[0][0]) if rows else 0


def counts(db: Database) -> dict[str, int]:
    cur = db.cursor()
    row = cur.execute("""
        SELECT (SELECT count(*) FROM paragraphs), (SELECT count(*) FROM questions),
               (SELECT count(*) FROM runs), (SELECT count(*) FROM pool),
               (SELECT count(*) FROM users), (SELECT count(*) FROM judgment_events)""").fetchone()
    return dict(zip(["paragraphs", "questions", "systems", "pool", "users", "judgment_events"], row))


def list_runs(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""
        SELECT r.system, r.source_file, r.n_rows, r.imported_at,
               (SELECT count(DISTINCT qid) FROM run_entries e WHERE e.system = r.system) AS questions,
               (SELECT count(*) FROM run_abstentions a WHERE a.system = r.system) AS abstained
        FROM runs r ORDER BY r.system""")
        .df()
    )
