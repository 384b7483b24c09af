"""Answer review in a real headless chromium: a reviewer checks an answer with the
keyboard (support per citation, interpretation), reloads, and finds it saved — on
the page and in the DuckDB file. Saved through the same route as judgments."""

from __future__ import annotations

import json

import pytest

from e2e_support import DEEP_QUERY_JS, build_campaign, login, served_in_browser
from reljudge.review import ingest
from reljudge.review import queue
from reljudge.storage import open_database

pytestmark = pytest.mark.browser

REVIEW_STATE = (
    """() => {"""
    + DEEP_QUERY_JS
    + """
  const root = deepQuery(".rv");
  if (!root) return null;
  return { answer: root.dataset.answer, pending: root.dataset.pending, saved: root.dataset.saved,
           interpretation: root.dataset.interpretation,
           cards: [...root.querySelectorAll(".rv-item")].map((c) => ({ pid: c.dataset.pid || null,
             sentence: c.dataset.sentence, grade: c.dataset.grade ?? null, cur: c.classList.contains("cur") })) };
}"""
)


def _campaign(tmp_path):
    camp = build_campaign(tmp_path / "rv.duckdb", tmp_path / "input", n_questions=1, pool_size=4)
    q, pool = camp.qids[0], camp.pool[camp.qids[0]]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps(r, ensure_ascii=False) + "\n"
            for r in [
                {
                    "qid": q,
                    "system": "sysA",
                    "answer": f"교회는 피난민에게 예배당을 열었다 [{pool[0]}]. 주일마다 국밥을 나누었다 [{pool[1]}].",
                },
                {"qid": q, "system": "sysB", "answer": f"교회는 문을 닫았다 [{pool[2]}]."},
            ]
        ),
        encoding="utf-8",
    )
    db = open_database(camp.db_path)
    try:
        ingest.import_answers(db, answers)
    finally:
        db.close()
    return camp


def test_an_answer_reviewed_with_the_keyboard_is_saved_and_survives_a_reload(tmp_path):
    camp = _campaign(tmp_path)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        posts = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        page.goto(f"{srv.url}/review")
        page.wait_for_function("() => {" + DEEP_QUERY_JS + " return !!deepQuery('.rv .rv-item'); }")
        first = page.evaluate(REVIEW_STATE)
        pairs = [c for c in first["cards"] if c["pid"]]
        for key in ["2", "0"][: len(pairs)]:
            page.keyboard.press(key)
        page.keyboard.press("i")
        page.keyboard.press("1")
        page.wait_for_function(
            "() => {"
            + DEEP_QUERY_JS
            + " const r = deepQuery('.rv'); return r && r.dataset.pending === '0' && r.dataset.saved === '1'; }"
        )
        shown = page.evaluate(REVIEW_STATE)
        assert shown["interpretation"] == "1"
        assert [c["grade"] for c in shown["cards"] if c["pid"]] == ["2", "0"][: len(pairs)]
        assert any(url.endswith("/api/events") for url in posts)
        page.reload()
        page.wait_for_function("() => {" + DEEP_QUERY_JS + " return !!deepQuery('.rv .rv-item'); }")
        again = page.evaluate(REVIEW_STATE)
        assert again["answer"] == first["answer"] and again["interpretation"] == "1"
        assert [c["grade"] for c in again["cards"] if c["pid"]] == ["2", "0"][: len(pairs)]
    db = open_database(camp.db_path)
    try:
        data = queue.payload(db, "annotator1", int(first["answer"]))
        got = [c["support"] for s in data["sentences"] for c in s["citations"]]
        assert got == [2, 0][: len(pairs)] and data["interpretation"] == 1
    finally:
        db.close()
