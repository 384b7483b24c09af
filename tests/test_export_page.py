"""The export page builds a download only when it is asked for (issue 13, item 14): a
render of the page must not serialise the qrels, the judgment history or the
adjudications (8.8 s per render on a 50,000-event campaign)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from reljudge.campaign import auth
from reljudge.campaign import export
from reljudge.campaign import judging
from reljudge.ui import webapp


@pytest.fixture
def lead_token(campaign_db, db_path, monkeypatch):
    judging.grade(campaign_db, "ann", "q1", "p02", 2, ms=1000)
    judging.grade(campaign_db, "bob", "q1", "p02", 1, ms=1000)
    judging.mark_no_answer(campaign_db, "ann", "q3")
    token = auth.start_session(campaign_db, auth.authenticate(campaign_db, "lee", "password-lee"))
    campaign_db.close()
    monkeypatch.setenv("RELJUDGE_DB", str(db_path))
    monkeypatch.delenv("RELJUDGE_DEMO", raising=False)
    return token


def test_rendering_the_export_page_builds_no_download(lead_token, monkeypatch):
    built = []
    for name in ("qrels_bytes", "judgments_bytes", "adjudications_bytes", "write_qrels"):
        original = getattr(export, name)
        monkeypatch.setattr(export, name, lambda *a, _f=original, _n=name, **k: built.append(_n) or _f(*a, **k))
    at = AppTest.from_file(str(webapp.HERE / "screens" / "export.py"), default_timeout=60)
    at.session_state["token"] = lead_token
    at.run()
    assert not at.exception and not at.error
    at.selectbox[1].select("jsonl").run()  # another format: a rerun
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert "qrels 내려받기" in labels and "판정 기록 전체 내려받기 (JSONL)" in labels
    assert "답변 검수 기록 내려받기 (JSONL)" in labels  # `export reviews` while the app runs
    assert built == []


def test_each_download_builds_the_file_it_names(db_path, campaign_db):
    judging.grade(campaign_db, "ann", "q1", "p02", 2, ms=1000)
    judging.mark_no_answer(campaign_db, "ann", "q3")
    files = {d.key: d for d in export.downloads(campaign_db, "beir", "adjudicated", None, None)}
    assert list(files) == ["qrels", "no_answer", "judgments", "adjudications"]
    qrels, no_answer = export.qrels_bytes(campaign_db, "beir")
    assert (files["qrels"].file_name, files["no_answer"].file_name) == ("qrels.tsv", "qrels.no_answer.tsv")
    assert files["qrels"].build() == qrels and files["no_answer"].build() == no_answer
    assert files["judgments"].build() == export.judgments_bytes(campaign_db)
    assert files["adjudications"].build() == export.adjudications_bytes(campaign_db)
    assert b"q1\tp02\t2" in qrels
