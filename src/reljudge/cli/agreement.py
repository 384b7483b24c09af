"""`reljudge agreement`: inter-annotator agreement on a CSV of grades or on the database.

The command is a thin layer over :mod:`reljudge.agreement.coefficients`; ``register`` adds it
to the main parser's subparsers and sets ``func`` to :func:`run_agreement`.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import unicodedata
from pathlib import Path

from typing import TYPE_CHECKING

from reljudge import i18n
from reljudge.codes import Codes, Message
from reljudge.errors import DatabaseLockedError, InputError, ReljudgeError

if TYPE_CHECKING:
    import pandas as pd

    from reljudge.agreement.coefficients import AgreementReport, AgreementResult

# pandas and reljudge.agreement.coefficients are imported where they are used: `reljudge` registers
# this subcommand on every start, and `evaluate --qrels` must not pay for them (tests/test_evaluate_memory.py).

CODES = Codes(
    error_grades_not_utf8=("byte",),
    error_grades_unreadable=("detail",),
    error_grades_file_empty=(),
    error_grades_malformed_csv=("detail",),
    error_grades_missing_columns=("missing", "required", "found"),
    error_grades_duplicate_columns=("columns",),
    error_grades_field_count=("expected", "found"),
    error_grades_empty_field=("field",),
    error_grades_not_integer=("value", "grades"),
    error_grades_out_of_range=("grade", "grades"),
    error_grades_conflict=("annotator", "qid", "pid", "grade", "old", "first"),
    error_grades_type_conflict=("qid", "qtype", "old", "first"),
    error_grades_no_rows=(),
    error_reviews_no_file=(),
)
"""What this command can tell people: codes worded by reljudge.i18n (the CLI prints the English)."""

REQUIRED_COLUMNS = ("annotator", "qid", "pid", "grade")
TYPE_COLUMN = "type"  # optional: the question's type, for the per-type breakdown

EPILOG = """\
FILE.csv (UTF-8) has the columns annotator,qid,pid,grade (grade 0, 1 or 2) and
optionally type (the question type, for a per-type breakdown). One row per
judgment; an item is a (qid, pid) pair. Without FILE, the judgments in the
database (--db) are used.

With --reviews, agreement of the answer reviewers instead (answer review): on the
support grade of each (sentence, cited paragraph) and on each answer's
interpretation, 0 < 1 < 2; imported review sources (import reviews --source NAME)
join as raters named source:NAME, as imported qrels sources do for paragraph grades.

examples:
  reljudge agreement grades.csv
  reljudge agreement grades.csv --format json
  reljudge --db judgments/campaign.duckdb agreement --format json
  reljudge agreement --reviews                 # answer reviewers: support, interpretation
  reljudge agreement --reviews --format json
