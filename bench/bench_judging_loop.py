"""The judge's wait under the rr-first plan: N annotators judging at once in headless chromium.

Usage: python bench/bench_judging_loop.py [--annotators 1 2] [--questions 12] [--pool 15]
                                          [--baseline REV] [--hogs 0] [--read-ms 0] [--note TEXT] [--no-write]

One campaign (``--questions`` questions, ``--pool`` pooled paragraphs each, two runs) under
``rr-first``; every annotator has the whole queue. For each N in ``--annotators``, N browser
contexts log in and judge at the same time, each driven by a script inside its own page (so
that the N judges really overlap: the Python side only starts them and collects): on each
question, press a grade on the highlighted card (2 with probability 1/4, else 0, a seeded
generator per annotator) until the plan says the question is done, then Enter; after the
last question, stop. Measured inside the page with ``performance.now()``:

  key → next card ready   from the keydown to the moment the highlighted card is one the
                          plan asks for now and ungraded (a key pressed then applies to it),
                          or the question is done;
  Enter → next question   from the keydown to the next question's cards in the DOM;
  login → first card      from submitting the login form to the first card highlighted
                          (measured from Python, the annotators one after the other);
  wrong card              keys whose grade did not land on the card highlighted when pressed;
  (``--read-ms``: each page waits that long before each grade, as a judge reads the paragraph;
  its figures go to their own section of RESULTS.md)
  page reruns per grade   Streamlit reruns the widget asked for to learn what to judge next
                          (``data-refreshes``; a tree without the counter shows "n/a").

With ``--baseline REV`` the same is run against that commit (``git archive``, its own server
and its own copy of the campaign), servers one after the other, the same sizes. Server CPU per
judgment: the Streamlit process's user+system CPU time over the run (``/proc``), divided by
the judgments stored. Results go to bench/RESULTS.md between the judging-loop markers.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(HERE))

import e2e_support as es  # noqa: E402
from bench_login import export_revision, start_hogs, stop_hogs  # noqa: E402
from benchlib import cpu_model  # noqa: E402

BEGIN, END = "<!-- judging-loop:begin -->", "<!-- judging-loop:end -->"
BEGIN_READ, END_READ = "<!-- judging-loop-read:begin -->", "<!-- judging-loop-read:end -->"

DRIVER = (
    """(args) => {"""
    + es.DEEP_QUERY_JS
    + """
  const {seed, maxQuestions, timeoutMs, readMs} = args;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let x = seed >>> 0;
  const rand = () => { x = (1103515245 * x + 12345) >>> 0; return x / 4294967296; };
  const root = () => deepQuery('.rj');
  const cur = () => { const r = root(); return r && r.querySelector('.rj-item.cur'); };
  window.__benchErrors = [];
  window.addEventListener('error', (e) => window.__benchErrors.push(String(e.message) + ' @' + e.lineno));
  // what the page looked like when a wait timed out (for the error)
  const diag = () => {
    const r = root(); if (!r) return 'no widget';
    const c = cur();
    return JSON.stringify({qid: r.dataset.qid, serverQid: r.dataset.serverQid, pending: r.dataset.pending, done: r.dataset.planDone,
      now: r.dataset.now, cur: c && c.dataset.pid, held: r.dataset.held, heldQid: (window.__reljudge || {}).heldQid,
      heldAge: Math.round(performance.now() - ((window.__reljudge || {}).heldAt || 0)), errors: window.__benchErrors, connected: r.isConnected,
      cards: [...r.querySelectorAll('.rj-item')].map((e) => e.dataset.pid + ':' + e.dataset.now + ':' + e.dataset.grade)});
  };
  // resolves when pred() holds: checked on every DOM change under the widget and every 25 ms
  const until = (pred) => new Promise((resolve, reject) => {
    const t0 = performance.now();
    if (pred()) { resolve(performance.now()); return; }
    const check = () => {
      if (pred()) { obs.disconnect(); clearInterval(iv); resolve(performance.now()); }
      else if (performance.now() - t0 > timeoutMs) { obs.disconnect(); clearInterval(iv); reject(new Error('timeout ' + diag())); }
    };
    const obs = new MutationObserver(check);
    obs.observe(document.body, {subtree: true, childList: true, attributes: true});
    const r = root(); if (r && r.getRootNode() !== document) obs.observe(r.getRootNode(), {subtree: true, childList: true, attributes: true});
    const iv = setInterval(check, 25);
  });
  const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}));
  const ready = () => {
    const r = root(); if (!r) return false;
    if (r.dataset.planDone === '1') return true;
    const c = cur(); return !!c && c.dataset.now === '1' && c.dataset.grade === '';
  };
  window.__bench = null;
  (async () => {
    const out = {key: [], kinds: [], enter: [], wrong: 0, grades: 0, questions: 0, error: null};
    try {
      await until(() => { const r = root(); return !!r && !!r.dataset.now || (r && r.dataset.planDone === '1'); });
      for (let q = 0; q < maxQuestions; q++) {
        await until(ready);
        for (let i = 0; i < 200 && (await until(() => !!root()), root().dataset.planDone !== '1'); i++) {
          if (readMs) { await pause(readMs); await until(ready); }  // the judge reads the paragraph
          const c = cur(), pid = c.dataset.pid, g = rand() < 0.25 ? '2' : '0';
          const t0 = performance.now();
          key(g);
          out.grades++;
          const t1 = await until(ready);
          out.key.push(t1 - t0);
          // which key it was: the question's first, one in between, or the one that finished it
          out.kinds.push(root() && root().dataset.planDone === '1' ? 'last' : i === 0 ? 'first' : 'between');
          await until(() => !!root());  // a rerun of the whole app takes the widget away for a moment
          const card = [...root().querySelectorAll('.rj-item')].find((e) => e.dataset.pid === pid);
          if (!card || card.dataset.grade !== g) out.wrong++;
        }
        out.questions++;
        if (q === maxQuestions - 1) break;
        await until(() => !!root());
        const before = root().dataset.qid;
        const t0 = performance.now();
        key('Enter');
        const t1 = await until(() => { const r = root(); return !!r && r.dataset.qid !== before && r.querySelectorAll('.rj-item').length > 0; });
        out.enter.push(t1 - t0);
      }
      await until(() => !!root() && root().dataset.pending === '0');
      out.refreshes = root().dataset.refreshes === undefined ? null : Number(root().dataset.refreshes);
    } catch (e) { out.error = String(e); }
    window.__bench = out;
  })();
}"""
)


FIRST_CARD = (
    "() => {" + es.DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && !!r.querySelector('.rj-item.cur'); }"
)


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (not its children), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))]


def run_one(browser, srv, n: int, questions: int, timeout_ms: int, read_ms: int = 0) -> dict:
    pages, logins = [], []
    for i in range(n):
        page = browser.new_context().new_page()
        page.set_default_timeout(120_000)
        # login → first card: from submitting the form to the first card highlighted
        page.goto(srv.url, wait_until="domcontentloaded")
        page.get_by_label("사용자 이름").fill(f"annotator{i + 1}")
        page.get_by_label("비밀번호").fill(f"annotator-pass-{i + 1}")
        t0 = time.perf_counter()
        page.get_by_role("button", name="로그인", exact=True).click()
        page.wait_for_function(FIRST_CARD, polling=10)
        logins.append(1000 * (time.perf_counter() - t0))
        es.wait_for_session_cookie(page)
        es.wait_for_widget(page)
        pages.append(page)
    cpu0 = proc_cpu_seconds(srv.proc.pid)
    for i, page in enumerate(pages):
        page.evaluate(DRIVER, {"seed": 7 + i, "maxQuestions": questions, "timeoutMs": timeout_ms, "readMs": read_ms})
    results = []
    for page in pages:
        page.wait_for_function("() => window.__bench !== null", timeout=timeout_ms * questions * 20)
        results.append(page.evaluate("() => window.__bench"))
    cpu = proc_cpu_seconds(srv.proc.pid) - cpu0
    for page in pages:
        page.context.close()
    errors = [r["error"] for r in results if r["error"]]
    keys = [t for r in results for t in r["key"]]
    kinds: dict[str, list[float]] = {}
    for r in results:
        for t, kind in zip(r["key"], r.get("kinds", [])):
            kinds.setdefault(kind, []).append(t)
    enters = [t for r in results for t in r["enter"]]
    grades = sum(r["grades"] for r in results)
    refreshes = [r.get("refreshes") for r in results]
    return {
        "n": n,
        "keys": keys,
        "key_kinds": kinds,
        "enters": enters,
        "logins": logins,
        "grades": grades,
        "wrong": sum(r["wrong"] for r in results),
        "refreshes": None if any(x is None for x in refreshes) else sum(refreshes),
        "cpu_ms_per_grade": 1000 * cpu / grades if grades else float("nan"),
        "errors": errors,
    }


def stopped(errors: list[str]) -> str:
    """A row's errors in a word for the table (the page's state at each is printed above it):
    how many annotators' pages stopped, and at which question."""
    import json

    where, other = [], 0
    for e in errors:
        try:
            where.append(str(json.loads(e.split(" ", 2)[2])["qid"]))
        except (IndexError, ValueError, KeyError, TypeError):
            other += 1  # the driver's own error (printed above), not a wait in vain
    said = [f"stopped: {len(where)} page(s) waited 30 s in vain, at {', '.join(where)}"] if where else []
    said += [f"{other} driver error(s)"] if other else []
    return "; ".join(said).replace("|", "/")


