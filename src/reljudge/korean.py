"""The one Korean analyser of the process (kiwipiepy, https://github.com/bab2min/kiwipiepy).

Loading Kiwi's model takes about a second, so it is loaded once, on first use, and
shared: by the content-word highlighting (:mod:`reljudge.highlight`) and by the
sentence splitting of imported answers (:mod:`reljudge.importers`). A Kiwi object is
used by one thread at a time.
"""

from __future__ import annotations

import threading

_KIWI = None
_LOCK = threading.Lock()


def _with_kiwi(work):
    global _KIWI
    with _LOCK:
        if _KIWI is None:
            from kiwipiepy import Kiwi
            _KIWI = Kiwi()
        return work(_KIWI)


def tokenize(text: str):
    """Kiwi's morphemes of ``text`` (``Token`` objects: form, tag, start, len)."""
    return _with_kiwi(lambda kiwi: kiwi.tokenize(text))


def split_sentences(text: str) -> list[str]:
    """``text`` split into sentences by Kiwi's ``split_into_sents`` (each stripped;
    the text between sentences is whitespace)."""
    return [s.text.strip() for s in _with_kiwi(lambda kiwi: kiwi.split_into_sents(text))
            if s.text.strip()]
