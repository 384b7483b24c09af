"""Issue 37 §2: personal API tokens (reljudge.campaign.api_tokens, migration 22), on both
backends, and the local CLI's ``users token create/list/revoke`` (the operator's)."""

from __future__ import annotations

import pytest

from cli_support import run_cli
from reljudge.campaign import api_tokens, auth
from reljudge.errors import ReljudgeError
from reljudge.storage import campaigns, open_database


@pytest.fixture
def team(db):
    auth.add_user(db, "lee", "password-lee", "lead")
    auth.add_user(db, "ann", "password-ann", "annotator")
    return db


def test_a_token_names_its_account_and_role_and_only_its_hash_is_stored(team, backend):
    token = api_tokens.create(team, "ann", "laptop", 24, "cli")
    assert token.startswith("rjt_") and len(token) > 40
    seen = api_tokens.check(team, token, "10.0.0.1")
    assert (seen.username, seen.campaign, seen.role, seen.refusal) == ("ann", "default", "annotator", None)
    stored = team.cursor().execute("SELECT * FROM api_tokens").fetchall()
    assert token not in repr(stored) and auth.token_hash(token) in repr(stored)
    [row] = api_tokens.list_tokens(team)
    assert row["name"] == "laptop" and row["username"] == "ann" and row["last_used_at"] is not None
    assert row["expires_at"] is not None and row["revoked_at"] is None


def test_revoked_expired_unknown_and_deactivated_tokens_are_refused_by_code(team, backend):
    live = api_tokens.create(team, "ann", "a", None, "cli")
    gone = api_tokens.create(team, "ann", "b", None, "cli")
    old = api_tokens.create(team, "lee", "c", 0, "cli")  # expires at once
    api_tokens.revoke(team, "ann", "b")
    assert api_tokens.check(team, gone, None).refusal == "revoked"
    assert api_tokens.check(team, old, None).refusal == "expired"
    assert api_tokens.check(team, "rjt_" + "x" * 43, None).refusal == "unknown"
    assert api_tokens.check(team, "not-a-token", None).refusal == "unknown"
    assert api_tokens.check(team, live, None).role == "annotator"
    auth.set_active(team, "ann", False)
    assert api_tokens.check(team, live, None).refusal == "inactive"
    with pytest.raises(ReljudgeError) as raised:
        api_tokens.revoke(team, "ann", "b")  # revoked already
    assert raised.value.message.code == "error_token_no_such"


def test_a_name_is_unique_among_an_accounts_live_tokens_and_the_account_needs_a_role(team, backend):
    api_tokens.create(team, "ann", "laptop", None, "cli")
    with pytest.raises(ReljudgeError) as raised:
        api_tokens.create(team, "ann", "laptop", None, "cli")
    assert raised.value.message.code == "error_token_name_taken"
    api_tokens.create(team, "lee", "laptop", None, "cli")  # another account's: fine
    api_tokens.revoke(team, "ann", "laptop")
    api_tokens.create(team, "ann", "laptop", None, "cli")  # the name is free again
    for name, code in (("", "error_token_name"), ("a b", "error_token_name"), ("x" * 65, "error_token_name")):
        with pytest.raises(ReljudgeError) as raised:
            api_tokens.create(team, "ann", name, None, "cli")
        assert raised.value.message.code == code
    with pytest.raises(ReljudgeError) as raised:
        api_tokens.create(team, "nobody", "x", None, "cli")
    assert raised.value.message.code == "error_token_no_role"


def test_a_token_gives_the_role_in_its_own_campaign_only(db_target, backend):
    db = open_database(db_target)
    try:
        auth.add_user(db, "kim", "password-kim", "annotator")
        campaigns.create(db_target, "round2")
        other = open_database(db_target, campaign="round2")
        try:
            auth.grant_role(other, "kim", "lead")
            token = api_tokens.create(other, "kim", "laptop", None, "cli")
            assert api_tokens.list_tokens(db) == []  # the default campaign's list
            assert [r["name"] for r in api_tokens.list_tokens(other)] == ["laptop"]
        finally:
            other.close()
        seen = api_tokens.check(db, token, None)
        assert (seen.campaign, seen.role) == ("round2", "lead")
    finally:
        db.close()


def test_failed_token_checks_are_throttled_per_address_like_logins(team, backend):
    token = api_tokens.create(team, "ann", "laptop", None, "cli")
    for _ in range(auth.ADDRESS_FAILURES):
        assert api_tokens.check(team, "rjt_wrong", "10.0.0.9").refusal == "unknown"
    throttled = api_tokens.check(team, token, "10.0.0.9")  # even the right token waits now
    assert throttled.refusal == "wait" and throttled.wait_seconds >= 1
    assert api_tokens.check(team, token, "10.0.0.8").role == "annotator"  # another address does not
    # no account's own throttle counted them
    assert auth.login(team, "ann", "password-ann", "10.0.0.8").user is not None


@pytest.mark.parametrize(
    "value, hours", [(None, 90 * 24), ("12h", 12), ("30d", 720), ("8w", 8 * 168), ("never", None), (" 2d ", 48)]
)
def test_expires_takes_hours_days_weeks_or_never(value, hours):
    assert api_tokens.expires_hours(value) == hours


@pytest.mark.parametrize("value", ["", "30", "3y", "0d", "-1d", "100000w", "thirty days", "1.5d"])
def test_a_bad_expires_is_refused_by_code(value):
    with pytest.raises(ReljudgeError) as raised:
        api_tokens.expires_hours(value)
    assert raised.value.message.code == "error_token_expires"


def test_the_local_cli_creates_lists_and_revokes_tokens_printing_a_token_once(db_path):
    db = open_database(db_path)
    auth.add_user(db, "ann", "password-ann", "annotator")
    db.close()
    made = run_cli("--db", db_path, "users", "token", "create", "laptop", "--user", "ann", "--expires", "30d")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert token.startswith("rjt_") and "shown only this once" in made.stderr and token not in made.stderr
    listed = run_cli("--db", db_path, "users", "token", "list")
    assert listed.returncode == 0 and "laptop" in listed.stdout and "ann" in listed.stdout
    assert token not in listed.stdout + listed.stderr
    bad = run_cli("--db", db_path, "users", "token", "create", "x", "--user", "ann", "--expires", "soon")
    assert bad.returncode == 2 and "--expires 'soon'" in bad.stderr and "Traceback" not in bad.stderr
    nobody = run_cli("--db", db_path, "users", "token", "create", "x")
    assert nobody.returncode == 2 and "--user ACCOUNT" in nobody.stderr
    gone = run_cli("--db", db_path, "users", "token", "revoke", "laptop", "--user", "ann")
    assert gone.returncode == 0 and "revoked token laptop of ann" in gone.stdout
    db = open_database(db_path)
    try:
        assert api_tokens.check(db, token, None).refusal == "revoked"
    finally:
        db.close()
