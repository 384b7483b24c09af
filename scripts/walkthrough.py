"""Screenshots of every page, in Korean and in English, on the demo campaign.

    python scripts/walkthrough.py OUT_DIR [--width 1440] [--height 900]

Builds the demo campaign in a temporary DuckDB file, starts the app, logs in as the
demo lead in headless chromium (Debian's /usr/bin/chromium, as the browser tests) and
saves OUT_DIR/{ko,en}-{page}.png (the whole page). For a look at what annotators and
leads see before a release; nothing is asserted (tests/test_e2e_*.py do that).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

import e2e_support as es  # noqa: E402

from reljudge import i18n  # noqa: E402
from reljudge.campaign import setup as campaign  # noqa: E402
from reljudge.storage import open_database  # noqa: E402
from reljudge.ui import navigation  # noqa: E402
from reljudge.ui.session import LANG_COOKIE  # noqa: E402


def judge_some(db, seed: int = 7) -> None:
    """Two demo annotators grade most of the pool (they agree on about two in three), so
    the dashboard, agreement and adjudication pages have something to show."""
    import random
    import uuid

    from reljudge.storage import judgments as store

    rng = random.Random(seed)
    pool = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid").fetchall()
    annotators = [u for u, _, role in campaign.DEMO_ACCOUNTS if role == "annotator"]
    batches, rows_first = [], {}
    for i, user in enumerate(annotators):
        rows = []
        for qid, pid in pool:
            if rng.random() < 0.15:
                continue
            grade = rng.choice([0, 0, 1, 2]) if i == 0 or rng.random() < 0.35 else None
            rows.append(
                {
                    "client_event_id": str(uuid.uuid4()),
                    "qid": qid,
                    "pid": pid,
                    "grade": grade if grade is not None else rows_first.get((qid, pid), 0),
                    "no_answer": None,
                    "note": None,
                    "evidence": None,
                    "time_spent_ms": rng.randint(2000, 40000),
                    "client_id": None,
                    "base_event_id": None,
                }
            )
        if i == 0:
            rows_first = {(r["qid"], r["pid"]): r["grade"] for r in rows}
        batches.append((user, rows, True))
    store.append_event_batches(db, batches)


def login(page, url: str, username: str, password: str, lang: str) -> None:
    """The login form, in the language of the browser's cookie."""
    page.goto(url, wait_until="domcontentloaded")
    page.get_by_label(i18n.t("username", lang), exact=True).fill(username)
    page.get_by_label(i18n.t("password", lang), exact=True).fill(password)
    page.get_by_role("button", name=i18n.t("login_button", lang), exact=True).click()
    page.get_by_label(i18n.t("username", lang)).wait_for(state="detached")
    # the app shows once the browser holds its cookie: from then on every address is logged in
    page.get_by_role("button", name=i18n.t("logout", lang), exact=True).wait_for()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--width", type=int, default=1440)
    ap.add_argument(
        "--height",
        type=int,
        default=2600,
        help="Streamlit scrolls inside its own container, so the picture is the viewport",
    )
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    lead = next((u, p) for u, p, role in campaign.DEMO_ACCOUNTS if role == "lead")
    with tempfile.TemporaryDirectory(prefix="rj-walk-") as tmp:
        db_path = Path(tmp) / "demo.duckdb"
        db = open_database(db_path)
        try:
            for _ in campaign.load_demo(db):
                pass
            judge_some(db)
        finally:
            db.close()
        with es.served_in_browser(db_path, Path(tmp) / "server.log") as (srv, browser):
            for lang in ("ko", "en"):
                context = browser.new_context(viewport={"width": a.width, "height": a.height})
                if lang == "en":
                    context.add_cookies([{"name": LANG_COOKIE, "value": "en", "url": srv.url}])
                page = context.new_page()
                page.set_default_timeout(60_000)
                login(page, srv.url, *lead, lang)
                for name, _, _ in navigation.pages_for(True):
                    address = "" if name == navigation.DEFAULT_PAGE else name
                    page.goto(f"{srv.url}/{address}", wait_until="domcontentloaded")
                    page.get_by_role("heading").first.wait_for()
                    # the page has finished its run: tables and charts are drawn after the title
                    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')")
                    page.wait_for_timeout(800)  # charts fade in; a picture, not a test
                    path = a.out / f"{lang}-{name}.png"
                    page.screenshot(path=str(path), full_page=True)
                    print(path, flush=True)
                context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
