"""Reading corpus, question and run files: formats, field mapping, line-exact errors.

Files are read as a stream and handed to the storage layer in bounded chunks
(DataFrames of ``CHUNK_ROWS`` rows), so a million-paragraph corpus never holds a
Python object per row. Every problem raises :class:`InputError` naming the file,
the line and the problem; the storage layer writes nothing unless the whole file
is valid.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

import pandas as pd

from reljudge.codes import Codes, Message
from reljudge.display import id_problem
from reljudge.errors import InputError
from reljudge.eval import trec_io
from reljudge.eval.trec_io import line_ending_problem, trec_lines

CODES = Codes(
    error_malformed_csv=("detail",),
    error_format_not_for_kind=("format",),
    error_file_not_found=(),
    error_is_directory=(),
    error_file_empty=(),
    error_bad_utf8=("byte",),
    error_bad_json=("detail", "column"),
    error_not_object=(),
    error_no_records=(),
    error_no_header=(),
    error_missing_column=("columns", "found"),
    error_extra_fields=("n",),
    error_missing_field=("field",),
    error_not_id=("field", "value"),
    error_id_whitespace=("field", "value"),
    error_not_integer=("field", "value"),
    error_out_of_range=("field", "value"),
    error_not_number=("field", "value"),
    error_not_finite=("field", "value"),
    error_not_bool=("field", "value"),
    error_unknown_format=("format", "formats"),
    error_unknown_suffix=("suffix",),
    error_no_suffix=(),
    error_empty_text=(),
    error_empty_question=(),
    error_no_system=(),
    error_no_rank=(),
    error_rank_negative=("rank",),
    error_nul=("field",),
    error_json_too_deep=("limit",),
    error_json_number_too_long=("limit",),
    error_answer_too_long=("n", "limit"),
    error_system_empty=(),
    error_answer_no_system=(),
    error_answer_twice=("system", "qid", "first"),
    error_answer_not_text=("value",),
    error_answer_empty=(),
    error_citations_not_list=("value",),
    error_marker_outside=("n", "entries"),
    error_sentences_not_list=(),
    error_sentence_item=("i",),
    error_markers_first=(),
    error_lone_surrogate=("field", "escape"),  # field: a name, or error_part_key(_in)
    error_part_key_in=("field",),
    error_part_key=(),
    error_unclosed_quote=(),
    error_quote_closed_early=("line", "detail"),
    error_run_many_systems=("n", "systems"),
)
"""The problems with an input file this module reports as codes (inside ``InputError``)."""

CHUNK_ROWS = 20_000
FORMATS = ("jsonl", "csv", "trec", "beir")

_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def text_key(text: str) -> str:
    """Key of the normalised text: NFKC, case-folded, whitespace and punctuation
    removed. Two paragraphs with the same key are duplicates (docs/policies.md#정책--policies: duplicates)."""
    norm = _NON_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())
    return hashlib.md5(norm.encode("utf-8")).hexdigest()


# -- low-level readers ---------------------------------------------------------


def _check_file(path: Path, name: str) -> None:
    if not path.exists():
        raise InputError(name, None, CODES("error_file_not_found"))
    if path.is_dir():
        raise InputError(name, None, CODES("error_is_directory"))
    if path.stat().st_size == 0:
        raise InputError(name, None, CODES("error_file_empty"))


def count_lines(path: Path) -> int:
    """Physical lines in ``path`` (a last line without a newline counts), read in
    blocks: cheap enough to give a progress bar its total."""
    n, last = 0, b"\n"
    with open(path, "rb") as fh:
        while block := fh.read(1 << 22):
            n += block.count(b"\n")
            last = block[-1:]
    return n + (last != b"\n")


def iter_text_lines(path: Path, display: str | None = None) -> Iterator[tuple[int, str]]:
    """(line number, decoded line) with strict UTF-8; a BOM is tolerated."""
    name = display or str(path)
    _check_file(path, name)
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(name, lineno, CODES("error_bad_utf8", byte=exc.start)) from None
            if lineno == 1 and line.startswith("\ufeff"):
                line = line[1:]
            yield lineno, line


