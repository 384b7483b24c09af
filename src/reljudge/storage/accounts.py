"""SQL for accounts and login sessions (hashes only; never a clear password).

Accounts are shared by the campaigns of one database (:mod:`reljudge.storage.database`): in
every campaign ``users`` reads as that campaign's view of them (the accounts with a role
in it, with that role), and writes name the shared table (:meth:`Database.shared`). A role
in a campaign other than the default is a row of ``campaign_roles``; in the default one it
is ``users.role``, unless the account is listed in ``accounts_outside_default`` (made in
another campaign, or its default role taken back)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reljudge.storage.database import DEFAULT_CAMPAIGN, Database

if TYPE_CHECKING:  # pandas loads on first use: `reljudge next` never needs it
    import pandas as pd


def insert_user(db: Database, username: str, password_hash: str, role: str) -> None:
    """A new account with ``role`` in ``db``'s campaign, and no role in any other. Made in
    a campaign other than the default, it is outside the default campaign (``users.role``
    cannot be empty: it holds the least role, which no query of the default campaign sees)."""
    with db.transaction() as cur:
        cur.execute(
            f"INSERT INTO {db.shared('users')}(username, password_hash, role) VALUES (?, ?, ?)",
            [username, password_hash, "annotator" if db.schema else role],
        )
        if db.schema:
            _put_campaign_role(cur, db, username, role)
            cur.execute(f"INSERT INTO {db.shared('accounts_outside_default')}(username) VALUES (?)", [username])


def _put_campaign_role(cur, db: Database, username: str, role: str) -> None:
    cur.execute(
        f"DELETE FROM {db.shared('campaign_roles')} WHERE campaign = ? AND username = ?", [db.campaign, username]
    )
    cur.execute(
        f"INSERT INTO {db.shared('campaign_roles')}(campaign, username, role) VALUES (?, ?, ?)",
        [db.campaign, username, role],
    )


def account_exists(db: Database, username: str) -> bool:
    """Whether the account exists on this database, in any campaign."""
    return (
        db.cursor().execute(f"SELECT count(*) FROM {db.shared('users')} WHERE username = ?", [username]).fetchone()[0]
        > 0
    )


def grant_role(db: Database, username: str, role: str) -> None:
    """Give an existing account ``role`` in ``db``'s campaign."""
    with db.transaction() as cur:
        if db.schema:
            _put_campaign_role(cur, db, username, role)
            return
        cur.execute(f"DELETE FROM {db.shared('accounts_outside_default')} WHERE username = ?", [username])
        cur.execute(f"UPDATE {db.shared('users')} SET role = ? WHERE username = ?", [role, username])


def revoke_role(db: Database, username: str) -> bool:
    """Take the account's role in ``db``'s campaign (the account stays, with its roles in
    the others); False when it had none there."""
    with db.transaction() as cur:
        had = cur.execute("SELECT count(*) FROM users WHERE username = ?", [username]).fetchone()[0] > 0
        if db.schema:
            cur.execute(
                f"DELETE FROM {db.shared('campaign_roles')} WHERE campaign = ? AND username = ?",
                [db.campaign, username],
            )
        elif had:
            cur.execute(f"INSERT INTO {db.shared('accounts_outside_default')}(username) VALUES (?)", [username])
    return had


def account_of_session(db: Database, token_hash: str) -> str | None:
    """The active account of a live session, whatever its roles (sessions are shared by
    the campaigns; :func:`session_user` gives the role in ``db``'s campaign)."""
    row = (
        db.cursor()
        .execute(
            f"SELECT u.username FROM {db.shared('sessions')} s JOIN {db.shared('users')} u USING (username) "
            "WHERE s.token_hash = ? AND s.expires_at > current_timestamp AND u.active",
            [token_hash],
        )
        .fetchone()
    )
    return row[0] if row else None


