"""The save path under load: N annotators, each pressing one grade key per second,
against ONE server process (`streamlit run app.py`) on a campaign-sized DuckDB file
(1,000 questions × 4 systems × depth 20, 50,000 judgment events before the run).

Protocol level (part 1): plain HTTP clients (aiohttp, one keep-alive connection and one
login cookie per annotator, like a browser tab) that behave like the judging widget:
every keypress appends an event to an outbox; one request to POST /api/events is in
flight at a time and carries everything waiting. No browsers, so the 2-core machine
measures the server and not a hundred Chromium tabs. Acknowledgment time of an event =
from its keypress to the response that acknowledges it. Afterwards the database file
is read back: every acknowledged event must be stored exactly once.

Browsers (part 2, --browsers): the same with real headless Chromium tabs on the judging
page (keypress → card shows "saved"), proving that the page uses the route.

Moving on (part 3, --moves): a real tab presses Enter (next question) repeatedly on the
large campaign; time from the keypress to the next question's cards, and the server's
own time for the move (the library calls a move makes, timed in-process on the file).

Team server (part 4, --backend file,postgres): the protocol-level annotators of part 1
spread over 1, 2 and 4 app processes (--processes) on ONE PostgreSQL database, beside one
process on the DuckDB file, in the same run and from the same campaign: the DuckDB file is
built as above, a PostgreSQL server is started in a temporary directory (the test suite's
tests/postgres_support.py, with durable settings) and the campaign is moved there with
`reljudge copy-db`; every configuration starts from a fresh copy (the file copied, the
PostgreSQL database created from the campaign's as TEMPLATE). Annotators are assigned to
the processes round robin and keep theirs (sticky sessions). Stored, lost and duplicated
are counted from the database afterwards, over all processes; server CPU and RSS are sums
over the app processes, PostgreSQL's CPU (postmaster and backends) is given beside them.

Usage: python bench/bench_load.py [--levels 1,10,50,100,200] [--events 30]
                                  [--browsers 1,5,10] [--moves 30] [--reuse]
       python bench/bench_load.py --backend file,postgres [--processes 1,2,4] [--levels 10,50,100]
                                  [--events 30] [--reuse] [--compare-build]
       (--reuse there: bench/data/load-team-base.duckdb)
Writes the <!-- load:begin/end --> section of bench/RESULTS.md (file only), or with
--backend naming postgres the <!-- load-team:begin/end --> section (parts 2 and 3 are then
not run: they stay the file section's).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import platform
import random
import re
import resource
import shutil
import statistics
import sys
import threading
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from benchlib import (  # noqa: E402
    N_ANNOT,
    PASSWORD,
    bench_postgres,
    build_large_campaign,
    copy_db,
    cpu_model,
    pg_version,
    reads_whole_table,
    statement_shape,
    write_section,
)

import e2e_support as es  # noqa: E402

TARGET_P95_MS = 200


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class ProcessMeter:
    """CPU seconds and resident memory of the server process(es), read from /proc:
    utime+stime of those pids only (summed over them); RSS sampled every 0.2 s (peak of
    the sampled sums) and VmHWM (the kernel's own peak, summed)."""

    def __init__(self, pid: "int | list[int]"):
        self.pids = [pid] if isinstance(pid, int) else list(pid)
        self.pid = self.pids[0]
        self.peak_rss_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def cpu_seconds(self) -> float:
        total = 0
        for pid in self.pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def status_kb(self, key: str) -> int:
        total = 0
        for pid in self.pids:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    total += int(line.split()[1])
                    break
        return total

    def _sample(self):
        while not self._stop.is_set():
            self.peak_rss_kb = max(self.peak_rss_kb, self.status_kb("VmRSS"))
            self._stop.wait(0.2)

    def __enter__(self):
        self.peak_rss_kb = 0
        self.cpu0, self.t0 = self.cpu_seconds(), time.perf_counter()
        self._stop.clear()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.t0
        self.peak_rss_kb = max(self.peak_rss_kb, self.status_kb("VmRSS"))
        self.cpu = self.cpu_seconds() - self.cpu0
        self._stop.set()
        self._thread.join()


class TreeCPU:
    """CPU seconds of a process and all its children (PostgreSQL: the postmaster and its
    backends, one per connection): utime+stime of the live ones plus cutime+cstime of the
    postmaster (children that ended and were waited for)."""

    def __init__(self, pid: int):
        self.pid = pid

    @staticmethod
    def _fields(pid: int) -> list[str] | None:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None

    def sample(self) -> tuple[dict[int, int], int]:
        live = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                f = self._fields(int(entry.name))
                if f and (int(entry.name) == self.pid or int(f[1]) == self.pid):
                    live[int(entry.name)] = int(f[11]) + int(f[12])
        root = self._fields(self.pid)
        return live, (int(root[13]) + int(root[14])) if root else 0

    def __enter__(self):
        self.before, self.t0 = self.sample(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.t0
        (live0, dead0), (live1, dead1) = self.before, self.sample()
        ticks = sum(v - live0.get(pid, 0) for pid, v in live1.items()) + (dead1 - dead0)
        self.cpu = ticks / os.sysconf("SC_CLK_TCK")


# -- part 1: protocol-level annotators ------------------------------------------------
class Annotator:
    """One annotator's tab, as the widget behaves: an outbox, one request in flight."""

    def __init__(self, session, url: str, name: str, qid: str, pids: list[str], rng: random.Random):
        self.session, self.url, self.name, self.qid, self.pids, self.rng = session, url, name, qid, pids, rng
        self.client = f"load-{name}"
        self.outbox: list[tuple[dict, float]] = []
        self.inflight = False
        self.known_eid: dict[str, int] = {}
        self.latencies: list[float] = []
        self.sent: list[str] = []
        self.acked: list[str] = []
        self.rejected: dict[str, str] = {}
        self.errors = 0
        self.flush_task = None

    async def login(self):
        async with self.session.post(f"{self.url}/api/login", json={"username": self.name, "password": PASSWORD}) as r:
            if r.status != 200:
                raise RuntimeError(f"login {self.name}: HTTP {r.status}")

    def press(self, k: int):
        pid = self.pids[k % len(self.pids)]
        event = {
            "id": str(uuid.uuid4()),
            "kind": "grade",
            "qid": self.qid,
            "pid": pid,
            "grade": self.rng.choice([0, 0, 1, 2]),
            "ms": 1000,
            "client": self.client,
            "base": self.known_eid.get(pid, 0),
        }
        self.outbox.append((event, time.perf_counter()))
        self.sent.append(event["id"])
        if not self.inflight:
            self.flush_task = asyncio.ensure_future(self.flush())

    async def flush(self):
        failures = 0
        while self.outbox and not self.inflight:
            self.inflight = True
            batch = list(self.outbox)
            try:
                async with self.session.post(f"{self.url}/api/events", json={"events": [e for e, _ in batch]}) as r:
                    if r.status in (401, 403, 400, 413, 415):
                        raise SystemExit(f"{self.name}: the route refused the save (HTTP {r.status}): {await r.text()}")
                    if r.status != 200:
                        raise RuntimeError(f"HTTP {r.status}")
                    res = await r.json()
            except (RuntimeError, OSError, asyncio.TimeoutError, ValueError):
                self.errors += 1
                self.inflight = False
                failures += 1
                await asyncio.sleep(min(10, 0.5 * 2**failures))
                continue
            now = time.perf_counter()
            done = set(res["acked"]) | set(res["rejected"])
            for event, created in batch:
                if event["id"] in res["acked"]:
                    self.latencies.append((now - created) * 1000)
                    self.acked.append(event["id"])
                    self.known_eid[event["pid"]] = res["eids"][event["id"]]
            self.rejected.update(res["rejected"])
            self.outbox = [(e, c) for e, c in self.outbox if e["id"] not in done]
            self.inflight = False


async def run_level(
    url: "str | list[str]",
    users: list[str],
    pool: dict[str, list[str]],
    qids: list[str],
    n_events: int,
    seed: int,
    meter=None,
) -> list[Annotator]:
    """Log every annotator in (not measured: Argon2 is slow and memory-hard on purpose),
    then type; ``meter`` (one meter or a list) measures the servers during the typing only.
    Several server URLs: annotator i works on ``url[i % len(url)]`` all along (sticky
    sessions, round robin), as behind a reverse proxy with session affinity."""
    import aiohttp

    urls = [url] if isinstance(url, str) else list(url)
    meters = [] if meter is None else list(meter) if isinstance(meter, (list, tuple)) else [meter]
    rng = random.Random(seed)
    # unsafe=True: keep cookies for an IP address host (127.0.0.1), as a browser does
    sessions = [
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1), cookie_jar=aiohttp.CookieJar(unsafe=True))
        for _ in users
    ]
    try:
        tabs = [
            Annotator(
                s,
                urls[i % len(urls)],
                name,
                qids[(i * 7 + seed) % len(qids)],
                pool[qids[(i * 7 + seed) % len(qids)]],
                random.Random(rng.random()),
            )
            for i, (s, name) in enumerate(zip(sessions, users))
        ]
        sem = asyncio.Semaphore(8)

        async def login(tab):
            async with sem:
                await tab.login()

        await asyncio.gather(*(login(t) for t in tabs))
        for m in meters:
            m.__enter__()

        async def typing(tab, offset):
            start = time.perf_counter() + offset
            for k in range(n_events):
                delay = start + k - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                tab.press(k)
            while tab.outbox or tab.inflight:
                await asyncio.sleep(0.05)

        await asyncio.gather(*(typing(t, rng.random()) for t in tabs))
        for m in meters:
            m.__exit__(None, None, None)
        return tabs
    finally:
        for s in sessions:
            await s.close()


