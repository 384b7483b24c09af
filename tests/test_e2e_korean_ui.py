"""The Korean UI in a real headless chromium: every page, walked as a lead, shows no
Latin-script word outside a short list (ids, system and metric names, file formats);
and the very first paint after a server start is ours (no Streamlit file list)."""

from __future__ import annotations

import re
import time

import pytest

from e2e_support import StreamlitServer, build_campaign, chromium, login, served_in_browser
from reljudge.ui import navigation

pytestmark = pytest.mark.browser

# Words that are names, not language: product, metrics, formats, tools, ids and
# the campaign's own data (system names, paragraph and question ids).
ALLOWED = {
    "reljudge",
    "English",
    "MRR",
    "RR",
    "nDCG",
    "NDCG",
    "Recall",
    "P",
    "R",
    "K",
    "Judged",
    "CI",
    "CSV",
    "TSV",
    "JSON",
    "JSONL",
    "TREC",
    "BEIR",
    "Parquet",
    "HTML",
    "Markdown",
    "md",
    "qrels",
    "run",
    "trec",
    "eval",
    "trec_eval",
    "pytrec_eval",
    "kiwipiepy",
    "Cohen",
    "Fleiss",
    "Krippendorff",
    "Kendall",
    "Holm",
    "kappa",
    "alpha",
    "tau",
    "id",
    "ID",
    "pid",
    "qid",
    "UTF",
    "Enter",
    "Backspace",
    "Esc",
    "J",
    "K",
    "N",
    "U",
    "C",
    "E",
    "V",
    "F",
    "Y",
    "sysA",
    "sysB",
    "lead",
    "annotator",
    "Argon2id",
    "zip",
    "rel",
    "p",
    "q",
    "AP",
    "s",
    "tag",
    "Q0",
    "TXT",
    "RUN",
    "QRELS",
    "TREC_EVAL",
    "html",
    "float",
    "double",
    "D",
}
# The page's visible text without icon ligatures (Material icons are drawn from words
# such as "edit_note" in an icon font: on screen they are icons, not text).
VISIBLE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  // Streamlit's own "Running… Stop" indicator comes and goes with reruns (an auto-refreshing fragment)
  copy.querySelectorAll('[data-testid="stIconMaterial"], .material-symbols-rounded, [translate="no"], [data-testid="stStatusWidget"]').forEach((e) => e.remove());
  document.body.append(copy);
  copy.style.position = "absolute"; copy.style.left = "-99999px";
  const text = copy.innerText;
  copy.remove();
  return text;
}"""
# Accessibility text Streamlit itself puts in a visually hidden link.
STREAMLIT_A11Y = {"Skip to main content"}
LEAD = ("lead1", "lead-pass-0001")


def latin_words(text: str) -> set[str]:
    for phrase in STREAMLIT_A11Y:
        text = text.replace(phrase, " ")
    words = set(re.findall(r"[A-Za-z][A-Za-z_]*", text))
    # ids of the test campaign (Q01-p03, annotator1, …) and measure names like RR@10
    return {w for w in words if w not in ALLOWED and not re.fullmatch(r"[QqPp]\d*|annotator\d*|lead\d*|doc", w)}


def test_every_page_in_korean_shows_no_stray_english(tmp_path):
    camp = build_campaign(
        tmp_path / "ko.duckdb",
        tmp_path / "input",
        n_questions=2,
        pool_size=4,
        accounts={"annotator1": ("annotator-pass-1", "annotator"), LEAD[0]: (LEAD[1], "lead")},
    )
    found: dict[str, set[str]] = {}
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.set_default_timeout(60_000)
        login(page, srv.url, *LEAD)
        for name, title_key, _ in navigation.pages_for(True):
            address = "" if name == navigation.DEFAULT_PAGE else name  # the default page is /
            page.goto(f"{srv.url}/{address}", wait_until="domcontentloaded")
            page.get_by_role("heading").first.wait_for()
            # let the page finish its run (tables and charts are drawn after the title)
            page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)
            time.sleep(0.5)
            text = page.evaluate(VISIBLE_TEXT)
            stray = latin_words(text)
            if stray:
                found[name] = {
                    w: (re.search(rf".{{0,40}}{re.escape(w)}.{{0,40}}", text, re.S) or re.search("", "")).group(0)
                    for w in stray
                }
    assert not found, f"English words on Korean pages: {found}"


FILE_NAMES = {"adjudicate", "agreement", "dashboard", "import data", "overview", "users", "audit", "workbench"}


def test_the_first_paint_after_a_start_is_the_login_form_not_a_file_list(tmp_path):
    camp = build_campaign(tmp_path / "fp.duckdb", tmp_path / "input", n_questions=1, pool_size=3)
    server = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server.log").start()
    try:
        with chromium() as browser:
            page = browser.new_page()
            page.goto(server.url, wait_until="commit")
            seen = []
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                text = page.evaluate("() => document.body ? document.body.innerText : ''")
                seen.append(text)
                if "사용자 이름" in text:
                    break
                page.wait_for_timeout(50)
            assert "사용자 이름" in seen[-1], "the login form never showed"
            for text in seen:
                shown = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z ]*[A-Za-z]", text)}
                assert not shown & FILE_NAMES, f"Streamlit's file list showed: {text[:200]!r}"
    finally:
        server.stop()