def roles_by_campaign(db: Database, username: str) -> dict[str, str]:
    """{campaign: role} of an active account in every campaign of the database where it
    has one (the default campaign: ``users.role``, unless the account is outside it)."""
    cur = db.cursor()
    if not cur.execute(
        f"SELECT count(*) FROM {db.shared('users')} WHERE username = ? AND active", [username]
    ).fetchone()[0]:
        return {}
    row = cur.execute(f"SELECT role FROM ({db.default_accounts()}) WHERE username = ?", [username]).fetchone()
    roles = {DEFAULT_CAMPAIGN: row[0]} if row else {}
    names = db.campaign_names()
    for campaign, role in cur.execute(
        f"SELECT campaign, role FROM {db.shared('campaign_roles')} WHERE username = ? ORDER BY campaign", [username]
    ).fetchall():
        if campaign in names:
            roles[campaign] = role
    return roles


def account_names(db: Database) -> list[str]:
    """Every account of the database, whatever its roles (what passwords, deactivation,
    e-mails and locks act on), by name."""
    return [r[0] for r in db.cursor().execute(f"SELECT username FROM {db.shared('users')} ORDER BY 1").fetchall()]


def user_exists(db: Database, username: str) -> bool:
    return db.cursor().execute("SELECT count(*) FROM users WHERE username = ?", [username]).fetchone()[0] > 0


def user_counts(db: Database, names: list[str]) -> tuple[int, int]:
    """(how many accounts there are, how many of ``names`` exist): what the login form
    asks on every run, in one read of the small users table. Accounts of the whole
    database: a campaign where nobody has a role yet does not offer a "first lead" form."""
    marks = ", ".join("?" * len(names)) or "NULL"
    row = (
        db.cursor()
        .execute(
            f"SELECT count(*), count(*) FILTER (WHERE username IN ({marks})) FROM {db.shared('users')}", list(names)
        )
        .fetchone()
    )
    return int(row[0]), int(row[1])


def get_user_row(db: Database, username: str) -> tuple | None:
    """(username, password hash, role in ``db``'s campaign or None, active) of an account
    of the database: a password is the account's, whatever campaign it is checked from."""
    return (
        db.cursor()
        .execute(
            f"SELECT a.username, a.password_hash, c.role, a.active FROM {db.shared('users')} a "
            "LEFT JOIN users c USING (username) WHERE a.username = ?",
            [username],
        )
        .fetchone()
    )


def update_password_hash(db: Database, username: str, password_hash: str, end_sessions: bool = True) -> None:
    with db.transaction() as cur:
        cur.execute(f"UPDATE {db.shared('users')} SET password_hash = ? WHERE username = ?", [password_hash, username])
        if end_sessions:  # whoever knew the old password is logged out
            cur.execute("DELETE FROM sessions WHERE username = ?", [username])


def set_user_fields(db: Database, username: str, *, role: str | None = None, active: bool | None = None) -> None:
    with db.transaction() as cur:
        if role is not None and db.schema:
            _put_campaign_role(cur, db, username, role)
        elif role is not None:
            cur.execute(f"UPDATE {db.shared('users')} SET role = ? WHERE username = ?", [role, username])
        if active is not None:
            cur.execute(f"UPDATE {db.shared('users')} SET active = ? WHERE username = ?", [active, username])
            if not active:
                cur.execute("DELETE FROM sessions WHERE username = ?", [username])


def list_users(db: Database) -> pd.DataFrame:
    return (
        db.cursor()
        .execute("""
        SELECT u.username, u.role, u.active, u.created_at,
               count(e.event_id) AS judgment_events, max(e.created_at) AS last_judged_at
        FROM users u LEFT JOIN judgment_events e USING (username)
        GROUP BY ALL ORDER BY u.role DESC, u.username""")
        .df()
    )


def insert_session(db: Database, token_hash: str, username: str, hours: int) -> None:
    with db.transaction() as cur:
        cur.execute("DELETE FROM sessions WHERE expires_at < current_timestamp")
        cur.execute(
            "INSERT INTO sessions(token_hash, username, expires_at) "
            "VALUES (?, ?, current_timestamp + to_hours(CAST(? AS BIGINT)))",
            [token_hash, username, hours],
        )


