"""In a real headless chromium: the judging page of a campaign other than the default
(``?campaign=NAME``, chosen in the sidebar's picker) saves into that campaign through the
JSON route, and the browser's outbox of one campaign is not sent to another."""

from __future__ import annotations

import pytest

from e2e_support import build_campaign, login, served_in_browser, wait_for_widget, wait_saved
from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.storage import campaigns, open_database

pytestmark = pytest.mark.browser


def _events(db_path, name: str) -> list[tuple]:
    db = open_database(db_path, campaign=name)
    try:
        return db.cursor().execute("SELECT username, qid, grade FROM judgment_events ORDER BY event_id").fetchall()
    finally:
        db.close()


def test_keys_pressed_in_a_campaign_are_saved_in_that_campaign(tmp_path):
    work = tmp_path / "input"
    camp = build_campaign(tmp_path / "two.duckdb", work, n_questions=1, pool_size=4)
    campaigns.create(camp.db_path, "second")
    two = open_database(camp.db_path, campaign="second")
    try:  # the same question and paragraphs, a campaign of their own
        campaign.import_file(two, "corpus", work / "corpus.jsonl")
        campaign.import_file(two, "questions", work / "questions.jsonl")
        campaign.import_file(two, "run", work / "a.run", system="sysA")
        campaign.import_file(two, "run", work / "b.run", system="sysB")
        campaign.catalog.set_setting(two, "ks", "1,3")
        campaign.pool(two, 4)
        auth.grant_role(two, "annotator1", "annotator")
    finally:
        two.close()
    with served_in_browser(camp.db_path, tmp_path / "server.log") as (srv, browser):
        page = browser.new_page()
        page.set_default_timeout(60_000)
        posts = []
        page.on("request", lambda r: posts.append(r.post_data_json) if r.url.endswith("/api/events") else None)
        login(page, srv.url, "annotator1", "annotator-pass-1")
        wait_for_widget(page)
        page.keyboard.press("2")
        wait_saved(page)
        page.goto(f"{srv.url}/judge?campaign=second", wait_until="domcontentloaded")
        wait_for_widget(page)
        assert "캠페인" in page.locator("section[data-testid=stSidebar]").inner_text()  # the picker
        for key in "10":
            page.keyboard.press(key)
        wait_saved(page)
        assert "campaign=second" in page.url
    assert [p.get("campaign") for p in posts] == [None] + ["second"] * (len(posts) - 1)
    qid = camp.qids[0]
    assert _events(camp.db_path, "default") == [("annotator1", qid, 2)]
    assert _events(camp.db_path, "second") == [("annotator1", qid, 1), ("annotator1", qid, 0)]
