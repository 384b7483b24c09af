"""docs/cli.md is rendered from the CLI's argparse parser (reljudge.cli.reference), as the
measure table of docs/measures.md#측정--measures is rendered from the registry: it must be exactly what the parser
renders now, name every command and subcommand, and keep text from the parser literal."""

from __future__ import annotations

import argparse
import html
import re
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt

from reljudge.cli import reference
from reljudge.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "cli.md"


def _tree(parser: argparse.ArgumentParser, name: str = "reljudge"):
    """(name, parser) of the parser and every subcommand, read from argparse directly."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _tree(sub, f"{name} {sub_name}")


def test_docs_cli_md_is_what_the_parser_renders():
    want = reference.reference()
    have = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    assert have == want, (
        f"docs/cli.md differs from the CLI's parser: regenerate it with `{reference.COMMAND}` "
        "(run from the repository root) and commit it"
    )


def test_every_command_and_subcommand_has_a_section():
    doc = reference.reference()
    names = [name for name, _ in _tree(build_parser())]
    assert len(names) > 30 and "reljudge users add" in names and "reljudge evaluate" in names
    for name in names:
        assert re.search(rf"^#+ `{re.escape(name)}`$", doc, re.MULTILINE), name
    # and every option of every command is in its section
    sections = re.split(r"^#+ ", doc, flags=re.MULTILINE)
    for name, parser in _tree(build_parser()):
        section = next(s for s in sections if s.startswith(f"`{name}`\n"))
        for action in parser._actions:
            for option in action.option_strings:
                assert f"`{option}`" in section, (name, option)


def test_the_usage_is_argparses(monkeypatch):
    # built at a fixed width, not by argparse's formatter (whose width is the terminal's),
    # but the same tokens in the same order
    monkeypatch.setenv("COLUMNS", "10000")
    for name, parser in _tree(build_parser()):
        theirs = parser.format_usage().removeprefix("usage: ")
        assert theirs.split() == reference.usage(parser, name).split(), name


def test_the_output_depends_on_no_terminal_and_no_program_name(monkeypatch):
    want = reference.reference()
    monkeypatch.setenv("COLUMNS", "20")
    monkeypatch.setattr(sys, "argv", ["/somewhere/else/other-name"])
    assert reference.reference() == want
    assert (
        max(
            len(line)
            for block in re.findall(r"```text\n(reljudge .*?)\n```", want, re.S)
            for line in block.splitlines()
        )
        <= reference.WIDTH
    )


def test_the_module_prints_the_reference_as_utf8():
    out = subprocess.run(
        [sys.executable, "-m", "reljudge.cli.reference"],
        capture_output=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PYTHONIOENCODING": "ascii", "COLUMNS": "30"},
    ).stdout
    assert out.decode("utf-8") == reference.reference()


def test_the_help_of_evaluate_names_each_measure_once():
    doc = reference.reference()
    assert "nDCG@K" in doc and "@K@K" not in doc


# -- hostile text ------------------------------------------------------------------

HOSTILE = (
    "a | b <script>alert(1)</script> *bold* **strong** _em_ ~~del~~ `code` ``two`` "
    "[link](http://evil.example) ![img](http://evil.example/x.png) <http://evil.example> "
    "www.evil.example $x^2$ &amp; :red[red] \\| 50 %% # not a heading"
)
METAVAR = "A|B`C``"


def _hostile_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tool", description="- " + HOSTILE, epilog="```\nno fence ``` end")
    parser.add_argument("--opt", metavar=METAVAR, default="<b>|d", help=HOSTILE + " (default %(default)s)")
    parser.add_argument("--pick", choices=["x|y", "`z`"], default="x|y", help="# " + HOSTILE)
    parser.add_argument("--hidden", help=argparse.SUPPRESS)
    parser.add_argument("thing", help="1. " + HOSTILE)
    sub = parser.add_subparsers(dest="cmd", metavar="CMD")
    child = sub.add_parser(
        "child|`x`",
        help=HOSTILE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="line one of %(prog)s\n```\n<b>two</b>",
    )
    child.add_argument("--flag", action="store_true", help="1) " + HOSTILE)
    return parser


def _text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def test_text_from_the_parser_stays_literal():
    doc = reference.markdown(_hostile_parser(), "tool")
    rendered = MarkdownIt("commonmark").enable("table").render(doc)
    # no markup started from the data: only the tags the renderer itself writes
    tags = set(re.findall(r"<(/?[a-z0-9]+)", rendered))
    assert tags <= {
        "h2",
        "/h2",
        "h3",
        "/h3",
        "p",
        "/p",
        "code",
        "/code",
        "pre",
        "/pre",
        "strong",
        "/strong",
        "table",
        "/table",
        "thead",
        "/thead",
        "tbody",
        "/tbody",
        "tr",
        "/tr",
        "th",
        "/th",
        "td",
        "/td",
    }, tags
    # the group titles only: tool's positional arguments and options, child's options
    assert re.findall(r"<strong>(.*?)</strong>", rendered) == ["positional arguments", "options", "options"]
    assert "--hidden" not in doc
    hostile = " ".join(HOSTILE.replace("%%", "%").split())
    # every table row keeps its four cells, each cell's text is the help as written
    rows = re.findall(r"<tr>\s*(.*?)</tr>", rendered, re.S)
    for row in rows:
        cells = re.findall(r"<t[hd]>(.*?)</t[hd]>", row, re.S)
        assert len(cells) in (2, 4), row
    cells = {
        _text_of(c[0]): [_text_of(x) for x in c]
        for c in (re.findall(r"<td>(.*?)</td>", row, re.S) for row in rows)
        if c
    }
    assert cells[f"--opt {METAVAR}"] == [f"--opt {METAVAR}", hostile + " (default <b>|d)", "<b>|d", ""]
    assert cells["--pick {x|y,`z`}"] == ["--pick {x|y,`z`}", "# " + hostile, "x|y", "x|y, `z`"]
    assert cells["thing"][1] == "1. " + hostile
    assert cells["child|`x`"] == ["child|`x`", hostile]
    assert cells["--flag"][1] == "1) " + hostile
    # prose paragraphs: the description is one paragraph, not a list
    assert "<ul>" not in rendered and "<ol>" not in rendered
    # (argparse fills in no %% of a description without %(prog)s, so neither does the reference)
    paragraphs = [_text_of(p) for p in re.findall(r"<p>(.*?)</p>", rendered, re.S)]
    assert "- " + " ".join(HOSTILE.split()) in paragraphs
    # preformatted text stays in one code block each, however many backticks it holds
    blocks = [html.unescape(b) for b in re.findall(r"<pre><code[^>]*>(.*?)</code></pre>", rendered, re.S)]
    assert "``` no fence ``` end" in paragraphs  # argparse reflows a plain formatter's epilog
    assert "line one of tool child|`x`\n```\n<b>two</b>\n" in blocks
    assert any(b.startswith("tool [-h] [--opt A|B`C``]") for b in blocks)
