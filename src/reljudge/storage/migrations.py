"""Named, ordered schema migrations. Never edit a shipped step: add a new one.

Human judgments (``judgment_events``) and machine output (``run_entries``) live in
separate tables; invariants are database constraints.

The same steps, with the same numbers, build a PostgreSQL database
(:mod:`reljudge.storage.postgres`): CREATE/ALTER statements are translated to PostgreSQL's
dialect and sent natively (TINYINT → SMALLINT, DOUBLE → DOUBLE PRECISION, time-stamp
defaults in UTC, a default-filling trigger per table), CREATE VIEW stays a DuckDB view
made in the process over the attached tables, and INSERT/UPDATE run as DuckDB SQL over the
attachment. A new step must work both ways: keep ';' and '--' out of string literals
(statements are split on it), and run the storage tests (they cover both backends).

The steps' DDL is read in one place, the end of this module: :func:`statements` splits a
step, :func:`created_table` reads a CREATE TABLE's columns (type, NOT NULL, default) and
:func:`set_default` an ALTER COLUMN ... SET DEFAULT — for the PostgreSQL backend's
default-filling triggers and the copy's sequences alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A shipped step is frozen byte for byte, its SQL comments included
# (tests/test_migrations_shipped.py): a database's recorded digest must keep matching. So the
# comments of steps 15-17 still cite README sections by their names from before the README was
# cut down; those sections now live at docs/quality-control.md#품질-관리--quality-control,
# docs/org-login.md#조직-계정-로그인--organisation-login and
# docs/team-server.md#여러-캠페인--several-campaigns.
MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "initial_schema",
        r"""
CREATE TABLE settings(
    key   VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);

