"""``reljudge gold``, ``reljudge decoys`` and ``reljudge quality``: quality control
(reljudge.campaign.quality; docs/quality-control.md#품질-관리--quality-control)."""

from __future__ import annotations

from reljudge.cli.common import open_db

import argparse
import json
import math
import sys

GOLD_EPILOG = """\
A gold item is a (question, pooled paragraph, grade) pair the lead trusts. Annotators
judge it as any other paragraph (nothing tells it apart) and are scored against it.
The file holds TREC qrels lines (qid 0 pid grade); every pair must be pooled. All or
nothing: a bad line is reported with the file, the line and the problem.

examples:
  reljudge gold import gold.qrels
  reljudge gold list
"""

DECOYS_EPILOG = """\
Places, in each active annotator's queue, paragraphs taken from other questions' pools
that contain none of the question's content words (surely not citable), about R × the
pooled paragraphs of the queue (at least one, at most one per question). They are shown,
ordered and offered by `reljudge next` like pooled paragraphs; their grades are kept
apart and never reach qrels, metrics, agreement, adjudication, qrels exports, pool sizes
or progress. Expected grade 0. Placing again replaces the decoys nobody has graded yet.

examples:
  reljudge decoys --rate 0.05
  reljudge decoys --rate 0.1 --seed 7
"""

QUALITY_EPILOG = """\
Per annotator: gold_judged, gold_accuracy (exact match share), gold_kappa (linearly
weighted Cohen's kappa against gold), decoys_judged, decoys_failed (graded above 0),
fast_percent (judgments under 2 seconds) and flagged with its reasons
(low_gold_accuracy: accuracy below --min-accuracy after at least --min-gold gold items;
failed_decoys: at least --max-failed-decoys decoys graded above 0). The threshold
options change the campaign's settings (defaults 10, 0.7, 2) before printing.

examples:
  reljudge quality
  reljudge quality --format json
  reljudge quality --min-gold 20 --min-accuracy 0.8 --max-failed-decoys 3
  reljudge quality --auto-gold on
  reljudge quality --export judgments/quality.jsonl
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "gold",
        help="gold items: import (TREC qrels lines) or list",
        description="Silent gold items that annotators are scored against.",
        epilog=GOLD_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    gold_sub = p.add_subparsers(dest="gold_cmd", required=True)
    g = gold_sub.add_parser("import", help="add gold items from a TREC qrels file (qid 0 pid grade)")
    g.add_argument("file")
    g.add_argument("--lead", default="cli", help="name recorded as who added them (default: cli)")
    g.set_defaults(func=run_gold_import)
    g = gold_sub.add_parser("list", help="list the gold items (qid, pid, grade, origin)")
    g.set_defaults(func=run_gold_list)

    p = subparsers.add_parser(
        "decoys",
        help="place blind decoys (attention checks) in every annotator's queue",
        description="Place decoys from other questions' pools in each annotator's queue at a rate.",
        epilog=DECOYS_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rate", required=True, type=float, metavar="R", help="share of the queue (0 < R <= 0.5)")
    p.add_argument("--seed", type=int, default=42, metavar="S", help="random seed (default 42)")
    p.set_defaults(func=run_decoys)

    p = subparsers.add_parser(
        "quality",
        help="each annotator's accuracy against gold items and decoys, and who is flagged",
        description="Quality control figures per annotator.",
        epilog=QUALITY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--min-gold", type=int, metavar="N", help="gold items judged before the accuracy floor applies")
    p.add_argument("--min-accuracy", type=float, metavar="X", help="gold accuracy floor (0..1)")
    p.add_argument("--max-failed-decoys", type=int, metavar="N", help="failed decoys that flag an annotator")
    p.add_argument("--auto-gold", choices=("on", "off"), help="promote items >= 3 annotators agree on to gold")
    p.add_argument("--export", metavar="FILE", help="also write the quality export (JSONL) to FILE")
    p.set_defaults(func=run_quality)


_db = open_db


def run_gold_import(args) -> int:
    from reljudge.campaign import quality

    from reljudge import i18n

    from reljudge.cli.forward import client_name

    done = quality.import_gold(_db(args), args.file, args.lead, display=client_name(args, args.file))
    print(f"gold items: {done.rows} from {args.file}")
    for notice in done.notices():  # identical duplicate rows, kept once
        print(i18n.message(notice, "en"))
    return 0


def run_gold_list(args) -> int:
    from reljudge.campaign import quality

    items = quality.gold_items(_db(args))
    if not items.empty:
        sys.stdout.write("qid\tpid\tgrade\torigin\n")
        for r in items.itertuples():
            sys.stdout.write(f"{r.qid}\t{r.pid}\t{int(r.grade)}\t{r.origin}\n")
    return 0


def run_decoys(args) -> int:
    from reljudge.campaign import quality

    if not math.isfinite(args.rate):
        print("error: --rate must be a finite number", file=sys.stderr)
        return 2
    out = quality.place_decoys(_db(args), args.rate, args.seed)
    print(
        f"decoys in force: {out['placed']} over {out['annotators']} annotator(s) (rate {out['rate']}, seed {out['seed']})"
    )
    return 0


def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def run_quality(args) -> int:
    from reljudge.campaign import quality

    db = _db(args)
    auto = None if args.auto_gold is None else args.auto_gold == "on"
    if any(v is not None for v in (args.min_gold, args.min_accuracy, args.max_failed_decoys, auto)):
        if args.min_accuracy is not None and not math.isfinite(args.min_accuracy):
            print("error: --min-accuracy must be between 0 and 1", file=sys.stderr)
            return 2
        quality.set_settings(db, args.min_gold, args.min_accuracy, args.max_failed_decoys, auto)
    data = quality.summary(db)
    if args.export:
        n = quality.export_quality(db, args.export)
        print(f"quality export: {n} lines to {args.export}", file=sys.stderr)
    if args.format == "json":
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    s = data["settings"]
    sys.stdout.write(
        f"# gold items: {data['gold_items']}; decoys placed: {data['decoys_placed']}; flagged when gold "
        f"accuracy < {s['min_accuracy']} after >= {s['min_gold']} gold items, or >= "
        f"{s['max_failed_decoys']} failed decoys\n"
    )
    cols = quality.COLUMNS
    sys.stdout.write("\t".join(cols) + "\n")
    for row in data["annotators"]:
        cells = [
            ",".join(row[c]) if c == "reasons" else ("yes" if row[c] else "no") if c == "flagged" else _fmt(row[c])
            for c in cols
        ]
        sys.stdout.write("\t".join(cells) + "\n")
    return 0
