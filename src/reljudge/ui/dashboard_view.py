"""The dashboard's figures as a lead reads them (issue 35.5): one cell per measure with its
value, "확정" or "잠정" and its bounds; the plan sentence; the chart of the values with
their bounds. The library gives the data (reljudge.reporting.dashboard), this module
words and draws it."""

from __future__ import annotations

import altair as alt
import pandas as pd
from pandas.io.formats.style import Styler

from reljudge import i18n
from reljudge.reporting import charts
from reljudge.ui import session, tables

# the provisional shading, on a cell (a measure) instead of a row
_OPEN_CELL = tables.PROVISIONAL_STYLE


def _cell(value: float, low: float, high: float, settled: bool) -> str:
    """'0.833 · 확정' or '0.712 · 잠정 [0.650, 0.900]' (a value nobody has judged yet: '—')."""
    shown = tables.MISSING if value != value else f"{value:.3f}"
    if settled:
        return f"{shown} · {session.t('status_settled')}"
    if low != low or high != high:
        return f"{shown} · {session.t('status_open')}"
    return f"{shown} · {session.t('status_open')} [{low:.3f}, {high:.3f}]"


def glance(status: pd.DataFrame) -> Styler | pd.DataFrame:
    """The long table of :func:`reljudge.reporting.dashboard.measure_status` as one row per
    system × question type and one cell per measure, provisional cells shaded."""
    if status.empty:
        return status
    measures = list(dict.fromkeys(status.measure))
    cells = status.assign(
        cell=[
            _cell(v, lo, hi, s)
            for v, lo, hi, s in zip(status.value, status.bound_low, status.bound_high, status.settled)
        ]
    )
    keys = ["system", "qtype", "n"]
    wide = cells.pivot(index=keys, columns="measure", values="cell")
    settled = cells.pivot(index=keys, columns="measure", values="settled")
    # keep the library's order (overall first), which pivot sorts away
    order = list(dict.fromkeys(zip(status.system, status.qtype, status.n)))
    wide = wide.reindex(index=pd.MultiIndex.from_tuples(order, names=keys))[measures]
    settled = settled.reindex(index=wide.index)[measures]
    frame = tables.localized(wide.reset_index())
    frame.columns = [str(c) for c in frame.columns]
    flags = settled.reset_index(drop=True)

    def shade(column: pd.Series) -> list[str]:
        if column.name not in measures:
            return [""] * len(column)
        return ["" if bool(flags.loc[i, column.name]) else _OPEN_CELL for i in column.index]

    return frame.style.apply(shade, axis=0)


def _count(n: int | None) -> str:
    return tables.MISSING if n is None else f"{n:,}"


def plan_sentence(summary: dict) -> str:
    """What the current judging plan settles among the shown measures, and how many
    judgments the rest would need (:func:`reljudge.reporting.dashboard.plan_summary`), as
    Markdown in the user's language."""
    s = summary
    # the plan in the reader's words (the CLI's names, complete / rr-first, stay in English)
    then = "plan_label_then_rest" if s["rest"] else "plan_label_then_sample" if s.get("samples") else None
    name = session.t(f"plan_label_{s['plan']}") + (session.t(then) if then and s["plan"] == "rr-first" else "")
    where = session.tm("plan_where", plan=name, k=s["plan_k"], rel=s["plan_rel"])
    if not s["open"]:
        return where + " " + session.tm("plan_settles_all", n=_count(s["complete"]), judged=_count(s["judged"]))
    if s["plan_expected"] is not None:
        plan_n = session.tm("plan_about", n=_count(s["plan_expected"]))
        extra = _count(None if s["complete"] is None else max(s["complete"] - s["plan_expected"], 0))
    else:
        plan_n = f"{_count(s['plan_low'])}–{_count(s['plan_high'])}"
        extra = f"{_count(s['complete'] - s['plan_high'])}–{_count(s['complete'] - s['plan_low'])}"
    rest = session.tm(
        "plan_rest_needs",
        open=", ".join(s["open"]),
        n=_count(s["complete"]),
        plan_n=plan_n,
        extra=extra,
        judged=_count(s["judged"]),
    )
    if not s["settles"]:
        return where + " " + session.tm("plan_settles_none_here", k=s["k"], rel=s["rel"]) + " " + rest
    first = s["settles"][0]
    done, of = s["settled_now"].get(first, [0, 0])
    settles = session.tm("plan_settles", measures=", ".join(s["settles"]), first=first, done=done, of=of)
    return where + " " + settles + " " + rest


def bounds_chart(frame: pd.DataFrame, measure: str) -> alt.Chart:
    """:func:`reljudge.reporting.charts.values_with_bounds` of a chart frame
    (:func:`reljudge.reporting.dashboard.chart_frame`), its words in the user's language."""
    frame = frame.assign(
        state=[session.t("status_settled") if bool(s) else session.t("status_open") for s in frame.settled]
    ).drop(columns="settled")
    return charts.values_with_bounds(tables.localized(frame), measure, i18n.t("all", session.lang()))
