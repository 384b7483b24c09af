"""PostgreSQL as the team backend, through DuckDB's postgres extension.

The process keeps one in-memory DuckDB connection that ATTACHes the PostgreSQL database
(``postgresql://USER@HOST:PORT/DBNAME``) as the catalog ``pg`` and makes it the default
(``USE pg``). The project's DuckDB SQL then runs unchanged over the PostgreSQL tables:
reads are binary COPY streams (columnar: metrics and agreement are still computed by
DuckDB in this process), writes (INSERT / UPDATE / DELETE and their transactions) are
executed by PostgreSQL. Passwords come from the URL or from libpq's own sources
(``PGPASSWORD``, ``~/.pgpass``); :func:`redact` removes them from every message.

What the extension cannot do is done here:

* DDL with sequences (``CREATE SEQUENCE``, ``DEFAULT nextval(...)``) — the named
  migrations' DDL is translated to PostgreSQL's dialect (:func:`translate_ddl`) and sent
  natively with ``postgres_execute``; a time-stamp default becomes UTC wall-clock time,
  as on the DuckDB file.
* Views written in DuckDB's dialect (``EXCLUDE``, ``GROUP BY ALL``) — they stay DuckDB
  views, created in this process's in-memory catalog (``memory.main``) over the attached
  tables every time the database is opened, from the migration steps recorded as applied.
  The search path ``pg.public, memory.main`` finds tables in PostgreSQL and views here.
* Data steps of migrations (UPDATE / INSERT ... SELECT) run as DuckDB SQL over the
  attachment, in the same transaction as their record in ``schema_migrations``.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

import duckdb

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage.migrations import created_table

CODES = Codes(
    error_db_unavailable=("where", "detail"),
    error_url_campaign_parameter=("where", "name"),
    error_postgres_extension_missing=("version",),
    error_postgres_extension_version=("built", "version"),
    error_postgres_extension_no_build=("version",),
)

ALIAS = "pg"
SEARCH_PATH = "pg.public,memory.main"
_SCHEMES = ("postgresql://", "postgres://")


def is_url(value) -> bool:
    return isinstance(value, str) and value.lower().startswith(_SCHEMES)


def _password(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        password = None
    found = re.search(r"(?:^|[?&])password=([^&]*)", url.split("?", 1)[1] if "?" in url else "")
    if found:
        password = password or found.group(1)
    return password


def display_url(url: str) -> str:
    """The URL as it may be shown: without a password (user, host, port, database kept)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://…"
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        netloc = userinfo.split(":", 1)[0] + "@" + host
    query = re.sub(r"(^|&)password=[^&]*", r"\1password=***", parts.query)
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")


def redact(text: str, url: str) -> str:
    """``text`` with the URL shown without its password and the password itself masked
    wherever it appears (libpq's messages may quote the connection string)."""
    text = str(text).replace(url, display_url(url))
    password = _password(url)
    if password:
        for form in {password, unquote(password)}:
            if form:
                text = text.replace(form, "***")
    return text


def extension_path() -> Path:
    """The postgres extension binary shipped by ``duckdb-extension-postgres-scanner``
    for exactly this DuckDB version (an extension only loads into the DuckDB it was
    built for)."""
    try:
        import duckdb_extension_postgres_scanner as package
    except ImportError:
        raise ReljudgeError(CODES("error_postgres_extension_missing", version=duckdb.__version__)) from None
    root = Path(package.__file__).parent / "extensions"
    wanted = root / f"v{duckdb.__version__}" / "postgres_scanner.duckdb_extension"
    if wanted.is_file():
        return wanted
    found = sorted(p.name for p in root.iterdir()) if root.is_dir() else []
    if not found:
        raise ReljudgeError(CODES("error_postgres_extension_no_build", version=duckdb.__version__))
    raise ReljudgeError(CODES("error_postgres_extension_version", built=", ".join(found), version=duckdb.__version__))