def session_user(db: Database, token_hash: str) -> tuple | None:
    return (
        db.cursor()
        .execute(
            """
        SELECT u.username, u.role FROM sessions s JOIN users u USING (username)
        WHERE s.token_hash = ? AND s.expires_at > current_timestamp AND u.active""",
            [token_hash],
        )
        .fetchone()
    )


def delete_session(db: Database, token_hash: str) -> None:
    with db.transaction() as cur:
        cur.execute("DELETE FROM sessions WHERE token_hash = ?", [token_hash])


# -- login throttling ---------------------------------------------------------------------
def login_state(db: Database, username: str, address: str | None, window_minutes: int) -> dict:
    """Failures of ``username`` since its last success or unlock (count, seconds since the
    latest), whether it is locked, and failures from ``address`` in the last
    ``window_minutes`` (count, seconds since the latest)."""
    row = (
        db.cursor()
        .execute(
            """
        WITH since AS (
            SELECT greatest(
                (SELECT max(attempted_at) FROM login_events WHERE username = $user AND ok),
                (SELECT max(unlocked_at) FROM account_locks WHERE username = $user),
                TIMESTAMP '1970-01-01') AS t),
        mine AS (SELECT count(*) AS n, max(attempted_at) AS last FROM login_events, since
                 WHERE username = $user AND NOT ok AND attempted_at > since.t),
        addr AS (SELECT count(*) AS n, max(attempted_at) AS last FROM login_events
                 WHERE $address IS NOT NULL AND address = $address AND NOT ok
                   AND attempted_at > current_timestamp - to_minutes(CAST($window AS BIGINT)))
        SELECT mine.n, epoch(current_timestamp - mine.last),
               EXISTS (SELECT 1 FROM account_locks WHERE username = $user AND unlocked_at IS NULL),
               addr.n, epoch(current_timestamp - addr.last)
        FROM mine, addr""",
            {"user": username, "address": address, "window": window_minutes},
        )
        .fetchone()
    )
    return {
        "failures": row[0],
        "since_failure": row[1],
        "locked": bool(row[2]),
        "address_failures": row[3],
        "since_address_failure": row[4],
    }


def record_login(db: Database, username: str, address: str | None, ok: bool, lock: bool = False) -> None:
    with db.transaction() as cur:
        cur.execute("INSERT INTO login_events(username, address, ok) VALUES (?, ?, ?)", [username, address, ok])
        if lock:
            cur.execute(
                "INSERT INTO account_locks(username) SELECT ? WHERE NOT EXISTS ("
                "SELECT 1 FROM account_locks WHERE username = ? AND unlocked_at IS NULL)",
                [username, username],
            )


def unlock(db: Database, username: str, lead: str) -> bool:
    # Count, then change, in one transaction (no RETURNING: PostgreSQL through DuckDB's
    # postgres extension does not support it).
    with db.transaction() as cur:
        n = cur.execute(
            "SELECT count(*) FROM account_locks WHERE username = ? AND unlocked_at IS NULL", [username]
        ).fetchone()[0]
        if n:
            cur.execute(
                "UPDATE account_locks SET unlocked_at = current_timestamp, unlocked_by = ? "
                "WHERE username = ? AND unlocked_at IS NULL",
                [lead, username],
            )
    return bool(n)


def locked_users(db: Database) -> list[str]:
    return [
        r[0]
        for r in db.cursor()
        .execute("SELECT DISTINCT username FROM account_locks WHERE unlocked_at IS NULL ORDER BY 1")
        .fetchall()
    ]


def failed_logins(db: Database, limit: int = 500) -> pd.DataFrame:
    """The latest failed logins, newest first."""
    return (
        db.cursor()
        .execute(
            """
        SELECT attempted_at, username, address FROM login_events WHERE NOT ok ORDER BY event_id DESC LIMIT ?""",
            [limit],
        )
        .df()
    )


