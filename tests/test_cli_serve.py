"""`reljudge serve` starts the web app (health check answers, the page is served)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

from e2e_support import free_port


def test_serve_starts_the_web_app(tmp_path):
    db_path = tmp_path / "served.duckdb"
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "reljudge", "--db", str(db_path), "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the app did not start"
            assert proc.poll() is None, "reljudge serve exited"
            time.sleep(0.3)
        # the first page load opens the database and loads the demo
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
            assert r.status == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
