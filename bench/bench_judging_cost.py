"""Benchmark: how many judgments a judging plan needs (a simulation: no browser, no database).

    python bench/bench_judging_cost.py DATA_DIR [DATA_DIR ...] [--rel 2] [--k 10] [--seeds 5] [--no-write]

Each DATA_DIR is one campaign: ``qrels.txt`` (TREC qrels: the oracle annotator),
``runs/*.trec`` (TREC runs; the system is the file's stem) and optionally
``SOURCE.txt`` (one paragraph: where the data came from, copied into RESULTS.md).
bench/make_demo_campaign.py and bench/make_korquad_campaign.py write such folders;
RESULTS.md says how the TREC CAsT one was laid out. The questions are those of the
qrels; every ranking is ordered as reljudge orders it (score descending, then doc id
descending: trec_eval's rule) and the pool is the union of every system's top K
(depth K = 10). The oracle grades a pooled paragraph with its qrels grade, 0 when the
qrels lack it. "Full-pool" values are those with every pooled paragraph judged.

1. rr-first: per question, repeatedly judge what ``frontier`` (reljudge.campaign.plan) says is
   to judge now, until every system's RR@K is settled. Its cost is set beside the
   least possible -- the union over systems of each one's top-K ranking down to and
   including its first relevant paragraph (the whole top K when it has none) -- and
   beside the whole pool (what ``complete`` costs). At the end every system's RR@K per
   question, and so its MRR, must equal the full-pool value exactly (both computed by
   ``reljudge.evaluate``); a mismatch is printed loudly and the exit status is 1.
2. Kendall's tau (scipy.stats.kendalltau, tau-b) between the systems' MRR@K ranking
   with the judgments spent so far (unjudged = 0) and the full-pool ranking, at 5 %,
   10 %, 20 % ... 100 % of the pool, under rr-first (then the rest, as in 3) and under
   ``complete`` in a stable shuffled order (mean over ``--seeds`` shuffles).
3. The mean width (high - low over systems x questions) of the nDCG@K and R@K bounds
   at the same points, under rr-first-then-rest (after rr-first: the unjudged pooled
   paragraphs by the sum over systems of 1/log2(rank+1) within K, descending) and
   under ``complete``. At 100 % every bound must have closed on reljudge.evaluate's
   value (checked like the RR values).

Writes bench/RESULTS.md between the ``judging_cost`` markers (unless --no-write).
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import platform
import random
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

import reljudge
from reljudge.eval import bounds as rj_bounds
from reljudge.eval.measures import parse_measures
from benchlib import cpu_model, write_section

HERE = Path(__file__).resolve().parent

# -- the judging order: reljudge.campaign.plan.frontier ---------------------------------------------------
from reljudge.campaign.plan import frontier  # noqa: E402  (the page's and `reljudge next`'s rule)

FRONTIER_SOURCE = "reljudge.campaign.plan.frontier"


# -- the bounds of nDCG@K and R@K -----------------------------------------------------------------
# reljudge.eval.bounds, the engine's own (exact for both: tests/test_bounds.py), on arrays of every
# question × system of the campaign at once.
BOUNDS_SOURCE = "reljudge.eval.bounds.measure_bounds (exact for nDCG@K and R@K)"


def bounds_for(
    c: "Campaign", tops: Mapping, judged: Mapping[str, Mapping[str, int]], k: int, rel: int
) -> dict[tuple[str, str], tuple[float, float, float, float]]:
    """(qid, system) -> (nDCG low, nDCG high, R low, R high) under the judgments so far."""
    keys = [(q, s) for q in c.qids for s in c.systems]
    n, top = len(keys), c.top_grade
    grades = np.zeros((n, k))
    is_judged = np.zeros((n, k), dtype=bool)
    is_open = np.zeros((n, k), dtype=bool)
    counts = np.zeros((n, top), dtype=np.int64)
    open_q = np.zeros(n, dtype=np.int64)
    n_rows = np.zeros(n, dtype=np.int64)
    pooled = {q: set(c.pool[q]) for q in c.qids}
    for i, (q, s) in enumerate(keys):
        mine = judged[q]
        for r, p in enumerate(tops[(q, s)][:k]):
            if p in mine:
                grades[i, r], is_judged[i, r] = mine[p], True
            elif p in pooled[q]:
                is_open[i, r] = True
        for g in mine.values():
            if g > 0:
                counts[i, min(g, top) - 1] += 1
        open_q[i] = sum(1 for p in pooled[q] if p not in mine)
        n_rows[i] = len(tops[(q, s)][:k])
    m_ndcg, m_r = parse_measures([f"nDCG@{k}", f"R@{k}"], default_rel=rel)
    nlo, nhi, _ = rj_bounds.measure_bounds(m_ndcg, grades, is_judged, is_open, counts, open_q, n_rows, top=top)
    rlo, rhi, _ = rj_bounds.measure_bounds(m_r, grades, is_judged, is_open, counts, open_q, n_rows, top=top)
    return {key: (nlo[i], nhi[i], rlo[i], rhi[i]) for i, key in enumerate(keys)}


# -- a campaign -----------------------------------------------------------------------------------


@dataclass
class Campaign:
    name: str
    source: str
    systems: list[str]
    qids: list[str]
    rankings: dict[str, dict[str, list[str]]]  # qid -> system -> pids, reljudge's order
    oracle: dict[str, dict[str, int]]  # qid -> pid -> grade (the qrels)
    pool: dict[str, list[str]]  # qid -> pooled pids (sorted)
    runs: dict[str, pd.DataFrame]  # system -> query_id, doc_id, score
    top_grade: int = 2
    full: dict = field(default_factory=dict)  # (measure, system) -> {qid: value}

    @property
    def pool_size(self) -> int:
        return sum(len(v) for v in self.pool.values())

    def top(self, qid: str, system: str, k: int) -> list[str]:
        pooled = set(self.pool[qid])
        return [p for p in self.rankings[qid].get(system, [])[:k] if p in pooled]

    def grade(self, qid: str, pid: str) -> int:
        return self.oracle[qid].get(pid, 0)


def load_campaign(folder: Path, k: int) -> Campaign:
    oracle: dict[str, dict[str, int]] = {}
    for line in (folder / "qrels.txt").read_text(encoding="utf-8").splitlines():
        if line.strip():
            qid, _, pid, grade = line.split()
            oracle.setdefault(qid, {})[pid] = int(grade)
    qids = sorted(oracle)
    rankings: dict[str, dict[str, list[str]]] = {q: {} for q in qids}
    runs: dict[str, pd.DataFrame] = {}
    systems = []
    for path in sorted((folder / "runs").glob("*.trec")):
        system = path.stem
        systems.append(system)
        frame = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            names=["query_id", "q0", "doc_id", "rank", "score", "tag"],
            dtype={"query_id": str, "doc_id": str},
            usecols=[0, 1, 2, 3, 4, 5],
        )
        frame = frame[frame.query_id.isin(oracle)][["query_id", "doc_id", "score"]].reset_index(drop=True)
        runs[system] = frame
        for qid, group in frame.groupby("query_id", sort=False):
            rows = sorted(zip(group.score.tolist(), group.doc_id.tolist()), reverse=True)  # score desc, doc id desc
            rankings[qid][system] = [pid for _, pid in rows]
    pool = {q: sorted({p for s in systems for p in rankings[q].get(s, [])[:k]}) for q in qids}
    source = (folder / "SOURCE.txt").read_text(encoding="utf-8").strip() if (folder / "SOURCE.txt").exists() else ""
    top_grade = max(g for grades in oracle.values() for g in grades.values())
    return Campaign(folder.name, source, systems, qids, rankings, oracle, pool, runs, max(top_grade, 1))


MEASURES = {"RR": "RR@{k}", "nDCG": "nDCG@{k}", "R": "R@{k}"}


def evaluate_all(c: Campaign, grades: Mapping[str, Mapping[str, int]], k: int, rel: int) -> dict:
    """reljudge.evaluate of every run on the qrels ``grades`` (qid -> pid -> grade):
    (measure, system) -> {qid: value}, every question of the campaign present (0 when
    the qrels have none of its paragraphs)."""
    qrels = pd.DataFrame(
        [(q, p, g) for q, per in grades.items() for p, g in per.items()], columns=["query_id", "doc_id", "relevance"]
    )
    out = {}
    for system in c.systems:
        frame = reljudge.evaluate(
            qrels, c.runs[system], [m.format(k=k) for m in MEASURES.values()], rel=rel, per_query=True
        )
        for short, name in MEASURES.items():
            # reljudge.evaluate names each measure as it was asked for (as ir_measures does)
            part = frame[frame.measure == name.format(k=k)]
            values = dict(zip(part.query_id, part.value))
            out[(short, system)] = {q: float(values.get(q, 0.0)) for q in c.qids}
    return out


# -- the simulation -------------------------------------------------------------------------------


def rr_value(top: Sequence[str], judged: Mapping[str, int], rel: int) -> float:
    """RR with the unjudged as 0 (``top``: the pooled items of the top K, in order)."""
    for i, p in enumerate(top, start=1):
        if judged.get(p, -1) >= rel:
            return 1.0 / i
    return 0.0


def least_possible(c: Campaign, qid: str, k: int, rel: int) -> set[str]:
    need: set[str] = set()
    for system in c.systems:
        for p in c.top(qid, system, k):
            need.add(p)
            if c.grade(qid, p) >= rel:
                break
    return need


@dataclass
class RRFirst:
    sequence: list[tuple[str, str]]  # (qid, pid) in the order judged
    cost: dict[str, int]  # qid -> judgments
    rounds: dict[str, int]  # qid -> batches asked of frontier
    judged: dict[str, dict[str, int]]  # qid -> pid -> grade at the end
    problems: list[str]


def run_rr_first(c: Campaign, k: int, rel: int) -> RRFirst:
    """Round by round over the campaign: in each round every question not yet settled gets
    its frontier judged (questions in qid order), until no frontier is left."""
    judged = {q: {} for q in c.qids}
    pooled = {q: set(c.pool[q]) for q in c.qids}
    rankings = {q: {s: c.rankings[q].get(s, []) for s in c.systems} for q in c.qids}
    seq: list[tuple[str, str]] = []
    rounds = {q: 0 for q in c.qids}
    problems: list[str] = []
    open_q = list(c.qids)
    while open_q:
        still = []
        for q in open_q:
            batch = frontier(rankings[q], judged[q], pooled[q], rel, k)
            if not batch:
                continue
            bad = [p for p in batch if p in judged[q] or p not in pooled[q]]
            if bad or len(set(batch)) != len(batch):
                problems.append(f"{c.name} {q}: frontier returned judged, unpooled or repeated items {bad[:5]}")
                batch = [p for p in dict.fromkeys(batch) if p not in judged[q] and p in pooled[q]]
                if not batch:
                    continue
            rounds[q] += 1
            for p in batch:
                judged[q][p] = c.grade(q, p)
                seq.append((q, p))
            still.append(q)
        open_q = still
    cost = {q: len(judged[q]) for q in c.qids}
    return RRFirst(seq, cost, rounds, judged, problems)


def rest_order(c: Campaign, judged: Mapping[str, Mapping[str, int]], k: int) -> list[tuple[str, str]]:
    """The unjudged pooled paragraphs by the sum over systems of 1/log2(rank+1) within K,
    descending (then qid, pid)."""
    score: dict[tuple[str, str], float] = {}
    for q in c.qids:
        for s in c.systems:
            for r, p in enumerate(c.rankings[q].get(s, [])[:k], start=1):
                if p not in judged[q]:
                    score[(q, p)] = score.get((q, p), 0.0) + 1.0 / math.log2(r + 1)
    return sorted(score, key=lambda qp: (-score[qp], qp))


def shuffled_pool(c: Campaign, seed: int) -> list[tuple[str, str]]:
    items = [(q, p) for q in c.qids for p in c.pool[q]]
    random.Random(seed).shuffle(items)
    return items


#: How the folders of the published figures were made (RESULTS.md repeats it).
DATA_PREP = """Data preparation (the folders are not committed; nothing here downloads):

    python bench/make_demo_campaign.py /tmp/judging-cost-data/demo
    # KorQuAD_v1.0_dev.json: from a clone of github.com/korquad/korquad.github.io (dataset/, commit 61d7d668)
    python bench/make_korquad_campaign.py KorQuAD_v1.0_dev.json /tmp/judging-cost-data/korquad --questions 200
    # TREC CAsT 2021: from a clone of github.com/daltonj/treccastweb (commit 33846610), used as they are:
    mkdir -p /tmp/judging-cost-data/cast2021/runs
    cp 2021/trec-cast-qrels-docs.2021.qrel /tmp/judging-cost-data/cast2021/qrels.txt
    for f in 2021/baselines/document_runs/org_{manual_bm25,manual_ance,manual_ance_bert,convdr,convdr_bert}.run; do
      cp $f /tmp/judging-cost-data/cast2021/runs/$(basename $f .run).trec; done
    # (+ a one-line SOURCE.txt in each folder; the two scripts write their own)"""

