"""The rr-first judging plan in a real headless chromium: the annotator judges the
paragraphs offered now and sees the question settled and done before its whole pool is
judged (docs/judging-plans.md#판정-계획--judging-plans)."""

from __future__ import annotations

import pytest

from e2e_support import DEEP_QUERY_JS, build_campaign, logged_in_page, served_in_browser, wait_for_widget
from reljudge.campaign import judging
from reljudge.campaign import plan
from reljudge.campaign import progress
from reljudge.storage import open_database

pytestmark = pytest.mark.browser

PLAN_STATE = (
    """() => {"""
    + DEEP_QUERY_JS
    + """
  const root = deepQuery(".rj");
  if (!root) return null;
  const cards = [...root.querySelectorAll(".rj-item")];
  return {qid: root.dataset.qid, now: root.dataset.now, done: root.dataset.planDone,
          pending: root.dataset.pending, header: root.querySelector(".rj-plan").textContent,
          rest: !!root.querySelector(".rj-rest"),
          pq: root.querySelector(".rj-pq").textContent, pall: root.querySelector(".rj-pall").textContent,
          // the pids above the "rest of the pool" separator, in order
          above: (() => { const out = []; for (const el of root.querySelector(".rj-items").children) {
            if (el.classList.contains("rj-rest")) break; if (el.dataset.pid) out.push(el.dataset.pid); } return out; })(),
          cards: cards.map((c) => ({pid: c.dataset.pid, now: c.dataset.now, grade: c.dataset.grade}))};
}"""
)


def _grade_until_done(page, state: dict, grade: int, limit: int = 12) -> dict:
    """Grade the first card to judge now ``grade`` (a click), wait for the server's answer
    (what is to judge now, or that the question is done), until the question is done."""
    for _ in range(limit):
        if state["done"] == "1":
            break
        pid = next(c["pid"] for c in state["cards"] if c["now"] == "1" and c["grade"] == "")
        page.evaluate(
            "([pid, g]) => {"
            + DEEP_QUERY_JS
            + """
            deepQuery('.rj').querySelector(`.rj-item[data-pid="${pid}"] .rj-btns button[data-g="${g}"]`).click(); }""",
            [pid, str(grade)],
        )
        page.wait_for_function(
            "(before) => {"
            + DEEP_QUERY_JS
            + """
            const r = deepQuery('.rj');
            return !!r && r.dataset.pending === "0" && (r.dataset.now !== before || r.dataset.planDone === "1"); }""",
            arg=state["now"],
        )
        state = page.evaluate(PLAN_STATE)
    return state


def test_rr_first_question_is_done_once_every_rr_is_settled(tmp_path):
    camp = build_campaign(tmp_path / "plan.duckdb", tmp_path / "input", n_questions=2, pool_size=10)
    db = open_database(camp.db_path)
    plan.set_plan(db, "rr-first")
    left_all = int(judging.overview(db, "annotator1").open_now.sum())
    db.close()
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = logged_in_page(browser, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && !!r.dataset.now; }"
        )
        state = page.evaluate(PLAN_STATE)
        # the items to judge now come first, the rest of the pool below a separator
        now = [c["pid"] for c in state["cards"] if c["now"] == "1"]
        assert now and [c["now"] for c in state["cards"]] == ["1"] * len(now) + ["0"] * (10 - len(now))
        assert state["rest"] and "RR@10 확정: 0/2 시스템" in state["header"]
        qid = state["qid"]
        # the counters speak the plan (issue 35.3): what is left to judge now, here and in
        # every unfinished question, as reljudge next and the Progress page count it
        assert state["pq"] == f"이 질문: 남은 판정 {len(now)}"
        assert state["pall"] == f"전체: 끝난 질문 0/2 (0%) · 남은 판정 {left_all}"
        state = _grade_until_done(page, state, 2)
        assert state["done"] == "1" and state["qid"] == qid
        assert "RR@10 확정: 2/2 시스템" in state["header"] and "이 질문 끝" in state["header"]
        graded = [c for c in state["cards"] if c["grade"]]
        assert 0 < len(graded) < 10  # done before the whole pool is judged
        # the cards the plan needed are shown as judged, above the rest of the pool, not
        # under "not needed"
        assert state["above"] == [c["pid"] for c in graded] and state["rest"]
        assert all(c["grade"] == "" for c in state["cards"][len(graded) :])
        header = (state["pq"], state["pall"])
    db = open_database(camp.db_path)
    try:
        ov = judging.overview(db, "annotator1").set_index("qid")
        assert ov.loc[qid, "judged"] == len(graded) < ov.loc[qid, "pool_size"]
        assert bool(judging.finished(ov.reset_index()).iloc[list(ov.index).index(qid)])
        # header, Progress page and reljudge next say the same
        others_left, left_here = judging.work_left(db, "annotator1", qid)
        left_all = int(ov.open_now[~judging.finished(ov.reset_index()).values].sum())
        assert left_here == 0 and others_left == 1
        assert header == ("이 질문: 남은 판정 0", f"전체: 끝난 질문 1/2 (50%) · 남은 판정 {left_all}")
        by_annotator = progress.by_annotator(db).set_index("username").loc[["annotator1"]]
        assert by_annotator.finished.sum() == 1 and by_annotator.questions.sum() == 2
    finally:
        db.close()


