"""The dashboard's figures as a lead reads them (issue 35.5): one cell per measure with its
value, "확정" or "잠정" and its bounds (under a sampling plan "추정" with the estimate and its
judging-sample interval, issue 36 §2); the plan sentence; the chart of the values with
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
# an estimated cell (a sampling plan): neither settled nor merely provisional
_ESTIMATED_CELL = "background-color: rgba(13, 110, 253, 0.12)"


def _cell(value: float, low: float, high: float, settled: bool, estimate: float | None = None, interval=None) -> str:
    """'0.833 · 확정' or '0.712 · 잠정 [0.650, 0.900]' (a value nobody has judged yet: '—');
    under a sampling plan, where sampling decides the figure, '0.612 · 추정 0.705 [0.650,
    0.760] · 범위 [0.600, 0.900]': the estimate with its judging-sample interval, then the
    bounds."""
    shown = tables.MISSING if value != value else f"{value:.3f}"
    if estimate is not None and not settled:
        lo_e, hi_e = interval
        words = f"{shown} · {session.t('status_estimated')} {estimate:.3f} [{lo_e:.3f}, {hi_e:.3f}]"
        if low != low or high != high:
            return words
        return words + f" · {session.t('status_bounds')} [{low:.3f}, {high:.3f}]"
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
    if "estimated" in status.columns:  # a sampling plan (docs/sampling.md)
        cells = status.assign(
            cell=[
                _cell(v, lo, hi, s, e if est and e == e else None, (el, eh))
                for v, lo, hi, s, e, el, eh, est in zip(
                    status.value,
                    status.bound_low,
                    status.bound_high,
                    status.settled,
                    status.estimate,
                    status.estimate_low,
                    status.estimate_high,
                    status.estimated,
                )
            ]
        )
        estimated = cells.pivot(index=["system", "qtype", "n"], columns="measure", values="estimated")
    else:
        cells = status.assign(
            cell=[
                _cell(v, lo, hi, s)
                for v, lo, hi, s in zip(status.value, status.bound_low, status.bound_high, status.settled)
            ]
        )
        estimated = None
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
    sampled = None if estimated is None else estimated.reindex(index=wide.index)[measures].reset_index(drop=True)

    def shade(column: pd.Series) -> list[str]:
        if column.name not in measures:
            return [""] * len(column)
        if sampled is not None:
            return [
                ""
                if bool(flags.loc[i, column.name])
                else _ESTIMATED_CELL
                if bool(sampled.loc[i, column.name])
                else _OPEN_CELL
                for i in column.index
            ]
        return ["" if bool(flags.loc[i, column.name]) else _OPEN_CELL for i in column.index]

    return frame.style.apply(shade, axis=0)


def estimate_note(status: pd.DataFrame) -> str | None:
    """What "추정" means, when some figure of :func:`reljudge.reporting.dashboard.measure_status`
    is estimated (a sampling plan); None otherwise."""
    if "estimated" not in status.columns or not status.estimated.any():
        return None
    return session.t("glance_estimate_note")


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
    estimates = ""
    if s.get("estimates"):  # a sampling plan: what its sample estimates (docs/sampling.md)
        first = s["estimates"][0]
        done, of = s["estimated_now"].get(first, [0, 0])
        estimates = " " + session.tm(
            "plan_estimates",
            measures=", ".join(s["estimates"]),
            rate=f"{s['sample_rate']:g}",
            seed=s["sample_seed"],
            first=first,
            done=done,
            of=of,
        )
    if s.get("no_estimates_reason") == "frozen_version":
        estimates = " " + session.tm("plan_no_estimates_frozen", version=s["version"])
    if not s["settles"]:
        if estimates:
            return where + estimates + " " + rest
        return where + " " + session.tm("plan_settles_none_here", k=s["k"], rel=s["rel"]) + " " + rest
    first = s["settles"][0]
    done, of = s["settled_now"].get(first, [0, 0])
    settles = session.tm("plan_settles", measures=", ".join(s["settles"]), first=first, done=done, of=of)
    return where + " " + settles + estimates + " " + rest


def bounds_chart(frame: pd.DataFrame, measure: str) -> alt.Chart:
    """:func:`reljudge.reporting.charts.values_with_bounds` of a chart frame
    (:func:`reljudge.reporting.dashboard.chart_frame`), its words in the user's language."""
    frame = frame.assign(
        state=[session.t("status_settled") if bool(s) else session.t("status_open") for s in frame.settled]
    ).drop(columns="settled")
    return charts.values_with_bounds(tables.localized(frame), measure, i18n.t("all", session.lang()))
