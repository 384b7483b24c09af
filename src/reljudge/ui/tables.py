"""Table styling for the pages."""

from __future__ import annotations

import pandas as pd

_PROVISIONAL = "background-color: rgba(255, 193, 7, 0.18); font-style: italic"


def mark_provisional(table: pd.DataFrame):
    """Shade the rows whose Judged@K is too low for the figures to be final."""
    if table.empty or "provisional" not in table.columns:
        return table
    return table.style.apply(
        lambda row: [_PROVISIONAL if row["provisional"] else ""] * len(row), axis=1
    ).format(precision=3)
