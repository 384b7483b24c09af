"""SQL for accounts and login sessions (hashes only; never a clear password)."""

from __future__ import annotations

import pandas as pd

from reljudge.storage.db import Database


def insert_user(db: Database, username: str, password_hash: str, role: str) -> None:
    with db.transaction() as cur:
        cur.execute("INSERT INTO users(username, password_hash, role) VALUES (?, ?, ?)",
                    [username, password_hash, role])


def user_exists(db: Database, username: str) -> bool:
    return db.cursor().execute("SELECT count(*) FROM users WHERE username = ?", [username]).fetchone()[0] > 0


def get_user_row(db: Database, username: str) -> tuple | None:
    return db.cursor().execute(
        "SELECT username, password_hash, role, active FROM users WHERE username = ?", [username]
    ).fetchone()


def update_password_hash(db: Database, username: str, password_hash: str,
                         end_sessions: bool = True) -> None:
    with db.transaction() as cur:
        cur.execute("UPDATE users SET password_hash = ? WHERE username = ?", [password_hash, username])
        if end_sessions:  # whoever knew the old password is logged out
            cur.execute("DELETE FROM sessions WHERE username = ?", [username])


def set_user_fields(db: Database, username: str, *, role: str | None = None,
                    active: bool | None = None) -> None:
    with db.transaction() as cur:
        if role is not None:
            cur.execute("UPDATE users SET role = ? WHERE username = ?", [role, username])
        if active is not None:
            cur.execute("UPDATE users SET active = ? WHERE username = ?", [active, username])
            if not active:
                cur.execute("DELETE FROM sessions WHERE username = ?", [username])


def list_users(db: Database) -> pd.DataFrame:
    return db.cursor().execute("""
        SELECT u.username, u.role, u.active, u.created_at,
               count(e.event_id) AS judgment_events, max(e.created_at) AS last_judged_at
        FROM users u LEFT JOIN judgment_events e USING (username)
        GROUP BY ALL ORDER BY u.role DESC, u.username""").df()


def insert_session(db: Database, token_hash: str, username: str, hours: int) -> None:
    with db.transaction() as cur:
        cur.execute("DELETE FROM sessions WHERE expires_at < current_timestamp")
        cur.execute(
            "INSERT INTO sessions(token_hash, username, expires_at) "
            "VALUES (?, ?, current_timestamp + to_hours(CAST(? AS BIGINT)))",
            [token_hash, username, hours])


def session_user(db: Database, token_hash: str) -> tuple | None:
    return db.cursor().execute("""
        SELECT u.username, u.role FROM sessions s JOIN users u USING (username)
        WHERE s.token_hash = ? AND s.expires_at > current_timestamp AND u.active""",
        [token_hash]).fetchone()


def delete_session(db: Database, token_hash: str) -> None:
    with db.transaction() as cur:
        cur.execute("DELETE FROM sessions WHERE token_hash = ?", [token_hash])
