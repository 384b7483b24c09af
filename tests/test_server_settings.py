"""The Streamlit settings the web app is served with (.streamlit/config.toml, which the
installed package links as reljudge/ui/.streamlit/config.toml)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import streamlit as st

from reljudge.ui import webapp

CONFIG = Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml"


def test_no_full_garbage_collection_after_every_script_run():
    """Streamlit collects all generations after each script run by default: with pandas,
    DuckDB and Streamlit loaded that held the GIL for 0.1-0.3 s on a busy machine, three
    times between Enter on the login form and the first judging card (bench_login.py).
    The option must exist in this Streamlit (st.get_option raises on an unknown key:
    a rename would fail here, not silently bring the pauses back)."""
    assert st.get_option("runner.postScriptGC") in (True, False)
    settings = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    assert settings["runner"]["postScriptGC"] is False
    assert (webapp.HERE / ".streamlit" / "config.toml").resolve() == CONFIG.resolve()
