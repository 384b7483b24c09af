"""Bounds on a real campaign (both backends): they contain the full-pool values, a
question nobody judged counts with wide bounds, and every output carries them —
`reljudge evaluate` in every format, the dashboard's table, the report, the bundle."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import load_small_campaign
from reljudge.reporting import dashboard
from reljudge.campaign import evaluation
from reljudge.campaign import judging
from reljudge.storage import open_database

MEASURES = ["RR@10", "RR@3", "R@10", "nDCG@10", "nDCG@3", "P@5", "Success@3", "Judged@10", "AP"]


def _pool(db) -> dict[str, list[str]]:
    rows = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid").fetchall()
    out: dict[str, list[str]] = {}
    for qid, pid in rows:
        out.setdefault(qid, []).append(pid)
    return out


def _grade(i: int) -> int:
    return (0, 2, 0, 1, 0, 0, 2)[i % 7]


def _judge(db, pool, part: str) -> None:
    """Judge the first question not at all, the second half way, the rest fully ("start");
    or everything still open ("rest")."""
    qids = sorted(pool)
    for qi, qid in enumerate(qids):
        pids = pool[qid]
        if part == "start":
            pids = [] if qi == 0 else pids[: len(pids) // 2] if qi == 1 else pids
        elif part == "rest":
            pids = pids if qi == 0 else pids[len(pids) // 2 :] if qi == 1 else []
        for i, pid in enumerate(pids):
            judging.grade(db, "ann", qid, pid, _grade(i + 3 * qi))


def _bounds_frame(db):
    ev = evaluation.evaluate_campaign(db, MEASURES, n_boot=0, n_perm=0)
    return ev


def test_bounds_contain_the_full_pool_values_on_both_backends(campaign_db, files, tmp_path):
    pool = _pool(campaign_db)
    assert len(pool) >= 3
    _judge(campaign_db, pool, "start")
    early = _bounds_frame(campaign_db).result
    b = early.bounds.set_index(["system", "qid", "measure"])
    first = sorted(pool)[0]
    # the question nobody judged is there, with every pooled paragraph open
    assert not b.xs(first, level="qid").judged.any()
    assert (b.xs(first, level="qid").bound_low == 0).all()
    assert not early.per_query.qid.eq(first).any()  # the value still counts judged questions only
    assert early.policies["bounds"]["pooled_not_judged"] == 1

    _judge(campaign_db, pool, "rest")
    final = _bounds_frame(campaign_db).result
    fq = final.per_query.set_index(["system", "qid", "measure"]).value
    lo, hi = b.bound_low.reindex(fq.index), b.bound_high.reindex(fq.index)
    assert ((lo <= fq + 1e-12) & (fq <= hi + 1e-12)).all()
    # once everything is judged every figure is settled, and its bounds are its value
    assert final.bounds.settled.all()
    fb = final.bounds.set_index(["system", "qid", "measure"])
    assert np.allclose(fb.bound_low.reindex(fq.index), fq) and np.allclose(fb.bound_high.reindex(fq.index), fq)
    # the means' bounds contain the final means
    em = early.means[early.means.qtype == "all"].set_index(["system", "measure"])
    fm = final.means[final.means.qtype == "all"].set_index(["system", "measure"])["mean"]
    assert ((em.bound_low <= fm + 1e-12) & (fm <= em.bound_high + 1e-12)).all()
    assert fm.notna().all()


def test_the_two_backends_give_the_same_bounds(backend, db, files, tmp_path):
    """The same campaign and the same judgments on the DuckDB file and on PostgreSQL."""
    if backend != "postgresql":
        pytest.skip("compares PostgreSQL with a DuckDB file it builds itself")

    def build(target):
        load_small_campaign(target, files, users=("ann",))
        _judge(target, _pool(target), "start")
        return _bounds_frame(target).result

    pg = build(db)
    duck_db = open_database(tmp_path / "same.duckdb")
    try:
        duck = build(duck_db)
    finally:
        duck_db.close()
    cols = ["system", "qid", "measure", "bound_low", "bound_high", "settled", "n_open"]
    a = pg.bounds[cols].sort_values(cols[:3]).reset_index(drop=True)
    b = duck.bounds[cols].sort_values(cols[:3]).reset_index(drop=True)
    assert a.equals(b)
    assert not a.settled.all()


def _cli(db_path, *args):
    return subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(db_path), *args], capture_output=True, text=True
    )


@pytest.fixture
def half_judged(tmp_path, files):
    path = tmp_path / "half.duckdb"
    db = open_database(path)
    load_small_campaign(db, files, users=("ann",))
    db.close()
    return path


def test_evaluate_before_any_judgment_prints_wide_bounds_not_an_error(half_judged):
    out = _cli(half_judged, "evaluate", "-m", "RR@10", "--format", "json", "--per-query")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["means"] and all(m["mean"] is None and m["settled"] is False for m in doc["means"])
    assert all(m["bound_low"] == 0.0 and 0 < m["bound_high"] <= 1 for m in doc["means"])
    assert doc["per_query"] and all(e["value"] is None for e in doc["per_query"])
    assert {"bound_low", "bound_high", "settled"} <= set(doc["per_query"][0])


def test_evaluate_json_tsv_and_table_carry_the_bounds(half_judged):
    db = open_database(half_judged)
    pool = _pool(db)
    _judge(db, pool, "start")
    db.close()
    doc = json.loads(_cli(half_judged, "evaluate", "-m", "RR@10", "nDCG@10", "--format", "json", "--per-query").stdout)
    for entry in doc["means"] + doc["per_query"]:
        assert {"bound_low", "bound_high", "settled"} <= set(entry)
        if entry.get("value") is not None:
            assert entry["bound_low"] - 1e-12 <= entry["value"] <= entry["bound_high"] + 1e-12
    unjudged = sorted(pool)[0]
    assert [e["value"] for e in doc["per_query"] if e["qid"] == unjudged] == [None] * 4  # 2 systems × 2 measures
    assert doc["policies"]["bounds"]["pooled_not_judged"] == 1

    tsv = _cli(half_judged, "evaluate", "-m", "RR@10", "--format", "tsv").stdout
    lines = [line.split("\t") for line in tsv.splitlines() if not line.startswith("#")]
    assert lines and all(len(f) == 7 and f[6] in ("0", "1") for f in lines)
    table = _cli(half_judged, "evaluate", "-m", "RR@10", "--format", "table").stdout
    assert "bounds over every way the unjudged pooled paragraphs could still be graded" in table
    assert "pool judged:" in table


def test_dashboard_report_and_bundle_show_the_bounds(half_judged, tmp_path):
    from reljudge.reporting import report

    db = open_database(half_judged)
    try:
        _judge(db, _pool(db), "start")
        ev = dashboard.evaluate_for_dashboard(db, 10, 2, n_boot=0, n_perm=0)
        table = dashboard.summary_table(ev, 10)
        assert {"MRR@10 bounds", "nDCG@10 bounds", "open @10"} <= set(table.columns)
        assert table["MRR@10 bounds"].str.startswith("[").any()
        assert dashboard.unsettled_measures(ev, 10)
        data = report.build(db, lang="en", n_boot=0)
        text = report.render(data, "md")
        assert "Share of the pool judged" in text and "Caution: the intervals and tests below rest on" in text
        assert "complete: every pooled paragraph" in text
        from reljudge.campaign import plan

        plan.set_plan(db, "rr-first", rest=True)
        text = report.render(report.build(db, lang="en", n_boot=0), "md")
        assert "rr-first: per question only the paragraphs that could still change some system's RR\\@10" in text
        assert "then the rest of the pool" in text
        from reljudge.campaign import bundle

        built = bundle.build(db)
        assert "bounds.tsv" in built.files and "bounds_means.tsv" in built.files
        assert built.manifest["policies"]["judging_plan"].startswith("rr-first (K = 10")
        header = built.files["bounds.tsv"].decode().splitlines()[0].split("\t")
        assert header[-4:] == ["bound_low", "bound_high", "settled", "n_open"]
    finally:
        db.close()
