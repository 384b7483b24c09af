"""End to end in a real headless chromium: log in, judge with the keyboard, reload,
and find everything saved — on the page and in the DuckDB file.

Needs the system chromium at /usr/bin/chromium (CI installs it); without it these
tests fail with a message saying so, they never skip.
"""

from __future__ import annotations

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
from reljudge.campaign import judging
from reljudge.storage import open_database

pytestmark = pytest.mark.browser

ANNOTATOR = ("annotator1", "annotator-pass-1")
LEAD = ("lead1", "lead-pass-0001")

HOSTILE = '<b>bold</b><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
MARKDOWN = "**굵게** _기울임_ [링크](javascript:window.__pwned=3) # 제목 아님"


@pytest.fixture(scope="module")
def browser():
    try:
        with chromium() as b:
            yield b
    except RuntimeError as exc:  # chromium missing: a failure, not a skip
        pytest.fail(str(exc))


@pytest.fixture
def server_for(tmp_path):
    """Factory: build a campaign in tmp_path and start the app on it; always stopped."""
    started: list[StreamlitServer] = []

    def make(**campaign_kw):
        camp = build_campaign(tmp_path / "reljudge.duckdb", tmp_path / "data", **campaign_kw)
        srv = StreamlitServer("app.py", db_path=camp.db_path, log_path=tmp_path / "streamlit.log")
        started.append(srv)
        srv.start()
        return camp, srv

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="ko-KR")
    context.set_default_timeout(60_000)
    pg = context.new_page()
    yield pg
    context.close()


def _press(page, key: str) -> dict:
    page.keyboard.press(key)
    return widget_state(page)


def _wait_question(page, qid: str) -> None:
    page.wait_for_function(
        """(qid) => {"""
        + DEEP_QUERY_JS
        + """
          const root = deepQuery(".rj");
          return !!root && root.dataset.qid === qid && root.querySelector(".rj-item") !== null;
        }""",
        arg=qid,
    )


def test_keyboard_judging_survives_reload_and_reaches_database(server_for, page):
    camp, srv = server_for(n_questions=3, pool_size=10, accounts={ANNOTATOR[0]: (ANNOTATOR[1], "annotator")})
    q1, q2 = camp.qids[0], camp.qids[1]
    try:
        login(page, srv.url, *ANNOTATOR)
        wait_for_widget(page)
        s = widget_state(page)
        assert s["qid"] == q1 and s["cursor"] == 0
        assert sorted(c["pid"] for c in s["cards"]) == sorted(camp.pool[q1])
        assert all(c["grade"] == "" for c in s["cards"])
        order = [c["pid"] for c in s["cards"]]

        # Each grade is painted by the keypress itself, before any server reply,
        # and moves the cursor on; J/K move it without grading.
        s = _press(page, "2")
        assert s["cards"][0]["grade"] == "2" and s["cursor"] == 1
        s = _press(page, "1")
        assert s["cards"][1]["grade"] == "1" and s["cursor"] == 2
        s = _press(page, "j")
        assert s["cursor"] == 3 and s["cards"][2]["grade"] == ""
        s = _press(page, "0")
        assert s["cards"][3]["grade"] == "0" and s["cursor"] == 4
        page.keyboard.press("k")
        s = _press(page, "k")
        assert s["cursor"] == 2
        s = _press(page, "2")
        assert s["cards"][2]["grade"] == "2" and s["cursor"] == 3
        expected_q1 = {order[0]: 2, order[1]: 1, order[2]: 2, order[3]: 0}

        s = wait_saved(page)
        assert {c["pid"]: c["grade"] for c in s["cards"] if c["grade"]} == {p: str(g) for p, g in expected_q1.items()}

        page.keyboard.press("N")  # paragraphs are ungraded: it asks first
        s = _press(page, "n")  # only "no answer" (the rest stay ungraded)
        assert s["noAnswer"] == "1"
        wait_saved(page)

        page.keyboard.press("Enter")
        _wait_question(page, q2)
        s = _press(page, "1")
        first_q2 = s["cards"][0]["pid"]
        assert s["cards"][0]["grade"] == "1"
        s = wait_saved(page)
        assert s["qid"] == q2 and s["noAnswer"] == "0"

        # Reload: the cookie keeps the login, the server's state repaints everything.
        page.reload(wait_until="domcontentloaded")
        _wait_question(page, q2)
        assert page.get_by_label("사용자 이름").count() == 0
        s = wait_saved(page)
        assert {c["pid"]: c["grade"] for c in s["cards"] if c["grade"]} == {first_q2: "1"}

        page.keyboard.press("[")
        _wait_question(page, q1)
        s = wait_saved(page)
        assert s["noAnswer"] == "1"
        assert {c["pid"]: c["grade"] for c in s["cards"] if c["grade"]} == {p: str(g) for p, g in expected_q1.items()}
    except Exception:
        print(srv.log_tail())
        raise
    finally:
        srv.stop()

    db = open_database(camp.db_path)
    try:
        ov = judging.overview(db, ANNOTATOR[0]).set_index("qid")
        assert ov.loc[q1, "judged"] == 4 and bool(ov.loc[q1, "no_answer"])
        assert ov.loc[q2, "judged"] == 1 and not bool(ov.loc[q2, "no_answer"])
        assert ov.loc[camp.qids[2], "judged"] == 0
        current = {
            (q, p): g
            for q, p, g in db.cursor()
            .execute("SELECT qid, pid, grade FROM current_judgments WHERE username = ?", [ANNOTATOR[0]])
            .fetchall()
        }
        assert current == {**{(q1, p): g for p, g in expected_q1.items()}, (q2, first_q2): 1}
        # Five grades and one verdict: every keypress stored exactly once, resends deduplicated.
        n_events = (
            db.cursor().execute("SELECT count(*) FROM judgment_events WHERE username = ?", [ANNOTATOR[0]]).fetchone()[0]
        )
        assert n_events == 6
    finally:
        db.close()


