"""Helpers for the browser tests and the judging benchmark: a small campaign in a
DuckDB file, a real Streamlit server on a free loopback port, the system chromium.

Used by tests/test_e2e_browser.py and bench/bench_judging.py; kept free of pytest
so the benchmark can import it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from reljudge.question_types import DEFAULT_TYPES

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Korean sermon-like filler, varied per paragraph so that no two paragraphs
# collapse into one pool item (the pool merges identical normalised texts).
_SENTENCES = [
    "믿음은 바라는 것들의 실상이요 보이지 않는 것들의 증거라고 설교자는 말하였다.",
    "그 해 겨울 교회는 피난민들에게 예배당을 열어 주었고 주일마다 국밥을 나누었다.",
    "강의의 둘째 부분은 율법과 은혜의 관계를 역사적으로 짚어 본다.",
    "청년들은 새벽 기도회가 끝나면 곧장 들로 나가 모내기를 도왔다.",
    "이 단락은 앞 장의 논지를 요약하며 다음 장의 질문을 미리 던진다.",
]


@dataclass
class Campaign:
    """What :func:`build_campaign` put into the database."""

    db_path: Path
    qids: list[str]
    pool: dict[str, list[str]]  # qid -> pooled pids
    texts: dict[str, str]  # pid -> paragraph text
    accounts: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (password, role)


def paragraph_text(q: int, k: int) -> str:
    body = " ".join(_SENTENCES[(q + k + j) % len(_SENTENCES)] for j in range(3))
    return f"[질문 {q + 1} · 문단 {k + 1}] {body}"


def build_campaign(
    db_path: Path,
    work_dir: Path,
    *,
    n_questions: int = 3,
    pool_size: int = 10,
    accounts: dict[str, tuple[str, str]] | None = None,
    special_texts: dict[tuple[int, int], str] | None = None,
) -> Campaign:
    """Write corpus, questions and two TREC runs to ``work_dir``, import them into a
    fresh DuckDB file and pool them so every question has ``pool_size`` items.

    Run A ranks the first ~70 % of each question's paragraphs, run B the last ~70 %;
    the pool is their union (the overlap tests duplicate collapsing by pid).
    ``special_texts`` replaces the text of paragraph (question index, k)."""
    from reljudge.campaign import auth
    from reljudge.campaign import setup as campaign
    from reljudge.storage import open_database

    work_dir.mkdir(parents=True, exist_ok=True)
    accounts = accounts or {"annotator1": ("annotator-pass-1", "annotator")}
    special_texts = special_texts or {}
    qids = [f"Q{q + 1:02d}" for q in range(n_questions)]
    texts: dict[str, str] = {}
    pool: dict[str, list[str]] = {}
    corpus, questions = [], []
    run_a, run_b = [], []
    span = max(1, round(pool_size * 0.7))
    for q, qid in enumerate(qids):
        questions.append(
            {
                "qid": qid,
                "text": f"시험 질문 {q + 1}: 피난 시절 교회는 무엇을 했는가?",
                "type": DEFAULT_TYPES[q % 4],
                "criteria": "피난민을 도운 구체적 사실을 말하는 문단",
            }
        )
        pids = [f"{qid}-p{k:02d}" for k in range(pool_size)]
        pool[qid] = pids
        for k, pid in enumerate(pids):
            text = special_texts.get((q, k), paragraph_text(q, k))
            texts[pid] = text
            corpus.append(
                {
                    "pid": pid,
                    "doc_id": f"{qid}-doc",
                    "title": f"설교집 {q + 1}",
                    "date": f"195{q % 10}-0{1 + k % 9}-1{k % 10}",
                    "volume": 1 + q,
                    "page": 10 + k,
                    "position": k,
                    "text": text,
                }
            )
        for rank, pid in enumerate(pids[:span], 1):
            run_a.append(f"{qid} Q0 {pid} {rank} {100 - rank:.3f} sysA")
        for rank, pid in enumerate(reversed(pids[pool_size - span :]), 1):
            run_b.append(f"{qid} Q0 {pid} {rank} {50 - rank / 2:.3f} sysB")

    def jsonl(name: str, rows: list[dict]) -> Path:
        path = work_dir / name
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        return path

    (work_dir / "a.run").write_text("\n".join(run_a) + "\n", encoding="utf-8")
    (work_dir / "b.run").write_text("\n".join(run_b) + "\n", encoding="utf-8")
    db = open_database(db_path)
    try:
        campaign.import_file(db, "corpus", jsonl("corpus.jsonl", corpus))
        campaign.import_file(db, "questions", jsonl("questions.jsonl", questions))
        campaign.import_file(db, "run", work_dir / "a.run", system="sysA")
        campaign.import_file(db, "run", work_dir / "b.run", system="sysB")
        # A small pool cannot support K = 10: report only the cutoffs it covers.
        ks = [k for k in (1, 3, 5, 10) if k <= pool_size] or [1]
        campaign.catalog.set_setting(db, "ks", ",".join(map(str, ks)))
        campaign.pool(db, pool_size)
        for name, (password, role) in accounts.items():
            auth.add_user(db, name, password, role)
    finally:
        # DuckDB allows one process per file: the server opens it next.
        db.close()
    return Campaign(db_path, qids, pool, texts, dict(accounts))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StreamlitServer:
    """``streamlit run SCRIPT`` in the repo root on a free loopback port."""

    def __init__(
        self,
        script: str | Path = "app.py",
        *,
        db_path: Path | None = None,
        log_path: Path | None = None,
        cwd: Path = REPO,
        extra_env: dict | None = None,
        prefix: list[str] | None = None,
    ):
        self.script = str(script)
        self.prefix = list(prefix or [])  # e.g. setpriv, to run the server with fewer privileges
        self.db_path = db_path
        self.cwd = cwd
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.extra_env = extra_env or {}
        self.proc: subprocess.Popen | None = None
        self._log = None

    def start(self, timeout: float = 60.0) -> "StreamlitServer":
        env = dict(os.environ, **self.extra_env)
        if self.db_path is not None:
            env["RELJUDGE_DB"] = str(self.db_path)
        env["PYTHONUNBUFFERED"] = "1"
        cmd = [
            *self.prefix,
            sys.executable,
            "-m",
            "streamlit",
            "run",
            self.script,
            "--server.port",
            str(self.port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
            # No file watcher: nothing edits the app while it runs, and on two
            # cores the watcher thread only adds noise to the timings.
            "--server.fileWatcherType",
            "none",
        ]
        self._log = open(self.log_path, "wb") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(cmd, cwd=self.cwd, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        try:
            wait_for_health(self.url, self.proc, timeout, what="streamlit")
        except RuntimeError as exc:
            self.stop()
            raise RuntimeError(f"{exc}:\n{self.log_tail()}") from None
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)
        if self._log not in (None, subprocess.DEVNULL):
            self._log.close()
            self._log = None

    def log_tail(self, n: int = 4000) -> str:
        if not self.log_path or not Path(self.log_path).exists():
            return "(no log)"
        return Path(self.log_path).read_bytes()[-n:].decode("utf-8", "replace")

    def __enter__(self) -> "StreamlitServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_for_health(base_url: str, proc: subprocess.Popen, timeout: float = 60.0, what: str = "the app") -> None:
    """Wait until ``base_url``/_stcore/health answers 200; fail if ``proc`` exits first."""
    deadline = time.monotonic() + timeout
    health = f"{base_url}/_stcore/health"
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with code {proc.returncode} before becoming healthy")
        try:
            with urllib.request.urlopen(health, timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer {health} within {timeout:.0f} s")
        time.sleep(0.2)


def require_chromium() -> Path:
    """The system chromium, or a clear error (CI installs it; we never skip silently)."""
    if not CHROMIUM.exists():
        raise RuntimeError(
            f"{CHROMIUM} not found: install the system chromium "
            "(e.g. `apt-get install chromium`); Playwright cannot download "
            "browsers here."
        )
    return CHROMIUM


# The shared chromium (see share_chromium): (Playwright, Browser), or None until first used.
_shared: tuple | None = None
_sharing = False


def share_chromium(on: bool = True) -> None:
    """From now on :func:`chromium` hands out one chromium, launched on first use and kept
    until :func:`close_shared_chromium`, instead of launching one per call (a launch costs
    seconds on two busy cores). Isolation stays per call: each test makes its own browser
    contexts (cookies, storage), and leaving :func:`chromium` closes every context it left
    open. tests/conftest.py turns this on and closes the browser after each test module;
    the benchmark, without pytest, launches one per call as before."""
    global _sharing
    _sharing = on
    if not on:
        close_shared_chromium()


def close_shared_chromium() -> None:
    """Close the shared chromium and its Playwright driver, if one was launched."""
    global _shared
    if _shared is not None:
        pw, browser = _shared
        _shared = None
        try:
            browser.close()
        finally:
            pw.stop()


def _shared_browser():
    global _shared
    if _shared is None or not _shared[1].is_connected():
        close_shared_chromium()  # none yet, or one that crashed: launch anew
        from playwright.sync_api import sync_playwright

        exe = require_chromium()
        pw = sync_playwright().start()
        try:
            browser = pw.chromium.launch(executable_path=str(exe), headless=True, args=CHROMIUM_ARGS)
        except BaseException:
            pw.stop()
            raise
        _shared = (pw, browser)
    return _shared[1]


@contextlib.contextmanager
def chromium() -> Iterator:
    """A headless system chromium driven by Playwright's sync API (the shared one while
    :func:`share_chromium` is on; its contexts are closed on leaving)."""
    if _sharing:
        browser = _shared_browser()
        try:
            yield browser
        finally:
            for context in list(browser.contexts):
                with contextlib.suppress(Exception):
                    context.close()
        return
    from playwright.sync_api import sync_playwright

    exe = require_chromium()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(exe), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def login(page, base_url: str, username: str, password: str, timeout: float = 60_000) -> None:
    """Fill the login form (labels in Korean, the default language) and wait for the app."""
    page.goto(base_url, wait_until="domcontentloaded")
    page.get_by_label("사용자 이름").fill(username)
    page.get_by_label("비밀번호").fill(password)
    page.get_by_role("button", name="로그인", exact=True).click()
    page.get_by_label("사용자 이름").wait_for(state="detached", timeout=timeout)
    wait_for_session_cookie(page, timeout)


def logged_in_page(browser, base_url: str, username: str, password: str):
    """A new page (60 s default timeout) logged in as ``username``."""
    page = browser.new_page()
    page.set_default_timeout(60_000)
    login(page, base_url, username, password)
    return page


def wait_for_session_cookie(page, timeout: float = 60_000) -> None:
    """The login cookie is stored by the browser (a component swaps a one-time grant for
    it); the app shows its pages only once it is there, so this returns at once after a
    login that reached the app."""
    deadline = time.monotonic() + timeout / 1000
    while not any(c["name"] == "reljudge_session" for c in page.context.cookies()):
        if time.monotonic() > deadline:
            raise AssertionError("the session cookie was never written after login")
        page.wait_for_timeout(50)


# Finds the first element matching a selector, also inside (open) shadow roots:
# components v2 isolate their DOM in a shadow root, which querySelector does not enter.
# Paste at the start of a function body.
DEEP_QUERY_JS = """
  const deepQuery = (sel, root = document) => {
    const hit = root.querySelector(sel);
    if (hit) return hit;
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) { const h = deepQuery(sel, el.shadowRoot); if (h) return h; }
    }
    return null;
  };
