"""Saves while the storage fails: the disk fills up under a running server, and frees.

A real small file system is mounted for the test: a tmpfs of a few MB (we run as root,
as CI does); where mounting a tmpfs is refused, a loop-mounted ext4 image; where neither
can be mounted, the test is skipped and says why. The app server (``streamlit run
app.py``) keeps its DuckDB file there. A client logs in through ``POST /api/login`` and
posts events without pause, as the widget's outbox does: each request carries a few new
events and every one not yet acknowledged. A ballast file fills the file system while it
posts; the server must answer ``503`` with ``Retry-After`` (never a 500) for as long as it
cannot store; the ballast is deleted and the client goes on resending. Then, in the
file: every acknowledged event is stored exactly once (with the event number it was
acknowledged with) and every event sent is stored — without restarting the app, although
DuckDB invalidates a database whose checkpoint could not write (it is opened again).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from e2e_support import (
    DEEP_QUERY_JS,
    StreamlitServer,
    build_campaign,
    login,
    served_in_browser,
    wait_for_widget,
    wait_saved,
    widget_state,
)
from reljudge.storage import open_database

FS_SIZE_MB = 24
USER, PASSWORD = "annotator1", "annotator-pass-1"


def _run(*cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True)


@contextlib.contextmanager
def small_file_system(where: Path):
    """A mounted file system of FS_SIZE_MB: tmpfs, else a loop-mounted ext4 image."""
    mount = where / "fs"
    mount.mkdir(parents=True)
    tried = []
    done = _run("mount", "-t", "tmpfs", "-o", f"size={FS_SIZE_MB}m,mode=0700", "tmpfs", str(mount))
    if done.returncode != 0:
        tried.append(f"tmpfs: {done.stderr.strip()}")
        image = where / "fs.img"
        with open(image, "wb") as fh:
            fh.truncate(FS_SIZE_MB * 2**20)
        made = _run("mkfs.ext4", "-q", "-F", str(image))
        done = _run("mount", "-o", "loop", str(image), str(mount)) if made.returncode == 0 else made
        if done.returncode != 0:
            tried.append(f"ext4 image on a loop device: {done.stderr.strip()}")
            pytest.skip("no small real file system could be mounted here (" + "; ".join(tried) + ")")
    try:
        yield mount
    finally:
        if _run("umount", str(mount)).returncode != 0:
            _run("umount", "-l", str(mount))


def fill(mount: Path) -> Path:
    """A ballast file that takes every free byte of the file system (until ENOSPC)."""
    ballast = mount / "ballast"
    chunk = b"\0" * 65536
    with open(ballast, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(chunk)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    with open(mount / "ballast-tail", "wb", buffering=0) as fh:  # what a whole chunk did not fit in
        try:
            while True:
                fh.write(b"\0" * 512)
        except OSError:
            pass
    return ballast


def post(url: str, body, token: str | None = None) -> tuple[int, dict, object]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode("utf-8"), method="POST", headers={"Content-Type": "application/json"}
    )
    if token:
        req.add_header("Cookie", f"reljudge_session={token}")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"null"), r.headers
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            answer = json.loads(raw or b"null")
        except ValueError:
            answer = {"raw": raw[:200].decode("utf-8", "replace")}
        return exc.code, answer, exc.headers


class Outbox:
    """The widget's outbox, at the protocol level: new events join the pending ones; each
    request sends every pending event; acknowledged and refused ids leave it."""

    def __init__(self, server: StreamlitServer, token: str, qid: str, pids: list[str]):
        self.url, self.token, self.qid, self.pids = f"{server.url}/api/events", token, qid, pids
        self.pending: dict[str, dict] = {}
        self.sent: dict[str, dict] = {}
        self.acked: dict[str, int] = {}
        self.statuses: list[int] = []
        self.unavailable: list[tuple[dict, dict]] = []
        self.k = 0

    def add(self, n: int) -> None:
        for _ in range(n):
            self.k += 1
            e = {
                "id": str(uuid.uuid4()),
                "kind": "grade",
                "qid": self.qid,
                "pid": self.pids[self.k % len(self.pids)],
                "grade": self.k % 3,
                "ms": 400,
                "note": f"메모 {self.k} " + "가" * 200,
            }
            self.pending[e["id"]] = e
            self.sent[e["id"]] = e

    def send(self) -> int:
        status, answer, headers = post(self.url, {"events": list(self.pending.values())[:500]}, self.token)
        self.statuses.append(status)
        assert status in (200, 503), f"the save route answered {status}: {answer}"
        if status == 503:
            self.unavailable.append((answer, headers))
            return status
        assert answer["rejected"] == {}, answer["rejected"]
        for cid in answer["acked"]:
            eid = answer["eids"][cid]
            assert self.acked.setdefault(cid, eid) == eid, "an id was acknowledged with two event numbers"
            self.pending.pop(cid, None)
        return status


def logged_in(server: StreamlitServer) -> str:
    status, answer, headers = post(f"{server.url}/api/login", {"username": USER, "password": PASSWORD})
    assert status == 200, answer
    return headers["Set-Cookie"].split(";")[0].split("=", 1)[1]


def stored_events(db_path: Path) -> dict[str, list[int]]:
    db = open_database(db_path)
    try:
        stored: dict[str, list[int]] = {}
        for cid, eid in (
            db.cursor()
            .execute("SELECT client_event_id, event_id FROM judgment_events WHERE username = ?", [USER])
            .fetchall()
        ):
            stored.setdefault(cid, []).append(eid)
        return stored
    finally:
        db.close()


def test_a_full_disk_is_a_retryable_503_and_every_save_is_stored_once_after_space_returns(tmp_path):
    with small_file_system(tmp_path) as mount:
        camp = build_campaign(mount / "campaign.duckdb", tmp_path / "input", n_questions=1, pool_size=8)
        qid = camp.qids[0]
        log = tmp_path / "server.log"
        server = StreamlitServer(db_path=camp.db_path, log_path=log).start()
        try:
            box = Outbox(server, logged_in(server), qid, camp.pool[qid])
            for _ in range(10):  # saves while there is room
                box.add(3)
                assert box.send() == 200
            ballast = fill(mount)
            # Post on while the disk is full: every answer a 503 with Retry-After once the
            # writes fail, for longer than the idle checkpoint (2 s) takes to start — its
            # failed write makes DuckDB invalidate the database.
            full_since = None
            deadline = time.monotonic() + 120
            while full_since is None or time.monotonic() - full_since < 6 or len(box.unavailable) < 10:
                assert time.monotonic() < deadline, f"no run of 503s while the disk was full: {box.statuses[-20:]}"
                box.add(2)
                if box.send() == 503 and full_since is None:
                    full_since = time.monotonic()
                time.sleep(0.05)  # a keypress rate, not a wait for the server
            answer, headers = box.unavailable[-1]
            assert answer["error"] == "storage_unavailable" and int(headers["Retry-After"]) > 0
            assert 500 not in box.statuses
            waiting = len(box.pending)
            assert waiting > 0
            ballast.unlink()
            (mount / "ballast-tail").unlink()
            # Space is back: the outbox empties without restarting the app.
            deadline = time.monotonic() + 120
            while box.pending:
                assert time.monotonic() < deadline, f"{len(box.pending)} events never stored: {box.statuses[-20:]}"
                if box.send() == 503:
                    time.sleep(0.2)
            box.add(3)
            assert box.send() == 200 and not box.pending
        finally:
            server.stop()
        assert 500 not in box.statuses
        stored = stored_events(camp.db_path)
        assert set(box.acked) == set(box.sent), "an event sent was never acknowledged"
        assert {cid: eids for cid, eids in stored.items() if len(eids) != 1} == {}, "an event stored twice"
        assert set(stored) == set(box.sent), "an acknowledged event is missing from the file"
        assert all(stored[cid] == [eid] for cid, eid in box.acked.items()), "acknowledged with another number"
        assert "opened again after a storage failure" in log.read_text(errors="replace"), (
            "the invalidated database was never reopened (the recovery path was not exercised)"
        )


def save_line(page) -> str:
    """The judging widget's save state as the annotator reads it."""
    return page.evaluate(
        """() => {"""
        + DEEP_QUERY_JS
        + """
      const el = deepQuery(".rj .rj-save");
      return el ? el.textContent : "";
    }"""
    )


