"""Whose address a login counts under (the throttle: 20 failures within 15 minutes from one
address slow that address down). A client must not choose it: uvicorn believes
X-Forwarded-For from loopback by default, so without a setting anyone on the machine, or
any client behind the nginx of docs/team-server.md#팀-서버-postgresql--team-server-postgresql, could restart the count with a made-up header. Only
the proxies the operator names ($RELJUDGE_TRUSTED_PROXIES) are believed. And a post with
``Origin: null`` is refused like one from another site."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from e2e_support import StreamlitServer, build_campaign
from reljudge.campaign import auth

ACCOUNTS = {"annotator1": ("annotator-pass-1", "annotator")}


def _login(url: str, username: str, password: str, headers: dict | None = None) -> int:
    req = urllib.request.Request(
        url + "/api/login",
        method="POST",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_the_address_rule(monkeypatch):
    monkeypatch.delenv(auth.TRUSTED_PROXIES_ENV, raising=False)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    assert auth.client_address("10.1.1.1", []) == "10.1.1.1"
    # uvicorn's default put the header's address in place of a loopback peer: not believed
    assert auth.client_address("203.0.113.9", ["203.0.113.9"]) == auth.UNTRUSTED_FORWARDER
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "")  # `reljudge serve`: uvicorn believes nobody
    assert auth.client_address("10.1.1.1", ["203.0.113.9"]) == "10.1.1.1"
    monkeypatch.setenv(auth.TRUSTED_PROXIES_ENV, "127.0.0.1")  # the operator's nginx
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "127.0.0.1")
    assert auth.client_address("203.0.113.9", ["203.0.113.9"]) == "203.0.113.9"


@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
def test_a_forwarded_header_restarts_no_count_unless_a_named_proxy_sent_it(tmp_path, trusted):
    camp = build_campaign(tmp_path / "addr.duckdb", tmp_path / "in", n_questions=1, pool_size=2, accounts=ACCOUNTS)
    env = {auth.TRUSTED_PROXIES_ENV: trusted} if trusted else {}
    with StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server.log", extra_env=env) as server:
        for k in range(auth.ADDRESS_FAILURES):
            assert _login(server.url, f"guess{k}", "wrong-password") == 401
        # the same machine, the right password: slowed down
        assert _login(server.url, "annotator1", "annotator-pass-1") == 429
        # ... and a made-up header does not make it someone else, unless a named proxy sent it
        forwarded = _login(server.url, "annotator1", "annotator-pass-1", {"X-Forwarded-For": "203.0.113.9"})
        assert forwarded == (200 if trusted else 429)
        assert _login(server.url, "annotator1", "annotator-pass-1", {"Origin": "null"}) == 403
