"""SQL for answer review: imported answers (versioned), review events, the review queue,
review state per reviewer or source, adjudications, review assignments."""

from __future__ import annotations

import pandas as pd

from reljudge.codes import Codes
from reljudge.errors import InputError, ReljudgeError
from reljudge.policy import Policy
from reljudge.storage import aggregation, event_batches, team
from reljudge.storage.database import Database, in_list, registered

CODES = Codes(
    answers_unknown_qid=("qid",),
    answers_unknown_pid=("pid",),
    answers_system_exists=("system", "version"),
    review_unknown_source=("source",),
)
"""Problems of an answer import and of reading a review source (worded in reljudge.i18n)."""

KINDS = ("support", "needs_citation", "interpretation", "abstention", "note")
STALE = event_batches.STALE

# True when question {qid}'s answers are in {user}'s review queue: every question while
# no review assignment exists, and for a lead with no review assignment of their own;
# otherwise only the user's active review assignments (the rule of judging's queue).
_IN_QUEUE = """(NOT EXISTS (SELECT 1 FROM review_assignments WHERE active)
    OR EXISTS (SELECT 1 FROM review_assignments ra WHERE ra.active AND ra.qid = {qid} AND ra.username = {user})
    OR (EXISTS (SELECT 1 FROM users u WHERE u.username = {user} AND u.role = 'lead')
        AND NOT EXISTS (SELECT 1 FROM review_assignments ra WHERE ra.active AND ra.username = {user})))"""


# -- import -------------------------------------------------------------------------


def import_answers(db: Database, records, source: str, replace: bool = False) -> dict[str, int]:
    """Store imported answers (importers.AnswerRecord) as a new version of each system
    they name, all or nothing; returns {system: version}. Unknown qids and pids are
    errors naming the line; a system that has answers already needs ``replace`` (its
    older versions and their reviews are kept)."""
    answers = pd.DataFrame(
        [(r.line, r.qid, r.system, r.answer, r.abstained) for r in records],
        columns=["line", "qid", "system", "answer", "abstained"],
    )
    sentences = pd.DataFrame(
        [(r.line, i, text) for r in records for i, (text, _) in enumerate(r.sentences)], columns=["line", "idx", "text"]
    )
    cites = pd.DataFrame(
        [(r.line, i, pid, o) for r in records for i, (_, pids) in enumerate(r.sentences) for o, pid in enumerate(pids)],
        columns=["line", "idx", "pid", "ord"],
    )
    sentences["idx"] = sentences["idx"].astype("int64")
    cites = cites.astype({"idx": "int64", "ord": "int64"})
    with (
        db.transaction() as cur,
        registered(cur, "_a", answers),
        registered(cur, "_s", sentences),
        registered(cur, "_c", cites),
    ):
        bad = cur.execute("""SELECT line, qid FROM _a WHERE qid NOT IN (SELECT qid FROM questions)
                             ORDER BY line LIMIT 1""").fetchall()
        if bad:
            raise InputError(source, int(bad[0][0]), CODES("answers_unknown_qid", qid=bad[0][1]))
        bad = cur.execute("""SELECT line, pid FROM _c WHERE pid NOT IN (SELECT pid FROM paragraphs)
                             ORDER BY line, idx, ord LIMIT 1""").fetchall()
        if bad:
            raise InputError(source, int(bad[0][0]), CODES("answers_unknown_pid", pid=bad[0][1]))
        have = cur.execute("""SELECT system, max(version) FROM answer_imports
                              WHERE system IN (SELECT system FROM _a) GROUP BY system ORDER BY system""").fetchall()
        if have and not replace:
            system, version = have[0]
            raise InputError(source, None, CODES("answers_system_exists", system=system, version=version))
        cur.execute("""CREATE OR REPLACE TEMP TABLE _versions AS
                       SELECT s.system, coalesce(max(i.version), 0) + 1 AS version, count(DISTINCT s.line) AS n
                       FROM (SELECT system, line FROM _a) s LEFT JOIN answer_imports i USING (system)
                       GROUP BY s.system""")
        cur.execute(
            """INSERT INTO answer_imports(system, version, source_file, n_answers)
                       SELECT system, version, ?, (SELECT count(*) FROM _a WHERE _a.system = v.system)
                       FROM _versions v""",
            [source],
        )
        cur.execute("""INSERT INTO answers(system, version, qid, answer, abstained)
                       SELECT a.system, v.version, a.qid, a.answer, a.abstained
                       FROM _a a JOIN _versions v USING (system) ORDER BY a.line""")
        cur.execute("""CREATE OR REPLACE TEMP TABLE _ids AS
                       SELECT a.line, x.answer_id FROM _a a JOIN _versions v USING (system)
                       JOIN answers x ON x.system = a.system AND x.version = v.version AND x.qid = a.qid""")
        cur.execute("""INSERT INTO answer_sentences SELECT i.answer_id, s.idx, s.text
                       FROM _s s JOIN _ids i USING (line)""")
        cur.execute("""INSERT INTO answer_citations SELECT i.answer_id, c.idx, c.pid, c.ord
                       FROM _c c JOIN _ids i USING (line)""")
        result = dict(cur.execute("SELECT system, version FROM _versions ORDER BY system").fetchall())
        cur.execute(
            "INSERT INTO import_log(kind, source_file, n_rows, detail) VALUES ('answers', ?, ?, ?)",
            [source, len(answers), ",".join(f"{s}:v{v}" for s, v in result.items())],
        )
        for table in ("_versions", "_ids"):
            cur.execute(f"DROP TABLE {table}")
    return result


