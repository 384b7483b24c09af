"""`reljudge serve` starts the web app (health check answers, the page is served)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request

from e2e_support import free_port, wait_for_health


def test_serve_starts_the_web_app(tmp_path):
    db_path = tmp_path / "served.duckdb"
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "reljudge", "--db", str(db_path), "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_health(f"http://127.0.0.1:{port}", proc, 60, what="reljudge serve")
        # the first page load opens the database and loads the demo
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as r:
            assert r.status == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
