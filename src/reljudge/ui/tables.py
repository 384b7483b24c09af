"""Tables on the pages: headers in the user's language, provisional rows shaded."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from reljudge import display, i18n
from reljudge.ui import session

_PROVISIONAL = "background-color: rgba(255, 193, 7, 0.18); font-style: italic"
MISSING = "—"   # st.dataframe writes the English word "None" in empty cells otherwise


def localized(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its English data values in the user's language (booleans stay:
    st.dataframe draws them as check boxes) and invisible characters in its text shown
    as marks (display.visible)."""
    return visible(i18n.localized_values(frame, session.lang()))


def visible(frame: pd.DataFrame) -> pd.DataFrame:
    """Text cells with invisible and control characters shown as ⟨U+…⟩ marks."""
    text_cols = [c for c in frame.columns
                 if frame[c].dtype == object or pd.api.types.is_string_dtype(frame[c].dtype)]
    if not text_cols:
        return frame
    frame = frame.copy()
    for c in text_cols:
        frame[c] = frame[c].map(display.visible)
    return frame


def mark_provisional(table: pd.DataFrame):
    """Shade the rows marked provisional (too little of the returned top K judged)."""
    if table.empty or "provisional" not in table.columns:
        return table
    return localized(table).style.apply(
        lambda row: [_PROVISIONAL if row["provisional"] else ""] * len(row), axis=1
    ).format(precision=3, na_rep=MISSING)


def dataframe(data, *, hide_index: bool = True, **kwargs):
    """``st.dataframe`` with translated headers (the data keeps its column names) and
    "—" in empty cells."""
    if isinstance(data, pd.DataFrame):
        data = localized(data)
    frame = data.data if isinstance(data, Styler) else data
    lang = session.lang()
    labels = {str(c): i18n.column_label(str(c), lang) for c in frame.columns}
    config = {c: label for c, label in labels.items() if label != c}
    kwargs.setdefault("width", "stretch")
    kwargs.setdefault("placeholder", MISSING)
    return st.dataframe(data, hide_index=hide_index, column_config=config, **kwargs)
