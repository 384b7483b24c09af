"""Dashboard recompute time: 1,000 questions × 4 systems × depth 20, 50,000 judgment events.

Times what the dashboard page computes on every refresh — aggregating the judgments
into qrels and no-answer verdicts, evaluating every system at one K with 95% bootstrap
intervals (B = 1000) and randomization tests, and shaping the summary and failure
tables — over repeated runs, and reports the median.
Usage: python bench/bench_dashboard.py [--repeat N]   (writes <!-- dashboard:begin/end --> in RESULTS.md)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from benchlib import DEPTH, N_Q, SYSTEMS, build_large_campaign, cpu_model, write_section  # noqa: E402

from reljudge import dashboard  # noqa: E402
from reljudge.storage import open_database  # noqa: E402

def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    path = HERE / "data" / "dashboard.duckdb"
    t0 = time.perf_counter()
    build_large_campaign(path)
    build_s = time.perf_counter() - t0
    db = open_database(path)
    n_events = db.cursor().execute("SELECT count(*) FROM judgment_events").fetchall()[0][0]
    times = []
    for i in range(args.repeat + 2):
        t = time.perf_counter()
        ev = dashboard.evaluate_for_dashboard(db, 10, 2)
        dashboard.summary_table(ev, 10)
        dashboard.failure_cases(db, ev, 10)
        dashboard.abstention_table(ev)
        dashboard.contested_no_answer(db, "adjudicated", None, 2)
        dashboard.questions_used(db, ev)
        dashboard.tests_table(ev)
        if i >= 2:                                    # two warm-up runs
            times.append((time.perf_counter() - t) * 1000)
    med = statistics.median(times)
    section = (
        f"## Dashboard recompute: {N_Q:,} questions × {len(SYSTEMS)} systems × depth {DEPTH}, "
        f"{n_events:,} judgment events\n\n"
        f"Measured {dt.date.today()} on {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()} "
        f"(`python bench/bench_dashboard.py --repeat {args.repeat}`; data built in {build_s:.0f} s).\n\n"
        "One refresh = aggregate the events into qrels and no-answer verdicts (adjudicated policy), "
        "evaluate RR, R, nDCG, P, Judged at K=10 for every system with 95% bootstrap intervals "
        "(B=1000) and paired randomization tests (1000 permutations, Holm), shape the summary, "
        "abstention, test and failure tables, count the questions used, find the overruled 'no answer' marks.\n\n"
        f"| figure | value |\n|---|---|\n"
        f"| median | {med:.0f} ms |\n"
        f"| p90 | {np.percentile(times, 90):.0f} ms |\n"
        f"| min – max | {min(times):.0f} – {max(times):.0f} ms |\n"
        f"| target (issue 3) | ≤ 300 ms median — {'met' if med <= 300 else 'NOT met'} |\n"
    )
    write_section("dashboard", section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