# A \uD800-\uDFFF escape: JSON accepts it, but alone (not as half of a pair) it is no
# character at all and cannot be stored as UTF-8. Only lines holding one are walked.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF][0-9a-fA-F]{2}")


def _lone_surrogate(value, field: str = "") -> tuple[str | Message, str] | None:
    """(field, the escape) of the first string (key or value) holding a lone surrogate."""
    if isinstance(value, str):
        for ch in value:
            if "\ud800" <= ch <= "\udfff":
                return field, f"\\u{ord(ch):04x}"
    elif isinstance(value, dict):
        for key, item in value.items():
            if _lone_surrogate(key):  # the key is no name to print: say where it is
                where = CODES("error_part_key_in", field=field) if field else CODES("error_part_key")
                return where, _lone_surrogate(key)[1]
            found = _lone_surrogate(item, f"{field}.{key}" if field else key)
            if found:
                return found
    elif isinstance(value, list):
        for k, item in enumerate(value):
            found = _lone_surrogate(item, f"{field}[{k}]")
            if found:
                return found
    return None


#: How deeply a JSON value in an input file may nest. No field of ours needs more than a
#: few levels (metadata objects); a deeper value is refused rather than parsed, since
#: Python's JSON parser and the checks after it recurse once per level.
MAX_JSON_DEPTH = 64


def _too_deep(value) -> bool:
    """Whether ``value`` nests deeper than :data:`MAX_JSON_DEPTH` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def load_json(text: str, name: str, lineno: int | None):
    """The one reader of a JSON value of an input file (a JSONL line of a corpus,
    questions, run, answers or reviews file; a cell holding a JSON list): a malformed,
    too deeply nested one, or one holding an integer too long for Python to convert, is
    an ``InputError`` naming the file and line, never a traceback."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(name, lineno, CODES("error_bad_json", detail=exc.msg, column=exc.colno)) from None
    except RecursionError:
        raise InputError(name, lineno, CODES("error_json_too_deep", limit=MAX_JSON_DEPTH)) from None
    except ValueError:
        # the only other ValueError of json.loads: an integer of more digits than
        # int() converts (sys.get_int_max_str_digits(), 4300 by default)
        limit = sys.get_int_max_str_digits()
        raise InputError(name, lineno, CODES("error_json_number_too_long", limit=limit)) from None
    if _too_deep(value):
        raise InputError(name, lineno, CODES("error_json_too_deep", limit=MAX_JSON_DEPTH))
    return value


def iter_jsonl(path: Path, display: str | None = None) -> Iterator[tuple[int, dict]]:
    name = display or str(path)
    seen = False
    for lineno, line in iter_text_lines(path, name):
        if not line.strip():
            continue
        # without its line break, so the column counts from the start of this line
        try:
            obj = load_json(line.rstrip("\r\n"), name, lineno)
        except InputError:
            # a carriage return inside the line, where the JSON fails: CR-only line
            # endings (the whole file reads as one line), said as such
            problem = line_ending_problem(line)
            if problem:
                raise InputError(name, lineno, problem) from None
            raise
        if not isinstance(obj, dict):
            raise InputError(name, lineno, CODES("error_not_object"))
        if _SURROGATE_ESCAPE.search(line):
            found = _lone_surrogate(obj)
            if found:
                field, escape = found
                raise InputError(name, lineno, CODES("error_lone_surrogate", field=field, escape=escape))
        seen = True
        yield lineno, obj
    if not seen:
        raise InputError(name, None, CODES("error_no_records"))