@pytest.mark.browser
def test_the_judging_page_says_saves_are_waiting_while_the_disk_is_full_and_then_all_saved(tmp_path):
    """In a real headless chromium: keys pressed while the disk is full are shown as waiting
    for the server, not lost (Korean, the default language); once space returns the notice
    gives way to "all saved" and each key is stored once."""
    with small_file_system(tmp_path) as mount:
        camp = build_campaign(mount / "campaign.duckdb", tmp_path / "input", n_questions=1, pool_size=6)
        with served_in_browser(camp.db_path, tmp_path / "server.log") as (server, browser):
            page = browser.new_page()
            page.set_default_timeout(60_000)
            login(page, server.url, USER, PASSWORD)
            wait_for_widget(page)
            wait_saved(page)
            # Once the idle checkpoint has folded the write-ahead log into the file (and
            # removed it), the next save needs new room: fill the disk then.
            wal = mount / "campaign.duckdb.wal"
            deadline = time.monotonic() + 60
            while wal.exists():
                assert time.monotonic() < deadline, "the idle checkpoint never ran"
                page.wait_for_timeout(100)
            ballast = fill(mount)
            for key in "210":
                page.keyboard.press(key)
            try:
                page.wait_for_function(
                    """() => {"""
                    + DEEP_QUERY_JS
                    + """
                  const el = deepQuery(".rj .rj-save");
                  return !!el && el.textContent.startsWith("저장 대기 중 — 3개 판정이 서버를 기다립니다(사라지지 않음)");
                }"""
                )
            except Exception:
                raise AssertionError(f"the page said {save_line(page)!r}") from None
            assert widget_state(page)["pending"] == "3"
            ballast.unlink()
            (mount / "ballast-tail").unlink()
            state = wait_saved(page, timeout=90_000)
            assert save_line(page) == "모두 저장됨"
            assert [c["grade"] for c in state["cards"][:3]] == ["2", "1", "0"]
        stored = stored_events(camp.db_path)
        assert len(stored) == 3 and all(len(eids) == 1 for eids in stored.values())


