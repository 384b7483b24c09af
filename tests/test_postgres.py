"""PostgreSQL as the team backend: same numbers as the DuckDB file, copy-db both ways,
several processes on one database, a lost server, no password in any message.

Every case runs against the real PostgreSQL server the suite starts (conftest.pg_server).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reljudge import adjudication, auth, campaign, cli, judging
from reljudge.storage import open_database, postgres, transfer
from reljudge.storage.db import is_postgres

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _fill_randomly(db, seed: int) -> None:
    """The demo campaign with the same random judgments, verdicts, adjudications and a
    frozen version, whatever the backend (the same seed gives the same events)."""
    campaign.load_demo(db)
    rng = random.Random(seed)
    pool = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid").fetchall()
    qids = sorted({q for q, _ in pool})
    for user in ("annotator1", "annotator2"):
        for qid, pid in pool:
            if rng.random() < 0.7:
                judging.grade(db, user, qid, pid, rng.choice([0, 0, 1, 2]), ms=rng.randrange(500, 9000))
        for qid in rng.sample(qids, 3):
            judging.mark_no_answer(db, user, qid, True, note="근거 없음")
    for qid, pid in rng.sample(pool, 5):
        adjudication.adjudicate(db, "lead", qid, pid, rng.choice([0, 1, 2]), "조정 사유")
    adjudication.freeze(db, "lead", note="1차")


def _cli(capsys, target: str, *args: str) -> str:
    capsys.readouterr()
    assert cli.main(["--db", target, *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("seed", [7, 2026])
def test_the_same_judgments_give_the_same_numbers_on_both_backends(tmp_path, pg_url, capsys, seed):
    targets = {"duckdb": str(tmp_path / "c.duckdb"), "postgresql": pg_url}
    out = {}
    for name, target in targets.items():
        db = open_database(target)
        _fill_randomly(db, seed)
        db.close()
        qrels = tmp_path / f"{name}.qrels"
        _cli(capsys, target, "export", "qrels", "--format", "trec", "-o", str(qrels))
        frozen = tmp_path / f"{name}-v1.tsv"
        _cli(capsys, target, "export", "qrels", "--format", "beir", "--version", "1", "-o", str(frozen))
        out[name] = {
            "evaluate": _cli(capsys, target, "evaluate", "-m", "RR@10", "nDCG@10", "R@5", "P@3", "Judged@10",
                             "--format", "tsv"),
            "evaluate_majority": _cli(capsys, target, "evaluate", "--policy", "majority", "-m", "RR@3", "nDCG@5"),
            "agreement": json.loads(_cli(capsys, target, "agreement", "--format", "json")),
            "qrels": qrels.read_text(), "frozen": frozen.read_text(),
        }
    assert out["duckdb"]["evaluate"].strip() and out["duckdb"]["qrels"].count("\n") > 50
    for key in out["duckdb"]:
        assert out["duckdb"][key] == out["postgresql"][key], key


def test_copy_db_moves_a_whole_campaign_both_ways_exactly(tmp_path, pg_url, capsys):
    first = tmp_path / "first.duckdb"
    db = open_database(first)
    _fill_randomly(db, 11)
    auth.start_session(db, auth.authenticate(db, "lead", "demo-lead"))     # a session, login events
    auth.authenticate(db, "annotator1", "wrong-password")
    db.close()
    back = tmp_path / "back.duckdb"
    assert cli.main(["copy-db", str(first), pg_url]) == 0
    assert cli.main(["copy-db", pg_url, str(back)]) == 0
    a, p, b = open_database(first), open_database(pg_url), open_database(back)
    try:
        names = transfer.tables(a)
        assert names == transfer.tables(p) == transfer.tables(b)
        assert {"judgment_events", "users", "runs", "questions", "paragraphs", "assignments",
                "adjudications", "qrels_versions", "qrels_version_rows", "answers",
                "review_events"} <= set(names)
        counts = transfer.row_counts(a)
        assert counts["judgment_events"] > 100 and counts["users"] == 3 and counts["qrels_version_rows"] > 0
        assert transfer.compare(a, p) == {} and transfer.compare(a, b) == {}
        assert transfer.row_counts(p) == counts == transfer.row_counts(b)
        # New events continue after the copied ids on both kinds of target.
        top = p.cursor().execute("SELECT max(event_id) FROM judgment_events").fetchone()[0]
        qid, pid = p.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid LIMIT 1").fetchone()
        for db_ in (p, b):
            judging.grade(db_, "annotator1", qid, pid, 2)
            assert db_.cursor().execute("SELECT max(event_id) FROM judgment_events").fetchone()[0] > top
    finally:
        for d in (a, p, b):
            d.close()
    # A target that holds data is refused, and nothing is written.
    capsys.readouterr()
    assert cli.main(["copy-db", str(first), pg_url]) == 2
    assert "not empty" in capsys.readouterr().err


def test_a_judgment_saved_in_one_process_is_seen_by_another(pg_url):
    db = open_database(pg_url)
    campaign.load_demo(db)
    qid = judging.current_question(db, "annotator1")
    pid = judging.payload(db, "annotator1", qid)["items"][0]["pid"]
    before = judging.overview(db, "annotator1")
    judged_before = int(before.loc[before.qid == qid, "judged"].iloc[0])
    code = (f"import sys; sys.path.insert(0, {SRC!r})\n"
            "from reljudge import judging\nfrom reljudge.storage import open_database\n"
            f"db = open_database({pg_url!r})\n"
            f"judging.grade(db, 'annotator1', {qid!r}, {pid!r}, 2)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    after = judging.overview(db, "annotator1")          # same process, cached by version
    assert int(after.loc[after.qid == qid, "judged"].iloc[0]) == judged_before + 1
    db.close()


WRITER = """
import sys, uuid
sys.path.insert(0, {src!r})
from reljudge import events
from reljudge.storage import open_database
db = open_database({url!r})
tag, pool = sys.argv[1], {pool!r}
for i in range(60):
    qid, pid = pool[i % len(pool)]
    # every event twice (a resend), and events shared with the other writer
    ids = [f"{{tag}}-{{i}}", f"shared-{{i}}"]
    batch = [dict(id=cid, kind="grade", qid=qid, pid=pid, grade=i % 3) for cid in ids]
    for _ in range(2):
        while True:
            try:
                acked, rejected, _ = events.record_each(db, "annotator1", batch)
                break
            except Exception as exc:
                print("retry", type(exc).__name__, exc, file=sys.stderr)
        assert not rejected, rejected
