"""The catalogs of texts (src/reljudge/i18n/) are dict literals: a key written twice in one
literal silently keeps its last text, and the screens', message codes' and report's texts
are merged into one catalog (reljudge.i18n.lookup.STRINGS), where a key in two of them
keeps the last one too. Read from the source with ast: the running dict has already lost
the text that was overwritten. And an agreement figure's name is written once
(reljudge.i18n.columns.FIGURES), for its column header and for its name in a sentence."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from reljudge.i18n import columns, lookup

CATALOG = Path(__file__).resolve().parents[1] / "src" / "reljudge" / "i18n"


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