CREATE TABLE users(
    username      VARCHAR PRIMARY KEY CHECK (length(username) BETWEEN 1 AND 64),
    password_hash VARCHAR NOT NULL,
    role          VARCHAR NOT NULL CHECK (role IN ('annotator', 'lead')),
    active        BOOLEAN NOT NULL DEFAULT TRUE,
    created_at    TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Login sessions survive a browser reload through a cookie; only the token's
-- SHA-256 is stored.
CREATE TABLE sessions(
    token_hash VARCHAR PRIMARY KEY,
    username   VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    expires_at TIMESTAMP NOT NULL
);

CREATE SEQUENCE paragraph_seq;
CREATE TABLE paragraphs(
    pid           VARCHAR PRIMARY KEY CHECK (length(pid) > 0),
    doc_id        VARCHAR,
    title         VARCHAR,
    date          VARCHAR,
    volume        VARCHAR,
    page          VARCHAR,
    position      BIGINT,          -- order inside its document (neighbours)
    text          VARCHAR NOT NULL,
    text_key      VARCHAR NOT NULL, -- md5 of the normalised text
    canonical_pid VARCHAR NOT NULL, -- first paragraph with the same text_key
    metadata      JSON,
    seq           BIGINT NOT NULL DEFAULT nextval('paragraph_seq')
);

CREATE SEQUENCE question_seq;
CREATE TABLE questions(
    qid                VARCHAR PRIMARY KEY CHECK (length(qid) > 0),
    text               VARCHAR NOT NULL,
    qtype              VARCHAR NOT NULL DEFAULT '',
    criteria           VARCHAR NOT NULL DEFAULT '',
    no_answer_expected BOOLEAN NOT NULL DEFAULT FALSE,
    seq                BIGINT NOT NULL DEFAULT nextval('question_seq')
);

CREATE TABLE runs(
    system      VARCHAR PRIMARY KEY CHECK (length(system) > 0),
    source_file VARCHAR,
    n_rows      BIGINT NOT NULL,
    imported_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE run_entries(
    system VARCHAR NOT NULL,
    qid    VARCHAR NOT NULL,
    pid    VARCHAR NOT NULL,
    rank   BIGINT,
    score  DOUBLE,
    CHECK (rank IS NOT NULL OR score IS NOT NULL),
    PRIMARY KEY (system, qid, pid)
);

CREATE TABLE run_abstentions(
    system VARCHAR NOT NULL,
    qid    VARCHAR NOT NULL,
    PRIMARY KEY (system, qid)
);

-- The pool holds canonical paragraph ids only: one item per duplicate group.
CREATE TABLE pool(
    qid VARCHAR NOT NULL,
    pid VARCHAR NOT NULL,
    PRIMARY KEY (qid, pid)
);

-- Append-only: a judgment is never updated or deleted; the current state of
-- (annotator, question, paragraph) is its latest event. pid NULL = a
-- question-level verdict ("no answer in these results").
CREATE SEQUENCE judgment_event_seq;
CREATE TABLE judgment_events(
    event_id        BIGINT PRIMARY KEY DEFAULT nextval('judgment_event_seq'),
    client_event_id VARCHAR NOT NULL UNIQUE,
    username        VARCHAR NOT NULL,
    qid             VARCHAR NOT NULL,
    pid             VARCHAR,
    grade           TINYINT CHECK (grade IN (0, 1, 2)),
    no_answer       BOOLEAN,
    note            VARCHAR,
    evidence        VARCHAR,
    time_spent_ms   BIGINT CHECK (time_spent_ms >= 0),
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp,
    CHECK ((pid IS NULL AND grade IS NULL AND no_answer IS NOT NULL)
           OR (pid IS NOT NULL AND no_answer IS NULL)),
    CHECK (evidence IS NULL OR grade = 2)
);

CREATE TABLE user_positions(
    username   VARCHAR PRIMARY KEY,
    qid        VARCHAR NOT NULL,
    updated_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE SEQUENCE import_seq;
CREATE TABLE import_log(
    import_id   BIGINT PRIMARY KEY DEFAULT nextval('import_seq'),
    kind        VARCHAR NOT NULL,
    source_file VARCHAR NOT NULL,
    n_rows      BIGINT NOT NULL,
    detail      VARCHAR,
    imported_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE VIEW latest_paragraph_events AS
SELECT * EXCLUDE (rn) FROM (
    SELECT *, row_number() OVER (PARTITION BY username, qid, pid ORDER BY event_id DESC) AS rn
    FROM judgment_events WHERE pid IS NOT NULL
) WHERE rn = 1;

-- Current grade per (annotator, question, paragraph); a cleared grade is absent.
CREATE VIEW current_judgments AS
SELECT username, qid, pid, grade, note, evidence, time_spent_ms, created_at, event_id
FROM latest_paragraph_events WHERE grade IS NOT NULL;

CREATE VIEW current_verdicts AS
SELECT * EXCLUDE (rn) FROM (
    SELECT username, qid, no_answer, note, created_at, event_id,
           row_number() OVER (PARTITION BY username, qid ORDER BY event_id DESC) AS rn
    FROM judgment_events WHERE pid IS NULL
) WHERE rn = 1;
""",
    ),
    (
        2,
        "team_assignments_adjudication_qrels_versions",
        r"""
-- Who judges which question. Reassignment deactivates a row and adds another;
-- nothing is deleted.
CREATE TABLE assignments(
    qid         VARCHAR NOT NULL,
    username    VARCHAR NOT NULL,
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    assigned_by VARCHAR,
    assigned_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    ended_at    TIMESTAMP,
    PRIMARY KEY (qid, username)
);

-- A lead's final word on a paragraph (grade) or a question (no_answer); append-only,
-- the latest row per (qid, pid) counts.
CREATE SEQUENCE adjudication_seq;
CREATE TABLE adjudications(
    adjudication_id BIGINT PRIMARY KEY DEFAULT nextval('adjudication_seq'),
    qid        VARCHAR NOT NULL,
    pid        VARCHAR,
    grade      TINYINT CHECK (grade IN (0, 1, 2)),
    no_answer  BOOLEAN,
    reason     VARCHAR NOT NULL CHECK (length(trim(reason)) > 0),
    lead       VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    CHECK ((pid IS NULL AND grade IS NULL AND no_answer IS NOT NULL)
           OR (pid IS NOT NULL AND grade IS NOT NULL AND no_answer IS NULL))
);

CREATE VIEW current_adjudications AS
SELECT * EXCLUDE (rn) FROM (
    SELECT *, row_number() OVER (PARTITION BY qid, pid ORDER BY adjudication_id DESC) AS rn
    FROM adjudications
) WHERE rn = 1;

-- Frozen, numbered qrels: the aggregated judgments at one moment, with provenance per row.
CREATE TABLE qrels_versions(
    version    INTEGER PRIMARY KEY,
    created_by VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    policy     VARCHAR NOT NULL,
    note       VARCHAR
);
CREATE TABLE qrels_version_rows(
    version      INTEGER NOT NULL,
    qid          VARCHAR NOT NULL,
    pid          VARCHAR NOT NULL,
    grade        TINYINT NOT NULL CHECK (grade IN (0, 1, 2)),
    provenance   VARCHAR NOT NULL CHECK (provenance IN
                   ('unanimous', 'majority', 'adjudicated', 'single', 'tie')),
    n_annotators INTEGER NOT NULL,
    PRIMARY KEY (version, qid, pid)
);
CREATE TABLE qrels_version_verdicts(
    version      INTEGER NOT NULL,
    qid          VARCHAR NOT NULL,
    no_answer    BOOLEAN NOT NULL,
    provenance   VARCHAR NOT NULL,
    n_annotators INTEGER NOT NULL,
    PRIMARY KEY (version, qid)
);
""",
    ),
    (
        3,
        "external_qrels_sources",
        r"""
-- Judgments made elsewhere (TREC/BEIR qrels), kept apart from the team's own events
-- under a source name, for agreement and for metrics.
CREATE TABLE external_qrels(
    source      VARCHAR NOT NULL CHECK (length(source) > 0),
    qid         VARCHAR NOT NULL,
    pid         VARCHAR NOT NULL,
    grade       TINYINT NOT NULL CHECK (grade IN (0, 1, 2)),
    imported_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (source, qid, pid)
);
""",
    ),
    (
        4,
        "judgment_event_client",
        r"""
-- Which browser made an event and which stored state it had seen: an edit made offline
-- long ago must not replace a newer judgment made elsewhere.
ALTER TABLE judgment_events ADD COLUMN client_id VARCHAR;
ALTER TABLE judgment_events ADD COLUMN base_event_id BIGINT;
""",
    ),
    (
        5,
        "effective_verdicts",
        r"""
-- The question-level verdict of every annotator who worked on a question: "no answer"
-- only where they said so (N); anyone who graded a paragraph and did not say so holds
-- that the question has an answer. Agreement, the disagreement queue and the majority
-- rule read this view, so a silent annotator is not left out of the count.
CREATE VIEW effective_verdicts AS
WITH touched AS (
    SELECT username, qid, max(created_at) AS created_at FROM current_judgments GROUP BY ALL)
SELECT coalesce(v.username, t.username) AS username, coalesce(v.qid, t.qid) AS qid,
       coalesce(v.no_answer, FALSE) AS no_answer, v.note,
       coalesce(greatest(v.created_at, t.created_at), v.created_at, t.created_at) AS created_at
FROM current_verdicts v FULL JOIN touched t ON t.username = v.username AND t.qid = v.qid;
""",
    ),
    (
        6,
        "login_throttling",
        r"""
-- Every login attempt (never the password): wrong passwords in a row slow an account
-- down and then lock it; many failures from one address slow that address down.
CREATE SEQUENCE login_event_seq;
CREATE TABLE login_events(
    event_id   BIGINT PRIMARY KEY DEFAULT nextval('login_event_seq'),
    username   VARCHAR NOT NULL,
    address    VARCHAR,
    ok         BOOLEAN NOT NULL,
    attempted_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
-- A lock stays until a lead lifts it (unlocked_at, unlocked_by); lifted locks are kept.
CREATE TABLE account_locks(
    username    VARCHAR NOT NULL,
    locked_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    unlocked_at TIMESTAMP,
    unlocked_by VARCHAR
);
""",
    ),
    (
        7,
        "tie_rule_version",
        r"""
-- The tie rule now names its trec_eval version: 'trec10' (scores compared as double,
-- trec_eval 10.0, the new default) or 'trec9' (float32, trec_eval 9.x). A campaign
-- that already holds runs or a pool was ranked with the float32 rule, stored as
-- 'trec' or left at the default of the time: pin it to 'trec9' so that its pool,
-- question detail, adjudication queue and metrics keep their order. An empty
-- database takes the new default.
INSERT OR REPLACE INTO settings
SELECT 'ties', 'trec9'
WHERE coalesce((SELECT value FROM settings WHERE key = 'ties'), 'trec') = 'trec'
  AND (EXISTS (SELECT 1 FROM run_entries) OR EXISTS (SELECT 1 FROM pool));
UPDATE settings SET value = 'trec9' WHERE key = 'ties' AND value = 'trec';
""",
    ),
    (
        8,
        "answer_review",
        r"""
-- Generated answers (machine output), versioned per system: re-importing a system's
-- answers adds version N+1 and keeps every older version with its reviews. The
-- current answers of a system are those of its highest version.
CREATE TABLE answer_imports(
    system      VARCHAR NOT NULL CHECK (length(system) > 0),
    version     INTEGER NOT NULL CHECK (version >= 1),
    source_file VARCHAR,
    n_answers   BIGINT NOT NULL,
    imported_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (system, version)
);
CREATE SEQUENCE answer_seq;
CREATE TABLE answers(
    answer_id BIGINT PRIMARY KEY DEFAULT nextval('answer_seq'),
    system    VARCHAR NOT NULL,
    version   INTEGER NOT NULL,
    qid       VARCHAR NOT NULL,
    answer    VARCHAR NOT NULL,          -- as imported, markers included
    abstained BOOLEAN NOT NULL,
    UNIQUE (system, version, qid)
);
-- The answer's sentences as stored at import (index from 0), markers removed.
CREATE TABLE answer_sentences(
    answer_id BIGINT NOT NULL,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    text      VARCHAR NOT NULL,
    PRIMARY KEY (answer_id, idx)
);
-- The paragraphs each sentence cites, in the order written.
CREATE TABLE answer_citations(
    answer_id BIGINT NOT NULL,
    idx       INTEGER NOT NULL,
    pid       VARCHAR NOT NULL,
    ord       INTEGER NOT NULL,
    PRIMARY KEY (answer_id, idx, pid)
);
CREATE VIEW current_answers AS
SELECT a.* FROM answers a
JOIN (SELECT system, max(version) AS version FROM answer_imports GROUP BY system) v
  USING (system, version);

-- Append-only review decisions; the latest event per (reviewer, answer, kind,
-- sentence, pid) counts. kind: support (grade of one cited paragraph for one
-- sentence), needs_citation (flag, per sentence), interpretation (grade, per answer),
-- abstention (flag: the abstention or the answer was appropriate), note (per answer).
-- grade / flag NULL clears the decision.
CREATE SEQUENCE review_event_seq;
CREATE TABLE review_events(
    event_id        BIGINT PRIMARY KEY DEFAULT nextval('review_event_seq'),
    client_event_id VARCHAR NOT NULL UNIQUE,
    username        VARCHAR NOT NULL,
    answer_id       BIGINT NOT NULL,
    kind            VARCHAR NOT NULL CHECK (kind IN
                      ('support', 'needs_citation', 'interpretation', 'abstention', 'note')),
    sentence        INTEGER,
    pid             VARCHAR,
    grade           TINYINT CHECK (grade IN (0, 1, 2)),
    flag            BOOLEAN,
    note            VARCHAR,
    time_spent_ms   BIGINT CHECK (time_spent_ms >= 0),
    client_id       VARCHAR,
    base_event_id   BIGINT,
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp,
    CHECK ((kind = 'support' AND sentence IS NOT NULL AND pid IS NOT NULL AND flag IS NULL)
        OR (kind = 'needs_citation' AND sentence IS NOT NULL AND pid IS NULL AND grade IS NULL)
        OR (kind = 'interpretation' AND sentence IS NULL AND pid IS NULL AND flag IS NULL)
        OR (kind = 'abstention' AND sentence IS NULL AND pid IS NULL AND grade IS NULL)
        OR (kind = 'note' AND sentence IS NULL AND pid IS NULL AND grade IS NULL AND flag IS NULL))
);
CREATE VIEW current_reviews AS
SELECT * EXCLUDE (rn) FROM (
    SELECT *, row_number() OVER (PARTITION BY username, answer_id, kind, sentence, pid
                                 ORDER BY event_id DESC) AS rn
    FROM review_events
) WHERE rn = 1 AND (grade IS NOT NULL OR flag IS NOT NULL OR (kind = 'note' AND note IS NOT NULL));

-- Which questions' answers a reviewer reviews (same shape and rule as assignments).
CREATE TABLE review_assignments(
    qid         VARCHAR NOT NULL,
    username    VARCHAR NOT NULL,
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    assigned_by VARCHAR,
    assigned_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    ended_at    TIMESTAMP,
    PRIMARY KEY (qid, username)
);
CREATE TABLE review_positions(
    username   VARCHAR PRIMARY KEY,
    answer_id  BIGINT NOT NULL,
    updated_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- A lead's final word on a review item; append-only, the latest row per item counts.
CREATE SEQUENCE review_adjudication_seq;
CREATE TABLE review_adjudications(
    adjudication_id BIGINT PRIMARY KEY DEFAULT nextval('review_adjudication_seq'),
    answer_id  BIGINT NOT NULL,
    kind       VARCHAR NOT NULL CHECK (kind IN ('support', 'needs_citation', 'interpretation', 'abstention')),
    sentence   INTEGER,
    pid        VARCHAR,
    grade      TINYINT CHECK (grade IN (0, 1, 2)),
    flag       BOOLEAN,
    reason     VARCHAR NOT NULL CHECK (length(trim(reason)) > 0),
    lead       VARCHAR NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    CHECK ((grade IS NULL) <> (flag IS NULL))
);

-- Reviews made elsewhere (another team, an LLM judge), kept under a source name, one
-- row per decision as in the review JSONL (reviewer × answer).
CREATE TABLE external_reviews(
    source    VARCHAR NOT NULL CHECK (length(source) > 0),
    reviewer  VARCHAR NOT NULL,
    answer_id BIGINT NOT NULL,
    kind      VARCHAR NOT NULL CHECK (kind IN
                ('support', 'needs_citation', 'interpretation', 'abstention', 'note')),
    sentence  INTEGER,
    pid       VARCHAR,
    grade     TINYINT CHECK (grade IN (0, 1, 2)),
    flag      BOOLEAN,
    note      VARCHAR,
    line      BIGINT,
    imported_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
""",
    ),
    (
        9,
        "question_and_run_versions",
        r"""
-- Every wording a question has had: a question changed after judging started keeps its
-- earlier versions, so the audit and the report can tell which wording was judged. A
-- version is in force from valid_from until the next version's valid_from.
CREATE TABLE question_versions(
    qid                VARCHAR NOT NULL,
    version            INTEGER NOT NULL CHECK (version >= 1),
    text               VARCHAR NOT NULL,
    qtype              VARCHAR NOT NULL,
    criteria           VARCHAR NOT NULL,
    no_answer_expected BOOLEAN NOT NULL,
    source_file        VARCHAR,
    valid_from         TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (qid, version)
);
-- Questions imported before this step: their present wording is version 1, in force
-- since the first questions import (or now, if none is logged).
INSERT INTO question_versions
SELECT qid, 1, text, qtype, criteria, no_answer_expected, NULL,
       coalesce((SELECT min(imported_at) FROM import_log WHERE kind = 'questions'), current_timestamp)
FROM questions;

-- A run replaced under its system name (import --replace) is kept here, whole.
CREATE TABLE run_versions(
    system      VARCHAR NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    source_file VARCHAR,
    n_rows      BIGINT NOT NULL,
    imported_at TIMESTAMP NOT NULL,
    replaced_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    replaced_by VARCHAR,               -- the file that replaced it
    PRIMARY KEY (system, version)
);
CREATE TABLE run_version_entries(
    system  VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    qid     VARCHAR NOT NULL,
    pid     VARCHAR NOT NULL,
    rank    BIGINT,
    score   DOUBLE,
    PRIMARY KEY (system, version, qid, pid)
);
CREATE TABLE run_version_abstentions(
    system  VARCHAR NOT NULL,
    version INTEGER NOT NULL,
    qid     VARCHAR NOT NULL,
    PRIMARY KEY (system, version, qid)
);
""",
    ),
    (
        10,
        "timestamps_in_utc",
        r"""
-- Time stamps are stored in UTC from now on (the connection's DuckDB time zone is set to
-- UTC after the migrations: reljudge.storage.db); pages and exports show them in the
-- campaign's zone (setting time_zone, reljudge.times). Rows stored before were written in
-- the server's local time: this step runs in that zone (the session's time zone is still
-- the process's local one) and moves them to UTC. On a server kept in UTC it changes
-- nothing; a database moved between servers in different zones is converted with the
-- zone of the server that opens it first.
UPDATE account_locks SET locked_at = timezone('UTC', locked_at::TIMESTAMPTZ), unlocked_at = timezone('UTC', unlocked_at::TIMESTAMPTZ);
UPDATE adjudications SET created_at = timezone('UTC', created_at::TIMESTAMPTZ);
UPDATE answer_imports SET imported_at = timezone('UTC', imported_at::TIMESTAMPTZ);
UPDATE assignments SET assigned_at = timezone('UTC', assigned_at::TIMESTAMPTZ), ended_at = timezone('UTC', ended_at::TIMESTAMPTZ);
UPDATE external_qrels SET imported_at = timezone('UTC', imported_at::TIMESTAMPTZ);
UPDATE external_reviews SET imported_at = timezone('UTC', imported_at::TIMESTAMPTZ);
UPDATE import_log SET imported_at = timezone('UTC', imported_at::TIMESTAMPTZ);
UPDATE judgment_events SET created_at = timezone('UTC', created_at::TIMESTAMPTZ);
UPDATE login_events SET attempted_at = timezone('UTC', attempted_at::TIMESTAMPTZ);
UPDATE qrels_versions SET created_at = timezone('UTC', created_at::TIMESTAMPTZ);
UPDATE review_adjudications SET created_at = timezone('UTC', created_at::TIMESTAMPTZ);
UPDATE review_assignments SET assigned_at = timezone('UTC', assigned_at::TIMESTAMPTZ), ended_at = timezone('UTC', ended_at::TIMESTAMPTZ);
UPDATE review_events SET created_at = timezone('UTC', created_at::TIMESTAMPTZ);
UPDATE review_positions SET updated_at = timezone('UTC', updated_at::TIMESTAMPTZ);
UPDATE runs SET imported_at = timezone('UTC', imported_at::TIMESTAMPTZ);
UPDATE schema_migrations SET applied_at = timezone('UTC', applied_at::TIMESTAMPTZ);
UPDATE sessions SET created_at = timezone('UTC', created_at::TIMESTAMPTZ), expires_at = timezone('UTC', expires_at::TIMESTAMPTZ);
UPDATE user_positions SET updated_at = timezone('UTC', updated_at::TIMESTAMPTZ);
UPDATE users SET created_at = timezone('UTC', created_at::TIMESTAMPTZ);
-- (the version tables of migration 9 too: they were filled in local time as well)
UPDATE question_versions SET valid_from = timezone('UTC', valid_from::TIMESTAMPTZ);
UPDATE run_versions SET imported_at = timezone('UTC', imported_at::TIMESTAMPTZ),
                        replaced_at = timezone('UTC', replaced_at::TIMESTAMPTZ);
""",
    ),
    (
        11,
        "postgres_lookup_indexes",
        r"""
-- PostgreSQL only: the statements of this step are in
-- reljudge.storage.postgres.NATIVE_STEPS. A save looks up the few events and pool rows it
-- touches with equality filters that DuckDB's postgres extension sends to the server with
-- COLLATE "C"; PostgreSQL uses an index for them only when the index has that collation.
-- The step gives every text column collation "C" (byte order, as DuckDB compares) and
-- adds an index on each event table's (annotator, item). On the DuckDB file nothing
-- changes: DuckDB compares bytes already, and its scans skip row groups by min/max.
""",
    ),
    (
        12,
        "event_ids_per_author",
        r"""
-- A client event id is unique per author, not across the team: an id that one annotator
-- used is another annotator's own new event when they send it (it was acknowledged with
-- the first annotator's event number, and nothing was stored). DuckDB cannot drop a
-- UNIQUE constraint, so each event table is built anew with the same columns, in the same
-- order, and the same event numbers (the sequence goes on), and its rows copied over. The
-- key is (client_event_id, username): a save looks its ids up by client_event_id.
-- PostgreSQL alters the constraint in place instead (reljudge.storage.postgres.NATIVE_STEPS).
ALTER TABLE judgment_events RENAME TO judgment_events_v11;
CREATE TABLE judgment_events(
    event_id        BIGINT PRIMARY KEY DEFAULT nextval('judgment_event_seq'),
    client_event_id VARCHAR NOT NULL,
    username        VARCHAR NOT NULL,
    qid             VARCHAR NOT NULL,
    pid             VARCHAR,
    grade           TINYINT CHECK (grade IN (0, 1, 2)),
    no_answer       BOOLEAN,
    note            VARCHAR,
    evidence        VARCHAR,
    time_spent_ms   BIGINT CHECK (time_spent_ms >= 0),
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp,
    client_id       VARCHAR,
    base_event_id   BIGINT,
    UNIQUE (client_event_id, username),
    CHECK ((pid IS NULL AND grade IS NULL AND no_answer IS NOT NULL)
           OR (pid IS NOT NULL AND no_answer IS NULL)),
    CHECK (evidence IS NULL OR grade = 2)
);
INSERT INTO judgment_events(event_id, client_event_id, username, qid, pid, grade, no_answer, note, evidence,
                            time_spent_ms, created_at, client_id, base_event_id)
SELECT event_id, client_event_id, username, qid, pid, grade, no_answer, note, evidence,
       time_spent_ms, created_at, client_id, base_event_id
FROM judgment_events_v11 ORDER BY event_id;
DROP TABLE judgment_events_v11;

ALTER TABLE review_events RENAME TO review_events_v11;
CREATE TABLE review_events(
    event_id        BIGINT PRIMARY KEY DEFAULT nextval('review_event_seq'),
    client_event_id VARCHAR NOT NULL,
    username        VARCHAR NOT NULL,
    answer_id       BIGINT NOT NULL,
    kind            VARCHAR NOT NULL CHECK (kind IN
                      ('support', 'needs_citation', 'interpretation', 'abstention', 'note')),
    sentence        INTEGER,
    pid             VARCHAR,
    grade           TINYINT CHECK (grade IN (0, 1, 2)),
    flag            BOOLEAN,
    note            VARCHAR,
    time_spent_ms   BIGINT CHECK (time_spent_ms >= 0),
    client_id       VARCHAR,
    base_event_id   BIGINT,
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp,
    UNIQUE (client_event_id, username),
    CHECK ((kind = 'support' AND sentence IS NOT NULL AND pid IS NOT NULL AND flag IS NULL)
        OR (kind = 'needs_citation' AND sentence IS NOT NULL AND pid IS NULL AND grade IS NULL)
        OR (kind = 'interpretation' AND sentence IS NULL AND pid IS NULL AND flag IS NULL)
        OR (kind = 'abstention' AND sentence IS NULL AND pid IS NULL AND grade IS NULL)
        OR (kind = 'note' AND sentence IS NULL AND pid IS NULL AND grade IS NULL AND flag IS NULL))
);
INSERT INTO review_events(event_id, client_event_id, username, answer_id, kind, sentence, pid, grade, flag,
                          note, time_spent_ms, client_id, base_event_id, created_at)
SELECT event_id, client_event_id, username, answer_id, kind, sentence, pid, grade, flag,
       note, time_spent_ms, client_id, base_event_id, created_at
FROM review_events_v11 ORDER BY event_id;
DROP TABLE review_events_v11;
""",
    ),
    (
        13,
        "question_types",
        r"""
-- The question types a campaign declares (reljudge.question_types): a questions import
-- with a type not declared is refused. Declared = the methodology's default types (in
-- reljudge.question_types, not here: a new database has no row) minus the rows with
-- declared FALSE (a default the lead withdrew) plus the rows with declared TRUE (types
-- the lead added, in seq order). One row per type the lead changed, the latest change.
CREATE SEQUENCE question_type_seq;
CREATE TABLE question_types(
    name       VARCHAR PRIMARY KEY CHECK (length(name) > 0),
    declared   BOOLEAN NOT NULL,
    changed_by VARCHAR,
    changed_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    seq        BIGINT NOT NULL DEFAULT nextval('question_type_seq')
);
-- A campaign made before this step keeps every type its questions use (declared by the
-- upgrade, changed_by NULL, in the order the questions came), so no question it holds
-- and no re-import of its files is refused.
INSERT INTO question_types(name, declared)
SELECT qtype, TRUE FROM questions WHERE qtype <> '' GROUP BY qtype ORDER BY min(seq);
""",
    ),
    (
        14,
        "model_judge_sources",
        r"""
-- A model judge (reljudge.judges) stores its grades in external_qrels under its source
-- name, like an imported qrels source. What made them is recorded here: the kind of judge
-- (e5, endpoint), the model and its version, the prompt (text and SHA-256), the settings
-- (thresholds and how they were calibrated, the endpoint address; never a key) and when.
CREATE TABLE judge_sources(
    source        VARCHAR PRIMARY KEY CHECK (length(source) > 0),
    kind          VARCHAR NOT NULL CHECK (kind IN ('e5', 'endpoint')),
    model         VARCHAR NOT NULL,
    model_version VARCHAR NOT NULL,
    prompt_text   VARCHAR NOT NULL,
    prompt_sha256 VARCHAR NOT NULL,
    settings      VARCHAR NOT NULL,
    created_at    TIMESTAMP NOT NULL DEFAULT current_timestamp,
    updated_at    TIMESTAMP NOT NULL DEFAULT current_timestamp
);
-- A pair the judge could not grade (an unparsable answer, a failed request): recorded,
-- not guessed, and tried again by the next run; a later grade removes the row.
CREATE TABLE judge_errors(
    source     VARCHAR NOT NULL,
    qid        VARCHAR NOT NULL,
    pid        VARCHAR NOT NULL,
    kind       VARCHAR NOT NULL,
    detail     VARCHAR NOT NULL,
    answer     VARCHAR,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (source, qid, pid)
);
""",
    ),
    (
        15,
        "quality_control",
        r"""
-- Quality control (README "품질 관리 / Quality control"). Gold items: (question, pooled
-- paragraph, grade) pairs a lead trusts; annotators judge them as any other paragraph
-- and their grades are scored against the gold grade. origin: 'import' (gold import),
-- 'adjudication' (a lead's "use as gold"), 'promoted' (unanimous annotators).
CREATE TABLE gold_items(
    qid      VARCHAR NOT NULL,
    pid      VARCHAR NOT NULL,
    grade    TINYINT NOT NULL CHECK (grade IN (0, 1, 2)),
    origin   VARCHAR NOT NULL CHECK (origin IN ('import', 'adjudication', 'promoted')),
    added_by VARCHAR,
    added_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (qid, pid)
);
-- Decoys (attention checks): a paragraph of another question's pool placed in one
-- annotator's queue for a question. Kept apart from the pool, and their grades apart
-- from judgment_events, so that no qrels, metric, agreement, adjudication, export of
-- qrels, pool size or progress count can see them. Expected grade 0.
CREATE TABLE decoy_placements(
    username  VARCHAR NOT NULL,
    qid       VARCHAR NOT NULL,
    pid       VARCHAR NOT NULL,
    rate      DOUBLE NOT NULL CHECK (rate > 0 AND rate <= 1),
    seed      BIGINT NOT NULL,
    placed_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (username, qid, pid)
);
-- Append-only grade events on decoys, shaped as judgment_events' paragraph events.
CREATE SEQUENCE decoy_event_seq;
CREATE TABLE decoy_events(
    event_id        BIGINT PRIMARY KEY DEFAULT nextval('decoy_event_seq'),
    client_event_id VARCHAR NOT NULL,
    username        VARCHAR NOT NULL,
    qid             VARCHAR NOT NULL,
    pid             VARCHAR NOT NULL,
    grade           TINYINT CHECK (grade IN (0, 1, 2)),
    note            VARCHAR,
    evidence        VARCHAR,
    time_spent_ms   BIGINT CHECK (time_spent_ms >= 0),
    client_id       VARCHAR,
    base_event_id   BIGINT,
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp,
    UNIQUE (client_event_id, username),
    CHECK (evidence IS NULL OR grade = 2)
);
""",
    ),
    (
        16,
        "organisation_login",
        r"""
-- Organisation login (README "조직 계정 로그인 / Organisation login"): an OpenID Connect
-- identity maps to an account by its verified e-mail (stored lower-case, one account each).
CREATE TABLE account_emails(
    email    VARCHAR PRIMARY KEY CHECK (length(email) BETWEEN 3 AND 254),
    username VARCHAR NOT NULL UNIQUE,
    set_by   VARCHAR,
    set_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);
-- A verified identity that matched no active account: refused, and kept here until a lead
-- activates it (an account with a role) or dismisses it.
CREATE TABLE identity_requests(
    email      VARCHAR PRIMARY KEY CHECK (length(email) BETWEEN 3 AND 254),
    name       VARCHAR,
    provider   VARCHAR,
    attempts   BIGINT NOT NULL DEFAULT 1,
    first_seen TIMESTAMP NOT NULL DEFAULT current_timestamp,
    last_seen  TIMESTAMP NOT NULL DEFAULT current_timestamp
);
""",
    ),
    (
        17,
        "campaigns",
        r"""
-- Several campaigns in one database (README "여러 캠페인 / Several campaigns"). The default
-- campaign is this schema; every other campaign is a schema of its own (campaign_NAME),
-- built by these same steps, registered here. Accounts (users, sessions, login_events,
-- account_locks) and these two tables live in the default schema only, shared by every
-- campaign. A role in a campaign other than the default is a row of campaign_roles (the
-- default campaign's role stays users.role): a lead of one may annotate in another.
CREATE TABLE campaigns(
    name       VARCHAR PRIMARY KEY CHECK (length(name) > 0),
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
CREATE TABLE campaign_roles(
    campaign VARCHAR NOT NULL,
    username VARCHAR NOT NULL,
    role     VARCHAR NOT NULL CHECK (role IN ('annotator', 'lead')),
    PRIMARY KEY (campaign, username)
);
""",
    ),
    (
        18,
        "accounts_outside_default",
        r"""
-- Accounts without a role in the default campaign: made in another campaign, or whose
-- default role a lead took back (users revoke). users.role cannot be empty, so the default
-- campaign reads the accounts without these (reljudge.storage.db: the default campaign's
-- view of users), as every other campaign reads only the accounts with a role in it.
CREATE TABLE accounts_outside_default(
    username VARCHAR PRIMARY KEY,
    since    TIMESTAMP NOT NULL DEFAULT current_timestamp
);
""",
    ),
    (
        19,
        "decoys_share_event_ids",
        r"""
-- A decoy's grade event takes its id from the judgment events' sequence (issue 34.6): from
-- its own sequence, a decoy's acknowledged id (1, 2, ...) told it apart from the ordinary
-- items' (30-67) in the reply to a save and in the page's items. The sequence is first
-- drawn past the decoy events' largest id, so that no new decoy event takes an old one's.
SELECT max(nextval('judgment_event_seq')) FROM range((SELECT coalesce(max(event_id), 0) FROM decoy_events));
ALTER TABLE decoy_events ALTER COLUMN event_id SET DEFAULT nextval('judgment_event_seq');
""",
    ),
    (
        20,
        "qrels_version_exclusions",
        r"""
-- Who a frozen qrels version left out (issue 39.6: a policy value with the option
-- +exclude-flagged, reljudge.policy): every annotator quality control flagged at the moment
-- of the freeze, why (reason codes, comma-separated, reljudge.storage.quality) and the
-- thresholds then in force, so that the version says whose grades it does not hold.
CREATE TABLE qrels_version_exclusions(
    version           INTEGER NOT NULL,
    username          VARCHAR NOT NULL,
    reasons           VARCHAR NOT NULL,
    min_gold          INTEGER NOT NULL,
    min_accuracy      DOUBLE NOT NULL,
    max_failed_decoys INTEGER NOT NULL,
    PRIMARY KEY (version, username)
);
""",
    ),
    (
        21,
        "sample_draws",
        r"""
-- The sampling plans' draws (issue 36, docs/sampling.md): every pooled item of a question
-- with its best rank, its stratum (1 ... H), its inclusion probability pi and whether it was
-- drawn, made once when the plan is set, from the seed and the question id only (no grade
-- is read), the same for every annotator. reljudge.eval.sampling.Draw is rebuilt from these
-- rows: a stratum's size and draws are its rows and drawn rows.
CREATE TABLE sample_draws(
    qid       VARCHAR NOT NULL,
    pid       VARCHAR NOT NULL,
    best_rank INTEGER,
    stratum   INTEGER NOT NULL CHECK (stratum >= 1),
    pi        DOUBLE NOT NULL CHECK (pi >= 0 AND pi <= 1),
    drawn     BOOLEAN NOT NULL,
    rate      DOUBLE NOT NULL CHECK (rate > 0 AND rate <= 1),
    seed      BIGINT NOT NULL,
    drawn_at  TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (qid, pid)
);
""",
    ),
    (
        22,
        "api_tokens",
        r"""
-- Personal API tokens for remote clients (issue 37 section 2, docs/served.md): a token
-- gives its account's role in one campaign. Only the SHA-256 of the token is stored: the
-- token is 256 random bits (secrets.token_urlsafe), so unlike a password it cannot be
-- guessed from its hash, and a fast hash lets every request find its row by the key.
-- A token is never deleted: revoked_at marks it refused, and keeps its name and use known.
CREATE TABLE api_tokens(
    token_hash   VARCHAR PRIMARY KEY,
    username     VARCHAR NOT NULL,
    campaign     VARCHAR NOT NULL,
    name         VARCHAR NOT NULL CHECK (length(name) > 0),
    created_by   VARCHAR NOT NULL,
    created_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    expires_at   TIMESTAMP,
    revoked_at   TIMESTAMP,
    last_used_at TIMESTAMP
);
""",
    ),
]


# -- reading the steps' DDL: the one parser (the PostgreSQL backend's default-filling
# triggers and the copy's sequences both read the migrations through it) ----------------
_COMMENT = re.compile(r"--[^\n]*")
_CREATE_TABLE = re.compile(r"CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s*\(", re.I)
_SET_DEFAULT = re.compile(r"ALTER\s+TABLE\s+(\w+)\s+ALTER\s+COLUMN\s+(\w+)\s+SET\s+DEFAULT\s+(.+)", re.I | re.S)
_CONSTRAINT = {"PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "CONSTRAINT"}
_NOT_NULL = re.compile(r"\b(?:NOT\s+NULL|PRIMARY\s+KEY)\b", re.I)
_DEFAULT = re.compile(r"\bDEFAULT\b", re.I)
_NEXTVAL = re.compile(r"nextval\('(\w+)'\)", re.I)


@dataclass(frozen=True)
class Column:
    """A column as a CREATE TABLE statement declares it."""

    name: str
    type: str
    not_null: bool  # NOT NULL or PRIMARY KEY: it can never hold NULL
    default: str | None  # the DEFAULT expression as written, None without one

    @property
    def sequence(self) -> str | None:
        """The sequence the default draws from, if it does."""
        return sequence_of(self.default)


def sequence_of(default: str | None) -> str | None:
    """The sequence a default expression draws from (``nextval('seq')``), if it does."""
    found = _NEXTVAL.fullmatch(default or "")
    return found.group(1) if found else None


def statements(sql: str) -> list[str]:
    """The statements of one migration step (comments removed; no ';' inside literals)."""
    return [s.strip() for s in _COMMENT.sub("", sql).split(";") if s.strip()]


def _split(text: str, stop) -> list[str]:
    """``text`` cut where ``stop(character)`` holds outside parentheses and '…' literals
    (the cut characters dropped)."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if quoted:
            quoted = ch != "'"
        elif ch == "'":
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and stop(ch):
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def _top_level(text: str) -> str:
    """``text`` with what is inside parentheses and literals blanked (so that a keyword
    inside a CHECK (…) or a default's argument is not read as the column's own)."""
    out, depth, quoted = [], 0, False
    for ch in text:
        inside = quoted or depth > 0
        if quoted:
            quoted = ch != "'"
        elif ch == "'":
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        out.append(" " if inside or quoted else ch)
    return "".join(out)


def _expression(text: str) -> str:
    """The expression at the start of ``text``: up to the first blank outside parentheses
    and literals."""
    return _split(text.strip(), str.isspace)[0]


def created_table(statement: str) -> tuple[str, list[Column]] | None:
    """For a CREATE TABLE statement (as a migration step writes it, or translated): the
    table's name and its columns in order, table constraints (PRIMARY KEY (…), UNIQUE,
    CHECK, …) left out. None for any other statement."""
    head = _CREATE_TABLE.match(statement.strip())
    if not head:
        return None
    rest = statement.strip()[head.end() :]
    body = rest[: rest.rindex(")")]
    columns = []
    for element in _split(body, ",".__eq__):
        words = element.split()
        if words[0].upper() in _CONSTRAINT:
            continue
        definition = element.strip()[len(words[0]) :]
        outside = _top_level(definition)
        default = _DEFAULT.search(outside)
        columns.append(
            Column(
                name=words[0],
                type=words[1],
                not_null=bool(_NOT_NULL.search(outside)),
                default=_expression(definition[default.end() :]) if default else None,
            )
        )
    return head.group(1), columns


def set_default(statement: str) -> tuple[str, str, str] | None:
    """For ALTER TABLE t ALTER COLUMN c SET DEFAULT expr: (t, c, expr); None otherwise."""
    found = _SET_DEFAULT.fullmatch(statement.strip())
    return (found.group(1), found.group(2), _expression(found.group(3))) if found else None
