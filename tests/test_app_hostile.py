"""Hostile data through every lead page (AppTest): ids, texts, notes, user names, system
and source names full of Markdown, HTML and invisible characters must show as text —
nothing but our own markup renders, no link or image (a request to another host) appears,
and right-to-left overrides or zero-width characters show as ⟨U+…⟩ marks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.campaign import export
from reljudge.campaign import judging
from reljudge.ui import webapp
from reljudge.errors import InputError
from reljudge.ui import navigation

ROOT = Path(__file__).resolve().parents[1]
LEAD_PAGES = [f"screens/{name}.py" for name, _, _ in navigation.LEAD_PAGES]

RLO, ZWSP = "\u202e", "\u200b"
EVIL = "evil.example"
PID = f"p1`![pid](http://{EVIL}/pid.png)`"
QID = f"q1<img/src=//{EVIL}/q.png>"
SYSTEM = f"![s](http://{EVIL}/s.png)"
SOURCE = f"[src](http://{EVIL}/src)"
ANN, BOB = f"ann@{EVIL}", "__bob__"


def hostile(what: str) -> str:
    return (
        f"{RLO}live {what} [l](http://{EVIL}/{what}) ![i](http://{EVIL}/{what}.png) "
        f"<img src=http://{EVIL}/{what}.h.png> **b** $x^2$ :red[r]{ZWSP} `c`"
    )


# what must never reach a Markdown source unescaped
RAW_MARKERS = ["](", "<img", ":red[", "$x", "__bob__", "**b**", f"@{EVIL}", "`![", "`c`"]
OUR_TAGS = {"p", "strong", "em", "code", "br"}


@pytest.fixture
def hostile_db(tmp_path, monkeypatch):
    path = tmp_path / "hostile.duckdb"
    monkeypatch.setenv("RELJUDGE_DB", str(path))
    from reljudge.storage import open_database

    first = open_database(path)
    auth.add_user(first, "lead", "lead-password", "lead")  # not brand new: no demo
    first.close()
    from reljudge.ui.session import get_db

    db = get_db()  # the app's own connection
    auth.add_user(db, ANN, "password-ann", "annotator")
    auth.add_user(db, BOB, "password-bob", "annotator")
    folder = tmp_path / "in"
    folder.mkdir()
    corpus = folder / "corpus.jsonl"
    corpus.write_text(
        "".join(
            json.dumps(r, ensure_ascii=False) + "\n"
            for r in [
                {"pid": PID, "text": hostile("para1"), "title": hostile("title")},
                {"pid": "p2", "text": hostile("para2")},
                {"pid": "p3", "text": "평범한 문단"},
            ]
        ),
        encoding="utf-8",
    )
    questions = folder / "questions.jsonl"
    questions.write_text(
        json.dumps(
            {"qid": QID, "text": hostile("question"), "type": "**t**", "criteria": hostile("criteria")},
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    run = folder / "run.jsonl"
    run.write_text(
        "".join(json.dumps({"qid": QID, "pid": p, "rank": k}) + "\n" for k, p in enumerate([PID, "p2", "p3"], 1)),
        encoding="utf-8",
    )
    campaign.import_file(db, "corpus", corpus)
    campaign.declare_types(db, ["**t**"])  # a declared type, shown as text
    campaign.import_file(db, "questions", questions)
    campaign.import_file(db, "run", run, system=SYSTEM)
    campaign.pool(db, 10)
    qrels = folder / "other.qrels"
    qrels.write_text(f"{QID} 0 {PID} 2\n", encoding="utf-8")
    export.import_qrels(db, qrels, SOURCE)
    judging.grade(db, ANN, QID, PID, 2, note=hostile("note-ann"), evidence=hostile("evidence"))
    judging.grade(db, BOB, QID, PID, 0, note=hostile("note-bob"))
    judging.grade(db, ANN, QID, "p2", 1)
    judging.mark_no_answer(db, ANN, QID, True, note=hostile("verdict-note"))
    judging.mark_no_answer(db, BOB, QID, False)
    return db


def _login(page: str) -> AppTest:
    at = AppTest.from_file(str(webapp.SCRIPT), default_timeout=60).run()
    at.text_input(key="login_username").input("lead")
    at.text_input(key="login_password").input("lead-password")
    at.button[0].click().run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def _markdown_sources(at: AppTest) -> list[str]:
    out = []
    for kind in ("markdown", "caption", "info", "success", "warning", "error", "title", "subheader", "header"):
        out += [e.value for e in getattr(at, kind)]
    for kind in ("selectbox", "multiselect", "text_input", "checkbox", "radio", "button", "expander"):
        out += [getattr(e, "label", "") or "" for e in getattr(at, kind)]
    return out


def _plain_values(at: AppTest) -> list[str]:
    """Everything shown as text: st.text, option labels, table cells."""
    out = [e.value for e in at.text]
    for kind in ("selectbox", "multiselect"):
        for e in getattr(at, kind):
            out += [str(o) for o in e.options]
    for d in at.dataframe:
        frame = d.value.data if hasattr(d.value, "data") else d.value
        out += [str(v) for v in pd.DataFrame(frame).astype(str).to_numpy().ravel()]
    return out


def _check(at: AppTest) -> None:
    render = MarkdownIt("commonmark")
    for src in _markdown_sources(at):
        bare = re.sub(r"\\[!-~]", "", src)  # what is left once escaped characters are out
        for marker in RAW_MARKERS:
            assert marker not in bare, f"unescaped {marker!r} in {src!r}"
        html = render.render(src)
        tags = set(re.findall(r"<([a-zA-Z0-9]+)", html))
        assert tags <= OUR_TAGS, f"{tags - OUR_TAGS} rendered from {src!r}"
        assert not re.search(r"<[^>]*\s(href|src)=", html), html
        assert RLO not in src and ZWSP not in src
    for value in _plain_values(at):
        assert RLO not in value and ZWSP not in value, f"invisible character shown raw in {value!r}"


@pytest.mark.parametrize("page", LEAD_PAGES)
def test_hostile_data_renders_as_text_on_every_lead_page(hostile_db, page):
    at = _login(page)
    _check(at)


def test_adjudication_page_shows_the_hostile_item_as_text(hostile_db):
    at = _login("screens/adjudicate.py")
    texts = [t.value for t in at.text]
    assert any(t.startswith("⟨U+202E⟩live question") for t in texts)  # the question, marked
    assert any("⟨U+200B⟩" in t and "note-bob" in t for t in texts)  # a note
    pid_line = next(m.value for m in at.markdown if m.value.startswith("**문단**"))
    # the id stays readable once rendered: the escaped Markdown shows it literally
    assert re.sub(r"<[^>]+>", "", MarkdownIt("commonmark").render(pid_line)).strip() == (
        "문단 " + PID.replace("<", "&lt;").replace(">", "&gt;")
    )
    form = at.get("form")[0]
    form.radio[0].set_value(2)
    form.text_input[0].input("근거")
    form.button[0].click().run()
    assert not at.exception and at.success
    _check(at)  # the confirmation names the hostile ids


def test_error_messages_with_hostile_names_are_text(hostile_db, tmp_path):
    at = _login("screens/users.py")
    form = at.get("form")[0]
    form.text_input[0].input(f"[x](http://{EVIL})")
    form.text_input[1].input("long-password-1")
    form.button[0].click().run()
    assert at.error
    _check(at)
    at = _login("screens/import_data.py")
    at.selectbox(key="import_kind").select("run").run()
    form = at.get("form")[0]
    form.file_uploader[0].set_value(
        (f"![f](http:{EVIL}).jsonl", json.dumps({"qid": QID, "pid": "p2", "rank": 1}).encode(), "application/json")
    )
    form.text_input[0].input(SYSTEM)
    form.button[0].click().run()
    assert "--replace" in at.error[0].value  # the system exists
    _check(at)


@pytest.mark.parametrize(
    "record,problem",
    [
        ({"pid": "p\u202e1", "text": "t"}, "pid contains the invisible or control character U+202E"),
        ({"pid": "p\u200b1", "text": "t"}, "pid contains the invisible or control character U+200B"),
        ({"pid": "p\u00001", "text": "t"}, "pid: NUL character (U+0000) is not allowed"),  # one rule for NUL
        ({"pid": "p\ufeff1", "text": "t"}, "U+FEFF"),
    ],
)
def test_ids_with_invisible_or_control_characters_are_refused(db, tmp_path, record, problem):
    f = tmp_path / "c.jsonl"
    f.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=re.escape(problem)):
        campaign.import_file(db, "corpus", f)


def test_run_ids_and_system_names_with_control_characters_are_refused(db, files, tmp_path):
    campaign.import_file(db, "corpus", files["corpus"])
    campaign.import_file(db, "questions", files["questions"])
    trec = tmp_path / "r.trec"
    trec.write_text("q1 Q0 p01 1 1.0 bm\u202e25\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1: system name contains .* U\\+202E"):
        campaign.import_file(db, "run", trec)
    trec.write_text("q1 Q0 p01 1 1.0 bm25\nq1 Q0 p0\u200b2 2 0.5 bm25\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2: pid contains .* U\\+200B"):
        campaign.import_file(db, "run", trec)
    trec.write_text("q1 Q0 p01 1 1.0 x\n", encoding="utf-8")
    with pytest.raises(InputError, match="system name contains .* U\\+2066"):
        campaign.import_file(db, "run", trec, system="bm\u206625")
    assert campaign.counts(db)["systems"] == 0


def test_text_shows_invisible_characters_as_marks():
    from reljudge import display

    assert display.visible(f"{RLO}evil") == "⟨U+202E⟩evil"
    assert display.visible("줄\n바꿈\t탭") == "줄\n바꿈\t탭"
    assert display.visible(f"a{ZWSP}b\x07c\u2028d") == "a⟨U+200B⟩b⟨U+0007⟩c⟨U+2028⟩d"
    assert display.visible(None) is None and display.visible(3) == 3
    payload = {
        "qid": "q1",
        "question": {"text": f"{RLO}q", "type": "t", "criteria": f"c{ZWSP}"},
        "items": [
            {
                "pid": "p1",
                "text": f"t{ZWSP}",
                "source": f"{RLO}s",
                "prev": None,
                "next": f"n{RLO}",
                "grade": 2,
                "note": f"mine{RLO}",
            }
        ],
    }
    assert display.visible_payload(payload) == {
        "qid": "q1",
        "question": {"text": "⟨U+202E⟩q", "type": "t", "criteria": "c⟨U+200B⟩"},
        "items": [
            {
                "pid": "p1",
                "text": "t⟨U+200B⟩",
                "source": "⟨U+202E⟩s",
                "prev": None,
                "next": "n⟨U+202E⟩",
                "grade": 2,
                "note": f"mine{RLO}",
            }
        ],
    }


def test_report_escapes_and_marks_hostile_text(hostile_db):
    from reljudge.campaign import adjudication
    from reljudge.reporting import report

    # answerable, nothing citable: a failure case that shows the question and the first paragraph
    adjudication.adjudicate_verdict(hostile_db, "lead", QID, False, "답이 있음")
    adjudication.adjudicate(hostile_db, "lead", QID, PID, 0, "인용 불가")
    data = report.build(hostile_db, n_boot=0)
    md = report.render(data, "md")
    html = report.render(data, "html")
    assert RLO not in md and RLO not in html and ZWSP not in md and "⟨U+202E⟩live" in md
    bare = re.sub(r"\\[!-~]", "", md)
    assert "](" not in bare and "<img" not in bare
    rendered = MarkdownIt("commonmark").enable("table").render(md)
    assert not re.search(r"<(a|img)\b", rendered) and "<img" not in html
    assert not re.search(r"<[^>]*\s(href|src)=[\"']?(http:)?//" + re.escape(EVIL), html)


def test_dashboard_caption_names_a_hostile_qrels_source_as_text(hostile_db):
    at = _login("screens/dashboard.py")
    assert any("src" in o for o in at.selectbox[2].options)  # the qrels choice
    at.selectbox[2].set_value(("source:" + SOURCE, None)).run()
    assert not at.exception
    assert any("evil.example" in c.value for c in at.caption)
    _check(at)
