"""The CLI's commands that take a campaign's results out: ``freeze``, ``export`` and
``report`` (registered by :func:`reljudge.cli.main.build_parser`)."""

from __future__ import annotations

import sys
from pathlib import Path

from reljudge import i18n
from reljudge.cli.common import error as _error
from reljudge.cli.common import open_db as _db
from reljudge.codes import Codes
from reljudge.grades import GRADES
from reljudge.policy import Policy, source_policy

CODES = Codes(error_source_policy_disagree=("source", "policy"))
"""The errors these commands raise themselves."""


def register(sub, add) -> None:
    """Add the commands to the subparsers ``sub``; ``add(name, help, example, handler)``
    makes a command's parser as every command of cli/main.py is made."""
    p = add(
        "freeze",
        "freeze the aggregated judgments as the next numbered qrels version",
        "reljudge freeze --note 'after adjudication round 1'",
        cmd_freeze,
    )
    p.add_argument(
        "--policy",
        default="adjudicated",
        help="adjudicated (default), majority, or annotator:NAME; adjudicated+exclude-flagged or "
        "majority+exclude-flagged records whom quality control flagged and leaves them out",
    )
    p.add_argument("--note")
    p.add_argument("--lead", default="cli", help="name recorded as the author")

    p = add(
        "export",
        "export qrels (aggregated, per annotator or a frozen version), the raw "
        "judgment history, the lead's adjudications with their reasons, a reproducibility "
        "bundle (qrels and runs exactly as evaluated, with the trec_eval commands for every number), "
        "or the answer reviews",
        "reljudge export qrels --format trec --policy adjudicated -o judgments/qrels.txt\n"
        "  reljudge export bundle --version 2 -o judgments/bundle-v2",
        cmd_export,
    )
    p.add_argument("what", choices=["qrels", "judgments", "adjudications", "bundle", "reviews"])
    p.add_argument(
        "--source",
        metavar="NAME",
        help="an imported source instead of the team's judgments or reviews: the same as --policy source:NAME",
    )
    p.add_argument(
        "--format",
        choices=["trec", "beir", "jsonl", "csv", "parquet", "trec-sampled"],
        help="qrels: trec (default), beir, jsonl, csv, parquet, trec-sampled (under a sampling plan: "
        "the draw with its strata, what TREC's sample_eval.pl reads); "
        "judgments, adjudications: jsonl (default), csv, parquet",
    )
    p.add_argument(
        "--policy",
        help="qrels, bundle: adjudicated (default), majority, annotator:NAME or source:NAME "
        "(adjudicated and majority take +exclude-flagged); reviews: source:NAME only",
    )
    p.add_argument("--version", type=int, help="a frozen qrels version instead of the live state")
    p.add_argument("--min-grade", type=int, choices=list(GRADES), help="only rows with grade >= this")
    p.add_argument(
        "--include-no-answer",
        action="store_true",
        help="qrels: keep the no-answer questions' rows (default: left out, as the evaluation "
        "leaves them out of the means, and listed in the .no_answer file beside)",
    )
    from reljudge.eval.ranking import DEDUP

    p.add_argument(
        "--dedup", choices=list(DEDUP), help="bundle: duplicates policy to evaluate under (default: the campaign's)"
    )
    p.add_argument("-o", "--output", required=True, help="output file (bundle: a new or empty directory)")

    p = add(
        "report",
        "write the evaluation report the methodology asks for (Markdown or HTML)",
        "reljudge report --format html -o judgments/report.html",
        cmd_report,
    )
    p.add_argument(
        "--format", choices=["md", "markdown", "html"], default="md", help="md or markdown (the same), or html"
    )
    p.add_argument("--lang", choices=["ko", "en"], default="ko")
    p.add_argument(
        "--policy",
        default="adjudicated",
        help="adjudicated (default), majority, annotator:NAME or source:NAME (imported or a model's); "
        "adjudicated and majority take +exclude-flagged; "
        "the model section compares every other model source with it (live grades)",
    )
    p.add_argument("--version", type=int, help="a frozen qrels version instead of the live judgments")
    p.add_argument("-o", "--output", required=True)


