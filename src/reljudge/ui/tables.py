"""Tables on the pages: headers in the user's language, provisional rows shaded."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from reljudge import i18n
from reljudge.metrics import ALL
from reljudge.ui import session

_PROVISIONAL = "background-color: rgba(255, 193, 7, 0.18); font-style: italic"
MISSING = "—"   # st.dataframe writes the English word "None" in empty cells otherwise


def localized(frame: pd.DataFrame) -> pd.DataFrame:
    """Values the data keeps in English for the CLI and exports (the overall group
    "all", provenance, qrels policy, account roles), in the user's language."""
    if "qtype" in frame.columns and (frame["qtype"] == ALL).any():
        frame = frame.assign(qtype=frame["qtype"].replace({ALL: session.t("all")}))
    if "provenance" in frame.columns:
        frame = frame.assign(provenance=frame["provenance"].map(
            lambda v: session.t(f"provenance_{v}") if f"provenance_{v}" in i18n.STRINGS else v))
    if "policy" in frame.columns:
        frame = frame.assign(policy=frame["policy"].map(
            lambda p: session.t(f"policy_short_{p}") if f"policy_short_{p}" in i18n.STRINGS
            else i18n.qrels_label(p, None, session.lang())))
    if "role" in frame.columns:
        frame = frame.assign(role=frame["role"].map(lambda r: session.t(f"role_{r}")
                                                    if f"role_{r}" in i18n.STRINGS else r))
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
