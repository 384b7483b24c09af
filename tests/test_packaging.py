"""An installed wheel serves the app: `reljudge serve` from a fresh virtual environment,
outside any checkout (it failed with "app.py not found next to the package")."""

from __future__ import annotations

import json
import os
import signal
import site
import subprocess
import sys
import urllib.request
from pathlib import Path

from e2e_support import free_port, wait_for_health

REPO = Path(__file__).resolve().parents[1]


def _run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def _venv_seeing_these_dependencies(venv: Path) -> tuple[Path, Path]:
    """A new virtual environment (its python and reljudge paths) whose own site-packages is
    empty and that imports the dependencies from the environment running this test.

    Not `--system-site-packages` from sys.executable: when this test runs in a virtual
    environment (scripts/test.sh makes one), the "system" site-packages is the base
    interpreter's, which need not hold duckdb or streamlit at all. So the venv is made from the
    base interpreter (the one under any venv; itself when there is none) and a .pth file lists
    this environment's site-packages directories. A .pth line only appends its directory to
    sys.path: the .pth files inside it are not run, so the editable install of the checkout
    (`pip install -e`, itself a .pth file there) stays out, and the venv's own site-packages,
    where the wheel goes, comes first. No dependency is downloaded again."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    _run([base, "-m", "venv", str(venv)])
    py = venv / "bin" / "python"
    own = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    dirs = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    (own / "_reljudge_test_dependencies.pth").write_text(
        "".join(f"{d}\n" for d in dict.fromkeys(dirs) if Path(d).is_dir()), encoding="utf-8"
    )
    return py, venv / "bin" / "reljudge"


def test_the_installed_wheel_serves_the_app(tmp_path):
    dist = tmp_path / "dist"
    # pip builds the wheel as any user's install would (build requirements from PyPI).
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(REPO)])
    wheel = next(dist.glob("reljudge-*.whl"))
    venv = tmp_path / "venv"
    py, rj = _venv_seeing_these_dependencies(venv)
    _run([str(py), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RELJUDGE_DB", "RELJUDGE_DEMO")}
    where = _run(
        [
            str(py),
            "-c",
            "import reljudge, reljudge.ui.webapp as w; print(reljudge.__file__); "
            "print(sorted(p.name for p in (w.HERE / 'screens').glob('*.py')))",
        ],
        env=env,
        cwd=tmp_path,
    ).stdout
    assert where.startswith(str(venv)), where  # the wheel, not the checkout
    assert "judge.py" in where and "dashboard.py" in where

    db = tmp_path / "campaign.duckdb"
    _run(
        [str(rj), "--db", str(db), "users", "add", "boss", "--role", "lead", "--password-stdin"],
        input="boss-password-1\n",
        env=env,
        cwd=tmp_path,
    )
    port = free_port()
    proc = subprocess.Popen(
        [str(rj), "--db", str(db), "serve", "--port", str(port)],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for_health(base, proc, 90, what="the installed `reljudge serve`")
        except RuntimeError as exc:
            raise AssertionError(f"{exc}: {proc.stderr.read()[-2000:] if proc.poll() is not None else ''}")
        with urllib.request.urlopen(f"{base}/", timeout=10) as r:
            assert r.status == 200
        req = urllib.request.Request(
            f"{base}/api/login",
            method="POST",
            data=json.dumps({"username": "boss", "password": "boss-password-1"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=30) as r:  # the JSON routes are served too
            assert json.loads(r.read()) == {"username": "boss", "role": "lead"}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
