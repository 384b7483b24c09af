"""Where the web app's files are, in a checkout and in an installed wheel alike (this
module imports nothing, so the CLI can find them without Streamlit):

- ``workbench.py`` (here): the Streamlit script — login, then the screens the user's role may see;
- ``screens/`` (here): a link to the repository's ``pages/``, one thin file per screen, so
  that the wheel carries them (the folder is not named ``pages/`` next to the script:
  Streamlit would treat it as a legacy multipage app and show its raw file list before
  the login form);
- ``.streamlit/config.toml`` (here): a link to the repository's Streamlit settings;
- ``launcher.py`` (here): the ``st.App`` — the screens plus the JSON routes of
  reljudge.web.routes; ``reljudge serve`` runs it, ``streamlit run app.py`` runs the same st.App.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "workbench.py"  # the Streamlit script
LAUNCHER = HERE / "launcher.py"  # `streamlit run` this: the st.App with the routes