def iter_csv(
    path: Path, required_any: Iterable[Iterable[str]], display: str | None = None
) -> Iterator[tuple[int, dict]]:
    """CSV with a header row; ``required_any`` lists groups of which one column must exist."""
    name = display or str(path)
    # Validate the encoding line by line first: the csv module would only say
    # "invalid UTF-8" without a line number.
    for _ in iter_text_lines(path, name):
        pass
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    with open(path, encoding="utf-8-sig", newline="") as fh:
        # strict: a quote that never closes (or text after a closing quote) is an error,
        # not the rest of the file silently merged into one field
        reader = csv.DictReader(fh, strict=True)
        start = 1  # first line of the record being read
        try:
            header = reader.fieldnames or []
        except csv.Error as exc:
            raise _csv_error(path, name, start, exc) from None
        if not header:
            raise InputError(name, 1, CODES("error_no_header"))
        header_set = {h.strip() for h in header}
        for group in required_any:
            group = list(group)
            if not header_set.intersection(group):
                raise InputError(
                    name,
                    1,
                    CODES(
                        "error_missing_column",
                        columns=" / ".join(repr(g) for g in group),
                        found=str(sorted(header_set)),
                    ),
                )
        seen = False
        start = reader.line_num + 1
        try:
            for row in reader:
                lineno = reader.line_num
                if None in row:
                    raise InputError(name, lineno, CODES("error_extra_fields", n=len(header)))
                start = lineno + 1
                if all((v or "").strip() == "" for v in row.values()):
                    continue
                seen = True
                yield lineno, {k.strip(): (v if v != "" else None) for k, v in row.items()}
        except csv.Error as exc:
            raise _csv_error(path, name, start, exc) from None
        if not seen:
            raise InputError(name, None, CODES("error_no_records"))


def _csv_error(path: Path, name: str, start: int, exc: csv.Error) -> InputError:
    """The csv module's error, placed on the line where the offending quoted field
    begins (the module itself only knows where it gave up: often the end of the file)."""
    opened, closed_by = _quote_trouble(path, start)
    if opened is not None and closed_by is None:
        return InputError(name, opened, CODES("error_unclosed_quote"))
    if opened is not None:
        return InputError(name, opened, CODES("error_quote_closed_early", line=closed_by, detail=str(exc)))
    return InputError(name, start, CODES("error_malformed_csv", detail=str(exc)))


def _quote_trouble(path: Path, start: int) -> tuple[int | None, int | None]:
    """Reading the record that starts on line ``start`` as the csv module does: (line
    where the bad quoted field opens, line where it closes or None if never), or
    (None, None) if no quoted field is at fault."""
    with open(path, encoding="utf-8-sig", newline="") as fh:
        for _ in range(start - 1):
            fh.readline()
        text = fh.read()
    line, k, n = start, 0, len(text)
    in_quote, at_field_start, opened = False, True, None
    while k < n:
        c = text[k]
        if in_quote:
            if c == '"':
                if k + 1 < n and text[k + 1] == '"':
                    k += 2
                    continue
                in_quote = False
                after = text[k + 1] if k + 1 < n else "\n"
                if after not in ",\r\n":
                    return opened, line
            elif c == "\n":
                line += 1
        elif c == '"' and at_field_start:
            in_quote, opened, at_field_start = True, line, False
        elif c == ",":
            at_field_start = True
        elif c == "\n":
            line += 1
            at_field_start = True
        elif c != "\r":
            at_field_start = False
        k += 1
    return (opened, None) if in_quote else (None, None)


# -- field helpers --------------------------------------------------------------


def _id(value, name: str, lineno: int, field: str) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise InputError(name, lineno, CODES("error_missing_field", field=field))
    if isinstance(value, (dict, list, bool, float)):
        raise InputError(name, lineno, CODES("error_not_id", field=field, value=value))
    text = str(value).strip()
    problem = id_problem(text, field)
    if problem:
        raise InputError(name, lineno, problem)
    if any(c.isspace() for c in text):
        raise InputError(name, lineno, CODES("error_id_whitespace", field=field, value=text))
    return text


def _system_name(value: str, name: str, lineno: int | None) -> str:
    return check_name(value, name, lineno, "system name")


