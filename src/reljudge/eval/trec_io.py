"""Read TREC qrels and runs from disk into DuckDB tables, fast, with clear errors.

Formats (trec_eval):

* qrels: ``qid iter docid rel`` — 4 whitespace-separated fields, rel an integer;
* run:   ``qid Q0 docid rank score tag`` — 6 fields, rank an integer, score a number.

A line whose first non-blank character is ``#`` is a comment and is skipped, in
both files, as trec_eval 10.0 does (``get_trec_results.c``, ``get_qrels.c``); a
``#`` later in a line is part of its field.

Lines end at a line feed (LF or CRLF); fields are separated by ASCII spaces and tabs
only (:func:`split_fields`), as trec_eval reads them: a no-break space (U+00A0), a
line separator (U+2028) or any other Unicode space is part of its field. A carriage
return anywhere else than before the line feed (a file with CR-only line endings reads
as one line) is refused as such (:func:`line_ending_problem`).

An integer is written in ASCII digits with an optional sign and fits in 32 bits
(:func:`whole_number_problem`): ``1.5``, ``1.0`` or ``1e0`` are refused, never
rounded.  trec_eval instead truncates a grade (``atol``: 1.5 is 1).  The rank
field is checked only where it is read: :func:`read_run_top` under a score tie
rule (``trec10``, ``trec9``) accepts any token there, as trec_eval (which never
reads it) does; under ``ranked``, and in :func:`read_run` (whose table keeps the
rank), it must be a whole number.  trec_eval's runid is the tag of the last line
(:func:`run_tag`).

The fast path is DuckDB's CSV reader with explicit columns (one field
separator: a tab if the first line has one, else a space).  Only when it fails
does a second, slower pass read the file line by line to name the offending
line; a file that is valid but irregularly spaced (several spaces, trailing
blanks) is then loaded by splitting each line on whitespace inside DuckDB.
Documents repeated inside one query are an error in both files, and so is a
file with no line to read.

:func:`read_run` loads every row; :func:`read_run_top` (the ``evaluate
--qrels`` path) reads the file once into one aggregation per query and keeps
only the top rows the measures look at, with the same checks.
"""

from __future__ import annotations

import math
import re
from typing import Iterable, Iterator
import os
from pathlib import Path

import duckdb
import numpy as np

from reljudge.errors import InputError, OutOfMemory
from reljudge.eval import ranking
from reljudge.eval.ranking import order_key_sql
from reljudge.codes import Codes
from reljudge.sql import ident as _ident