def test_nothing_citable_under_a_plan_asks_once_and_marks_only_the_verdict(tmp_path):
    """Issue 35.4: every paragraph the plan needs judged, none citable: the page asks once
    whether the results hold no answer. N marks the verdict and grades nothing else; Esc
    puts the question off, and it is not asked again on the next visit."""
    camp = build_campaign(tmp_path / "plan.duckdb", tmp_path / "input", n_questions=2, pool_size=4)
    db = open_database(camp.db_path)
    plan.set_plan(db, "rr-first")
    db.close()
    asking = (
        "() => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && r.dataset.nothingAsking === '%s'; }"
    )
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = logged_in_page(browser, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && !!r.dataset.now; }"
        )
        state = page.evaluate(PLAN_STATE)
        first = state["qid"]
        assert page.evaluate(asking.replace("%s", "0"))  # not while the plan still needs grades
        state = _grade_until_done(page, state, 0)
        assert state["done"] == "1"
        page.wait_for_function(asking.replace("%s", "1"))
        text = page.evaluate("() => {" + DEEP_QUERY_JS + " return deepQuery('.rj .rj-nothing').textContent; }")
        assert "근거 없음으로 표시" in text and "Esc" in text
        graded_before = [c["pid"] for c in state["cards"] if c["grade"] != ""]
        page.keyboard.press("n")
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return r.dataset.noAnswer === '1' "
            "&& r.dataset.pending === '0' && r.dataset.nothingAsking === '0'; }"
        )
        state = page.evaluate(PLAN_STATE)
        # no paragraph got a grade nobody gave it
        assert [c["pid"] for c in state["cards"] if c["grade"] != ""] == graded_before
        # the second question: Esc puts the prompt off for good
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(q) => {"
            + DEEP_QUERY_JS
            + " const r = deepQuery('.rj'); return !!r && r.dataset.qid !== q && !!r.dataset.now; }",
            arg=first,
        )
        state = _grade_until_done(page, page.evaluate(PLAN_STATE), 0)
        second = state["qid"]
        page.wait_for_function(asking.replace("%s", "1"))
        page.keyboard.press("Escape")
        page.wait_for_function(asking.replace("%s", "0"))
        page.reload(wait_until="domcontentloaded")
        wait_for_widget(page)
        page.wait_for_function(
            "(q) => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && r.dataset.qid === q "
            "&& r.dataset.planDone === '1'; }",
            arg=second,
        )
        assert page.evaluate(asking.replace("%s", "0"))
    db = open_database(camp.db_path)
    try:
        ov = judging.overview(db, "annotator1").set_index("qid")
        assert bool(ov.loc[first, "no_answer"]) and not bool(ov.loc[second, "no_answer"])
        assert ov.loc[first, "judged"] == len(graded_before)
    finally:
        db.close()


