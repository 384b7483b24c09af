"""The sampling plans on PostgreSQL (issue 36): the same draw, the same queue, the same
estimates and the same trec-sampled qrels as on a DuckDB file (the real server the suite
starts, conftest.pg_server)."""

from __future__ import annotations

import json
import random

from reljudge.campaign import judging, plan
from reljudge.campaign import setup as campaign
from reljudge.cli import main as cli
from reljudge.storage import open_database


def _cli(capsys, target: str, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(["--db", target, *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _rounded(doc):
    if isinstance(doc, float):
        return round(doc, 12)
    if isinstance(doc, dict):
        return {k: _rounded(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_rounded(v) for v in doc]
    return doc


def test_file_and_postgresql_give_the_same_draw_queue_and_estimates(tmp_path, pg_url, capsys):
    targets = {"duckdb": str(tmp_path / "c.duckdb"), "postgresql": pg_url}
    out = {}
    for name, target in targets.items():
        db = open_database(target)
        campaign.load_demo(db)
        db.close()
        code, said, err = _cli(capsys, target, "plan", "rr-first", "--then-sample", "0.3", "--seed", "5")
        assert code == 0, err
        rng = random.Random(3)
        db = open_database(target)
        try:
            draws = [d.to_dict() for d in plan.draws_of(db)]
            for qid in ("q01", "q02", "q03", "q05"):
                while now := judging.plan_state(db, "annotator1", qid)["now"]:
                    judging.grade(db, "annotator1", qid, now[0], rng.choice([0, 0, 1, 2]))
            queue = judging.next_items(db, "annotator2", 20)
        finally:
            db.close()
        code, ev, err = _cli(
            capsys, target, "evaluate", "--format", "json", "--per-query", "-m", "nDCG@10", "R@10", "P@5", "AP"
        )
        assert code == 0, err
        doc = json.loads(ev)
        keys = ("system", "qid", "qtype", "measure", "estimate", "estimate_low", "estimate_high", "estimated")
        sampled = tmp_path / f"{name}.sampled"
        assert _cli(capsys, target, "export", "qrels", "--format", "trec-sampled", "-o", str(sampled))[0] == 0
        refused = _cli(capsys, target, "plan", "sample", "0.5", "--seed", "5")
        again = _cli(capsys, target, "plan", "rr-first", "--then-sample", "0.3", "--seed", "5")[0]
        db = open_database(target)
        try:
            assert again == 0 and [d.to_dict() for d in plan.draws_of(db)] == draws
        finally:
            db.close()
        out[name] = {
            "said": said,
            "draws": draws,
            "queue": queue,
            "means": _rounded([{k: r.get(k) for k in keys} for r in doc["means"]]),
            "per_query": _rounded([{k: r.get(k) for k in keys} for r in doc["per_query"]]),
            "sampled": sampled.read_text("utf-8"),
            "refused": refused,
        }
    a, b = out["duckdb"], out["postgresql"]
    assert len(a["draws"]) == 24 and a["queue"] and a["refused"][0] == 2
    assert any(r["estimate"] is not None and r["estimated"] for r in a["means"])
    for key in a:
        assert a[key] == b[key], key
