"""The lead's side of answer review: the items on which reviewers disagree, what the lead
reads before ruling on one, and the rulings."""

from __future__ import annotations

import pandas as pd

from reljudge.campaign.adjudication import CODES as RULING_CODES
from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.campaign.judging import source_line
from reljudge.grades import is_grade
from reljudge.review.decisions import aggregate
from reljudge.review.events import KINDS
from reljudge.storage import answers as store
from reljudge.storage.db import Database

CODES = Codes(
    review_error_cannot_adjudicate=("kind",),
    review_error_flag_needed=(),
)
"""What :func:`adjudicate` can refuse: an item kind without rulings, a missing flag."""


# -- disagreements (the lead's queue) -----------------------------------------------------

DISPUTED_KINDS = ("support", "interpretation")


def disagreements(db: Database) -> pd.DataFrame:
    """Items of the current answers on which the team's reviewers gave different grades:
    a (sentence, cited paragraph) support grade or an answer's interpretation. One row
    per item: answer_id, qid, qtype, seq, kind, sentence, pid, grades (the grades given,
    sorted, without reviewer names), lo, hi, n_reviewers, ruling (the lead's ruling that
    settles the item; None while open: never ruled, or a reviewer graded it again since),
    decided (the grade the measures use under the adjudicated policy). Which items, and
    when a ruling settles one, follow :func:`reljudge.storage.aggregation.disagreements_sql`,
    as the paragraph queue does. Open items first, the widest gap first (2 against 0),
    then campaign order."""
    cols = [
        "answer_id",
        "qid",
        "qtype",
        "seq",
        "kind",
        "sentence",
        "pid",
        "grades",
        "lo",
        "hi",
        "n_reviewers",
        "ruling",
        "decided",
    ]
    items = store.review_disagreements(db, DISPUTED_KINDS)
    if items.empty:
        return pd.DataFrame(columns=cols)
    key = ["answer_id", "kind", "sentence", "pid"]
    items = items.astype({"sentence": "Int64", "lo": int, "hi": int, "spread": int, "n_reviewers": int})
    items["grades"] = [tuple(int(g) for g in grades) for grades in items.grades]
    decided = aggregate(store.review_state(db, "majority"), store.current_review_adjudications(db)).assign(
        sentence=lambda f: f.sentence.astype("Int64").fillna(-1), pid=lambda f: f.pid.fillna("")
    )
    items = items.merge(decided[key + ["value"]].rename(columns={"value": "decided"}), on=key, how="left")
    # after the spread, the higher pair first (2 vs 1 before 1 vs 0): a doubt about full
    # support before a doubt about partial support
    items = items.sort_values(
        ["is_open", "spread", "hi", "seq", "answer_id", "kind", "sentence", "pid"],
        ascending=[False, False, False, True, True, False, True, True],
    )
    items["ruling"] = pd.Series([None if pd.isna(g) else int(g) for g in items.ruling], index=items.index, dtype=object)
    items["sentence"] = pd.Series([None if s < 0 else int(s) for s in items.sentence], index=items.index, dtype=object)
    items["pid"] = pd.Series([p or None for p in items.pid], index=items.index, dtype=object)
    return items[cols].reset_index(drop=True)


def disputed_answers(queue: pd.DataFrame) -> pd.DataFrame:
    """The answers of a :func:`disagreements` queue, in its order: answer_id, qid, qtype,
    n_items (disputed items), n_open (not yet ruled), gap (the widest hi − lo)."""
    if queue.empty:
        return pd.DataFrame(columns=["answer_id", "qid", "qtype", "n_items", "n_open", "gap"])
    q = queue.assign(open=queue.ruling.isna(), gap=queue.hi - queue.lo)
    return (
        q.groupby("answer_id", sort=False)
        .agg(
            qid=("qid", "first"),
            qtype=("qtype", "first"),
            n_items=("kind", "size"),
            n_open=("open", "sum"),
            gap=("gap", "max"),
        )
        .reset_index()
    )


def disputed_item(
    db: Database, queue: pd.DataFrame, answer_id: int, kind: str, sentence, pid, lang: str = "ko"
) -> dict:
    """What the lead reads before ruling on one disputed item, blind (no system name, no
    reviewer names): the question and criteria, the whole answer sentence by sentence,
    the sentence in question and its cited paragraph (text, source line), the grades
    given, the reviewers' notes on the answer, the current ruling."""
    head, sentences, citations = store.answer_view(db, int(answer_id))
    row = queue[
        (queue.answer_id == answer_id)
        & (queue.kind == kind)
        & (queue.sentence.map(lambda s: s == sentence))
        & (queue.pid.map(lambda p: p == pid))
    ].iloc[0]
    out = {
        "question": head[2],
        "criteria": head[4] or "",
        "qid": head[1],
        "sentences": [(int(s.idx), s.text) for s in sentences.itertuples()],
        "grades": tuple(int(g) for g in row.grades),
        "ruling": row.ruling,
        "decided": row.decided,
        "sentence": None,
        "paragraph": None,
        "source": None,
        "notes": [
            n
            for n in store.review_state(db, "majority").query("answer_id == @answer_id and kind == 'note'").note
            if isinstance(n, str) and n.strip()
        ],
    }
    if kind == "support":
        out["sentence"] = dict(out["sentences"]).get(int(sentence))
        c = citations[(citations.idx == int(sentence)) & (citations.pid == pid)].iloc[0]
        out["paragraph"] = c.text
        out["source"] = source_line(c.title, c.date, c.volume, c.page, lang)
    return out


# -- adjudication --------------------------------------------------------------------------


def adjudicate(
    db: Database,
    lead: str,
    answer_id: int,
    kind: str,
    *,
    sentence: int | None = None,
    pid: str | None = None,
    grade: int | None = None,
    flag: bool | None = None,
    reason: str = "",
) -> None:
    """A lead's final decision on one review item (the ``adjudicated`` policy uses it);
    append-only, the latest ruling per item counts."""
    if kind not in KINDS[:4]:
        raise ReljudgeError(CODES("review_error_cannot_adjudicate", kind=kind))
    if not (reason or "").strip():
        raise ReljudgeError(RULING_CODES("error_reason_needed"))
    if kind in ("support", "interpretation"):
        if not is_grade(grade):
            raise ReljudgeError(RULING_CODES("error_grade", grade=grade))
        flag = None
    elif not isinstance(flag, bool):
        raise ReljudgeError(CODES("review_error_flag_needed"))
    else:
        grade = None
    store.insert_review_adjudication(
        db,
        lead,
        int(answer_id),
        kind,
        sentence if kind in ("support", "needs_citation") else None,
        pid if kind == "support" else None,
        grade,
        flag,
        reason.strip(),
    )


adjudication_history = store.review_adjudication_history
