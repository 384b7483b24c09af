"""Helpers for the AppTest suites (Streamlit's in-process app tester)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from reljudge.ui import webapp


def lead_on(page: str, username: str = "lead", password: str = "demo-lead") -> AppTest:
    """The app logged in as a lead (the demo's by default), on ``page`` (``screens/NAME.py``)."""
    at = AppTest.from_file(str(webapp.SCRIPT), default_timeout=60).run()
    at.text_input(key="login_username").input(username)
    at.text_input(key="login_password").input(password)
    at.button[0].click().run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def demo_app(path, monkeypatch):
    """The app on a new demo campaign at ``path`` (run once), and the campaign's database
    as the app holds it: (AppTest, Database)."""
    monkeypatch.setenv("RELJUDGE_DB", str(path))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")
    app = AppTest.from_file(str(webapp.HERE / "workbench.py"), default_timeout=120)
    app.run()
    from reljudge.ui.session import get_db

    return app, get_db()