BUDGETS = (0.0, 0.05, 0.10, 0.20, 0.30, 0.40, 0.50, 0.60, 0.70, 0.80, 0.90, 1.00)


@dataclass
class Point:
    spent: int
    tau: float
    width_ndcg: float
    width_r: float


def curve(
    c: Campaign, order: list[tuple[str, str]], checkpoints: list[int], k: int, rel: int, full_mrr: np.ndarray
) -> dict[int, Point]:
    """Walk ``order`` and, at each checkpoint (judgments spent), take the MRR ranking's tau
    and the mean bound widths."""
    judged: dict[str, dict[str, int]] = {q: {} for q in c.qids}
    tops = {(q, s): c.top(q, s, k) for q in c.qids for s in c.systems}
    out: dict[int, Point] = {}
    targets = sorted(set(checkpoints))
    i = 0
    for t in targets:
        while i < min(t, len(order)):
            q, p = order[i]
            judged[q][p] = c.grade(q, p)
            i += 1
        mrr = np.array([np.mean([rr_value(tops[(q, s)], judged[q], rel) for q in c.qids]) for s in c.systems])
        tau = (
            float(kendalltau(full_mrr, mrr).statistic) if len(set(mrr)) > 1 and len(set(full_mrr)) > 1 else float("nan")
        )
        b = bounds_for(c, tops, judged, k, rel)
        wn = [nhi - nlo for nlo, nhi, _, _ in b.values()]
        wr = [rhi - rlo for _, _, rlo, rhi in b.values()]
        out[t] = Point(t, tau, float(np.mean(wn)), float(np.mean(wr)))
    return out