def check_name(value, file: str | None, lineno: int | None, field: str) -> str:
    """The one rule for a name (system, reviewer, source) read from a file or an option:
    text, not blank, and without invisible or control characters (U+202E would show "evil"
    as "live"; reljudge.display.id_problem). Spaces inside are allowed, unlike in ids.
    Returns the name stripped; an ``InputError`` names the file, line and field."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(file, lineno, CODES("error_missing_field", field=field))
    text = value.strip()
    problem = id_problem(text, field)
    if problem:
        raise InputError(file, lineno, problem)
    return text


def jsonl_records(src: "Source") -> Iterator[tuple[int, dict]]:
    """A JSONL file's records under the rules every import follows (NUL refused in any
    field, too deep JSON refused, file and line named)."""
    return _records(src, "jsonl", [])


def _opt_str(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    text = str(value).strip()
    return text or None


def _rank(value, name: str, lineno: int) -> int | None:
    """A run's rank: a whole number of 0 or more (0-based rankings are common in TREC
    files), the same rule for TREC, JSONL and CSV."""
    rank = _opt_int(value, name, lineno, "rank")
    if rank is not None and rank < 0:
        raise InputError(name, lineno, CODES("error_rank_negative", rank=rank))
    return rank


_WHOLE_TEXT = re.compile(r"[+-]?[0-9]+")


def _opt_int(value, name: str, lineno: int, field: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise InputError(name, lineno, CODES("error_not_integer", field=field, value=value))
    if isinstance(value, int) or (isinstance(value, str) and _WHOLE_TEXT.fullmatch(value.strip())):
        # a whole number, however long: out of range, not "not an integer" (float() of
        # 400 digits is infinite), and exact (float() would round past 2**53)
        text = str(value).strip() if isinstance(value, str) else None
        if text is not None and len(text.lstrip("+-").lstrip("0")) > 19:
            raise InputError(name, lineno, CODES("error_out_of_range", field=field, value=value))
        number = int(text) if text is not None else value
        if abs(number) >= 2**63:
            raise InputError(name, lineno, CODES("error_out_of_range", field=field, value=value))
        return number
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(name, lineno, CODES("error_not_integer", field=field, value=value)) from None
    if not number.is_integer():
        raise InputError(name, lineno, CODES("error_not_integer", field=field, value=value))
    if abs(number) >= 2**63:
        raise InputError(name, lineno, CODES("error_out_of_range", field=field, value=value))
    return int(number)


def _opt_float(value, name: str, lineno: int, field: str) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise InputError(name, lineno, CODES("error_not_number", field=field, value=value))
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(name, lineno, CODES("error_not_number", field=field, value=value)) from None
    if number != number or number in (float("inf"), float("-inf")):
        raise InputError(name, lineno, CODES("error_not_finite", field=field, value=value))
    return number


_TRUE = {"true", "1", "yes", "y", "t", "예", "참"}
_FALSE = {"false", "0", "no", "n", "f", "아니오", "거짓", ""}


def _opt_bool(value, name: str, lineno: int, field: str) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    text = str(value).strip().casefold()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(name, lineno, CODES("error_not_bool", field=field, value=value))


def _pick(obj: dict, *keys):
    for key in keys:
        if key in obj and obj[key] is not None:
            return obj[key]
    return None


def _detect_format(src: "Source", fmt: str | None, kind: str) -> str:
    if fmt:
        if fmt not in FORMATS:
            raise InputError(src.display, None, CODES("error_unknown_format", format=fmt, formats=tuple(FORMATS)))
        return "jsonl" if fmt == "beir" else fmt
    suffix = src.path.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    if kind == "run":
        return "trec"
    raise InputError(
        src.display, None, CODES("error_unknown_suffix", suffix=suffix) if suffix else CODES("error_no_suffix")
    )


def _chunks(rows: Iterator[dict], columns: list[str]) -> Iterator[pd.DataFrame]:
    batch: list[dict] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= CHUNK_ROWS:
            yield pd.DataFrame.from_records(batch, columns=columns)
            batch = []
    if batch:
        yield pd.DataFrame.from_records(batch, columns=columns)


# -- corpus -------------------------------------------------------------------------

CORPUS_COLUMNS = [
    "line",
    "pid",
    "doc_id",
    "title",
    "date",
    "volume",
    "page",
    "position",
    "text",
    "text_key",
    "metadata",
]
_CORPUS_KNOWN = {"pid", "_id", "id", "doc_id", "title", "date", "volume", "page", "position", "text", "metadata"}


@dataclass
class Source:
    """A file to import, plus the name shown in messages (an upload's own name)."""

    path: Path
    display: str

    @classmethod
    def of(cls, path, display: str | None = None) -> "Source":
        path = Path(path)
        return cls(path, display or str(path))


def _nul_field(value, field: str = "") -> str | None:
    """The field (key or value, at any depth) that holds a NUL character, if any."""
    if isinstance(value, str):
        return field or "value" if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and "\x00" in key:
                return f"a key in {field}" if field else "a key"
            found = _nul_field(item, f"{field}.{key}" if field else str(key))
            if found:
                return found
    if isinstance(value, list):
        for k, item in enumerate(value):
            found = _nul_field(item, f"{field}[{k}]")
            if found:
                return found
    return None


def _records(src: Source, fmt: str, required_any) -> Iterator[tuple[int, dict]]:
    """The file's records, whatever its format, under one rule: a NUL character (raw or
    escaped as \\u0000) is refused in every field, naming the line and the field."""
    if fmt == "jsonl":
        records = iter_jsonl(src.path, src.display)
    elif fmt == "csv":
        records = iter_csv(src.path, required_any, src.display)
    else:
        raise InputError(src.display, None, CODES("error_format_not_for_kind", format=repr(fmt)))
    for lineno, obj in records:
        field = _nul_field(obj)
        if field:
            raise InputError(src.display, lineno, CODES("error_nul", field=field))
        yield lineno, obj


def corpus_chunks(src: Source, fmt: str | None = None) -> Iterator[pd.DataFrame]:
    """Paragraph chunks: JSONL/CSV with pid,text[,doc_id,title,date,volume,page,position]
    or BEIR corpus.jsonl (_id, title, text, metadata). Other columns are kept as metadata."""
    kind = _detect_format(src, fmt, "corpus")
    name = src.display

    def rows():
        for lineno, obj in _records(src, kind, [("pid", "_id", "id"), ("text",)]):
            meta = obj.get("metadata")
            extra: dict = {}
            if isinstance(meta, dict):
                extra.update(meta)
            elif meta is not None:
                extra["metadata"] = meta
            for key, value in obj.items():
                if key not in _CORPUS_KNOWN and value is not None:
                    extra[key] = value
            merged = {**extra, **{k: v for k, v in obj.items() if k in _CORPUS_KNOWN}}
            pid = _id(_pick(obj, "pid", "_id", "id"), name, lineno, "pid")
            text = obj.get("text")
            if not isinstance(text, str) or not text.strip():
                raise InputError(name, lineno, CODES("error_empty_text"))
            for key in ("doc_id", "date", "volume", "page", "position"):
                extra.pop(key, None)
            yield {
                "line": lineno,
                "pid": pid,
                "doc_id": _opt_str(merged.get("doc_id")),
                "title": _opt_str(obj.get("title")),
                "date": _opt_str(merged.get("date")),
                "volume": _opt_str(merged.get("volume")),
                "page": _opt_str(merged.get("page")),
                "position": _opt_int(merged.get("position"), name, lineno, "position"),
                "text": text,
                "text_key": text_key(text),
                "metadata": json.dumps(extra, ensure_ascii=False) if extra else None,
            }

    return _chunks(rows(), CORPUS_COLUMNS)


# -- questions ----------------------------------------------------------------------

QUESTION_COLUMNS = ["line", "qid", "text", "qtype", "criteria", "no_answer_expected"]


def question_chunks(src: Source, fmt: str | None = None) -> Iterator[pd.DataFrame]:
    """Questions: JSONL/CSV with qid,text[,type,criteria,no_answer_expected] or BEIR
    queries.jsonl (_id, text, metadata holding the optional fields)."""
    kind = _detect_format(src, fmt, "questions")
    name = src.display

    def rows():
        for lineno, obj in _records(src, kind, [("qid", "_id", "id"), ("text",)]):
            meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
            merged = {**meta, **obj}
            qid = _id(_pick(obj, "qid", "_id", "id"), name, lineno, "qid")
            text = obj.get("text")
            if not isinstance(text, str) or not text.strip():
                raise InputError(name, lineno, CODES("error_empty_question"))
            flag = merged.get("no_answer_expected")
            # None = the file does not give the field: a new question gets the default, a
            # known one keeps what it has (a re-import never blanks a field it leaves out).
            yield {
                "line": lineno,
                "qid": qid,
                "text": text.strip(),
                "qtype": _opt_str(_pick(merged, "type", "qtype")),
                "criteria": _opt_str(merged.get("criteria")),
                "no_answer_expected": None if flag is None else _opt_bool(flag, name, lineno, "no_answer_expected"),
            }

    return _chunks(rows(), QUESTION_COLUMNS)


# -- runs ---------------------------------------------------------------------------

RUN_COLUMNS = ["line", "system", "qid", "pid", "rank", "score", "abstained"]


def run_chunks(src: Source, fmt: str | None = None, system: str | None = None) -> Iterator[pd.DataFrame]:
    """Run rows: TREC (``qid Q0 pid rank score tag``) or JSONL/CSV with qid, pid,
    rank and/or score, optional ``abstained`` (true: the system abstained on the
    question; a row without a pid says only that, a row with one is also ranked) and
    tag/system.
    The system name is ``system`` if given, else the row's tag."""
    kind = _detect_format(src, fmt, "run")
    name = src.display
    if system is not None:
        system = system.strip()
        if not system:
            raise InputError(name, None, CODES("error_system_empty"))
        _system_name(system, name, None)

    def trec_rows():
        seen = False
        _check_file(src.path, name)
        for lineno, parts in trec_lines(src.path, "run", name):  # the one TREC line rule
            seen = True
            qid, _q0, pid, rank, score, tag = parts
            qid, pid = _id(qid, name, lineno, "qid"), _id(pid, name, lineno, "pid")
            yield {
                "line": lineno,
                "system": system or _system_name(tag, name, lineno),
                "qid": qid,
                "pid": pid,
                "rank": _rank(rank, name, lineno),
                "score": _opt_float(score, name, lineno, "score"),
                "abstained": False,
            }
        if not seen:
            raise InputError(name, None, CODES("error_no_records"))

    def table_rows():
        for lineno, obj in _records(src, kind, [("qid",)]):
            qid = _id(obj.get("qid"), name, lineno, "qid")
            abstained = _opt_bool(obj.get("abstained"), name, lineno, "abstained")
            sys_name = system or _opt_str(_pick(obj, "system", "tag"))
            if not sys_name:
                raise InputError(name, lineno, CODES("error_no_system"))
            _system_name(sys_name, name, lineno)
            raw_pid = _pick(obj, "pid", "docid", "doc_id", "corpus-id")
            if abstained:
                # The system declined to answer this question. A row that also names a
                # paragraph is a ranking row too: a RAG system can retrieve and still abstain.
                yield {
                    "line": lineno,
                    "system": sys_name,
                    "qid": qid,
                    "pid": None,
                    "rank": None,
                    "score": None,
                    "abstained": True,
                }
                if raw_pid is None or not str(raw_pid).strip():
                    continue
            pid = _id(raw_pid, name, lineno, "pid")
            rank = _rank(obj.get("rank"), name, lineno)
            score = _opt_float(obj.get("score"), name, lineno, "score")
            if rank is None and score is None:
                raise InputError(name, lineno, CODES("error_no_rank"))
            yield {
                "line": lineno,
                "system": sys_name,
                "qid": qid,
                "pid": pid,
                "rank": rank,
                "score": score,
                "abstained": False,
            }

    rows = trec_rows() if kind == "trec" else table_rows()
    return _chunks(rows, RUN_COLUMNS)


def write_run_as_trec(path: Path, out: Path, ties: str) -> str:
    """A JSONL or CSV run (what ``reljudge import run`` reads) written as a TREC run
    file ``out``, for the readers that take TREC only (``reljudge evaluate --qrels``):
    each ranking in the order the campaign gives it under ``ties``
    (:func:`reljudge.eval.ranking.order_key_sql`, rows without a score or rank included),
    ranks 1, 2, … and scores that decrease with the rank, so that every tie rule reads
    that order back. Abstention rows carry no paragraph and are left out. Returns the
    run's system name; a file naming several systems is refused (one run per file)."""
    import duckdb
    from reljudge.eval.ranking import order_key_sql

    src = Source.of(path)
    frame = pd.concat(list(run_chunks(src)), ignore_index=True)
    frame = frame[frame.pid.notna()]
    systems = sorted(set(frame.system))
    if len(systems) != 1:
        raise InputError(
            src.display, None, CODES("error_run_many_systems", n=len(systems), systems=", ".join(systems[:5]))
        )
    con = duckdb.connect()
    try:
        con.register("run_rows", frame[["qid", "pid", "rank", "score"]])
        ordered = con.execute(f"""
            SELECT qid, pid, row_number() OVER (PARTITION BY qid ORDER BY {order_key_sql(ties)} DESC) AS place
            FROM run_rows ORDER BY qid, place""").fetchall()
    finally:
        con.close()
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(trec_io.run_text(ordered, systems[0]))
    return systems[0]


# -- generated answers ----------------------------------------------------------------

# A citation marker: "[p0012]", "[3]" or several at once, "[1, 2]" / "[p1,p2]". A bracket
# whose content holds spaces inside an id ("[예시 자료]") is ordinary text.
_MARKER = re.compile(r"\[\s*([^\[\]\s,]+(?:\s*,\s*[^\[\]\s,]+)*)\s*\]")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([.,!?;:。、」』)])")