def protocol_levels(
    db_path, levels: list[int], n_events: int, log: Path, processes: int = 1, pg_pid: int | None = None
) -> list[dict]:
    """The levels against ``processes`` app processes on one database (a DuckDB file:
    one process; a PostgreSQL URL: any number). ``pg_pid``: the postmaster, whose CPU
    (with its backends') is measured beside the app processes'."""
    from contextlib import ExitStack

    from reljudge.storage import open_database

    db = open_database(db_path)
    pool: dict[str, list[str]] = {}
    for qid, pid in db.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid").fetchall():
        pool.setdefault(qid, []).append(pid)
    db.close()
    qids = sorted(pool)
    rows = []
    with ExitStack() as stack:
        servers = [
            stack.enter_context(
                es.StreamlitServer(
                    db_path=db_path, log_path=log if processes == 1 else log.with_name(f"{log.stem}-{k}{log.suffix}")
                )
            )
            for k in range(processes)
        ]
        urls = [srv.url for srv in servers]
        meter = ProcessMeter([srv.proc.pid for srv in servers])
        db_meter = TreeCPU(pg_pid) if pg_pid else None
        # The first request opens the database (and the first save warms the caches): in every process.
        for url in urls:
            asyncio.run(run_level(url, [f"a{N_ANNOT}"], pool, qids, 2, seed=999))
        for n in levels:
            users = [f"a{N_ANNOT + i}" for i in range(n)]
            ru0 = resource.getrusage(resource.RUSAGE_SELF)
            tabs = asyncio.run(
                run_level(urls, users, pool, qids, n_events, seed=n, meter=[meter] + ([db_meter] if db_meter else []))
            )
            ru1 = resource.getrusage(resource.RUSAGE_SELF)
            lat = [x for t in tabs for x in t.latencies]
            rows.append(
                {
                    "n": n,
                    "tabs": tabs,
                    "sent": sum(len(t.sent) for t in tabs),
                    "acked": sum(len(t.acked) for t in tabs),
                    "rejected": sum(len(t.rejected) for t in tabs),
                    "errors": sum(t.errors for t in tabs),
                    "p50": percentile(lat, 50),
                    "p95": percentile(lat, 95),
                    "p99": percentile(lat, 99),
                    "max": max(lat) if lat else float("nan"),
                    "server_cpu": meter.cpu / meter.wall,
                    "server_rss_mb": meter.peak_rss_kb / 1024,
                    "db_cpu": db_meter.cpu / db_meter.wall if db_meter else None,
                    "gen_cpu": ((ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)) / meter.wall,
                    "wall": meter.wall,
                }
            )
            r = rows[-1]
            print(
                f"{processes} proc, N={n:4d}: sent {r['sent']}, acked {r['acked']}, p50 {r['p50']:.1f} ms, "
                f"p95 {r['p95']:.1f} ms, p99 {r['p99']:.1f} ms, server CPU {100 * r['server_cpu']:.0f}%, "
                f"RSS {r['server_rss_mb']:.0f} MB" + (f", PostgreSQL CPU {100 * r['db_cpu']:.0f}%" if db_meter else ""),
                flush=True,
            )
        hwm = meter.status_kb("VmHWM") / 1024
    # Read the database back (after every process stopped): every acknowledged event stored
    # exactly once, nothing else — counted over all processes, since they share the database.
    db = open_database(db_path)
    cur = db.cursor()
    for r in rows:
        sent = [i for t in r["tabs"] for i in t.sent]
        acked = [i for t in r["tabs"] for i in t.acked]
        stored = dict(
            cur.execute(
                "SELECT client_event_id, count(*) FROM judgment_events "
                "WHERE list_contains(?, client_event_id) GROUP BY ALL",
                [sent],
            ).fetchall()
        )
        r["stored"] = len(stored)
        r["duplicated"] = sum(c - 1 for c in stored.values())
        r["lost"] = sum(1 for i in acked if i not in stored)
        del r["tabs"]
    n_events_total = cur.execute("SELECT count(*) FROM judgment_events").fetchall()[0][0]
    db.close()
    for r in rows:
        r["server_hwm_mb"] = hwm
    rows.append({"events_in_file": n_events_total})
    return rows


