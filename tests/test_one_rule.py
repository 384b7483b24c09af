"""Rules written once (issue 38, point 3): the quoting of SQL identifiers
(reljudge.sql), the parser of the migrations' DDL (reljudge.storage.migrations), and
checks over the source that no second copy of either comes back."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

from reljudge.sql import dotted, ident
from reljudge.storage import migrations, postgres, transfer

SRC = Path(__file__).resolve().parents[1] / "src" / "reljudge"


def sources(skip: str) -> dict[str, str]:
    """Every module of the library but ``skip`` (a path relative to src/reljudge)."""
    return {
        str(p.relative_to(SRC)): p.read_text(encoding="utf-8")
        for p in SRC.rglob("*.py")
        if p.relative_to(SRC) != Path(skip)
    }


def test_identifiers_are_quoted_with_a_quote_inside_doubled():
    assert ident("runs") == '"runs"'
    assert ident('a"b') == '"a""b"'
    assert ident("memory", "main", "x") == '"memory"."main"."x"'
    assert dotted("main.qrels") == '"main"."qrels"' and dotted("qrels") == '"qrels"'
    with pytest.raises(ValueError):
        ident()
    # what DuckDB reads back is the name as it was, whatever it holds
    con = duckdb.connect()
    for name in ("plain", 'with "quotes"', "semi; DROP TABLE x; --", "공백 있는 이름", "a.b"):
        con.execute(f"CREATE TABLE {ident(name)} (v INTEGER)")
        assert con.execute("SELECT table_name FROM duckdb_tables() WHERE table_name = ?", [name]).fetchone() == (name,)


def test_no_module_quotes_an_identifier_by_hand():
    # a function of its own, a quote doubled, a name put between quotes (f'"{name}"', '"' + name + '"')
    by_hand = re.compile(r"""def _?ident\b|\.replace\('"', '""'\)|f'"\{|'"' \+ \w+ \+ '"'""")
    assert {path: by_hand.findall(text) for path, text in sources("sql.py").items() if by_hand.search(text)} == {}


def test_the_migrations_ddl_is_read_by_one_parser():
    table = migrations.created_table(
        "CREATE TABLE t(\n  id BIGINT PRIMARY KEY DEFAULT nextval('t_seq'),\n"
        "  k VARCHAR NOT NULL DEFAULT '' CHECK (k IN ('a, b', '')),\n"
        "  n BIGINT CHECK (n IS NOT NULL OR k = 'x'),\n"
        "  at TIMESTAMP NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'),\n"
        "  CHECK (n > 0),\n  PRIMARY KEY (id, k)\n)"
    )
    assert table == (
        "t",
        [
            migrations.Column("id", "BIGINT", True, "nextval('t_seq')"),
            migrations.Column("k", "VARCHAR", True, "''"),
            migrations.Column("n", "BIGINT", False, None),  # NOT NULL inside its CHECK is not its own
            migrations.Column("at", "TIMESTAMP", True, "(now() AT TIME ZONE 'UTC')"),
        ],
    )
    assert table[1][0].sequence == "t_seq" and table[1][1].sequence is None
    assert migrations.created_table("CREATE VIEW v AS SELECT 1") is None
    assert migrations.set_default("ALTER TABLE d ALTER COLUMN e SET DEFAULT nextval('s')") == ("d", "e", "nextval('s')")
    # both readers of the steps go through it: the PostgreSQL triggers and the copy's sequences
    triggers = postgres.default_triggers(postgres.translate_ddl(_statement("judgment_events")))
    assert "NEW.event_id := nextval('judgment_event_seq')" in triggers[0]
    assert ("decoy_events", "event_id", "judgment_event_seq") in transfer.sequences()  # step 19's ALTER


def _statement(table: str) -> str:
    return next(s for s in migrations.statements(migrations.MIGRATIONS[0][2]) if s.startswith(f"CREATE TABLE {table}("))