CODES = Codes(
    error_no_such_file=(),
    error_is_directory=(),
    error_not_utf8=(),
    error_trec_field_count=("expected", "format", "found"),
    error_score_not_number=("value",),
    error_document_twice=("pid", "qid", "what"),
    error_cannot_read_trec=("kind", "detail"),
    error_score_nan=(),
    error_qrels_empty=(),
    error_empty_run=(),
    error_field_not_whole=("what", "value"),
    error_field_out_of_range=("what", "value", "low", "high"),
    error_line_endings=(),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

RUN_COLUMNS = {
    "qid": "VARCHAR",
    "q0": "VARCHAR",
    "docid": "VARCHAR",
    "rank": "INTEGER",
    "score": "DOUBLE",
    "tag": "VARCHAR",
}
QRELS_COLUMNS = {"qid": "VARCHAR", "iter": "VARCHAR", "docid": "VARCHAR", "rel": "INTEGER"}

# A whole number, as written in a TREC file: ASCII digits with an optional sign.  Both
# passes apply this one rule (the SQL pattern below and :func:`_is_int`): DuckDB's own
# cast to an integer would round "1.5" to 2 and read "1e0", "0x1", "1_0" as numbers.
_WHOLE_RE = r"\s*[+-]?[0-9]+\s*"
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # grades and ranks are stored as INTEGER
# a run file without a result line is refused, as trec_eval does ("Cannot read results
# file"): scoring it 0 on every query would hide a retrieval job that failed
EMPTY_RUN = "error_empty_run"


def _first_line(path: str) -> str | None:
    """The first non-blank line, decoded; None for a file with no content. A line with
    a bare carriage return (a file with CR-only line endings is one such line) is an
    InputError: DuckDB's reader, which the fast path uses, would take CR for a line end."""
    if not os.path.exists(path):
        raise InputError(path, None, CODES("error_no_such_file"))
    if os.path.isdir(path):
        raise InputError(path, None, CODES("error_is_directory"))
    with open(path, "rb") as f:
        for i, raw in enumerate(f, start=1):
            try:
                line = raw.decode("utf-8-sig" if i == 1 else "utf-8")
            except UnicodeDecodeError:
                raise InputError(path, i, CODES("error_not_utf8")) from None
            problem = line_ending_problem(line)
            if problem:
                raise InputError(path, i, problem)
            if split_fields(line) and not is_comment(line):
                return line
    return None


#: what separates the fields of a TREC line: ASCII spaces and tabs, as in trec_eval
_FIELD_SEPARATOR = re.compile(r"[ \t]+")


def split_fields(line: str) -> list[str]:
    """The fields of one TREC line (run, qrels, gold), the one rule of every reader:
    split on ASCII spaces and tabs only, as trec_eval does (str.split() would also split
    on U+00A0, U+2028 and every other Unicode space); the line end (LF, CRLF) and the
    blanks around are dropped. A blank line has no fields."""
    body = line.strip(" \t\r\n")
    return _FIELD_SEPARATOR.split(body) if body else []


def line_ending_problem(line: str):
    """Why a line read up to its line feed (the file opened in binary, or with
    ``newline=""`` and split on LF only) has the wrong line ending, or None: a carriage
    return that does not end it (CR-only line endings make the whole file one line)."""
    body = line[:-1] if line.endswith("\n") else line
    body = body[:-1] if body.endswith("\r") else body
    return CODES("error_line_endings") if "\r" in body else None


def is_comment(line: str) -> bool:
    """trec_eval 10: a line whose first non-blank character is '#' is a comment."""
    fields = split_fields(line)
    return bool(fields) and fields[0].startswith("#")


def _is_int(text: str) -> bool:
    # the strings _WHOLE_RE matches (Python's int() also takes "1_0" and non-ASCII digits)
    t = text[1:] if text[:1] in "+-" else text
    return t.isascii() and t.isdigit()


def whole_number_problem(text: str, what: str) -> str | None:
    """Why ``text`` is not a valid integer field of a TREC file (``what``: "relevance",
    "rank", "grade"), a message for the end of an error; None if it is one."""
    if not _is_int(text):
        return CODES("error_field_not_whole", what=what, value=repr(text))
    # past 10 digits it is out of range; int() of a very long one would raise ValueError
    if len(text.lstrip("+-").lstrip("0")) > 10 or not INT_MIN <= int(text) <= INT_MAX:
        return CODES("error_field_out_of_range", what=what, value=repr(text), low=INT_MIN, high=INT_MAX)
    return None


def _whole_sql(value: str) -> str:
    """SQL: ``value`` (VARCHAR) as INTEGER if it is a whole number, else an error (so
    that the slow pass names the line); out of INTEGER range, DuckDB's conversion error.

    A value that reads back as itself ("12", "-3") is one without the pattern, which
    costs twice as much; the pattern then admits "+1", "007" and the like."""
    v = f"({value})"
    return (
        f"CASE WHEN {v}::INTEGER::VARCHAR = {v} OR regexp_full_match({v}, '{_WHOLE_RE}') "
        f"THEN {v}::INTEGER ELSE error('not a whole number') END"
    )


def _is_number(text: str) -> bool:
    # Python's float() also takes "1_0" and non-ASCII digits, which DuckDB's DOUBLE does not
    if "_" in text or not text.isascii():
        return False
    try:
        float(text)
    except ValueError:
        return False
    return True


FORMATS = {"run": "qid Q0 docid rank score tag", "qrels": "qid iter docid rel"}


# -- writing: the one place where reljudge writes TREC lines --------------------------------


def qrels_text(rows: Iterable[tuple]) -> str:
    """qrels lines ``qid 0 docid grade`` from (qid, docid, grade) rows, in their order
    (the export, the reproducibility bundle)."""
    return "".join(f"{qid} 0 {docid} {int(grade)}\n" for qid, docid, grade in rows)


def sampled_qrels_text(rows: Iterable[tuple]) -> str:
    """The qrels ``sample_eval.pl`` reads (NIST, 2011): ``qid 0 docid stratum grade`` from
    (qid, docid, stratum, grade) rows, ``grade`` −1 for a pooled item not judged."""
    return "".join(f"{qid} 0 {docid} {int(stratum)} {int(grade)}\n" for qid, docid, stratum, grade in rows)


def run_text(rows: Iterable[tuple], tag: str, depth: int | None = None) -> str:
    """Run lines ``qid Q0 docid rank score tag`` from (qid, docid, rank) rows, in their order,
    ranks 1, 2, … per question. The score is ``depth + 1 - rank`` (``depth``: the deepest
    rank written, the largest rank of ``rows`` when not given): strictly decreasing whole
    numbers, so that trec_eval's own order (score descending, then docid) and every tie
    rule read the ranks back as written."""
    rows = [(qid, docid, int(rank)) for qid, docid, rank in rows]
    if depth is None:
        depth = max((rank for _, _, rank in rows), default=0)
    return "".join(f"{qid} Q0 {docid} {rank} {depth + 1 - rank} {tag}\n" for qid, docid, rank in rows)


def trec_lines(path, kind: str, display: str | None = None) -> Iterator[tuple[int, list[str]]]:
    """The one rule of reading a TREC file line by line, for every reader of reljudge
    (``import run``, ``import qrels``, ``gold``, and the slow pass of ``evaluate --qrels``):
    (line number, fields) of each line, in UTF-8 (a BOM on the first line tolerated);
    lines end at LF only (U+2028 or U+0085 end nothing; a bare CR is refused,
    :func:`line_ending_problem`); blank lines and comment lines (first non-blank
    character '#', as trec_eval 10) are skipped; every other line splits on ASCII
    spaces and tabs (:func:`split_fields`) into exactly the fields of ``kind``
    (run: qid Q0 docid rank score tag; qrels: qid iter docid rel), else an InputError
    naming ``display`` (default: the path) and the line. The fast DuckDB read
    (:func:`_source`) applies the same rules in SQL."""
    name = display or str(path)
    if not os.path.exists(path):
        raise InputError(name, None, CODES("error_no_such_file"))
    if os.path.isdir(path):
        raise InputError(name, None, CODES("error_is_directory"))
    ncols = len(FORMATS[kind].split())
    with open(path, "rb") as f:
        for i, raw in enumerate(f, start=1):
            try:
                line = raw.decode("utf-8-sig" if i == 1 else "utf-8")
            except UnicodeDecodeError:
                raise InputError(name, i, CODES("error_not_utf8")) from None
            problem = line_ending_problem(line)
            if problem:
                raise InputError(name, i, problem)
            parts = split_fields(line)
            if not parts or parts[0].startswith("#"):
                continue
            if len(parts) != ncols:
                raise InputError(
                    name, i, CODES("error_trec_field_count", expected=ncols, format=FORMATS[kind], found=len(parts))
                )
            yield i, parts


def _scan(path: str, kind: str, check_rank: bool = True) -> None:
    """Slow pass: raise InputError for the first bad line, including repeated documents.

    ``check_rank=False``: a run's rank field may be any token (trec_eval never reads it)."""
    seen: set[tuple[str, str]] = set()
    for i, parts in trec_lines(path, kind):
        problem = (
            whole_number_problem(parts[3], "rank" if kind == "run" else "relevance")
            if kind != "run" or check_rank
            else None
        )
        if problem:
            raise InputError(path, i, problem)
        if kind == "run" and not _is_number(parts[4]):
            raise InputError(path, i, CODES("error_score_not_number", value=repr(parts[4])))
        key = (parts[0], parts[2])
        if key in seen:
            what = "run" if kind == "run" else "qrels"
            raise InputError(path, i, CODES("error_document_twice", pid=repr(parts[2]), qid=repr(parts[0]), what=what))
        seen.add(key)


def _find_line(path: str, hit, nth: int = 1) -> int | None:
    """Number of the ``nth`` line whose fields satisfy ``hit`` (slow; used only to report an error)."""
    count = 0
    with open(path, "rb") as f:
        for i, raw in enumerate(f, start=1):
            parts = split_fields(raw.decode("utf-8-sig" if i == 1 else "utf-8", errors="replace"))
            if hit(parts):
                count += 1
                if count == nth:
                    return i
    return None


def _source(path: str, kind: str, delim: str, tolerant: bool, check_rank: bool = True) -> str:
    cols = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    if kind == "run" and not check_rank:
        # the rank field is read as text and never checked (trec_eval ignores it)
        cols = {**cols, "rank": "VARCHAR"}
    names = list(cols)
    p = path.replace("'", "''")

    def typed(c: str, text: str) -> str:
        # INTEGER fields are read as text and converted by _whole_sql, never by a cast
        return _whole_sql(text) if cols[c] == "INTEGER" else f"{text}::{cols[c]}"

    if not tolerant:
        spec = "{" + ", ".join(f"'{c}': '{'VARCHAR' if t == 'INTEGER' else t}'" for c, t in cols.items()) + "}"
        d = "\\t" if delim == "\t" else " "
        fields = ", ".join(f"{typed(c, c)} AS {c}" if cols[c] == "INTEGER" else c for c in names)
        # a comment line that happens to have the right fields reads as a row whose qid
        # starts with '#' (no real qid can: trec_eval would skip the line); others fail
        # this path and go to the tolerant one
        return (
            f"(SELECT {fields} FROM read_csv('{p}', delim=E'{d}', header=false, columns={spec}, quote='', escape='', "
            "auto_detect=false, strict_mode=true, null_padding=false, buffer_size=1048576) WHERE NOT starts_with(qid, '#'))"
        )
    # irregular whitespace: one column per line, split inside DuckDB
    fields = ", ".join(f"{typed(c, f'parts[{i + 1}]')} AS {c}" for i, c in enumerate(names))
    return (
        f"(SELECT {fields} FROM (SELECT regexp_split_to_array(trim(line, E' \\t\\r'), E'[ \\t]+') AS parts "
        f"FROM read_csv('{p}', columns={{'line': 'VARCHAR'}}, delim=E'\\x01', header=false, quote='', escape='', "
        "auto_detect=false) WHERE trim(line, E' \\t\\r') <> '' AND NOT starts_with(ltrim(line, E' \\t\\r'), '#')))"
    )


def _not_memory(exc: duckdb.Error) -> None:
    """A read that failed for want of memory says so: it is not a fault of the file,
    and scanning the file line by line for one would only need more memory."""
    if isinstance(exc, duckdb.OutOfMemoryException):
        raise OutOfMemory(str(exc).splitlines()[0]) from None


def _load(con: duckdb.DuckDBPyConnection, path: str, kind: str, table: str, select: str, params: list) -> None:
    first = _first_line(path)
    if first is None:
        if kind == "run":
            raise InputError(path, None, CODES(EMPTY_RUN))
        con.execute(f"CREATE OR REPLACE TABLE {_ident(table)} (qid VARCHAR, pid VARCHAR, grade INTEGER)")
        return
    delim = "\t" if "\t" in first else " "
    try:
        con.execute(
            f"CREATE OR REPLACE TABLE {_ident(table)} AS {select.format(src=_source(path, kind, delim, False))}", params
        )
    except duckdb.Error as fast_error:
        _not_memory(fast_error)
        _scan(path, kind)  # raises InputError naming the line, if any line is bad
        try:
            con.execute(
                f"CREATE OR REPLACE TABLE {_ident(table)} AS {select.format(src=_source(path, kind, delim, True))}",
                params,
            )
        except duckdb.Error:
            raise InputError(
                path, None, CODES("error_cannot_read_trec", kind=kind, detail=str(fast_error).splitlines()[0])
            ) from None
    dup = _first_duplicate(con, table)
    if dup:
        line = _find_line(path, lambda p: len(p) >= 3 and p[0] == dup[0] and p[2] == dup[1], nth=2)
        what = "run" if kind == "run" else "qrels"
        raise InputError(path, line, CODES("error_document_twice", pid=repr(dup[1]), qid=repr(dup[0]), what=what))


def _first_duplicate(con: duckdb.DuckDBPyConnection, table: str) -> tuple[str, str] | None:
    """A (qid, pid) present twice in ``table``, or None.

    Sorting 64-bit hashes in numpy needs far less memory than grouping 10M
    string pairs; equal hashes are then checked exactly, so a collision is
    never reported as a duplicate.
    """
    h = con.execute(f"SELECT hash(qid, pid) AS h FROM {_ident(table)}").fetchnumpy()["h"]
    if len(h) < 2:
        return None
    h = np.sort(h)
    same = h[1:][h[1:] == h[:-1]]
    if not len(same):
        return None
    return con.execute(
        f"SELECT qid, pid FROM {_ident(table)} WHERE hash(qid, pid) IN (SELECT unnest($h::UBIGINT[])) "
        "GROUP BY qid, pid HAVING count(*) > 1 ORDER BY qid, pid LIMIT 1",
        {"h": np.unique(same).tolist()},
    ).fetchone()


#: Rankings whose document hashes are checked for repeats together (read_run_top).
HASH_BATCH_ROWS = 1024


def _plain_numpy(array) -> np.ndarray:
    """An Arrow array of integers without nulls as a numpy view of its buffer (pyarrow's
    own ``to_numpy`` imports pandas, which `evaluate --qrels` otherwise never needs)."""
    if array.null_count:
        raise ValueError("an array with nulls")
    data = np.frombuffer(array.buffers()[1], dtype=np.dtype(str(array.type)))
    return data[array.offset : array.offset + len(array)]


def _repeated_rows(lists) -> np.ndarray:
    """Indices of the rows of an Arrow list array that hold some value twice (or
    share a 64-bit hash with a collision; callers check those rows exactly).

    Sorting each row is cheap when the rows are short and alike, as the rankings of
    a run are: the rows go into one matrix (padded at the end with the largest
    value) sorted along its rows, in two halves on two threads (numpy's sort
    releases the GIL).
    """
    import pyarrow as pa
    from concurrent.futures import ThreadPoolExecutor

    if isinstance(lists, pa.ChunkedArray):
        lists = lists.chunk(0) if lists.num_chunks == 1 else lists.combine_chunks()
    if len(lists) == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = _plain_numpy(lists.offsets).astype(np.int64)
    lengths = np.diff(offsets)
    values = _plain_numpy(lists.values)[offsets[0] : offsets[-1]]
    offsets -= offsets[0]
    n, width = len(lengths), int(lengths.max())
    if width < 2:
        return np.zeros(0, dtype=np.int64)
    if n * width > 2 * len(values) + 1_000_000:
        # very uneven rows: one sort of (row, value) pairs instead of a mostly-padding matrix
        row = np.repeat(np.arange(n), lengths)
        order = np.lexsort((values, row))
        v, r = values[order], row[order]
        same = (v[1:] == v[:-1]) & (r[1:] == r[:-1])
        return np.unique(r[1:][same])
    if (lengths == width).all():
        m = values.reshape(n, width)  # read-only view of Arrow's buffer: np.sort copies
    else:
        m = np.full((n, width), np.iinfo(values.dtype).max, dtype=values.dtype)
        m[np.repeat(np.arange(n), lengths), np.arange(len(values)) - np.repeat(offsets[:-1], lengths)] = values

    def check(lo: int, hi: int) -> np.ndarray:
        part = np.sort(m[lo:hi], axis=1)
        same = part[:, 1:] == part[:, :-1]
        # the padding is the largest value: only pairs inside a row's own length count
        same &= np.arange(1, width)[None, :] < lengths[lo:hi, None]
        return lo + np.nonzero(same.any(axis=1))[0]

    with ThreadPoolExecutor(2) as pool:
        return np.concatenate(list(pool.map(check, [0, n // 2], [n // 2, n])))


def read_run_top(
    con: duckdb.DuckDBPyConnection,
    path: str | os.PathLike,
    table: str,
    depth: int,
    ties: str = ranking.DEFAULT_TIES,
    system: str | None = None,
) -> str:
    """Load only the top ``depth`` rows of each ranking of a TREC run; returns the system name.

    Under a score tie rule (``trec10``, ``trec9``) the rank field is never read, so any
    token is accepted there (``1.0``, ``-``), as trec_eval does; under ``ranked`` it
    orders the ranking and must be a whole number.

    The same checks as :func:`read_run` cover every line of the file, and the file
    is read once. Up to :data:`reljudge.eval.ranking.TOP_N_HEAP_DEPTH` rows the run is
    never held whole: one aggregation per query keeps the ``depth`` best rows (in
    :func:`reljudge.eval.metrics.evaluate`'s order for ``ties``, see
    :func:`reljudge.eval.ranking.order_key_sql`), counts NaN scores and collects a 64-bit
    hash per document, and a query whose hashes repeat is checked exactly. Deeper,
    every row is kept with its place (:func:`reljudge.eval.ranking.position_sql`), in a
    table DuckDB spills to disk under a memory limit, and the checks read that
    table; rows beyond ``depth`` are then dropped. Since :func:`reljudge.eval.metrics.evaluate` looks at no more
    than :func:`reljudge.eval.metrics.ranking_depth` rows of a ranking, evaluating
    this table with measures of at most that depth gives the figures of the
    whole run.

    ``table`` is a view (system, qid, pid, score — DOUBLE under ``trec10``, the
    FLOAT compared under ``trec9``/``ranked`` — [, rank INTEGER under
    ``ranked``], position BIGINT = 1, 2, ... in that order) over the rows
    (``<table>__rows``) and the name (``<table>__name``).  Raises InputError
    as :func:`read_run` does.
    """
    path = os.fspath(path)
    name = system if system is not None else run_name(path)
    rows, top = f"{table}__rows", f"{table}__top"
    ranked = ranking.resolve(ties) == "ranked"
    # every row of a run file has a score and a rank: the key without its NULL fields
    key = order_key_sql(ties, "score", "rank", "docid", nullable=False)
    first = _first_line(path)
    if first is None:
        raise InputError(path, None, CODES(EMPTY_RUN))
    delim = "\t" if "\t" in first else " "

    deep = depth > ranking.TOP_N_HEAP_DEPTH

    def agg(tolerant: bool) -> str:
        source = _source(path, "run", delim, tolerant, ranked)
        if deep:
            # every row with its place: a window sort, which spills to disk under the
            # connection's memory limit (evaluate_cli.bounded_memory); the checks below
            # then read this table instead of lists of hashes
            rank = ", (-k.nr)::INTEGER AS rank" if ranked else ""
            return (
                f"CREATE OR REPLACE TABLE {_ident(rows)} AS SELECT qid, k.pid AS pid, k.s AS score{rank}, "
                f"{ranking.position_sql('k')} AS position FROM (SELECT qid, {key} AS k FROM {source})"
            )
        # min(rank::INTEGER): the reader skips columns nobody reads, and under "ranked"
        # every rank must still be checked, as in read_run's table
        check = ", min(rank::INTEGER) AS min_rank" if ranked else ""
        return (
            f"CREATE OR REPLACE TEMP TABLE {_ident(top)} AS SELECT qid, {ranking.top_rows_sql(key, key, depth)} AS top, "
            f"count(*) FILTER (WHERE isnan(score)) AS nan{check}, "
            f"list(hash(docid)) AS h FROM {source} GROUP BY qid"
        )

    try:
        con.execute(agg(False))
        tolerant = False
    except duckdb.Error as fast_error:
        _not_memory(fast_error)
        _scan(path, "run", check_rank=ranked)  # raises InputError naming the line, if any line is bad
        try:
            con.execute(agg(True))
        except duckdb.Error:
            raise InputError(
                path, None, CODES("error_cannot_read_trec", kind="run", detail=str(fast_error).splitlines()[0])
            ) from None
        tolerant = True
    try:
        if deep:
            dup = con.execute(
                f"SELECT qid, pid FROM {_ident(rows)} GROUP BY ALL HAVING count(*) > 1 ORDER BY qid, pid LIMIT 1"
            ).fetchone()
            nan = con.execute(f"SELECT count(*) FROM {_ident(rows)} WHERE isnan(score)").fetchone()[0]
        else:
            # a batch of rankings at a time: the hashes of a whole large run, fetched and
            # sorted at once, would cost as much memory again as the lists that hold them
            qids = []
            for batch in con.execute(f"SELECT qid, h FROM {_ident(top)}").to_arrow_reader(HASH_BATCH_ROWS):
                suspects = _repeated_rows(batch.column(1))
                if len(suspects):
                    qids += batch.column(0).take(suspects).to_pylist()
            dup = (
                con.execute(
                    f"SELECT qid, docid FROM {_source(path, 'run', delim, tolerant, ranked)} WHERE qid IN (SELECT unnest($q::VARCHAR[])) "
                    "GROUP BY qid, docid HAVING count(*) > 1 ORDER BY qid, docid LIMIT 1",
                    {"q": qids},
                ).fetchone()
                if qids
                else None
            )
            nan = con.execute(f"SELECT sum(nan) FROM {_ident(top)}").fetchone()[0]
        if dup:
            line = _find_line(path, lambda p: len(p) >= 3 and p[0] == dup[0] and p[2] == dup[1], nth=2)
            raise InputError(path, line, CODES("error_document_twice", pid=repr(dup[1]), qid=repr(dup[0]), what="run"))
        if nan:
            line = _find_line(
                path,
                lambda p: len(p) >= 5 and not p[0].startswith("#") and _is_number(p[4]) and math.isnan(float(p[4])),
            )
            raise InputError(path, line, CODES("error_score_nan"))
        if deep:
            con.execute(f"DELETE FROM {_ident(rows)} WHERE position > {int(depth)}")
        else:
            # max(x, n) lists its values largest first: the list index is the position
            cols = "t.pid AS pid, t.s AS score" + (", (-t.nr)::INTEGER AS rank" if ranked else "")
            con.execute(
                f"CREATE OR REPLACE TABLE {_ident(rows)} AS SELECT qid, {cols}, position "
                f"FROM (SELECT qid, unnest(top) AS t, generate_subscripts(top, 1) AS position FROM {_ident(top)})"
            )
    except BaseException:
        con.execute(f"DROP TABLE IF EXISTS {_ident(rows)}")
        raise
    finally:
        con.execute(f"DROP TABLE IF EXISTS {_ident(top)}")
    con.execute(f"CREATE OR REPLACE TABLE {_ident(table + '__name')} AS SELECT ?::VARCHAR AS system", [name])
    con.execute(
        f"CREATE OR REPLACE VIEW {_ident(table)} AS SELECT n.system, r.* "
        f"FROM {_ident(rows)} r CROSS JOIN {_ident(table + '__name')} n"
    )
    return name


def read_qrels(con: duckdb.DuckDBPyConnection, path: str | os.PathLike, table: str = "qrels") -> int:
    """Load TREC qrels into ``table`` (qid VARCHAR, pid VARCHAR, grade INTEGER); returns the row count.

    Raises InputError (file, line, problem) for malformed lines, non-integer
    relevance, a document judged twice for one query, or a file without judgments.
    """
    path = os.fspath(path)
    _load(con, path, "qrels", table, "SELECT qid, docid AS pid, rel::INTEGER AS grade FROM {src}", [])
    n = con.execute(f"SELECT count(*) FROM {_ident(table)}").fetchone()[0]
    if n == 0:
        raise InputError(path, None, CODES("error_qrels_empty"))
    return n


def run_name(path: str | os.PathLike) -> str:
    """The run's name: the tag of its first line, else the file name without extension."""
    path = os.fspath(path)
    first = _first_line(path)
    parts = split_fields(first) if first else []
    return parts[5] if len(parts) >= 6 else Path(path).stem


def run_tag(path: str | os.PathLike) -> str:
    """trec_eval's runid: the tag of the file's LAST content line (``get_trec_results.c``:
    "the run_id field of the last line is kept"), else the file name without extension."""
    path = os.fspath(path)
    _first_line(path)  # the same checks (exists, a file)
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        end = f.tell()
        block, tail = 65536, b""
        pos = end
        while pos > 0:
            step = min(block, pos)
            pos -= step
            f.seek(pos)
            tail = f.read(step) + tail
            lines = tail.split(b"\n")
            # the first piece may be a partial line unless we reached the file's start
            for raw in reversed(lines if pos == 0 else lines[1:]):
                line = raw.decode("utf-8", errors="replace")
                parts = split_fields(line)
                if parts and not is_comment(line):
                    return parts[5] if len(parts) >= 6 else Path(path).stem
            tail = lines[0] if pos else b""
    return Path(path).stem


def read_run(con: duckdb.DuckDBPyConnection, path: str | os.PathLike, table: str, system: str | None = None) -> str:
    """Load a TREC run as ``table`` (system, qid, pid, score DOUBLE, rank INTEGER); returns the system name.

    ``table`` is a view over the rows (table ``<table>__rows``) and the name
    (table ``<table>__name``).

    ``system`` defaults to :func:`run_name`.  Raises InputError (file, line,
    problem) for malformed lines, a rank that is not a whole number, a score that
    is not a number, a document repeated inside one query, and a file without
    results.
    """
    path = os.fspath(path)
    name = system if system is not None else run_name(path)
    rows = f"{table}__rows"
    _load(con, path, "run", rows, "SELECT qid, docid AS pid, score, rank::INTEGER AS rank FROM {src}", [])
    # the name lives in a one-row table joined in by a view: a constant column
    # would cost 16 bytes a row (160 MB for a 10M-line run)
    con.execute(f"CREATE OR REPLACE TABLE {_ident(table + '__name')} AS SELECT ?::VARCHAR AS system", [name])
    con.execute(
        f"CREATE OR REPLACE VIEW {_ident(table)} AS SELECT n.system, r.qid, r.pid, r.score, r.rank "
        f"FROM {_ident(rows)} r CROSS JOIN {_ident(table + '__name')} n"
    )
    if con.execute(f"SELECT count(*) FROM {_ident(rows)} WHERE isnan(score)").fetchone()[0]:
        line = _find_line(
            path, lambda p: len(p) >= 5 and not p[0].startswith("#") and _is_number(p[4]) and math.isnan(float(p[4]))
        )
        raise InputError(path, line, CODES("error_score_nan"))
    return name
