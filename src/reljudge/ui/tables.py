"""Tables on the pages: headers in the user's language, provisional rows shaded."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from reljudge import i18n
from reljudge.ui import session

_PROVISIONAL = "background-color: rgba(255, 193, 7, 0.18); font-style: italic"
MISSING = "—"
# Styling is per cell in Python; beyond this a table is shown unstyled (and fast).
_STYLE_MAX_CELLS = 100_000


def _short_float(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return str(value)


def _three_decimals(value) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def show_missing_as_dash(data, float_format=_short_float):
    """Empty cells read "—": st.dataframe writes the English word "None" in them."""
    frame = data.data if isinstance(data, Styler) else data
    if frame.empty or frame.size > _STYLE_MAX_CELLS:
        return data
    cols = [c for c in frame.columns if frame[c].isna().any()]
    if not cols:
        return data
    styler = data if isinstance(data, Styler) else frame.style
    return styler.format(float_format, subset=cols, na_rep=MISSING)


def mark_provisional(table: pd.DataFrame):
    """Shade the rows whose Judged@K is too low for the figures to be final."""
    if table.empty or "provisional" not in table.columns:
        return table
    styled = table.style.apply(
        lambda row: [_PROVISIONAL if row["provisional"] else ""] * len(row), axis=1
    ).format(precision=3)
    return show_missing_as_dash(styled, _three_decimals)


def dataframe(data, *, hide_index: bool = True, **kwargs):
    """``st.dataframe`` with translated headers (the data keeps its column names) and
    "—" in empty cells."""
    frame = data.data if isinstance(data, Styler) else data
    if not isinstance(data, Styler):          # a styled table formats its own cells
        data = show_missing_as_dash(data)
    lang = session.lang()
    labels = {str(c): i18n.column_label(str(c), lang) for c in frame.columns}
    config = {c: label for c, label in labels.items() if label != c}
    kwargs.setdefault("width", "stretch")
    return st.dataframe(data, hide_index=hide_index, column_config=config, **kwargs)
