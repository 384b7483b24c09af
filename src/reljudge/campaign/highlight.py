"""Where a question's content words occur in a paragraph — a reading aid for long
Korean paragraphs that a lead may switch on for a campaign (setting ``highlight``).

Off by default, and the report says which was used: relevance here is whether a
paragraph is *citable evidence* for the question, not keyword overlap (methodology
§5.1), and marked words can pull a judge towards overlap.

Content words are Korean morphemes found by kiwipiepy (a maintained Korean
morphological analyser, https://github.com/bab2min/kiwipiepy): nouns (NNG, NNP, NR),
roots (XR), foreign words and numbers (SL, SH, SN), and verb/adjective stems (VV, VA)
of two or more characters (one-syllable stems such as 하 occur everywhere). A paragraph
morpheme matches when its form equals one of the question's.
"""

from __future__ import annotations

CONTENT_TAGS = frozenset({"NNG", "NNP", "NR", "XR", "SL", "SH", "SN"})
STEM_TAGS = frozenset({"VV", "VA"})


def _tokenize(text: str):
    """The process's one analyser (:mod:`reljudge.korean`)."""
    from reljudge import korean

    return korean.tokenize(text)


def _content(token) -> bool:
    tag = token.tag.split("-")[0]
    return tag in CONTENT_TAGS or (tag in STEM_TAGS and len(token.form) >= 2)


def content_words(text: str) -> set[str]:
    """The content morphemes of ``text`` (their surface forms, lower-cased)."""
    if not text:
        return set()
    return {t.form.lower() for t in _tokenize(text) if _content(t)}


def spans(words: set[str], text: str) -> list[list[int]]:
    """[start, length] of every morpheme of ``text`` whose form is in ``words``, in
    order and not overlapping (offsets in Python characters, i.e. code points)."""
    if not words or not text:
        return []
    out: list[list[int]] = []
    end = -1
    for t in _tokenize(text):
        if _content(t) and t.form.lower() in words and t.start >= end:
            # A stem such as 설명 in 설명되는 is matched by its own span only.
            out.append([int(t.start), int(t.len)])
            end = t.start + t.len
    return out
