"""`reljudge next` on a 1,000-question × 4-system campaign (depth 20, 50,000 judgment
events; benchlib.build_large_campaign): how long the items a user would be shown next
take to compute under each judging plan (docs/judging-plans.md#판정-계획--judging-plans).

Figures per plan, median and max over --repeat runs:
* ``next_items``: reljudge.campaign.judging.next_items(limit) in-process, after a write (so nothing
  cached: the whole queue's frontier is one SQL query, storage.plans), and without a limit
  (every item of every unfinished question ordered);
* ``cli in-process``: ``reljudge.cli.main.main(["next", ...])``, opening the database each time;
* ``subprocess``: ``python -m reljudge next`` as a whole process (Python start-up included).

The user is a0: no assignments, so all 1,000 questions are in the queue, with about
10,000 of the events. Prints the figures (nothing is written to RESULTS.md), with the process's CPU time
(DuckDB's threads included) beside the wall time of the in-process figures: on a machine
shared with other work the wall time varies more. The load average is printed too.
Usage: python bench/bench_next.py [--repeat N] [--limit N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import build_large_campaign, cpu_model  # noqa: E402

from reljudge.cli import main as cli  # noqa: E402
from reljudge.campaign import judging  # noqa: E402
from reljudge.campaign import plan  # noqa: E402
from reljudge.storage import open_database  # noqa: E402


def _ms(samples: list[float], cpu: list[float] | None = None) -> str:
    text = f"median {1000 * statistics.median(samples):7.1f} ms, max {1000 * max(samples):7.1f} ms"
    if cpu:
        text += f", CPU median {1000 * statistics.median(cpu):7.1f} ms"
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "next.duckdb"
        t0 = time.perf_counter()
        build_large_campaign(path)
        print(
            f"campaign built in {time.perf_counter() - t0:.0f} s: 1,000 questions × 4 systems, depth 20, 50,000 events"
        )
        print(
            f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"load average {os.getloadavg()[0]:.2f}"
        )
        user = "a0"
        # the floor of any command that reads the campaign: Python starting and importing DuckDB
        floor = []
        for _ in range(max(3, args.repeat // 3)):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import duckdb"], check=True)
            floor.append(time.perf_counter() - t)
        print(f"floor: python -c 'import duckdb'  {_ms(floor)}")
        for name, rest in (("complete", False), ("rr-first", False), ("rr-first", True)):
            db = open_database(path)
            plan.set_plan(db, name, rest)
            rounds, whole, rounds_cpu, inproc_cpu = [], [], [], []
            ov = judging.overview(db, user)
            qid = ov.qid.iloc[-1]
            pid = judging.store.question_items(db, user, qid).pid.iloc[0]
            for i in range(args.repeat):
                # a write (on the last question, never reached): the next call computes everything again
                judging.grade(db, user, qid, pid, None if i % 2 else 0)
                t, c = time.perf_counter(), time.process_time()
                items = judging.next_items(db, user, args.limit)
                rounds.append(time.perf_counter() - t)
                rounds_cpu.append(time.process_time() - c)
            for i in range(max(3, args.repeat // 3)):
                judging.grade(db, user, qid, pid, None if i % 2 else 0)
                t = time.perf_counter()
                everything = judging.next_items(db, user)
                whole.append(time.perf_counter() - t)
            ov = judging.overview(db, user)
            db.close()
            inproc = []
            for _ in range(args.repeat):
                t, c = time.perf_counter(), time.process_time()
                with contextlib.redirect_stdout(io.StringIO()):
                    assert cli.main(["--db", str(path), "next", "--user", user, "--limit", str(args.limit)]) == 0
                inproc.append(time.perf_counter() - t)
                inproc_cpu.append(time.process_time() - c)
            sub = []
            for _ in range(max(3, args.repeat // 3)):
                t = time.perf_counter()
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "reljudge",
                        "--db",
                        str(path),
                        "next",
                        "--user",
                        user,
                        "--limit",
                        str(args.limit),
                    ],
                    check=True,
                    capture_output=True,
                )
                sub.append(time.perf_counter() - t)
            label = name + (" --then-rest" if rest else "")
            open_now = int(ov.open_now.sum())
            print(f"\n{label}: {len(items)} items printed; {open_now} items to judge now over the queue")
            print(f"  next_items (uncached)   {_ms(rounds, rounds_cpu)}")
            print(f"  next_items, no limit    {_ms(whole)}  ({len(everything)} items)")
            print(f"  cli in-process          {_ms(inproc, inproc_cpu)}  (opens the database)")
            print(
                f"  subprocess              {_ms(sub)}  (Python start-up included; "
                f"{statistics.median(sub) / statistics.median(floor):.1f}× the floor)"
            )
        print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
