"""The import and audit pages (AppTest, real DuckDB file with the demo): a lone surrogate
is a message, not a traceback; replacing a run needs the checkbox and states the pool
change; the audit page shows which wording of a question was judged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_support import lead_on

from reljudge.campaign import setup as campaign
from reljudge.campaign import judging

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def app_db(tmp_path, monkeypatch):
    monkeypatch.setenv("RELJUDGE_DB", str(tmp_path / "app.duckdb"))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")  # as `reljudge serve` on the default file


def _shown(markdown: str) -> str:
    """What a Markdown alert shows: its backslash escapes resolved."""
    return re.sub(r"\\([!-~])", r"\1", markdown)


def _db():
    from reljudge.ui.session import get_db

    return get_db()


def _lead_on(page: str) -> AppTest:
    return lead_on(page)


def _upload(at: AppTest, kind: str, name: str, data: bytes, system: str = "", replace: bool = False):
    at.selectbox(key="import_kind").select(kind).run()  # the form shows this kind's options
    form = at.get("form")[0]
    form.file_uploader[0].set_value((name, data, "application/octet-stream"))
    if system:
        form.text_input[0].input(system)
    if replace:
        form.checkbox(key=f"import_replace_{kind}").check()
    form.button[0].click().run()
    return at


def test_lone_surrogate_upload_is_a_message_not_a_traceback(app_db):
    at = _lead_on("screens/import_data.py")
    before = campaign.counts(_db())
    _upload(at, "corpus", "문단.jsonl", b'{"pid":"z1","text":"ok"}\n{"pid":"z2","text":"a\\ud800b"}\n')
    assert not at.exception
    assert _shown(at.error[0].value).startswith(
        "가져오지 못했습니다 (아무것도 저장되지 않음): 문단.jsonl, 2번째 줄: text: 짝이 없는 서로게이트 이스케이프 \\ud800"
    )
    assert campaign.counts(_db()) == before


def test_unterminated_quote_upload_is_refused_in_the_app(app_db):
    at = _lead_on("screens/import_data.py")
    _upload(at, "corpus", "c.csv", b'pid,text\nz1,"abc\nz2,def\n')
    assert not at.exception and "c.csv, 2번째 줄: 따옴표로 감싼 칸이 여기서 시작하는데" in _shown(at.error[0].value)


def test_replacing_a_run_needs_the_checkbox_and_states_the_pool_change(app_db):
    at = _lead_on("screens/import_data.py")
    db = _db()
    pool_before = db.cursor().execute("SELECT count(*) FROM pool").fetchall()[0][0]
    small = b"q01 Q0 p0045 1 16.1 bm25\nq02 Q0 p0001 1 3.0 bm25\n"
    _upload(at, "run", "bm25-small.trec", small)
    assert not at.exception
    error = _shown(at.error[0].value)
    assert "시스템 'bm25'에는 이미 run이 있습니다" in error and "의 480줄" in error and "--replace" in error
    assert db.cursor().execute("SELECT count(*) FROM run_entries WHERE system = 'bm25'").fetchall()[0][0] == 480
    _upload(at, "run", "bm25-small.trec", small, replace=True)
    assert not at.exception and not at.error
    pool_after = db.cursor().execute("SELECT count(*) FROM pool").fetchall()[0][0]
    message = _shown(at.success[0].value)
    assert "시스템 bm25의 이전 run(480줄" in message and "버전 1로 보관" in message
    assert f"항목 {pool_before}개 → {pool_after}개" in message and pool_after < pool_before
    replaced = next(d.value for d in at.dataframe if "replaced_by" in d.value.columns)
    assert list(replaced.system) == ["bm25"] and list(replaced.n_rows) == [480]


def test_audit_page_shows_which_wording_was_judged(app_db, tmp_path):
    _lead_on("screens/import_data.py")
    db = _db()
    pid = judging.payload(db, "annotator1", "q01")["items"][0]["pid"]
    judging.grade(db, "annotator1", "q01", pid, 2)
    f = tmp_path / "q.jsonl"
    f.write_text(json.dumps({"qid": "q01", "text": "고친 질문"}, ensure_ascii=False) + "\n", encoding="utf-8")
    campaign.import_file(db, "questions", f, update_questions=True)
    judging.grade(db, "annotator1", "q01", pid, 1)
    at = _lead_on("screens/audit.py")
    at.selectbox[0].select("q01").run()
    wordings = next(d.value for d in at.dataframe if "valid_from" in d.value.columns)
    assert list(wordings.text) == ["강연자는 감사 생활의 첫걸음으로 무엇을 하라고 권했는가?", "고친 질문"]
    assert list(wordings.judgment_events) == [1, 1]
    assert list(wordings.qtype) == ["사실 확인", "사실 확인"]  # not blanked by the shorter file