def list_sessions(db: Database) -> pd.DataFrame:
    """Sessions not yet expired: who, since when, until when, and a short id (the first
    characters of the token's hash, never the token)."""
    return (
        db.cursor()
        .execute("""
        SELECT left(token_hash, 10) AS session_id, username, created_at, expires_at
        FROM sessions WHERE expires_at > current_timestamp ORDER BY created_at DESC""")
        .df()
    )


def delete_session_by_id(db: Database, session_id: str) -> int:
    if len(session_id or "") < 10:
        return 0
    with db.transaction() as cur:  # no RETURNING (see unlock)
        n = cur.execute("SELECT count(*) FROM sessions WHERE left(token_hash, 10) = ?", [session_id]).fetchone()[0]
        if n:
            cur.execute("DELETE FROM sessions WHERE left(token_hash, 10) = ?", [session_id])
    return int(n)


# -- organisation login: e-mails of accounts, identities waiting for a lead ---------------
def email_owner(db: Database, email: str) -> str | None:
    row = db.cursor().execute("SELECT username FROM account_emails WHERE email = ?", [email]).fetchone()
    return row[0] if row else None


def set_email(db: Database, username: str, email: str | None, by: str) -> None:
    """The account's e-mail (``email`` lower-case already), or none; a request waiting
    under that e-mail is answered by it."""
    with db.transaction() as cur:
        cur.execute("DELETE FROM account_emails WHERE username = ?", [username])
        if email:
            cur.execute("INSERT INTO account_emails(email, username, set_by) VALUES (?, ?, ?)", [email, username, by])
            cur.execute("DELETE FROM identity_requests WHERE email = ?", [email])


def emails(db: Database) -> dict[str, str]:
    """username → e-mail, for the accounts that have one."""
    return dict(db.cursor().execute("SELECT username, email FROM account_emails").fetchall())


def record_identity_request(db: Database, email: str, name: str | None, provider: str | None) -> None:
    with db.transaction() as cur:
        n = cur.execute("SELECT count(*) FROM identity_requests WHERE email = ?", [email]).fetchone()[0]
        if n:
            cur.execute(
                "UPDATE identity_requests SET attempts = attempts + 1, last_seen = current_timestamp, "
                "name = ?, provider = ? WHERE email = ?",
                [name, provider, email],
            )
        else:
            cur.execute(
                "INSERT INTO identity_requests(email, name, provider) VALUES (?, ?, ?)", [email, name, provider]
            )


def identity_requests(db: Database) -> pd.DataFrame:
    """Identities refused for want of an account, newest first."""
    return (
        db.cursor()
        .execute(
            "SELECT email, name AS identity_name, provider, attempts AS refusals, first_seen, last_seen "
            "FROM identity_requests "
            "ORDER BY last_seen DESC, email"
        )
        .df()
    )


def delete_identity_request(db: Database, email: str) -> int:
    with db.transaction() as cur:
        n = cur.execute("SELECT count(*) FROM identity_requests WHERE email = ?", [email]).fetchone()[0]
        if n:
            cur.execute("DELETE FROM identity_requests WHERE email = ?", [email])
    return int(n)


def insert_user_with_email(db: Database, username: str, password_hash: str, role: str, email: str, by: str) -> None:
    """A new account reached by its e-mail (organisation login), in one transaction with
    the e-mail and the end of the request that asked for it."""
    with db.transaction() as cur:
        cur.execute(
            f"INSERT INTO {db.shared('users')}(username, password_hash, role) VALUES (?, ?, ?)",
            [username, password_hash, role],
        )
        cur.execute("INSERT INTO account_emails(email, username, set_by) VALUES (?, ?, ?)", [email, username, by])
        cur.execute("DELETE FROM identity_requests WHERE email = ?", [email])
