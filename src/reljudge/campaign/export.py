"""Qrels out and in: TREC, BEIR TSV, JSONL, CSV, Parquet; and the raw judgment history.

Exported qrels follow a stated aggregation policy (see :mod:`reljudge.campaign.adjudication`);
a duplicate paragraph's copies all carry its judgment. No-answer questions go to a
file of their own beside the qrels (``NAME.no_answer.tsv`` or the same format), so
they are never silently dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from reljudge import times
from reljudge.policy import Policy, source_policy, team_policies
from reljudge.campaign import adjudication
from reljudge.codes import Codes, Message
from reljudge.errors import InputError, ReljudgeError
from reljudge.grades import GRADES
from reljudge.campaign.importers import check_name, iter_text_lines
from reljudge.storage import catalog, judge_sources, qrels_io
from reljudge.storage.db import Database
from reljudge.eval import trec_io
from reljudge.eval.trec_io import line_ending_problem, trec_lines, whole_number_problem

CODES = Codes(
    error_no_qrels_source=("source",),
    error_trec_sampled_no_sample=(),
    error_trec_sampled_source=(),
    error_trec_sampled_min_grade=(),
    error_unknown_qrels_format=("format", "choices"),
    error_unknown_history_format=("format", "choices"),
    error_qrels_import_format=("format",),
    error_beir_header=(),
    error_beir_fields=("n",),
    error_qrels_empty_id=(),
    error_grade_not_whole=("value",),
    error_grade_range=("value", "grades"),  # grades: the scale of reljudge.grades
    error_qrels_conflict=("qid", "pid", "grade", "other", "other_line"),
    error_no_qrels_rows=(),
    error_qrels_no_source=(),
    notice_identical_duplicates=("n",),
    notice_model_source_export=("source", "graded", "errors"),
)
"""The problems of a qrels import (:func:`read_qrels`, inside ``InputError``), worded by the pages."""

QRELS_FORMATS = ("trec", "beir", "jsonl", "csv", "parquet")
#: what TREC's sample_eval.pl reads (docs/sampling.md): only under a sampling plan, so the
#: export page's choices stay QRELS_FORMATS
SAMPLED_FORMAT = "trec-sampled"
JUDGMENT_FORMATS = ("jsonl", "csv", "parquet")


@dataclass
class ExportSummary:
    paths: list[Path] = field(default_factory=list)
    n_rows: int = 0
    n_no_answer: int = 0
    policy: str = ""
    no_answer_included: bool = False
    notices: list[Message] = field(default_factory=list)  # for stderr: a model source's graded and errors

    def message(self) -> str:
        files = ", ".join(str(p) for p in self.paths)
        where = (
            "also as rows of the qrels (--include-no-answer)"
            if self.no_answer_included
            else "left out of the qrels, listed in the no-answer file"
        )
        return f"{self.n_rows} qrels rows, {self.n_no_answer} no-answer questions {where} ({self.policy}) -> {files}"


def qrels_table(
    db: Database,
    policy: str = "adjudicated",
    version: int | None = None,
    min_grade: int | None = None,
    threshold: int = 2,
    include_no_answer: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(qrels rows, no-answer questions) under ``policy`` or a frozen ``version``;
    ``source:NAME`` gives an imported source's rows unchanged.

    The no-answer questions (final judgment: no citable evidence) are left out of the
    rows unless ``include_no_answer``: the evaluation leaves them out of the means, and
    their all-zero rows would make ``trec_eval -c`` average them in as zeros (a lower MRR
    than the dashboard's, for the same judgments). Their list is the second frame."""
    name = Policy.parse(policy).source()
    if name is not None:
        # a source auto-judge registered is a source even before it graded a pair
        if name not in qrels_io.sources(db) and judge_sources.meta(db, name) is None:
            raise ReljudgeError(CODES("error_no_qrels_source", source=repr(name)))
        rows = qrels_io.external(db, name)
        rows["judged_as"] = rows["pid"]
        verdicts = pd.DataFrame(columns=["qid", "no_answer", "provenance", "n_annotators"])
    else:
        rows = qrels_io.expand_to_copies(db, adjudication.qrels(db, policy, version))
        verdicts = adjudication.verdicts(db, policy, threshold, version)
        details = qrels_io.judgment_details(db)
        rows = rows.merge(details.rename(columns={"pid": "judged_as"}), on=["qid", "judged_as"], how="left")
    if min_grade is not None:
        rows = rows[rows.grade >= min_grade]
    no_answer = verdicts[verdicts.no_answer.astype(bool)].reset_index(drop=True)
    if not include_no_answer:
        rows = rows[~rows.qid.isin(set(no_answer.qid))]
    return rows.reset_index(drop=True), no_answer