@dataclass
class AnswerRecord:
    """One imported answer: ``sentences`` are (text without markers, [cited pids])."""

    line: int
    qid: str
    system: str
    answer: str
    abstained: bool
    sentences: list[tuple[str, list[str]]]


def _citation_list(value, name: str, lineno: int) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            value = load_json(text, name, lineno)
        else:
            value = [v for v in re.split(r"[;,\s]+", text) if v]
    if not isinstance(value, list):
        raise InputError(name, lineno, CODES("error_citations_not_list", value=value))
    return [_id(v, name, lineno, "cited pid") for v in value]


def _resolve_markers(text: str, citations: list[str], name: str, lineno: int) -> tuple[str, list[str], bool]:
    """(text without markers, the pids its markers cite in order, whether it had any).
    A number n cites ``citations[n - 1]``; anything else names a paragraph id."""
    cited: list[str] = []
    for match in _MARKER.finditer(text):
        for token in (t.strip() for t in match.group(1).split(",")):
            if token.isdigit():
                n = int(token)
                if not 1 <= n <= len(citations):
                    raise InputError(name, lineno, CODES("error_marker_outside", n=n, entries=len(citations)))
                pid = citations[n - 1]
            else:
                pid = token
            if pid not in cited:
                cited.append(pid)
    clean = _SPACE_BEFORE_PUNCT.sub(r"\1", _MARKER.sub("", text))
    return " ".join(clean.split()), cited, bool(_MARKER.search(text))


