"""Timestamps (issue 13, item 13): stored in UTC whatever the server's zone, shown and
exported as ISO 8601 with the offset of the campaign's zone (default Asia/Seoul)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from reljudge.storage import catalog
from reljudge import times
from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.campaign import export
from reljudge.campaign import judging
from reljudge.ui import webapp
from reljudge.errors import ReljudgeError

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _in_zone(zone: str, code: str) -> str:
    """Run ``code`` in a Python whose local zone is ``zone`` (DuckDB reads it at start)."""
    env = {**os.environ, "TZ": zone, "PYTHONPATH": SRC}
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_events_are_stored_in_utc_on_a_server_in_another_zone(db_path, files):
    stored = _in_zone(
        "America/New_York",
        f"""
        import datetime as dt
        from reljudge.campaign import auth, judging, setup as campaign
        from reljudge.storage import open_database
        db = open_database({str(db_path)!r})
        for kind, key in (("corpus", "corpus"), ("questions", "questions"), ("run", "run_a")):
            campaign.import_file(db, kind, {str(files["corpus"].parent)!r} + "/" + {{
                "corpus": "corpus.jsonl", "questions": "questions.jsonl", "run_a": "bm25.trec"}}[key])
        campaign.pool(db, 10)
        auth.add_user(db, "ann", "password-ann", "annotator")
        judging.grade(db, "ann", "q1", "p02", 2)
        t = db.cursor().execute("SELECT created_at FROM judgment_events").fetchall()[0][0]
        print((t - dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)).total_seconds())
        """,
    )
    assert abs(float(stored)) < 60  # UTC, not New York's wall clock (4-5 h off)


def test_timestamps_written_before_are_moved_to_utc(db_path):
    """A database whose rows were stored in the server's local time (before migration
    'timestamps_in_utc') gets them converted, on the same server."""
    out = _in_zone(
        "Asia/Seoul",
        f"""
        import datetime as dt
        from reljudge.storage import db as dbmod, migrations
        shipped = list(migrations.MIGRATIONS)
        migrations.MIGRATIONS[:] = [m for m in shipped if m[1] != "timestamps_in_utc"]
        database = dbmod.open_database({str(db_path)!r})
        database.cursor().execute(f"INSERT INTO {{database.shared('users')}}(username, password_hash, role, created_at) "
                                  "VALUES ('old', 'x', 'annotator', TIMESTAMP '2026-03-01 18:00:00')")
        database.close()
        migrations.MIGRATIONS[:] = shipped
        database = dbmod.open_database({str(db_path)!r})
        print(database.cursor().execute("SELECT created_at FROM users WHERE username = 'old'").fetchall()[0][0])
        """,
    )
    assert out == "2026-03-01 09:00:00"  # 18:00 in Seoul is 09:00 UTC


def test_one_formatting_function():
    t = pd.Timestamp("2026-03-01 09:00:00")  # stored: naive UTC
    assert times.iso(t, "Asia/Seoul") == "2026-03-01T18:00:00+09:00"
    assert times.iso(t.to_pydatetime(), "UTC") == "2026-03-01T09:00:00+00:00"
    assert times.iso(pd.Timestamp("2026-07-01 12:00:00.5"), "Europe/Berlin") == "2026-07-01T14:00:00+02:00"
    assert times.iso(None, "Asia/Seoul") is None and times.iso(pd.NaT, "Asia/Seoul") is None
    frame = pd.DataFrame({"created_at": [t, pd.NaT], "n": [1, 2]})
    shown = times.localize_frame(frame, "Asia/Seoul")
    assert shown.created_at.tolist() == ["2026-03-01T18:00:00+09:00", None] and shown.n.tolist() == [1, 2]


def test_the_campaign_zone_is_a_setting(campaign_db):
    assert catalog.campaign_zone(campaign_db) == "Asia/Seoul"
    campaign.set_time_zone(campaign_db, "Europe/Berlin")
    assert catalog.campaign_zone(campaign_db) == "Europe/Berlin"
    with pytest.raises(ReljudgeError):
        campaign.set_time_zone(campaign_db, "Mars/Olympus")


def _stored(db, table: str) -> dt.datetime:
    return db.cursor().execute(f"SELECT created_at FROM {table} ORDER BY 1 LIMIT 1").fetchall()[0][0]


def test_exports_carry_the_offset_of_the_campaign_zone(campaign_db):
    db = campaign_db
    judging.grade(db, "ann", "q1", "p02", 2)
    judging.grade(db, "bob", "q1", "p02", 0)
    from reljudge.campaign import adjudication

    adjudication.adjudicate(db, "lee", "q1", "p02", 2, "본문이 직접 답한다")
    event = json.loads(export.judgments_bytes(db).decode().splitlines()[0])
    assert event["created_at"] == times.iso(_stored(db, "judgment_events"), "Asia/Seoul")
    assert event["created_at"].endswith("+09:00")
    ruling = json.loads(export.adjudications_bytes(db).decode().splitlines()[0])
    assert ruling["created_at"].endswith("+09:00")
    campaign.set_time_zone(db, "UTC")
    event = json.loads(export.judgments_bytes(db).decode().splitlines()[0])
    assert event["created_at"].endswith("+00:00")
    shown = dt.datetime.fromisoformat(event["created_at"]).astimezone(dt.timezone.utc).replace(tzinfo=None)
    assert shown == _stored(db, "judgment_events").replace(microsecond=0)


def test_the_audit_page_shows_the_campaign_zone(campaign_db, db_path, monkeypatch):
    judging.grade(campaign_db, "ann", "q1", "p02", 2)
    token = auth.start_session(campaign_db, auth.authenticate(campaign_db, "lee", "password-lee"))
    stored = _stored(campaign_db, "judgment_events")
    campaign_db.close()
    monkeypatch.setenv("RELJUDGE_DB", str(db_path))
    monkeypatch.delenv("RELJUDGE_DEMO", raising=False)
    at = AppTest.from_file(str(webapp.HERE / "screens" / "audit.py"), default_timeout=60)
    at.session_state["token"] = token
    at.run()
    assert not at.exception
    events = at.dataframe[0].value
    assert events.created_at.tolist() == [times.iso(stored, "Asia/Seoul")]
    assert events.created_at[0].endswith("+09:00")


def test_the_lead_sets_the_zone_on_the_campaign_page(campaign_db, db_path, monkeypatch):
    token = auth.start_session(campaign_db, auth.authenticate(campaign_db, "lee", "password-lee"))
    campaign_db.close()
    monkeypatch.setenv("RELJUDGE_DB", str(db_path))
    monkeypatch.delenv("RELJUDGE_DEMO", raising=False)
    at = AppTest.from_file(str(webapp.HERE / "screens" / "import_data.py"), default_timeout=60)
    at.session_state["token"] = token
    at.run()
    picker = next(s for s in at.selectbox if s.label == "시간대 (화면과 내보내기의 시각)")
    assert picker.value == "Asia/Seoul"
    picker.select("Europe/Berlin").run()
    assert not at.exception
    from reljudge.ui.session import get_db

    assert catalog.campaign_zone(get_db()) == "Europe/Berlin"


def test_the_report_says_when_it_was_made_with_the_offset(campaign_db):
    from reljudge.reporting import report

    judging.grade(campaign_db, "ann", "q1", "p02", 2)
    made = report.build(campaign_db, "adjudicated", None, "ko").generated
    assert made.endswith("+09:00") and dt.datetime.fromisoformat(made).utcoffset() == dt.timedelta(hours=9)


def test_the_bundle_manifest_is_dated_in_the_campaign_zone(campaign_db):
    from reljudge.campaign import bundle

    judging.grade(campaign_db, "ann", "q1", "p02", 2)
    campaign.set_time_zone(campaign_db, "America/Sao_Paulo")  # no daylight saving since 2019
    created = bundle.build(campaign_db).manifest["created"]
    assert created.endswith("-03:00")
