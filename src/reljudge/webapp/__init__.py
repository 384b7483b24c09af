"""The web app as it ships in the package: the Streamlit script (workbench.py), one file
per screen (screens/ — not "pages/": Streamlit would treat such a folder as a legacy
multipage app and show its raw file list before the login form), the Streamlit settings (.streamlit/config.toml) and the server
launcher (app.py: ``st.App`` = the pages + the JSON routes of reljudge.api).

``streamlit run app.py`` in a checkout and ``reljudge serve`` from any install both
serve these files, so an installed wheel needs no checkout.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "workbench.py"      # the Streamlit script
LAUNCHER = HERE / "app.py"          # `streamlit run` this: the st.App with the routes
