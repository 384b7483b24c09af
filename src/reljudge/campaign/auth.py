"""Accounts, roles and login sessions.

Passwords are hashed with Argon2id (argon2-cffi, memory-hard, RFC 9106) and never
stored or logged in clear. Session tokens are random; only their SHA-256 is stored.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import re
import secrets
import sys
import threading
import time
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage import accounts
from reljudge.storage.db import Database

CODES = Codes(
    error_invalid_username=("user",),
    error_short_password=(),
    error_unknown_role=("role", "roles"),
    error_user_exists=("user",),
    error_accounts_exist=(),
    error_bad_setup_code=(),
    error_invalid_email=("email",),
    error_lookalike_email=("email",),
    error_email_taken=("email", "user"),
    error_no_such_identity=("email",),
    error_identities_in_default=("campaign",),
    error_account_elsewhere=("user", "campaign"),
    error_no_such_account=("user",),
    error_no_role_here=("user", "campaign"),
    error_not_member=("user", "campaign", "command"),
)
"""The errors about accounts this module raises (``ReljudgeError.message``)."""

ROLES = ("annotator", "lead")
SESSION_HOURS = 12
#: ``fast``: Argon2id with its smallest parameters (1 pass, 8 KiB), for the test suite only,
#: which creates thousands of accounts; unset: argon2-cffi's defaults (RFC 9106's
#: low-memory profile: 3 passes, 64 MiB). A hash records its own parameters, so a hash made
#: either way verifies under the other, and a login rehashes it with the current ones.
PASSWORD_HASHING_ENV = "RELJUDGE_PASSWORD_HASHING"
_hasher: PasswordHasher | None = None
_dummy_hash: str | None = None
_USERNAME = re.compile(r"^[\w.\-@]{1,64}$", re.UNICODE)
# An e-mail as providers send it: one @, no spaces or controls, a dot-free local part allowed.
_EMAIL = re.compile(r"^[^@\s\x00-\x1f\x7f]{1,64}@[^@\s\x00-\x1f\x7f]{1,189}$")


def password_hasher() -> PasswordHasher:
    """The hasher of new passwords (made on first use, as $RELJUDGE_PASSWORD_HASHING says)."""
    global _hasher
    if _hasher is None:
        fast = os.environ.get(PASSWORD_HASHING_ENV, "").strip().lower() == "fast"
        _hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1) if fast else PasswordHasher()
    return _hasher


def use_password_hasher(hasher: PasswordHasher | None) -> None:
    """Hash new passwords with ``hasher`` from now on (None: as $RELJUDGE_PASSWORD_HASHING says)."""
    global _hasher, _dummy_hash
    _hasher, _dummy_hash = hasher, None


def _dummy_password_hash() -> str:
    """A hash to verify against when the user does not exist, made with the current
    hasher's parameters, so that the response time does not reveal which usernames
    exist. Made on first use: importing this module hashes nothing."""
    global _dummy_hash
    if _dummy_hash is None:
        _dummy_hash = password_hasher().hash("reljudge-dummy-password")
    return _dummy_hash


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
        raise ReljudgeError(CODES("error_invalid_username", user=username))
    return username


def validate_password(password: str) -> None:
    if len(password or "") < 8:
        raise ReljudgeError(CODES("error_short_password"))


def add_user(db: Database, username: str, password: str, role: str) -> User:
    username = validate_username(username)
    if role not in ROLES:
        raise ReljudgeError(CODES("error_unknown_role", role=role, roles=ROLES))
    validate_password(password)
    if accounts.user_exists(db, username):
        raise ReljudgeError(CODES("error_user_exists", user=username))
    if accounts.account_exists(db, username):
        # accounts are shared by the campaigns of a database: one password, one account
        raise ReljudgeError(CODES("error_account_elsewhere", user=username, campaign=db.campaign))
    accounts.insert_user(db, username, password_hasher().hash(password), role)
    return User(username, role)


def grant_role(db: Database, username: str, role: str) -> User:
    """Give an existing account of the database ``role`` in ``db``'s campaign (a lead of
    one campaign may annotate in another)."""
    if role not in ROLES:
        raise ReljudgeError(CODES("error_unknown_role", role=role, roles=ROLES))
    if not accounts.account_exists(db, username):
        raise ReljudgeError(CODES("error_no_such_account", user=username))
    accounts.grant_role(db, username, role)
    return User(username, role)


def grant_command(db: Database, username: str, role: str = "annotator") -> str:
    """The command line that gives ``username`` ``role`` in ``db``'s campaign (what a
    refusal for want of a role tells the lead to run)."""
    where = f"--campaign {db.campaign} " if db.schema else ""
    return f"reljudge {where}users grant {username} --role {role}"


def require_member(db: Database, username: str) -> None:
    """ReljudgeError unless ``username`` has a role in ``db``'s campaign, worded apart:
    no such account at all (``error_no_such_account``), or an account that exists but has
    no role here (``error_not_member``, with the command that gives one)."""
    if accounts.user_exists(db, username):
        return
    if not accounts.account_exists(db, username):
        raise ReljudgeError(CODES("error_no_such_account", user=username))
    raise ReljudgeError(
        CODES("error_not_member", user=username, campaign=db.campaign, command=grant_command(db, username))
    )


def revoke_role(db: Database, username: str) -> None:
    """Take the account's role in ``db``'s campaign; it keeps its password, its sessions
    and its roles in the other campaigns, and its judgments stay where they were made."""
    if not accounts.account_exists(db, username):
        raise ReljudgeError(CODES("error_no_such_account", user=username))
    if not accounts.revoke_role(db, username):
        raise ReljudgeError(CODES("error_no_role_here", user=username, campaign=db.campaign))


# -- the address a login comes from ---------------------------------------------------------
#: Proxies whose X-Forwarded-For header is believed (comma-separated addresses or networks,
#: e.g. ``127.0.0.1`` for an nginx on the same machine). Unset: none. `reljudge serve` hands
#: the same list to uvicorn (FORWARDED_ALLOW_IPS), which resolves the client's address.
TRUSTED_PROXIES_ENV = "RELJUDGE_TRUSTED_PROXIES"
#: What a request with an X-Forwarded-For header that no named proxy vouches for counts as:
#: the local process that sent it. uvicorn believes the header from loopback by default and
#: has already put the header's address in place of the peer's, so the peer is gone; it was
#: on this machine, and the throttle keys it so.
UNTRUSTED_FORWARDER = "127.0.0.1"


def trusted_proxies() -> list[str]:
    return [p.strip() for p in os.environ.get(TRUSTED_PROXIES_ENV, "").split(",") if p.strip()]


def client_address(peer: str | None, forwarded_for: list[str]) -> str | None:
    """The address the login throttle counts a request under: the peer's, or, when a proxy
    the operator named in $RELJUDGE_TRUSTED_PROXIES forwarded it, the client's. A header
    nobody vouches for is the client's own word: 20 failures and then ``X-Forwarded-For:
    203.0.113.9`` must not start the count again."""
    if not forwarded_for or trusted_proxies():
        return peer
    # uvicorn read its trust list from the environment at start (its default: loopback);
    # where it trusts nobody (`reljudge serve` sets that), the peer is the real one
    if not os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1").strip():
        return peer
    return UNTRUSTED_FORWARDER


# -- the one-time setup code ----------------------------------------------------------------
# A new database has no account, and the browser offers to create its first lead. Whoever
# reaches the server first could take the campaign; so, as Jupyter does with its token,
# the server prints a code in its log (only the person who started it sees it) and the
# form asks for it. The command line needs none: it already has the database itself.
_setup_code: str | None = None
_setup_lock = threading.Lock()
#: Letters and digits that cannot be misread for each other (no 0/O, 1/l/I).
_SETUP_ALPHABET = "23456789abcdefghijkmnpqrstuvwxyz"


def setup_code() -> str:
    """This process's setup code (made on first use, ~60 bits: three groups of four),
    and printed then on stderr, the server's log."""
    global _setup_code
    with _setup_lock:
        if _setup_code is None:
            code = "".join(secrets.choice(_SETUP_ALPHABET) for _ in range(12))
            _setup_code = "-".join(code[i : i + 4] for i in range(0, 12, 4))
            print(
                "reljudge: this database has no account yet. To create the first lead in the browser, "
                f"enter this setup code: {_setup_code}  (설정 코드: 첫 책임자 계정을 만들 때 입력)",
                file=sys.stderr,
                flush=True,
            )
        return _setup_code


