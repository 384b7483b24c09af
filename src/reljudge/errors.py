"""Errors the user can act on: each names the file, the line and the problem."""

from __future__ import annotations

from reljudge.codes import Codes, Message

CODES = Codes(
    error_input_at_line=("file", "line", "problem"),
    error_input_in_file=("file", "problem"),
    error_out_of_memory=("detail",),
)
"""Where bad input is, around a problem that is itself a message (``InputError``)."""


class ReljudgeError(Exception):
    """An error shown to the user as one clear sentence (never a traceback).

    Raised with a :class:`reljudge.codes.Message`, it keeps the code in ``message``:
    the pages word it in the user's language (``reljudge.ui.session.error_text``),
    ``str()`` gives the English catalog text (the CLI, logs). Raised with a string,
    the string is the text."""

    def __init__(self, *args):
        self.message = args[0] if len(args) == 1 and isinstance(args[0], Message) else None
        super().__init__(*args)

    def __str__(self) -> str:
        if self.message is not None:
            from reljudge import i18n

            return i18n.message(self.message, "en")
        return super().__str__()


class InputError(ReljudgeError):
    """Bad input: names the file, the line (1-based, if known) and the problem."""

    def __init__(self, file: str | None, line: int | None, problem: str | Message):
        self.file = file
        self.line = line
        self.problem = problem
        if isinstance(problem, Message):  # the pages word it, str() is English
            if file and line:
                super().__init__(CODES("error_input_at_line", file=str(file), line=line, problem=problem))
            elif file:
                super().__init__(CODES("error_input_in_file", file=str(file), problem=problem))
            else:
                super().__init__(problem)
            return
        where = ""
        if file:
            where = f"{file}"
            if line:
                where += f", line {line}"
            where += ": "
        super().__init__(f"{where}{problem}")


class DatabaseLockedError(ReljudgeError):
    """Another process holds DuckDB's write lock on the file."""


class OutOfMemory(ReljudgeError):
    """The computation could not get the memory it needs (DuckDB's limit, or the machine's):
    not a fault of any input file."""

    def __init__(self, detail: str):
        super().__init__(CODES("error_out_of_memory", detail=detail))
