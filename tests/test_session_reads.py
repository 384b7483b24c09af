"""A full run of the app reads the login session once (the script, the page's role check
and the judging fragment inside it each ask), and a deactivation still takes effect at
the next run: the read is not kept beyond the run."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from reljudge.campaign import auth
from reljudge.ui import webapp
from test_app_pages import _token, app_db  # noqa: F401  (app_db: the fixture)


def _count_session_reads(monkeypatch) -> list:
    calls: list = []
    real = auth.user_for_token

    def counting(db, token):
        calls.append(token)
        return real(db, token)

    monkeypatch.setattr(auth, "user_for_token", counting)
    return calls


@pytest.mark.usefixtures("app_db")
def test_one_session_read_per_run(monkeypatch):
    AppTest.from_file(str(webapp.SCRIPT), default_timeout=60).run()  # the database and its demo
    token = _token("annotator1", "demo-pass1")
    at = AppTest.from_file(str(webapp.SCRIPT), default_timeout=60)
    at.session_state["token"] = token
    at.run()  # / leads to /judge
    calls = _count_session_reads(monkeypatch)
    at.run()  # the judging page again: one run
    assert not at.exception
    assert at.title[0].value == "근거 판정" and "rj_judge" in [getattr(e, "key", None) for e in at.main]
    assert len(calls) == 1

    # the next run reads it again: an account deactivated meanwhile is logged out at once
    from reljudge.ui.session import get_db

    auth.set_active(get_db(), "annotator1", False)
    calls.clear()
    at.run()
    assert len(calls) >= 1
    assert [t.label for t in at.text_input][:2] == ["사용자 이름", "비밀번호"]
