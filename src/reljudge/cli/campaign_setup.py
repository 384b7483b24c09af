"""The CLI's commands that build a campaign and share out its work: ``import``, ``pool``
and ``assign`` (registered by :func:`reljudge.cli.main.build_parser`)."""

from __future__ import annotations

import sys

from reljudge import i18n
from reljudge.cli.common import open_db as _db


def _english(summary) -> str:
    """An import summary in the English catalog text."""
    return i18n.message(summary.messages(), "en", sep=summary.SEP)


def register(sub, add) -> None:
    """Add the commands to the subparsers ``sub``; ``add(name, help, example, handler)``
    makes a command's parser as every command of cli/main.py is made."""
    p = add(
        "import",
        "import a corpus, questions, a run, qrels, generated answers or reviews (all or nothing)",
        "reljudge import run runs/bm25.trec --system bm25 [--replace]\n  reljudge import answers answers.jsonl "
        "--system rag\n  reljudge import reviews llm_reviews.jsonl --source llm-judge",
        cmd_import,
    )
    p.add_argument("kind", choices=["corpus", "questions", "run", "qrels", "answers", "reviews"])
    p.add_argument("file")
    p.add_argument("--source", help="name of an imported qrels or review source (import qrels, import reviews)")
    p.add_argument(
        "--format",
        choices=["jsonl", "csv", "trec", "beir"],
        help="file format (default: from the extension; runs default to TREC)",
    )
    p.add_argument("--system", help="system name for a run or answers (default: the tag/system column)")
    p.add_argument(
        "--replace",
        action="store_true",
        help="a run (or a system's answers) may replace one already imported (the old one is kept "
        "as a version; for a run the pool change is shown)",
    )
    p.add_argument(
        "--update-questions",
        action="store_true",
        help="questions that already have judgments may change (every earlier wording is "
        "kept; a field the file leaves out or empty keeps its value)",
    )

    p = add(
        "pool",
        "rebuild the judging pool: union of every run's top-D per question",
        "reljudge pool --depth 20",
        cmd_pool,
    )
    p.add_argument("--depth", type=int, help="pool depth D (default: the campaign's, 20)")

    p = add(
        "assign",
        "assign questions to annotators, with overlap for agreement",
        "reljudge assign --per-question 1 --double-share 0.2 --by-type",
        cmd_assign,
    )
    p.add_argument("--per-question", type=int, default=1, help="annotators per question (default 1)")
    p.add_argument(
        "--double-share", type=float, default=0.0, help="share of questions judged by at least two annotators (0-1)"
    )
    p.add_argument("--by-type", action="store_true", help="balance within each question type")
    p.add_argument("--annotators", help="comma-separated usernames (default: all active annotators)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lead", default="cli", help="name recorded as the assigner")
    p.add_argument("--reassign", metavar="USER", help="move USER's unfinished questions to others")
    p.add_argument("--show", action="store_true", help="only list the current assignments")


def cmd_import(args) -> int:
    from reljudge.campaign import setup as campaign

    if args.replace and args.kind != "run":
        print("error: --replace is for runs (import run FILE --replace)", file=sys.stderr)
        return 2
    if args.update_questions and args.kind != "questions":
        print("error: --update-questions is for questions", file=sys.stderr)
        return 2
    db = _db(args, create=True)
    from reljudge.cli.forward import client_name

    display = client_name(args, args.file)  # through the running app: the client's name
    if args.kind == "answers":
        from reljudge.review import ingest

        versions = ingest.import_answers(
            db, args.file, system=args.system, fmt=args.format, replace=args.replace, display=display
        )
        print(f"answers {args.file}: " + ", ".join(f"{s} version {v}" for s, v in versions.items()))
        return 0
    if args.kind == "reviews":
        from reljudge.review import ingest

        if not args.source:
            print("error: import reviews needs --source NAME", file=sys.stderr)
            return 2
        n = ingest.import_reviews(db, args.file, args.source, display=display)
        print(f"reviews {args.file}: {n} reviewer × answer records as source {args.source!r}")
        return 0
    if args.kind == "qrels":
        from reljudge.campaign import export

        if args.format not in (None, "trec", "beir"):
            print("error: qrels are imported from --format trec or beir", file=sys.stderr)
            return 2
        done = export.import_qrels(db, args.file, args.source, args.format, display=display)
        print(f"qrels {args.file}: {done.rows} rows as source {args.source!r}")
        for notice in done.notices():  # identical duplicate rows, kept once
            print(i18n.message(notice, "en"))
        return 0
    summary = campaign.import_file(
        db,
        args.kind,
        args.file,
        fmt=args.format,
        system=args.system,
        display=display,
        progress=_terminal_progress(args.file),
        replace=args.replace,
        update_questions=args.update_questions,
    )
    print(_english(summary))
    if args.kind == "run" or campaign.counts(db)["systems"]:
        change = campaign.repool_change(db)
        print(f"pool: {change.size} items")
        if change.added or change.removed:
            print(i18n.message(change.to_message(), "en"))
    return 0


def _terminal_progress(name: str):
    """Lines read so far, on one line of stderr; only for a person at a terminal."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        text = (
            f"{name}: {done:,} / {total:,} lines read ({100 * done // max(total, 1)}%)"
            if done < total
            else f"{name}: checking and writing…"
        )
        print(f"\r\033[K{text}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    return show


def cmd_pool(args) -> int:
    from reljudge.campaign import setup as campaign

    db = _db(args)
    if args.depth is not None and args.depth < 1:
        print("error: --depth must be at least 1", file=sys.stderr)
        return 2
    n = campaign.pool(db, args.depth)
    print(f"pool: {n} items (depth {campaign.settings(db)['pool_depth']})")
    return 0


def cmd_assign(args) -> int:
    from reljudge.campaign import assignment

    db = _db(args)
    if args.reassign:
        moved = assignment.reassign(db, args.lead, args.reassign)
        print(f"moved {len(moved)} unfinished questions from {args.reassign}")
        for r in moved.itertuples():
            print(f"  {r.qid} -> {r.username}")
        return 0
    if not args.show:
        annotators = [a.strip() for a in args.annotators.split(",")] if args.annotators else None
        result = assignment.assign(
            db,
            args.lead,
            annotators,
            per_question=args.per_question,
            double_share=args.double_share,
            by_type=args.by_type,
            seed=args.seed,
        )
        print(i18n.message(result.messages(), "en"))
    frame = assignment.active_assignments(db)
    if args.show:
        print(
            frame[["qid", "username", "qtype"]].to_string(index=False)
            if not frame.empty
            else "no assignments: every annotator sees every question"
        )
    return 0