"""


def wait_for_widget(page, timeout: float = 60_000) -> None:
    """Wait until the judging widget has rendered its cards."""
    page.locator(".rj .rj-item").first.wait_for(state="attached", timeout=timeout)


def widget_state(page) -> dict:
    """The judging widget as the browser shows it: question, flags and every card."""
    return page.evaluate(
        """() => {"""
        + DEEP_QUERY_JS
        + """
      const root = deepQuery(".rj");
      if (!root) return null;
      const cards = [...root.querySelectorAll(".rj-item")];
      return {
        qid: root.dataset.qid, pending: root.dataset.pending, noAnswer: root.dataset.noAnswer,
        cursor: cards.findIndex((c) => c.classList.contains("cur")),
        cards: cards.map((c) => ({pid: c.dataset.pid, grade: c.dataset.grade,
                                  saved: c.dataset.saved,
                                  text: c.querySelector(".rj-text").textContent})),
      };
    }"""
    )


def wait_saved(page, timeout: float = 60_000) -> dict:
    """Wait until the server has acknowledged every event (outbox empty, all cards saved)."""
    page.wait_for_function(
        """() => {"""
        + DEEP_QUERY_JS
        + """
      const root = deepQuery(".rj");
      return !!root && root.dataset.pending === "0" &&
        [...root.querySelectorAll(".rj-item")].every((c) => c.dataset.saved === "1");
    }""",
        timeout=timeout,
    )
    return widget_state(page)


@contextlib.contextmanager
def served_in_browser(db_path: Path, log_path: Path) -> Iterator[tuple["StreamlitServer", object]]:
    """The app on ``db_path`` and a headless chromium; both stopped afterwards. A missing
    chromium raises RuntimeError (tests turn it into a failure, never a skip)."""
    server = StreamlitServer(db_path=db_path, log_path=log_path).start()
    try:
        with chromium() as browser:
            yield server, browser
    finally:
        server.stop()
