"""The library's dependency direction, read from the source (imports inside functions
count, as they run all the same): no import cycle anywhere in src/reljudge, the metric
engine never reaches up into storage, campaign work, reporting or the web, and storage
never reaches up into the text catalogs, reporting or the web (README, 구조 / Layout)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "src" / "reljudge"

#: the metric engine and what it stands on: they import nothing above them
ENGINE = {
    "reljudge.eval.measures",
    "reljudge.eval.metrics",
    "reljudge.eval.ranking",
    "reljudge.eval.bounds",
    "reljudge.eval.trec_io",
    "reljudge.grades",
    "reljudge.campaign.event_fields",
    "reljudge.errors",
    "reljudge.codes",
}
#: what the engine may import: itself and the bottom layer — codes and their one catalog,
#: reljudge.i18n, which imports nothing but reljudge.codes (an error words its code in English)
ENGINE_MAY_IMPORT = ENGINE | {"reljudge.i18n"}
#: modules above storage, and the text catalog (storage returns codes, never words)
ABOVE_STORAGE_PREFIXES = (
    "reljudge.i18n",
    "reljudge.reporting.report",
    "reljudge.reporting.dashboard",
    "reljudge.reporting.charts",
    "reljudge.ui",
    "reljudge.web.routes",
    "reljudge.cli.main",
    "reljudge.cli.evaluate",
    "reljudge.cli.agreement",
    "reljudge.cli.answers",
    "reljudge.notebook",
    "reljudge.campaign.judging",
    "reljudge.review.workflow",
    "reljudge.campaign.setup",
    "reljudge.campaign.evaluation",
    "reljudge.campaign.plan",
)


def modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(("reljudge",) + parts)
        out[name.removesuffix(".__init__")] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            # `from pkg import sub` imports pkg (its __init__ runs) and pkg.sub when sub is a module
            targets = [base] + [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rsplit(".", 1)[0] if "." in target else ""
            if target and target != name and target != "reljudge":
                found.add(target)
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports(name, path, set(mods)) for name, path in mods.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle(graph):
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engine_imports_nothing_above_it(graph):
    bad = {m: sorted(graph[m] - ENGINE_MAY_IMPORT) for m in ENGINE if m in graph and graph[m] - ENGINE_MAY_IMPORT}
    assert bad == {}


def test_the_catalog_stands_on_codes_alone(graph):
    assert graph["reljudge.i18n"] <= {"reljudge.codes"}


def test_storage_imports_nothing_above_it(graph):
    bad = {
        m: sorted(t for t in targets if t.startswith(ABOVE_STORAGE_PREFIXES))
        for m, targets in graph.items()
        if m.startswith("reljudge.storage")
    }
    assert {m: t for m, t in bad.items() if t} == {}


def test_streamlit_stays_at_the_edge():
    """Only reljudge.ui imports Streamlit inside the library (app.py and pages/ are outside)."""
    offenders = []
    for name, path in modules().items():
        if name.startswith("reljudge.ui"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n == "streamlit" or n.startswith("streamlit.") for n in names):
                offenders.append(name)
    assert offenders == []
