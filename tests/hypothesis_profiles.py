"""How many examples the property-based tests try: hypothesis profiles, chosen with
``HYPOTHESIS_PROFILE`` (tests/conftest.py loads it before any test module is imported).

``ci`` (the default, what scripts/test.sh and .ci/run use): hypothesis's own 100 examples
for a test that names no count, and each test's own count where it names one (those were
sized to what one example costs). ``thorough``: ten times as many everywhere, for a change
to a rule the properties guard (``HYPOTHESIS_PROFILE=thorough bash scripts/test.sh
tests/test_bounds.py``)."""

from __future__ import annotations

import os

from hypothesis import settings

PROFILES = {"ci": 100, "thorough": 1000}
BASE = 100  # the "ci" count, which the counts written in the tests are relative to

for _name, _count in PROFILES.items():
    settings.register_profile(_name, max_examples=_count)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in PROFILES:
    raise RuntimeError(f"HYPOTHESIS_PROFILE={PROFILE!r}: use one of {', '.join(PROFILES)}")
settings.load_profile(PROFILE)


def examples(ci_count: int) -> int:
    """A test's example count under the loaded profile: ``ci_count`` under ``ci``, scaled
    as the profile scales hypothesis's default under the others."""
    return max(1, ci_count * PROFILES[PROFILE] // BASE)
