"""The CLI reference, docs/cli.md, rendered from the argparse parser itself
(:func:`reljudge.cli.main.build_parser`), as the measure table of docs/measures.md#측정--measures is rendered from
the measure registry; ``tests/test_cli_reference.py`` fails when the file drifts.
Regenerate it with::

    python -m reljudge.cli.reference > docs/cli.md

Every command and subcommand gets a section: its usage (a code block), its description,
its subcommands and a table of its arguments (help, default, choices). The output does
not depend on the terminal, the Python version's help layout or ``sys.argv``: the usage
line is built here at a fixed width, and command names come from the parser's tree
under the name ``reljudge``. Text from the parser is data: prose goes through
:func:`reljudge.display.md` (the one Markdown-escaping rule), names and metavars go
into code spans or code blocks whose backtick fences are longer than any run of
backticks inside, and ``|`` in a table cell is escaped.
"""

from __future__ import annotations

import argparse
import re
import sys

from reljudge import display

#: The width the usage lines are wrapped at (never the terminal's).
WIDTH = 88

COMMAND = "python -m reljudge.cli.reference > docs/cli.md"

HEADER = f"""\
# reljudge command line reference

Generated from the argparse parser (`reljudge.cli.main.build_parser`); do not edit by hand.
Regenerate with `{COMMAND}`; `tests/test_cli_reference.py` fails when this file
differs from what the parser says. `reljudge COMMAND --help` says the same at a terminal.
"""


# -- Markdown pieces ---------------------------------------------------------------


def _text(text: str) -> str:
    """Prose as literal one-line Markdown (whitespace collapsed, as argparse reflows it)."""
    return display.md(" ".join(str(text).split()))


def _code(text: str) -> str:
    """``text`` as one code span, whatever backticks it holds (CommonMark: a fence longer
    than any backtick run inside, padded with a space where the content touches one)."""
    text = display.visible(" ".join(str(text).split()))
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(markdown: str) -> str:
    """Inline Markdown made safe for a table cell: every ``|`` not yet escaped is escaped
    (GFM splits cells before it reads code spans, so this holds inside them too)."""
    return re.sub(r"(?<!\\)((?:\\\\)*)\|", r"\1\\|", markdown)


def _block(text: str) -> str:
    """Preformatted text (what argparse prints as written) as a fenced code block."""
    text = display.visible(str(text).strip("\n"))
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}text\n{text}\n{fence}"


def _prose_or_block(text: str | None, parser: argparse.ArgumentParser, name: str) -> str | None:
    """A description or epilog as the parser prints it: kept as written (a code block) by a
    raw formatter when it has several lines, else one escaped paragraph; ``%(prog)s``
    filled in where argparse fills it in."""
    if not text or not text.strip():
        return None
    if "%(prog)" in text:
        text = text % {"prog": name}
    raw = issubclass(parser.formatter_class, argparse.RawDescriptionHelpFormatter)
    if raw and "\n" in text.strip():
        return _block(text)
    return _text(text)


# -- argparse's parts ----------------------------------------------------------------


def _metavar(action: argparse.Action) -> str | tuple:
    if action.metavar is not None:
        return action.metavar
    if action.choices is not None:  # a subcommand without a metavar too: {import,list}
        return "{" + ",".join(map(str, action.choices)) + "}"
    return action.dest if not action.option_strings else action.dest.upper()


def _args(action: argparse.Action) -> str:
    """The values an argument takes, spelled as argparse's usage spells them."""
    metavar = _metavar(action)

    def name(i: int) -> str:
        return metavar[i] if isinstance(metavar, tuple) else metavar

    nargs = action.nargs
    if nargs is None:
        return name(0)
    if nargs == argparse.OPTIONAL:
        return f"[{name(0)}]"
    if nargs == argparse.ZERO_OR_MORE:
        return f"[{name(0)} ...]"
    if nargs == argparse.ONE_OR_MORE:
        return f"{name(0)} [{name(1) if isinstance(metavar, tuple) else name(0)} ...]"
    if nargs == argparse.REMAINDER:
        return "..."
    if nargs == argparse.PARSER:
        return f"{name(0)} ..."
    if nargs == argparse.SUPPRESS:
        return ""
    return " ".join(name(i) for i in range(nargs))


def _takes_values(action: argparse.Action) -> bool:
    return action.nargs != 0


def _visible(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.help is not argparse.SUPPRESS]


def _usage_part(action: argparse.Action) -> str:
    if not action.option_strings:
        return _args(action)
    part = action.option_strings[0] + (f" {_args(action)}" if _takes_values(action) else "")
    return part if action.required else f"[{part}]"