def announce_setup_code(db: Database) -> None:
    """At the web server's start: print the setup code when the database has no account,
    in any campaign (an account with roles only in other campaigns is an account: the
    first-lead door stays shut)."""
    if not accounts.account_names(db):
        setup_code()


def add_first_lead(db: Database, username: str, password: str, code: str | None) -> User:
    """The first account of a database without any: a lead (refused once any account
    exists, and without this process's :func:`setup_code`; spaces, dashes and case are
    forgiven)."""

    def plain(text: str) -> bytes:
        return "".join(text.replace("-", " ").split()).lower().encode()

    if not secrets.compare_digest(plain(code or ""), plain(setup_code())):
        raise ReljudgeError(CODES("error_bad_setup_code"))
    if accounts.account_names(db):  # every account of the database, not this campaign's
        raise ReljudgeError(CODES("error_accounts_exist"))
    return add_user(db, username, password, "lead")


def set_password(db: Database, username: str, password: str, by: str) -> None:
    """A new password, set by ``by`` (a lead, or ``cli``); it also lifts a lock of the
    account: otherwise ten wrong passwords against the only lead would lock the campaign
    until someone edited the database."""
    validate_password(password)
    if not accounts.account_exists(db, username):
        raise ReljudgeError(CODES("error_no_such_account", user=username))
    accounts.update_password_hash(db, username, password_hasher().hash(password))
    accounts.unlock(db, username, by)


