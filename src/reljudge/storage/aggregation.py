"""Several raters → one decision per item: the one rule, for paragraphs and for answers.

An item is whatever the raters decided on: a pooled paragraph of a question (qrels,
:func:`reljudge.storage.team.qrels_sql`), or a sentence × cited paragraph, a sentence or
a whole answer of an answer review (:func:`reljudge.review.decisions.aggregate`). Each
rater's latest value counts once; values are on one ordered scale where lower is stricter
(a grade as it is; review flags mapped onto 0/1 by the review module).

The decision (docs/policies.md#정책--policies, "여러 판정자 → 하나의 qrels"):

* a lead's adjudication, when there is one (provenance ``adjudicated``);
* else the value most raters gave (``single`` for one rater, ``unanimous`` when all
  agree, ``majority`` otherwise);
* else, several values tied for most raters, the lowest of them — the stricter reading
  (``tie``).

``n`` counts the raters of the item (0 for an item only a lead decided).

The lead's queues of such items, paragraphs and answer-review items, list the same ones by
one rule too (:func:`disagreements_sql`): the raters' current values differ, and no ruling
has been made since the latest of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

PROVENANCES = ("unanimous", "majority", "adjudicated", "single", "tie")


def decisions_sql(ratings: str, key: list[str], adjudications: str | None = None, n_name: str = "n") -> str:
    """SQL giving ``key`` columns, ``v`` (the decided value), ``provenance`` and ``n_name``
    (the number of raters) per item.

    ``ratings``: a query or table with the ``key`` columns and ``v`` (one row per rater and
    item); ``adjudications``: the same shape, one row per adjudicated item (None: no
    adjudications count). Key columns must not be NULL (callers give a missing sentence or
    paragraph a placeholder): items are matched with ``=``."""
    on = " AND ".join(f"{{a}}.{c} = {{b}}.{c}" for c in key)
    cols = ", ".join(key)
    s_cols = ", ".join(f"coalesce(s.{c}, a.{c}) AS {c}" for c in key)
    adjudicated = adjudications or f"SELECT {cols}, NULL AS v FROM ({ratings}) WHERE FALSE"
    return f"""
        WITH counts AS (
            SELECT {cols}, v, count(*) AS n FROM ({ratings}) GROUP BY ALL),
        stats AS (
            SELECT {cols}, sum(n) AS total, count(*) AS n_distinct, max(n) AS top FROM counts GROUP BY ALL),
        winners AS (
            SELECT {", ".join(f"c.{c}" for c in key)}, min(c.v) AS v, count(*) AS n_top
            FROM counts c JOIN stats s ON {on.format(a="s", b="c")} AND c.n = s.top
            GROUP BY ALL),
        adj AS ({adjudicated})
        SELECT {s_cols},
               coalesce(a.v, w.v) AS v,
               CASE WHEN a.v IS NOT NULL THEN 'adjudicated'
                    WHEN s.total = 1 THEN 'single'
                    WHEN s.n_distinct = 1 THEN 'unanimous'
                    WHEN w.n_top = 1 THEN 'majority'
                    ELSE 'tie' END AS provenance,
               CAST(coalesce(s.total, 0) AS INTEGER) AS {n_name}
        FROM stats s JOIN winners w ON {on.format(a="w", b="s")}
        FULL JOIN adj a ON {on.format(a="a", b="s")}"""


def decide_frames(
    ratings: "pd.DataFrame", key: list[str], adjudications: "pd.DataFrame | None" = None, n_name: str = "n"
):
    """:func:`decisions_sql` over DataFrames (``key`` columns and ``v``): the answer
    reviews' decisions, which are read into pandas first. A DataFrame of ``key``, ``v``,
    ``provenance``, ``n_name``, ordered by ``key``."""
    import duckdb

    con = duckdb.connect()
    try:
        con.register("_ratings", ratings[[*key, "v"]])
        adj = None
        if adjudications is not None and len(adjudications):
            con.register("_adjudications", adjudications[[*key, "v"]])
            adj = f"SELECT {', '.join(key)}, v FROM _adjudications"
        sql = decisions_sql(f"SELECT {', '.join(key)}, v FROM _ratings", key, adj, n_name)
        return con.execute(f"SELECT * FROM ({sql}) ORDER BY {', '.join(key)}").df()
    finally:
        con.close()


def disagreements_sql(ratings: str, key: list[str], rulings: str, lists: str = "") -> str:
    """SQL giving the items on which raters' current values differ: the one rule of both
    disagreement queues, pooled paragraphs (:func:`reljudge.storage.team.paragraph_disagreements`)
    and answer-review items (:func:`reljudge.storage.answers.review_disagreements`).

    An item is disputed when at least two raters rated it and their values are not all
    the same. A lead's ruling settles it until a rater grades it again: a ruling older
    than the item's latest rating leaves it open (the ruling still decides the
    aggregated value, :func:`decisions_sql`, until the lead rules again). Columns: the
    ``key`` columns, ``lo`` and ``hi`` (the lowest and highest value), ``spread``
    (hi − lo: callers list the widest spread first), ``n`` (the raters), ``last_rated``
    (the latest rating), ``ruling`` (the value of the ruling that settles the item, or
    NULL) and ``is_open``; then ``lists``, aggregate expressions over ``ratings`` the
    caller adds (", list(...) AS x").

    ``ratings``: a query with the ``key`` columns, ``v`` and ``rated_at`` (when it was given),
    one row per rater and item; ``rulings``: the same columns, one row per ruled item
    (its latest ruling). Key columns must not be NULL: items are matched with ``=``."""
    cols = ", ".join(key)
    on = " AND ".join(f"r.{c} = d.{c}" for c in key)
    return f"""
        WITH d AS (
            SELECT {cols}, min(v) AS lo, max(v) AS hi, max(v) - min(v) AS spread,
                   count(*) AS n, max(rated_at) AS last_rated{lists}
            FROM ({ratings}) GROUP BY {cols} HAVING count(*) >= 2 AND min(v) <> max(v))
        SELECT d.*, CASE WHEN r.rated_at >= d.last_rated THEN r.v END AS ruling,
               r.rated_at IS NULL OR r.rated_at < d.last_rated AS is_open
        FROM d LEFT JOIN ({rulings}) r ON {on}"""