def fmt(xs: list[float]) -> str:
    return f"{statistics.median(xs):.0f} / {pct(xs, 95):.0f}" if xs else "—"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--annotators", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--questions", type=int, default=12, help="questions each annotator judges")
    ap.add_argument("--pool", type=int, default=15)
    ap.add_argument("--baseline", metavar="REV", help="a commit to measure side by side")
    ap.add_argument("--hogs", type=int, default=0, help="busy processes beside the run")
    ap.add_argument("--note", default="")
    ap.add_argument(
        "--read-ms", type=int, default=0, help="the judge's reading time before each grade (0: keys back to back)"
    )
    ap.add_argument("--timeout-ms", type=int, default=30_000)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    # keys back to back and keys after reading are two sections of RESULTS.md
    begin, end_marker = (BEGIN, END) if not args.read_ms else (BEGIN_READ, END_READ)
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = bool(
        subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--", "src"], capture_output=True, text=True
        ).stdout.strip()
    )
    this = f"this tree ({head}{' + uncommitted changes' if dirty else ''})"
    from reljudge.campaign import plan
    from reljudge.storage import open_database

    rows: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory(prefix="rj-bench-loop-") as tmp:
        tmp = Path(tmp)
        n_max = max(args.annotators)
        accounts = {f"annotator{i + 1}": (f"annotator-pass-{i + 1}", "annotator") for i in range(n_max)}
        camp = es.build_campaign(
            tmp / "bench.duckdb", tmp / "data", n_questions=args.questions, pool_size=args.pool, accounts=accounts
        )
        db = open_database(camp.db_path)
        plan.set_plan(db, "rr-first")
        db.close()
        clean = tmp / "clean.duckdb"
        shutil.copy(camp.db_path, clean)
        servers = {this: (REPO, {})}
        if args.baseline:
            base = tmp / "baseline"
            servers = {
                f"baseline {export_revision(args.baseline, base)}": (base, {"PYTHONPATH": str(base / "src")}),
                **servers,
            }
        hogs = start_hogs(args.hogs)
        load_before = os.getloadavg()
        try:
            with es.chromium() as browser:
                version = browser.version
                for name, (cwd, env) in servers.items():
                    rows[name] = []
                    for n in args.annotators:
                        db_path = tmp / f"run-{len(rows)}-{n}.duckdb"
                        shutil.copy(clean, db_path)
                        srv = es.StreamlitServer(
                            "app.py",
                            db_path=db_path,
                            cwd=cwd,
                            extra_env=env,
                            log_path=tmp / f"server-{len(rows)}-{n}.log",
                        ).start()
                        try:
                            rows[name].append(run_one(browser, srv, n, args.questions, args.timeout_ms, args.read_ms))
                        finally:
                            srv.stop()
                        print(
                            name,
                            n,
                            {
                                k: v
                                for k, v in rows[name][-1].items()
                                if k not in ("keys", "enters", "key_kinds", "logins")
                            },
                            "key by kind (n, median / p95 ms):",
                            {k: (len(v), fmt(v)) for k, v in rows[name][-1]["key_kinds"].items()},
                            flush=True,
                        )
            load_after = os.getloadavg()
        finally:
            stop_hogs(hogs)
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        begin,
        "## Judging loop under rr-first: key → next card, Enter → next question, N annotators at once",
        "",
        f"Run {now} on {os.cpu_count()} cores ({cpu_model()}), {platform.platform()}, Python {platform.python_version()}, "
        f"headless chromium {version}; `python bench/bench_judging_loop.py --annotators {' '.join(map(str, args.annotators))} "
        f"--questions {args.questions} --pool {args.pool}{f' --baseline {args.baseline}' if args.baseline else ''} --hogs {args.hogs} --read-ms {args.read_ms}`. "
        f"Campaign: {args.questions} questions × {args.pool} pooled paragraphs (two runs), `rr-first`; each annotator judges "
        f"every question, all at once, each page driven by a script inside it (grade 2 with probability 1/4, else 0; "
        f"{f'{args.read_ms} ms of reading before each grade' if args.read_ms else 'each key as soon as the card is ready'}). "
        f"Load average before/after: {load_before[0]:.1f} / {load_after[0]:.1f}. {args.note}",
        "",
        "Milliseconds, median / p95, over every key and every Enter of every annotator.",
        "",
        "| tree | annotators | key → next card ready | Enter → next question painted | login → first card | grades | wrong card | page reruns for a grade | server CPU ms / grade |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, rs in rows.items():
        for r in rs:
            reruns = "n/a" if r["refreshes"] is None else str(r["refreshes"])
            lines.append(
                f"| {name} | {r['n']} | {fmt(r['keys'])} | {fmt(r['enters'])} | {fmt(r['logins'])} | {r['grades']} | {r['wrong']} | {reruns} | "
                f"{r['cpu_ms_per_grade']:.1f} |" + (f" {stopped(r['errors'])}" if r["errors"] else "")
            )
    if len(rows) == 2:
        (bname, brs), (tname, trs) = rows.items()
        lines += ["", "Ratios of medians (this ÷ baseline):", ""]
        for b, t in zip(brs, trs):
            rk = (
                statistics.median(t["keys"]) / statistics.median(b["keys"]) if b["keys"] and t["keys"] else float("nan")
            )
            re_ = (
                statistics.median(t["enters"]) / statistics.median(b["enters"])
                if b["enters"] and t["enters"]
                else float("nan")
            )
            lines.append(f"- {b['n']} annotator(s): key → next card {rk:.2f}; Enter → next question {re_:.2f}")
    goal_rows = [r for r in rows.get(this, []) if r["n"] == 2]
    if goal_rows:
        g = goal_rows[0]
        lines += [
            "",
            f"Goals (issue 35, two annotators, no other work): key → next card p95 ≤ 150 ms — "
            f"**{'met' if pct(g['keys'], 95) <= 150 else 'not met'}** ({pct(g['keys'], 95):.0f} ms); "
            f"Enter → next question p95 ≤ 250 ms — **{'met' if pct(g['enters'], 95) <= 250 else 'not met'}** "
            f"({pct(g['enters'], 95):.0f} ms); login → first card ≤ 1.5 s — "
            f"**{'met' if max(g['logins']) <= 1500 else 'not met'}** (slowest {max(g['logins']):.0f} ms).",
        ]
    lines.append(end_marker)
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        results = HERE / "RESULTS.md"
        old = results.read_text(encoding="utf-8")
        if begin in old:
            start, end = old.index(begin), old.index(end_marker) + len(end_marker)
            new = old[:start] + text + old[end:]
        else:
            new = old.rstrip("\n") + "\n\n" + text + "\n"
        results.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
