"""Messages the library returns as codes with parameters, never as sentences.

A module that tells people something (why a figure is missing, what an import or an
assignment did) declares the codes it can return in a module-level ``CODES`` (a
:class:`Codes`) and builds each message through it, so it cannot return a code it
has not declared, nor forget a parameter. The words live in one catalog per
language (:mod:`reljudge.i18n`, key = code): the pages and the report translate
there, the CLI prints the English text; a test walks every ``CODES`` of the
package and fails when a code lacks a Korean or an English text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping


@dataclass(frozen=True)
class Message:
    """A code and its parameters (sorted name/value pairs, so a message is hashable)."""

    code: str
    params: tuple[tuple[str, object], ...] = ()

    @property
    def kwargs(self) -> dict[str, object]:
        return dict(self.params)

    def to_dict(self) -> dict:
        """JSON-ready: ``{"code": ..., **params}``."""
        return {"code": self.code, **self.kwargs}

    @classmethod
    def from_dict(cls, data: Mapping) -> "Message":
        """The message a :meth:`to_dict` wrote."""
        return cls(data["code"], tuple(sorted((k, v) for k, v in data.items() if k != "code")))


class Codes(Mapping[str, tuple[str, ...]]):
    """The codes one module can return, each with the names of its parameters."""

    def __init__(self, **codes: tuple[str, ...]):
        self._codes = {code: tuple(params) for code, params in codes.items()}

    def __getitem__(self, code: str) -> tuple[str, ...]:
        return self._codes[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._codes)

    def __len__(self) -> int:
        return len(self._codes)

    def __call__(self, code: str, **params) -> Message:
        """The message ``code`` with ``params``; ValueError for an undeclared code or a
        parameter set other than the declared one."""
        if code not in self._codes:
            raise ValueError(f"undeclared message code {code!r}")
        if set(params) != set(self._codes[code]):
            raise ValueError(f"message {code!r} takes {sorted(self._codes[code])}, got {sorted(params)}")
        return Message(code, tuple(sorted(params.items())))
