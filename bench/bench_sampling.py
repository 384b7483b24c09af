"""Benchmark: Recall@K and nDCG@K estimated from a sample of the pool (a simulation: no browser, no database).

    python bench/bench_sampling.py DATA_DIR [DATA_DIR ...] [--then-sample 0.1,0.2,...] [--sample 0.1,...]
                                   [--draws 500] [--rel 2] [--k 10] [--no-write] [--write-sample DIR]

The data, the oracle, the rankings, the pool and rr-first are bench/bench_judging_cost.py's
(its ``load_campaign``, ``run_rr_first``, ``rest_order``, ``bounds_for``): the qrels grade every
pooled paragraph (0 when they lack it), the pool is the union of every system's top K.

Plans, each over ``--draws`` independent draws (seeds 0 … draws − 1):

* ``rr-first→sample RATE``: rr-first's items are judged (they are known, π = 1), then a share RATE
  of the rest of each question's pool is drawn (reljudge.eval.sampling.draw, strata by best
  rank) and judged;
* ``sample RATE``: a share RATE of each question's whole pool, nothing known (``--sample``), and the same
  with the rank prior's allocation (``--sample-rank``: π_h ∝ 1 / log2(best rank + 1)).

For every system: the mean (over the questions) of the estimate of reljudge.eval.sampling.estimate
against the full-pool mean of the same questions (reljudge.evaluate): bias, RMSE, the 95th
percentile of |error|, the coverage of the 95 % judging-sample interval, its mean half-width,
and the share of draws whose system order (by that measure) is the full pool's.  Beside each
budget: rr-first→rest (bench_judging_cost's rest order) at the same number of judgments — the
widest hard bound of a system's mean (reljudge.eval.bounds) — and ``complete`` in a shuffled
order at that budget, unjudged = 0 as trec_eval (its largest |error| of a system's mean).

Writes bench/RESULTS.md between the ``sampling`` markers (unless --no-write).  ``--write-sample DIR``
also writes, for draw 0 of the first rr-first→sample rate, DIR/NAME.qrels (the trec-sampled text
that TREC's sample_eval.pl reads) and DIR/NAME.ours.tsv (our per-question estimates of the number
relevant and of nDCG over the whole ranking), for a comparison with sample_eval.pl.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import sys
import time
from pathlib import Path

import numpy as np

from benchlib import cpu_model, write_section
from bench_judging_cost import DATA_PREP, bounds_for, load_campaign, rest_order, run_rr_first
from reljudge.eval import sampling as sm
from reljudge.eval.measures import parse_measures

HERE = Path(__file__).resolve().parent
SHORT = ("nDCG", "R")


def full_values(c, grades, k: int, rel: int) -> dict:
    """(short name, system) -> {qid: value} of nDCG@k and R@k from reljudge.evaluate on the
    qrels ``grades``; every question present (0 when the qrels have none of it).  The
    measure names evaluate prints are parsed back with the same default threshold."""
    import pandas as pd

    import reljudge

    ms = parse_measures([f"nDCG@{k}", f"R@{k}"], default_rel=rel)
    qrels = pd.DataFrame(
        [(q, p, g) for q, per in grades.items() for p, g in per.items()], columns=["query_id", "doc_id", "relevance"]
    )
    out = {}
    for s in c.systems:
        frame = reljudge.evaluate(qrels, c.runs[s], [str(m) for m in ms], rel=rel, per_query=True)
        parsed = {name: parse_measures([name], default_rel=rel)[0] for name in frame.measure.unique()}
        for short, m in zip(SHORT, ms):
            part = frame[frame.measure.map(parsed) == m]
            values = dict(zip(part.query_id, part.value))
            out[(short, s)] = {q: float(values.get(q, 0.0)) for q in c.qids}
    return out


def _order_ok(est: np.ndarray, full: np.ndarray) -> bool:
    """The estimates order every pair of systems as the full pool does (pairs tied there skipped)."""
    n = len(full)
    for i in range(n):
        for j in range(i + 1, n):
            d = full[i] - full[j]
            if d != 0 and np.sign(est[i] - est[j]) != np.sign(d):
                return False
    return True


def study(
    folder: Path, k: int, rel: int, then_rates, rates, draws: int, write_sample: Path | None, rank_rates=()
) -> dict:
    t0 = time.perf_counter()
    c = load_campaign(folder, k)
    full_grades = {q: {p: c.grade(q, p) for p in c.pool[q]} for q in c.qids}
    c.full = full_values(c, full_grades, k, rel)
    ms = parse_measures([f"nDCG@{k}", f"R@{k}"], default_rel=rel)
    rankings = {q: {s: c.rankings[q].get(s, [])[:k] for s in c.systems} for q in c.qids}
    brs = {q: sm.best_ranks(rankings[q], c.pool[q], k) for q in c.qids}
    full = np.array([[np.mean(list(c.full[(m, s)].values())) for m in SHORT] for s in c.systems])  # [S, M]
    problems = []
    # the estimator on the whole pool must give reljudge.evaluate's values exactly
    whole = sm.estimate([sm.draw(brs[q], 1.0, 0, qid=q) for q in c.qids], full_grades, rankings, ms, systems=c.systems)
    for si, s in enumerate(c.systems):
        for mi, m in enumerate(SHORT):
            want = np.array([c.full[(m, s)][q] for q in c.qids])
            if np.abs(whole.value[si, :, mi] - want).max() > 1e-9 or whole.se[si, :, mi].max() > 0:
                problems.append(f"{c.name} {s} {m}: the whole pool's estimate differs from reljudge.evaluate")
    rr = run_rr_first(c, k, rel)
    known = {q: set(rr.judged[q]) for q in c.qids}
    pool_size = c.pool_size
    rr_cost = sum(len(v) for v in known.values())
    rest = rr.sequence + rest_order(c, rr.judged, k)
    shuffled = [(q, p) for q in c.qids for p in c.pool[q]]
    np.random.default_rng(0).shuffle(shuffled)
    tops = {(q, s): c.top(q, s, k) for q in c.qids for s in c.systems}
    rows = []
    plans = [("rr-first→sample", r) for r in then_rates] + [("sample", r) for r in rates]
    plans += [("sample, rank prior", r) for r in rank_rates]
    for plan, rate in plans:
        kn = known if plan == "rr-first→sample" else {q: set() for q in c.qids}
        alloc = "rank" if plan.endswith("rank prior") else "proportional"
        est = np.zeros((draws, len(c.systems), len(SHORT)))
        lo = np.zeros_like(est)
        hi = np.zeros_like(est)
        spent = 0
        for d in range(draws):
            dr = [sm.draw(brs[q], rate, d, kn[q], qid=q, allocation=alloc) for q in c.qids]
            judged = {x.qid: {y.item: c.grade(x.qid, y.item) for y in x.items if y.drawn} for x in dr}
            e = sm.estimate(dr, judged, rankings, ms, systems=c.systems)
            est[d], lo[d], hi[d] = e.mean, e.mean_low, e.mean_high
            if d == 0:
                spent = sum(len(v) for v in judged.values())
                if write_sample is not None and plan == "rr-first→sample" and rate == then_rates[0]:
                    _write_sample(write_sample, c, dr, judged)
        # beside: rr-first→rest and complete (shuffled) at the same number of judgments
        n = min(spent, pool_size)
        jr = {q: {} for q in c.qids}
        for q, p in rest[:n]:
            jr[q][p] = c.grade(q, p)
        b = bounds_for(c, tops, jr, k, rel)
        width = np.array(
            [
                [
                    np.mean([b[(q, s)][1] - b[(q, s)][0] for q in c.qids]),
                    np.mean([b[(q, s)][3] - b[(q, s)][2] for q in c.qids]),
                ]
                for s in c.systems
            ]
        )
        js = {q: {} for q in c.qids}
        for q, p in shuffled[:n]:
            js[q][p] = c.grade(q, p)
        part = full_values(c, js, k, rel)
        comp = np.array([[np.mean(list(part[(m, s)].values())) for m in SHORT] for s in c.systems])
        err = est - full[None]
        cover = ((lo <= full[None] + 1e-12) & (full[None] <= hi + 1e-12)).mean(axis=0)
        order = [np.mean([_order_ok(est[d, :, mi], full[:, mi]) for d in range(draws)]) for mi in range(len(SHORT))]
        rows.append(
            {
                "plan": plan,
                "rate": rate,
                "spent": spent,
                "share": spent / pool_size,
                "bias": err.mean(axis=0),
                "rmse": np.sqrt((err**2).mean(axis=0)),
                "p95": np.quantile(np.abs(err), 0.95, axis=0),
                "cover": cover,
                "half": ((hi - lo) / 2).mean(axis=0),
                "order": np.array(order),
                "bound_width": width,
                "complete_err": np.abs(comp - full),
            }
        )
        print(
            f"  {c.name} {plan} {rate:.2f}: {spent / pool_size:.0%} judged, {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
    return {
        "c": c,
        "pool": pool_size,
        "rr_cost": rr_cost,
        "rows": rows,
        "full": full,
        "problems": problems,
        "seconds": time.perf_counter() - t0,
        "draws": draws,
    }


def _write_sample(out: Path, c, dr, judged) -> None:
    """The trec-sampled qrels of one draw and our estimates to compare with sample_eval.pl
    (nDCG over the whole ranking, as sample_eval.pl's infNDCG, and the estimated number relevant)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{c.name}.qrels").write_text(sm.trec_sampled_qrels(dr, judged), encoding="utf-8")
    # the whole ranking (sample_eval.pl's infNDCG has no cutoff; its ranks count unpooled rows too)
    deep = {q: {s: c.rankings[q].get(s, [])[:1000] for s in c.systems} for q in c.qids}
    m = parse_measures(["nDCG@1000"], default_rel=1)
    e = sm.estimate(dr, judged, deep, m, systems=c.systems, correct_bias=False)
    full = {q: {p: c.grade(q, p) for p in c.pool[q]} for q in c.qids}
    whole = sm.estimate(
        [sm.draw({x.item: x.best_rank for x in d.items}, 1.0, 0, qid=d.qid) for d in dr],
        full,
        deep,
        m,
        systems=c.systems,
    )
    lines = ["system\tqid\tnDCG\tnum_rel\tfull_nDCG"]
    f = sm._flatten(dr, judged, None)
    R = np.bincount(f.q, f.w * (f.grade >= 1), minlength=f.Q)
    for si, s in enumerate(c.systems):
        for qi, q in enumerate(c.qids):
            lines.append(f"{s}\t{q}\t{e.raw[si, qi, 0]:.6f}\t{R[qi]:.6f}\t{whole.value[si, qi, 0]:.6f}")
    (out / f"{c.name}.ours.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def fmt(x: float, d: int = 3) -> str:
    return "n/a" if x != x else f"{x:.{d}f}"


def table(r: dict) -> list[str]:
    c = r["c"]
    lines = [
        "| plan | judged (share of pool) | measure | worst \\|bias\\| | worst RMSE | worst p95 \\|error\\| | coverage (min–max) | "
        "mean half-width (max) | order = full pool | rr-first→rest: widest bound of a mean | complete (shuffled, unjudged = 0): worst \\|error\\| |",
        "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for row in r["rows"]:
        for mi, m in enumerate(SHORT):
            cov = row["cover"][:, mi]
            lines.append(
                f"| {row['plan']} {row['rate']:.0%} | {row['spent']:,} ({row['share']:.0%}) | {m}@10 | "
                f"{fmt(np.abs(row['bias'][:, mi]).max())} | {fmt(row['rmse'][:, mi].max())} | "
                f"{fmt(row['p95'][:, mi].max())} | {cov.min():.1%}–{cov.max():.1%} | {fmt(row['half'][:, mi].max())} | "
                f"{row['order'][mi]:.0%} | {fmt(row['bound_width'][:, mi].max())} | {fmt(row['complete_err'][:, mi].max())} |"
            )
    lines.append("")
    per = []
    for si, s in enumerate(c.systems):
        per.append(f"{s} nDCG@10 {r['full'][si, 0]:.3f}, R@10 {r['full'][si, 1]:.3f}")
    lines.append(
        f"{c.name}: {len(c.qids)} questions, {len(c.systems)} systems, pool {r['pool']:,} (depth 10), rr-first "
        f"{r['rr_cost']:,} ({r['rr_cost'] / r['pool']:.0%}). Full-pool means: " + "; ".join(per) + "."
    )
    return lines


def per_system(r: dict, plan: str, rate: float) -> list[str]:
    c = r["c"]
    row = next(x for x in r["rows"] if x["plan"] == plan and x["rate"] == rate)
    lines = [
        f"Per system, {plan} {rate:.0%} ({row['share']:.0%} of the pool judged):",
        "",
        "| system | measure | full pool | bias | RMSE | coverage | mean half-width |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for si, s in enumerate(c.systems):
        for mi, m in enumerate(SHORT):
            lines.append(
                f"| {s} | {m}@10 | {r['full'][si, mi]:.3f} | {row['bias'][si, mi]:+.4f} | {row['rmse'][si, mi]:.4f} | "
                f"{row['cover'][si, mi]:.1%} | {row['half'][si, mi]:.4f} |"
            )
    return lines


def goals(results: list[dict]) -> list[str]:
    out = []
    for r in results:
        name = r["c"].name.lower()
        if "korquad" in name:
            limit, half, bias_max = 0.35, 0.02, None
        elif "cast" in name:
            limit, half, bias_max = 0.55, 0.03, 0.01
        else:
            continue
        fits = [x for x in r["rows"] if x["share"] <= limit + 1e-9]
        ok_half = [x for x in fits if x["half"].max() <= half]
        if bias_max is not None:
            ok_half = [x for x in ok_half if np.abs(x["bias"]).max() <= bias_max]
        ok_all = [
            x for x in ok_half if x["cover"].min() >= 0.92 and x["cover"].max() <= 0.98 and x["order"].min() >= 0.9
        ]
        best = min(fits, key=lambda x: x["half"].max()) if fits else None
        txt = (
            f"- {r['c'].name}: goal ±{half}"
            + (f" with |bias| ≤ {bias_max}" if bias_max else "")
            + f" at ≤ {limit:.0%} "
            "of the pool, coverage 92–98 %, order ≥ 90 %: "
        )
        if ok_all:
            x = min(ok_all, key=lambda x: x["share"])
            txt += f"**met** by {x['plan']} {x['rate']:.0%} ({x['share']:.0%} judged)."
        elif best is None:
            txt += "**not met**: no plan measured within the budget."
        else:
            txt += (
                f"**not met**: within the budget the narrowest is {best['plan']} {best['rate']:.0%} "
                f"({best['share']:.0%} judged): half-width {best['half'].max():.3f}, worst |bias| "
                f"{np.abs(best['bias']).max():.3f}, coverage {best['cover'].min():.1%}–{best['cover'].max():.1%}, "
                f"order {best['order'].min():.0%}."
            )
        out.append(txt)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="*", type=Path)
    ap.add_argument("--then-sample", default="0.1,0.2,0.3,0.4,0.5", help="rates of rr-first→sample")
    ap.add_argument("--sample", default="0.1,0.2,0.3,0.4,0.5", help="rates of plan sample")
    ap.add_argument("--sample-rank", default="0.1,0.3,0.5", help="rates of plan sample with the rank prior")
    ap.add_argument("--draws", type=int, default=500)
    ap.add_argument("--save", type=Path, default=None, help="also pickle the results here (for --combine)")
    ap.add_argument("--notes", type=Path, default=None, help="a Markdown file appended to the section")
    ap.add_argument("--combine", type=Path, nargs="*", default=None, help="write RESULTS.md from saved results")
    ap.add_argument("--rel", type=int, default=2)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--write-sample", type=Path, default=None)
    args = ap.parse_args(argv)
    then_rates = [float(x) for x in args.then_sample.split(",") if x.strip()]
    rates = [float(x) for x in args.sample.split(",") if x.strip()]
    started = dt.datetime.now(dt.timezone.utc)
    rank_rates = [float(x) for x in args.sample_rank.split(",") if x.strip()]
    results = []
    if args.combine:
        import pickle

        for path in args.combine:
            results += pickle.loads(path.read_bytes())
    for folder in args.data:
        r = study(folder, args.k, args.rel, then_rates, rates, args.draws, args.write_sample, rank_rates)
        results.append(r)
        print("\n".join(table(r)))
    if args.save is not None:
        import pickle

        args.save.write_bytes(pickle.dumps(results))
    problems = [p for r in results for p in r["problems"]]
    names = [str(r["c"].name) for r in results]
    n_draws = results[0]["draws"] if results else args.draws
    cmd = f"python bench/bench_sampling.py DATA_DIR/{{{','.join(names)}}} --draws {n_draws}"
    body = [
        "## Sampling: Recall@10 and nDCG@10 estimated from a share of the pool",
        "",
        f"{started:%Y-%m-%d %H:%M} UTC, 2 cores ({cpu_model()}), Python {platform.python_version()}; `{cmd}` "
        f"({sum(r['seconds'] for r in results):.0f} s of compute; run per folder with --save, written with --combine). "
        "A simulation on bench_judging_cost's data: the qrels are the "
        f"oracle, K = {args.k}, relevant = grade ≥ {args.rel}. Estimator: reljudge.eval.sampling.estimate (HT totals, "
        "ratio estimators for R and nDCG with the stratified jackknife's bias correction and variance, "
        "per-question values averaged, the mean clipped into [0, 1]; not clipped into the hard bounds here). "
        f"Each row: {n_draws} draws (seeds 0–{n_draws - 1}); errors are of each system's mean over the "
        "questions against the full-pool mean (reljudge.evaluate); 'worst' = the worst system.",
        "",
    ]
    for r in results:
        body += [f"### {r['c'].name}", "", r["c"].source or "", "", *table(r), ""]
        pick = [x for x in r["rows"] if x["plan"] == "rr-first→sample"]
        if pick:
            mid = pick[len(pick) // 2]
            body += [*per_system(r, mid["plan"], mid["rate"]), ""]
    body += ["Goals of issue 36:", "", *goals(results), ""]
    body += [
        "Columns: bias = mean over draws of (estimate − full-pool value); RMSE and p95 over draws; coverage = share "
        "of draws whose 95 % judging-sample interval holds the full-pool mean; half-width = mean of (high − low)/2; "
        "order = share of draws whose systems are in the full pool's order by that measure (pairs tied in the full "
        "pool skipped). rr-first→rest: rr-first's rounds then the rest by Σ 1/log2(rank+1), cut at the same number "
        "of judgments; its column is the widest (over systems) mean width of the hard bounds — a guaranteed "
        "interval, against the estimate's 95 % one. complete: the pool in one shuffled order (seed 0), cut at "
        "that number, unjudged = 0.",
        "",
        DATA_PREP,
        "",
    ]
    if args.notes is not None:
        body += [args.notes.read_text(encoding="utf-8").strip(), ""]
    if problems:
        body += [f"**{len(problems)} problem(s)**: " + "; ".join(problems[:5]), ""]
        print("\n".join(problems), file=sys.stderr)
    print("\n".join(goals(results)))
    if not args.no_write:
        write_section("sampling", "\n".join(body))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