# -- part 2: real browsers ----------------------------------------------------------------
# In-page probe: a capture-phase keydown listener stamps the press and the card under
# the cursor; a MutationObserver stamps the moment that card shows "saved" with the grade.
TAB_PROBE = (
    """() => {"""
    + es.DEEP_QUERY_JS
    + """
  const find = deepQuery;
  const B = (window.__load = { trials: [], open: new Map(), find });
  const root = find(".rj");
  window.addEventListener("keydown", (ev) => {
    if (!"012".includes(ev.key)) return;
    const cur = root.querySelector(".rj-item.cur");
    if (!cur) return;
    const t = { pid: cur.dataset.pid, grade: ev.key, t0: performance.now(), tAck: null };
    B.trials.push(t);
    B.open.set(t.pid, t);
  }, true);
  new MutationObserver((records) => {
    const now = performance.now();
    for (const r of records) {
      const c = r.target, t = B.open.get(c.dataset.pid);
      if (t && c.dataset.saved === "1" && c.dataset.grade === t.grade) { t.tAck = now; B.open.delete(t.pid); }
    }
  }).observe(root, { attributes: true, subtree: true, attributeFilter: ["data-saved", "data-grade"] });
  return true;
}"""
)

MOVE_PROBE = (
    """() => {"""
    + es.DEEP_QUERY_JS
    + """
  const find = deepQuery;
  const B = (window.__move = { moves: [] });
  window.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter") return;
    const root = find(".rj");
    const m = { from: root && root.dataset.qid, t0: performance.now(), t1: null };
    B.moves.push(m);
    const tick = () => {
      const r = find(".rj");
      if (r && r.dataset.qid && r.dataset.qid !== m.from && r.querySelector(".rj-item")) m.t1 = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, true);
  return true;
}"""
)


