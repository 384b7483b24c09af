"""Tables on the pages: headers in the user's language, and a CSV
download under every table (st.dataframe draws on a canvas: its cells cannot be selected
and copied into a document or a spreadsheet)."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from reljudge.storage import catalog
from reljudge import display, i18n, times
from reljudge.campaign.export import defuse_formulas
from reljudge.ui import session

#: how a provisional figure is shaded (the dashboard: reljudge.ui.dashboard_view)
PROVISIONAL_STYLE = "background-color: rgba(255, 193, 7, 0.18); font-style: italic"
MISSING = "—"  # st.dataframe writes the English word "None" in empty cells otherwise


def localized(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its English data values in the user's language (booleans stay:
    st.dataframe draws them as check boxes), its time stamps as ISO 8601 in the
    campaign's zone (reljudge.times) and invisible characters in its text shown as marks
    (display.visible)."""
    return visible(
        times.localize_frame(i18n.localized_values(frame, session.lang()), catalog.campaign_zone(session.get_db()))
    )


def visible(frame: pd.DataFrame) -> pd.DataFrame:
    """Text cells with invisible and control characters shown as ⟨U+…⟩ marks."""
    text_cols = [c for c in frame.columns if frame[c].dtype == object or pd.api.types.is_string_dtype(frame[c].dtype)]
    if not text_cols:
        return frame
    frame = frame.copy()
    for c in text_cols:
        frame[c] = frame[c].map(display.visible)
    return frame


def csv_bytes(frame: pd.DataFrame, lang: str, *, index: bool = False) -> bytes:
    """``frame`` as the page shows it, in CSV: translated headers and values, yes/no for
    booleans, "—" in empty cells; UTF-8 with a byte-order mark, so that spreadsheet
    programs read the Korean; cells that a spreadsheet would run as formulas defused
    (:func:`reljudge.campaign.export.defuse_formulas`)."""
    shown = defuse_formulas(i18n.localized_values(frame, lang, booleans=True))
    shown = shown.rename(columns={c: i18n.column_label(str(c), lang) for c in shown.columns})
    return shown.to_csv(index=index, na_rep=MISSING).encode("utf-8-sig")


def csv_download(frame: pd.DataFrame, name: str, *, index: bool = False):
    """A small "CSV" button that builds the file only when clicked (a deferred ``data``
    callable: nothing is serialised on a rerun). ``name`` names the file and keys the
    button, so it must be unique on its page."""
    lang = session.lang()
    return st.download_button(
        session.t("download_csv"),
        lambda: csv_bytes(frame, lang, index=index),
        file_name=f"{name}.csv",
        mime="text/csv",
        key=f"csv_{name}",
        type="tertiary",
        icon=":material/download:",
        on_click="ignore",
    )


def dataframe(data, *, name: str, hide_index: bool = True, **kwargs):
    """``st.dataframe`` with translated headers (the data keeps its column names), "—" in
    empty cells, and its CSV download (:func:`csv_download`, file ``name``.csv)."""
    frame = data.data if isinstance(data, Styler) else data
    if isinstance(frame, pd.DataFrame) and frame.empty:
        # st.dataframe draws an empty table with the English word "empty" on its canvas
        st.caption(session.t("table_empty"))
        return None
    if isinstance(data, pd.DataFrame):
        data = localized(data)
        frame = data
    lang = session.lang()
    labels = {str(c): i18n.column_label(str(c), lang) for c in frame.columns}
    config = {c: label for c, label in labels.items() if label != c}
    kwargs.setdefault("width", "stretch")
    kwargs.setdefault("placeholder", MISSING)
    shown = st.dataframe(data, hide_index=hide_index, column_config=config, **kwargs)
    csv_download(frame, name, index=not hide_index)
    return shown
