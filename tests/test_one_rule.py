"""Rules written once (issue 38, point 3): the quoting of SQL identifiers
(reljudge.sql), and a check over the source that no second copy of it comes back."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

from reljudge.sql import dotted, ident

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