CURSOR = (
    "() => {"
    + DEEP_QUERY_JS
    + """
  const r = deepQuery('.rj'); const c = r && r.querySelector('.rj-item.cur');
  return c ? {pid: c.dataset.pid, now: c.dataset.now, grade: c.dataset.grade, pending: r.dataset.pending,
              done: r.dataset.planDone, refreshes: r.dataset.refreshes} : null; }"""
)


def test_under_a_plan_the_save_answers_what_to_judge_next_and_keys_in_a_slow_save_grade_the_highlighted_cards(
    tmp_path,
):
    """Issue 35.1: under rr-first a grade costs no page rerun: the save's reply carries the
    plan's state and the list is updated in place; keys pressed while the saves are held
    grade exactly the cards highlighted when they were pressed, and once the answers
    arrive the highlighted card is one to judge now."""
    from reljudge.storage import judgments as store

    camp = build_campaign(tmp_path / "plan.duckdb", tmp_path / "input", n_questions=1, pool_size=10)
    db = open_database(camp.db_path)
    plan.set_plan(db, "rr-first")
    db.close()
    pressed: dict[str, int] = {}
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = logged_in_page(browser, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && !!r.dataset.now; }"
        )
        qid = page.evaluate(PLAN_STATE)["qid"]
        # every card element marked: a rebuilt list (a page rerun) would have none of them
        mark = "(v) => {" + DEEP_QUERY_JS + " const cs = [...deepQuery('.rj').querySelectorAll('.rj-item')];"
        page.evaluate(mark + " cs.forEach((c) => { c.__rjMark = v; }); }", "first")
        held = []
        page.route("**/api/events", lambda route: held.append(route))
        for key in ("0", "0", "1"):
            cur = page.evaluate(CURSOR)
            page.keyboard.press(key)
            pressed[cur["pid"]] = int(key)
            page.wait_for_function(
                "([pid, g]) => {" + DEEP_QUERY_JS + " return deepQuery('.rj').querySelector("
                '`.rj-item[data-pid="${pid}"]`).dataset.grade === g; }',
                arg=[cur["pid"], key],
            )
        page.wait_for_function("() => {" + DEEP_QUERY_JS + " return deepQuery('.rj').dataset.pending !== '0'; }")
        assert held  # the first save is held; the others wait behind it in the outbox
        for route in list(held):
            route.continue_()
        page.unroute("**/api/events")  # what came meanwhile goes on (unroute lets it through)
        # on with the keys alone until the question is done: each key grades the highlighted
        # card, which after each answer is one to judge now
        for _ in range(12):
            page.wait_for_function(
                "() => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); const c = r.querySelector('.rj-item.cur');"
                " return r.dataset.pending === '0' && (r.dataset.planDone === '1' || (c.dataset.now === '1'"
                " && c.dataset.grade === '')); }"
            )
            cur = page.evaluate(CURSOR)
            assert cur["refreshes"] == "0"  # no page rerun for any grade
            if cur["done"] == "1":
                break
            page.keyboard.press("0")
            pressed[cur["pid"]] = 0
            page.wait_for_function(
                "(pid) => {" + DEEP_QUERY_JS + " return deepQuery('.rj').querySelector("
                "`.rj-item[data-pid=\"${pid}\"]`).dataset.grade === '0'; }",
                arg=cur["pid"],
            )
        assert cur["done"] == "1" and cur["refreshes"] == "0"
        # the cards are the very elements of the first render: updated in place, never rebuilt
        assert page.evaluate(mark + " return cs.length === 10 && cs.every((c) => c.__rjMark === v); }", "first")
    db = open_database(camp.db_path)
    try:
        stored = {pid: grade for pid, (grade, *_rest) in store.my_latest(db, "annotator1", qid).items()}
        assert stored == pressed
        assert bool(judging.finished(judging.overview(db, "annotator1")).iloc[0])
    finally:
        db.close()