def answer_versions(db: Database) -> pd.DataFrame:
    """Every imported version per system (current = the highest)."""
    return (
        db.cursor()
        .execute("""
        SELECT system, version, source_file, n_answers, imported_at,
               version = max(version) OVER (PARTITION BY system) AS current
        FROM answer_imports ORDER BY system, version""")
        .df()
    )


def current_answer_tables(db: Database) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(answers, sentences, citations) of the current version of every system:
    answers: answer_id, system, qid, qtype, seq, abstained, no_answer_expected;
    sentences: answer_id, idx, text; citations: answer_id, idx, pid, canonical_pid, ord."""
    cur = db.cursor()
    answers = cur.execute("""
        SELECT a.answer_id, a.system, a.qid, q.qtype, q.seq, a.abstained, q.no_answer_expected
        FROM current_answers a JOIN questions q USING (qid) ORDER BY a.system, q.seq""").df()
    sentences = cur.execute("""
        SELECT s.answer_id, s.idx, s.text FROM answer_sentences s
        WHERE s.answer_id IN (SELECT answer_id FROM current_answers) ORDER BY 1, 2""").df()
    citations = cur.execute("""
        SELECT c.answer_id, c.idx, c.pid, coalesce(p.canonical_pid, c.pid) AS canonical_pid, c.ord
        FROM answer_citations c LEFT JOIN paragraphs p USING (pid)
        WHERE c.answer_id IN (SELECT answer_id FROM current_answers) ORDER BY 1, 2, 5""").df()
    return answers, sentences, citations


def answer_keys(db: Database) -> pd.DataFrame:
    """answer_id, qid, system of the current answers (for review files)."""
    return db.cursor().execute("SELECT answer_id, qid, system FROM current_answers").df()


# -- review events ------------------------------------------------------------------


def append_review_batches(
    db: Database, batches: list[tuple[str, list[dict], bool]]
) -> list[tuple[dict[str, int], dict[str, tuple[str, str | None]]]]:
    """Store several saves of review events in ONE transaction, with the result each
    would have had alone: per batch ({client id: stored event_id}, {refused id: (code,
    detail)}). Codes: ``unknown_answer``, ``superseded`` (the system's answers were
    re-imported: the answer is an older version), ``unknown_sentence`` (detail: the
    index), ``not_cited`` (detail: the paragraph: it is not a citation of that sentence),
    ``not_assigned``, ``held_back`` and ``stale`` as for judgment events. Resending a
    stored id is acknowledged, not stored twice (ids are per author, as for judgments)."""
    rows = [(b, u, r) for b, (u, events, _) in enumerate(batches) for r in events]
    results: list[tuple[dict, dict]] = [({}, {}) for _ in batches]
    if not rows:
        return results
    ids = [r["client_event_id"] for _, _, r in rows]
    answer_ids = sorted({int(r["answer_id"]) for _, _, r in rows})
    users = sorted({u for _, u, _ in rows})
    with db.transaction() as cur:
        info = {
            a: (cur_, qid)
            for a, cur_, qid in cur.execute(
                f"""
            SELECT a.answer_id, a.version = (SELECT max(version) FROM answer_imports i
                                             WHERE i.system = a.system), a.qid
            FROM answers a WHERE a.answer_id IN {in_list(answer_ids)}""",
                answer_ids,
            ).fetchall()
        }
        pairs = sorted({(u, info[int(r["answer_id"])][1]) for _, u, r in rows if int(r["answer_id"]) in info})
        queue = (
            {
                (u, q): ok
                for u, q, ok in cur.execute(
                    f"""
            SELECT b.username, b.qid, {_IN_QUEUE.format(user="b.username", qid="b.qid")}
            FROM (SELECT unnest(?::VARCHAR[]) AS username, unnest(?::VARCHAR[]) AS qid) b""",
                    [[u for u, _ in pairs], [q for _, q in pairs]],
                ).fetchall()
            }
            if pairs
            else {}
        )
        sentences = set(
            cur.execute(
                f"SELECT answer_id, idx FROM answer_sentences WHERE answer_id IN {in_list(answer_ids)}", answer_ids
            ).fetchall()
        )
        cited = set(
            cur.execute(
                f"SELECT answer_id, idx, pid FROM answer_citations WHERE answer_id IN {in_list(answer_ids)}", answer_ids
            ).fetchall()
        )
        stored_before = set(
            cur.execute(
                f"SELECT username, client_event_id FROM review_events WHERE client_event_id IN {in_list(ids)} "
                f"AND username IN {in_list(users)}",
                ids + users,
            ).fetchall()
        )
        latest = {}
        if any(r["base_event_id"] is not None for _, _, r in rows):
            latest = {
                (u, a, k, s, p): (eid, client)
                for u, a, k, s, p, eid, client in cur.execute(
                    f"""
                SELECT username, answer_id, kind, sentence, pid, max(event_id), arg_max_null(client_id, event_id)
                FROM review_events WHERE username IN {in_list(users)} AND answer_id IN {in_list(answer_ids)}
                GROUP BY ALL""",
                    users + answer_ids,
                ).fetchall()
            }
        problems: dict[int, dict[str, tuple[str, str | None]]] = {}
        for b, username, row in rows:
            a, s, p = int(row["answer_id"]), row["sentence"], row["pid"]
            if a not in info:
                problem = ("unknown_answer", None)
            elif not info[a][0]:
                problem = ("superseded", None)
            elif s is not None and (a, s) not in sentences:
                problem = ("unknown_sentence", str(s))
            elif p is not None and (a, s, p) not in cited:
                problem = ("not_cited", p)
            elif not queue.get((username, info[a][1])):
                problem = ("not_assigned", None)
            else:
                problem = None
            if problem:
                problems.setdefault(b, {})[row["client_event_id"]] = problem
        to_insert, results = event_batches.sort_out(
            batches,
            rows,
            problems,
            stored_before,
            latest,
            lambda username, row: (username, int(row["answer_id"]), row["kind"], row["sentence"], row["pid"]),
        )
        if to_insert:
            cur.execute(
                "INSERT INTO review_events(client_event_id, username, answer_id, kind, sentence, pid, grade, "
                "flag, note, time_spent_ms, client_id, base_event_id) VALUES "
                + ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in to_insert),
                [
                    v
                    for username, r in to_insert
                    for v in (
                        r["client_event_id"],
                        username,
                        int(r["answer_id"]),
                        r["kind"],
                        r["sentence"],
                        r["pid"],
                        r["grade"],
                        r["flag"],
                        r["note"],
                        r["time_spent_ms"],
                        r["client_id"],
                        r["base_event_id"],
                    )
                ],
            )
        eids = {
            (u, cid): eid
            for u, cid, eid in cur.execute(
                f"SELECT username, client_event_id, event_id FROM review_events "
                f"WHERE client_event_id IN {in_list(ids)} AND username IN {in_list(users)}",
                ids + users,
            ).fetchall()
        }
    return event_batches.acknowledge(rows, results, eids)


# -- the review queue and page --------------------------------------------------------


def review_queue(db: Database, username: str) -> pd.DataFrame:
    """The current answers in ``username``'s review queue: questions in campaign order,
    the answers of one question in a fixed per-reviewer random order (md5 of question,
    reviewer and system: blind, stable between visits and across re-imports). With the
    reviewer's progress: pairs (sentence × cited paragraph), supports given, whether
    the interpretation and the abstention judgment are given. No system name."""
    return (
        db.cursor()
        .execute(
            f"""
        WITH mine AS (SELECT * FROM current_reviews WHERE username = $user),
        pairs AS (SELECT answer_id, count(*) AS n FROM answer_citations GROUP BY answer_id),
        sents AS (SELECT answer_id, count(*) AS n FROM answer_sentences GROUP BY answer_id),
        done AS (SELECT m.answer_id, count(*) AS n FROM mine m JOIN answer_citations c
                   ON c.answer_id = m.answer_id AND c.idx = m.sentence AND c.pid = m.pid
                 WHERE m.kind = 'support' GROUP BY m.answer_id)
        SELECT a.answer_id, a.qid, q.text AS question, q.qtype, q.seq, a.abstained,
               q.no_answer_expected, coalesce(s.n, 0) AS n_sentences, coalesce(p.n, 0) AS n_pairs,
               coalesce(d.n, 0) AS n_supported,
               EXISTS (SELECT 1 FROM mine m WHERE m.answer_id = a.answer_id AND m.kind = 'interpretation') AS interpreted,
               EXISTS (SELECT 1 FROM mine m WHERE m.answer_id = a.answer_id AND m.kind = 'abstention') AS abstention_given
        FROM current_answers a JOIN questions q USING (qid)
        LEFT JOIN pairs p USING (answer_id) LEFT JOIN sents s USING (answer_id) LEFT JOIN done d USING (answer_id)
        CROSS JOIN (SELECT $user::VARCHAR AS username) me
        WHERE {_IN_QUEUE.format(user="me.username", qid="a.qid")}
        ORDER BY q.seq, md5(a.qid || chr(31) || me.username || chr(31) || a.system)""",
            {"user": username},
        )
        .df()
    )


def answer_view(db: Database, answer_id: int) -> tuple[tuple | None, pd.DataFrame, pd.DataFrame]:
    """(answer row: answer_id, qid, question, qtype, criteria, no_answer_expected, abstained;
    sentences: idx, text; citations: idx, ord, pid, canonical_pid, text, title, date, volume, page)."""
    cur = db.cursor()
    head = cur.execute(
        """
        SELECT a.answer_id, a.qid, q.text, q.qtype, q.criteria, q.no_answer_expected, a.abstained
        FROM answers a JOIN questions q USING (qid) WHERE a.answer_id = ?""",
        [answer_id],
    ).fetchall()
    sentences = cur.execute("SELECT idx, text FROM answer_sentences WHERE answer_id = ? ORDER BY idx", [answer_id]).df()
    citations = cur.execute(
        """
        SELECT c.idx, c.ord, c.pid, p.canonical_pid, p.text, p.title, p.date, p.volume, p.page
        FROM answer_citations c JOIN paragraphs p USING (pid) WHERE c.answer_id = ?
        ORDER BY c.idx, c.ord""",
        [answer_id],
    ).df()
    return (head[0] if head else None), sentences, citations


def my_reviews(db: Database, username: str, answer_id: int) -> pd.DataFrame:
    """The reviewer's latest event per item of one answer (cleared decisions included,
    with their event id: the base of the next edit)."""
    return (
        db.cursor()
        .execute(
            """
        SELECT kind, sentence, pid, arg_max_null(grade, event_id) AS grade,
               arg_max_null(flag, event_id) AS flag, arg_max_null(note, event_id) AS note,
               max(event_id) AS event_id
        FROM review_events WHERE username = ? AND answer_id = ? GROUP BY kind, sentence, pid""",
            [username, answer_id],
        )
        .df()
    )


def get_position(db: Database, username: str) -> int | None:
    rows = db.cursor().execute("SELECT answer_id FROM review_positions WHERE username = ?", [username]).fetchall()
    return int(rows[0][0]) if rows else None


def set_position(db: Database, username: str, answer_id: int) -> None:
    with db.transaction() as cur:
        cur.execute("INSERT OR REPLACE INTO review_positions(username, answer_id) VALUES (?, ?)", [username, answer_id])


def event_history(db: Database, answer_id: int) -> pd.DataFrame:
    """Every review event on an answer, oldest first (the audit trail)."""
    return (
        db.cursor()
        .execute(
            """
        SELECT event_id, username, kind, sentence, pid, grade, flag, note,
               round(time_spent_ms / 1000.0, 1) AS seconds_spent, created_at
        FROM review_events WHERE answer_id = ? ORDER BY event_id""",
            [answer_id],
        )
        .df()
    )


# -- review state, per reviewer ---------------------------------------------------------


def review_state(db: Database, policy: "str | Policy" = "adjudicated") -> pd.DataFrame:
    """Current decisions per rater: reviewer, answer_id, kind, sentence, pid, grade, flag,
    note. ``policy`` ``source:NAME`` reads an imported source (its reviewers prefixed
    ``source:NAME/``), ``reviewer:NAME`` one reviewer of the team; otherwise the team."""
    cur = db.cursor()
    policy = Policy.parse(policy)
    if policy.kind == "source":
        name = policy.name
        if not cur.execute("SELECT count(*) FROM external_reviews WHERE source = ?", [name]).fetchall()[0][0]:
            raise ReljudgeError(CODES("review_unknown_source", source=name))
        return cur.execute(
            """
            SELECT reviewer, answer_id, kind, sentence, pid, grade, flag, note
            FROM external_reviews WHERE source = ? ORDER BY line, kind, sentence, pid""",
            [name],
        ).df()
    cond, params = ("WHERE username = ?", [policy.name]) if policy.kind == "reviewer" else ("", [])
    return cur.execute(
        f"""
        SELECT username AS reviewer, answer_id, kind, sentence, pid, grade, flag, note
        FROM current_reviews {cond} ORDER BY username, answer_id, kind, sentence, pid""",
        params,
    ).df()


def current_review_adjudications(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""
        SELECT answer_id, kind, sentence, pid, grade, flag FROM (
            SELECT *, row_number() OVER (PARTITION BY answer_id, kind, sentence, pid
                                         ORDER BY adjudication_id DESC) AS rn
            FROM review_adjudications) WHERE rn = 1""")
        .df()
    )


