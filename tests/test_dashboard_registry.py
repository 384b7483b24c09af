"""The dashboard's measures come from the registry (measures.DASHBOARD_FAMILIES), not a
list of its own: a family given a dashboard place shows up in its evaluation, its table
and (when it measures quality) its chart."""

from __future__ import annotations

import dataclasses

from reljudge.reporting import dashboard
from reljudge.eval import measures


def test_the_dashboard_evaluates_and_shows_the_registrys_families(campaign_db, monkeypatch):
    ev = dashboard.evaluate_for_dashboard(campaign_db, 10, 2, n_boot=0, n_perm=0)
    assert [m.name for m in ev.result.measures] == list(measures.DASHBOARD_FAMILIES)
    assert dashboard.chart_families() == tuple(
        f for f in measures.DASHBOARD_FAMILIES if f not in measures.COVERAGE_FAMILIES
    )
    # give Success a dashboard place: it appears without touching the dashboard's code
    families = measures.DASHBOARD_FAMILIES + ("Success",)
    monkeypatch.setattr(dashboard, "DASHBOARD_FAMILIES", families)
    monkeypatch.setitem(measures.REGISTRY, "Success", dataclasses.replace(measures.REGISTRY["Success"], dashboard=6))
    ev = dashboard.evaluate_for_dashboard(campaign_db, 10, 2, n_boot=0, n_perm=0)
    assert "Success" in [m.name for m in ev.result.measures]
    assert "Success@10" in dashboard.summary_table(ev, 10).columns