"""


def test_concurrent_writers_in_several_processes_lose_and_duplicate_nothing(pg_url):
    db = open_database(pg_url)
    campaign.load_demo(db)
    pool = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid LIMIT 40").fetchall()
    code = WRITER.format(src=SRC, url=pg_url, pool=pool)
    procs = [subprocess.Popen([sys.executable, "-c", code, tag], stderr=subprocess.PIPE, text=True)
             for tag in ("a", "b", "c")]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert "retry" not in err, err          # collisions are retried by the group commit itself
    rows = db.cursor().execute(
        "SELECT client_event_id, count(*) FROM judgment_events GROUP BY 1").fetchall()
    ids = {cid: n for cid, n in rows}
    assert all(n == 1 for n in ids.values())
    expected = {f"{t}-{i}" for t in "abc" for i in range(60)} | {f"shared-{i}" for i in range(60)}
    assert set(ids) == expected
    db.close()


def test_no_password_in_any_message(pg_server, capsys):
    secret = "s3cr3t-Pa55"
    url = pg_server.url("no_such_db").replace("postgres@", f"postgres:{secret}@")
    wrong_port = url.replace(f":{pg_server.port}/", ":1/")
    for target in (url, wrong_port):
        with pytest.raises(postgres.DatabaseUnavailable) as info:
            open_database(target)
        assert secret not in str(info.value) and secret not in repr(info.value.args)
        assert cli.main(["--db", target, "users", "list"]) == 2
        captured = capsys.readouterr()
        assert secret not in captured.err + captured.out
        assert "cannot reach the database server" in captured.err
        assert "Traceback" not in captured.err
    assert postgres.display_url(url).count(secret) == 0
    assert is_postgres(url) and not is_postgres("judgments/x.duckdb")


def test_cli_commands_other_than_init_refuse_a_database_without_a_campaign(pg_server, capsys):
    url = pg_server.url(pg_server.new_database())           # created by the server admin, empty
    assert cli.main(["--db", url, "export", "qrels", "-o", "/dev/null"]) == 2
    assert "reljudge init" in capsys.readouterr().err
    assert cli.main(["--db", url, "init"]) == 0
    assert "timestamps_in_utc" in capsys.readouterr().out
    assert cli.main(["--db", url, "users", "list"]) == 0