def _side_path(path: Path, fmt: str) -> Path:
    ext = {"trec": "tsv", "beir": "tsv"}.get(fmt, fmt)
    return path.with_name(f"{path.stem}.no_answer.{ext}")


#: What a spreadsheet program reads as the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def defuse_formulas(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell that a spreadsheet would run as a formula (it starts
    with ``= + - @``, a tab or a carriage return) prefixed with ``'``, as OWASP recommends
    for CSV files: a paragraph id ``=HYPERLINK(…)`` opens as text, not as a live link.
    Numbers stay numbers (``-0.5`` is a number column, not text). Every CSV file reljudge
    writes goes through this; TSV, TREC, JSONL and Parquet files are data for programs and
    keep their values exactly."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object or pd.api.types.is_string_dtype(out[column]):
            out[column] = out[column].map(
                lambda v: "'" + v if isinstance(v, str) and v.startswith(FORMULA_STARTS) else v
            )
    return out


def _write_frame(frame: pd.DataFrame, path: Path, fmt: str) -> None:
    if fmt == "csv":
        defuse_formulas(frame).to_csv(path, index=False, encoding="utf-8")
    elif fmt == "parquet":
        frame.to_parquet(path, index=False)
    elif fmt == "jsonl":
        # Missing values are JSON null: pandas' NaN would be written as the non-JSON token NaN.
        records = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
        with open(path, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec, ensure_ascii=False, default=_jsonable, allow_nan=False) + "\n")
    else:
        frame.to_csv(path, index=False, sep="\t", encoding="utf-8")


