"""Altair charts shared by the pages and the HTML report (no Streamlit here)."""

from __future__ import annotations

import altair as alt
import pandas as pd


HEATMAP_CELL_PX = 64


def heatmap(matrix: pd.DataFrame, title: str) -> alt.Chart:
    """Annotator × annotator heat map of a square DataFrame (NaN cells left blank), with
    square cells of HEATMAP_CELL_PX (stretched to the page width, two annotators gave
    flat slivers)."""
    long = matrix.rename_axis("a").reset_index().melt(id_vars="a", var_name="b", value_name="value").dropna()
    base = alt.Chart(long, title=title).encode(x=alt.X("b:N", title=None), y=alt.Y("a:N", title=None))
    cells = base.mark_rect().encode(
        color=alt.Color("value:Q", scale=alt.Scale(domain=[-1, 1], scheme="redblue"), title="κ"),
        tooltip=["a", "b", alt.Tooltip("value:Q", format=".3f")],
    )
    labels = base.mark_text().encode(text=alt.Text("value:Q", format=".2f"))
    # Sized per cell (a step), not as a whole: Streamlit draws fixed pixel sizes of a
    # layered chart at "content" width as a collapsed strip (seen in the browser).
    return (cells + labels).properties(width=alt.Step(HEATMAP_CELL_PX), height=alt.Step(HEATMAP_CELL_PX))


def means_with_intervals(frame: pd.DataFrame, measure: str) -> alt.Chart:
    """Bars of a mean per system, one panel per question type, with 95% interval whiskers."""
    base = alt.Chart(frame).encode(x=alt.X("system:N", title=None))
    bars = base.mark_bar().encode(
        y=alt.Y("mean:Q", title=measure, scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("system:N", legend=None),
        tooltip=[
            "system",
            "qtype",
            "n",
            alt.Tooltip("mean:Q", format=".3f"),
            alt.Tooltip("ci_low:Q", format=".3f"),
            alt.Tooltip("ci_high:Q", format=".3f"),
        ],
    )
    whiskers = base.mark_rule().encode(y="ci_low:Q", y2="ci_high:Q")
    return (bars + whiskers).properties(width=140, height=180).facet(column=alt.Column("qtype:N", title=None))


def values_with_bounds(frame: pd.DataFrame, measure: str, overall: str) -> alt.Chart:
    """Each system's value of one measure (a dot) with its bounds (a bar from the lowest
    to the highest value the unjudged pooled paragraphs still allow; a settled value is a
    dot on a line), one panel per question type, ``overall`` (the localized 'all') first.
    ``frame``: system, qtype, n, mean, bound_low, bound_high, ci_low, ci_high and
    ``state`` (settled or not, in the reader's words)."""
    types = [overall] + sorted(t for t in set(frame.qtype) if t != overall)
    tooltip = [
        "system",
        "qtype",
        "n",
        "state",
        alt.Tooltip("mean:Q", format=".3f"),
        alt.Tooltip("bound_low:Q", format=".3f"),
        alt.Tooltip("bound_high:Q", format=".3f"),
        alt.Tooltip("ci_low:Q", format=".3f"),
        alt.Tooltip("ci_high:Q", format=".3f"),
    ]
    base = alt.Chart(frame).encode(
        x=alt.X("system:N", title=None), color=alt.Color("system:N", legend=None), tooltip=tooltip
    )
    scale = alt.Scale(domain=[0, 1])
    span = base.mark_bar(opacity=0.35, size=18).encode(
        y=alt.Y("bound_low:Q", title=measure, scale=scale), y2="bound_high:Q"
    )
    tick = base.mark_tick(thickness=2, size=22).encode(y=alt.Y("bound_low:Q", scale=scale))
    top = base.mark_tick(thickness=2, size=22).encode(y=alt.Y("bound_high:Q", scale=scale))
    dot = base.mark_point(filled=True, size=70, opacity=1).encode(y=alt.Y("mean:Q", scale=scale))
    return (
        (span + tick + top + dot)
        .properties(width=160, height=200)
        .facet(column=alt.Column("qtype:N", title=None, sort=types))
    )
