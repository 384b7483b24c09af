"""The ranking rule — the one place that says how a run's rows become a ranking.

Every consumer builds its rankings here: the metric engine (:mod:`reljudge.eval.metrics`),
the TREC reader (:func:`reljudge.eval.trec_io.read_run_top`), the pool, the dashboard's
question detail and the adjudication queue (through :mod:`reljudge.storage`).  A
ranking is the rows of one (system, question).  This module only writes SQL text
over relations it is given (like :mod:`reljudge.eval.metrics`, it runs on any DuckDB
connection: the campaign database or a file-mode connection).

Order (``ties``), each rule named by the trec_eval version whose order it is:

* ``trec10`` (NIST trec_eval 10.0, commit f425365 of github.com/usnistgov/trec_eval,
  ``form_res_rels.c: comp_sim_docno`` over ``double sim`` since the commit "Convert
  float to double"): score descending, compared as a C ``double`` — 0.5 and
  0.500000001 do not tie — then document id descending in byte order (``strcmp``).
  The rank column is ignored, except that a row without a score comes after every
  scored row of its ranking, in rank order.
* ``trec9`` (trec_eval 9.0.x and pytrec-eval-terrier, which keep ``float sim``):
  the same, but scores compared as a C ``float`` (float32): 0.5 and 0.500000001 tie
  and the id decides.
* ``ranked``: the rank column ascending; score (float32) descending, then id
  descending, break ties.  A row without a rank comes after every ranked row.

``trec`` is an alias: "the current NIST trec_eval", i.e. ``trec10`` (:func:`resolve`).
A campaign database written before the rules carried a version stored ``trec`` (or
nothing, the default then) meaning the float32 rule; the migration
``tie_rule_version`` pins such campaigns to ``trec9`` so that their pool, question
detail, adjudication queue and metrics keep the order they were built with.  New
campaigns default to ``trec10``.

The id compared is the id the system returned, never its duplicate group's.

Duplicates (``dedup``): rows of one ranking with the same duplicate key (``dkey``:
the duplicate group — same id or same normalised text — NULL meaning the row's own
id) are copies.

* ``first``: the first copy in the order above stays, later copies are removed and
  the ranks close up, before any cutoff.  The ranking's items are the duplicate
  groups: judgments name groups, and the recall base / ideal ranking count a group
  once.
* ``keep``: every copy stays at its own rank.  The items are the returned ids, and
  every copy of a judged group carries the group's grade, also in the recall base
  and the ideal ranking: exactly trec_eval on the raw ids.

Top K: rank r = 1, 2, ... after the rules above; "within K" means r <= K.
"""

from __future__ import annotations

from reljudge.errors import ReljudgeError
from reljudge.codes import Codes

