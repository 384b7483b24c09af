"""reljudge's web server as installed: ``streamlit run`` this file (``reljudge serve``
does). The same st.App as the checkout's top-level app.py."""

import streamlit as st

from reljudge.web import routes as api
from reljudge.ui import webapp

app = st.App(webapp.SCRIPT, routes=api.routes(), lifespan=api.lifespan)
