"""Issue 37 §2: a remote client with a personal API token (``reljudge --db http://127.0.0.1:PORT``
with $RELJUDGE_TOKEN; reljudge.cli.remote, reljudge.web.api). A real app server
(`streamlit run app.py`) on one copy of a campaign, the same commands directly on a stopped
second copy: the same stdout, stderr and exit code; each role's powers; revoked, expired and
unknown tokens refused by code; the per-address throttle; the token in no log nor message.
docs/served.md#토큰과-원격-클라이언트--tokens-and-remote-clients."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from e2e_support import StreamlitServer
from reljudge.campaign import api_tokens, auth
from reljudge.storage import open_database
from test_served_cli import _build


@pytest.fixture(scope="module")
def remote(tmp_path_factory):
    """(server, served copy, direct copy, tokens by name, tmp): the campaign twice, one
    served; tokens of ann (annotator) and lee (lead), one revoked, one expired."""
    tmp = tmp_path_factory.mktemp("tokens")
    source = _build(tmp)
    db = open_database(source)  # ann and bob annotate, lee leads (conftest.load_small_campaign)
    tokens = {
        "ann": api_tokens.create(db, "ann", "laptop", 24, "cli"),
        "lee": api_tokens.create(db, "lee", "laptop", 24, "cli"),
        "revoked": api_tokens.create(db, "lee", "old", 24, "cli"),
        "expired": api_tokens.create(db, "lee", "stale", 0, "cli"),
    }
    api_tokens.revoke(db, "lee", "old")
    db.close()
    served, direct = tmp / "served" / "camp.duckdb", tmp / "direct" / "camp.duckdb"
    for target in (served, direct):
        target.parent.mkdir()
        shutil.copy2(source, target)
        (target.parent / "out").mkdir()
    # the proxy headers of the throttle test are believed from loopback (as behind a proxy)
    server = StreamlitServer(
        db_path=served, log_path=tmp / "server.log", extra_env={"RELJUDGE_TRUSTED_PROXIES": "127.0.0.1"}
    ).start()
    try:
        yield server, served, direct, tokens, tmp
    finally:
        server.stop()


def reljudge(target, *argv: str, cwd: Path, token: str | None = None, env_extra=None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("RELJUDGE_CAMPAIGN", "RELJUDGE_TOKEN", "RELJUDGE_DB")}
    if token is not None:
        env["RELJUDGE_TOKEN"] = token
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "reljudge", "--db", str(target), *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        input="",
    )


SAME = [
    ("ann", ("next", "--user", "ann", "--limit", "3")),
    ("ann", ("next", "--user", "ann", "--format", "table")),
    ("lee", ("evaluate", "--format", "tsv", "-m", "RR@10", "nDCG@10")),
    ("lee", ("users", "list")),
    ("lee", ("quality", "--format", "json")),
    ("lee", ("next", "--user", "nobody")),  # a refusal of the command itself: the same code and text
]


@pytest.mark.parametrize("who, argv", SAME, ids=[f"{w}: {' '.join(a)}" for w, a in SAME])
def test_a_command_through_a_token_prints_the_same_as_on_the_stopped_file(remote, who, argv):
    server, _served, direct, tokens, _tmp = remote
    through = reljudge(server.url, *argv, cwd=direct.parent / "out", token=tokens[who])
    here = reljudge(direct, *argv, cwd=direct.parent / "out")
    assert (through.returncode, through.stdout, through.stderr) == (here.returncode, here.stdout, here.stderr)


def test_an_export_through_a_token_is_written_on_the_clients_side(remote):
    server, _served, direct, tokens, tmp = remote
    mine = tmp / "client"
    mine.mkdir()
    through = reljudge(server.url, "export", "qrels", "-o", "q.txt", cwd=mine, token=tokens["lee"])
    here = reljudge(direct, "export", "qrels", "-o", "q.txt", cwd=direct.parent / "out")
    assert (through.returncode, through.stdout) == (here.returncode, here.stdout) == (0, here.stdout)
    assert (mine / "q.txt").read_bytes() == (direct.parent / "out" / "q.txt").read_bytes()


@pytest.mark.parametrize(
    "argv",
    [("users", "list"), ("next", "--user", "bob"), ("evaluate",), ("users", "token", "list", "--user", "lee")],
    ids=" ".join,
)
def test_an_annotators_token_is_refused_a_lead_command_by_code(remote, argv):
    server, _served, direct, tokens, _tmp = remote
    r = reljudge(server.url, *argv, cwd=direct.parent, token=tokens["ann"])
    assert r.returncode == 2 and r.stdout == ""
    assert ("not_permitted" if argv[0] != "users" or argv[1] != "token" else "only a lead") in r.stderr


def test_tokens_manage_themselves_an_annotator_their_own_a_lead_the_campaigns(remote):
    server, _served, direct, tokens, _tmp = remote
    made = reljudge(
        server.url, "users", "token", "create", "phone", "--expires", "2d", cwd=direct.parent, token=tokens["ann"]
    )
    assert made.returncode == 0, made.stderr
    phone = made.stdout.strip()
    assert phone.startswith("rjt_") and "shown only this once" in made.stderr
    own = reljudge(server.url, "users", "token", "list", cwd=direct.parent, token=phone)
    assert own.returncode == 0 and "phone" in own.stdout and "lee" not in own.stdout and phone not in own.stdout
    everyone = reljudge(server.url, "users", "token", "list", cwd=direct.parent, token=tokens["lee"])
    assert "phone" in everyone.stdout and "lee" in everyone.stdout
    gone = reljudge(
        server.url, "users", "token", "revoke", "phone", "--user", "ann", cwd=direct.parent, token=tokens["lee"]
    )
    assert gone.returncode == 0 and "revoked token phone of ann" in gone.stdout
    refused = reljudge(server.url, "users", "token", "list", cwd=direct.parent, token=phone)
    assert refused.returncode == 2 and "token_revoked" in refused.stderr


@pytest.mark.parametrize(
    "which, code", [("revoked", "token_revoked"), ("expired", "token_expired"), ("bogus", "bad_token")]
)
def test_revoked_expired_and_unknown_tokens_are_refused_by_code(remote, which, code):
    server, _served, direct, tokens, _tmp = remote
    token = tokens.get(which, "rjt_" + "A" * 43)
    r = reljudge(server.url, "users", "list", cwd=direct.parent, token=token)
    assert r.returncode == 2 and r.stdout == "" and code in r.stderr
    assert token not in r.stderr


def _post(server, token: str, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        server.url + "/api/v1/cli",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_failed_tokens_are_throttled_per_address_like_logins(remote):
    server, _served, _direct, tokens, _tmp = remote
    body = {"argv": ["users", "list"], "campaign": None}
    far = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
    for _ in range(auth.ADDRESS_FAILURES):
        status, answer = _post(server, "rjt_wrong", body, far)
        assert (status, answer["error"]) == (401, "bad_token")
    status, answer = _post(server, tokens["lee"], body, far)  # the right token waits too, from there
    assert (status, answer["error"]) == (429, "token_wait")
    status, answer = _post(server, tokens["lee"], body, {**far, "X-Forwarded-For": "203.0.113.8"})
    assert status == 200 and answer["code"] == 0 and "lee" in answer["stdout"]


def test_a_token_over_plain_http_from_another_machine_is_refused(remote):
    server, _served, _direct, tokens, _tmp = remote
    status, answer = _post(server, tokens["lee"], {"argv": ["users", "list"]}, {"X-Forwarded-For": "203.0.113.9"})
    assert (status, answer["error"]) == (403, "https_required")


def test_a_token_for_another_campaign_and_a_command_no_token_runs_are_refused(remote):
    server, _served, direct, tokens, _tmp = remote
    other = reljudge(server.url, "--campaign", "round9", "users", "list", cwd=direct.parent, token=tokens["lee"])
    assert other.returncode == 2 and "wrong_campaign" in other.stderr
    made = reljudge(server.url, "campaigns", "create", "round9", cwd=direct.parent, token=tokens["lee"])
    assert made.returncode == 2 and "not_permitted" in made.stderr
    init = reljudge(server.url, "init", cwd=direct.parent, token=tokens["lee"])
    assert init.returncode == 2 and "is not carried out by a remote server" in init.stderr


@pytest.mark.parametrize(
    "url, said",
    [
        ("http://203.0.113.5:8501", "travels over HTTPS only"),
        ("http://example.org", "travels over HTTPS only"),
        ("https://user:secret@example.org", "no user name, password or query"),
        ("https://example.org/?token=x", "no user name, password or query"),
    ],
)
def test_plain_http_to_another_host_and_a_credential_in_the_url_are_refused(tmp_path, url, said):
    r = reljudge(url, "users", "list", cwd=tmp_path, token="rjt_" + "B" * 43)
    assert r.returncode == 2 and said in r.stderr and "rjt_" not in r.stderr and "secret" not in r.stderr


def test_the_token_comes_from_the_environment_only(remote):
    server, _served, direct, tokens, _tmp = remote
    none = reljudge(server.url, "users", "list", cwd=direct.parent)
    assert none.returncode == 2 and "RELJUDGE_TOKEN" in none.stderr
    named = reljudge(
        server.url, "--token-env", "MY_TOKEN", "users", "list", cwd=direct.parent, env_extra={"MY_TOKEN": tokens["lee"]}
    )
    assert named.returncode == 0 and "lee" in named.stdout


def test_no_token_is_in_the_servers_log(remote):
    server, _served, direct, tokens, tmp = remote
    reljudge(server.url, "users", "list", cwd=direct.parent, token=tokens["revoked"])
    reljudge(server.url, "users", "list", cwd=direct.parent, token=tokens["lee"])
    log = (tmp / "server.log").read_text(encoding="utf-8", errors="replace")
    assert "reljudge: the CLI reaches this app" in log  # the log is the server's
    for token in tokens.values():
        assert token not in log and token[4:] not in log


def test_the_openapi_description_is_served(remote):
    from reljudge.web import api

    server = remote[0]
    with urllib.request.urlopen(server.url + "/api/v1/openapi.json", timeout=30) as response:
        assert response.status == 200
        assert json.loads(response.read()) == json.loads(json.dumps(api.openapi()))


# -- issue 37 §3: reljudge.open_campaign through the running app and a remote server ----------
def _frames(campaign) -> dict:
    return {
        "judgments": campaign.judgments,
        "events": campaign.events,
        "qrels": campaign.qrels(),
        "qrels majority": campaign.qrels("majority", include_no_answer=True),
        "evaluate": campaign.evaluate(["RR@10", "nDCG@10"]),
        "evaluate per query": campaign.evaluate(["RR@10"], per_query=True),
    }


@pytest.mark.parametrize("way", ["token", "runtime file"])
def test_open_campaign_gives_the_same_frames_through_a_server_as_from_the_file(remote, way):
    import pandas as pd

    import reljudge

    server, served, direct, tokens, _tmp = remote
    with reljudge.open_campaign(direct) as local:
        expected = _frames(local)
    target = (
        reljudge.open_campaign(server.url, token=tokens["lee"]) if way == "token" else reljudge.open_campaign(served)
    )
    with target as through:
        assert through.db is None  # nothing opened here: the server answered
        got = _frames(through)
    assert not expected["judgments"].empty and not expected["evaluate"].empty
    for name, frame in expected.items():
        pd.testing.assert_frame_equal(got[name], frame, obj=name)


def test_open_campaign_through_a_token_says_the_librarys_refusal_and_the_roles(remote):
    import reljudge
    from reljudge.errors import ReljudgeError

    server, _served, direct, tokens, _tmp = remote
    with reljudge.open_campaign(direct) as local, pytest.raises(ReljudgeError) as here:
        local.qrels(version=99)
    with reljudge.open_campaign(server.url, token=tokens["lee"]) as through, pytest.raises(ReljudgeError) as there:
        through.qrels(version=99)
    assert there.value.message == here.value.message
    with reljudge.open_campaign(server.url, token=tokens["ann"]) as mine, pytest.raises(ReljudgeError) as refused:
        mine.judgments
    assert "not_permitted" in str(refused.value) and tokens["ann"] not in str(refused.value)
    with pytest.raises(ReljudgeError) as revoked:
        reljudge.open_campaign(server.url, token=tokens["revoked"]).judgments
    assert "token_revoked" in str(revoked.value)


def test_a_token_works_the_same_on_a_postgresql_server(pg_url, files, tmp_path):
    """The token path needs no runtime file: an app on PostgreSQL carries out the command
    too, with the same output as the command run straight on the database."""
    from conftest import load_small_campaign

    db = open_database(pg_url)
    try:
        load_small_campaign(db, files)
        token = api_tokens.create(db, "lee", "laptop", 24, "cli")
    finally:
        db.close()
    server = StreamlitServer(log_path=tmp_path / "server.log", extra_env={"RELJUDGE_DB": pg_url}).start()
    try:
        for argv in (("users", "list"), ("next", "--user", "ann", "--limit", "2")):
            through = reljudge(server.url, *argv, cwd=tmp_path, token=token)
            here = reljudge(pg_url, *argv, cwd=tmp_path)
            assert (through.returncode, through.stdout, through.stderr) == (here.returncode, here.stdout, here.stderr)
            assert through.returncode == 0 and through.stdout
    finally:
        server.stop()
    assert token not in (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")
