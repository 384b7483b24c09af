"""The ``reljudge evaluate`` command line: its options and help (:func:`register`). The
work is :mod:`reljudge.cli.evaluate`, imported when the command runs, so that the other
commands start without numpy and the metric engine (``reljudge next`` answers sooner).
"""

from __future__ import annotations

import argparse

from reljudge.eval import ranking
from reljudge.eval.measures import help_text

EPILOG = """\
measures (ir_measures names; rel=N sets the relevance threshold, e.g. RR(rel=2)@10;
without rel=, the threshold is 1 with --qrels (as trec_eval, or -l N) and the
campaign's (2, citable) otherwise):
{measures}

trec_eval spellings are read too: recip_rank, P.5,10, P_5, recall.100,
ndcg_cut.10, success.1, map, gm_map, Rprec, bpref, iprec_at_recall.0,.5,1,
num_q, num_ret, num_rel, num_rel_ret, unj.10; a bare family takes trec_eval's
default parameters (-m P = P.5,10,15,20,30,100,200,500,1000); -m official is
trec_eval's default set (runid num_q num_ret num_rel num_rel_ret map gm_map
Rprec bpref recip_rank iprec_at_recall_0.00..1.00 P_5..P_1000), and what
--format trec_eval prints when no -m is given; runid (with --format trec_eval)
is the tag of the run's last line, as in trec_eval.

--format trec_eval prints what trec_eval prints, line for line: the measure's
trec_eval name padded to 22 characters, TAB, qid, TAB, value with 4 decimals
(num_q a whole number); with -q each query's lines first (qid order), then the
"all" lines (runid, num_q, then each measure); one such block per run. As in
trec_eval, the mean is over the queries both the qrels and the run hold, and
with -c over every qrels query (missing ones score 0). The other formats always
average over every qrels query (as -c; docs/policies.md#정책--policies: a question missing from a run
scores 0) and their first line names the tie rule ("# ties: trec10 (...)").

tsv prints run<TAB>measure<TAB>qid<TAB>value, with qid "all" for the mean
(4 decimals, as trec_eval); json adds 95% bootstrap intervals, rank-1 / top-3 /
not-found shares, paired randomization tests (Holm) and the policies used.

examples:
  reljudge evaluate --qrels qrels.txt bm25.trec dense.trec -m RR@10 nDCG@10 R@100
  reljudge evaluate --qrels qrels.txt bm25.trec -m 'RR(rel=2)@5' --per-query
  reljudge evaluate --qrels qrels.txt bm25.trec --format trec_eval -q -c -m recip_rank -m P.5,10 -m ndcg_cut.10
  reljudge evaluate --qrels qrels.txt bm25.trec dense.trec -m RR@10 --format table
  reljudge --db judgments/reljudge.duckdb evaluate -m RR@10 nDCG@10 --format table
  reljudge evaluate -m RR@10 --version 2            # a frozen qrels version of the campaign
  reljudge evaluate --qrels qrels.txt bm25.trec --format trec_eval -c   # trec_eval's official set
""".replace("{measures}", help_text())


def register(subparsers) -> argparse.ArgumentParser:
    """Add the ``evaluate`` subcommand to an argparse subparsers object."""
    p = subparsers.add_parser(
        "evaluate",
        help="MRR, Recall@K, nDCG, P@K of runs, like trec_eval",
        description="Evaluate TREC runs against TREC qrels (--qrels), or the campaign's runs "
        "against the current judgments in the database. Numbers are trec_eval's.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--qrels", metavar="FILE", help="TREC qrels (qid 0 docid rel); without it: the database")
    p.add_argument("runs", nargs="*", metavar="RUN", help="TREC run files (qid Q0 docid rank score tag)")
    p.add_argument(
        "-m",
        "--measure",
        dest="measures",
        action="extend",
        nargs="+",
        metavar="MEASURE",
        help="one or more measures, e.g. RR@10 nDCG@10 R@100 (--qrels mode: required, but "
        "--format trec_eval defaults to -m official, as trec_eval; database mode: default the "
        "campaign's measures, the dashboard's)",
    )
    p.add_argument("-q", "--per-query", action="store_true", help="also print every query's value")
    p.add_argument(
        "-c",
        dest="complete",
        action="store_true",
        help="average over every qrels query, a query missing from a run scoring 0 (trec_eval -c). "
        "Only --format trec_eval averages without it (over the queries both files hold, as "
        "trec_eval); the other formats always do this",
    )
    p.add_argument(
        "-l",
        dest="level",
        type=int,
        metavar="N",
        help="--qrels mode: relevance level, the threshold of measures without rel= (trec_eval -l; default 1)",
    )
    p.add_argument(
        "-M",
        dest="max_docs",
        type=int,
        metavar="N",
        help="--qrels mode: only the first N documents of each ranking count (trec_eval -M)",
    )
    p.add_argument(
        "-J",
        dest="judged_only",
        action="store_true",
        help="--qrels mode: only judged documents count: after -M, documents absent from the "
        "qrels or with a negative grade leave each ranking and the ranks close up (trec_eval -J)",
    )
    p.add_argument(
        "--format",
        choices=("tsv", "json", "table", "trec_eval"),
        default="tsv",
        help="output format (default: tsv); trec_eval: exactly trec_eval's lines",
    )
    p.add_argument(
        "--ties",
        choices=ranking.TIE_CHOICES,
        default=ranking.DEFAULT_TIES,
        help="trec10 (default): score desc compared as double, then id desc, as trec_eval 10.0; "
        "trec9: the same with scores compared as float32, as trec_eval 9.x and pytrec_eval; "
        "ranked: the run's rank column; trec: alias of trec10 (the current NIST trec_eval)",
    )
    p.add_argument(
        "--dedup",
        choices=("first", "keep"),
        default="first",
        help="database mode: copies in a ranking (same paragraph id or same normalised "
        "text): first copy counts (default) or keep all. It has no effect with --qrels: "
        "there a repeated docno is an error, as in trec_eval",
    )
    p.add_argument(
        "--policy",
        default="adjudicated",
        help="database mode: how several annotators' grades become one "
        "(adjudicated, majority, annotator:NAME), or an imported source:NAME; adjudicated and majority "
        "take +exclude-flagged (leave out the annotators quality control flags now)",
    )
    p.add_argument("--version", type=int, help="database mode: a frozen qrels version")
    p.set_defaults(func=run_evaluate)
    return p


def run_evaluate(args) -> int:
    # import_module, not `from reljudge.cli import evaluate`: a broken import must show
    # itself even where the package attribute is left from an earlier import
    import importlib

    return importlib.import_module("reljudge.cli.evaluate").run_evaluate(args)
