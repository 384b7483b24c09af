"""`reljudge evaluate-answers`: the answer-review measures (reljudge.review.measures)."""

from __future__ import annotations

import argparse
import json
import math
import sys

from reljudge.errors import DatabaseLockedError, ReljudgeError

EPILOG = """\
tsv prints system<TAB>measure<TAB>qtype<TAB>value, with qtype "all" for the overall
mean (4 decimals); answers whose system abstained are left out and counted apart.
json adds 95% bootstrap intervals, the counts (n_answers, n_sentences, n_pairs,
abstentions), the unsupported sentences and the policies used.

examples:
  reljudge evaluate-answers --format table
  reljudge evaluate-answers --policy majority --format json
  reljudge evaluate-answers --policy source:llm-judge
"""


def register(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "evaluate-answers",
        help="support precision/recall and interpretation of reviewed answers",
        description="Measures of the reviewed answers per system × question type and overall: "
        "support_precision, support_recall, full_support_share, interpretation_valid_share, "
        "interpretation_mean, citation_relevance.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--policy",
        default="adjudicated",
        help="how several reviewers' decisions become one: adjudicated (default), majority, "
        "reviewer:NAME, or an imported source:NAME",
    )
    p.add_argument(
        "--qrels-policy",
        default="adjudicated",
        help="paragraph judgments for citation_relevance and the no-answer questions",
    )
    p.add_argument("--format", choices=("tsv", "json", "table"), default="tsv")
    p.set_defaults(func=run)
    return p


def _num(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 6)


def run(args) -> int:
    from reljudge.review import measures as answer_metrics
    from reljudge.review import decisions as review_decisions
    from reljudge.storage import open_database

    try:
        db = open_database(getattr(args, "db", None), must_exist=True)
        ev = answer_metrics.evaluate_answers(
            db, args.policy, args.qrels_policy, n_boot=0 if args.format == "tsv" else 1000
        )
    except DatabaseLockedError:
        raise  # the command line's: a running app that holds the file carries it out
    except ReljudgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    means = ev.means[ev.means.n > 0]
    if args.format == "tsv":
        for r in means.itertuples():
            sys.stdout.write(f"{r.system}\t{r.measure}\t{r.qtype}\t{r.mean:.4f}\n")
        return 0
    if args.format == "json":
        out = {
            "policy": args.policy,
            "policy_rule": review_decisions.POLICY_TEXT,
            "qrels_policy": args.qrels_policy,
            "threshold": ev.threshold,
            "measures": [
                {
                    "system": r.system,
                    "qtype": r.qtype,
                    "measure": r.measure,
                    "n_answers": int(r.n),
                    "value": _num(r.mean),
                    "ci_low": _num(r.ci_low),
                    "ci_high": _num(r.ci_high),
                }
                for r in ev.means.itertuples()
            ],
            "counts": [
                {k: (int(v) if not isinstance(v, str) else v) for k, v in r._asdict().items() if k != "Index"}
                for r in ev.counts.itertuples()
            ],
            "failures": [
                {
                    "system": r.system,
                    "qid": r.qid,
                    "sentence": int(r.sentence),
                    "text": r.text,
                    "citations": {p: g for p, g in r.citations},
                }
                for r in ev.failures.itertuples()
            ],
            "bootstrap": {
                "method": "percentile",
                "level": 0.95,
                "resamples": ev.n_boot,
                "seed": ev.seed,
                "unit": "answers of each system × question type",
            },
        }
        json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    overall = ev.means[ev.means.qtype == "all"].copy()
    overall["cell"] = [
        f"{m:.3f} [{lo:.3f}, {hi:.3f}] n={n}" if n else "—"
        for m, lo, hi, n in zip(overall["mean"], overall.ci_low, overall.ci_high, overall.n)
    ]
    table = overall.pivot(index="system", columns="measure", values="cell")
    table = table[[m for m in answer_metrics.MEASURES if m in table.columns]]
    sys.stdout.write("mean [95% bootstrap interval] n=answers (qtype all)\n" + table.T.to_string() + "\n\n")
    counts = ev.counts[ev.counts.qtype == "all"].drop(columns="qtype").set_index("system")
    sys.stdout.write(counts.T.to_string() + "\n")
    return 0
