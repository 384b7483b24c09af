"""Accounts: Argon2id hashes, sessions, roles."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reljudge.campaign import auth
from reljudge.errors import ReljudgeError


def test_password_is_hashed_with_argon2id_never_stored_clear(db):
    auth.add_user(db, "김목사", "비밀번호1234", "annotator")
    stored = db.cursor().execute("SELECT password_hash FROM users").fetchone()[0]
    assert stored.startswith("$argon2id$") and "비밀번호1234" not in stored
    assert auth.authenticate(db, "김목사", "비밀번호1234") == auth.User("김목사", "annotator")
    assert auth.authenticate(db, "김목사", "wrong-password") is None
    assert auth.authenticate(db, "nobody", "비밀번호1234") is None


def test_user_validation(db):
    with pytest.raises(ReljudgeError, match="8 characters"):
        auth.add_user(db, "a", "short", "annotator")
    with pytest.raises(ReljudgeError, match="unknown role"):
        auth.add_user(db, "a", "long-enough", "admin")
    with pytest.raises(ReljudgeError, match="invalid username"):
        auth.add_user(db, "a b", "long-enough", "lead")
    auth.add_user(db, "a", "long-enough", "lead")
    with pytest.raises(ReljudgeError, match="already exists"):
        auth.add_user(db, "a", "long-enough", "lead")


def test_sessions_and_deactivation(db):
    user = auth.add_user(db, "ann", "password-1", "annotator")
    token = auth.start_session(db, user)
    assert auth.user_for_token(db, token) == user
    assert auth.user_for_token(db, token + "x") is None
    stored = db.cursor().execute("SELECT token_hash FROM sessions").fetchone()[0]
    assert token not in stored
    auth.set_role(db, "ann", "lead")
    assert auth.user_for_token(db, token).role == "lead"  # role read from the database
    auth.set_active(db, "ann", False)
    assert auth.user_for_token(db, token) is None
    assert auth.authenticate(db, "ann", "password-1") is None
    auth.set_active(db, "ann", True)
    token = auth.start_session(db, auth.authenticate(db, "ann", "password-1"))
    auth.end_session(db, token)
    assert auth.user_for_token(db, token) is None


def test_cli_users_add_and_list(tmp_path):
    db = tmp_path / "u.duckdb"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "reljudge",
            "--db",
            str(db),
            "users",
            "add",
            "kim",
            "--role",
            "lead",
            "--password-stdin",
        ],
        input="long-password\n",
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "long-password" not in r.stdout + r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(db), "users", "list"], capture_output=True, text=True
    )
    assert "kim" in r.stdout and "lead" in r.stdout


def test_password_change_ends_existing_sessions(db):
    user = auth.add_user(db, "ann", "password-1", "annotator")
    token = auth.start_session(db, user)
    auth.set_password(db, "ann", "password-2", "boss")
    assert auth.user_for_token(db, token) is None


def test_wrong_passwords_in_a_row_slow_an_account_down_then_lock_it(db):
    auth.add_user(db, "ann", "right-password", "annotator")
    for _ in range(auth.FREE_FAILURES):
        assert auth.login(db, "ann", "wrong", "10.0.0.1").refusal == "failed"
    # the next attempt waits, even with the right password
    outcome = auth.login(db, "ann", "right-password", "10.0.0.1")
    assert outcome.refusal == "wait" and outcome.wait_seconds >= 1
    # keep guessing (as an attacker would, once each wait has passed): the account locks
    for _ in range(auth.LOCK_AFTER):
        db.cursor().execute("UPDATE login_events SET attempted_at = attempted_at - INTERVAL 1 HOUR")
        auth.login(db, "ann", "wrong", "10.0.0.1")
    db.cursor().execute("UPDATE login_events SET attempted_at = attempted_at - INTERVAL 1 HOUR")
    assert auth.login(db, "ann", "right-password", "10.0.0.2").refusal == "locked"
    assert auth.locked_users(db) == ["ann"]
    assert auth.unlock(db, "ann", "boss") is True
    assert auth.login(db, "ann", "right-password", "10.0.0.2").user == auth.User("ann", "annotator")
    failed = auth.failed_logins(db)
    assert len(failed) >= auth.LOCK_AFTER and set(failed.username) == {"ann"}


def _lock(db, name):
    for _ in range(auth.LOCK_AFTER + auth.FREE_FAILURES):  # each wait passed (time moved back)
        db.cursor().execute("UPDATE login_events SET attempted_at = attempted_at - INTERVAL 1 HOUR")
        db.cursor().execute("UPDATE account_locks SET unlocked_at = unlocked_at - INTERVAL 1 HOUR")
        auth.login(db, name, "wrong", "10.0.0.1")
    assert name in auth.locked_users(db)


def test_the_command_line_unlocks_and_a_new_password_lifts_a_lock(tmp_path):
    """Ten wrong passwords against the only lead must not lock the campaign for good: the
    CLI has `users unlock`, and `users passwd` lifts a lock too."""
    import subprocess
    import sys
    from reljudge.storage import open_database

    path = tmp_path / "locked.duckdb"
    db = open_database(path)
    auth.add_user(db, "boss", "boss-password", "lead")
    _lock(db, "boss")
    db.close()

    def cli(*args, stdin=None):
        return subprocess.run(
            [sys.executable, "-m", "reljudge", "--db", str(path), "users", *args],
            input=stdin,
            capture_output=True,
            text=True,
        )

    r = cli("unlock", "boss")
    assert r.returncode == 0 and "unlocked boss" in r.stdout
    assert "was not locked" in cli("unlock", "boss").stdout
    assert cli("unlock", "nobody").returncode == 2
    db = open_database(path)
    assert auth.locked_users(db) == [] and auth.login(db, "boss", "boss-password", "10.0.0.2").user
    _lock(db, "boss")
    db.close()
    assert cli("passwd", "boss", "--password-stdin", stdin="new-password-1\n").returncode == 0
    db = open_database(path)
    assert auth.locked_users(db) == []
    assert auth.login(db, "boss", "new-password-1", "10.0.0.3").user == auth.User("boss", "lead")
    db.close()


def test_many_failures_from_one_address_slow_that_address_down(db):
    auth.add_user(db, "ann", "right-password", "annotator")
    for k in range(auth.ADDRESS_FAILURES):
        auth.login(db, f"guess{k}", "wrong", "10.9.9.9")  # many names, one address
    assert auth.login(db, "ann", "right-password", "10.9.9.9").refusal == "wait"
    assert auth.login(db, "ann", "right-password", "10.0.0.7").user is not None  # elsewhere: fine


def test_a_lead_sees_and_ends_sessions(db):
    auth.add_user(db, "ann", "right-password", "annotator")
    token = auth.start_session(db, auth.User("ann", "annotator"))
    sessions = auth.list_sessions(db)
    assert list(sessions.username) == ["ann"] and token not in "".join(sessions.session_id)
    assert auth.end_session_by_id(db, sessions.session_id[0]) is True
    assert auth.user_for_token(db, token) is None


def test_the_first_lead_only_while_no_account_exists(db):
    with pytest.raises(ReljudgeError, match="setup code"):
        auth.add_first_lead(db, "boss", "boss-password", "")
    assert auth.add_first_lead(db, "boss", "boss-password", auth.setup_code()).role == "lead"
    with pytest.raises(ReljudgeError):
        auth.add_first_lead(db, "boss2", "boss-password", auth.setup_code())


def test_the_login_forms_question_is_one_small_read(db):
    """The login form asks how many accounts exist and whether the demo's do (the first-lead
    form, the demo notice): one read of the users table, whatever the judgments."""
    from reljudge.storage import accounts

    assert accounts.user_counts(db, ["annotator1", "lead"]) == (0, 0)
    auth.add_user(db, "kim", "kim-pass-123", "lead")
    auth.add_user(db, "annotator1", "demo-pass-1", "annotator")
    assert accounts.user_counts(db, ["annotator1", "lead"]) == (2, 1)
    assert accounts.user_counts(db, []) == (2, 0)


def test_the_first_lead_door_stays_shut_while_accounts_live_in_other_campaigns(db_target, db, monkeypatch, capsys):
    """Issue 34, point 15: accounts with roles only in another campaign are accounts. The
    default campaign's view of them is empty, but no setup code is printed and no first
    lead can be made by whoever reaches the server first."""
    from reljudge.storage import accounts, campaigns, open_database

    campaigns.create(db_target, "r1")
    r1 = open_database(db_target, campaign="r1")
    try:
        auth.add_user(r1, "kim", "kim-pass-123", "lead")
    finally:
        r1.close()
    assert accounts.list_users(db).empty and accounts.account_names(db) == ["kim"]
    monkeypatch.setattr(auth, "_setup_code", None)
    auth.announce_setup_code(db)
    assert "setup code" not in capsys.readouterr().err
    with pytest.raises(ReljudgeError, match="exist"):
        auth.add_first_lead(db, "mallory", "mallory-pass-1", auth.setup_code())
    assert accounts.account_names(db) == ["kim"]


def test_a_new_database_prints_its_setup_code(db, monkeypatch, capsys):
    monkeypatch.setattr(auth, "_setup_code", None)
    auth.announce_setup_code(db)
    assert auth.setup_code() in capsys.readouterr().err
