"""In a real headless chromium: one annotator judges through two app processes on one
PostgreSQL database (as behind a proxy that sends two browsers to different processes);
each page shows what was saved through the other, and grades pressed while PostgreSQL is
down wait in the outbox and are stored once it is back, without restarting either app."""

from __future__ import annotations

import pytest

from e2e_support import StreamlitServer, build_campaign, chromium, logged_in_page, wait_for_widget, wait_saved
from postgres_support import PostgresServer
from reljudge.storage import open_database

pytestmark = pytest.mark.browser


def _events(url: str) -> list[tuple[str, int]]:
    db = open_database(url)
    try:
        return (
            db.cursor()
            .execute("SELECT pid, grade FROM judgment_events WHERE username = 'annotator1' ORDER BY event_id")
            .fetchall()
        )
    finally:
        db.close()


def _grades(state: dict) -> dict[str, str]:
    return {c["pid"]: c["grade"] for c in state["cards"]}


def test_judging_through_two_app_processes_on_one_postgresql_database(tmp_path):
    try:
        pg = PostgresServer(durable=True)
    except Exception as exc:  # noqa: BLE001 — a failure, never a skip
        pytest.fail(f"cannot start PostgreSQL for the tests: {exc}", pytrace=False)
    try:
        url = pg.url(pg.new_database())
        build_campaign(url, tmp_path / "input", n_questions=1, pool_size=6)
        with (
            StreamlitServer(db_path=url, log_path=tmp_path / "one.log") as one,
            StreamlitServer(db_path=url, log_path=tmp_path / "two.log") as two,
            chromium() as browser,
        ):
            first = logged_in_page(browser, one.url, "annotator1", "annotator-pass-1")
            wait_for_widget(first)
            first.keyboard.press("2")
            first.keyboard.press("1")
            saved_first = _grades(wait_saved(first))
            assert sorted(g for g in saved_first.values() if g) == ["1", "2"]

            # Another browser on the other process sees those grades.
            second = logged_in_page(browser, two.url, "annotator1", "annotator-pass-1")
            wait_for_widget(second)
            state = wait_saved(second)
            assert {p: g for p, g in _grades(state).items() if g} == {p: g for p, g in saved_first.items() if g}

            # PostgreSQL goes away: a grade pressed now waits in the outbox ...
            pg.stop("fast")
            second.keyboard.press("0")
            second.wait_for_function("""() => {
                const find = (root) => root.querySelector('.rj') ||
                  [...root.querySelectorAll('*')].map((e) => e.shadowRoot && find(e.shadowRoot)).find(Boolean);
                const rj = find(document);
                return rj && rj.dataset.pending !== "0";
            }""")
            # ... and is stored once PostgreSQL is back, by the same app process (no restart).
            pg.start()
            state = wait_saved(second, timeout=90_000)
            after = _grades(state)
            assert list(after.values()).count("0") == 1

            # The first browser, reloaded, shows the grade saved through the second process.
            first.reload()
            wait_for_widget(first)
            assert _grades(wait_saved(first)) == after
        stored = _events(url)
        assert len(stored) == 3 and sorted(g for _, g in stored) == [0, 1, 2]
    finally:
        pg.destroy()