def closed_bounds(c: Campaign, k: int, rel: int) -> list[str]:
    """With the whole pool judged, every bound must equal reljudge.evaluate's value."""
    bad = []
    judged = {q: {p: c.grade(q, p) for p in c.pool[q]} for q in c.qids}
    tops = {(q, s): c.top(q, s, k) for q in c.qids for s in c.systems}
    for (q, s), (nlo, nhi, rlo, rhi) in bounds_for(c, tops, judged, k, rel).items():
        for short, lo, hi in (("nDCG", nlo, nhi), ("R", rlo, rhi)):
            want = c.full[(short, s)][q]
            if abs(lo - want) > 1e-9 or abs(hi - want) > 1e-9:
                bad.append(
                    f"{c.name} {s} {q} {short}@{k}: bounds [{lo:.6f}, {hi:.6f}] at full pool, reljudge {want:.6f}"
                )
        mine = rr_value(tops[(q, s)], judged[q], rel)
        if mine != c.full[("RR", s)][q]:
            bad.append(
                f"{c.name} {s} {q} RR@{k}: this benchmark's ranking gives {mine}, reljudge {c.full[('RR', s)][q]}"
            )
    return bad


# -- the report -----------------------------------------------------------------------------------


def fmt(x: float, digits: int = 3) -> str:
    return "n/a" if x != x else f"{x:.{digits}f}"