def review_disagreements(db: Database, kinds: tuple[str, ...]) -> pd.DataFrame:
    """The items of the current answers' reviews of ``kinds`` on which reviewers' current
    grades differ (the rule of :func:`reljudge.storage.aggregation.disagreements_sql`):
    answer_id, qid, qtype, seq, kind, sentence (-1 for none), pid ('' for none), grades
    (sorted), lo, hi, spread, n_reviewers, ruling (the ruling that settles the item, or
    NULL), is_open; unordered."""
    key = ["answer_id", "kind", "sentence", "pid"]
    item = "answer_id, kind, coalesce(sentence, -1) AS sentence, coalesce(pid, '') AS pid, grade AS v, created_at AS rated_at"
    disputed = aggregation.disagreements_sql(
        f"SELECT {item} FROM current_reviews WHERE grade IS NOT NULL AND list_contains(?::VARCHAR[], kind)",
        key,
        f"""SELECT {item} FROM (
                SELECT *, row_number() OVER (PARTITION BY answer_id, kind, sentence, pid
                                             ORDER BY adjudication_id DESC) AS rn
                FROM review_adjudications) WHERE rn = 1""",
        ", list(v ORDER BY v) AS grades",
    )
    return (
        db.cursor()
        .execute(
            f"""
        SELECT d.answer_id, a.qid, q.qtype, q.seq, d.kind, d.sentence, d.pid, d.grades, d.lo, d.hi, d.spread,
               d.n AS n_reviewers, d.ruling, d.is_open
        FROM ({disputed}) d JOIN current_answers a USING (answer_id) JOIN questions q USING (qid)""",
            [list(kinds)],
        )
        .df()
    )