def test_storage_failures_are_told_by_type_and_errno_not_by_request_errors():
    import duckdb

    from reljudge.storage import failures

    assert failures.is_storage_failure(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    assert failures.is_storage_failure(PermissionError(errno.EACCES, "denied"))
    assert failures.is_storage_failure(OSError(errno.EROFS, os.strerror(errno.EROFS)))
    assert not failures.is_storage_failure(FileNotFoundError(errno.ENOENT, "gone"))
    assert failures.is_storage_failure(duckdb.IOException("Could not write file"))
    assert failures.is_storage_failure(duckdb.OutOfMemoryException("out of memory"))
    assert failures.is_storage_failure(duckdb.FatalException("database has been invalidated"))
    assert failures.invalidates(duckdb.FatalException("x")) and not failures.invalidates(duckdb.IOException("x"))
    # DuckDB's failed commit: a TransactionException carrying the system's wording of the errno
    assert failures.is_storage_failure(
        duckdb.TransactionException(f'Failed to commit: Could not write file "x.wal": {os.strerror(errno.ENOSPC)}')
    )
    assert not failures.is_storage_failure(duckdb.TransactionException("Catalog write-write conflict"))
    assert not failures.is_storage_failure(duckdb.ConstraintException("Duplicate key"))
    assert not failures.is_storage_failure(duckdb.ConversionException("out of range for INT64"))
    assert not failures.is_storage_failure(ValueError("bad"))


def test_a_database_folder_that_cannot_be_written_is_a_503_until_it_can(tmp_path):
    """The read-only case: the campaign's folder loses its write permission while the
    server runs (DuckDB must create its write-ahead log there for the next save). We run
    as root, whom permissions do not stop, so the server runs as root without the
    capabilities that override file permissions (``setpriv --bounding-set``); skipped
    where setpriv cannot do that."""
    import shutil

    setpriv = shutil.which("setpriv")
    drop = ["--bounding-set=-dac_override,-dac_read_search,-fowner"]
    if os.geteuid() != 0 or not setpriv or _run(setpriv, *drop, "true").returncode != 0:
        pytest.skip("needs root and setpriv to run the server without permission-overriding capabilities")
    folder = tmp_path / "campaign"
    camp = build_campaign(folder / "campaign.duckdb", tmp_path / "input", n_questions=1, pool_size=8)
    qid = camp.qids[0]
    server = StreamlitServer(db_path=camp.db_path, log_path=tmp_path / "server.log", prefix=[setpriv, *drop]).start()
    try:
        box = Outbox(server, logged_in(server), qid, camp.pool[qid])
        box.add(3)
        assert box.send() == 200
        wal = folder / "campaign.duckdb.wal"
        deadline = time.monotonic() + 60
        while wal.exists():  # the idle checkpoint folds the log into the file
            assert time.monotonic() < deadline, "the idle checkpoint never ran"
            time.sleep(0.1)
        folder.chmod(0o555)
        try:
            for _ in range(5):
                box.add(2)
                assert box.send() == 503
            answer, headers = box.unavailable[-1]
            assert answer["error"] == "storage_unavailable" and int(headers["Retry-After"]) > 0
        finally:
            folder.chmod(0o700)
        deadline = time.monotonic() + 60
        while box.pending:
            assert time.monotonic() < deadline, f"{len(box.pending)} events never stored: {box.statuses[-10:]}"
            if box.send() == 503:
                time.sleep(0.2)
    finally:
        folder.chmod(0o700)
        server.stop()
    stored = stored_events(camp.db_path)
    assert set(stored) == set(box.sent) == set(box.acked)
    assert all(stored[cid] == [eid] for cid, eid in box.acked.items())
