"""SQL identifiers: the one quoting rule for a name put into a statement's text.

A table, view, column, schema or catalog name that SQL cannot take as a parameter is
written as a quoted identifier: in double quotes, a double quote inside doubled (the
rule of DuckDB and PostgreSQL alike), so that no name can end the identifier and
become SQL of its own. :func:`ident` quotes one name, or the parts of a qualified one;
:func:`dotted` quotes a name a caller wrote with dots (``main.qrels``) part by part.

In the base layer so that every layer that writes SQL (the metric engine, the TREC
readers, storage) uses this and no copy of it.
"""

from __future__ import annotations


def ident(*parts: str) -> str:
    """``"name"`` (a ``"`` inside doubled); several parts: ``"catalog"."schema"."table"``."""
    if not parts:
        raise ValueError("ident() needs at least one name")
    return ".".join('"' + part.replace('"', '""') + '"' for part in parts)


def dotted(name: str) -> str:
    """A possibly qualified name, its parts separated by ``.``, each part quoted."""
    return ident(*name.split("."))
