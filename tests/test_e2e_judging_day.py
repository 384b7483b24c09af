"""A judging day in a real headless chromium: "no answer" asks what the ungraded
paragraphs are, and the sticky header never covers the current card."""

from __future__ import annotations

import pytest

from e2e_support import (
    DEEP_QUERY_JS,
    build_campaign,
    login,
    served_in_browser,
    wait_for_widget,
    wait_saved,
    widget_state,
)
from reljudge.campaign import judging
from reljudge.storage import open_database

pytestmark = pytest.mark.browser

LONG = "긴 문단입니다. " * 60


def _open(tmp_path, **kw):
    camp = build_campaign(tmp_path / "day.duckdb", tmp_path / "input", n_questions=2, **kw)
    return camp


def _visible_ask(page) -> bool:
    return page.evaluate("() => {" + DEEP_QUERY_JS + " const a = deepQuery('.rj-ask'); return !!a && !a.hidden; }")


def test_no_answer_asks_once_and_can_grade_the_rest_zero(tmp_path):
    camp = _open(tmp_path, pool_size=6)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.keyboard.press("1")
        page.keyboard.press("n")
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const a = deepQuery('.rj-ask'); return !!a && !a.hidden; }"
        )
        assert widget_state(page)["noAnswer"] == "0"  # nothing decided yet
        page.keyboard.press("Escape")  # cancel: nothing changes
        assert not _visible_ask(page) and widget_state(page)["noAnswer"] == "0"
        page.keyboard.press("n")
        page.keyboard.press("y")  # the rest are 0
        state = wait_saved(page)
        assert state["noAnswer"] == "1"
        assert sorted(c["grade"] for c in state["cards"]) == ["0"] * 5 + ["1"]
        qid = state["qid"]
    db = open_database(camp.db_path)
    try:
        ov = judging.overview(db, "annotator1").set_index("qid")
        assert ov.loc[qid, "judged"] == 6 and bool(ov.loc[qid, "no_answer"])
        assert bool(judging.finished(ov.reset_index()).iloc[list(ov.index).index(qid)])
    finally:
        db.close()


def test_only_no_answer_leaves_the_question_unfinished(tmp_path):
    camp = _open(tmp_path, pool_size=4)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.keyboard.press("n")
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const a = deepQuery('.rj-ask'); return !!a && !a.hidden; }"
        )
        page.keyboard.press("n")  # only "no answer"
        state = wait_saved(page)
        assert state["noAnswer"] == "1" and all(c["grade"] == "" for c in state["cards"])
        qid = state["qid"]
    db = open_database(camp.db_path)
    try:
        others, left_here = judging.work_left(db, "annotator1", qid)
        assert left_here == 4  # still to grade: not "done"
    finally:
        db.close()


CARD_CLEAR_OF_HEADER = (
    """() => {"""
    + DEEP_QUERY_JS
    + """
  const root = deepQuery(".rj");
  const head = root.querySelector(".rj-head").getBoundingClientRect();
  const cur = root.querySelector(".rj-item.cur").getBoundingClientRect();
  return cur.top >= head.bottom - 1;
}"""
)


def test_the_sticky_header_never_covers_the_current_card(tmp_path):
    texts = {(q, k): f"[{k}] {LONG}" for q in range(2) for k in range(10)}
    camp = _open(tmp_path, pool_size=10, special_texts=texts)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.keyboard.press("2")  # a citable grade…
        for _ in range(4):
            page.keyboard.press("j")
        page.wait_for_function(CARD_CLEAR_OF_HEADER)
        page.keyboard.press("n")  # …the question grows the header
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const a = deepQuery('.rj-ask'); return !!a && !a.hidden; }"
        )
        page.wait_for_function(CARD_CLEAR_OF_HEADER)
        page.keyboard.press("n")  # only "no answer": the conflict shows
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const c = deepQuery('.rj-conflict'); return !!c && !c.hidden; }"
        )
        page.wait_for_function(CARD_CLEAR_OF_HEADER)


CARDS_IN_VIEW = (
    """() => {"""
    + DEEP_QUERY_JS
    + """
  const root = deepQuery(".rj");
  const head = root.querySelector(".rj-head").getBoundingClientRect().bottom;
  return [...root.querySelectorAll(".rj-item")].filter((c) => {
    const r = c.getBoundingClientRect();
    return r.top >= head - 1 && r.bottom <= window.innerHeight + 1;
  }).length;
}"""
)


def test_compact_layout_fits_more_long_paragraphs_and_unfolds_on_f(tmp_path):
    texts = {
        (q, k): f"[{k}] " + "설교자는 피난 시절의 교회를 회고하며 감사의 생활을 말하였다. " * (12 + k * 2)
        for q in range(2)
        for k in range(8)
    }  # 400–1,000 characters
    camp = _open(tmp_path, pool_size=8, special_texts=texts)
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        normal = page.evaluate(CARDS_IN_VIEW)
        page.keyboard.press("v")  # compact
        page.wait_for_function("() => {" + DEEP_QUERY_JS + " return deepQuery('.rj').classList.contains('compact'); }")
        compact = page.evaluate(CARDS_IN_VIEW)
        assert compact >= 3 and compact >= 2 * max(normal, 1), (normal, compact)
        folded = page.evaluate(
            "() => {" + DEEP_QUERY_JS + " return deepQuery('.rj-item.cur .rj-text').getBoundingClientRect().height; }"
        )
        page.keyboard.press("f")  # unfold the current card
        page.wait_for_function(
            "(h) => {"
            + DEEP_QUERY_JS
            + " return deepQuery('.rj-item.cur .rj-text').getBoundingClientRect().height > h + 20; }",
            arg=folded,
        )
        page.reload()  # the browser remembers the layout
        wait_for_widget(page)
        page.wait_for_function("() => {" + DEEP_QUERY_JS + " return deepQuery('.rj').classList.contains('compact'); }")


def test_highlighting_marks_the_question_words_as_plain_text(tmp_path):
    hostile = "<b>피난</b> 시절 <img src=x onerror=window.__pwned=1> 교회는 문을 열었다"
    camp = _open(tmp_path, pool_size=3, special_texts={(0, 0): hostile, (1, 0): hostile})
    from reljudge.campaign import setup as campaign

    db = open_database(camp.db_path)
    campaign.set_highlight(db, True)
    db.close()
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.wait_for_function("() => {" + DEEP_QUERY_JS + " return !!deepQuery('.rj-mark'); }")
        marks = page.evaluate(
            """() => {"""
            + DEEP_QUERY_JS
            + """
          const card = [...deepQuery(".rj").querySelectorAll(".rj-item")].find((c) => c.textContent.includes("<b>"));
          return {marks: [...card.querySelectorAll(".rj-mark")].map((m) => m.textContent),
                  text: card.querySelector(".rj-text").textContent,
                  tags: card.querySelector(".rj-text").querySelectorAll("b, img").length};
        }"""
        )
        assert marks["text"] == hostile and marks["tags"] == 0
        assert {"피난", "시절", "교회"} <= set(marks["marks"])
        assert page.evaluate("() => window.__pwned") is None