def usage(parser: argparse.ArgumentParser, name: str) -> str:
    """The usage line of ``parser`` invoked as ``name``: optional arguments first, then the
    positional ones, as argparse writes it, wrapped at :data:`WIDTH` under the name."""
    if parser.usage is not None:
        return parser.usage.replace("%(prog)s", name)
    actions = _visible(parser)
    groups = {id(a): g for g in parser._mutually_exclusive_groups for a in g._group_actions}
    parts: list[str] = []
    done: set[int] = set()
    for action in [a for a in actions if a.option_strings] + [a for a in actions if not a.option_strings]:
        group = groups.get(id(action))
        if group is None:
            parts.append(_usage_part(action))
            continue
        if id(group) in done:
            continue
        done.add(id(group))
        members = [a for a in group._group_actions if a.help is not argparse.SUPPRESS]
        inner = " | ".join(_usage_part(a).removeprefix("[").removesuffix("]") for a in members)
        parts.append(f"({inner})" if group.required else f"[{inner}]")
    lines, line = [], name
    indent = " " * (len(name) + 1)
    for part in parts:
        if len(line) + 1 + len(part) > WIDTH and line.strip():
            lines.append(line)
            line = indent + part
        else:
            line += " " + part
    lines.append(line)
    return "\n".join(lines)


def _help(action: argparse.Action, name: str) -> str:
    """An argument's help with argparse's ``%(default)s``-style fields filled in."""
    if not action.help:
        return ""
    params = {k: v for k, v in vars(action).items() if v is not argparse.SUPPRESS}
    params["prog"] = name
    if params.get("choices") is not None:
        params["choices"] = ", ".join(map(str, params["choices"]))
    return action.help % params if "%" in action.help else action.help


def _argument_row(action: argparse.Action, name: str) -> str:
    if action.option_strings:
        spelled = ", ".join(_code(o) for o in action.option_strings)
        if _takes_values(action):
            spelled += " " + _code(_args(action))
        if action.required:
            spelled += " (required)"
    else:
        spelled = _code(_args(action))
    default = ""
    if _takes_values(action) and action.default is not None and action.default is not argparse.SUPPRESS:
        value = action.default
        default = _code(" ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value))
    choices = ""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        choices = ", ".join(_code(str(c)) for c in action.choices)
    cells = [spelled, _text(_help(action, name)), default, choices]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _subcommands(parser: argparse.ArgumentParser):
    """``(name, aliases, help, subparser)`` of every subcommand, in the order added."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {a.dest: _help(a, a.dest) for a in action._choices_actions}
        seen: dict[int, list[str]] = {}
        parsers = {}
        for choice, sub in action.choices.items():
            seen.setdefault(id(sub), []).append(choice)
            parsers[id(sub)] = sub
        for key, names in seen.items():
            yield names[0], names[1:], helps.get(names[0]), parsers[key]


# -- the document --------------------------------------------------------------------


def _section(parser: argparse.ArgumentParser, name: str, depth: int, summary: str | None) -> list[str]:
    out = ["#" * min(2 + depth, 6) + " " + _code(name), "", _block(usage(parser, name))]
    description = _prose_or_block(parser.description or summary, parser, name)
    if description:
        out += ["", description]
    subs = list(_subcommands(parser))
    if subs:
        out += ["", "| command | summary |", "|---|---|"]
        for sub_name, aliases, help_, _ in subs:
            spelled = _code(sub_name) + "".join(f" (alias {_code(a)})" for a in aliases)
            out.append("| " + _cell(spelled) + " | " + _cell(_text(help_ or "")) + " |")
    for group in parser._action_groups:
        actions = [
            a
            for a in group._group_actions
            if a.help is not argparse.SUPPRESS and not isinstance(a, argparse._SubParsersAction)
        ]
        if not actions:
            continue
        out += ["", f"**{_text(group.title or 'arguments')}**"]
        if group.description:
            out += ["", _text(group.description)]
        out += ["", "| argument | help | default | choices |", "|---|---|---|---|"]
        out += [_argument_row(a, name) for a in actions]
    epilog = _prose_or_block(parser.epilog, parser, name)
    if epilog:
        out += ["", epilog]
    out.append("")
    for sub_name, _, help_, sub in subs:
        out += _section(sub, f"{name} {sub_name}", depth + 1, help_)
    return out


def markdown(parser: argparse.ArgumentParser, name: str = "reljudge") -> str:
    """The Markdown reference of ``parser`` (invoked as ``name``) and all its subcommands."""
    return "\n".join(_section(parser, name, 0, None)).rstrip("\n") + "\n"


def reference() -> str:
    """docs/cli.md as it should be now: the header, then :func:`markdown` of the CLI's parser."""
    from reljudge.cli.main import build_parser

    return HEADER + "\n" + markdown(build_parser())


def main() -> int:
    # UTF-8 and "\n" whatever the platform's console encoding: the file is UTF-8
    sys.stdout.buffer.write(reference().encode("utf-8"))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
