"""``reljudge --db https://HOST[:PORT][/BASE] …``: a command carried out by a remote
reljudge server with a personal API token (issue 37 §2, docs/served.md#토큰과-원격-클라이언트--tokens-and-remote-clients).

The request is the one a local client sends to the app that holds its file
(reljudge.cli.forward: the parsed command line, the files it reads; the files it writes
come back and are written here), so the output and the exit code are the same as on the
server's machine. What differs: the credential is an API token (``users token create``),
read from ``$RELJUDGE_TOKEN`` or the variable ``--token-env VAR`` names — never from a
command-line value, which other users see in the process list —, sent only over HTTPS
(plain ``http://`` only to a loopback host), never printed, logged or put in a message;
the server runs the command with the token's account's role in the token's campaign.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from dataclasses import dataclass
from urllib.parse import urlsplit

from reljudge import i18n
from reljudge.codes import Codes

CODES = Codes(
    error_remote_url=("url",),
    error_remote_plain_http=("url", "host"),
    error_remote_no_token=("var",),
    error_remote_refused=("url", "reason", "detail"),
    error_remote_unreachable=("url",),
    error_remote_not_forwarded=("url", "command"),
)
"""The messages of a command sent to a remote server."""

TOKEN_ENV = "RELJUDGE_TOKEN"


@dataclass(frozen=True)
class RemoteInfo:
    """Where a remote command goes, as reljudge.cli.forward's request code reads a
    runtime file: ``secret`` is the API token (``repr`` never shows it)."""

    host: str
    port: int
    base_path: str
    url: str
    tls: bool
    secret: str = ""
    db: None = None

    def __repr__(self) -> str:
        return f"RemoteInfo(url={self.url!r})"


def is_remote(target) -> bool:
    """Whether ``--db`` names a remote server (an http:// or https:// URL)."""
    return isinstance(target, str) and target.strip().lower().startswith(("http://", "https://"))


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse(url: str):
    """The server's address from ``--db URL``: a RemoteInfo, or the message that refuses
    it (not a plain ``scheme://host[:port][/base]``; ``http://`` to a host that is not
    this machine)."""
    shown = url.strip()
    try:
        parts = urlsplit(shown)
        port = parts.port
    except ValueError:
        return CODES("error_remote_url", url=shown)
    if (
        parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or parts.password is not None  # a credential in a URL ends up in shell histories and logs
        or parts.query
        or parts.fragment
    ):
        return CODES("error_remote_url", url=urlsplit(shown)._replace(netloc=parts.hostname or "").geturl())
    tls = parts.scheme.lower() == "https"
    if not tls and not _loopback(parts.hostname):
        return CODES("error_remote_plain_http", url=shown, host=parts.hostname)
    base = parts.path.rstrip("/")
    return RemoteInfo(
        host=parts.hostname, port=port or (443 if tls else 80), base_path=base, url=shown.rstrip("/"), tls=tls
    )


def _say(message) -> int:
    print(f"error: {i18n.message(message, 'en')}", file=sys.stderr)
    return 2


def _refusal(info: RemoteInfo):
    def refused(status: int, answer: dict | None):
        answer = answer or {}
        code = answer.get("error") if isinstance(answer.get("error"), str) else f"HTTP {status}"
        detail = answer.get("message") if isinstance(answer.get("message"), str) else ""
        return CODES("error_remote_refused", url=info.url, reason=code, detail=detail)

    return refused


def run(args, argv: list[str]) -> int:
    """Carry the parsed command ``args`` out on the server ``args.db`` names; its exit code."""
    from reljudge.cli import forward

    info = parse(args.db)
    if not isinstance(info, RemoteInfo):
        return _say(info)
    spec = forward.forwarding(args)
    if spec is None or args.command in forward.NEVER:
        return _say(CODES("error_remote_not_forwarded", url=info.url, command=forward._shown(args)))
    var = getattr(args, "token_env", None) or TOKEN_ENV
    token = os.environ.get(var, "").strip()
    if not token:
        return _say(CODES("error_remote_no_token", var=var))
    info = RemoteInfo(info.host, info.port, info.base_path, info.url, info.tls, secret=token)
    code = forward.carry_out(args, argv, info, spec, refused=_refusal(info))
    return _say(CODES("error_remote_unreachable", url=info.url)) if code is None else code
