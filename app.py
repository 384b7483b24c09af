"""reljudge — the web server: the Streamlit pages (src/reljudge/ui/workbench.py) and,
beside them, the small JSON routes that take saves off the rerun path (reljudge.web.routes).

Start it with ``streamlit run app.py`` (or ``reljudge serve``): Streamlit finds the
``st.App`` below and serves both from one process.
"""

import streamlit as st

from reljudge.web import routes as api
from reljudge.ui import webapp

app = st.App(webapp.SCRIPT, routes=api.routes(), lifespan=api.lifespan)
