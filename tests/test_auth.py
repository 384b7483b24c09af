"""Accounts: Argon2id hashes, sessions, roles."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reljudge import auth
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
    assert auth.user_for_token(db, token).role == "lead"       # role read from the database
    auth.set_active(db, "ann", False)
    assert auth.user_for_token(db, token) is None
    assert auth.authenticate(db, "ann", "password-1") is None
    auth.set_active(db, "ann", True)
    token = auth.start_session(db, auth.authenticate(db, "ann", "password-1"))
    auth.end_session(db, token)
    assert auth.user_for_token(db, token) is None


def test_cli_users_add_and_list(tmp_path):
    db = tmp_path / "u.duckdb"
    r = subprocess.run([sys.executable, "-m", "reljudge", "--db", str(db), "users", "add", "kim",
                        "--role", "lead", "--password-stdin"], input="long-password\n",
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "long-password" not in r.stdout + r.stderr
    r = subprocess.run([sys.executable, "-m", "reljudge", "--db", str(db), "users", "list"],
                       capture_output=True, text=True)
    assert "kim" in r.stdout and "lead" in r.stdout


def test_password_change_ends_existing_sessions(db):
    user = auth.add_user(db, "ann", "password-1", "annotator")
    token = auth.start_session(db, user)
    auth.set_password(db, "ann", "password-2")
    assert auth.user_for_token(db, token) is None
