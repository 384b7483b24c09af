"""Errors the user can act on: each names the file, the line and the problem."""

from __future__ import annotations


class ReljudgeError(Exception):
    """An error shown to the user as one clear sentence (never a traceback)."""


class InputError(ReljudgeError):
    """Bad input: names the file, the line (1-based, if known) and the problem."""

    def __init__(self, file: str | None, line: int | None, problem: str):
        self.file = file
        self.line = line
        self.problem = problem
        where = ""
        if file:
            where = f"{file}"
            if line:
                where += f", line {line}"
            where += ": "
        super().__init__(f"{where}{problem}")


class DatabaseLockedError(ReljudgeError):
    """Another process holds DuckDB's write lock on the file."""
