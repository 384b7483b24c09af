"""Dashboard recompute time: 1,000 questions × 4 systems × depth 20, 50,000 judgment events.

Times what the dashboard page computes on every refresh — aggregating the judgments
into qrels and no-answer verdicts, evaluating every system at one K with 95% bootstrap
intervals (B = 1000) and randomization tests, and shaping the summary and failure
tables — over repeated runs, and reports the median.

With --backend file,postgres the same refresh is also timed on PostgreSQL
(issue 15: within 1.5× of the file): a server in a temporary directory started by the
test suite's tests/postgres_support.py (durable settings, see benchlib.bench_postgres),
the same campaign moved there with `reljudge copy-db`, the runs interleaved (file,
PostgreSQL, file, …) so that the machine's other load hits both alike. Each step of the
refresh is timed on its own, and PostgreSQL's statement log of one refresh says which
reads it made (every COPY of a table to DuckDB, with PostgreSQL's own time).
Usage: python bench/bench_dashboard.py [--repeat N] [--backend file|file,postgres]
(--backend file, the default, writes <!-- dashboard:begin/end --> in RESULTS.md as before;
file,postgres writes <!-- dashboard-pg:begin/end --> instead, with both figures of that run)
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import os
import platform
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from benchlib import (  # noqa: E402
    DEPTH,
    N_Q,
    SYSTEMS,
    bench_postgres,
    build_large_campaign,
    copy_db,
    cpu_model,
    pg_version,
    reads_whole_table,
    statement_shape,
    write_section,
)

from reljudge.reporting import dashboard  # noqa: E402
from reljudge.storage import open_database  # noqa: E402

GOAL_RATIO = 1.5

STEPS = [
    ("evaluate_for_dashboard", lambda db, ev: dashboard.evaluate_for_dashboard(db, 10, 2)),
    ("summary_table", lambda db, ev: dashboard.summary_table(ev, 10)),
    ("failure_cases", lambda db, ev: dashboard.failure_cases(db, ev, 10)),
    ("abstention_table", lambda db, ev: dashboard.abstention_table(ev)),
    ("contested_no_answer", lambda db, ev: dashboard.contested_no_answer(db, "adjudicated", None, 2)),
    ("questions_used", lambda db, ev: dashboard.questions_used(db, ev)),
    ("tests_table", lambda db, ev: dashboard.tests_table(ev)),
]


ONE_READING = "one_reading (the events copied once; nothing on the file)"


def refresh(db, steps: dict[str, list[float]] | None = None) -> float:
    """One dashboard refresh; returns its time (ms) and adds each step's to ``steps``."""
    t = time.perf_counter()
    ev = None
    with dashboard.one_reading(db):  # as pages/dashboard.py: the events are read once
        if steps is not None:
            steps.setdefault(ONE_READING, []).append((time.perf_counter() - t) * 1000)
        for name, step in STEPS:
            s = time.perf_counter()
            out = step(db, ev)
            if name == "evaluate_for_dashboard":
                ev = out
            if steps is not None:
                steps.setdefault(name, []).append((time.perf_counter() - s) * 1000)
    return (time.perf_counter() - t) * 1000


