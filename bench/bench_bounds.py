"""What the bounds cost the dashboard: 1,000 questions × 4 systems × depth 20, 50,000 events.

Times one dashboard evaluation (RR, R, nDCG, P, Judged at K = 10, with 95% bootstrap
intervals and randomization tests: `dashboard.evaluate_for_dashboard`) with and without the
bounds (`reljudge.eval.bounds`), the two interleaved in one process so that the machine's other
load hits both alike, and the bounds' own step alone. The campaign is the dashboard
benchmark's (benchlib.build_large_campaign): about a quarter of the pool judged, so most
rankings still have open paragraphs and nDCG's bounds enumerate their multisets.

Usage: python bench/bench_bounds.py [--repeat N] [--no-write]
(writes <!-- bounds:begin/end --> in bench/RESULTS.md)
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from benchlib import build_large_campaign, cpu_model, write_section  # noqa: E402

from reljudge.reporting import dashboard  # noqa: E402
from reljudge.campaign import evaluation  # noqa: E402
from reljudge.eval.measures import parse_measures  # noqa: E402
from reljudge.storage import open_database  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bounds.duckdb"
        t0 = time.perf_counter()
        build_large_campaign(path)
        built = time.perf_counter() - t0
        db = open_database(path)
        k, rel = 10, 2
        measures = parse_measures([f"RR@{k}", f"R@{k}", f"nDCG@{k}", f"P@{k}", f"Judged@{k}"], default_rel=rel)

        def refresh(with_bounds: bool) -> float:
            t = time.perf_counter()
            evaluation.evaluate_campaign(db, measures, ks=[k], threshold=rel, with_bounds=with_bounds)
            return (time.perf_counter() - t) * 1000

        for _ in range(2):
            refresh(True), refresh(False)
        without, with_ = [], []
        for _ in range(args.repeat):
            without.append(refresh(False))
            with_.append(refresh(True))
        ev = dashboard.evaluate_for_dashboard(db, k, rel, n_boot=0, n_perm=0)
        b = ev.result.policies["bounds"]
        unsettled = int((~ev.result.bounds.settled).sum())
        total = len(ev.result.bounds)
        db.close()
    med_without, med_with = statistics.median(without), statistics.median(with_)
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = f"""## Bounds on the dashboard: 1,000 questions × 4 systems × depth 20, 50,000 judgment events

Measured {when} on 2 cores, {cpu_model()}, Python {platform.python_version()} (`python bench/bench_bounds.py --repeat {args.repeat}`; data built in {built:.0f} s).
One dashboard evaluation (RR, R, nDCG, P, Judged at K = 10; bootstrap B = 1000; randomization tests),
with and without the bounds, interleaved in one process. Pool judged: {b["pool_judged"]:,} of {b["pool_size"]:,};
{unsettled:,} of {total:,} system × question × measure figures not settled; {b["pooled_not_judged"]} pooled questions not judged yet.

| | median | min – max |
|---|---:|---:|
| without bounds | {med_without:.0f} ms | {min(without):.0f} – {max(without):.0f} ms |
| with bounds | {med_with:.0f} ms | {min(with_):.0f} – {max(with_):.0f} ms |
| ratio | {med_with / med_without:.2f}× | |
"""
    print(body)
    if not args.no_write:
        write_section("bounds", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
