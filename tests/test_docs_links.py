"""The docs cannot drift from themselves or from the code that cites them (issue 38 §2).

- every relative Markdown link in README.md and docs/*.md names a file that exists and, with a
  ``#anchor``, a heading of that file (GitHub's heading anchors, Korean headings included);
- every citation of a doc section in the code — the one form ``docs/FILE.md#anchor`` (or
  ``docs/FILE.md`` for a whole page) — names an existing file and heading;
- README.md stays within 250 lines.
"""

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 250
#: Where the code may cite the docs (comments, docstrings, messages).
CODE_PLACES = ("src", "tests", "pages", "bench", "scripts", "app.py", "pyproject.toml", ".streamlit", ".ci")
CODE_SUFFIXES = {".py", ".js", ".sh", ".toml", ".sql", ""}
#: Shipped migration steps may not change, comments included (tests/test_migrations_shipped.py):
#: their old README citations stay; the file maps them to docs/ outside the SQL.
FROZEN = {ROOT / "src" / "reljudge" / "storage" / "migrations.py"}

_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CITATION = re.compile(r"(?<![\w/.-])docs/([\w.-]+\.md)(#[^\s)\"'`,;]+)?")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without Markdown, lowercased, every character but
    letters, marks, digits, connector punctuation (``_``), spaces and hyphens removed, spaces → hyphens.
    Hangul is a letter, so it stays."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    kept = [
        ch
        for ch in text.lower()
        if ch in " -" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc"
    ]
    return "".join(kept).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every heading anchor of a Markdown text (fenced code skipped; repeats get -1, -2 …)."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    fenced = False
    for line in markdown.splitlines():
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        m = None if fenced else _HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def _links(markdown: str):
    fenced = False
    for number, line in enumerate(markdown.splitlines(), 1):
        if _FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = re.sub(r"`[^`]*`", "", line)  # inline code is not a link
        for m in _LINK.finditer(line):
            yield number, m.group(1)


def _target_problem(file: Path, anchor: str | None) -> str | None:
    if not file.is_file():
        return f"no file {file}"
    if anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
        return f"no heading #{anchor} in {file.name}"
    return None


def broken_links(pages: list[Path]) -> list[str]:
    """Every relative link of these Markdown pages whose file or heading is missing."""
    problems = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for number, target in _links(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto: …
                continue
            path, _, anchor = target.partition("#")
            file = page if not path else (page.parent / path).resolve()
            problem = _target_problem(file, anchor or None)
            if problem:
                problems.append(f"{page.name}:{number}: ({target}) {problem}")
    return problems


def broken_citations(files: list[Path], root: Path) -> list[str]:
    """Every ``docs/FILE.md[#anchor]`` in these files whose file or heading is missing."""
    problems = []
    for file in files:
        for number, line in enumerate(file.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in _CITATION.finditer(line):
                anchor = (m.group(2) or "#")[1:].rstrip(".:")
                problem = _target_problem(root / "docs" / m.group(1), anchor or None)
                if problem:
                    problems.append(f"{file.relative_to(root)}:{number}: {m.group(0)}: {problem}")
    return problems


def _pages(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def _code_files(root: Path) -> list[Path]:
    files = []
    for place in CODE_PLACES:
        p = root / place
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files += [
                f
                for f in sorted(p.rglob("*"))
                if f.is_file()
                and f.suffix in CODE_SUFFIXES
                and "__pycache__" not in f.parts
                and f != Path(__file__).resolve()  # this file shows the form with made-up names
            ]
    return files


def test_slug_follows_github():
    assert slug("판정 계획 / Judging plans") == "판정-계획--judging-plans"
    assert slug("정책 / Policies (보고서에 모두 적힘 / all printed in the report)") == (
        "정책--policies-보고서에-모두-적힘--all-printed-in-the-report"
    )
    assert slug("trec_eval 대신 쓰기 / As a drop-in for trec_eval") == "trec_eval-대신-쓰기--as-a-drop-in-for-trec_eval"
    assert slug("The `reljudge serve` command, v1.5!") == "the-reljudge-serve-command-v15"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n### B: c\n") == {"a", "a-1", "b-c"}


def test_every_doc_link_resolves():
    problems = broken_links(_pages(ROOT))
    assert not problems, "broken links in the docs:\n" + "\n".join(problems)


def test_every_doc_section_the_code_cites_exists():
    problems = broken_citations(_code_files(ROOT), ROOT)
    assert not problems, "the code cites doc sections that do not exist:\n" + "\n".join(problems)


def test_the_code_cites_docs_not_the_readme_sections():
    """The one citation form is ``docs/FILE.md#anchor``: a README section cited by name could not
    be checked (the README keeps only the start; the sections live in docs/)."""
    cites = re.compile(r"README[^\n]{0,4}[\"“(]?[가-힣A-Za-z ]+ / [A-Z]|README, [가-힣]|README \"")
    found = [
        f"{f.relative_to(ROOT)}:{n}"
        for f in _code_files(ROOT)
        if f not in FROZEN
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if cites.search(line)
    ]
    assert not found, "cite docs/FILE.md#anchor instead of a README section:\n" + "\n".join(found)


def test_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines (at most {README_MAX_LINES}): move detail to docs/"


def test_the_checks_fail_on_a_broken_link_and_citation(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# 판정 계획 / Judging plans\n\n## Bounds\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[ok](docs/a.md#판정-계획--judging-plans) [ok](docs/a.md#bounds) [web](https://example.org/x#y)\n"
        "`[not a link](nowhere.md)`\n"
        "[no file](docs/missing.md) [no heading](docs/a.md#settled)\n",
        encoding="utf-8",
    )
    (docs / "b.md").write_text("[self](#nothing) [up](../README.md) [sibling](a.md#bounds)\n", encoding="utf-8")
    problems = broken_links(_pages(tmp_path))
    assert len(problems) == 3, problems
    assert any("missing.md" in p and "no file" in p for p in problems)
    assert any("#settled" in p for p in problems)
    assert any("b.md" in p and "#nothing" in p for p in problems)

    code = tmp_path / "mod.py"
    code.write_text(
        '"""See docs/a.md#bounds and docs/a.md."""\n# docs/a.md#settled, docs/gone.md#x\n', encoding="utf-8"
    )
    problems = broken_citations([code], tmp_path)
    assert len(problems) == 2, problems
    assert "mod.py:2" in problems[0] and "#settled" in problems[0] and "gone.md" in problems[1]