def test_paragraph_html_and_markdown_are_shown_literally(server_for, page):
    camp, srv = server_for(
        n_questions=1,
        pool_size=4,
        accounts={ANNOTATOR[0]: (ANNOTATOR[1], "annotator")},
        special_texts={(0, 1): HOSTILE, (0, 2): MARKDOWN},
    )
    try:
        login(page, srv.url, *ANNOTATOR)
        wait_for_widget(page)
        result = page.evaluate(
            """() => {"""
            + DEEP_QUERY_JS
            + """
              const root = deepQuery(".rj");
              const texts = [...root.querySelectorAll(".rj-item .rj-text")];
              return {
                texts: texts.map((t) => t.textContent),
                childElements: texts.reduce((n, t) => n + t.querySelectorAll("*").length, 0),
                links: root.querySelectorAll(".rj-text a, .rj-text script, .rj-text img").length,
                pwned: window.__pwned === undefined ? null : window.__pwned,
              };
            }"""
        )
        # Give a broken <img onerror> time to fire, were it ever parsed.
        page.wait_for_timeout(300)
        assert HOSTILE in result["texts"] and MARKDOWN in result["texts"]
        assert result["childElements"] == 0 and result["links"] == 0
        assert page.evaluate("() => window.__pwned === undefined")
        assert result["pwned"] is None
    except Exception:
        print(srv.log_tail())
        raise


LEAD_PAGES = {"users": "사용자 관리", "import_data": "자료 가져오기", "overview": "진행 현황", "audit": "판정 이력"}


def test_annotator_cannot_reach_lead_pages(server_for, browser):
    camp, srv = server_for(
        n_questions=1, pool_size=3, accounts={ANNOTATOR[0]: (ANNOTATOR[1], "annotator"), LEAD[0]: (LEAD[1], "lead")}
    )
    contexts = []
    try:
        # Control: the lead reaches /users and /import_data at these paths.
        lead_ctx = browser.new_context()
        contexts.append(lead_ctx)
        lead = lead_ctx.new_page()
        lead.set_default_timeout(60_000)
        login(lead, srv.url, *LEAD)
        for path in ("users", "import_data"):
            lead.goto(f"{srv.url}/{path}", wait_until="domcontentloaded")
            lead.get_by_role("heading", name=LEAD_PAGES[path]).wait_for()

        ann_ctx = browser.new_context()
        contexts.append(ann_ctx)
        ann = ann_ctx.new_page()
        ann.set_default_timeout(60_000)
        login(ann, srv.url, *ANNOTATOR)
        wait_for_widget(ann)
        for path, title in LEAD_PAGES.items():
            ann.goto(f"{srv.url}/{path}", wait_until="domcontentloaded")
            # Streamlit falls back to the judging page (the only one registered for
            # an annotator); once it has rendered, the run is over.
            wait_for_widget(ann)
            assert ann.get_by_label("사용자 이름").count() == 0  # still logged in
            assert ann.get_by_role("heading", name=title).count() == 0, path
            assert ann.get_by_text(title).count() == 0, path
            assert ann.locator('[data-testid="stFileUploader"]').count() == 0, path
            assert ann.locator('[data-testid="stDataFrame"]').count() == 0, path
    except Exception:
        print(srv.log_tail())
        raise
    finally:
        for ctx in contexts:
            ctx.close()


def _wait_uploaded(page, name: str) -> None:
    page.locator('[data-testid="stFileChipName"]').filter(has_text=name).wait_for()
    page.locator('[data-testid="stFileChipIconSpinner"]').wait_for(state="detached")