# -- organisation login (OpenID Connect) ------------------------------------------------------
#: ``off`` (or 0/false/no) turns password login off: only organisation login remains, and
#: the password route (/api/login) and form refuse. The first-lead form and the command
#: line are not password logins and stay.
PASSWORD_LOGIN_ENV = "RELJUDGE_PASSWORD_LOGIN"


def password_login_enabled() -> bool:
    return os.environ.get(PASSWORD_LOGIN_ENV, "").strip().lower() not in ("0", "off", "false", "no")


@functools.lru_cache(maxsize=4096)
def _maps_to_ascii(char: str) -> bool:
    """Whether a Unicode case mapping (lower, upper, title, casefold) or the compatibility
    normalisation (NFKC, and NFKC then casefold) of the non-ASCII ``char`` yields an
    ASCII character: KELVIN SIGN (U+212A) lower-cases to ``k``, LONG S (ſ) upper-cases to
    ``S``, the ligature ﬀ is ``ff`` under NFKC, fullwidth letters are ASCII letters under
    NFKC, dotless ı upper-cases to ``I``, dotted İ lower-cases to ``i`` and a combining
    dot. About 1,600 code points do."""
    nfkc = unicodedata.normalize("NFKC", char)
    mapped = (char.lower(), char.upper(), char.title(), char.casefold(), nfkc, nfkc.casefold())
    return any(ord(c) < 128 for text in mapped for c in text)


