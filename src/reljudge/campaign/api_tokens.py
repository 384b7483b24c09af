"""Personal API tokens: a remote client's credential (issue 37 §2, docs/served.md).

A token belongs to one account in one campaign and gives that account's role there, no
more; ``reljudge --campaign C users token create NAME`` prints it once. It is
``rjt_`` + ``secrets.token_urlsafe(32)`` (256 random bits; the prefix tells it from the
runtime file's local secret and lets secret scanners find a leaked one). Stored is its
SHA-256 only (:func:`reljudge.campaign.auth.token_hash`, as the login sessions): a token,
unlike a password, is too random to be guessed from its hash, so the slow, salted hash a
password needs (Argon2id, 64 MiB per check) buys nothing here, and a fast one lets every
request find the token's row by its key.

Checking a token (:func:`check`) is throttled like a password login, per client address
(reljudge.campaign.auth: ADDRESS_FAILURES failures in ADDRESS_WINDOW_MINUTES, then a
growing wait), each failure recorded as a failed login of :data:`TOKEN_LOGIN_NAME` (no
account can have that name); the token itself is never stored, logged or echoed.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage import accounts
from reljudge.storage import api_tokens as storage
from reljudge.storage.db import Database

CODES = Codes(
    error_token_expires=("value",),
    error_token_name=("name",),
    error_token_name_taken=("name", "user", "campaign"),
    error_token_no_such=("name", "user", "campaign"),
    error_token_user_needed=(),
    error_token_not_yours=("user",),
    error_token_no_role=("user", "campaign"),
)
"""The errors of the token commands (``ReljudgeError.message``)."""

PREFIX = "rjt_"
#: What ``--expires`` takes: a number of hours, days or weeks, or ``never``.
_EXPIRES = re.compile(r"^\s*(\d{1,5})\s*([hdw])\s*$")
_HOURS = {"h": 1, "d": 24, "w": 24 * 7}
MAX_EXPIRES_HOURS = 5 * 365 * 24
DEFAULT_EXPIRES = "90d"
_NAME = re.compile(r"^[\w.\-]{1,64}$", re.UNICODE)
#: The name a failed token check is recorded under in ``login_events``: not a valid
#: username (reljudge.campaign.auth.validate_username), so no account's throttle counts it.
TOKEN_LOGIN_NAME = "(api token)"


def expires_hours(value: str | None) -> int | None:
    """Hours until a new token expires, from ``--expires`` (``12h``, ``30d``, ``8w``;
    at most five years), None for ``never``; anything else is refused by code."""
    text = DEFAULT_EXPIRES if value is None else value
    if text.strip().lower() == "never":
        return None
    found = _EXPIRES.match(text)
    hours = int(found.group(1)) * _HOURS[found.group(2)] if found else 0
    if not found or hours <= 0 or hours > MAX_EXPIRES_HOURS:
        raise ReljudgeError(CODES("error_token_expires", value=value))
    return hours


def acting_user(db: Database, username: str | None, acting: str | None, acting_role: str | None) -> str:
    """The account a token command is about: ``username`` (``--user``), else the caller's
    own. A caller through a token (``acting``) who is not a lead of the campaign may name
    only themself; the operator (the local CLI, ``acting`` None) must name one."""
    user = username or acting
    if user is None:
        raise ReljudgeError(CODES("error_token_user_needed"))
    if acting is not None and acting_role != "lead" and user != acting:
        raise ReljudgeError(CODES("error_token_not_yours", user=user))
    return user


def create(db: Database, username: str, name: str, hours: int | None, by: str) -> str:
    """A new token of ``username`` (who must have a role in ``db``'s campaign) named
    ``name``: returned once, only its hash stored."""
    from reljudge.campaign.auth import token_hash

    if not isinstance(name, str) or not _NAME.match(name):
        raise ReljudgeError(CODES("error_token_name", name=name))
    if db.cursor().execute("SELECT count(*) FROM users WHERE username = ?", [username]).fetchone()[0] == 0:
        raise ReljudgeError(CODES("error_token_no_role", user=username, campaign=db.campaign))
    token = PREFIX + secrets.token_urlsafe(32)
    if not storage.insert_token(db, token_hash(token), username, name, by, hours):
        raise ReljudgeError(CODES("error_token_name_taken", name=name, user=username, campaign=db.campaign))
    return token


def revoke(db: Database, username: str, name: str) -> None:
    if not storage.revoke_token(db, username, name):
        raise ReljudgeError(CODES("error_token_no_such", name=name, user=username, campaign=db.campaign))


list_tokens = storage.list_tokens


@dataclass(frozen=True)
class TokenCheck:
    """``username``, ``campaign`` and ``role`` (in that campaign) of a token that may be
    used; otherwise ``refusal``: "unknown" (no such token, or not one), "revoked",
    "expired", "inactive" (the account was deactivated or has no role in the campaign any
    more), or "wait" (too many failures from this address; ``wait_seconds`` left)."""

    username: str | None = None
    campaign: str | None = None
    role: str | None = None
    refusal: str | None = None
    wait_seconds: int = 0


def check(db: Database, token: str | None, address: str | None) -> TokenCheck:
    """Who a presented token is, throttled per address like password logins
    (reljudge.campaign.auth.login); ``db``: the default campaign (the throttle's table).
    Each refusal but "wait" counts as a failed login of the address; a use is recorded."""
    from reljudge.campaign import auth

    state = accounts.login_state(db, TOKEN_LOGIN_NAME, address, auth.ADDRESS_WINDOW_MINUTES)
    wait = auth.address_wait(state)
    if wait:
        return TokenCheck(refusal="wait", wait_seconds=wait)
    hashed = auth.token_hash(token) if isinstance(token, str) and token.startswith(PREFIX) else None
    row = storage.token_state(db, hashed) if hashed else None
    refusal = None
    if row is None:
        refusal = "unknown"
    else:
        username, campaign, revoked, expired, active = row
        role = accounts.roles_by_campaign(db, username).get(campaign) if active else None
        refusal = "revoked" if revoked else "expired" if expired else None if role else "inactive"
    if refusal:
        accounts.record_login(db, TOKEN_LOGIN_NAME, address, False)
        return TokenCheck(refusal=refusal)
    storage.touch_token(db, hashed)
    return TokenCheck(username=username, campaign=campaign, role=role)
