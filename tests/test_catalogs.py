"""The catalogs of texts (src/reljudge/i18n/) are dict literals: a key written twice in one
literal silently keeps its last text, and the screens', message codes' and report's texts
are merged into one catalog (reljudge.i18n.lookup.STRINGS), where a key in two of them
keeps the last one too. Read from the source with ast: the running dict has already lost
the text that was overwritten. And an agreement figure's name is written once
(reljudge.i18n.columns.FIGURES), for its column header and for its name in a sentence."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from reljudge.i18n import columns, lookup

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "src" / "reljudge" / "i18n"


def merged() -> tuple[str, ...]:
    """The modules whose ``TEXTS`` lookup.py imports to merge them into STRINGS."""
    tree = ast.parse((CATALOG / "lookup.py").read_text(encoding="utf-8"))
    return tuple(
        node.module.rpartition(".")[2]
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("reljudge.i18n.")
        and any(a.name == "TEXTS" for a in node.names)
    )


def keys_written_twice(source: str) -> dict[str, list[int]]:
    """{key: [lines]} for every string key written more than once in one dict literal."""
    twice: dict[str, list[int]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            lines: dict[str, list[int]] = {}
            for key in node.keys:
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    lines.setdefault(key.value, []).append(key.lineno)
            twice.update({k: v for k, v in lines.items() if len(v) > 1})
    return twice


def texts_keys(source: str) -> set[str]:
    """The keys of the module-level ``TEXTS = {...}`` literal."""
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "TEXTS":
                return {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
    raise AssertionError("no TEXTS literal")


def test_the_finder_sees_a_key_written_twice():
    source = 'A = {"yes": ("예", "yes"), "no": ("아니오", "no"),\n "yes": ("네", "yes")}\n'
    assert keys_written_twice(source) == {"yes": [1, 2]}
    assert keys_written_twice('A = {"yes": 1, "no": 2}\nB = {"yes": 3}\n') == {}


def test_no_key_is_written_twice_in_a_catalog():
    found = {
        f"{path.name}: {key}": lines
        for path in sorted(CATALOG.glob("*.py"))
        for key, lines in keys_written_twice(path.read_text(encoding="utf-8")).items()
    }
    assert found == {}


def test_the_merged_catalogs_share_no_key():
    names = merged()
    assert set(names) == {"ui", "messages", "report"}
    keys = {name: texts_keys((CATALOG / f"{name}.py").read_text(encoding="utf-8")) for name in names}
    shared = {
        (a, b): sorted(keys[a] & keys[b]) for i, a in enumerate(names) for b in names[i + 1 :] if keys[a] & keys[b]
    }
    assert shared == {}
    assert len(lookup.STRINGS) == sum(len(k) for k in keys.values())


def test_a_figure_is_named_in_one_place():
    """The agreement figures' names were written twice in columns.py: as column headers
    (COLUMNS) and as the names figure_name gives on the Korean pages and report; now both
    read FIGURES, so a figure cannot be renamed in one and not the other."""
    source = (CATALOG / "columns.py").read_text(encoding="utf-8")
    written = Counter(
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
    names = [text for pair in columns.FIGURES.values() for text in pair]
    assert {text: written[text] for text in names if written[text] != 1} == {}


def test_the_column_and_the_figure_read_the_same_name():
    for column, figure in [
        ("percent_agreement", "percent_agreement"),
        ("cohen_kappa", "cohen_kappa"),
        ("cohen_kappa_linear", "cohen_kappa_linear"),
        ("fleiss_kappa", "fleiss_kappa"),
        ("alpha_nominal", "krippendorff_alpha_nominal"),
        ("alpha_ordinal", "krippendorff_alpha_ordinal"),
        ("kendall_tau", "kendall_tau"),
    ]:
        assert columns.column_label(column, "ko") == columns.figure_name(figure, "ko") == columns.FIGURES[figure][0]
        assert columns.column_label(column, "en") == columns.FIGURES[figure][1]
        assert columns.figure_name(figure, "en") == figure  # the English keeps the data's name
    assert columns.figure_name("cohen_kappa[A|B]", "ko") == "Cohen κ [A|B]"
    assert columns.figure_name("krippendorff_alpha_ordinal", "ko") == "Krippendorff α (서열)"
    assert columns.figure_name("grades", "ko") == "문단 판정"
    assert columns.figure_name("support", "ko") == "뒷받침 (문장 × 인용)"
    assert columns.figure_name("no_answer", "ko") == "근거 없음 판정"


def unused_keys(keys: set[str], sources: dict[str, str]) -> list[str]:
    """The catalog keys no source names: neither as a string literal of its own (Python or
    JavaScript) nor through a prefix that code completes (``t(f"plan_label_{name}")``,
    ``by_key("provenance_")``, ``"rejected_" + code``; in the widgets' JavaScript also
    ``L.key``): a string literal ending in ``_``
    or the constant head of an f-string or of ``"..." + x``."""
    named: set[str] = set()
    prefixes: set[str] = set()
    for path, text in sources.items():
        named |= set(re.findall(r"[\"'`]([A-Za-z0-9_]+)[\"'`]", text))
        prefixes |= set(re.findall(r"[\"'`]([a-z0-9_]+_)(?:[\"'`]|\$\{)", text))
        if path.endswith(".js"):
            named |= set(re.findall(r"\bL\.([A-Za-z0-9_]+)", text))  # the widgets' texts: L.key
        if path.endswith(".py"):
            for node in ast.walk(ast.parse(text)):
                head = None
                if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                    head = node.values[0].value
                elif (
                    isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant)
                ):
                    head = node.left.value
                if isinstance(head, str) and head:
                    prefixes.add(head)
    return sorted(k for k in keys if k not in named and not any(k.startswith(p) for p in prefixes))


def test_the_finder_sees_an_unused_key_and_the_ways_code_names_keys():
    keys = {"used", "plan_label_complete", "rejected_stale", "provenance_tie", "js_key", "orphan"}
    sources = {
        "a.py": 't("used")\nt(f"plan_label_{name}")\nx = "rejected_" + code\nby_key("provenance_")\n',
        "b.js": "L.js_key; fmt(L[`other_${x}`])",
    }
    assert unused_keys(keys, sources) == ["orphan"]


def test_every_catalog_key_is_used_somewhere():
    """A text nobody shows is a text nobody keeps up to date: the screens', message
    codes' and report's keys are each named by the code (src/, pages/, app.py; the
    widgets' JavaScript), the catalogs themselves aside."""
    keys = set().union(*(texts_keys((CATALOG / f"{name}.py").read_text(encoding="utf-8")) for name in merged()))
    files = [
        *(ROOT / "src").rglob("*.py"),
        *(ROOT / "src").rglob("*.js"),
        *(ROOT / "pages").glob("*.py"),
        ROOT / "app.py",
    ]
    sources = {str(p): p.read_text(encoding="utf-8") for p in files if not (p.parent == CATALOG and p.stem in merged())}
    assert unused_keys(keys, sources) == []
