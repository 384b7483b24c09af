"""The hypothesis profiles (tests/hypothesis_profiles.py): ``ci`` keeps every test's own
example count, ``thorough`` tries ten times as many, an unknown name is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROBE = "import hypothesis_profiles as h; from hypothesis import settings; print(h.examples(30), settings.default.max_examples)"


def _probe(profile: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    if profile is not None:
        env["HYPOTHESIS_PROFILE"] = profile
    return subprocess.run([sys.executable, "-c", PROBE], cwd=HERE, env=env, capture_output=True, text=True)


def test_ci_keeps_the_counts_and_thorough_multiplies_them():
    assert _probe(None).stdout.split() == ["30", "100"]
    assert _probe("ci").stdout.split() == ["30", "100"]
    assert _probe("thorough").stdout.split() == ["300", "1000"]


def test_an_unknown_profile_is_refused_by_name():
    done = _probe("fast")
    assert done.returncode != 0 and "HYPOTHESIS_PROFILE='fast'" in done.stderr
