"""The pointwise judging prompt and the parser of its answer.

The prompt adapts UMBRELA's zero-shot prompt (Upadhyay et al. 2024, after Thomas et al.
2023) to this workbench's 0/1/2 scale and to Korean material: one (question, paragraph)
pair per request, with the question's judging criteria, and our definitions of the
grades. The answer must end with a last line ``##final score: N`` (N = 0, 1 or 2);
anything else is an unparsable answer, recorded as such, never guessed.

The model is asked to reason briefly (two short sentences) and to write ``END_MARK`` on
the line after the score; the endpoint judge sends ``END_MARK`` as the request's ``stop``
string. Why a terminator and not a stop on the score line itself: an OpenAI-style stop
string is *removed* from the answer, so stopping on ``##final score`` (or on the newline
that could follow it) would cut the score off or end the answer inside the reasoning.
Stopping on a mark that can only come after the score line removes nothing the parser
needs, and a model that never writes it is still bounded by ``max_tokens``.
"""

from __future__ import annotations

import hashlib
import re

from reljudge.grades import GRADES, TOP_GRADE, is_grade

#: tokens an endpoint answer may take (``max_tokens``): two short sentences, the score line
#: and END_MARK take ~40-80 tokens; a longer answer is cut off, and so unparsable
DEFAULT_MAX_TOKENS = 128

#: the line the model writes after its score line; sent as the stop string (see above)
END_MARK = "##end"

SYSTEM_PROMPT = "You are a careful relevance assessor for a Korean question-answering archive."

# The scale's range and its grades come from reljudge.grades (the one scale); the grade
# descriptions below are the methodology's wording of that scale.
PROMPT_TEMPLATE = (
    """Given a question and a paragraph from a Korean document collection, you must judge how \
useful the paragraph is as evidence for answering the question, on a scale of """
    + f"{GRADES[0]} to {TOP_GRADE}"
    + """:
2 = directly citable evidence: the paragraph itself states what answers the question (or a \
necessary part of it), so an answer could quote it as its source.
1 = related but not citable: the paragraph is on the question's topic or gives useful \
background, but does not itself state the answer.
0 = not relevant: the paragraph has nothing to do with the question, or only shares words with it.

The question's judging criteria, written by the campaign's lead, say what counts as an \
answer for this question; follow them.

Important instruction: assign category 1 if the paragraph is somewhat related to the \
question but not citable, 2 only if it is directly citable evidence, and 0 if not relevant. \
Judge the paragraph alone: do not use outside knowledge to fill in what it does not say.

Question: {question}
Judging criteria: {criteria}
Paragraph: {paragraph}

Split this problem into steps: consider what the question asks and what the criteria \
require, measure how well the paragraph's content matches it (M), and how trustworthy and \
self-contained it is as a quotation (T). Consider the aspects above and the relative \
importance of each, and decide on a final score (O). Final score must be an integer value \
only ("""
    + ", ".join(map(str, GRADES[:-1]))
    + f" or {TOP_GRADE}"
    + """). Be brief: at most two short sentences of reasoning. Answer in any language, \
but end your answer with these two lines, exactly in this form and nothing after them:
##final score: N
##end"""
)

_FINAL = re.compile(r"##\s?final score:\s*([0-9]+)\s*", re.IGNORECASE)


def prompt_text() -> str:
    """The full prompt as recorded with a source: system message and user template."""
    return f"[system]\n{SYSTEM_PROMPT}\n[user]\n{PROMPT_TEMPLATE}"


def prompt_sha256(text: str | None = None) -> str:
    return hashlib.sha256((text if text is not None else prompt_text()).encode("utf-8")).hexdigest()


def build_prompt(question: str, criteria: str, paragraph: str) -> str:
    """The user message for one pair (no criteria: said so, not left blank)."""
    return PROMPT_TEMPLATE.format(
        question=question.strip(),
        criteria=(criteria or "").strip() or "(none given)",
        paragraph=paragraph.strip(),
    )


def messages(question: str, criteria: str, paragraph: str) -> list[dict]:
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": build_prompt(question, criteria, paragraph)},
    ]


def parse_final_score(answer: str | None) -> int | None:
    """The grade in the answer's last non-blank line ``##final score: N`` (N in 0, 1, 2);
    None for anything else: no such line, the line not last, a number out of range, a
    fraction, words after it. A last line ``END_MARK`` (a server that ignored the stop
    string) is not part of the answer."""
    if not isinstance(answer, str):
        return None
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    if lines and lines[-1] == END_MARK:
        lines.pop()
    if not lines:
        return None
    match = _FINAL.fullmatch(lines[-1])
    if not match:
        return None
    grade = int(match.group(1))
    return grade if is_grade(grade) and match.group(1) == str(grade) else None
