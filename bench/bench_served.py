"""The CLI through the running app (issue 37 §1, docs/served.md), measured beside the same
commands with the app stopped, in one run, on copies of one campaign.

Part 1, commands: `evaluate`, `next --limit 20`, `export qrels` and an import of a
synthetic corpus (default 50,000 paragraphs, bench/bench_import.py's generator), each a
fresh `reljudge` process, run directly on one copy (nobody holds it) and through a
running app (`streamlit run app.py`) that holds the other copy; the wall time of the
client's process, median of --repeat runs (the import: once each), and their ratio.

Part 2, saves beside a forwarded import: --savers annotators save one grade each every
--every seconds through POST /api/events (a login cookie each, one request in flight, as
the judging widget does) for a while alone, then while a forwarded import of the corpus
runs; the acknowledgment time of each save (request to response), p50/p95/max in each
window. The import stages its rows a piece at a time (Database.stage: STAGE_ROWS rows per
hold of the write lock) and makes them visible in one transaction: the longest save wait
is that transaction's length.

The campaign: bench/benchlib.py's large one (1,000 questions × 4 systems × depth 20,
50,000 events), built once into bench/data/served-base.duckdb (--rebuild to build again).

Usage: python bench/bench_served.py [--paragraphs 50000] [--repeat 3] [--savers 5]
       [--every 0.2] [--rebuild]
Writes the <!-- served:begin/end --> section of bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.cookiejar
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from benchlib import PASSWORD, build_large_campaign, cpu_model, write_section

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE.parent / "tests"))

from e2e_support import StreamlitServer  # noqa: E402  (the tests' server helper)


def _reljudge(db: Path, *argv: str, cwd: Path) -> tuple[float, subprocess.CompletedProcess]:
    env = {k: v for k, v in os.environ.items() if k != "RELJUDGE_CAMPAIGN"}
    t = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(db), *argv], cwd=cwd, env=env, capture_output=True, text=True
    )
    took = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"reljudge {' '.join(argv)} on {db}: exit {r.returncode}\n{r.stderr}")
    return took, r


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Saver(threading.Thread):
    """One annotator saving a grade every ``every`` seconds; (time sent, ms to the answer)."""

    def __init__(self, url: str, name: str, qid: str, pids: list[str], every: float, stop: threading.Event):
        super().__init__(daemon=True)
        self.url, self.name, self.qid, self.pids, self.every, self.stop = url, name, qid, pids, every, stop
        self.samples: list[tuple[float, float]] = []
        self.errors = 0
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(jar)
        )

    def _post(self, route: str, body: dict) -> dict:
        req = urllib.request.Request(
            f"{self.url}{route}",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with self.opener.open(req, timeout=120) as r:
            return json.loads(r.read() or b"{}")

    def run(self) -> None:
        self._post("/api/login", {"username": self.name, "password": PASSWORD})
        k = 0
        while not self.stop.is_set():
            k += 1
            event = {
                "id": f"{self.name}-{time.time_ns()}-{k}",
                "kind": "grade",
                "qid": self.qid,
                "pid": self.pids[k % len(self.pids)],
                "grade": k % 3,
                "ms": 1000,
                "client": f"bench-{self.name}",
            }
            t = time.perf_counter()
            try:
                answer = self._post("/api/events", {"events": [event]})
                if event["id"] not in answer.get("acked", []):
                    self.errors += 1
            except OSError:
                self.errors += 1
                continue
            self.samples.append((t, (time.perf_counter() - t) * 1000))
            rest = self.every - (time.perf_counter() - t)
            if rest > 0:
                self.stop.wait(rest)


def _window(savers: list[Saver], start: float, end: float) -> list[float]:
    return [ms for s in savers for t, ms in s.samples if start <= t < end]


def lock_holds(base: Path, corpus: Path, work: Path) -> dict:
    """Part 3: the same import in this process on a copy of the campaign, every hold of the
    process's write lock timed (reljudge.storage.database.owner_only, which every write
    transaction and every staged piece takes), while a thread makes a tiny write every
    50 ms: the longest hold of the import (the final switch), its longest piece, and the
    longest the thread waited — the lock's part of a save's wait, without HTTP or a server."""
    import contextlib

    from reljudge.campaign import setup
    from reljudge.storage import database as storage_database
    from reljudge.storage import open_database

    path = work / "in-process.duckdb"
    shutil.copy2(base, path)
    db = open_database(path)
    holds: list[tuple[str, float]] = []
    original = storage_database.owner_only

    @contextlib.contextmanager
    def timed():
        with original():
            t = time.perf_counter()
            try:
                yield
            finally:
                holds.append((threading.current_thread().name, time.perf_counter() - t))

    storage_database.owner_only = timed
    stop, waits = threading.Event(), []

    def writer():
        while not stop.is_set():
            t = time.perf_counter()
            with db.transaction() as cur:
                cur.execute("SELECT 1")
            waits.append(time.perf_counter() - t)
            stop.wait(0.05)

    thread = threading.Thread(target=writer, name="saver")
    thread.start()
    try:
        time.sleep(1.0)
        waits.clear()
        t0 = time.perf_counter()
        setup.import_file(db, "corpus", corpus)
        took = time.perf_counter() - t0
        time.sleep(0.5)
    finally:
        stop.set()
        thread.join()
        storage_database.owner_only = original
        db.close()
    own = sorted((h for name, h in holds if name != "saver"), reverse=True)
    return {"seconds": took, "switch": own[0], "piece": own[1] if len(own) > 1 else 0.0, "wait": max(waits)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--paragraphs", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--savers", type=int, default=5)
    parser.add_argument("--every", type=float, default=0.2)
    parser.add_argument("--alone", type=float, default=8.0, help="seconds of saves before the import")
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_import import make_corpus

    from reljudge.storage import database as storage_database
    from reljudge.storage import open_database

    DATA.mkdir(exist_ok=True)
    base = DATA / "served-base.duckdb"
    if args.rebuild or not base.exists():
        t0 = time.perf_counter()
        build_large_campaign(base)
        print(f"campaign built in {time.perf_counter() - t0:.0f} s")
    db = open_database(base)
    qid = "q0001"
    pids = [r[0] for r in db.cursor().execute("SELECT pid FROM pool WHERE qid = ? ORDER BY pid", [qid]).fetchall()]
    db.close()
    corpus = make_corpus(args.paragraphs)
    work = DATA / "served-run"
    shutil.rmtree(work, ignore_errors=True)
    copies = {}
    for side in ("direct", "served"):
        (work / side).mkdir(parents=True)
        copies[side] = work / side / "camp.duckdb"
        shutil.copy2(base, copies[side])
    load = os.getloadavg()[0]
    machine = (
        f"{cpu_model()}, {os.cpu_count()} cores (shared with other work during the run), "
        f"Python {platform.python_version()}, load average {load:.2f} at the start"
    )
    print(machine)
    server = StreamlitServer(db_path=copies["served"], log_path=work / "server.log").start()
    rows = []
    save_rows = []
    try:
        commands = [
            ("evaluate", ("evaluate", "--format", "tsv")),
            ("next --limit 20", ("next", "--user", "a0", "--limit", "20")),
            ("export qrels", ("export", "qrels", "-o", "qrels.txt")),
        ]
        for label, argv in commands:
            times = {"direct": [], "served": []}
            for _ in range(args.repeat):
                for side in ("direct", "served"):  # alternated: the machine's load hits both
                    took, _r = _reljudge(copies[side], *argv, cwd=copies[side].parent)
                    times[side].append(took)
            d, s = statistics.median(times["direct"]), statistics.median(times["served"])
            rows.append((label, d, s))
            print(f"{label}: direct {d:.2f} s, through the app {s:.2f} s ({s / d:.2f}×)")

        # part 2 (and the forwarded import of part 1): saves alone, then beside the import
        stop = threading.Event()
        savers = [Saver(server.url, f"a{i}", qid, pids, args.every, stop) for i in range(args.savers)]
        for s in savers:
            s.start()
        time.sleep(1.0)  # logged in, first saves made
        alone_start = time.perf_counter()
        time.sleep(args.alone)
        import_start = time.perf_counter()
        took_served, r = _reljudge(copies["served"], "import", "corpus", str(corpus), cwd=work)
        import_end = time.perf_counter()
        time.sleep(1.0)
        stop.set()
        for s in savers:
            s.join(timeout=60)
        alone = _window(savers, alone_start, import_start)
        during = _window(savers, import_start, import_end)
        errors = sum(s.errors for s in savers)
        print(f"forwarded import: {took_served:.2f} s ({r.stdout.strip().splitlines()[0]})")
        took_direct, r = _reljudge(copies["direct"], "import", "corpus", str(corpus), cwd=work)
        print(f"direct import: {took_direct:.2f} s")
        rows.append((f"import corpus ({args.paragraphs:,} paragraphs)", took_direct, took_served))
        save_rows = [("alone", alone), ("during the forwarded import", during)]
        for name, values in save_rows:
            print(
                f"saves {name}: n {len(values)}, p50 {_pct(values, 0.5):.0f} ms, p95 {_pct(values, 0.95):.0f} ms, "
                f"max {max(values, default=float('nan')):.0f} ms"
            )
    finally:
        server.stop()
    inproc = lock_holds(base, corpus, work)
    print(
        f"in-process: import {inproc['seconds']:.2f} s, final switch {inproc['switch'] * 1000:.0f} ms, longest piece "
        f"{inproc['piece'] * 1000:.0f} ms, longest wait of a tiny write {inproc['wait'] * 1000:.0f} ms"
    )
    size_mb = corpus.stat().st_size / 1e6
    lines = [
        f"Run {dt.date.today().isoformat()} · {machine} · DuckDB file · `python bench/bench_served.py "
        f"--paragraphs {args.paragraphs} --repeat {args.repeat} --savers {args.savers} --every {args.every}`",
        "",
        "The same command as a fresh `reljudge` process on two copies of one campaign (1,000 questions × 4 "
        "systems × depth 20, 50,000 events): directly (nobody holds the file) and through a running app that "
        f"holds the other copy. Wall time of the client's process, median of {args.repeat} (the import: once "
        f"each; its file {size_mb:.0f} MB, sent whole in the request).",
        "",
        "| command | direct | through the app | ratio |",
        "|---|---:|---:|---:|",
    ]
    for label, d, s in rows:
        lines.append(f"| `{label}` | {d:.2f} s | {s:.2f} s | {s / d:.2f}× |")
    lines += [
        "",
        f"{args.savers} annotators each saving a grade every {args.every} s (POST /api/events) through the same "
        f"app, {args.alone:.0f} s alone and then while the forwarded import ran; acknowledgment time of each save. "
        f"The import staged its rows {storage_database.STAGE_ROWS:,} at a time (one hold of the write lock each) "
        f"and made them visible in one transaction. Saves not acknowledged: {errors}.",
        "",
        "| saves | n | p50 | p95 | max |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, values in save_rows:
        lines.append(
            f"| {name} | {len(values)} | {_pct(values, 0.5):.0f} ms | {_pct(values, 0.95):.0f} ms | "
            f"{max(values, default=float('nan')):.0f} ms |"
        )
    lines += [
        "",
        "The lock's part, without HTTP or a server (part 3): the same import in one process on a copy of the "
        "campaign, every hold of the write lock timed, a tiny write every 50 ms beside it: import "
        f"{inproc['seconds']:.2f} s; its final switch (the one transaction that checks the staged rows and makes them "
        f"visible) held the lock {inproc['switch'] * 1000:.0f} ms, its longest staged piece "
        f"{inproc['piece'] * 1000:.0f} ms; the longest a write beside it waited: {inproc['wait'] * 1000:.0f} ms.",
    ]
    write_section("served", "\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