def test_lead_upload_shows_line_error_then_imports(server_for, page, tmp_path):
    """The import page in the browser: a malformed upload is refused with the file's
    name and line (nothing written), a good one is imported and counted."""
    camp, srv = server_for(n_questions=1, pool_size=3, accounts={LEAD[0]: (LEAD[1], "lead")})
    bad = tmp_path / "새_문단.jsonl"
    bad.write_text('{"pid": "u1", "text": "올린 문단 하나"}\n{"pid": "u2", "text": \n', encoding="utf-8")
    good = tmp_path / "more.jsonl"
    good.write_text("".join(f'{{"pid": "u{i}", "text": "올린 문단 {i}"}}\n' for i in range(3)), encoding="utf-8")
    try:
        login(page, srv.url, *LEAD)
        page.goto(f"{srv.url}/import_data", wait_until="domcontentloaded")
        page.get_by_role("heading", name="자료 가져오기").wait_for()
        uploader = page.locator('[data-testid="stFileUploader"] input[type="file"]')

        uploader.set_input_files(str(bad))
        # The upload goes to the server first; the form is submitted once it is listed.
        _wait_uploaded(page, bad.name)
        page.get_by_role("button", name="가져오기", exact=True).click()
        error = page.locator('[data-testid="stAlert"]').filter(has_text="새_문단.jsonl, 2번째 줄")
        error.wait_for()  # the file's name, its line, the problem in Korean
        assert "JSON 형식이 잘못되었습니다" in error.inner_text() and "아무것도 저장되지 않음" in error.inner_text()

        uploader.set_input_files(str(good))
        _wait_uploaded(page, good.name)
        page.get_by_role("button", name="가져오기", exact=True).click()
        page.locator('[data-testid="stAlert"]').filter(has_text="more.jsonl: 3개 추가").wait_for()
        assert page.get_by_text("Traceback").count() == 0
    except Exception:
        print(srv.log_tail())
        raise
    finally:
        srv.stop()

    db = open_database(camp.db_path)
    try:
        pids = {p for (p,) in db.cursor().execute("SELECT pid FROM paragraphs WHERE pid LIKE 'u%'").fetchall()}
        assert pids == {"u0", "u1", "u2"}
        assert (
            db.cursor().execute("SELECT count(*) FROM import_log WHERE source_file LIKE '%새_문단%'").fetchone()[0] == 0
        )
    finally:
        db.close()


def _conflict_text(page) -> str:
    return page.evaluate(
        """() => {"""
        + DEEP_QUERY_JS
        + """
      const c = deepQuery(".rj-conflict");
      return c && !c.hidden ? c.textContent : "";
    }"""
    )


def test_no_answer_beside_a_citable_grade_is_flagged(server_for, page):
    """The aggregation lets a citable grade win over "no answer"; the annotator sees the
    contradiction while both stand, and it goes away once one of them is corrected."""
    camp, srv = server_for(n_questions=1, pool_size=3, accounts={ANNOTATOR[0]: (ANNOTATOR[1], "annotator")})
    try:
        login(page, srv.url, *ANNOTATOR)
        wait_for_widget(page)
        page.keyboard.press("1")
        page.keyboard.press("N")
        page.keyboard.press("n")  # only "no answer" (asked: 2 ungraded)
        assert _conflict_text(page) == ""  # grade 1 is not citable
        page.keyboard.press("2")  # second paragraph: citable
        assert "근거 없음으로 표시했지만 2점 이상인 문단이 있습니다" in _conflict_text(page)
        page.keyboard.press("k")
        page.keyboard.press("0")
        assert _conflict_text(page) == ""
        page.keyboard.press("k")
        page.keyboard.press("2")
        assert _conflict_text(page) != ""
        page.keyboard.press("N")  # no-answer withdrawn
        assert _conflict_text(page) == ""
        wait_saved(page)
    except Exception:
        print(srv.log_tail())
        raise


def test_header_stays_visible_and_the_current_card_clear_of_it(server_for, page):
    """On a long pool the question, progress and save state stay on screen while moving
    with the keyboard, and the current card is never hidden under them."""
    camp, srv = server_for(n_questions=1, pool_size=30, accounts={ANNOTATOR[0]: (ANNOTATOR[1], "annotator")})
    geometry = (
        """() => {"""
        + DEEP_QUERY_JS
        + """
      const q = deepQuery(".rj-qtext").getBoundingClientRect();
      const save = deepQuery(".rj-save").getBoundingClientRect();
      const head = deepQuery(".rj-head").getBoundingClientRect();
      const bar = document.querySelector('[data-testid="stHeader"]').getBoundingClientRect();
      const cur = deepQuery(".rj-item.cur").getBoundingClientRect();
      return {qTop: q.top, saveTop: save.top, headBottom: head.bottom, barBottom: bar.bottom,
              curTop: cur.top, curBottom: cur.bottom, height: window.innerHeight};
    }"""
    )
    try:
        page.set_viewport_size({"width": 1200, "height": 800})
        login(page, srv.url, *ANNOTATOR)
        wait_for_widget(page)
        for key, presses in (("j", 25), ("k", 20)):
            for _ in range(presses):
                page.keyboard.press(key)
            page.wait_for_timeout(300)
            g = page.evaluate(geometry)
            assert g["saveTop"] >= g["barBottom"] and g["qTop"] >= g["barBottom"], g
            assert g["curTop"] >= g["headBottom"] - 1 and g["curBottom"] <= g["height"] + 1, (key, g)
    except Exception:
        print(srv.log_tail())
        raise
