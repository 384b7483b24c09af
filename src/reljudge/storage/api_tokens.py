"""SQL for personal API tokens (migration 22, ``api_tokens``; a table shared by the
campaigns, each row naming its campaign). Only a token's SHA-256 is stored, never the
token (reljudge.campaign.api_tokens says why a fast hash is the right one here)."""

from __future__ import annotations

from reljudge.storage.database import Database

_COLUMNS = "name, username, created_by, created_at, expires_at, revoked_at, last_used_at"


def insert_token(
    db: Database, token_hash: str, username: str, name: str, created_by: str, expires_hours: int | None
) -> bool:
    """A new token of ``username`` in ``db``'s campaign; False (nothing stored) when the
    account already has a token of that name there that is not revoked."""
    with db.transaction() as cur:
        taken = cur.execute(
            f"SELECT count(*) FROM {db.shared('api_tokens')} "
            "WHERE campaign = ? AND username = ? AND name = ? AND revoked_at IS NULL",
            [db.campaign, username, name],
        ).fetchone()[0]
        if taken:
            return False
        cur.execute(
            f"INSERT INTO {db.shared('api_tokens')}(token_hash, username, campaign, name, created_by, expires_at) "
            "VALUES (?, ?, ?, ?, ?, CASE WHEN CAST(? AS BIGINT) IS NULL THEN NULL "
            "ELSE current_timestamp + to_hours(CAST(? AS BIGINT)) END)",
            [token_hash, username, db.campaign, name, created_by, expires_hours, expires_hours],
        )
    return True


def list_tokens(db: Database, username: str | None = None) -> list[dict]:
    """The tokens of ``db``'s campaign (of ``username`` only, when given), oldest first;
    never a token nor its hash."""
    sql = f"SELECT {_COLUMNS} FROM {db.shared('api_tokens')} WHERE campaign = ?"
    params: list = [db.campaign]
    if username is not None:
        sql += " AND username = ?"
        params.append(username)
    rows = db.cursor().execute(sql + " ORDER BY created_at, username, name", params).fetchall()
    names = [c.strip() for c in _COLUMNS.split(",")]
    return [dict(zip(names, row)) for row in rows]


def revoke_token(db: Database, username: str, name: str) -> int:
    """Mark the live token ``name`` of ``username`` in ``db``'s campaign revoked; how many
    were (0 or 1). Counted, then changed, in one transaction (no RETURNING: PostgreSQL
    through DuckDB's postgres extension does not support it)."""
    with db.transaction() as cur:
        where = "WHERE campaign = ? AND username = ? AND name = ? AND revoked_at IS NULL"
        params = [db.campaign, username, name]
        n = cur.execute(f"SELECT count(*) FROM {db.shared('api_tokens')} {where}", params).fetchone()[0]
        if n:
            cur.execute(f"UPDATE {db.shared('api_tokens')} SET revoked_at = current_timestamp {where}", params)
    return n


def token_state(db: Database, token_hash: str) -> tuple | None:
    """(username, campaign, revoked, expired, account active) of the token with this
    hash, or None when there is none."""
    return (
        db.cursor()
        .execute(
            f"SELECT t.username, t.campaign, t.revoked_at IS NOT NULL, "
            "coalesce(t.expires_at <= current_timestamp, FALSE), coalesce(u.active, FALSE) "
            f"FROM {db.shared('api_tokens')} t LEFT JOIN {db.shared('users')} u USING (username) "
            "WHERE t.token_hash = ?",
            [token_hash],
        )
        .fetchone()
    )


def touch_token(db: Database, token_hash: str) -> None:
    """Record that the token was used (``last_used_at``)."""
    with db.transaction() as cur:
        cur.execute(
            f"UPDATE {db.shared('api_tokens')} SET last_used_at = current_timestamp WHERE token_hash = ?", [token_hash]
        )