def browser_levels(db_path: Path, levels: list[int], presses: int, log: Path) -> list[dict]:
    rows = []
    with es.StreamlitServer(db_path=db_path, log_path=log) as srv, es.chromium() as browser:
        meter = ProcessMeter(srv.proc.pid)
        for n in levels:
            users = [f"a{N_ANNOT + 300 + i}" for i in range(n)]  # fresh annotators per level
            contexts, pages = [], []
            for name in users:
                ctx = browser.new_context()
                ctx.set_default_timeout(120_000)
                page = ctx.new_page()
                es.login(page, srv.url, name, PASSWORD, timeout=120_000)
                es.wait_for_widget(page, timeout=120_000)
                es.wait_saved(page, timeout=120_000)
                page.evaluate(TAB_PROBE)
                contexts.append(ctx)
                pages.append(page)
            rng = random.Random(n)
            phases = [rng.random() for _ in pages]
            schedule = sorted((k + phases[i], i) for i in range(len(pages)) for k in range(presses))
            keys = "210"
            with meter:
                start = time.perf_counter()
                for at, i in schedule:
                    delay = start + at - time.perf_counter()
                    if delay > 0:
                        time.sleep(delay)
                    pages[i].keyboard.press(keys[int(at) % 3])
                for page in pages:
                    page.wait_for_function("() => window.__load.open.size === 0", timeout=120_000)
            lat = [
                t["tAck"] - t["t0"]
                for page in pages
                for t in page.evaluate("() => window.__load.trials")
                if t["tAck"] is not None
            ]
            missing = sum(len(page.evaluate("() => window.__load.trials")) for page in pages) - len(lat)
            rows.append(
                {
                    "n": n,
                    "presses": n * presses,
                    "acked": len(lat),
                    "missing": missing,
                    "p50": percentile(lat, 50),
                    "p95": percentile(lat, 95),
                    "max": max(lat),
                    "server_cpu": meter.cpu / meter.wall,
                    "server_rss_mb": meter.peak_rss_kb / 1024,
                }
            )
            print(f"browsers N={n}: p50 {rows[-1]['p50']:.0f} ms, p95 {rows[-1]['p95']:.0f} ms", flush=True)
            for ctx in contexts:
                ctx.close()
    return rows


# -- part 3: moving to the next question ---------------------------------------------------
def browser_moves(db_path: Path, moves: int, log: Path) -> dict:
    user = f"a{N_ANNOT + 290}"
    with es.StreamlitServer(db_path=db_path, log_path=log) as srv, es.chromium() as browser:
        page = browser.new_context().new_page()
        page.set_default_timeout(120_000)
        es.login(page, srv.url, user, PASSWORD, timeout=120_000)
        es.wait_for_widget(page, timeout=120_000)
        page.evaluate(MOVE_PROBE)
        for _ in range(moves):
            page.keyboard.press("Enter")
            page.wait_for_function("() => window.__move.moves.at(-1).t1 !== null", timeout=120_000)
            page.wait_for_timeout(300)  # the annotator looks at the new question
        lat = [m["t1"] - m["t0"] for m in page.evaluate("() => window.__move.moves")]
    return {"p50": percentile(lat, 50), "p95": percentile(lat, 95), "max": max(lat), "n": len(lat)}