def test_no_module_but_the_migrations_parses_their_ddl():
    # a regular expression over a table's statement or a column's definition (translating
    # types and defaults into PostgreSQL's dialect is not parsing: postgres.translate_ddl)
    by_hand = re.compile(r"CREATE\\s\+TABLE|ALTER\\s\+TABLE|NOT\\s\+NULL|DEFAULT\\s\+nextval")
    assert {p: by_hand.findall(t) for p, t in sources("storage/migrations.py").items() if by_hand.search(t)} == {}


# -- a campaign's name: one rule at every door ---------------------------------------------
BAD_NAMES = ("Round2", "2nd", "_a", "a-b", "a b", "a;drop", "x" * 42, "é", "ａ", "a\u200b")
GOOD_NAMES = ("a", "r_2", "round2", "x" * 41)


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_every_door_refuses_the_same_campaign_names_and_takes_the_same(tmp_path, monkeypatch, capsys):
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from reljudge.cli.main import main
    from reljudge.errors import ReljudgeError
    from reljudge.notebook import open_campaign
    from reljudge.storage import campaigns, open_database
    from reljudge.storage.db import CAMPAIGN_ENV_VAR, ENV_VAR, campaign_name, is_campaign_name
    from reljudge.ui import session
    from reljudge.web import routes

    target = str(tmp_path / "names.duckdb")
    assert main(["--db", target, "init"]) == 0
    monkeypatch.setenv(ENV_VAR, target)
    monkeypatch.delenv(CAMPAIGN_ENV_VAR, raising=False)
    client = TestClient(Starlette(routes=routes.routes()))

    def save(name):
        answer = client.post("/api/events", json={"events": [], "campaign": name})
        routes.close_databases()  # the notebook's read-only opening below needs the file free
        return answer.status_code, answer.json()["error"]

    try:
        for bad in BAD_NAMES:
            assert not is_campaign_name(bad)
            for door in (
                campaign_name,
                lambda n: campaigns.create(target, n),
                lambda n: open_database(target, campaign=n),
            ):
                with pytest.raises(ReljudgeError, match="invalid campaign name"):
                    door(bad)
            for argv in (["--campaign", bad, "types", "list"], ["campaigns", "create", bad]):
                assert main(["--db", target, *argv]) == 2
                err = capsys.readouterr().err
                assert "invalid campaign name" in err and "Traceback" not in err, err
            assert save(bad) == (400, "bad_campaign")
            monkeypatch.setenv(CAMPAIGN_ENV_VAR, bad)
            with pytest.raises(ReljudgeError, match="invalid campaign name"):
                open_campaign(target)
            assert session._server_campaign() == "default"  # the app opens the default campaign
            monkeypatch.delenv(CAMPAIGN_ENV_VAR)
        for wrong in (5, ["a"], None):
            assert not is_campaign_name(wrong)
        assert save(5) == save(["a"]) == (400, "bad_campaign")
        with pytest.raises(ReljudgeError, match="invalid campaign name"):
            campaigns.create(target, "")  # nothing stands in for a name to create

        for good in GOOD_NAMES:
            assert is_campaign_name(good) and campaign_name(good) == good
            assert main(["--db", target, "campaigns", "create", good]) == 0
            assert main(["--db", target, "--campaign", good, "types", "list"]) == 0
            open_database(target, campaign=good).close()
            capsys.readouterr()
            # the route takes the name and asks for a login (no 400)
            assert save(good) == (401, "not_logged_in")
            monkeypatch.setenv(CAMPAIGN_ENV_VAR, good)
            open_campaign(target).close()
            assert session._server_campaign() == good
            monkeypatch.delenv(CAMPAIGN_ENV_VAR)
    finally:
        routes.close_databases()


def test_no_module_but_storage_database_holds_the_campaign_name_rule():
    copy = re.compile(r"CAMPAIGN_NAME\b|\[a-z\]\[a-z0-9_\]")
    assert {p: copy.findall(t) for p, t in sources("storage/database.py").items() if copy.search(t)} == {}
