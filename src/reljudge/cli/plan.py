"""``reljudge plan`` and ``reljudge next``: the judging plan (reljudge.campaign.plan;
docs/judging-plans.md#판정-계획--judging-plans)."""

from __future__ import annotations

from reljudge.cli.common import open_db

import argparse
import contextlib
import json
import sys

PLAN_EPILOG = """\
complete   every pooled paragraph is judged (the default)
rr-first   first the paragraphs that can still change some system's RR@K (K = the
           largest of the campaign's ks); a question is done once every RR@K is settled
           by the annotator's grades; --then-rest goes on with the rest of the pool,
           --then-sample RATE with a random sample of it (Recall, nDCG, P and AP then
           come with estimates: docs/sampling.md)
sample     a random sample of RATE (0 < RATE <= 1) of each question's pool, drawn once
           now (stratified by best rank, with --seed; the same for every annotator);
           a question is done when its drawn paragraphs are judged

examples:
  reljudge plan
  reljudge plan rr-first --then-rest
  reljudge plan rr-first --then-sample 0.2 --seed 7
  reljudge plan sample 0.3
  reljudge plan complete
"""

_DEFAULT_SEED = 0  # reljudge.campaign.plan.DEFAULT_SAMPLE_SEED (this module starts without the library)

NEXT_EPILOG = """\
One JSON object per line (jsonl, the default): qid, pid, question_index (place of the
question in the user's queue), position (place among the question's items to judge now);
never a system, rank or score. Prints nothing when the user has nothing left under the plan.

examples:
  reljudge next --user annotator1 --limit 5
  reljudge next --user annotator1 --format table
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "plan",
        help="show or choose the judging plan (complete, rr-first, sample)",
        description="Show the campaign's judging plan, or choose one.",
        epilog=PLAN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("plan", nargs="?", choices=("complete", "rr-first", "sample"), help="the plan to choose")
    p.add_argument("rate", nargs="?", metavar="RATE", help="sample: the share of each pool to draw, 0 < RATE <= 1")
    p.add_argument(
        "--then-rest", action="store_true", help="rr-first: once every RR@K is settled, go on with the rest of the pool"
    )
    p.add_argument(
        "--then-sample",
        metavar="RATE",
        help="rr-first: also judge a random sample of RATE (0 < RATE <= 1) of each pool, drawn once now",
    )
    p.add_argument("--seed", metavar="S", help=f"sample, --then-sample: the draw's seed (default {_DEFAULT_SEED})")
    p.add_argument(
        "--order-by",
        metavar="SOURCE",
        help="complete: order each question's paragraphs by a model source (reljudge auto-judge), most likely "
        "relevant first; the grades stay hidden, the report says so",
    )
    p.add_argument(
        "--estimate",
        action="store_true",
        help="the judgments each plan is expected to need (complete; rr-first: range from the rankings, "
        "expected once judging has started) and the hours at the team's median seconds per judgment",
    )
    p.add_argument("--format", choices=("table", "json"), default="table", help="--estimate: table or json")
    p.set_defaults(func=run_plan)

    p = subparsers.add_parser(
        "next",
        help="the items a user would be shown next, in the judging page's order",
        description="The paragraphs USER would judge next under the campaign's judging plan: their "
        "current (or next unfinished) question first, then the following unfinished ones.",
        epilog=NEXT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--user", required=True, metavar="NAME")
    p.add_argument("--limit", type=int, metavar="N", help="at most N items")
    p.add_argument("--format", choices=("jsonl", "table"), default="jsonl")
    p.set_defaults(func=run_next)


_db = open_db


def _count(v) -> str:
    return "—" if v is None else f"{v:,.0f}"


def _hours(v) -> str:
    return "" if v is None else f" ({v:.1f} h)"


def run_estimate(args) -> int:
    from reljudge.campaign import plan

    result = plan.estimate(_db(args))
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    t, h = result["totals"], result["hours"]
    secs = result["median_seconds_per_judgment"]
    print(
        f"{result['questions']} questions, K = {result['k']}, rel >= {result['rel']}; "
        f"{result['judged_so_far']:,} judgments so far; median "
        + ("— (no timed judgment yet)" if secs is None else f"{secs:.1f} s per judgment")
    )
    print(f"complete   {_count(t['complete'])} judgments{_hours(h['complete'])}")
    span = "" if h["rr_first_low"] is None else f" ({h['rr_first_low']:.1f}–{h['rr_first_high']:.1f} h)"
    print(f"rr-first   {_count(t['rr_first_low'])}–{_count(t['rr_first_high'])} judgments from the rankings{span}")
    if t["rr_first_expected"] is None:
        print("           expected: after the first judgments (the rate of relevant paragraphs per rank)")
    else:
        print(
            f"           expected {_count(t['rr_first_expected'])} judgments{_hours(h['rr_first_expected'])}, "
            "from the rate of relevant paragraphs per rank judged so far"
        )
    if "with_sample_low" in t:
        name = "sample" if result["plan"] == "sample" else "rr-first + sample"
        expected = t["with_sample_expected"]
        print(
            f"{name} (rate {result['sample_rate']:g}, the plan chosen): {_count(t['sample_drawn'])} drawn; "
            f"{_count(t['with_sample_low'])}–{_count(t['with_sample_high'])} judgments in all"
            + ("" if expected is None else f", expected {_count(expected)}{_hours(h['with_sample_expected'])}")
        )
    return 0


def run_plan(args) -> int:
    from reljudge.campaign import plan

    sampling = args.then_sample is not None or args.rate is not None or args.seed is not None
    if args.estimate:
        if args.plan is not None or args.then_rest or args.order_by or sampling:
            print("error: --estimate shows every plan; give it alone: reljudge plan --estimate", file=sys.stderr)
            return 2
        return run_estimate(args)

    if args.plan is None:
        if args.then_rest or args.order_by or sampling:
            print(
                "error: these options go with a plan: reljudge plan rr-first --then-rest, "
                "reljudge plan rr-first --then-sample RATE, reljudge plan sample RATE",
                file=sys.stderr,
            )
            return 2
        print(plan.current(_db(args)).describe())
        return 0
    if args.then_rest and args.plan != "rr-first":
        print("error: --then-rest is for rr-first", file=sys.stderr)
        return 2
    if args.then_sample is not None and args.plan != "rr-first":
        print(
            "error: --then-sample is for rr-first; sampling from the start: reljudge plan sample RATE", file=sys.stderr
        )
        return 2
    if args.rate is not None and args.plan != "sample":
        print(
            f"error: a rate goes with sample (reljudge plan sample RATE); for rr-first: --then-sample {args.rate}",
            file=sys.stderr,
        )
        return 2
    if args.then_sample is not None and args.then_rest:
        print("error: --then-sample and --then-rest exclude each other: choose one", file=sys.stderr)
        return 2
    if args.plan == "sample" and args.rate is None:
        print("error: the sample plan needs a rate: reljudge plan sample 0.2", file=sys.stderr)
        return 2
    if args.seed is not None and args.rate is None and args.then_sample is None:
        print("error: --seed goes with a sample: reljudge plan sample RATE --seed S", file=sys.stderr)
        return 2
    rate = args.rate if args.plan == "sample" else args.then_sample
    chosen = plan.set_plan(_db(args), args.plan, args.then_rest, args.order_by, sample=rate, seed=args.seed)
    print(f"judging plan: {chosen.describe()}")
    return 0


@contextlib.contextmanager
def _without_pandas():
    """DuckDB's Python client imports pandas (and with it numpy) the first time a query
    binds a parameter, to ask whether the value is a pandas one: about half a second, most
    of a ``reljudge next`` process (bench/RESULTS.md, "reljudge next"), which never needs
    pandas (reljudge.campaign.judging.queue reads plain rows). While pandas is marked absent
    (``sys.modules[name] = None``: Python's documented way to make an import fail) DuckDB
    skips that question. A process that has loaded pandas already keeps it untouched; the
    mark is removed afterwards, and DuckDB imports pandas normally when it is next asked to."""
    if "pandas" in sys.modules:
        yield
        return
    sys.modules["pandas"] = None
    try:
        yield
    finally:
        if sys.modules.get("pandas", False) is None:
            del sys.modules["pandas"]


def run_next(args) -> int:
    from reljudge.campaign import judging

    if args.limit is not None and args.limit < 1:
        print("error: --limit must be at least 1", file=sys.stderr)
        return 2
    with _without_pandas():
        items = judging.next_items(_db(args), args.user, args.limit)
    out = sys.stdout
    if args.format == "jsonl":
        for item in items:
            out.write(json.dumps(item, ensure_ascii=False) + "\n")
    elif items:
        out.write("question_index\tqid\tposition\tpid\n")
        for item in items:
            out.write(f"{item['question_index']}\t{item['qid']}\t{item['position']}\t{item['pid']}\n")
    return 0