def _jsonable(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def write_qrels(
    db: Database,
    path,
    fmt: str = "trec",
    policy: str = "adjudicated",
    version: int | None = None,
    min_grade: int | None = None,
    include_no_answer: bool = False,
) -> ExportSummary:
    if fmt == SAMPLED_FORMAT:
        if min_grade is not None:  # the sample's lines are its design: none may be left out
            raise ReljudgeError(CODES("error_trec_sampled_min_grade"))
        return write_sampled_qrels(db, path, policy, version, include_no_answer)
    if fmt not in QRELS_FORMATS:
        choices = ", ".join((*QRELS_FORMATS, SAMPLED_FORMAT))
        raise ReljudgeError(CODES("error_unknown_qrels_format", format=repr(fmt), choices=choices))
    path = Path(path)
    rows, no_answer = qrels_table(db, policy, version, min_grade, include_no_answer=include_no_answer)
    path.parent.mkdir(parents=True, exist_ok=True)
    label = f"version {version}" if version is not None else adjudication.describe_policy(policy)
    if fmt == "trec":
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(trec_io.qrels_text(zip(rows.qid, rows.pid, rows.grade)))
    elif fmt == "beir":
        rows[["qid", "pid", "grade"]].rename(columns={"qid": "query-id", "pid": "corpus-id", "grade": "score"}).to_csv(
            path, sep="\t", index=False, encoding="utf-8"
        )
    else:
        rich = rows.assign(policy=policy if version is None else f"version:{version}")
        _write_frame(rich, path, fmt)
    side = _side_path(path, fmt)
    _write_frame(no_answer, side, "tsv" if fmt in ("trec", "beir") else fmt)
    return ExportSummary([path, side], len(rows), len(no_answer), label, include_no_answer, _model_notices(db, policy))


def write_sampled_qrels(
    db: Database, path, policy: str = "adjudicated", version: int | None = None, include_no_answer: bool = False
) -> ExportSummary:
    """The sampling plan's draw with the grades under ``policy``/``version`` as TREC's
    ``sample_eval.pl`` reads it (reljudge.eval.sampling.trec_sampled_qrels): one line
    ``qid 0 pid stratum grade`` per pooled item, grade −1 where the item was not drawn or
    not yet judged, items named as the pool names them (duplicate groups). rr-first's
    items, known at estimation time only, are not marked (the format cannot say so): they
    count as judged only where drawn. No-answer questions as in the other formats."""
    from reljudge.campaign import plan
    from reljudge.eval import sampling

    if Policy.parse(policy).source() is not None:
        raise ReljudgeError(CODES("error_trec_sampled_source"))
    draws = plan.draws_of(db) if plan.current(db).samples else []
    if not draws:
        raise ReljudgeError(CODES("error_trec_sampled_no_sample"))
    _, no_answer = qrels_table(db, policy, version, include_no_answer=include_no_answer)
    grades: dict[str, dict[str, int]] = {}
    for qid, pid, grade in adjudication.qrels(db, policy, version)[["qid", "pid", "grade"]].itertuples(index=False):
        grades.setdefault(str(qid), {})[str(pid)] = int(grade)
    left_out = set() if include_no_answer else set(no_answer.qid.astype(str))
    kept = [d for d in draws if d.qid not in left_out]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = sampling.trec_sampled_qrels(kept, grades)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    side = _side_path(path, "trec")
    _write_frame(no_answer, side, "tsv")
    label = f"version {version}" if version is not None else adjudication.describe_policy(policy)
    n = text.count("\n")
    return ExportSummary([path, side], n, len(no_answer), label, include_no_answer, [])


def _model_notices(db: Database, policy: str) -> list[Message]:
    """A model source's export says how many pairs it graded and could not grade
    (notice_model_source_export); any other policy's says nothing more."""
    name = Policy.parse(policy).source()
    if name is None or judge_sources.meta(db, name) is None:
        return []
    graded, errors = len(judge_sources.graded_keys(db, name)), len(judge_sources.errors(db, name))
    return [CODES("notice_model_source_export", source=name, graded=graded, errors=errors)]


def qrels_bytes(
    db: Database,
    fmt: str,
    policy: str = "adjudicated",
    version: int | None = None,
    min_grade: int | None = None,
    include_no_answer: bool = False,
) -> tuple[bytes, bytes]:
    """(qrels file, no-answer file) as bytes — for download buttons."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        summary = write_qrels(db, Path(tmp) / f"qrels.{fmt}", fmt, policy, version, min_grade, include_no_answer)
        return summary.paths[0].read_bytes(), summary.paths[1].read_bytes()


@dataclass(frozen=True)
class Download:
    """One file the export page offers: ``build`` makes its bytes, only when called (the
    page hands it to the download button as a deferred callable, so a render of the page
    serialises nothing)."""

    key: str  # also the name of its button's label in the UI catalog: download_<key>
    file_name: str
    build: Callable[[], bytes]
    mime: str | None = None


def downloads(
    db: Database,
    fmt: str,
    policy: str = "adjudicated",
    version: int | None = None,
    min_grade: int | None = None,
    include_no_answer: bool = False,
) -> list[Download]:
    """The export page's files, none built yet: qrels in ``fmt`` under ``policy`` or a
    frozen ``version`` (no-answer questions left out unless ``include_no_answer``), its
    no-answer file, the full judgment history, the adjudications."""
    if fmt not in QRELS_FORMATS:
        raise ReljudgeError(CODES("error_unknown_qrels_format", format=repr(fmt), choices=", ".join(QRELS_FORMATS)))
    ext = {"trec": "txt", "beir": "tsv"}.get(fmt, fmt)
    side = {"trec": "tsv", "beir": "tsv"}.get(fmt, fmt)
    qrels = lambda part: lambda: qrels_bytes(db, fmt, policy, version, min_grade, include_no_answer)[part]  # noqa: E731
    return [
        Download("qrels", f"qrels.{ext}", qrels(0)),
        Download("no_answer", f"qrels.no_answer.{side}", qrels(1)),
        Download("judgments", "judgments.jsonl", lambda: judgments_bytes(db), "application/jsonl"),
        Download("adjudications", "adjudications.jsonl", lambda: adjudications_bytes(db), "application/jsonl"),
    ]


def _write_history(frame: pd.DataFrame, path, fmt: str) -> int:
    if fmt not in JUDGMENT_FORMATS:
        raise ReljudgeError(
            CODES("error_unknown_history_format", format=repr(fmt), choices=", ".join(JUDGMENT_FORMATS))
        )
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    _write_frame(frame, Path(path), fmt)
    return len(frame)


def _zoned(db: Database, frame: pd.DataFrame) -> pd.DataFrame:
    """Time stamps as ISO 8601 with the offset of the campaign's zone (stored: UTC)."""
    return times.localize_frame(frame, catalog.campaign_zone(db))


def write_judgments(db: Database, path, fmt: str = "jsonl") -> int:
    """The full, append-only event history (for archiving and audit); times in ISO 8601
    with the campaign zone's offset."""
    return _write_history(_zoned(db, qrels_io.raw_events(db)), path, fmt)


def write_adjudications(db: Database, path, fmt: str = "jsonl") -> int:
    """Every lead adjudication with its reason, oldest first (a later ruling on the same
    paragraph or question replaces the earlier one; ``in_force`` marks the latest)."""
    from reljudge.storage import team

    return _write_history(_zoned(db, team.adjudication_history(db)), path, fmt)


# -- import -------------------------------------------------------------------------


@dataclass(frozen=True)
class QrelsImport:
    """What a qrels or gold import did: ``rows`` stored, and ``duplicates``, the rows of
    the file that repeated an earlier row exactly (same qid, docid and grade) and were
    skipped; a repeat with another grade is refused (``error_qrels_conflict``)."""

    rows: int
    duplicates: int = 0

    def notices(self) -> list[Message]:
        """What to tell the lead besides the count (the CLI prints it, the pages show it)."""
        return [CODES("notice_identical_duplicates", n=self.duplicates)] if self.duplicates else []


def read_qrels(path, fmt: str | None = None, display: str | None = None) -> pd.DataFrame:
    """Rows (line, qid, pid, grade) of a TREC (``qid 0 docid rel``) or BEIR TSV
    (``query-id corpus-id score`` with header) qrels file, validated."""
    return read_qrels_counted(path, fmt, display)[0]


def read_qrels_counted(path, fmt: str | None = None, display: str | None = None) -> tuple[pd.DataFrame, int]:
    """:func:`read_qrels` and the number of identical duplicate rows it skipped."""
    path = Path(path)
    name = display or str(path)
    if fmt is None:
        fmt = "beir" if path.suffix.lower() == ".tsv" else "trec"
    if fmt not in ("trec", "beir"):
        raise ReljudgeError(CODES("error_qrels_import_format", format=str(fmt)))
    # TREC: the one TREC line rule (comments, fields, line endings) of every reader; BEIR: tab-separated
    lines = iter_text_lines(path, name) if fmt == "beir" else trec_lines(path, "qrels", name)
    rows, seen, duplicates = [], {}, 0
    for lineno, line in lines:
        if fmt == "beir" and not line.strip():
            continue
        if fmt == "beir":
            problem = line_ending_problem(line)
            if problem:
                raise InputError(name, lineno, problem)
            parts = line.rstrip("\r\n").split("\t")
            if lineno == 1:
                if [p.strip() for p in parts] != ["query-id", "corpus-id", "score"]:
                    raise InputError(name, lineno, CODES("error_beir_header"))
                continue
            if len(parts) != 3:
                raise InputError(name, lineno, CODES("error_beir_fields", n=len(parts)))
            qid, pid, grade_text = (p.strip() for p in parts)
        else:
            qid, _, pid, grade_text = line
        problem = whole_number_problem(grade_text, "grade")  # the rule of `evaluate --qrels`
        if problem is not None and problem.code == "error_field_not_whole":
            raise InputError(name, lineno, CODES("error_grade_not_whole", value=grade_text))
        # a whole number, of any length, off the one grade scale (reljudge.grades)
        if problem is not None or int(grade_text) not in GRADES:
            raise InputError(
                name, lineno, CODES("error_grade_range", value=grade_text, grades=", ".join(map(str, GRADES)))
            )
        grade = int(grade_text)
        if not qid or not pid:
            raise InputError(name, lineno, CODES("error_qrels_empty_id"))
        key = (qid, pid)
        if key in seen:
            if seen[key][0] != grade:
                raise InputError(
                    name,
                    lineno,
                    CODES(
                        "error_qrels_conflict",
                        qid=qid,
                        pid=pid,
                        grade=grade,
                        other=seen[key][0],
                        other_line=seen[key][1],
                    ),
                )
            duplicates += 1
            continue
        seen[key] = (grade, lineno)
        rows.append((lineno, qid, pid, grade))
    if not rows:
        raise InputError(name, None, CODES("error_no_qrels_rows"))
    return pd.DataFrame(rows, columns=["line", "qid", "pid", "grade"]), duplicates


def import_qrels(db: Database, path, source: str, fmt: str | None = None, display: str | None = None) -> QrelsImport:
    """Load judgments made elsewhere as source ``source`` (replacing an earlier import):
    the rows stored and the identical duplicate rows of the file skipped."""
    source = (source or "").strip()
    if not source:
        raise ReljudgeError(CODES("error_qrels_no_source"))
    check_name(source, None, None, "source name")
    rows, duplicates = read_qrels_counted(path, fmt, display)
    return QrelsImport(qrels_io.import_external(db, source, rows, display or str(path)), duplicates)


sources = qrels_io.sources


def export_choices(db: Database) -> list[tuple[str, int | None]]:
    """(policy, version) pairs a lead can export: live policies, each annotator, each
    imported source, each frozen version."""
    from reljudge.storage import team

    choices: list[tuple[str, int | None]] = [(p, None) for p in team_policies()]
    choices += [(str(Policy("annotator", a)), None) for a in sorted(set(team.current_grades(db).annotator))]
    choices += [(source_policy(s), None) for s in qrels_io.sources(db)]
    choices += [("adjudicated", int(v)) for v in adjudication.versions(db).version]
    return choices


def _jsonl_bytes(write, db: Database) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.jsonl"
        write(db, path, "jsonl")
        return path.read_bytes()


def judgments_bytes(db: Database) -> bytes:
    return _jsonl_bytes(write_judgments, db)


def adjudications_bytes(db: Database) -> bytes:
    return _jsonl_bytes(write_adjudications, db)