def test_the_next_question_is_painted_at_once_and_the_server_catches_up_without_rebuilding_it(tmp_path):
    """Issue 35.2: Enter (and [) paints the question the page holds for the move in the
    same moment as the key, before the server has heard of it; the server then moves the
    position (the sidebar follows) and its render keeps the very cards painted."""
    camp = build_campaign(tmp_path / "plan.duckdb", tmp_path / "input", n_questions=3, pool_size=4)
    db = open_database(camp.db_path)
    plan.set_plan(db, "rr-first")
    db.close()
    key_then_qid = (
        "(key) => {"
        + DEEP_QUERY_JS
        + """
        document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
        const r = deepQuery('.rj');
        const cs = [...r.querySelectorAll('.rj-item')];
        cs.forEach((c) => { c.__rjMark = key; });
        return {qid: r.dataset.qid, cards: cs.length}; }"""
    )
    kept = (
        "(key) => {"
        + DEEP_QUERY_JS
        + """
        const cs = [...deepQuery('.rj').querySelectorAll('.rj-item')];
        return cs.length > 0 && cs.every((c) => c.__rjMark === key); }"""
    )
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = logged_in_page(browser, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.wait_for_function(
            "() => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && !!r.dataset.now; }"
        )
        assert page.evaluate(PLAN_STATE)["qid"] == camp.qids[0]
        for key, expected in (("Enter", camp.qids[1]), ("Enter", camp.qids[2]), ("[", camp.qids[1])):
            # the same task as the key: painted before any server round trip
            shown = page.evaluate(key_then_qid, key)
            assert shown == {"qid": expected, "cards": 4}
            # the server catches up: it moves the position and renders the same question
            assert (
                page.evaluate("() => {" + DEEP_QUERY_JS + " return deepQuery('.rj').dataset.serverQid; }") != expected
            )
            page.wait_for_function(
                "(q) => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && r.dataset.serverQid === q"
                " && r.dataset.pending === '0'; }",
                arg=expected,
            )
            assert page.evaluate(kept, key), "the server's render rebuilt the cards painted at the key"
    db = open_database(camp.db_path)
    try:
        assert judging.current_question(db, "annotator1") == camp.qids[1]
    finally:
        db.close()


def test_enters_pressed_before_the_server_has_caught_up_all_move_on(tmp_path):
    """Enters one after the other, each as soon as its question is painted (the server
    still busy with the first): the page and the server end on the same question, three
    on. Streamlit keeps only the last action sent between two runs, so two of these moves
    reach the server as one; each carries the question it moved from. Before, the third
    Enter (nothing held for it yet) was lost and the page stayed put."""
    camp = build_campaign(tmp_path / "plan.duckdb", tmp_path / "input", n_questions=5, pool_size=4)
    db = open_database(camp.db_path)
    plan.set_plan(db, "rr-first")
    db.close()
    press = (
        "() => {" + DEEP_QUERY_JS + " document.dispatchEvent(new KeyboardEvent('keydown',"
        " {key: 'Enter', bubbles: true, cancelable: true})); return deepQuery('.rj').dataset.qid; }"
    )
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = logged_in_page(browser, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.wait_for_function(
            "(q) => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && r.dataset.serverQid === q; }",
            arg=camp.qids[0],
        )
        for expected in camp.qids[1:4]:
            page.evaluate(press)
            page.wait_for_function(
                "(q) => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && r.dataset.qid === q"
                " && r.querySelectorAll('.rj-item').length > 0; }",
                arg=expected,
            )
        page.wait_for_function(
            "(q) => {" + DEEP_QUERY_JS + " const r = deepQuery('.rj'); return !!r && r.dataset.serverQid === q"
            " && r.dataset.qid === q; }",
            arg=camp.qids[3],
        )
    db = open_database(camp.db_path)
    try:
        assert judging.current_question(db, "annotator1") == camp.qids[3]
    finally:
        db.close()