def study(folder: Path, k: int, rel: int, seeds: int) -> dict:
    c = load_campaign(folder, k)
    full_grades = {q: {p: c.grade(q, p) for p in c.pool[q]} for q in c.qids}
    c.full = evaluate_all(c, full_grades, k, rel)
    problems = closed_bounds(c, k, rel)

    rr = run_rr_first(c, k, rel)
    problems += rr.problems
    least = {q: least_possible(c, q, k, rel) for q in c.qids}
    for q in c.qids:
        if not least[q] <= set(rr.judged[q]):
            problems.append(
                f"{c.name} {q}: rr-first stopped without judging {sorted(least[q] - set(rr.judged[q]))[:5]}"
            )
    barren = [q for q in c.qids if not any(c.grade(q, p) >= rel for p in c.pool[q])]
    end = evaluate_all(c, rr.judged, k, rel)
    for s in c.systems:
        for q in c.qids:
            if end[("RR", s)][q] != c.full[("RR", s)][q]:
                problems.append(
                    f"{c.name} {s} {q}: RR@{k} after rr-first {end[('RR', s)][q]} != full pool {c.full[('RR', s)][q]}"
                )
        mrr_end = sum(end[("RR", s)].values()) / len(c.qids)
        mrr_full = sum(c.full[("RR", s)].values()) / len(c.qids)
        if mrr_end != mrr_full:
            problems.append(f"{c.name} {s}: MRR@{k} after rr-first {mrr_end} != full pool {mrr_full}")

    pool_size = c.pool_size
    rr_cost = sum(rr.cost.values())
    least_cost = sum(len(v) for v in least.values())
    checkpoints = sorted({round(f * pool_size) for f in BUDGETS} | {rr_cost})
    full_mrr = np.array([np.mean(list(c.full[("RR", s)].values())) for s in c.systems])
    rr_then_rest = rr.sequence + rest_order(c, rr.judged, k)
    assert len(rr_then_rest) == pool_size, (len(rr_then_rest), pool_size)
    curve_rr = curve(c, rr_then_rest, checkpoints, k, rel, full_mrr)
    orders = [shuffled_pool(c, seed) for seed in range(seeds)]
    shuffles = [curve(c, order, checkpoints, k, rel, full_mrr) for order in orders]
    # complete in a shuffled order settles every RR@K once the last paragraph of the least set is judged
    settle = []
    for order in orders:
        position = {qp: i for i, qp in enumerate(order)}
        settle.append(max((position[(q, p)] + 1 for q in c.qids for p in least[q]), default=0))
    curve_complete = {
        t: Point(
            t,
            float(np.nanmean([sh[t].tau for sh in shuffles]))
            if any(sh[t].tau == sh[t].tau for sh in shuffles)
            else float("nan"),
            float(np.mean([sh[t].width_ndcg for sh in shuffles])),
            float(np.mean([sh[t].width_r for sh in shuffles])),
        )
        for t in checkpoints
    }
    return {
        "c": c,
        "rr": rr,
        "pool": pool_size,
        "least": least_cost,
        "rr_cost": rr_cost,
        "checkpoints": checkpoints,
        "curve_rr": curve_rr,
        "curve_complete": curve_complete,
        "full_mrr": dict(zip(c.systems, full_mrr)),
        "problems": problems,
        "complete_settles": float(np.mean(settle)) if settle else 0.0,
        "barren": (len(barren), sum(len(least[q]) for q in barren)),
        "rounds_max": max(rr.rounds.values()) if rr.rounds else 0,
        "rounds_mean": float(np.mean(list(rr.rounds.values()))) if rr.rounds else 0.0,
    }


