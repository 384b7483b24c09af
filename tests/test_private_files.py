"""The DuckDB file holds password and session-token hashes: created owner-only (600),
and so is its write-ahead log, whatever the process umask."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.storage import open_database


def wal_path(path):
    return path.with_name(path.name + ".wal")


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    old = os.umask(0o022)  # the usual default: new files 644
    yield
    os.umask(old)


def test_new_database_and_its_wal_are_owner_only(tmp_path, files, open_umask):
    path = tmp_path / "new" / "campaign.duckdb"
    db = open_database(path)
    try:
        assert _mode(path) == 0o600
        auth.add_user(db, "boss", "boss-password", "lead")
        campaign.import_file(db, "corpus", files["corpus"])
        wal = wal_path(path)
        assert wal.exists()  # written, not yet checkpointed
        assert _mode(wal) == 0o600
        db.cursor().execute("CHECKPOINT")  # the .wal goes; the next write makes a new one
        campaign.import_file(db, "questions", files["questions"])
        assert _mode(wal) == 0o600
        assert os.umask(0o022) == 0o022  # the process umask is back as it was
    finally:
        db.close()
    assert _mode(path) == 0o600


def test_cli_init_creates_an_owner_only_file(tmp_path):
    path = tmp_path / "cli.duckdb"
    r = subprocess.run(
        ["sh", "-c", f'umask 022 && "{sys.executable}" -m reljudge --db "{path}" init'], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    assert _mode(path) == 0o600


def test_a_file_the_lead_shared_keeps_its_mode_and_the_wal_follows(tmp_path, open_umask):
    path = tmp_path / "shared.duckdb"
    open_database(path).close()
    os.chmod(path, 0o640)
    db = open_database(path)
    try:
        auth.add_user(db, "boss", "boss-password", "lead")
        assert _mode(path) == 0o640 and _mode(wal_path(path)) == 0o640
    finally:
        db.close()