CODES = Codes(
    error_unknown_dedup=("value", "choices"),
    error_depth_small=(),
    error_unknown_ties=("value", "choices", "trec"),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

TIES = {
    "trec10": "trec_eval 10: score descending (compared as double, as trec_eval 10.0), then paragraph id "
    "descending (byte order); the rank column is used only for rows without a score",
    "trec9": "trec_eval 9: score descending (compared as float32, as trec_eval 9.x and pytrec_eval), then "
    "paragraph id descending (byte order); the rank column is used only for rows without a score",
    "ranked": "the run's rank column ascending (as ranked); score descending, then id descending, break ties",
}
#: Other spellings of a rule: ``trec`` is the current NIST trec_eval (10.0).
TIE_ALIASES = {"trec": "trec10"}
#: The rule a caller gets when it names none (CLI and new campaigns).
DEFAULT_TIES = "trec10"
#: What each rule's name means, for ``--help`` and documentation.
TIE_CHOICES = (*TIES, *TIE_ALIASES)

DEDUP = {
    "first": "first copy counts; later copies (same id or same normalised text) removed and ranks closed up",
    "keep": "every copy counts at its own rank, and every copy of a judged paragraph carries its grade "
    "(also in the recall base and the ideal ranking): trec_eval on the raw ids",
}

# Larger than any rank a row can have, smaller than any a ranked row has.
_LAST = "-9223372036854775807"

# trec_eval keeps scores as C float (TEXT_RESULTS.sim), so scores equal in
# float32 tie even when their doubles differ; out-of-range doubles become ±inf
# as the C conversion does, where DuckDB's cast would raise.
_F32 = (
    "CASE WHEN {x} > 3.4028234663852886e38 THEN 'inf'::FLOAT "
    "WHEN {x} < -3.4028234663852886e38 THEN '-inf'::FLOAT ELSE {x}::FLOAT END"
)


def resolve(ties: str) -> str:
    """The canonical name of the tie rule ``ties`` (``trec`` -> ``trec10``); raises
    ReljudgeError for an unknown rule."""
    name = TIE_ALIASES.get(ties, ties)
    if name not in TIES:
        raise ReljudgeError(
            CODES("error_unknown_ties", value=ties, choices=", ".join(TIE_CHOICES), trec=TIE_ALIASES["trec"])
        )
    return name


def check(ties: str, dedup: str | None = None) -> None:
    """Raise ReljudgeError for an unknown tie rule or duplicates policy."""
    resolve(ties)
    if dedup is not None and dedup not in DEDUP:
        raise ReljudgeError(CODES("error_unknown_dedup", value=repr(dedup), choices=", ".join(DEDUP)))


def score_sql(ties: str, x: str) -> str:
    """SQL for the value the rule ``ties`` compares scores by: the DOUBLE ``x`` itself
    under ``trec10``, its float32 rounding (:func:`float32_sql`) otherwise."""
    return f"({x})::DOUBLE" if resolve(ties) == "trec10" else float32_sql(x)


def float32_sql(x: str) -> str:
    """SQL turning the DOUBLE expression ``x`` into the FLOAT trec_eval ranks by."""
    return _F32.format(x=x)


def order_key_sql(ties: str, score: str = "score", rank: str = "rank", pid: str = "pid", nullable: bool = True) -> str:
    """A STRUCT expression ordering the rows of one ranking: larger = ranked earlier.

    Its fields hold the values: ``s`` the score as compared (DOUBLE under ``trec10``,
    FLOAT otherwise), ``pid`` the id, and under
    ``ranked`` ``nr`` = -rank.  ``nullable=False`` is for rows whose score and rank
    are never NULL (a TREC run file): the fields that place NULLs are then constant
    and left out, which orders such rows exactly as the full key does.
    """
    ties = resolve(ties)
    s = score_sql(ties, f"({score})::DOUBLE")
    p = f"({pid})::VARCHAR"
    if not nullable:
        if ties != "ranked":
            return f"{{'s': {s}, 'pid': {p}}}"
        return f"{{'nr': -(({rank})::BIGINT), 's': {s}, 'pid': {p}}}"
    scored = f"(({score}) IS NOT NULL)::INTEGER"
    s = f"coalesce({s}, 0::{'DOUBLE' if ties == 'trec10' else 'FLOAT'})"
    if ties != "ranked":
        # scored rows first; among unscored rows, rank ascending (NULL rank last)
        nr = f"coalesce(-(CASE WHEN ({score}) IS NULL THEN ({rank}) END)::BIGINT, {_LAST})"
        return f"{{'scored': {scored}, 's': {s}, 'nr': {nr}, 'pid': {p}}}"
    ranked = f"(({rank}) IS NOT NULL)::INTEGER"
    return f"{{'ranked': {ranked}, 'nr': coalesce(-(({rank})::BIGINT), 0), 'scored': {scored}, 's': {s}, 'pid': {p}}}"


#: Up to this depth, DuckDB's top-n aggregate ``max_by(value, key, n)`` keeps each
#: ranking's best rows with a bounded heap -- far cheaper than sorting whole rankings.
#: It sizes that heap by n, so deeper cuts (K = 1000, a measure of the whole ranking,
#: depth MAX_CUTOFF) collect every row and sort it instead: ``-m recip_rank`` on a
#: 5,000-line run held 3.2 GB with a heap of MAX_CUTOFF rows (tests/test_evaluate_memory.py),
#: and at K = 1000 sorting is faster too (bench/bench_evaluate.py).
TOP_N_HEAP_DEPTH = 256


def position_sql(key: str, partition: str = "qid") -> str:
    """Each row's place (1, 2, ...) in its ranking: the window form of :func:`top_rows_sql`'s
    order (largest ``key`` first). A window sorts whole rankings, and DuckDB's sort spills
    to disk under a memory limit, where the lists of :func:`top_rows_sql` cannot: the form
    for reading every row of a large run (:func:`reljudge.eval.trec_io.read_run_top`)."""
    return f"row_number() OVER (PARTITION BY {partition} ORDER BY {key} DESC)"


def top_rows_sql(value: str, key: str, depth: int) -> str:
    """An aggregate giving the ``value`` of a group's ``depth`` rows with the largest
    ``key``, largest first, as a list (``key`` must order the rows totally)."""
    depth = int(depth)
    if value == key:
        # the rows are their own keys: one copy of each, not a (value, key) pair
        if depth <= TOP_N_HEAP_DEPTH:
            return f"max({key}, {depth})"
        return f"list_slice(list_reverse_sort(list({key})), 1, {depth})"
    if depth <= TOP_N_HEAP_DEPTH:
        return f"max_by({value}, {key}, {depth})"
    return (
        f"list_transform(list_slice(list_reverse_sort(list({{'k': {key}, 'v': {value}}})), 1, {depth}), lambda e: e.v)"
    )


def ranked_sql(source: str, ties: str, dedup: str, depth: int) -> str:
    """A query giving system, qid, pid, dkey, r: each ranking of ``source`` in the
    order of ``ties``, duplicates handled by ``dedup``, ranks r = 1..``depth``.

    ``source`` is a table/view name or a parenthesised query with columns system,
    qid, pid, score (may be NULL), rank (may be NULL) and dkey (duplicate key, NULL =
    the row's pid).  ``dkey`` in the result is never NULL.
    """
    check(ties, dedup)
    depth = int(depth)
    if depth < 1:
        raise ReljudgeError(CODES("error_depth_small"))
    key = order_key_sql(ties)
    top = top_rows_sql("{'pid': pid, 'dkey': dkey}", "okey", depth)
    ctes = [
        # NOT MATERIALIZED: DuckDB would otherwise copy the whole source, which the
        # duplicate pass reads a second time
        f"_rk_src AS NOT MATERIALIZED (SELECT system, qid, pid, coalesce(dkey, pid) AS dkey, {key} AS okey "
        f"FROM {source})",
        f"_rk_top AS (SELECT system, qid, {top} AS l FROM _rk_src GROUP BY system, qid)",
        "_rk_topu AS (SELECT system, qid, unnest(l) AS x, generate_subscripts(l, 1) AS r FROM _rk_top)",
    ]
    if dedup == "keep":
        return "WITH " + ",\n".join(ctes) + "\nSELECT system, qid, x.pid AS pid, x.dkey AS dkey, r FROM _rk_topu"
    # A ranking whose top rows hold no key twice is already deduplicated up to
    # `depth` (removing later copies cannot change rows above them); only the
    # others need the per-key pass over all their rows.
    ctes += [
        "_rk_dupr AS (SELECT system, qid FROM _rk_topu GROUP BY system, qid HAVING count(DISTINCT x.dkey) < count(*))",
        "_rk_firsts AS (SELECT s.* FROM _rk_src s SEMI JOIN _rk_dupr USING (system, qid) "
        "QUALIFY row_number() OVER (PARTITION BY s.system, s.qid, s.dkey ORDER BY s.okey DESC) = 1)",
        "_rk_slow AS (SELECT system, qid, pid, dkey, row_number() OVER (PARTITION BY system, qid ORDER BY okey DESC) AS r "
        f"FROM _rk_firsts QUALIFY r <= {depth})",
    ]
    return (
        "WITH "
        + ",\n".join(ctes)
        + "\nSELECT system, qid, x.pid AS pid, x.dkey AS dkey, r FROM _rk_topu ANTI JOIN _rk_dupr USING (system, qid)"
        + "\nUNION ALL SELECT system, qid, pid, dkey, r FROM _rk_slow"
    )


def item_column(dedup: str) -> str:
    """The column of :func:`ranked_sql`'s result that names a ranking's items, the
    ids judgments are looked up by: the duplicate group under ``first``, the returned
    id under ``keep``."""
    check(DEFAULT_TIES, dedup)
    return "dkey" if dedup == "first" else "pid"
