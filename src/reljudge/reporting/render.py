"""The one renderer of the report's tables, with escaping: Markdown cells escaped as the
pages escape them (display.md), HTML cells through html.escape, invisible characters shown
as marks (display.visible). The report and its answer-review section both use it."""

from __future__ import annotations

import html

import pandas as pd

from reljudge import display, i18n

P_COLUMNS = ("p_value", "p_holm")  # printed by i18n.p_text: "< 0.001", never "0.000"


def fmt_cell(v, column: str = "") -> str:
    if column in P_COLUMNS and isinstance(v, float):
        return i18n.p_text(v)
    if v is None or (isinstance(v, float) and v != v) or v is pd.NA:
        return "—"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def md_cell(v, column: str = "") -> str:
    # Corpus text must stay plain text: escape what Markdown would interpret, and show
    # invisible characters (display.md, the rule the pages use too).
    return display.md(fmt_cell(v, column).replace("\r\n", " ").replace("\n", " ").replace("\r", " "))


def md_table(frame: pd.DataFrame, lang: str = "en") -> str:
    if frame is None or frame.empty:
        return "_—_\n"
    cols = [i18n.column_label(str(c), lang) for c in frame.columns]
    lines = ["| " + " | ".join(str(c).replace("|", "/") for c in cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(md_cell(v, str(c)) for c, v in zip(frame.columns, row)) + " |")
    return "\n".join(lines) + "\n"


def html_table(frame: pd.DataFrame, lang: str = "en") -> str:
    if frame is None or frame.empty:
        return "<p>—</p>"
    head = "".join(f"<th>{html.escape(i18n.column_label(str(c), lang))}</th>" for c in frame.columns)
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{html.escape(display.visible(fmt_cell(v, str(c))))}</td>" for c, v in zip(frame.columns, row))
        + "</tr>"
        for row in frame.itertuples(index=False)
    )
    # A key/value table (the setup) has no column names: no empty header row.
    thead = f"<thead><tr>{head}</tr></thead>" if any(str(c) for c in frame.columns) else ""
    return f"<div class='wide'><table>{thead}<tbody>{rows}</tbody></table></div>"