def _sentence_list(value, name: str, lineno: int) -> list | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = load_json(value, name, lineno)
    if not isinstance(value, list):
        raise InputError(name, lineno, CODES("error_sentences_not_list"))
    return value


#: The longest answer text accepted (characters): a generated answer is a few paragraphs
#: (ten pages of Korean are about 20,000); this bounds what one record can cost to split
#: (bench/bench_answer_split.py: Kiwi takes about 0.1 ms a character on text without breaks).
MAX_ANSWER_CHARS = 20_000


def answer_records(src: Source, fmt: str | None = None, system: str | None = None) -> list[AnswerRecord]:
    """Generated answers: JSONL or CSV with ``qid``, ``system`` (or ``--system``),
    ``answer``, optional ``citations`` (a list of pids; in CSV a JSON list or ids
    separated by ``;``), ``sentences`` (the answer pre-split: strings, or objects with
    ``text`` and ``citations``) and ``abstained``.

    Each sentence keeps the citations written in it: inline markers ``[pid]`` or
    ``[n]`` (n-th entry of ``citations``, from 1). An answer without any marker cites
    its ``citations`` list as a whole: every sentence is reviewed against every listed
    paragraph. Without ``sentences`` the answer is split by kiwipiepy's
    ``split_into_sents`` (:mod:`reljudge.korean`). Checked here: the fields, markers
    outside the list, duplicate (qid, system), an empty answer without ``abstained``;
    unknown qids and pids are checked against the campaign by the storage layer."""
    kind = _detect_format(src, fmt, "answers")
    name = src.display
    if system is not None:
        system = system.strip()
        if not system:
            raise InputError(name, None, CODES("error_system_empty"))
    out: list[AnswerRecord] = []
    seen: dict[tuple[str, str], int] = {}
    for lineno, obj in _records(src, kind, [("qid",), ("answer",)]):
        qid = _id(obj.get("qid"), name, lineno, "qid")
        sys_name = system or _opt_str(obj.get("system"))
        if not sys_name:
            raise InputError(name, lineno, CODES("error_answer_no_system"))
        sys_name = _system_name(sys_name, name, lineno)
        if (qid, sys_name) in seen:
            raise InputError(
                name, lineno, CODES("error_answer_twice", system=sys_name, qid=qid, first=seen[(qid, sys_name)])
            )
        seen[(qid, sys_name)] = lineno
        answer = obj.get("answer")
        if answer is not None and not isinstance(answer, str):
            raise InputError(name, lineno, CODES("error_answer_not_text", value=answer))
        answer = (answer or "").strip()
        if len(answer) > MAX_ANSWER_CHARS:
            raise InputError(name, lineno, CODES("error_answer_too_long", n=len(answer), limit=MAX_ANSWER_CHARS))
        abstained = _opt_bool(obj.get("abstained"), name, lineno, "abstained")
        if not answer and not abstained:
            raise InputError(name, lineno, CODES("error_answer_empty"))
        citations = _citation_list(obj.get("citations"), name, lineno)
        given = _sentence_list(obj.get("sentences"), name, lineno)
        pieces: list[tuple[str, list[str] | None]] = []
        if given is None:
            pieces = [(s, None) for s in (_split(answer) if answer else [])]
        else:
            for i, item in enumerate(given):
                if isinstance(item, str):
                    pieces.append((item, None))
                elif isinstance(item, dict) and isinstance(item.get("text"), str):
                    pieces.append((item["text"], _citation_list(item.get("citations"), name, lineno)))
                else:
                    raise InputError(name, lineno, CODES("error_sentence_item", i=i))
            given_chars = sum(len(text) for text, _ in pieces)
            if given_chars > MAX_ANSWER_CHARS:
                raise InputError(name, lineno, CODES("error_answer_too_long", n=given_chars, limit=MAX_ANSWER_CHARS))
        resolved = [(_resolve_markers(text, citations, name, lineno), own) for text, own in pieces]
        any_marker = any(had for (_, _, had), _ in resolved)
        sentences: list[tuple[str, list[str]]] = []
        for (text, cited, _), own in resolved:
            if own is not None:
                cited = cited + [p for p in own if p not in cited]
            elif not any_marker:
                cited = list(dict.fromkeys(citations))
            if text:
                sentences.append((text, cited))
            elif cited and sentences:
                # markers set after the full stop ("...입니다. [1]") cite the sentence before
                prev_text, prev = sentences[-1]
                sentences[-1] = (prev_text, prev + [p for p in cited if p not in prev])
            elif cited:
                raise InputError(name, lineno, CODES("error_markers_first"))
        if not sentences and not abstained:
            raise InputError(name, lineno, CODES("error_answer_empty"))
        out.append(AnswerRecord(lineno, qid, sys_name, answer, abstained, sentences))
    return out


def _split(text: str) -> list[str]:
    from reljudge import korean

    return korean.split_sentences(text)