def insert_review_adjudication(
    db: Database, lead: str, answer_id: int, kind: str, sentence, pid, grade, flag, reason: str
) -> None:
    with db.transaction() as cur:
        cur.execute(
            """INSERT INTO review_adjudications(answer_id, kind, sentence, pid, grade, flag, reason, lead)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            [answer_id, kind, sentence, pid, grade, flag, reason, lead],
        )


def review_adjudication_history(db: Database) -> pd.DataFrame:
    return db.cursor().execute("SELECT * FROM review_adjudications ORDER BY adjudication_id").df()


def replace_external_reviews(db: Database, source: str, rows: pd.DataFrame, file: str) -> int:
    """Replace review source ``source`` with ``rows`` (line, reviewer, answer_id, kind,
    sentence, pid, grade, flag, note); all or nothing."""
    with db.transaction() as cur, registered(cur, "_r", rows):
        cur.execute("DELETE FROM external_reviews WHERE source = ?", [source])
        cur.execute(
            """INSERT INTO external_reviews(source, reviewer, answer_id, kind, sentence, pid, grade,
                                                    flag, note, line)
                       SELECT ?, reviewer, answer_id, kind, sentence, pid, grade, flag, note, line FROM _r""",
            [source],
        )
        cur.execute(
            "INSERT INTO import_log(kind, source_file, n_rows, detail) VALUES ('reviews', ?, ?, ?)",
            [file, len(rows), source],
        )
        return cur.execute(
            "SELECT count(DISTINCT (reviewer, answer_id)) FROM external_reviews WHERE source = ?", [source]
        ).fetchall()[0][0]


def review_sources(db: Database) -> list[str]:
    return [
        r[0] for r in db.cursor().execute("SELECT DISTINCT source FROM external_reviews ORDER BY source").fetchall()
    ]


# -- review assignments ----------------------------------------------------------------


def questions_for_review(db: Database) -> pd.DataFrame:
    """Questions that have current answers, with the work their review costs
    (``pool_size``: answers plus sentence × citation pairs) — the frame the
    assignment planner balances."""
    return (
        db.cursor()
        .execute("""
        SELECT q.qid, q.qtype, q.seq, count(DISTINCT a.answer_id) + count(c.pid) AS pool_size
        FROM current_answers a JOIN questions q USING (qid)
        LEFT JOIN answer_citations c USING (answer_id)
        GROUP BY q.qid, q.qtype, q.seq ORDER BY q.seq""")
        .df()
    )


def started_reviews(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""
        SELECT a.qid, r.username, count(*) AS n FROM current_reviews r
        JOIN current_answers a USING (answer_id) JOIN users u ON u.username = r.username
        WHERE u.role = 'annotator' GROUP BY ALL ORDER BY 1, 3 DESC, 2""")
        .df()
    )


