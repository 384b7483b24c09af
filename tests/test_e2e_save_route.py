"""In a real headless chromium: the judging page saves through the JSON route
(POST /api/events), not through Streamlit reruns; and keys pressed while the page
reconnects to a restarted server are all stored."""

from __future__ import annotations

import time

import pytest

from e2e_support import (
    DEEP_QUERY_JS,
    StreamlitServer,
    build_campaign,
    chromium,
    login,
    served_in_browser,
    wait_for_widget,
    wait_saved,
)
from reljudge.storage import open_database

pytestmark = pytest.mark.browser


def _stored(db_path) -> tuple[dict, int]:
    db = open_database(db_path)
    try:
        cur = db.cursor()
        grades = dict(cur.execute("SELECT pid, grade FROM current_judgments WHERE username = 'annotator1'").fetchall())
        n = cur.execute("SELECT count(*) FROM judgment_events WHERE username = 'annotator1'").fetchall()[0][0]
        return grades, n
    finally:
        db.close()


def test_a_keypress_is_saved_by_the_json_route_without_a_rerun(tmp_path):
    camp = build_campaign(tmp_path / "route.duckdb", tmp_path / "input", n_questions=1, pool_size=6)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        frames, posts = [], []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        wait_saved(page)
        frames.clear()
        posts.clear()
        for key in "210":
            page.keyboard.press(key)
        state = wait_saved(page)
        assert [c["grade"] for c in state["cards"][:3]] == ["2", "1", "0"]
        assert posts and all(url.endswith("/api/events") for url in posts)
        assert frames == [], "a save went through the Streamlit websocket (a rerun)"
    grades, n = _stored(camp.db_path)
    assert n == 3 and sorted(grades.values()) == [0, 1, 2]


def test_keys_pressed_while_the_page_reconnects_are_all_stored(tmp_path):
    camp = build_campaign(tmp_path / "reconnect.duckdb", tmp_path / "input", n_questions=1, pool_size=30)
    first = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server1.log").start()
    second = None
    try:
        with chromium() as browser:  # no chromium: RuntimeError, a failure (never a skip)
            page = browser.new_page()
            page.set_default_timeout(60_000)
            login(page, first.url, "annotator1", "annotator-pass-1")
            wait_for_widget(page)
            keys = ["2", "1", "0"] * 20  # more keys than cards: regrading too
            for key in keys[:5]:
                page.keyboard.press(key)
            wait_saved(page)
            first.proc.kill()  # the server dies
            first.proc.wait(timeout=10)
            for key in keys[5:10]:  # typed while it is down
                page.keyboard.press(key)
            second = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server2.log")
            second.port, second.url = first.port, first.url
            second.start()
            # Type on while the page notices the new server, reconnects and redraws the widget.
            for key in keys[10:]:
                page.keyboard.press(key)
                time.sleep(0.08)
            state = wait_saved(page, timeout=90_000)
            shown = {c["pid"]: c["grade"] for c in state["cards"]}
            assert all(g != "" for g in shown.values()), f"a key vanished: {shown}"
    finally:
        first.stop()
        if second is not None:
            second.stop()
    grades, n = _stored(camp.db_path)
    assert n == len(keys), f"{len(keys)} keys pressed, {n} events stored"
    assert {pid: str(g) for pid, g in grades.items()} == shown


def test_a_refused_save_is_said_in_the_page_and_leaves_the_outbox(tmp_path):
    """An event the server refuses (here: a paragraph that is not in the question's pool)
    is named in the widget's warning line, in the page's language, and leaves the outbox:
    it is not sent again and again. The other events of the batch are stored."""
    camp = build_campaign(tmp_path / "refused.duckdb", tmp_path / "input", n_questions=1, pool_size=6)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.keyboard.press("2")
        wait_saved(page)
        # the widget's own event, for a paragraph the pool does not hold
        page.evaluate(
            """() => {
              const G = window.__reljudge;
              G.outbox.push({kind: "grade", pid: "no-such-paragraph", grade: 2, note: "", evidence: "",
                             id: "refused-1", qid: G.qid, client: G.client, base: 0, ms: 10});
              localStorage.setItem("reljudge-outbox-" + G.user, JSON.stringify(G.outbox));
            }"""
        )
        page.keyboard.press("1")  # a real grade: the batch carries both, and is sent
        page.wait_for_function(
            """() => {"""
            + DEEP_QUERY_JS
            + """
              const warn = deepQuery(".rj-warn");
              return !!warn && !warn.hidden && warn.textContent.includes("저장하지 못한 판정이 있습니다");
            }"""
        )
        warning = page.evaluate("() => {" + DEEP_QUERY_JS + " return deepQuery('.rj-warn').textContent; }")
        assert warning == "저장하지 못한 판정이 있습니다: 이 문단은 더 이상 이 질문의 풀에 없습니다"
        page.wait_for_function("() => !window.__reljudge.outbox.some((e) => e.id === 'refused-1')")
        wait_saved(page)
    grades, n = _stored(camp.db_path)
    assert n == 2 and sorted(grades.values()) == [1, 2]
