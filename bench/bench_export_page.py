"""Export page render time on a 1,000-question campaign with 50,000 judgment events.

The export page is a Streamlit script: every widget change reruns it. Times a whole run of
screens/export.py (through Streamlit's AppTest, logged in as a lead) after two warm-up
runs, and reports the median; then times building each download alone, which is what a
click costs when the download is built on demand.
Usage: python bench/bench_export_page.py [--repeat N] [--label TEXT]
(writes <!-- export_page:begin/end --> in RESULTS.md)
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from benchlib import N_Q, cpu_model, build_large_campaign, write_section  # noqa: E402

from reljudge.campaign import auth  # noqa: E402
from reljudge.campaign import export  # noqa: E402
from reljudge.ui import webapp  # noqa: E402
from reljudge.storage import open_database  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    path = HERE / "data" / "export_page.duckdb"
    build_large_campaign(path)
    db = open_database(path)
    auth.add_user(db, "lead", "bench-lead-password", "lead")
    token = auth.start_session(db, auth.authenticate(db, "lead", "bench-lead-password"))
    n_events = db.cursor().execute("SELECT count(*) FROM judgment_events").fetchall()[0][0]
    builds = {}
    for name, build in (
        ("qrels (trec) + no-answer", lambda: export.qrels_bytes(db, "trec")),
        ("judgments.jsonl", lambda: export.judgments_bytes(db)),
        ("adjudications.jsonl", lambda: export.adjudications_bytes(db)),
    ):
        t = time.perf_counter()
        build()
        builds[name] = (time.perf_counter() - t) * 1000
    db.close()

    os.environ["RELJUDGE_DB"] = str(path)
    os.environ.pop("RELJUDGE_DEMO", None)
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(webapp.HERE / "screens" / "export.py"), default_timeout=600)
    at.session_state["token"] = token
    times = []
    for i in range(args.repeat + 2):
        t = time.perf_counter()
        at.run()
        if i >= 2:
            times.append((time.perf_counter() - t) * 1000)
        assert not at.exception, at.exception
    med = statistics.median(times)
    rows = "".join(f"| build {name} alone | {ms:.0f} ms |\n" for name, ms in builds.items())
    section = (
        f"## Export page: one render, {N_Q:,} questions, {n_events:,} judgment events{args.label}\n\n"
        f"Measured {dt.date.today()} on {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()} "
        f"(`python bench/bench_export_page.py --repeat {args.repeat}`).\n\n"
        "One render = a whole run of screens/export.py through AppTest as a logged-in lead (what "
        "every widget change on the page costs). The builds below are what one click on that "
        "download costs when it is built on demand.\n\n"
        f"| figure | value |\n|---|---|\n"
        f"| render median | {med:.0f} ms |\n"
        f"| render min – max | {min(times):.0f} – {max(times):.0f} ms |\n" + rows
    )
    print(section)
    write_section("export_page", section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
