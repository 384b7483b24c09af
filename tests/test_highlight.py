"""The optional content-word highlighting (a lead's campaign setting, off by default)."""

from __future__ import annotations

from reljudge.campaign import setup as campaign
from reljudge.campaign import highlight
from reljudge.campaign import judging
from reljudge.reporting import report


def test_content_words_are_korean_morphemes_not_substrings():
    words = highlight.content_words("감사의 생활은 무엇이라고 설명되는가?")
    assert {"감사", "생활", "설명"} <= words
    assert not words & {"의", "은", "무엇", "는가"}  # particles, endings, pronouns
    text = "감사의 생활이란 날마다 작은 은혜를 기록하는 것입니다. 감사하다"
    marked = [text[s : s + n] for s, n in highlight.spans(words, text)]
    assert marked == ["감사", "생활", "감사"]


def test_spans_count_code_points_like_the_widget():
    text = "😀 감사 😀 생활"
    assert [text[s : s + n] for s, n in highlight.spans({"감사", "생활"}, text)] == ["감사", "생활"]


def test_the_widget_gets_marks_only_when_the_lead_switches_them_on(campaign_db):
    db = campaign_db
    items = judging.payload(db, "ann", "q1")["items"]
    assert all(it["marks"] == [] for it in items)  # off by default
    campaign.set_highlight(db, True)
    items = {it["pid"]: it for it in judging.payload(db, "ann", "q1")["items"]}
    p02 = items["p02"]
    assert [p02["text"][s : s + n] for s, n in p02["marks"]] == ["감사", "생활"]
    campaign.set_highlight(db, False)
    assert all(it["marks"] == [] for it in judging.payload(db, "ann", "q1")["items"])


def test_the_report_states_whether_paragraphs_were_highlighted(campaign_db):
    db = campaign_db
    judging.grade(db, "ann", "q1", "p02", 2)
    md = report.render(report.build(db, n_boot=20), "md")
    assert "| 문단 강조 | 사용 안 함 |" in md
    campaign.set_highlight(db, True)
    assert "kiwipiepy" in report.render(report.build(db, n_boot=20), "md")
