"""pyproject.toml: runtime dependencies stop below their next major; benchmark-only
packages stay out of the runtime and test installs."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _reqs(items) -> dict[str, Requirement]:
    return {Requirement(r).name.lower(): Requirement(r) for r in items}


def test_streamlit_and_pandas_are_bounded_below_their_next_major():
    deps = _reqs(PROJECT["dependencies"])
    for name in ("streamlit", "pandas"):
        spec = deps[name].specifier
        uppers = [Version(s.version) for s in spec if s.operator == "<"]
        assert uppers, f"{name} has no upper bound: {spec}"
        upper = min(uppers)
        assert upper.minor == 0 and upper.micro == 0, f"{name}: bound {upper} is not a major"
        lowers = [Version(s.version) for s in spec if s.operator == ">="]
        assert lowers and upper.major > min(lowers).major, f"{name}: {spec} admits nothing"


def test_benchmark_only_packages_live_in_the_bench_extra():
    extras = PROJECT["optional-dependencies"]
    runtime = _reqs(PROJECT["dependencies"])
    test = _reqs(extras["test"])
    bench = _reqs(extras["bench"])
    for name in ("ranx", "aiohttp"):
        assert name in bench and name not in test and name not in runtime


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_no_test_or_library_module_imports_a_bench_only_package():
    files = list((ROOT / "tests").glob("*.py")) + list((ROOT / "src").rglob("*.py"))
    for path in files:
        assert not _imported_modules(path) & {"ranx", "aiohttp"}, path


def test_duckdb_and_its_postgres_extension_are_pinned_to_one_and_the_same_release():
    """The exception to the major-version rule: the PostgreSQL backend loads DuckDB's
    postgres extension, whose binary loads only into the exact DuckDB it was built for.
    Both are pinned to the same patch release (>=X.Y.Z,<X.Y.Z+1) and raised together."""
    deps = _reqs(PROJECT["dependencies"])
    specs = [deps[name].specifier for name in ("duckdb", "duckdb-extension-postgres-scanner")]
    assert specs[0] == specs[1], specs
    lower = [Version(s.version) for s in specs[0] if s.operator == ">="]
    upper = [Version(s.version) for s in specs[0] if s.operator == "<"]
    assert len(lower) == 1 and len(upper) == 1, specs[0]
    (lo,), (hi,) = lower, upper
    assert (hi.major, hi.minor, hi.micro) == (lo.major, lo.minor, lo.micro + 1), specs[0]
    import duckdb
    assert Version(duckdb.__version__) in specs[0], duckdb.__version__
