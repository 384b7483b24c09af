"""Decoys through the browser's save route (``POST /api/events``), against a real server
process on a real DuckDB file: a grade on a decoy is accepted for the annotator it is
placed for (it is shown to them) and stored apart; another annotator's is refused."""

from __future__ import annotations

import pandas as pd

from e2e_support import StreamlitServer, build_campaign
from reljudge.campaign import auth, judging, quality
from reljudge.storage import open_database
from reljudge.storage import quality as store

from test_api_routes import event, post

ACCOUNTS = {
    "annotator1": ("annotator-pass-1", "annotator"),
    "annotator2": ("annotator-pass-2", "annotator"),
}


def test_the_save_route_takes_a_decoy_from_its_annotator_only(tmp_path):
    camp = build_campaign(tmp_path / "q.duckdb", tmp_path / "input", n_questions=2, pool_size=4, accounts=ACCOUNTS)
    db = open_database(camp.db_path)
    qid, other = sorted(camp.pool)[:2]
    pid = next(p for p in camp.pool[other] if p not in camp.pool[qid])
    store.replace_decoys(
        db, pd.DataFrame(), pd.DataFrame([("annotator1", qid, pid)], columns=["annotator", "qid", "pid"]), 0.1, 1
    )
    assert pid in {it["pid"] for it in judging.payload(db, "annotator1", qid)["items"]}
    tokens = {u: auth.start_session(db, auth.User(u, "annotator")) for u in ACCOUNTS}
    events_before = db.cursor().execute("SELECT count(*) FROM judgment_events").fetchone()[0]
    db.close()
    server = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server.log").start()
    try:
        url = f"{server.url}/api/events"
        mine = event(qid, pid, 1, ms=3000)
        status, answer, _ = post(url, {"events": [mine]}, token=tokens["annotator1"])
        assert status == 200 and answer["acked"] == [mine["id"]] and not answer["rejected"]
        theirs = event(qid, pid, 0, ms=3000)
        status, answer, _ = post(url, {"events": [theirs]}, token=tokens["annotator2"])
        assert status == 200 and answer["acked"] == [] and answer["rejected"] == {theirs["id"]: "not_pooled"}
    finally:
        server.stop()
    db = open_database(camp.db_path)
    try:
        assert db.cursor().execute("SELECT count(*) FROM judgment_events").fetchone()[0] == events_before
        grades = quality.decoy_grades(db)
        assert list(zip(grades.annotator, grades.qid, grades.pid, grades.grade)) == [("annotator1", qid, pid, 1)]
    finally:
        db.close()