def library_moves(db_path: Path, moves: int) -> dict:
    """The server's own work for a move, in-process on the same file: what the widget's
    action and the reruns it causes ask of the library (save what the move carries, step,
    the sidebar's queue, the question payload)."""
    from reljudge.campaign import judging
    from reljudge.storage import open_database

    db = open_database(db_path)
    user = f"a{N_ANNOT + 291}"
    times = []
    try:
        for _ in range(moves):
            t = time.perf_counter()
            judging.record_each(db, user, [], codes=True)
            before = judging.current_question(db, user)
            target = judging.step(db, user, 1)
            if target == before:
                judging.work_left(db, user, before)
            qid = judging.current_question(db, user)  # the fragment
            judging.overview(db, user)  # the sidebar's list
            judging.current_question(db, user)
            judging.payload(db, user, qid, "ko")  # the widget's data
            times.append((time.perf_counter() - t) * 1000)
    finally:
        db.close()
    return {"p50": percentile(times, 50), "p95": percentile(times, 95), "max": max(times), "n": len(times)}


# -- part 4: the team server (several app processes on one PostgreSQL database) -------------
def team_main(args, levels: list[int], backends: list[str], processes: list[int]) -> int:
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    base = data / "load-team-base.duckdb"
    n_users = N_ANNOT + max(levels + [10])
    t0 = time.perf_counter()
    reused = args.reuse and base.exists()
    if not reused:
        build_large_campaign(base, n_annotators=n_users)
    file_build_s = None if reused else time.perf_counter() - t0
    load_before = os.getloadavg()
    pg = bench_postgres()
    configs, results = [], {}
    try:
        template = pg.new_database()
        copy_s = copy_db(base, pg.url(template))
        direct_s = None
        if args.compare_build:
            direct = pg.new_database()
            t0 = time.perf_counter()
            build_large_campaign(pg.url(direct), n_annotators=n_users)
            direct_s = time.perf_counter() - t0
            pg.admin(f"DROP DATABASE {direct}")
        postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])
        if "file" in backends:
            configs.append(("file", 1))
        configs += [("postgres", p) for p in processes]
        for backend, n_proc in configs:
            if backend == "file":
                target = data / "load-team.duckdb"
                for suffix in ("", ".wal"):
                    Path(str(target) + suffix).unlink(missing_ok=True)
                shutil.copy(base, target)
                pid = None
            else:
                target = pg.url(pg.new_database(template=template))
                pid = postmaster
            print(f"-- {backend}, {n_proc} app process(es)", flush=True)
            rows = protocol_levels(
                target, levels, args.events, data / f"load-team-{backend}-{n_proc}.log", processes=n_proc, pg_pid=pid
            )
            rows.pop()
            results[(backend, n_proc)] = rows
        save_reads = pg_save_reads(pg, pg.url(pg.new_database(template=template)))
        version = pg_version(pg)
    finally:
        pg.destroy()
    load_after = os.getloadavg()

    lines = [
        "## Team server: N annotators over 1, 2 and 4 app processes on one PostgreSQL database, "
        "beside 1 process on the DuckDB file",
        "",
        f"Run {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores ({cpu_model()}), "
        f"{platform.platform()}, Python {platform.python_version()}, {version}; `python bench/bench_load.py "
        f"{' '.join(sys.argv[1:])}`; load average (1/5/15 min) {load_before[0]:.1f}/{load_before[1]:.1f}/"
        f"{load_before[2]:.1f} before the run, {load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} after "
        "(other work shares the machine). Everything — app processes, PostgreSQL, the load generator — "
        "runs on the same 2 cores, so more processes add no CPU: this measures correctness and overhead "
        "of the shared store, not scale-out.",
        "",
        "Campaign: 1,000 questions × 4 systems × depth 20, 50,000 judgment events before each configuration "
        "(every configuration starts from its own copy: the DuckDB file copied, the PostgreSQL database "
        "created from the campaign's database as TEMPLATE). Levels run one after the other on the same copy. "
        f"Each annotator presses a grade key once per second (random phase), {args.events} presses per level, "
        "on its own question, through the JSON route `/api/events` (the protocol-level client of part 1: "
        "outbox, one request in flight, retry with backoff). Annotator i works on process i mod P all along "
        "(sticky sessions, round robin).",
        "",
        "PostgreSQL: a server of its own in a temporary directory started by `tests/postgres_support.py` "
        "(unix socket, run as the `postgres` user) with durable settings (fsync, synchronous_commit, "
        "full_page_writes on: an acknowledgment waits for the WAL flush). Stored / duplicated / lost are "
        "counted from the database after the processes stopped, by client event id over all processes. "
        "Server CPU = CPU seconds of all app processes / wall time of the typing (100% = one core); "
        "PostgreSQL CPU = the postmaster and its backends, likewise; server RSS = peak of the sampled sum "
        "of the app processes' VmRSS.",
        "",
        "Building the campaign: "
        + (
            f"DuckDB file {file_build_s:.0f} s ({n_users} accounts, whose Argon2id hashes take most of it)"
            if file_build_s is not None
            else "DuckDB file reused from an earlier build"
        )
        + "; `reljudge copy-db FILE postgresql://…` "
        f"{copy_s:.1f} s (including its table-by-table comparison)"
        + (
            f"; built directly on PostgreSQL (RELJUDGE_DB = the URL, the same build) {direct_s:.0f} s — "
            f"{'file + copy-db' if (file_build_s or 0) + copy_s < direct_s else 'direct'} is faster"
            if direct_s is not None
            else ""
        )
        + ".",
        "",
        "| backend | app processes | annotators | events sent | acknowledged | stored | duplicated | lost | "
        "refused | HTTP errors | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | server CPU (sum) | "
        "PostgreSQL CPU | server RSS (MB, sum) | generator CPU |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (backend, n_proc), rows in results.items():
        for r in rows:
            lines.append(
                f"| {'DuckDB file' if backend == 'file' else 'PostgreSQL'} | {n_proc} | {r['n']} | {r['sent']:,} | "
                f"{r['acked']:,} | {r['stored']:,} | {r['duplicated']} | {r['lost']} | {r['rejected']} | "
                f"{r['errors']} | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} | {r['max']:.0f} | "
                f"{100 * r['server_cpu']:.0f}% | "
                f"{'—' if r['db_cpu'] is None else format(100 * r['db_cpu'], '.0f') + '%'} | "
                f"{r['server_rss_mb']:.0f} | {100 * r['gen_cpu']:.0f}% |"
            )
    if save_reads:
        times, reads = save_reads
        lines += [
            "",
            f"What one save reads from PostgreSQL (the library's save, `judgments.append_event_batches`, one "
            f"event, in-process on a fresh copy of the campaign, PostgreSQL's statement log over {len(times)} "
            f"saves; {statistics.median(times):.0f} ms median per save). The save looks its items up with IN "
            "lists of bound values (`storage.db.in_list`), which the extension sends to PostgreSQL as filters "
            'and PostgreSQL answers from indexes (migration 11: text in collation "C", (annotator, item) '
            "indexes). "
            f"{sum(1 for k, _, _ in reads if reads_whole_table(k))} of the {len(reads)} distinct reads have no "
            "condition of their own and stream the whole table's columns into DuckDB: "
            + (
                ", ".join(
                    sorted({re.search(r'"public"\."(\w+)"', k).group(1) for k, _, _ in reads if reads_whole_table(k)})
                )
                or "none"
            )
            + " (a `ctid BETWEEN` range is the extension splitting a scan, not a filter).",
            "",
            "| reads per save | PostgreSQL ms per save | statement |",
            "|---:|---:|---|",
        ] + [f"| {n / len(times):g} | {t / len(times):.1f} | `{stmt}` |" for stmt, n, t in reads]
    all_rows = [r for rows in results.values() for r in rows]
    clean = all(r["lost"] == 0 and r["duplicated"] == 0 and r["stored"] == r["acked"] for r in all_rows)
    lines += [
        "",
        f"Lost and duplicated: {'0 in every configuration (stored = acknowledged)' if clean else 'NOT 0 — see the table'}.",
    ]
    file_rows = {r["n"]: r for r in results.get(("file", 1), [])}
    ratio_lines = []
    for (backend, n_proc), rows in results.items():
        if backend != "postgres":
            continue
        for r in rows:
            f = file_rows.get(r["n"])
            if f and f["p95"] > 0:
                ratio_lines.append(
                    f"| {n_proc} | {r['n']} | {r['p50'] / f['p50']:.2f}× | {r['p95'] / f['p95']:.2f}× | "
                    f"{(r['server_cpu'] + (r['db_cpu'] or 0)) / f['server_cpu']:.2f}× |"
                )
    if ratio_lines:
        lines += [
            "",
            "Ratios PostgreSQL / DuckDB file at the same number of annotators (CPU: app processes + "
            "PostgreSQL against the one file process):",
            "",
            "| app processes | annotators | p50 | p95 | CPU |",
            "|---:|---:|---:|---:|---:|",
        ] + ratio_lines
    section = "\n".join(lines)
    write_section("load-team", section)
    print(section)
    return 0


def pg_save_reads(pg, url: str, n: int = 5) -> tuple[list[float], list[tuple[str, int, float]]]:
    """Times of ``n`` single-event saves on ``url`` and the reads they made (statement,
    count, PostgreSQL's ms), from the server's statement log."""
    import collections
    import re

    from reljudge.storage import judgments as store
    from reljudge.storage import open_database

    db = open_database(url)
    try:
        qid, pid = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid LIMIT 1").fetchone()

        def save() -> float:
            row = {
                "client_event_id": str(uuid.uuid4()),
                "qid": qid,
                "pid": pid,
                "grade": 1,
                "no_answer": None,
                "note": None,
                "evidence": None,
                "time_spent_ms": 1000,
                "client_id": "bench",
                "base_event_id": 0,
            }
            t = time.perf_counter()
            store.append_event_batches(db, [(f"a{N_ANNOT}", [row], False)])
            return (time.perf_counter() - t) * 1000

        for _ in range(3):
            save()
        log = pg.root / "server.log"
        pg.admin("ALTER SYSTEM SET log_min_duration_statement = 0")
        pg.admin("SELECT pg_reload_conf()")
        time.sleep(0.5)
        start = log.stat().st_size
        times = [save() for _ in range(n)]
        time.sleep(0.3)
        pg.admin("ALTER SYSTEM RESET log_min_duration_statement")
        pg.admin("SELECT pg_reload_conf()")
    finally:
        db.close()
    text = log.read_bytes()[start:].decode("utf-8", "replace")
    found = collections.defaultdict(lambda: [0, 0.0])
    for m in re.finditer(r"duration: ([\d.]+) ms\s+(?:statement|execute[^:]*): (COPY \(SELECT .*?\) TO STDOUT)", text):
        key = statement_shape(m.group(2))  # one line per shape: the saved items' keys elided
        found[key][0] += 1
        found[key][1] += float(m.group(1))
    return times, sorted(((k, c, t) for k, (c, t) in found.items()), key=lambda x: -x[2])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="1,10,50,100,200")
    ap.add_argument("--events", type=int, default=30, help="keypresses per annotator and level")
    ap.add_argument("--browsers", default="1,5,10", help="real-browser levels ('' to skip)")
    ap.add_argument("--presses", type=int, default=30, help="keypresses per browser tab")
    ap.add_argument("--moves", type=int, default=30, help="moves to the next question ('0' to skip)")
    ap.add_argument("--reuse", action="store_true", help="reuse bench/data/load-base.duckdb if present")
    ap.add_argument(
        "--backend",
        default="file",
        help="file, postgres or file,postgres; naming postgres runs the team-server part (part 4) instead of parts 1-3",
    )
    ap.add_argument("--processes", default="1,2,4", help="app processes on the PostgreSQL database")
    ap.add_argument(
        "--compare-build",
        action="store_true",
        help="part 4: also build the campaign directly on PostgreSQL (RELJUDGE_DB = the URL) "
        "and report its time beside copy-db's",
    )
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x]
    backends = [b.strip() for b in args.backend.split(",") if b.strip()]
    if set(backends) - {"file", "postgres"}:
        ap.error("--backend: file, postgres or file,postgres")
    if "postgres" in backends:
        return team_main(args, levels, backends, [int(x) for x in args.processes.split(",") if x])
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    base = data / "load-base.duckdb"
    t0 = time.perf_counter()
    reused = args.reuse and base.exists()
    if not reused:
        build_large_campaign(base, n_annotators=N_ANNOT + 300 + max(levels + [10]))
    built = "reused from an earlier build" if reused else f"built in {time.perf_counter() - t0:.0f} s"
    work = data / "load.duckdb"
    for suffix in ("", ".wal"):
        Path(str(work) + suffix).unlink(missing_ok=True)
    shutil.copy(base, work)
    load_before = os.getloadavg()[0]
    rows = protocol_levels(work, levels, args.events, data / "load-server.log")
    events_in_file = rows.pop()["events_in_file"]
    browsers = [int(x) for x in args.browsers.split(",") if x]
    tab_rows = browser_levels(work, browsers, args.presses, data / "load-browsers.log") if browsers else []
    moves = browser_moves(work, args.moves, data / "load-moves.log") if args.moves else None
    lib_moves = library_moves(work, args.moves) if args.moves else None
    passes = [r["n"] for r in rows if r["p95"] > TARGET_P95_MS]
    lines = [
        "## Save path under load: one server process, N annotators pressing a key every second",
        "",
        f"Run {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores ({cpu_model()}), "
        f"{platform.platform()}, Python {platform.python_version()}; `python bench/bench_load.py "
        f"{' '.join(sys.argv[1:])}`; 1-min load average {load_before:.1f} before the run. "
        f"Campaign: 1,000 questions × 4 systems × depth 20, 50,000 judgment events before the run "
        f"({events_in_file:,} after; {built}). One `streamlit run app.py` process "
        "(uvicorn, the JSON route `/api/events` beside the pages). The load generator is a separate "
        "process: aiohttp, one keep-alive connection and login cookie per annotator, acting as the "
        "widget does (outbox, one request in flight carrying everything waiting, retry with backoff). "
        "Each annotator presses a grade key once per second (random phase) on its own question.",
        "",
        "Acknowledgment = keypress → the response that acknowledges that event (ms). CPU = CPU seconds "
        "of that one process / wall time of the typing (100% = one core); the logins before it "
        "(Argon2id, slow and memory-hard on purpose) are not in the window. Server RSS = peak of 0.2 s "
        "samples of the server process alone (VmRSS) during the typing.",
        "",
        "| annotators | events sent | acknowledged | stored | duplicated | lost | refused | HTTP errors | "
        "p50 | p95 | p99 | max | server CPU | server RSS (MB) | generator CPU |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']} | {r['sent']:,} | {r['acked']:,} | {r['stored']:,} | {r['duplicated']} | {r['lost']} | "
            f"{r['rejected']} | {r['errors']} | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} | "
            f"{r['max']:.0f} | {100 * r['server_cpu']:.0f}% | {r['server_rss_mb']:.0f} | {100 * r['gen_cpu']:.0f}% |"
        )
    lines += [
        "",
        f"Server peak RSS over the whole run (VmHWM): {rows[0]['server_hwm_mb']:.0f} MB.",
        f"p95 passes {TARGET_P95_MS} ms at: " + (f"N = {passes[0]}" if passes else f"no level up to N = {max(levels)}"),
    ]
    hundred = next((r for r in rows if r["n"] == 100), None)
    if hundred:
        ok = (
            hundred["p95"] <= TARGET_P95_MS
            and hundred["lost"] == 0
            and hundred["duplicated"] == 0
            and hundred["stored"] == hundred["acked"]
        )
        lines.append(
            f"Goal (issue 9): 100 annotators, p95 ≤ {TARGET_P95_MS} ms, nothing lost or duplicated — "
            f"{'met' if ok else 'NOT met'} (p95 {hundred['p95']:.1f} ms)."
        )
    if tab_rows:
        lines += [
            "",
            f"Real browsers (part 2): headless Chromium {', '.join(map(str, browsers))} tabs (one browser, a "
            f"context and a login per annotator) on the judging page of the same file, each pressing a grade "
            f"key once per second ({args.presses} presses per tab, random phase). Timed inside each page: a "
            "capture-phase keydown listener stamps the press, a MutationObserver stamps the card turning "
            '"saved" (the route\'s acknowledgment painted). The tabs and the server share the 2 cores.',
            "",
            "| tabs | presses | acknowledged | not acknowledged | p50 (ms) | p95 (ms) | max (ms) | server CPU | server RSS (MB) |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in tab_rows:
            lines.append(
                f"| {r['n']} | {r['presses']} | {r['acked']} | {r['missing']} | {r['p50']:.0f} | "
                f"{r['p95']:.0f} | {r['max']:.0f} | {100 * r['server_cpu']:.0f}% | {r['server_rss_mb']:.0f} |"
            )
        ten = next((r for r in tab_rows if r["n"] == 10), None)
        if ten:
            lines.append(
                f"\nGoal (issue 9): 10 browser tabs, p95 ≤ 300 ms — {'met' if ten['p95'] <= 300 else 'NOT met'} "
                f"(p95 {ten['p95']:.0f} ms)."
            )
    if moves:
        lines += [
            "",
            f"Moving to the next question (part 3), {moves['n']} presses of Enter in one tab on the large campaign: "
            f"keypress → the next question's cards shown p50 {moves['p50']:.0f} ms, p95 {moves['p95']:.0f} ms, "
            f"max {moves['max']:.0f} ms (Streamlit reruns the widget, then the page for the sidebar). "
            f"The server's own work for a move (the library calls a move makes, in-process on the same file): "
            f"p50 {lib_moves['p50']:.1f} ms, p95 {lib_moves['p95']:.1f} ms, max {lib_moves['max']:.1f} ms "
            f"— goal ≤ 300 ms at p95: {'met' if lib_moves['p95'] <= 300 else 'NOT met'}.",
        ]
    section = "\n".join(lines)
    write_section("load", section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
