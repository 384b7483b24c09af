"""Showing data safely: the one rule for text that came from files or from people.

* **Invisible and control characters** (right-to-left overrides, zero-width spaces,
  byte-order marks, C0/C1 controls, line/paragraph separators, private use) are shown
  as a visible mark such as ``⟨U+202E⟩``: a question holding U+202E "evil" must not
  display as "live". Line breaks and tabs stay as they are.
* **Ids** (paragraph, question, system names) must hold none of them: :func:`id_problem`
  says why one is refused.
* **Markdown**: Streamlit renders Markdown in st.markdown, st.caption, st.info/success/
  warning/error and widget labels. Data put there goes through :func:`md`, which
  escapes every character that could start markup, so an id like ``x`![a](http://host/i.png)``
  stays text instead of closing a code span and fetching an outside image.
* **Text from outside** (what a model endpoint answers: reason phrases, headers, its
  ``model`` field, its answer) goes through :func:`clean_text` before it is stored or
  printed: made visible as above, kept to one line where it is a one-line field,
  shortened to a limit, and a secret (the endpoint's API key) masked as ``***``.

No Streamlit here: pages, the report and the judging payload all call these.
"""

from __future__ import annotations

import re
import unicodedata

from reljudge.codes import Codes, Message

CODES = Codes(error_invisible_character=("field", "codepoint", "name"))
"""Why a text cannot be an id (worded by reljudge.i18n)."""

# Categories shown as marks in text and refused in ids: controls (Cc), format characters
# (Cf: bidi embeddings, overrides and isolates, zero-width space/joiners, BOM, soft
# hyphen, tag characters), surrogates (Cs), private use (Co), line and paragraph
# separators (Zl, Zp).
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_KEEP_IN_TEXT = frozenset("\n\t\r")
_ONE_LINE = str.maketrans("\n\r\t", "   ")  # same length: clean_text relies on it

# What can start Markdown, GFM or Streamlit markup anywhere in a line, escaped always:
# emphasis (*), code, HTML, entities, tables, strikethrough, LaTeX ($), braces, email
# autolinks (@). The rest is escaped only where Markdown would read markup, so that a
# report pasted into a paper keeps "0.903", "[0.806, 0.978]" and "lee_ann" as they are:
# "_" unless letters or digits stand on both sides (inside a word it is no emphasis; a
# run "__" is escaped whole), "]" only before "(", "[" or ":" (the only ways a bracket
# becomes a link or image), ":" only before a letter (Streamlit's :red[…] and
# :material/…: directives, emoji short codes) or "//" (GFM's bare http:// autolinks).
_MD_SPECIAL = re.compile(r"[\\`*{}<>|~$@&]|(?<![^\W_])_|_(?![^\W_])|\](?=[(\[:])|:(?=[A-Za-z]|//)")
# Only at the start of a line, and only when they would start a block: a bullet (- + *)
# or an ordered-list number (1. 1)) followed by a space or the end; a heading (#…) the
# same; a setext underline or thematic break (a line of = or -). ("]:" is escaped
# anywhere, so no link reference definition can start.) "-0.5" and "0.903" are no list. And bare "www." autolinks anywhere.
_MD_LINE_START = re.compile(
    r"^([ \t]*)(?:([-+#]|\d{1,9}(?=[.)]))(?=[.)]?(?:[ \t]|$))|([=\-])(?=[=\- \t]*$))", re.MULTILINE
)
_MD_WWW = re.compile(r"(?i)\b(www)\.")


def _escape_line_start(m: re.Match) -> str:
    mark = m.group(2) or m.group(3)
    if mark[0].isdigit():  # "1." -> "1\." : the escaped dot ends the list marker
        return m.group(1) + mark + "\\"
    return m.group(1) + "\\" + mark


def is_hidden(ch: str) -> bool:
    """True for a character that shows as nothing (or reorders what follows)."""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES


def _mark(ch: str) -> str:
    return f"⟨U+{ord(ch):04X}⟩"


def visible(text):
    """``text`` with every invisible or control character (except line breaks and tabs)
    replaced by a mark like ⟨U+202E⟩. Anything not a string comes back unchanged."""
    if not isinstance(text, str) or text.isprintable():  # the common case: nothing to mark
        return text
    return "".join(_mark(ch) if ch not in _KEEP_IN_TEXT and is_hidden(ch) else ch for ch in text)


def clean_text(text, limit: int, secret: str | None = None, one_line: bool = True) -> str:
    """``text`` safe to store and print: every occurrence of ``secret`` replaced by ``***``,
    invisible and control characters made visible (:func:`visible`: an ANSI escape shows as
    ``⟨U+001B⟩[31m``, a bidi override as ``⟨U+202E⟩``), line breaks and tabs made spaces
    when ``one_line`` (else a lone carriage return, which lets a terminal overwrite the
    line, becomes a line break), and at most ``limit`` characters, the last an ellipsis
    when it was cut. None gives ""."""
    if text is None:
        return ""
    text = str(text)
    # The key is masked in the whole text first: masking shortens the text, so masking
    # after a cut could pull a prefix of a key that stood beyond the cut back inside it.
    if secret:
        text = text.replace(secret, "***")
    # Then cut early (a 200,000-character answer is not marked character by character):
    # what follows never shortens the text, so nothing past limit + len(secret) comes back.
    text = text[: limit + len(secret or "") + 1]
    if one_line:
        text = text.translate(_ONE_LINE)
    else:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = visible(text)
    if len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    if secret and secret in text:  # only if the secret itself looks like a mark or "…"
        text = text.replace(secret, "***")
    return text


def md(text) -> str:
    """``text`` as literal text inside Markdown: invisible characters made visible, then
    every character that could start markup backslash-escaped (CommonMark allows
    escaping any ASCII punctuation), so no link, image, code span, emphasis, HTML,
    directive (``:red[…]``) or LaTeX (``$…$``) can start from the data."""
    text = _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), visible(str(text)))
    text = _MD_LINE_START.sub(_escape_line_start, text)
    return _MD_WWW.sub(r"\1\\.", text)


def md_args(**kwargs) -> dict:
    """Message arguments for a Markdown context: strings escaped with :func:`md`,
    numbers left alone (their format specs still apply)."""
    return {k: md(v) if isinstance(v, str) else v for k, v in kwargs.items()}


def id_problem(value: str, field: str = "id") -> Message | None:
    """Why ``value`` cannot be an id (it holds an invisible or control character), or None."""
    if value.isprintable():  # the common case, fast: none of the hidden categories
        return None
    for ch in value:
        if is_hidden(ch):
            name = unicodedata.name(ch, "control character")
            return CODES("error_invisible_character", field=field, codepoint=f"U+{ord(ch):04X}", name=name)
    return None


def visible_payload(payload: dict, fields=("text", "type", "criteria", "source", "prev", "next")) -> dict:
    """A judging-widget payload (``judging.payload``) with :func:`visible` applied to the
    read-only text it shows: the question's text, type and criteria, each paragraph's
    text, source line and neighbours (the named keys at any depth). Ids (``qid``,
    ``pid``) travel back in events and stay as they are (import refuses hidden characters
    in them anyway); the annotator's own editable ``note``/``evidence`` stay as typed.
    For the widget's server side: call it on the payload before it goes to the browser."""

    def walk(value, key=None):
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, str) and key in fields:
            return visible(value)
        return value

    return walk(payload)