def cmd_freeze(args) -> int:
    from reljudge.campaign import adjudication

    db = _db(args)
    version = adjudication.freeze(db, args.lead, args.policy, args.note)
    print(f"qrels version {version} frozen ({adjudication.describe_policy(args.policy)})")
    for row in adjudication.version_exclusions(db, version).itertuples():
        print(f"  left out: {row.annotator} ({', '.join(row.reasons)})")
    return 0


#: The options of ``export`` that each kind of export takes (the rest are refused).
EXPORT_OPTIONS = {
    "qrels": {"format", "policy", "version", "min_grade", "include_no_answer"},
    "bundle": {"policy", "version", "dedup"},
    "judgments": {"format"},
    "adjudications": {"format"},
    "reviews": {"policy"},
}


def _export_policy(args) -> str | None:
    """``--source NAME`` is another spelling of ``--policy source:NAME``; both at once
    must agree. None when neither was given."""
    if args.source is not None:
        spelled = source_policy(args.source)
        if args.policy is not None and args.policy != spelled:
            from reljudge.errors import ReljudgeError

            raise ReljudgeError(CODES("error_source_policy_disagree", source=args.source, policy=args.policy))
        return spelled
    return args.policy


def cmd_export(args) -> int:
    from reljudge.campaign import export

    policy = _export_policy(args)
    given = {name for name in ("format", "version", "min_grade", "dedup") if getattr(args, name) is not None}
    if args.include_no_answer:
        given.add("include_no_answer")
    if policy is not None:
        given.add("policy")
    unused = sorted(given - EXPORT_OPTIONS[args.what])
    if unused:
        options = ", ".join("--" + name.replace("_", "-") for name in unused)
        return _error(f"export {args.what} takes no {options}")
    if args.what == "reviews" and policy is not None and Policy.parse(policy).source() is None:
        return _error(
            f"export reviews writes every reviewer's records; --policy {policy} does not apply "
            "(only source:NAME, an imported review source, as --source NAME)"
        )
    db = _db(args)
    if args.what == "judgments":
        fmt = args.format or "jsonl"
        n = export.write_judgments(db, args.output, fmt)
        print(f"{n} judgment events -> {args.output}")
        return 0
    if args.what == "reviews":
        from reljudge.review import ingest

        source = Policy.parse(policy).source() if policy else None
        n = ingest.write_reviews(db, args.output, source)
        print(f"{n} reviewer × answer records -> {args.output}")
        return 0
    if args.what == "adjudications":
        n = export.write_adjudications(db, args.output, args.format or "jsonl")
        print(f"{n} adjudications -> {args.output}")
        return 0
    policy = policy or "adjudicated"
    if args.what == "bundle":
        from reljudge.campaign import bundle

        built = bundle.build(db, policy, args.version, args.dedup)
        paths = bundle.write(built, args.output)
        print(f"bundle: {len(paths)} files -> {args.output} (bundle_sha256 {built.bundle_sha256})")
        return 0
    summary = export.write_qrels(
        db, args.output, args.format or "trec", policy, args.version, args.min_grade, args.include_no_answer
    )
    for notice in summary.notices:  # a model source: how many pairs it graded and could not grade
        print(i18n.message(notice, "en"), file=sys.stderr)
    print(summary.message())
    return 0


def cmd_report(args) -> int:
    from reljudge.reporting import report

    db = _db(args)
    data = report.build(db, args.policy, args.version, args.lang)
    fmt = "md" if args.format == "markdown" else args.format
    text = report.render(data, fmt)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(text, encoding="utf-8")
    print(f"report ({fmt}, {args.lang}) -> {args.output}")
    return 0
