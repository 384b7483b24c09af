"""The one Korean analyser of the process (kiwipiepy, https://github.com/bab2min/kiwipiepy).

Loading Kiwi's model takes about a second, so it is loaded once, on first use, and
shared: by the content-word highlighting (:mod:`reljudge.campaign.highlight`) and by the
sentence splitting of imported answers (:mod:`reljudge.campaign.importers`). A Kiwi object is
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


#: Kiwi's ``split_into_sents`` grows faster than the text (measured: 0.6 s for 40,000
#: characters, 5 s for 160,000; a 1 MB answer ran for minutes), so a long text is fed to
#: it in pieces of at most this many characters, each cut where a sentence surely ends.
SPLIT_PIECE = 2_000
_ENDS = (".\n", "\n", ". ", "? ", "! ", "。", "다. ", "요. ")


def _pieces(text: str, size: int = SPLIT_PIECE):
    """``text`` in consecutive pieces of at most ``size`` characters, each cut after the
    last line break or sentence end in its second half (after the last space if there is
    none; in a text without either, hard every ``size // 4`` characters, where Kiwi is
    slowest). Linear in the text."""
    start = 0
    while len(text) - start > size:
        window = text[start : start + size]
        cut = max((window.rfind(end) + len(end) for end in _ENDS if window.rfind(end) >= size // 2), default=-1)
        if cut < 0:
            space = window.rfind(" ")
            # no break at all: Kiwi is slowest on unbroken text, so cut it shorter
            cut = space + 1 if space >= size // 2 else size // 4
        yield text[start : start + cut]
        start += cut
    yield text[start:]


def split_sentences(text: str) -> list[str]:
    """``text`` split into sentences by Kiwi's ``split_into_sents`` (each stripped;
    the text between sentences is whitespace), in pieces of at most
    :data:`SPLIT_PIECE` characters so that the time grows linearly with the text."""
    return [
        s.text.strip()
        for piece in _pieces(text)
        for s in _with_kiwi(lambda kiwi: kiwi.split_into_sents(piece))
        if s.text.strip()
    ]