def replace_review_assignments(db: Database, rows: pd.DataFrame, by: str) -> None:
    with db.transaction() as cur:
        cur.execute("UPDATE review_assignments SET active = FALSE, ended_at = current_timestamp WHERE active")
        team.activate(cur, rows, by, table="review_assignments")


def active_review_assignments(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""
        SELECT a.qid, a.username, q.qtype FROM review_assignments a JOIN questions q USING (qid)
        WHERE a.active ORDER BY q.seq, a.username""")
        .df()
    )


def relevance_grades(db: Database, qid: str, pids: list[str], policy: str = "adjudicated") -> dict[str, int]:
    """The aggregated relevance grade (the qrels policy, keyed by duplicate group) of some
    paragraphs of a question, for those judged."""
    from reljudge.storage.team import excluded_annotators, qrels_sql

    cur = db.cursor()
    sql, params = qrels_sql(policy, None, excluded_annotators(cur, policy))
    return {
        p: int(g)
        for p, g in cur.execute(
            f"""
        WITH agg AS ({sql})
        SELECT w.pid, agg.grade FROM (SELECT unnest(?::VARCHAR[]) AS pid) w
        JOIN paragraphs p USING (pid) JOIN agg ON agg.qid = ? AND agg.pid = p.canonical_pid""",
            [*params, list(pids), qid],
        ).fetchall()
    }
