"""The server is killed (SIGKILL) in the middle of saving: every judgment the browser
saw acknowledged is in the database after the restart, and the ones still in flight
are resent from the browser's outbox, so nothing typed is lost."""

from __future__ import annotations

import time

import pytest

from e2e_support import (
    DEEP_QUERY_JS,
    StreamlitServer,
    build_campaign,
    chromium,
    login,
    wait_for_widget,
    wait_saved,
    widget_state,
)
from reljudge.storage import open_database

pytestmark = pytest.mark.browser


def test_sigkill_mid_save_loses_nothing(tmp_path):
    camp = build_campaign(tmp_path / "crash.duckdb", tmp_path / "input", n_questions=1, pool_size=30)
    first = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server1.log").start()
    second = None
    try:
        try:
            browser_cm = chromium()
            browser = browser_cm.__enter__()
        except RuntimeError as exc:
            pytest.fail(str(exc))
        try:
            page = browser.new_page()
            login(page, first.url, "annotator1", "annotator-pass-1")
            wait_for_widget(page)
            grades = [2, 1, 0] * 10
            for k in range(5):
                page.keyboard.press(str(grades[k]))
                time.sleep(0.03)
            # Let at least one save be acknowledged (a busy machine may take a while),
            # then keep typing and kill the server while those saves are in flight.
            page.wait_for_function(
                """() => {"""
                + DEEP_QUERY_JS
                + """
              const root = deepQuery(".rj");
              return !!root && root.querySelector('.rj-item[data-saved="1"][data-grade]:not([data-grade=""])') !== null;
            }""",
                timeout=60_000,
            )
            for k in range(5, 15):
                page.keyboard.press(str(grades[k]))
                time.sleep(0.03)
            first.proc.kill()  # SIGKILL while saves are in flight
            first.proc.wait(timeout=10)
            seen = widget_state(page)
            acked = {c["pid"]: int(c["grade"]) for c in seen["cards"] if c["saved"] == "1" and c["grade"]}
            for k in range(15, 30):  # keep judging while the server is down
                page.keyboard.press(str(grades[k]))
            typed = {c["pid"]: int(c["grade"]) for c in widget_state(page)["cards"]}
            assert len(typed) == 30 and all(c["grade"] != "" for c in widget_state(page)["cards"])

            # What the browser saw acknowledged is in the file right after the kill.
            db = open_database(camp.db_path)
            stored = dict(
                db.cursor().execute("SELECT pid, grade FROM current_judgments WHERE username = 'annotator1'").fetchall()
            )
            db.close()
            assert acked, "no save was acknowledged before the kill"
            for pid, grade in acked.items():
                assert stored.get(pid) == grade, f"acknowledged {pid}={grade} lost"

            # Restart on the same port: the page reconnects and resends its outbox.
            second = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server2.log")
            second.port, second.url = first.port, first.url
            second.start()
            try:
                state = wait_saved(page, timeout=60_000)
            except Exception:
                page.reload()  # a reload must do it too (localStorage)
                wait_for_widget(page)
                state = wait_saved(page, timeout=60_000)
            assert {c["pid"]: int(c["grade"]) for c in state["cards"]} == typed
        finally:
            browser_cm.__exit__(None, None, None)
    finally:
        first.stop()
        if second is not None:
            second.stop()
    db = open_database(camp.db_path)
    stored = dict(
        db.cursor().execute("SELECT pid, grade FROM current_judgments WHERE username = 'annotator1'").fetchall()
    )
    db.close()
    assert stored == typed