def summary_table(results: list[dict], k: int) -> list[str]:
    lines = [
        f"| data | questions | systems | pool (depth {k}) | least possible | rr-first | rr-first ÷ least | goal ≤ 1.1 | "
        "rr-first ÷ pool | of rr-first: questions with nothing relevant in the pool (judgments) | "
        "complete (shuffled): judgments until every RR settled | rounds per question (mean / max) | "
        "RR & MRR at the end = full pool |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---|",
    ]
    for r in results:
        c = r["c"]
        ratio = r["rr_cost"] / r["least"] if r["least"] else float("nan")
        rr_ok = not any("RR@" in p or "MRR@" in p or "rr-first" in p or "frontier" in p for p in r["problems"])
        lines.append(
            f"| {c.name} | {len(c.qids)} | {len(c.systems)} | {r['pool']:,} | {r['least']:,} | {r['rr_cost']:,} | "
            f"{fmt(ratio)} | {'met' if ratio <= 1.1 else '**missed**'} | {fmt(r['rr_cost'] / r['pool'])} | "
            f"{r['barren'][0]} ({r['barren'][1]:,}) | "
            f"{r['complete_settles']:,.0f} ({r['complete_settles'] / r['pool']:.0%}) | "
            f"{r['rounds_mean']:.2f} / {r['rounds_max']} | {'yes' if rr_ok else '**NO**'} |"
        )
    return lines


