"""Login → first judging card (and → a lead page) in headless chromium, on a busy machine.

Usage: python bench/bench_login.py [--repeat 9] [--hogs 2] [--questions 15 --pool 20]
                                   [--baseline REV] [--cprofile] [--note TEXT] [--no-write]

A campaign of ``questions × pool`` pooled paragraphs (300 by default: the size of the
Korean campaign that reported 3.2–4.7 s) in a DuckDB file, one `streamlit run app.py`
on it, and — for the whole measurement — ``--hogs`` busy Python processes (``while
True: pass``) beside whatever else runs on the machine; they are stopped at the end.
With ``--baseline REV`` a second server runs that commit of reljudge (``git archive``
into a temporary folder, its own ``src`` first on PYTHONPATH, its own copy of the
campaign) and the trials alternate between the two, so that both meet the same load:
the figures sit side by side with their ratio.

Each trial is a fresh browser context (no cookie): open the address, wait for the login
form, fill it in, press Enter, wait for the page. Timed inside the page: an init script
stamps ``performance.now()`` at the Enter keydown (capture phase, before Streamlit sees
it) and, on every animation frame, when the login form is gone, when the page's title is
shown and when the first judging card (inside the widget's shadow root) is in the DOM;
for the lead, when the dashboard's title is shown. The first trial of each kind runs on a
server that has served nobody yet (imports, first queries): reported apart.

Where the server's time goes: the servers run with ``$RELJUDGE_PROFILE``
(reljudge.ui.profiling), so every run of the Streamlit script writes its phases and every
full garbage collection its duration; each trial's runs are those that started after its
Enter (wall clock, lined up with the page's ``performance.timeOrigin``). What is not
inside a run is the browser, the websocket and the components' requests. ``--cprofile``
also writes a cProfile of every run and prints the top functions of each run of the
last trial of each kind.

The section between the login markers of bench/RESULTS.md is replaced.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(HERE))

import e2e_support as es  # noqa: E402
import benchlib  # noqa: E402

ANNOTATOR = ("annotator1", "annotator-pass-1")
LEAD = ("lead1", "lead-pass-0001")
GOAL_MS = 1500.0
KINDS = {  # name: (address, account, the page's title, wait for the first card)
    "judge": ("/", ANNOTATOR, "근거 판정", True),
    "lead": ("/dashboard", LEAD, "실시간 평가 지표", False),
}

# Installed before every document: stamps the page's milestones once per load.
PROBE = """
(() => {
  const deep = (sel, root = document) => {
    const hit = root.querySelector(sel);
    if (hit) return hit;
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) { const h = deep(sel, el.shadowRoot); if (h) return h; }
    }
    return null;
  };
  const P = (window.__login = { form: null, enter: null, formGone: null, title: null, card: null,
                                want: null, origin: performance.timeOrigin });
  window.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && P.enter === null) P.enter = performance.now();
  }, true);
  const tick = () => {
    const now = performance.now();
    const pw = document.querySelector('input[type="password"]');
    if (P.form === null && pw) P.form = now;
    if (P.enter !== null) {
      if (P.formGone === null && !pw) P.formGone = now;
      if (P.title === null && P.want) {
        for (const h of document.querySelectorAll("h1")) {
          if (h.textContent.trim() === P.want) { P.title = now; break; }
        }
      }
      if (P.card === null && deep(".rj .rj-item")) P.card = now;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""


def start_hogs(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def stop_hogs(hogs: list[subprocess.Popen]) -> None:
    for p in hogs:
        p.terminate()
    for p in hogs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=10)


def export_revision(rev: str, folder: Path) -> str:
    """``git archive REV`` unpacked into ``folder``; returns the commit's short name."""
    folder.mkdir(parents=True)
    archive = folder.parent / "baseline.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), rev], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="fully_trusted")  # symlinks (ui/screens → pages) kept
    archive.unlink()
    return subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", rev], check=True, capture_output=True, text=True
    ).stdout.strip()


def argon2_verify_ms(n: int = 7) -> list[float]:
    """The password check alone (Argon2id with reljudge's parameters), timed in this
    process under the same load: what the login run cannot go below."""
    from reljudge.campaign import auth

    stored = auth.password_hasher().hash(ANNOTATOR[1])
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        auth.password_hasher().verify(stored, ANNOTATOR[1])
        times.append((time.perf_counter() - t0) * 1000)
    return times


def read_jsonl(folder: Path, name: str = "runs.jsonl") -> list[dict]:
    path = folder / name
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def trial(
    browser, url: str, path: str, user: tuple[str, str], title: str, want_card: bool, timeout_ms: float = 60_000
) -> dict:
    """One login in a fresh context; the page's stamps (ms since Enter) and wall times."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(PROBE)
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    try:
        t_goto = time.time()
        page.goto(url + path, wait_until="domcontentloaded")
        page.get_by_label("사용자 이름").wait_for()
        page.wait_for_function("() => window.__login.form !== null")
        page.evaluate("(t) => { window.__login.want = t; }", title)
        page.get_by_label("사용자 이름").fill(user[0])
        page.get_by_label("비밀번호").fill(user[1])
        page.get_by_label("비밀번호").press("Enter")
        done = "card" if want_card else "title"
        page.wait_for_function(
            f"() => window.__login.{done} !== null && window.__login.title !== null && window.__login.formGone !== null"
        )
        p = page.evaluate("() => window.__login")
    finally:
        context.close()
    return {
        "form_ms": p["form"],
        "goto_wall": t_goto,
        "enter_wall": (p["origin"] + p["enter"]) / 1000,
        "form_gone": p["formGone"] - p["enter"],
        "title": p["title"] - p["enter"],
        "card": (p["card"] - p["enter"]) if p["card"] is not None else None,
    }


def attach_runs(trials: list[dict], runs: list[dict], collections: list[dict]) -> None:
    """Each trial's script runs and full garbage collections, from its Enter to the next
    trial's first request on the same server (and the login form's runs before Enter)."""
    trials = sorted(trials, key=lambda t: t["goto_wall"])
    for i, t in enumerate(trials):
        until = trials[i + 1]["goto_wall"] if i + 1 < len(trials) else float("inf")
        t["runs"] = [r for r in runs if t["enter_wall"] - 0.05 <= r["start"] < until]
        t["form_runs"] = [r for r in runs if t["goto_wall"] <= r["start"] < t["enter_wall"] - 0.05]
        t["gc"] = [g for g in collections if t["enter_wall"] - 0.05 <= g["start"] < until]


def summary(xs: list[float]) -> dict:
    xs = [x for x in xs if x is not None]
    return {
        "n": len(xs),
        "median": statistics.median(xs),
        "p95": float(np.percentile(xs, 95)),
        "min": min(xs),
        "max": max(xs),
    }


def run_breakdown(trials: list[dict], end_key: str) -> list[str]:
    """Medians over the warm trials: the script runs one after the other (time, how each
    ended, its phases), the gap before each (and the full garbage collections in it)."""
    shapes = [tuple((r.get("page"), r["ended"]) for r in t["runs"]) for t in trials]
    common = max(set(shapes), key=shapes.count)
    same = [t for t, s in zip(trials, shapes) if s == common]
    lines = [
        f"Script runs after Enter (the shape of {len(same)} of {len(trials)} trials; medians):",
        "",
        "| # | page | ended | run ms | phases (ms) | gap before it (ms) | of which full GC (ms) |",
        "|---:|---|---|---:|---|---:|---:|",
    ]
    for i, (page, ended) in enumerate(common):
        runs = [t["runs"][i] for t in same]
        before = [t["runs"][i - 1]["end"] if i else t["enter_wall"] for t in same]
        gaps = [(r["start"] - b) * 1000 for r, b in zip(runs, before)]
        gcs = [sum(g["ms"] for g in t["gc"] if b <= g["start"] < r["start"]) for r, b, t in zip(runs, before, same)]
        phase = {k: statistics.median(r["phases"].get(k, 0) for r in runs) for r in runs for k in r["phases"]}
        phases = ", ".join(f"{k} {v:.0f}" for k, v in sorted(phase.items(), key=lambda kv: -kv[1]) if v >= 1)
        lines.append(
            f"| {i + 1} | {page or '—'} | {ended} | {statistics.median(r['ms'] for r in runs):.0f} | "
            f"{phases} | {statistics.median(gaps):.0f} | {statistics.median(gcs):.0f} |"
        )
    after = [
        sum(
            g["ms"]
            for g in t["gc"]
            if g["start"] >= t["runs"][-1]["end"] and g["start"] < t["enter_wall"] + t[end_key] / 1000
        )
        for t in same
    ]
    lines += [
        "",
        f"Of the median {statistics.median(t[end_key] for t in same):.0f} ms from Enter to the "
        f"{end_key}: {statistics.median(sum(r['ms'] for r in t['runs']) for t in same):.0f} ms inside "
        f"script runs; full garbage collections after the last run and before the {end_key} was "
        f"shown: {statistics.median(after):.0f} ms; the rest is the browser, the websocket and the "
        "components' requests.",
    ]
    return lines


def top_functions(prof: Path, n: int = 30) -> list[str]:
    import io
    import pstats

    out = io.StringIO()
    pstats.Stats(str(prof), stream=out).sort_stats("cumulative").print_stats(n)
    return out.getvalue().splitlines()


ROWS = [  # (label, kind, key)
    ("login form shown (navigation start → password field), annotator", "judge", "form_ms"),
    ("annotator at `/`: Enter → login form gone", "judge", "form_gone"),
    ("annotator at `/`: Enter → page title", "judge", "title"),
    ("**annotator at `/`: Enter → first judging card**", "judge", "card"),
    ("lead at `/dashboard`: Enter → dashboard title", "lead", "title"),
]


READING = """\
Reading the tables: after Enter, the login's run checks the password and starts the session;
then (since the browser must hold its cookie before any page shows) a short run draws
"로그인 중…" and the browser swaps its one-time grant for the cookie (the gap before the last
run: mounting the component, POST /api/session, the report back); the last run draws the page.
Before, Streamlit collected all of the process's garbage after every run (`runner.postScriptGC`):
on this machine 0.1–0.3 s with the GIL held, so the page's messages waited too — now off
(.streamlit/config.toml). The login form read every account with a count of all its judgment
events on every run of the form, the submit's included — now one small read; and each run read the
login session three times (script, page, fragment) — now once. "Login form shown" loads Streamlit's
scripts anew in every trial (a fresh browser context has no cache)."""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=9, help="warm trials of each kind (after one cold trial)")
    ap.add_argument("--hogs", type=int, default=2, help="busy processes beside the server")
    ap.add_argument("--questions", type=int, default=15)
    ap.add_argument("--pool", type=int, default=20, help="pooled paragraphs per question")
    ap.add_argument("--baseline", metavar="REV", help="a commit to measure side by side")
    ap.add_argument("--cprofile", action="store_true", help="a cProfile of every script run")
    ap.add_argument("--note", default="", help="a sentence for RESULTS.md (what the baseline is)")
    ap.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)

    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(REPO), "status", "--porcelain", "--", "src", "app.py", "pages"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    this = f"this tree ({head}{' + uncommitted changes' if dirty else ''})"
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rj-bench-login-") as tmp:
        tmp = Path(tmp)
        accounts = {ANNOTATOR[0]: (ANNOTATOR[1], "annotator"), LEAD[0]: (LEAD[1], "lead")}
        camp = es.build_campaign(
            tmp / "bench.duckdb", tmp / "data", n_questions=args.questions, pool_size=args.pool, accounts=accounts
        )
        n_paragraphs = sum(len(v) for v in camp.pool.values())
        servers = {this: (REPO, camp.db_path, {})}
        if args.baseline:
            base = tmp / "baseline"
            name = f"baseline {export_revision(args.baseline, base)}"
            shutil.copy(camp.db_path, tmp / "baseline.duckdb")
            servers = {name: (base, tmp / "baseline.duckdb", {"PYTHONPATH": str(base / "src")}), **servers}
        started, results = {}, {name: {k: [] for k in KINDS} for name in servers}
        hogs = start_hogs(args.hogs)
        try:
            for name, (cwd, db_path, env) in servers.items():
                prof = tmp / f"profile-{len(started)}"
                env = dict(env, RELJUDGE_PROFILE=str(prof))
                if args.cprofile:
                    env["RELJUDGE_PROFILE_CPROFILE"] = "1"
                srv = es.StreamlitServer(
                    "app.py", db_path=db_path, cwd=cwd, extra_env=env, log_path=tmp / f"server-{len(started)}.log"
                )
                started[name] = (srv.start(), prof)
            with es.chromium() as browser:
                browser_version = browser.version
                for _ in range(args.repeat + 1):  # interleaved: the load hits every server alike
                    for name, (srv, _prof) in started.items():
                        for kind, (path, user, title, card) in KINDS.items():
                            results[name][kind].append(trial(browser, srv.url, path, user, title, card))
                hashing = argon2_verify_ms()
            load_after = os.getloadavg()
        finally:
            stop_hogs(hogs)
            for srv, _ in started.values():
                srv.stop()
        profiles = {}
        for name, (_srv, prof) in started.items():
            attach_runs(
                [t for ts in results[name].values() for t in ts], read_jsonl(prof), read_jsonl(prof, "gc.jsonl")
            )
            if args.cprofile:
                for kind in KINDS:
                    last = results[name][kind][-1]
                    for run in last["form_runs"] + last["runs"]:
                        path = prof / f"run-{run['n']}.prof"
                        if path.exists():
                            profiles[f"{name}, {kind}, run #{run['n']} ({run.get('page')}, ended {run['ended']})"] = (
                                run,
                                top_functions(path),
                            )

    for label, (run, top) in profiles.items():
        print(f"\n--- {label}: {run['ms']:.0f} ms")
        print("\n".join(top[:45]))

    import streamlit

    date = dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    names = list(servers)
    cmd = (
        f"python bench/bench_login.py --repeat {args.repeat} --hogs {args.hogs}"
        f"{f' --baseline {args.baseline}' if args.baseline else ''}{' --cprofile' if args.cprofile else ''}"
        f"{' --note …' if args.note else ''}"
    )
    lines = [
        "## Login → first judging card on a busy machine (300-paragraph campaign)",
        "",
        f"Run {date} on {os.cpu_count()} cores ({benchlib.cpu_model()}), Python {platform.python_version()}, "
        f"Streamlit {streamlit.__version__}, headless chromium {browser_version}; `{cmd}`. "
        f"Campaign: {args.questions} questions × {args.pool} pooled paragraphs = {n_paragraphs}. "
        f"Load: {args.hogs} busy processes (`while True: pass`) for the whole run, beside the machine's other "
        f"work (load average 1/5/15 min {load_before[0]:.1f}/{load_before[1]:.1f}/{load_before[2]:.1f} before, "
        f"{load_after[0]:.1f}/{load_after[1]:.1f}/{load_after[2]:.1f} at the end, busy processes included)"
        + (". Two servers, one per tree, trials alternating between them." if len(names) > 1 else "."),
        "",
        *([args.note, ""] if args.note else []),
        "A fresh browser context per trial logs in with the keyboard; times are measured inside the page "
        "(`performance.now()` from the Enter keydown to the first judging card in the DOM, or to the lead page's "
        f"title), one cold trial and then {args.repeat} warm ones per server. Milliseconds: median (p95).",
        "",
        "| measure (ms) | " + " | ".join(names) + (" | ratio (this ÷ baseline, medians) |" if len(names) > 1 else ""),
        "|---|" + "---:|" * len(names) + ("---:|" if len(names) > 1 else ""),
    ]
    for label, kind, key in ROWS:
        cells = [summary([t[key] for t in results[n][kind][1:]]) for n in names]
        row = f"| {label} | " + " | ".join(f"{c['median']:.0f} ({c['p95']:.0f})" for c in cells)
        if len(names) > 1:
            row += f" | {cells[-1]['median'] / cells[0]['median']:.2f} |"
        lines.append(row + ("" if len(names) > 1 else " |"))
    cold = " | ".join(f"{results[n]['judge'][0]['card']:.0f}" for n in names)
    lines.append(
        f"| cold server (first login since start): Enter → first card | {cold} |" + (" |" if len(names) > 1 else "")
    )
    card = summary([t["card"] for t in results[names[-1]]["judge"][1:]])["median"]
    lines += [
        "",
        f"Goal (issue): Enter → first card under {GOAL_MS:.0f} ms under this load, {names[-1]}: "
        f"**{'met' if card < GOAL_MS else 'not met'}** (median {card:.0f} ms).",
        "",
        f"The password check alone (Argon2id, m=64 MiB, t=3, p=4, as stored), timed in the benchmark's "
        f"process under the same load: median {statistics.median(hashing):.0f} ms "
        f"({min(hashing):.0f}–{max(hashing):.0f}). It is most of the login's own run (the first run after "
        "Enter below) and stays: it is what makes guessing passwords slow.",
        "",
        READING,
    ]
    for n in names:
        lines += ["", f"### {n}", "", "Annotator at `/`:", ""]
        lines += run_breakdown(results[n]["judge"][1:], "card")
        lines += ["", "Lead at `/dashboard`:", ""]
        lines += run_breakdown(results[n]["lead"][1:], "title")
    section = "\n".join(lines)
    print(section)
    if not args.no_write:
        benchlib.write_section("login", section, args.out)
        print(f"\nwritten to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
