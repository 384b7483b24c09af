"""PostgreSQL as the team backend: same numbers as the DuckDB file, copy-db both ways,
several processes on one database, a lost server, no password in any message.

Every case runs against the real PostgreSQL server the suite starts (conftest.pg_server).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest

from reljudge.campaign import adjudication
from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.cli import main as cli
from reljudge.reporting import dashboard
from reljudge.campaign import events
from reljudge.campaign import judging
from reljudge.reporting import report
from reljudge.review import events as review_events
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
        # one batch per annotator, as the save route stores a browser's outbox (one grade
        # at a time cost 11–16 ms each: ~40 s of every test that fills both backends)
        grades = []
        for qid, pid in pool:
            if rng.random() < 0.7:
                grade, ms = rng.choice([0, 0, 1, 2]), rng.randrange(500, 9000)
                grades.append(
                    {"id": f"{user}-{qid}-{pid}", "kind": "grade", "qid": qid, "pid": pid, "grade": grade, "ms": ms}
                )
        judging.record(db, user, grades)
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
            "evaluate": _cli(
                capsys, target, "evaluate", "-m", "RR@10", "nDCG@10", "R@5", "P@3", "Judged@10", "--format", "tsv"
            ),
            "evaluate_majority": _cli(capsys, target, "evaluate", "--policy", "majority", "-m", "RR@3", "nDCG@5"),
            "agreement": json.loads(_cli(capsys, target, "agreement", "--format", "json")),
            "qrels": qrels.read_text(),
            "frozen": frozen.read_text(),
        }
    assert out["duckdb"]["evaluate"].strip() and out["duckdb"]["qrels"].count("\n") > 50
    for key in out["duckdb"]:
        assert out["duckdb"][key] == out["postgresql"][key], key


def test_copy_db_moves_a_whole_campaign_both_ways_exactly(tmp_path, pg_url, capsys):
    first = tmp_path / "first.duckdb"
    db = open_database(first)
    _fill_randomly(db, 11)
    auth.start_session(db, auth.authenticate(db, "lead", "demo-lead"))  # a session, login events
    auth.authenticate(db, "annotator1", "wrong-password")
    db.close()
    back = tmp_path / "back.duckdb"
    assert cli.main(["copy-db", str(first), pg_url]) == 0
    assert cli.main(["copy-db", pg_url, str(back)]) == 0
    a, p, b = open_database(first), open_database(pg_url), open_database(back)
    try:
        names = transfer.tables(a)
        assert names == transfer.tables(p) == transfer.tables(b)
        assert {
            "judgment_events",
            "users",
            "runs",
            "questions",
            "paragraphs",
            "assignments",
            "adjudications",
            "qrels_versions",
            "qrels_version_rows",
            "answers",
            "review_events",
        } <= set(names)
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
    code = (
        f"import sys; sys.path.insert(0, {SRC!r})\n"
        "from reljudge.campaign import judging\nfrom reljudge.storage import open_database\n"
        f"db = open_database({pg_url!r})\n"
        f"judging.grade(db, 'annotator1', {qid!r}, {pid!r}, 2)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    after = judging.overview(db, "annotator1")  # same process, cached by version
    assert int(after.loc[after.qid == qid, "judged"].iloc[0]) == judged_before + 1
    db.close()


WRITER = """
import sys, uuid
sys.path.insert(0, {src!r})
from reljudge.campaign import events
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
    procs = [
        subprocess.Popen([sys.executable, "-c", code, tag], stderr=subprocess.PIPE, text=True)
        for tag in ("a", "b", "c")
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert "retry" not in err, err  # collisions are retried by the group commit itself
    rows = db.cursor().execute("SELECT client_event_id, count(*) FROM judgment_events GROUP BY 1").fetchall()
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
    url = pg_server.url(pg_server.new_database())  # created by the server admin, empty
    assert cli.main(["--db", url, "export", "qrels", "-o", "/dev/null"]) == 2
    assert "reljudge init" in capsys.readouterr().err
    assert cli.main(["--db", url, "init"]) == 0
    assert "timestamps_in_utc" in capsys.readouterr().out
    assert cli.main(["--db", url, "users", "list"]) == 0


@contextlib.contextmanager
def _queries_sent(monkeypatch, capfd, *databases):
    """What DuckDB's postgres extension sends to the server from the cursors made inside
    the block (a save's transaction, a refresh's reading) — its ``pg_debug_show_queries``
    output, which DuckDB prints on stderr; the list holds it after the block."""
    setup = postgres.setup_cursor

    def showing_queries(cur):
        setup(cur)
        cur.execute("SET pg_debug_show_queries = true")

    monkeypatch.setattr(postgres, "setup_cursor", showing_queries)
    for db in databases:  # their cursors kept between transactions are made anew, shown
        db._local = threading.local()
    capfd.readouterr()
    sent: list[str] = []
    try:
        yield sent
    finally:
        sent.append(capfd.readouterr().err)
        monkeypatch.undo()


def _tables_copied_whole(output: str) -> set[str]:
    """The tables the postgres extension copied over without a filter, from the queries
    it prints under ``pg_debug_show_queries``."""
    whole = set()
    for table, rest in re.findall(r'FROM "public"\."(\w+)"(.*?)\) TO STDOUT', output):
        if "WHERE" not in rest:
            whole.add(table)
    return whole


def test_a_save_reads_only_the_rows_it_touches(pg_url, capfd, monkeypatch):
    """A save looks up the saved items, their pool rows and the event ids it stores with
    filters PostgreSQL answers; it never copies a table of events (or the pool) to this
    process to find them, so a save does not slow down as the campaign grows. (It did:
    ``list_contains(?, col)`` is not sent to the server, and every save copied
    judgment_events three times.)"""
    db = open_database(pg_url)
    campaign.load_demo(db)
    qid = judging.current_question(db, "annotator1")
    pid = judging.payload(db, "annotator1", qid)["items"][0]["pid"]
    judging.grade(db, "annotator1", qid, pid, 1)
    answer_id = db.cursor().execute("SELECT min(answer_id) FROM current_answers").fetchone()[0]
    with _queries_sent(monkeypatch, capfd, db) as sent:
        acked, refused, _ = events.record_each(
            db, "annotator1", [dict(id="save-1", kind="grade", qid=qid, pid=pid, grade=2, base=1)]
        )
        assert acked == ["save-1"] and not refused
        acked, refused = review_events.record_each(
            db, "annotator1", [dict(id="review-1", kind="interpretation", answer_id=answer_id, grade=2, base=1)]
        )
        assert acked == ["review-1"] and not refused, refused
    printed = sent[0]
    assert "judgment_events" in printed and "review_events" in printed  # the queries were seen
    whole = _tables_copied_whole(printed)
    assert not whole & {
        "judgment_events",
        "review_events",
        "pool",
        "questions",
        "answers",
        "answer_sentences",
        "answer_citations",
    }, whole
    db.close()


def _pg_rows(db, sql: str) -> list[tuple]:
    return db.cursor().execute(f"SELECT * FROM postgres_query('{postgres.ALIAS}', {postgres.quote(sql)})").fetchall()


def test_text_columns_compare_bytes_and_event_lookups_have_indexes(pg_url):
    """Every text column is in collation "C" (the extension's filters carry COLLATE "C",
    and PostgreSQL answers them from an index only of that collation), and a database
    made before migration 11 is converted by it."""
    text_columns = (
        "SELECT c.table_name, c.column_name, c.collation_name FROM information_schema.columns c "
        "JOIN pg_tables t ON t.tablename = c.table_name AND t.schemaname = c.table_schema "
        "WHERE c.table_schema = current_schema() AND c.data_type IN ('character varying', 'text')"
    )
    indexes = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
    db = open_database(pg_url)
    columns = _pg_rows(db, text_columns)
    assert len(columns) > 50 and {c for _, _, c in columns} == {"C"}
    assert {"judgment_events_by_item", "review_events_by_item"} <= {r[0] for r in _pg_rows(db, indexes)}
    # as a database made before the step: default collation, no indexes, step 11 not applied
    cur = db.cursor()
    postgres.execute_native(
        cur,
        'ALTER TABLE judgment_events ALTER COLUMN client_event_id TYPE VARCHAR COLLATE "default"; '
        'ALTER TABLE pool ALTER COLUMN pid TYPE VARCHAR COLLATE "default"; '
        "DROP INDEX judgment_events_by_item; DROP INDEX review_events_by_item; "
        "DELETE FROM schema_migrations WHERE version = 11",
    )
    assert {c for _, _, c in _pg_rows(db, text_columns)} == {"C", None}
    db.close()
    db = open_database(pg_url)
    assert {c for _, _, c in _pg_rows(db, text_columns)} == {"C"}
    assert {"judgment_events_by_item", "review_events_by_item"} <= {r[0] for r in _pg_rows(db, indexes)}
    assert (11, "postgres_lookup_indexes") in db.applied_migrations()
    db.close()


def test_a_dashboard_refresh_reads_the_judgment_events_once(pg_url, capfd, monkeypatch):
    """Every view over the judgment events (current judgments, verdicts, the contested
    questions) used to copy the whole table again: five copies per refresh. Within
    ``dashboard.one_reading`` they are copied once, and the figures are the same."""
    db = open_database(pg_url)
    _fill_randomly(db, 7)

    def refresh():
        ev = dashboard.evaluate_for_dashboard(db, 10, 1, n_boot=50, n_perm=50)
        return (
            dashboard.summary_table(ev, 10),
            dashboard.failure_cases(db, ev, 10),
            dashboard.contested_no_answer(db, "adjudicated", None, 1),
            dashboard.questions_used(db, ev),
            # issue 35.5: the glance table, the plan sentence, the nothing-citable list
            dashboard.measure_status(ev, 10).to_dict("records"),
            dashboard.plan_summary(db, ev, 10),
            dashboard.nothing_citable(db, ev, 10).to_dict("records"),
        )

    expected = refresh()
    with _queries_sent(monkeypatch, capfd, db) as sent, dashboard.one_reading(db):
        got = refresh()
    printed = sent[0]
    assert printed.count('FROM "public"."judgment_events"') == 1, printed
    assert 'paragraphs" )' not in printed  # failure texts: only the paragraphs shown
    pd.testing.assert_frame_equal(got[0], expected[0])
    pd.testing.assert_frame_equal(got[1], expected[1])
    # the same figures: a mean is summed in the order the rows came, so its last bit may
    # differ between a fresh and a shared reading (seen: 1 ulp of an nDCG@10 mean)
    assert _to_12_digits(got[2:]) == _to_12_digits(expected[2:])
    assert not got[1].empty and got[2] is not None
    # the report likewise: one reading of each event table for every part of it
    expected_md = report.render(report.build(db, lang="en", n_boot=50))
    with _queries_sent(monkeypatch, capfd, db) as sent:
        got_md = report.render(report.build(db, lang="en", n_boot=50))
    assert sent[0].count('FROM "public"."judgment_events"') == 1
    assert sent[0].count('FROM "public"."review_events"') == 1
    assert _without_time(got_md) == _without_time(expected_md)
    db.close()


def _to_12_digits(value):
    """``value`` with every float rounded to 12 significant digits, through lists,
    tuples and dicts."""
    if isinstance(value, float):
        return float(f"{value:.12g}")
    if isinstance(value, dict):
        return {k: _to_12_digits(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_to_12_digits(v) for v in value)
    return value


def _without_time(markdown: str) -> str:
    return re.sub(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?\S*", "", markdown)


RACE = """
import os, sys, time
sys.path.insert(0, {src!r})
from reljudge.storage import open_database
folder, n, me = sys.argv[1], int(sys.argv[2]), sys.argv[3]
open(os.path.join(folder, me), "w").close()
while len(os.listdir(folder)) < n:          # start together: every process is ready
    time.sleep(0.001)
db = open_database({url!r})
print(len(db.applied_migrations()))
db.close()
"""


def test_app_processes_started_at_once_on_a_new_database_all_open_it(pg_server, tmp_path):
    """Two `reljudge serve` started at the same moment on an empty database both migrate
    it: the one that loses the race to a step waits for the other's and goes on."""
    from reljudge.storage.migrations import MIGRATIONS

    url = pg_server.url(pg_server.new_database())
    ready = tmp_path / "ready"
    ready.mkdir()
    n = 4
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACE.format(src=SRC, url=url), str(ready), str(n), str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(n)
    ]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert out.strip() == str(len(MIGRATIONS))
    db = open_database(url)
    assert [v for v, _ in db.applied_migrations()] == [v for v, _, _ in MIGRATIONS]
    db.close()
