"""Altair charts shown by the pages."""

from __future__ import annotations

import altair as alt
import pandas as pd


def heatmap(matrix: pd.DataFrame, title: str) -> alt.Chart:
    """Annotator × annotator heat map of a square DataFrame (NaN cells left blank)."""
    long = (matrix.rename_axis("a").reset_index()
            .melt(id_vars="a", var_name="b", value_name="value").dropna())
    base = alt.Chart(long, title=title).encode(
        x=alt.X("b:N", title=None), y=alt.Y("a:N", title=None))
    cells = base.mark_rect().encode(
        color=alt.Color("value:Q", scale=alt.Scale(domain=[-1, 1], scheme="redblue"), title="κ"),
        tooltip=["a", "b", alt.Tooltip("value:Q", format=".3f")])
    labels = base.mark_text().encode(text=alt.Text("value:Q", format=".2f"))
    return cells + labels
