"""Helpers for the AppTest suites (Streamlit's in-process app tester)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

from reljudge.ui import webapp

_demo_file: Path | None = None


def copy_demo(path) -> Path:
    """Put a DuckDB file holding the bundled demo campaign (its accounts too) at ``path``:
    a copy of one built once per test process. The app then finds a campaign and loads no
    demo of its own (reljudge.campaign.setup.ensure_demo: only into a brand-new database);
    loading it cost each AppTest about a second on two busy cores. The tests of that first
    start open an empty file instead (tests/test_import.py)."""
    global _demo_file
    if _demo_file is None:
        from reljudge.campaign import setup as campaign
        from reljudge.storage import open_database

        folder = Path(tempfile.mkdtemp(prefix="rj-demo-"))
        atexit.register(shutil.rmtree, folder, True)
        db = open_database(folder / "demo.duckdb")
        campaign.load_demo(db)
        db.close()  # checkpointed: the copy is the whole campaign, no log beside it
        _demo_file = folder / "demo.duckdb"
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(_demo_file, path)
    return path


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
    copy_demo(path)
    monkeypatch.setenv("RELJUDGE_DB", str(path))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")
    app = AppTest.from_file(str(webapp.HERE / "workbench.py"), default_timeout=120)
    app.run()
    from reljudge.ui.session import get_db

    return app, get_db()
