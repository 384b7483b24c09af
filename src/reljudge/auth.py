"""Accounts, roles and login sessions.

Passwords are hashed with Argon2id (argon2-cffi, memory-hard, RFC 9106) and never
stored or logged in clear. Session tokens are random; only their SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from reljudge.errors import ReljudgeError
from reljudge.storage import accounts
from reljudge.storage.db import Database

ROLES = ("annotator", "lead")
SESSION_HOURS = 12
_hasher = PasswordHasher()
_USERNAME = re.compile(r"^[\w.\-@]{1,64}$", re.UNICODE)
# Verifying against a dummy hash when the user does not exist keeps the time
# the same, so response time does not reveal which usernames exist.
_DUMMY_HASH = _hasher.hash("reljudge-dummy-password")


@dataclass(frozen=True)
class User:
    username: str
    role: str

    @property
    def is_lead(self) -> bool:
        return self.role == "lead"


def validate_username(username: str) -> str:
    username = (username or "").strip()
    if not _USERNAME.match(username):
        raise ReljudgeError(
            f"invalid username {username!r}: 1–64 letters, digits, '.', '-', '_' or '@'")
    return username


def validate_password(password: str) -> None:
    if len(password or "") < 8:
        raise ReljudgeError("password must have at least 8 characters / 비밀번호는 8자 이상이어야 합니다")


def add_user(db: Database, username: str, password: str, role: str) -> User:
    username = validate_username(username)
    if role not in ROLES:
        raise ReljudgeError(f"unknown role {role!r}; choose one of {', '.join(ROLES)}")
    validate_password(password)
    if accounts.user_exists(db, username):
        raise ReljudgeError(f"user {username!r} already exists / 이미 있는 사용자입니다")
    accounts.insert_user(db, username, _hasher.hash(password), role)
    return User(username, role)


def set_password(db: Database, username: str, password: str) -> None:
    validate_password(password)
    if not accounts.user_exists(db, username):
        raise ReljudgeError(f"no such user {username!r}")
    accounts.update_password_hash(db, username, _hasher.hash(password))


def set_role(db: Database, username: str, role: str) -> None:
    if role not in ROLES:
        raise ReljudgeError(f"unknown role {role!r}; choose one of {', '.join(ROLES)}")
    if not accounts.user_exists(db, username):
        raise ReljudgeError(f"no such user {username!r}")
    accounts.set_user_fields(db, username, role=role)


def set_active(db: Database, username: str, active: bool) -> None:
    if not accounts.user_exists(db, username):
        raise ReljudgeError(f"no such user {username!r}")
    accounts.set_user_fields(db, username, active=active)


def is_active(db: Database, username: str) -> bool:
    row = accounts.get_user_row(db, username)
    return bool(row and row[3])


def authenticate(db: Database, username: str, password: str) -> User | None:
    """The user if the password matches an active account, else None."""
    row = accounts.get_user_row(db, (username or "").strip())
    stored = row[1] if row else _DUMMY_HASH
    try:
        _hasher.verify(stored, password or "")
    except (VerificationError, InvalidHashError):
        return None
    if not row or not row[3]:
        return None
    if _hasher.check_needs_rehash(stored):
        accounts.update_password_hash(db, row[0], _hasher.hash(password), end_sessions=False)
    return User(row[0], row[2])


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def start_session(db: Database, user: User) -> str:
    token = secrets.token_urlsafe(32)
    accounts.insert_session(db, _token_hash(token), user.username, SESSION_HOURS)
    return token


def user_for_token(db: Database, token: str | None) -> User | None:
    if not isinstance(token, str) or not token:
        return None
    row = accounts.session_user(db, _token_hash(token))
    return User(row[0], row[1]) if row else None


def end_session(db: Database, token: str | None) -> None:
    if token:
        accounts.delete_session(db, _token_hash(token))


list_users = accounts.list_users
