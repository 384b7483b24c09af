"""Looking a text up: :func:`t` (a key, in a language), :func:`message` (a library message,
code and parameters), :func:`bundle` (keys for a widget). :data:`STRINGS` is the one
catalog they read, made of the screens' texts (:mod:`reljudge.i18n.ui`), the message codes'
(:mod:`reljudge.i18n.messages`) and the report's (:mod:`reljudge.i18n.report`)."""

from __future__ import annotations

from reljudge.codes import Message
from reljudge.i18n.messages import TEXTS as MESSAGES
from reljudge.i18n.report import TEXTS as REPORT
from reljudge.i18n.ui import TEXTS as UI

LANGS = ("ko", "en")

STRINGS: dict[str, tuple[str, str]] = {**UI, **MESSAGES, **REPORT}


def t(key: str, lang: str = "ko", **kwargs) -> str:
    """The string ``key`` in ``lang`` (falls back to Korean), formatted with kwargs."""
    ko, en = STRINGS[key]
    text = en if lang == "en" else ko
    return text.format(**kwargs) if kwargs else text


def bundle(keys: list[str], lang: str) -> dict[str, str]:
    return {k: t(k, lang) for k in keys}


def message(msg, lang: str = "ko", sep: str = " ") -> str:
    """A library message (:class:`reljudge.codes.Message`: code + parameters) in ``lang``,
    or a sequence of them joined by ``sep``; the code is the catalog key. A parameter
    that is itself a message is translated too, a tuple of values is listed with ", ".
    The CLI passes ``lang="en"``."""
    if isinstance(msg, (list, tuple)):
        return sep.join(message(m, lang) for m in msg)
    return t(msg.code, lang, **{k: _param(v, lang) for k, v in msg.params})


def _param(value, lang: str):
    if isinstance(value, Message):
        return message(value, lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_param(v, lang)) for v in value)
    return value