def normalize_email(email: str | None) -> str:
    """An e-mail as stored and compared; ReljudgeError if it is none.

    An all-ASCII address is trimmed and lower-cased in ASCII only (``Kim@Example.ORG`` is
    ``kim@example.org``). Any other address is trimmed and put in NFC, and otherwise kept
    exactly as it is: it matches a stored address only when the two are the same string.
    An address with a character that a Unicode case or compatibility mapping turns into
    ASCII (:func:`_maps_to_ascii`) is refused, never mapped: ``\u212aim@example.org``
    (KELVIN SIGN) must not open the account of ``kim@example.org``. Harder normalising
    (NFKC plus casefold) would make it worse: it maps those characters *onto* ASCII
    addresses, which is exactly the look-alike attack."""
    text = email.strip() if isinstance(email, str) else ""
    if text.isascii():
        # str.lower() on ASCII text touches only A-Z
        text = text.lower()
    else:
        # before NFC, which itself maps some of them (KELVIN SIGN is K's canonical equivalent)
        if any(not c.isascii() and _maps_to_ascii(c) for c in text):
            raise ReljudgeError(CODES("error_lookalike_email", email=text[:254]))
        text = unicodedata.normalize("NFC", text)
    if not _EMAIL.match(text):
        raise ReljudgeError(CODES("error_invalid_email", email=str(email or "")[:254]))
    return text


def _in_default_campaign(db: Database) -> None:
    """Accounts' e-mails and the identities waiting for an account belong to the accounts,
    which every campaign shares: they are managed in the default campaign (as on the users
    page), where an admitted identity's role is given."""
    if db.schema:
        raise ReljudgeError(CODES("error_identities_in_default", campaign=db.campaign))


def set_email(db: Database, username: str, email: str | None, by: str) -> None:
    """Give ``username`` the e-mail its organisation account signs in with (None or "":
    none). One account per e-mail."""
    _in_default_campaign(db)
    if not accounts.account_exists(db, username):
        raise ReljudgeError(CODES("error_no_such_account", user=username))
    email = normalize_email(email) if email else None
    owner = email and accounts.email_owner(db, email)
    if owner and owner != username:
        raise ReljudgeError(CODES("error_email_taken", email=email, user=owner))
    accounts.set_email(db, username, email, by)


@dataclass(frozen=True)
class IdentityOutcome:
    """``user`` on success; otherwise ``refusal``: "expired" (the ID token is too old:
    sign in at the provider again), "invalid_token" (its ``exp`` is not a finite number,
    or its ``iat`` lies in the future), "lookalike" (its e-mail holds a character that a
    Unicode mapping turns into ASCII: refused, never mapped), "unverified" (no e-mail the provider
    vouches for), "inactive" (its account is deactivated), "pending" (no account has it:
    recorded for a lead), and
    ``email`` the identity's e-mail when it had a valid one."""

    user: User | None
    refusal: str | None = None
    email: str | None = None


#: How far in the future an ID token's ``iat`` (issued at) may lie: the provider's clock
#: and ours may differ by this much (seconds).
CLOCK_SKEW_SECONDS = 120