def check_url(url: str) -> None:
    """Refuse what libpq would refuse for a reason that is not the server's: a
    ``?campaign=`` parameter (a campaign is reljudge's, not a connection parameter, and libpq
    rejects unknown parameters with a message that reads like an unreachable server)."""
    try:
        params = parse_qsl(urlsplit(url).query, keep_blank_values=True)
    except ValueError:
        return  # libpq's own message says what is wrong with the URL
    for key, value in params:
        if key.lower() == "campaign":
            raise ReljudgeError(CODES("error_url_campaign_parameter", where=display_url(url), name=value))


def connect(url: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the PostgreSQL database attached as ``pg``.
    Raises :class:`DatabaseUnavailable` (password-free) when the server cannot be reached."""
    check_url(url)
    con = duckdb.connect()
    try:
        con.execute(f"LOAD '{extension_path()}'")
        options = "TYPE postgres, READ_ONLY" if read_only else "TYPE postgres"
        con.execute(f"ATTACH {quote(url)} AS {ALIAS} ({options})")
    except duckdb.Error as exc:
        con.close()
        raise unavailable(exc, url) from None
    return con


def quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def table_exists(cur, name: str, schema: str | None = None) -> bool:
    """Whether table ``name`` exists in ``schema`` (None: ``public``, the default campaign)."""
    query = f"SELECT 1 FROM pg_tables WHERE schemaname = {quote(schema or 'public')} AND tablename = " + quote(name)
    return bool(cur.execute(f"SELECT count(*) FROM postgres_query('{ALIAS}', {quote(query)})").fetchone()[0])


def search_path(schema: str | None = None) -> str:
    """The DuckDB search path of a campaign: its own schema (None: the default campaign,
    ``public``), then ``public`` (the shared account tables), then the in-memory views."""
    return SEARCH_PATH if not schema else f"{ALIAS}.{schema},{SEARCH_PATH}"


def setup_cursor(cur, schema: str | None = None) -> None:
    """A DuckDB cursor is a connection of its own: give it the catalog and search path
    (of the campaign whose own schema is ``schema``; None: the default campaign)."""
    cur.execute(f"USE {ALIAS}")
    cur.execute(f"SET search_path = '{search_path(schema)}'")


class DatabaseUnavailable(ReljudgeError):
    """The PostgreSQL server cannot be reached (down, restarting, wrong address)."""


def unavailable(exc: BaseException, url: str) -> ReljudgeError:
    detail = redact(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__, url)
    return DatabaseUnavailable(CODES("error_db_unavailable", where=display_url(url), detail=detail))


# -- migrations in PostgreSQL's dialect ----------------------------------------------------
def kind(statement: str) -> str:
    """'view' (a DuckDB view kept in memory), 'ddl' (sent natively) or 'data' (DuckDB SQL
    over the attachment)."""
    head = " ".join(statement.split()[:3]).upper()
    if head.startswith(("CREATE VIEW", "CREATE OR REPLACE VIEW")):
        return "view"
    if head.startswith(("CREATE", "ALTER", "DROP")):
        return "ddl"
    return "data"


_TYPES = [
    # byte order, as DuckDB compares text: the extension sends string filters with
    # COLLATE "C", and PostgreSQL answers them from an index only of that collation
    (re.compile(r"(?<!::)\bVARCHAR\b(?!\s*(?:\[|COLLATE\b))", re.I), 'VARCHAR COLLATE "C"'),
    (re.compile(r"\bTINYINT\b", re.I), "SMALLINT"),
    (re.compile(r"\bDOUBLE\b(?!\s+PRECISION)", re.I), "DOUBLE PRECISION"),
    (re.compile(r"DEFAULT\s+current_timestamp\b", re.I), "DEFAULT (now() AT TIME ZONE 'UTC')"),
]


def translate_ddl(statement: str) -> str:
    """A migration's DuckDB DDL in PostgreSQL's dialect: types (TINYINT, DOUBLE; text in
    collation "C"), and the time-stamp default (UTC wall-clock time, as DuckDB stores it with TimeZone = UTC);
    sequences, nextval defaults, CHECK and UNIQUE constraints are the same in both."""
    for pattern, replacement in _TYPES:
        statement = pattern.sub(replacement, statement)
    return statement


#: The defaults a trigger fills in (those of the translated migrations).
_FILLED_DEFAULT = re.compile(r"\(now\(\) AT TIME ZONE 'UTC'\)|nextval\('\w+'\)|TRUE|FALSE|''|-?\d+", re.I)


def default_triggers(statement: str) -> list[str]:
    """For a translated CREATE TABLE: a trigger that gives a NOT NULL column its default
    when an INSERT names it with NULL. DuckDB's postgres extension sends such NULLs for
    every column it does not know a default of in INSERT ... ON CONFLICT / INSERT OR
    REPLACE (a plain INSERT leaves them out); a NOT NULL column can never take NULL, so
    filling the default there is what the same statement does on the DuckDB file."""
    table = created_table(statement)
    if not table:
        return []
    name, declared = table
    columns = [(c.name, c.default) for c in declared if c.not_null and _FILLED_DEFAULT.fullmatch(c.default or "")]
    if not columns:
        return []
    body = " ".join(f"IF NEW.{col} IS NULL THEN NEW.{col} := {expr}; END IF;" for col, expr in columns)
    return [
        f"CREATE FUNCTION reljudge_defaults_{name}() RETURNS trigger LANGUAGE plpgsql AS "
        f"$body$ BEGIN {body} RETURN NEW; END $body$",
        f"CREATE TRIGGER reljudge_defaults BEFORE INSERT ON {name} "
        f"FOR EACH ROW EXECUTE FUNCTION reljudge_defaults_{name}()",
    ]


def view_sql(statement: str) -> str:
    """A migration's CREATE VIEW as a view of this process's in-memory catalog."""
    return re.sub(
        r"^CREATE\s+(OR\s+REPLACE\s+)?VIEW\s+", "CREATE OR REPLACE VIEW memory.main.", statement, count=1, flags=re.I
    )


#: Migration steps whose data statements do nothing on PostgreSQL, and why.
SKIP_DATA = {
    10: "rows in PostgreSQL are written in UTC from the start (time-stamp defaults and the "
    "DuckDB session time zone are UTC), so there is nothing to convert",
}

#: Statements a migration step sends to PostgreSQL only (physical layout that DuckDB's
#: file has no use for), after its translated DDL, in the same transaction.
NATIVE_STEPS = {
    19: [
        "SELECT setval('judgment_event_seq', GREATEST((SELECT last_value FROM judgment_event_seq), "
        "(SELECT coalesce(max(event_id), 1) FROM decoy_events)))",
        "ALTER TABLE decoy_events ALTER COLUMN event_id SET DEFAULT nextval('judgment_event_seq')",
        # the trigger that fills a NULL event_id (default_triggers) names the sequence too; it
        # keeps the search path it is made with (a campaign's schema: its own sequence)
        "CREATE OR REPLACE FUNCTION reljudge_defaults_decoy_events() RETURNS trigger LANGUAGE plpgsql "
        "SET search_path FROM CURRENT AS $body$ BEGIN "
        "IF NEW.event_id IS NULL THEN NEW.event_id := nextval('judgment_event_seq'); END IF; "
        "IF NEW.created_at IS NULL THEN NEW.created_at := (now() AT TIME ZONE 'UTC'); END IF; "
        "RETURN NEW; END $body$",
    ],
    11: [
        # Databases made before text columns were created in collation "C": convert them
        # (their indexes are rebuilt with it; nothing to do on a newer database).
        """DO $step$ DECLARE c record; BEGIN
             FOR c IN SELECT table_name, column_name FROM information_schema.columns
                      WHERE table_schema = current_schema()
                        AND data_type IN ('character varying', 'text')
                        AND collation_name IS DISTINCT FROM 'C'
                        AND table_name IN (SELECT tablename FROM pg_tables WHERE schemaname = current_schema())
             LOOP
               EXECUTE format('ALTER TABLE %I ALTER COLUMN %I TYPE VARCHAR COLLATE "C"',
                              c.table_name, c.column_name);
             END LOOP;
           END $step$""",
        # a save's stale check and the judging page look up one annotator's events of a
        # few items; the client_event_id and pool lookups use their unique keys
        "CREATE INDEX judgment_events_by_item ON judgment_events(username, qid)",
        "CREATE INDEX review_events_by_item ON review_events(username, answer_id)",
    ],
    12: [
        # client event ids unique per author: the one-column UNIQUE constraint of each event
        # table (named by PostgreSQL when the table was made) gives way to (id, author)
        """DO $step$ DECLARE c record; BEGIN
             FOR c IN SELECT cl.relname AS tab, co.conname AS con FROM pg_constraint co
                      JOIN pg_class cl ON cl.oid = co.conrelid
                      JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = co.conkey[1]
                      WHERE co.contype = 'u' AND cardinality(co.conkey) = 1 AND a.attname = 'client_event_id'
                        AND cl.relname IN ('judgment_events', 'review_events')
                        AND cl.relnamespace = current_schema()::regnamespace
             LOOP
               EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', c.tab, c.con);
             END LOOP;
           END $step$""",
        "ALTER TABLE judgment_events ADD CONSTRAINT judgment_events_client_event_id_username_key "
        "UNIQUE (client_event_id, username)",
        "ALTER TABLE review_events ADD CONSTRAINT review_events_client_event_id_username_key "
        "UNIQUE (client_event_id, username)",
    ],
}

#: Migration steps whose DuckDB statements are not sent to PostgreSQL at all (the step is
#: done there by its NATIVE_STEPS alone), and why.
NATIVE_ONLY = {
    19: "PostgreSQL has setval, and its default-filling trigger of decoy_events must name the "
    "judgment events' sequence too",
    12: "DuckDB cannot drop a UNIQUE constraint, so the step rebuilds the event tables; "
    "PostgreSQL alters the constraint in place, keeping its indexes and collations",
}

SCHEMA_MIGRATIONS_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_migrations("
    "version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, "
    "applied_at TIMESTAMP NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'))"
)


def execute_native(cur, sql: str, schema: str | None = None) -> None:
    """Send ``sql`` to PostgreSQL as it is (DDL the extension cannot bind); with ``schema``
    (a campaign's own), in that schema: its unqualified names are made and found there
    (``SET LOCAL``: for this one transaction, the pooled connection keeps its own path)."""
    if schema:
        sql = f"SET LOCAL search_path TO {schema}; {sql}"
    cur.execute(f"CALL postgres_execute('{ALIAS}', {quote(sql)})")


def in_schema(statement: str) -> str:
    """A default-filling trigger function (:func:`default_triggers`) made in a campaign's
    schema: it keeps the search path it was made with, so its ``nextval('…')`` finds the
    campaign's sequence, not ``public``'s."""
    return statement.replace(" LANGUAGE plpgsql AS ", " LANGUAGE plpgsql SET search_path FROM CURRENT AS ", 1)


def clear_cache(cur) -> None:
    """DuckDB caches the attached catalog; after native DDL it must read it again."""
    cur.execute("CALL pg_clear_cache()")


def snapshot(cur) -> str:
    """PostgreSQL's current snapshot (xmin:xmax:in-progress): it changes whenever a write
    transaction of any process commits, so it is an exact cache key for 'nothing was
    written since' (it may change more often — other databases of the server — never less)."""
    return cur.execute(f"SELECT * FROM postgres_query('{ALIAS}', 'SELECT pg_current_snapshot()::text')").fetchone()[0]