"""


def register(subparsers) -> argparse.ArgumentParser:
    """Add the ``agreement`` subcommand to an argparse subparsers object."""
    parser = subparsers.add_parser(
        "agreement",
        help="inter-annotator agreement (kappa, alpha, percent agreement)",
        description="Percent agreement, Cohen's kappa per annotator pair (unweighted and "
        "linear-weighted), Fleiss' kappa and Krippendorff's alpha (nominal and "
        "ordinal), overall and per question type, with the number of items each "
        "figure rests on. A figure that cannot be computed is null, with the reason.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", nargs="?", metavar="FILE.csv", help="grades as CSV (annotator,qid,pid,grade); default: the database"
    )
    parser.add_argument(
        "--format",
        choices=("json", "table"),
        default="table",
        help="json for programs, table for people (default: table)",
    )
    parser.add_argument(
        "--reviews",
        action="store_true",
        help="agreement of the answer reviewers (support grades, interpretation) "
        "in the database, imported review sources included",
    )
    parser.set_defaults(func=run_agreement)
    return parser


def _decode(path: str, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(path, line, CODES("error_grades_not_utf8", byte=f"{data[exc.start]:02x}")) from None


def read_grades_csv(path: str) -> tuple[pd.DataFrame, dict[str, str] | None]:
    """Read and check a grades CSV; return (grades frame, qid → type or None).

    Raises :class:`InputError` naming the file, line and problem: unreadable or
    empty file, invalid UTF-8, missing columns, wrong field count, empty id,
    grade not an integer 0..2, one annotator grading one item twice with
    different grades, one question given two different types.  A row repeated
    with the same grade counts once.
    """
    import pandas as pd

    from reljudge.agreement.coefficients import GRADES

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(path, None, CODES("error_grades_unreadable", detail=str(exc.strerror or exc))) from None
    text = _decode(path, data)
    if not text.strip():
        raise InputError(path, None, CODES("error_grades_file_empty"))
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip() for h in next(reader)]
    except csv.Error as exc:
        raise InputError(path, 1, CODES("error_grades_malformed_csv", detail=str(exc))) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise InputError(
            path,
            1,
            CODES(
                "error_grades_missing_columns",
                missing=", ".join(missing),
                required=",".join(REQUIRED_COLUMNS),
                found=",".join(header),
            ),
        )
    dupes = sorted({h for h in header if header.count(h) > 1 and h})
    if dupes:
        raise InputError(path, 1, CODES("error_grades_duplicate_columns", columns=", ".join(dupes)))
    pos = {name: header.index(name) for name in REQUIRED_COLUMNS}
    type_pos = header.index(TYPE_COLUMN) if TYPE_COLUMN in header else None

    seen: dict[tuple[str, str, str], tuple[int, int]] = {}
    types: dict[str, tuple[str, int]] = {}
    rows: list[tuple[str, str, str, int]] = []
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise InputError(path, reader.line_num, CODES("error_grades_malformed_csv", detail=str(exc))) from None
        line = reader.line_num
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InputError(path, line, CODES("error_grades_field_count", expected=len(header), found=len(row)))
        annotator, qid, pid, grade_text = (row[pos[c]].strip() for c in REQUIRED_COLUMNS)
        for name, value in (("annotator", annotator), ("qid", qid), ("pid", pid)):
            if not value:
                raise InputError(path, line, CODES("error_grades_empty_field", field=name))
        try:
            grade = int(grade_text)
        except ValueError:
            raise InputError(
                path, line, CODES("error_grades_not_integer", value=grade_text, grades=", ".join(map(str, GRADES)))
            ) from None
        if grade not in GRADES:
            raise InputError(
                path, line, CODES("error_grades_out_of_range", grade=grade, grades=", ".join(map(str, GRADES)))
            )
        key = (annotator, qid, pid)
        if key in seen:
            old_grade, old_line = seen[key]
            if old_grade != grade:
                raise InputError(
                    path,
                    line,
                    CODES(
                        "error_grades_conflict",
                        annotator=annotator,
                        qid=qid,
                        pid=pid,
                        grade=grade,
                        old=old_grade,
                        first=old_line,
                    ),
                )
            continue
        seen[key] = (grade, line)
        if type_pos is not None:
            qtype = row[type_pos].strip()
            if qtype:
                if qid in types and types[qid][0] != qtype:
                    raise InputError(
                        path,
                        line,
                        CODES(
                            "error_grades_type_conflict", qid=qid, qtype=qtype, old=types[qid][0], first=types[qid][1]
                        ),
                    )
                types.setdefault(qid, (qtype, line))
        rows.append((annotator, qid, pid, grade))
    if not rows:
        raise InputError(path, None, CODES("error_grades_no_rows"))
    grades = pd.DataFrame(rows, columns=list(REQUIRED_COLUMNS))
    question_types = {q: t for q, (t, _) in types.items()} if types else None
    return grades, question_types


def _on_database(args: argparse.Namespace, compute):
    """``compute(db)`` on the database at ``args.db`` (which must exist), closed after."""
    from reljudge.storage import open_database

    db = open_database(getattr(args, "db", None), must_exist=True)
    try:
        return compute(db)
    finally:
        db.close()


def agreement_from_database(args: argparse.Namespace) -> AgreementReport:
    """Agreement on the current judgments stored in the database at ``args.db``."""
    from reljudge.campaign.team_agreement import from_database

    return _on_database(args, from_database)


def outcome_from_database(args: argparse.Namespace):
    """System rankings per annotator and the questions that change the winner."""
    from reljudge.campaign.outcome_agreement import outcome_agreement

    return _on_database(args, outcome_agreement)


def reviews_from_database(args: argparse.Namespace):
    """Agreement of the answer reviewers in the database at ``args.db``."""
    from reljudge.campaign.team_agreement import reviews_from_database as compute

    return _on_database(args, compute)


# --------------------------------------------------------------------------
# Table output
# --------------------------------------------------------------------------


def _width(text: str) -> int:
    # Hangul and other wide characters take two terminal columns.
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _section(title: str, res: AgreementResult | None, ordinal: bool = True) -> list[str]:
    from reljudge.agreement.coefficients import NOT_APPLICABLE

    if res is None:
        return [f"{title}: no data", ""]
    lines = [
        f"{title}: {len(res.annotators)} annotator(s), {res.n_items} of "
        f"{res.n_items_total} items rated by two or more, {res.n_ratings} ratings"
    ]
    fleiss = "Fleiss' kappa" + (f" ({res.fleiss_raters} raters/item)" if res.fleiss_raters else "")
    figures = [
        ("percent agreement", res.percent_agreement, res.percent_agreement_n),
        (fleiss, res.fleiss_kappa, res.fleiss_n),
        ("Krippendorff's alpha, nominal", res.krippendorff_alpha_nominal, res.krippendorff_n),
    ]
    if ordinal:
        figures.append(("Krippendorff's alpha, ordinal", res.krippendorff_alpha_ordinal, res.krippendorff_n))
    lines.append(f"  {'figure':<36}{'value':>8}{'items':>8}")
    lines += [f"  {name:<36}{_fmt(v):>8}{n:>8}" for name, v, n in figures]
    if res.cohen_kappa:
        width = max(19, *(_width(k) + 2 for k in res.cohen_kappa))
        head = f"  {_ljust('Cohen kappa, pair', width)}{'unweighted':>12}"
        head += f"{'linear':>10}" if ordinal else ""
        lines.append(head + f"{'items':>8}")
        for key, value in res.cohen_kappa.items():
            row = f"  {_ljust(key, width)}{_fmt(value):>12}"
            row += f"{_fmt(res.cohen_kappa_linear.get(key)):>10}" if ordinal else ""
            lines.append(row + f"{res.cohen_n[key]:>8}")
    shown = {k: v for k, v in res.reasons.items() if ordinal or v.code not in NOT_APPLICABLE}
    if shown:
        lines.append("  not computed (—):")
        lines += [f"    {k}: {i18n.message(v, 'en')}" for k, v in shown.items()]
    lines.append("")
    return lines


def readable_reasons(doc):
    """``doc`` (a ``to_dict()``) with every ``reasons`` dict in English catalog text for
    people, the codes and parameters kept beside it as ``reason_codes`` for programs."""
    if isinstance(doc, list):
        return [readable_reasons(v) for v in doc]
    if not isinstance(doc, dict):
        return doc
    out = {k: readable_reasons(v) for k, v in doc.items()}
    reasons = doc.get("reasons")
    if isinstance(reasons, dict) and all(isinstance(v, dict) and "code" in v for v in reasons.values()):
        out["reasons"] = {k: i18n.message(Message.from_dict(v), "en") for k, v in reasons.items()}
        out["reason_codes"] = reasons
    return out


def format_table(report: AgreementReport) -> str:
    """Plain-text tables for people: overall, no-answer verdict, then per question type."""
    lines = _section("Paragraph grades", report.grades)
    if report.no_answer is not None:
        lines += _section("No-answer verdict", report.no_answer, ordinal=False)
    for qtype, (grades, verdicts) in report.by_type.items():
        lines += _section(f"Question type {qtype!s}: paragraph grades", grades)
        if report.no_answer is not None:
            lines += _section(f"Question type {qtype!s}: no-answer verdict", verdicts, ordinal=False)
    return "\n".join(lines).rstrip() + "\n"


def format_review_table(report) -> str:
    """Plain-text tables of a ReviewAgreementReport: overall, then per question type."""
    lines = _section("Support grades (sentence × cited paragraph)", report.support)
    lines += _section("Interpretation (per answer)", report.interpretation)
    for qtype, (support, interpretation) in report.by_type.items():
        lines += _section(f"Question type {qtype!s}: support grades", support)
        lines += _section(f"Question type {qtype!s}: interpretation", interpretation)
    return "\n".join(lines).rstrip() + "\n"


def run_agreement(args: argparse.Namespace) -> int:
    """Handler of ``reljudge agreement``: print the figures; 0 on success, 2 on error."""
    from reljudge.agreement.coefficients import compute_agreement

    try:
        if getattr(args, "reviews", False):
            if getattr(args, "file", None):
                raise ReljudgeError(CODES("error_reviews_no_file"))
            report = reviews_from_database(args)
            if getattr(args, "format", "table") == "json":
                sys.stdout.write(
                    json.dumps(
                        readable_reasons(report.to_dict()), ensure_ascii=False, indent=2, allow_nan=False, default=str
                    )
                    + "\n"
                )
            else:
                sys.stdout.write(format_review_table(report))
            return 0
        if getattr(args, "file", None):
            grades, question_types = read_grades_csv(args.file)
            report = compute_agreement(grades, question_types=question_types)
            outcome = None
        else:
            report, outcome = agreement_from_database(args), outcome_from_database(args)
        if getattr(args, "format", "table") == "json":
            doc = report.to_dict()
            if outcome is not None:
                doc["outcome"] = outcome.to_dict()
            out = json.dumps(readable_reasons(doc), ensure_ascii=False, indent=2, allow_nan=False, default=str)
            sys.stdout.write(out + "\n")
        else:
            sys.stdout.write(format_table(report))
            if outcome is not None:
                sys.stdout.write(f"\nSystem rankings by {outcome.measure} under each annotator's labels:\n")
                for name, ranking in outcome.rankings.items():
                    sys.stdout.write(f"  {name}: {' > '.join(ranking)}\n")
                for pair, tau in outcome.kendall_tau.items():
                    sys.stdout.write(f"  Kendall's tau {pair}: {'—' if tau is None else f'{tau:.3f}'}\n")
                for r in outcome.flagged.itertuples():
                    sys.stdout.write(
                        f"  question {r.qid}: {r.annotator}'s labels would make "
                        f"{r.winner_if_annotator} come first instead of {r.winner}\n"
                    )
    except DatabaseLockedError:
        raise  # the command line's: a running app that holds the file carries it out
    except ReljudgeError as exc:
        message = " ".join(str(exc).split())  # always one line
        print(f"reljudge agreement: error: {message}", file=sys.stderr)
        return 2
    return 0
