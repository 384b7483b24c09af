"""The library's dependency direction, read from the source (imports inside functions
count, as they run all the same): no import cycle anywhere in src/reljudge, and every
module imports only its own layer and the layers below (docs/architecture.md#층--architecture-layers):
front (web, cli, ui, notebook) -> reporting -> campaign, review -> storage -> eval,
agreement -> base (errors, codes and their catalog, grades, times, display, sql)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "src" / "reljudge"

#: The layers, lowest first: a module may import its own layer and the layers below it,
#: never one above (docs/architecture.md#층--architecture-layers). Within a layer, packages may use each
#: other as long as no cycle forms (test_no_import_cycle).
LAYERS = [
    # the bottom: errors, message codes and their one catalog, the grade scale, the rule of
    # declared question types, time stamps, the rule for showing text from files, the Korean
    # analyser, the quoting of SQL identifiers
    (
        "base",
        (
            "reljudge.errors",
            "reljudge.codes",
            "reljudge.i18n",
            "reljudge.grades",
            "reljudge.policy",
            "reljudge.times",
            "reljudge.display",
            "reljudge.korean",
            "reljudge.question_types",
            "reljudge.sql",
        ),
    ),
    # the metric engine and the agreement coefficients: plain tables in, figures out
    ("engine", ("reljudge.eval", "reljudge.agreement")),
    ("storage", ("reljudge.storage",)),
    ("campaign", ("reljudge.campaign", "reljudge.review", "reljudge.judges")),
    ("reporting", ("reljudge.reporting",)),
    ("front", ("reljudge.web", "reljudge.cli", "reljudge.ui", "reljudge.notebook", "reljudge.__main__")),
]


def layer_of(module: str) -> int:
    for n, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return n
    raise AssertionError(f"{module} belongs to no layer: add its package to LAYERS")


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


def test_every_module_has_a_layer(graph):
    for name in graph:
        if name != "reljudge":
            layer_of(name)


def test_no_module_imports_a_layer_above_its_own(graph):
    bad = {
        m: sorted(t for t in targets if layer_of(t) > layer_of(m)) for m, targets in graph.items() if m != "reljudge"
    }
    assert {m: t for m, t in bad.items() if t} == {}


def test_the_layer_rule_sees_an_upward_import():
    assert layer_of("reljudge.storage.db") < layer_of("reljudge.campaign.judging")
    assert layer_of("reljudge.eval.metrics") < layer_of("reljudge.storage.team")


def _in_catalog(module: str) -> bool:
    return module == "reljudge.i18n" or module.startswith("reljudge.i18n.")


def test_the_catalog_stands_on_codes_alone(graph):
    """The catalog package (lookup, texts, column words) imports reljudge.codes and itself only."""
    catalog = {m for m in graph if _in_catalog(m)}
    assert {"reljudge.i18n", "reljudge.i18n.lookup", "reljudge.i18n.messages"} <= catalog
    assert {m: graph[m] - catalog for m in catalog if graph[m] - catalog - {"reljudge.codes"}} == {}


def test_storage_returns_codes_never_words(graph):
    """Storage hands codes upward; wording them is the caller's (the catalog is in the
    base layer only so that an error can word its own code in English)."""
    bad = {
        m: sorted(t for t in targets if _in_catalog(t))
        for m, targets in graph.items()
        if m.startswith("reljudge.storage") and any(_in_catalog(t) for t in targets)
    }
    assert bad == {}


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