def curve_table(r: dict, seeds: int) -> list[str]:
    c = r["c"]
    lines = [
        f"| judgments (share of pool) | τ rr-first→rest | τ complete (mean of {seeds} shuffles) | "
        "nDCG width rr-first→rest | nDCG width complete | R width rr-first→rest | R width complete |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for t in r["checkpoints"]:
        a, b = r["curve_rr"][t], r["curve_complete"][t]
        mark = " ← rr-first done" if t == r["rr_cost"] else ""
        lines.append(
            f"| {t:,} ({t / r['pool']:.0%}){mark} | {fmt(a.tau)} | {fmt(b.tau)} | {fmt(a.width_ndcg)} | "
            f"{fmt(b.width_ndcg)} | {fmt(a.width_r)} | {fmt(b.width_r)} |"
        )
    mrr = ", ".join(f"{s} {v:.3f}" for s, v in sorted(r["full_mrr"].items(), key=lambda kv: -kv[1]))
    lines.append("")
    graded = sum(1 for q in c.qids for p in c.pool[q] if p in c.oracle[q])
    lines.append(
        f"Full-pool MRR@10 of {c.name}: {mrr}. {graded:,} of the {r['pool']:,} pooled paragraphs have a "
        f"qrels line (the rest are graded 0); the nDCG bound's top grade is {c.top_grade} (the highest in "
        "the qrels)."
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", type=Path, help="campaign folders (qrels.txt, runs/*.trec)")
    parser.add_argument("--rel", type=int, default=2, help="relevance threshold (default 2: directly citable)")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=5, help="shuffles of the complete order")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    started = dt.datetime.now(dt.timezone.utc)
    results = []
    for folder in args.data:
        r = study(folder, args.k, args.rel, args.seeds)
        results.append(r)
        print(f"\n## {r['c'].name}")
        print("\n".join(curve_table(r, args.seeds)))
    problems = [p for r in results for p in r["problems"]]
    table = summary_table(results, args.k)
    print("\n" + "\n".join(table))
    if problems:
        print(f"\n!!!!!!!! {len(problems)} MISMATCH(ES) !!!!!!!!", file=sys.stderr)
        for p in problems[:50]:
            print("!!! " + p, file=sys.stderr)
    cmd = (
        "python bench/bench_judging_cost.py "
        + " ".join(str(d) for d in args.data)
        + (f" --rel {args.rel}" if args.rel != 2 else "")
        + (f" --seeds {args.seeds}" if args.seeds != 5 else "")
    )
    body = [
        "## Judging cost: rr-first against the least possible and the whole pool",
        "",
        f"{started:%Y-%m-%d %H:%M} UTC, 2 cores ({cpu_model()}), Python {platform.python_version()}; "
        f"`{cmd}`. A simulation: the qrels are the oracle annotator (a pooled paragraph the qrels lack is 0), "
        f"K = {args.k}, pool = the union of every system's top {args.k}, relevant = grade ≥ {args.rel}. "
        f"Judging order: {FRONTIER_SOURCE}. Bounds: {BOUNDS_SOURCE}. "
        "Full-pool values and the end-of-rr-first check: `reljudge.evaluate` (score descending, then doc id descending).",
        "",
        *table,
        "",
    ]
    body += [
        "Least possible = the union over systems of each one's top-10 down to and including its first relevant "
        "paragraph (the whole top 10 when none is relevant): any plan must judge these to settle every RR@10. "
        "The last column: every system's RR@10 per question, and its MRR@10, after rr-first equal the full-pool "
        "values exactly (`reljudge.evaluate` on the rr-first judgments vs on the whole pool's).",
        "",
    ]
    for r in results:
        body += [f"### {r['c'].name}", "", r["c"].source or "(no SOURCE.txt)", "", *curve_table(r, args.seeds), ""]
    body += [
        "τ: Kendall's tau-b of the systems' MRR@10 (unjudged = 0) against the full-pool MRR@10, n/a while "
        "every system still scores the same. Widths: mean of (high − low) over systems × questions of the "
        "bounds of reljudge.eval.bounds (exact for both: every way the unjudged pooled paragraphs could still be "
        "graded, tests/test_bounds.py). rr-first→rest: rr-first's rounds (all questions, round by round), then the unjudged "
        "pooled paragraphs by Σ over systems of 1/log2(rank+1) within K. complete: the pool in a stable "
        f"random order (Python's random.Random(seed).shuffle, seeds 0–{args.seeds - 1}, averaged).",
        "",
    ]
    body += [
        "Reading. With the frontier rule used here (each unsettled system's first pooled paragraph within K "
        "that is unjudged or relevant), rr-first can only ever judge paragraphs of the least set: a paragraph "
        "it asks for has every paragraph above it in that system's top K judged non-relevant, so it lies at or "
        "above the system's first relevant one. rr-first ÷ least is therefore 1.000 by construction, and the "
        "column checks that reljudge.campaign.plan.frontier (the judging page's and `reljudge next`'s rule) asks for "
        "nothing more (a batching that asked for more than each system's next paragraph would show here). What the data decide is rr-first ÷ pool -- how much of a "
        "complete judging MRR@10 needs -- which follows how early the systems find a relevant paragraph "
        "(high MRR: few rounds, small share) and how many questions have nothing relevant in the pool (each "
        "costs its whole pool: no plan can settle an RR of 0 sooner), and the number of rounds (batches) per "
        "question. If the R@10 width under rr-first→rest ends above complete's, it is because the rest order "
        "keeps for last the paragraphs only one system ranks, and low: those are what the other systems' "
        "recall denominators still wait on. A complete "
        "judging in a shuffled order has every RR@10 exact only near its very end.",
        "",
        DATA_PREP,
        "",
    ]
    if problems:
        body += [f"**{len(problems)} mismatch(es)**, first: " + "; ".join(problems[:5]), ""]
    if not args.no_write:
        write_section("judging_cost", "\n".join(body))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