def _numeric_date(value) -> bool:
    """A JWT NumericDate (RFC 7519 §2): a finite JSON number of seconds. A string, a
    boolean, NaN or infinity is none (a token whose ``exp`` is none never expires, so it
    is refused)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _claim_true(value) -> bool:
    # some providers send the claim as a string
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def identity_login(
    db: Database, claims: dict, provider: str | None = None, now: float | None = None, record: bool = True
) -> IdentityOutcome:
    """The account an identity the OpenID provider vouched for (``claims``: the ID
    token's) signs in to: the active account whose e-mail is the identity's *verified*
    e-mail (``email_verified`` true), compared as :func:`normalize_email` says. An identity with none is refused and recorded as a
    request a lead can answer (activate_identity); an unverified e-mail is refused and not
    recorded (anyone could claim it). An ID token past its ``exp`` opens nothing
    ("expired"): Streamlit keeps the identity in a cookie for 30 days, but a new reljudge
    session (after a logout, an ended or expired one) needs a fresh sign-in at the
    provider. ``record=False``: refuse without recording (the same refusal again)."""
    now = time.time() if now is None else now
    exp, iat = claims.get("exp"), claims.get("iat", now)
    if not (_numeric_date(exp) and _numeric_date(iat)) or iat > now + CLOCK_SKEW_SECONDS:
        return IdentityOutcome(None, "invalid_token")
    if exp < now:
        return IdentityOutcome(None, "expired")
    try:
        email = normalize_email(claims.get("email"))
    except ReljudgeError as exc:
        if exc.message.code == "error_lookalike_email":
            return IdentityOutcome(None, "lookalike")
        return IdentityOutcome(None, "unverified")
    if not _claim_true(claims.get("email_verified")):
        return IdentityOutcome(None, "unverified", email)
    owner = accounts.email_owner(db, email)
    row = owner and accounts.get_user_row(db, owner)
    if row and row[3]:
        accounts.record_login(db, row[0], None, True)
        return IdentityOutcome(User(row[0], row[2]), email=email)
    if row:  # a deactivated account: a lead's decision, not a request to answer
        return IdentityOutcome(None, "inactive", email)
    if record:
        name = claims.get("name")
        accounts.record_identity_request(db, email, str(name)[:200] if name else None, (provider or "")[:64] or None)
    return IdentityOutcome(None, "pending", email)


identity_requests = accounts.identity_requests


def activate_identity(db: Database, email: str, username: str, role: str, by: str) -> User:
    """Answer a waiting identity: a new account ``username`` with ``role`` that signs in
    with ``email`` (organisation login only: its password is random and never shown; a
    lead can set one). To give the e-mail to an existing account, use set_email."""
    _in_default_campaign(db)
    email = normalize_email(email)
    username = validate_username(username)
    if role not in ROLES:
        raise ReljudgeError(CODES("error_unknown_role", role=role, roles=ROLES))
    if accounts.account_exists(db, username):
        raise ReljudgeError(CODES("error_user_exists", user=username))
    owner = accounts.email_owner(db, email)
    if owner:
        raise ReljudgeError(CODES("error_email_taken", email=email, user=owner))
    accounts.insert_user_with_email(db, username, password_hasher().hash(secrets.token_urlsafe(32)), role, email, by)
    return User(username, role)


def dismiss_identity(db: Database, email: str) -> None:
    """Drop a waiting identity's request (it may ask again by signing in)."""
    _in_default_campaign(db)
    if not accounts.delete_identity_request(db, normalize_email(email)):
        raise ReljudgeError(CODES("error_no_such_identity", email=email))


def set_role(db: Database, username: str, role: str) -> None:
    if role not in ROLES:
        raise ReljudgeError(CODES("error_unknown_role", role=role, roles=ROLES))
    require_member(db, username)
    accounts.set_user_fields(db, username, role=role)


def set_active(db: Database, username: str, active: bool) -> None:
    if not accounts.account_exists(db, username):
        raise ReljudgeError(CODES("error_no_such_account", user=username))
    accounts.set_user_fields(db, username, active=active)


def is_active(db: Database, username: str) -> bool:
    row = accounts.get_user_row(db, username)
    return bool(row and row[3])


# Throttling (OWASP's advice against online guessing): after FREE_FAILURES wrong
# passwords in a row an account waits 1, 2, 4 … seconds (at most MAX_WAIT_SECONDS) before
# the next attempt is even checked; LOCK_AFTER wrong passwords in a row lock it until a
# lead lifts the lock. One address with ADDRESS_FAILURES failures within
# ADDRESS_WINDOW_MINUTES (any accounts) waits the same way.
FREE_FAILURES = 5
LOCK_AFTER = 10
MAX_WAIT_SECONDS = 15 * 60
ADDRESS_FAILURES = 20
ADDRESS_WINDOW_MINUTES = 15


@dataclass(frozen=True)
class LoginOutcome:
    """``user`` on success; otherwise ``refusal``: "failed" (wrong name or password, or an
    inactive account), "wait" (throttled, ``wait_seconds`` left), "locked", or
    "disabled" (password login is turned off)."""

    user: User | None
    refusal: str | None = None
    wait_seconds: int = 0


def _wait_left(failures: int, since_last: float | None, free: int) -> int:
    if failures < free or since_last is None:
        return 0
    wait = min(MAX_WAIT_SECONDS, 2 ** (failures - free))
    return max(0, int(wait - since_last + 0.999))


def login(db: Database, username: str, password: str, address: str | None = None) -> LoginOutcome:
    """Check a login attempt, throttled per account and per address (see above); every
    attempt is recorded (name, address, success; never the password). Refused
    ("disabled") when password login is turned off (password_login_enabled)."""
    if not password_login_enabled():
        return LoginOutcome(None, "disabled")
    username = (username or "").strip()
    state = accounts.login_state(db, username, address, ADDRESS_WINDOW_MINUTES)
    if state["locked"]:
        return LoginOutcome(None, "locked")
    wait = max(
        _wait_left(state["failures"], state["since_failure"], FREE_FAILURES),
        address_wait(state),
    )
    if wait:
        return LoginOutcome(None, "wait", wait)
    row = accounts.get_user_row(db, username)
    stored = row[1] if row else _dummy_password_hash()
    try:
        password_hasher().verify(stored, password or "")
        ok = bool(row and row[3])
    except (VerificationError, InvalidHashError):
        ok = False
    if not ok:
        accounts.record_login(db, username[:64], address, False, lock=bool(row) and state["failures"] + 1 >= LOCK_AFTER)
        return LoginOutcome(None, "failed")
    accounts.record_login(db, row[0], address, True)
    if password_hasher().check_needs_rehash(stored):
        accounts.update_password_hash(db, row[0], password_hasher().hash(password), end_sessions=False)
    return LoginOutcome(User(row[0], row[2]))


def authenticate(db: Database, username: str, password: str, address: str | None = None) -> User | None:
    """The user if the password matches an active, unlocked account (throttled), else None."""
    return login(db, username, password, address).user


def unlock(db: Database, username: str, lead: str) -> bool:
    """Lift the lock of ``username`` (a lead's action); True if it was locked."""
    return accounts.unlock(db, username, lead)


locked_users = accounts.locked_users
failed_logins = accounts.failed_logins
list_sessions = accounts.list_sessions


def end_session_by_id(db: Database, session_id: str) -> bool:
    """End the session whose short id (list_sessions) is ``session_id`` (a lead's action)."""
    return accounts.delete_session_by_id(db, session_id) > 0


def token_hash(token: str) -> str:
    """What is stored of a random token (a login session's, an API token's): its SHA-256.
    A token of 256 random bits cannot be guessed from it, unlike a password."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


_token_hash = token_hash


def address_wait(state: dict) -> int:
    """Seconds an address still waits before its next attempt is checked (its failures in
    the window, accounts.login_state): the per-address part of :func:`login`'s throttle,
    which API tokens share (reljudge.campaign.api_tokens.check)."""
    return _wait_left(state["address_failures"], state["since_address_failure"], ADDRESS_FAILURES)


def start_session(db: Database, user: User) -> str:
    token = secrets.token_urlsafe(32)
    accounts.insert_session(db, _token_hash(token), user.username, SESSION_HOURS)
    return token


def user_for_token(db: Database, token: str | None) -> User | None:
    if not isinstance(token, str) or not token:
        return None
    row = accounts.session_user(db, _token_hash(token))
    return User(row[0], row[1]) if row else None


def account_for_token(db: Database, token: str | None) -> str | None:
    """The account of a live session, whatever its role in ``db``'s campaign (None: no
    live session); :func:`user_for_token` gives the user with that role, if any."""
    if not isinstance(token, str) or not token:
        return None
    return accounts.account_of_session(db, _token_hash(token))


def end_session(db: Database, token: str | None) -> None:
    if token:
        accounts.delete_session(db, _token_hash(token))


list_users = accounts.list_users
account_names = accounts.account_names