def pg_reads(pg, db) -> list[tuple[str, int, float]]:
    """(statement, count, PostgreSQL's ms) of one refresh, from the server's statement log."""
    log = pg.root / "server.log"
    pg.admin("ALTER SYSTEM SET log_min_duration_statement = 0")
    pg.admin("SELECT pg_reload_conf()")
    time.sleep(0.5)
    start = log.stat().st_size
    refresh(db)
    time.sleep(0.3)
    pg.admin("ALTER SYSTEM RESET log_min_duration_statement")
    pg.admin("SELECT pg_reload_conf()")
    text = log.read_bytes()[start:].decode("utf-8", "replace")
    found = collections.defaultdict(lambda: [0, 0.0])
    for m in re.finditer(r"duration: ([\d.]+) ms\s+(?:statement|execute[^:]*): (COPY \(SELECT .*?\) TO STDOUT)", text):
        key = statement_shape(m.group(2))
        found[key][0] += 1
        found[key][1] += float(m.group(1))
    return sorted(((k, n, t) for k, (n, t) in found.items()), key=lambda x: -x[2])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--backend", default="file", help="file, or file,postgres")
    args = ap.parse_args()
    with_pg = "postgres" in args.backend.split(",")
    path = HERE / "data" / "dashboard.duckdb"
    t0 = time.perf_counter()
    build_large_campaign(path)
    build_s = time.perf_counter() - t0
    load_before = os.getloadavg()
    pg = pgdb = db = None
    steps = {"file": {}, "postgres": {}}
    try:
        if with_pg:
            pg = bench_postgres()
            url = pg.url(pg.new_database())
            copy_s = copy_db(path, url)  # before this process opens the file
            pgdb = open_database(url)
        db = open_database(path)
        n_events = db.cursor().execute("SELECT count(*) FROM judgment_events").fetchall()[0][0]
        times, pg_times = [], []
        for i in range(args.repeat + 2):
            ms = refresh(db, steps["file"] if i >= 2 else None)
            if i >= 2:  # two warm-up runs
                times.append(ms)
            if pgdb is not None:
                ms = refresh(pgdb, steps["postgres"] if i >= 2 else None)
                if i >= 2:
                    pg_times.append(ms)
        reads = pg_reads(pg, pgdb) if pgdb is not None else []
        version = pg_version(pg) if pg is not None else None
    finally:
        if db is not None:
            db.close()
        if pgdb is not None:
            pgdb.close()
        if pg is not None:
            pg.destroy()
    load_after = os.getloadavg()
    med = statistics.median(times)
    section = (
        f"## Dashboard recompute: {N_Q:,} questions × {len(SYSTEMS)} systems × depth {DEPTH}, "
        f"{n_events:,} judgment events\n\n"
        f"Measured {dt.date.today()} on {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()} "
        f"(`python bench/bench_dashboard.py {' '.join(sys.argv[1:])}`; data built in {build_s:.0f} s).\n\n"
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
    if not pg_times:
        write_section("dashboard", section)
        print(section)
        return 0
    pg_med = statistics.median(pg_times)
    ratio = pg_med / med
    lines = [
        f"## Dashboard recompute on PostgreSQL beside the DuckDB file (same campaign: {N_Q:,} questions × "
        f"{len(SYSTEMS)} systems × depth {DEPTH}, {n_events:,} judgment events)",
        "",
        f"Measured {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores, {cpu_model()}, "
        f"Python {platform.python_version()}, {version} (`python bench/bench_dashboard.py "
        f"{' '.join(sys.argv[1:])}`); load average (1/5/15 min) {load_before[0]:.1f}/{load_before[1]:.1f}/"
        f"{load_before[2]:.1f} before, {load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} after "
        "(other work shares the machine). PostgreSQL: a server in a temporary directory started by "
        "`tests/postgres_support.py`, unix socket, durable settings; the campaign moved there by "
        f"`reljudge copy-db` ({copy_s:.1f} s). The refresh of the dashboard section, {args.repeat} runs each after two "
        "warm-ups, file and PostgreSQL interleaved. Reads from PostgreSQL go through DuckDB's postgres "
        "extension (binary COPY of the columns a query needs); the computation stays in DuckDB in-process.",
        "",
        "| backend | median (ms) | p90 (ms) | min – max (ms) |",
        "|---|---:|---:|---:|",
        f"| DuckDB file | {med:.0f} | {np.percentile(times, 90):.0f} | {min(times):.0f} – {max(times):.0f} |",
        f"| PostgreSQL | {pg_med:.0f} | {np.percentile(pg_times, 90):.0f} | {min(pg_times):.0f} – {max(pg_times):.0f} |",
        "",
        f"Ratio PostgreSQL / file (medians): **{ratio:.2f}×** — goal (issue 15) within {GOAL_RATIO}×: "
        f"**{'met' if ratio <= GOAL_RATIO else 'NOT met'}**.",
        "",
        "Where the time goes, step by step (median ms of the same runs):",
        "",
        "| step | file | PostgreSQL | difference | ratio |",
        "|---|---:|---:|---:|---:|",
    ]
    for name in [ONE_READING] + [n for n, _ in STEPS]:
        f, p = statistics.median(steps["file"][name]), statistics.median(steps["postgres"][name])
        ratio = f"{p / f:.2f}×" if f >= 0.05 else "—"
        lines.append(f"| {name} | {f:.1f} | {p:.1f} | {p - f:+.1f} | {ratio} |")
    if reads:
        total_n = sum(n for _, n, _ in reads)
        total_t = sum(t for _, _, t in reads)
        lines += [
            "",
            f"Reads of one refresh on PostgreSQL (its statement log): {total_n} table reads (COPY to DuckDB), "
            f"{total_t:.0f} ms of PostgreSQL's own time; the rest of the difference is the transfer and "
            "decoding into DuckDB and the connection handling per query. "
            f"{sum(1 for k, _, _ in reads if not reads_whole_table(k))} of the {len(reads)} distinct reads "
            "carry a filter; the others stream the whole table's columns. The judgment events are copied "
            "once per refresh (`dashboard.one_reading`), and every view over them reads that copy.",
            "",
            "| reads | PostgreSQL ms | statement |",
            "|---:|---:|---|",
        ]
        for stmt, n, t in reads:
            shown = stmt.replace("|", "\\|")
            lines.append(f"| {n} | {t:.1f} | `{shown}` |")
    section = "\n".join(lines)
    write_section("dashboard-pg", section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
