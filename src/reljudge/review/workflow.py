"""Answer review (methodology §4: "답변의 해석 타당성과 인용 정확도는 사람 검수로 평가한다"):
importing generated answers, the review events a page posts, what a reviewer sees,
review files in and out, and how several reviewers' decisions become one.

Decisions (each an append-only event; the latest per item counts; a null value clears):

=================  ===========================  ===========================================
kind               item                         value
=================  ===========================  ===========================================
``support``        (answer, sentence, cited     ``grade``: 2 full, 1 partial, 0 no support
                   paragraph)                   (TREC 2024 RAG support levels)
``needs_citation`` (answer, sentence)           ``needs_citation``: false = a greeting or a
                                                transition that needs no citation (default
                                                true: every sentence needs one)
``interpretation`` answer                       ``grade``: 2 valid, 1 partly, 0 invalid (해석 타당성)
``abstention``     answer                       ``appropriate``: the abstention (or, on a
                                                no-answer question, the answer) was appropriate
``note``           answer                       ``note``: free text
=================  ===========================  ===========================================

Every reviewer sees the answers of the questions in their review queue: every question
while the lead has made no review assignment (:func:`assign_reviews`), else their
assigned questions (a lead without review assignments sees everything).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import numpy as np
import pandas as pd

from reljudge import i18n
from reljudge.campaign import event_fields as fields
from reljudge.campaign import group_commit
from reljudge.campaign import importers
from reljudge.campaign.adjudication import CODES as RULING_CODES
from reljudge.codes import Codes, Message
from reljudge.errors import InputError, ReljudgeError
from reljudge.campaign.judging import GRADES, MAX_NOTE, source_line
from reljudge.campaign.queue_position import WorkQueue
from reljudge.storage import aggregation
from reljudge.storage import answers as store
from reljudge.storage.db import Database

KINDS = ("support", "needs_citation", "interpretation", "abstention", "note")
SUPPORT_WEIGHT = {2: 1.0, 1: 0.5, 0: 0.0}
"""s of a support grade (TREC 2024 RAG weighted precision: full 1, partial 0.5, none 0)."""

REJECTION_CODES = (
    "stale",
    "unknown_answer",
    "superseded",
    "unknown_sentence",
    "not_cited",
    "not_assigned",
    "held_back",
    "malformed",
)

CODES = Codes(
    # why a review event was refused (the widget shows the short rejected_<code> texts)
    review_stale=(),
    review_unknown_answer=("answer",),
    review_superseded=("answer",),
    review_unknown_sentence=("answer", "sentence"),
    review_not_cited=("answer", "pid"),
    review_not_assigned=("answer", "user"),
    review_held_back=(),
    review_malformed=(),
    review_malformed_detail=("detail",),
    # policies, sources, rulings
    review_error_policy=("policy",),
    review_error_source_needed=(),
    review_error_cannot_adjudicate=("kind",),
    review_error_flag_needed=(),
    # review files (import reviews): the problem at a line
    review_file_missing=("field",),
    review_file_no_answer=("system", "qid"),
    review_file_duplicate=("qid", "system", "reviewer", "first"),
    review_file_interpretation=("value",),
    review_file_abstention=("value",),
    review_file_note=(),
    review_file_sentences=(),
    review_file_index=(),
    review_file_index_range=("index", "n"),
    review_file_needs_citation=("value",),
    review_file_support=(),
    review_file_not_cited=("pid", "index"),
    review_file_support_grade=("value",),
)
"""Every message this module returns: refusals, errors and review-file problems."""


def rejection_message(code: str, detail, answer_id=None, username: str | None = None) -> Message:
    """Why an event was refused, as a message (code + parameters); ``detail`` is what
    the store said (the sentence, the paragraph) or, for ``malformed``, the error."""
    if code == "malformed":
        if isinstance(detail, Message):
            return detail
        return CODES("review_malformed_detail", detail=detail) if detail else CODES("review_malformed")
    params = {
        "unknown_answer": {"answer": answer_id},
        "superseded": {"answer": answer_id},
        "unknown_sentence": {"answer": answer_id, "sentence": detail},
        "not_cited": {"answer": answer_id, "pid": detail},
        "not_assigned": {"answer": answer_id, "user": username},
    }.get(code, {})
    return CODES(f"review_{code}", **params)


def rejection_text(code: str, detail, answer_id=None, username: str | None = None) -> str:
    """:func:`rejection_message` in English (scripts, logs)."""
    return i18n.message(rejection_message(code, detail, answer_id, username), "en")


# -- import ------------------------------------------------------------------------


def import_answers(
    db: Database,
    path,
    *,
    system: str | None = None,
    fmt: str | None = None,
    replace: bool = False,
    display: str | None = None,
) -> dict[str, int]:
    """Import generated answers (see :func:`reljudge.campaign.importers.answer_records`) all or
    nothing, as a new version per system; returns {system: version}."""
    src = importers.Source.of(path, display)
    records = importers.answer_records(src, fmt, system)
    return store.import_answers(db, records, src.display, replace)


answer_versions = store.answer_versions


# -- events ------------------------------------------------------------------------


def _event_row(raw: dict) -> dict:
    """The row of one review event, every field checked (reljudge.campaign.event_fields, the
    checks paragraph events share) before any transaction."""
    row = fields.common(raw)
    kind = fields.kind(raw, KINDS)
    row.update(
        answer_id=fields.integer(raw, "answer_id", 0, fields.BIGINT, required=True),
        kind=kind,
        sentence=None,
        pid=None,
        grade=None,
        flag=None,
        note=fields.text(raw, "note", MAX_NOTE),
    )
    if kind in ("support", "needs_citation"):
        row["sentence"] = fields.integer(raw, "sentence", 0, fields.INTEGER, required=True)
    if kind == "support":
        row["pid"] = fields.key(raw, "pid")
    if kind in ("support", "interpretation"):
        row["grade"] = fields.grade(raw)
    elif kind == "needs_citation":
        row["flag"] = fields.boolean(raw, "needs_citation")
    elif kind == "abstention":
        row["flag"] = fields.boolean(raw, "appropriate")
    return row


def _store(db: Database, username: str, rows: list[dict], all_or_nothing: bool):
    if not rows:
        return {}, {}
    return group_commit.for_database(db, store.append_review_batches).submit(db, username, rows, all_or_nothing)


def record_each(db: Database, username: str, events: list[dict], with_ids: bool = False, codes: bool = False):
    """Store review events (append-only, idempotent on their ids); one bad event cannot
    block the others. Returns (acknowledged ids, {refused id: reason}) and, with
    ``with_ids``, {acknowledged id: stored event id}; with ``codes`` the reasons are
    codes (REJECTION_CODES) — the shape and codes of :func:`reljudge.campaign.judging.record_each`.

    Event fields: ``id`` (client event id, idempotency key), ``kind`` (KINDS),
    ``answer_id``, ``sentence`` (support, needs_citation), ``pid`` (support), ``grade``
    (support, interpretation: 0/1/2 or null), ``needs_citation`` (bool or null),
    ``appropriate`` (abstention: bool or null), ``note`` (any kind; the answer's note is
    kind ``note``), ``ms`` (time spent), ``client`` (browser id), ``base`` (event id of
    the state the edit was made on)."""
    rows, refused = [], {}
    for event in events:
        try:
            rows.append(_event_row(event))
        except ReljudgeError as exc:
            refused[fields.reply_key(event)] = ("malformed", exc.message or str(exc), None)
    stored, problems = _store(db, username, rows, False)
    answer_of = {r["client_event_id"]: r["answer_id"] for r in rows}
    refused.update({cid: (code, detail, answer_of.get(cid)) for cid, (code, detail) in problems.items()})
    reasons = {
        cid: code if codes else rejection_text(code, detail, a, username) for cid, (code, detail, a) in refused.items()
    }
    return (list(stored), reasons, stored) if with_ids else (list(stored), reasons)


def record(db: Database, username: str, events: list[dict]) -> list[str]:
    """All or nothing: a refused event raises ReljudgeError naming why; returns the ids."""
    rows = [_event_row(e) for e in events]
    stored, refused = _store(db, username, rows, True)
    problems = {cid: r for cid, r in refused.items() if r[0] != "held_back"}
    if problems:
        cid, (code, detail) = next(iter(problems.items()))
        row = next(r for r in rows if r["client_event_id"] == cid)
        raise ReljudgeError(rejection_message(code, detail, row["answer_id"], username))
    return list(stored)


def review(db: Database, username: str, answer_id: int, kind: str, **fields) -> str:
    """Convenience for scripts and tests: one review event; returns its id."""
    cid = str(uuid.uuid4())
    record(db, username, [{"id": cid, "kind": kind, "answer_id": answer_id, **fields}])
    return cid


history = store.event_history


# -- queue and navigation --------------------------------------------------------------


def finished(queue: pd.DataFrame) -> pd.Series:
    """Per answer of a queue: reviewed completely by this reviewer. An abstaining answer
    needs the abstention judgment; any other answer a support grade for every
    (sentence, cited paragraph), its interpretation, and on a no-answer-expected
    question also whether answering was appropriate."""
    answered = (
        (queue.n_supported >= queue.n_pairs) & queue.interpreted & (~queue.no_answer_expected | queue.abstention_given)
    )
    return (queue.abstained & queue.abstention_given) | (~queue.abstained & answered)


def review_queue(db: Database, username: str) -> pd.DataFrame:
    """The reviewer's answers in order (see storage.answers.review_queue) with ``done``."""
    q = store.review_queue(db, username)
    q["done"] = finished(q) if len(q) else pd.Series(dtype=bool)
    return q


def _next_open(q: pd.DataFrame, after: int | None = None) -> int | None:
    open_ = q[~q.done & (q.answer_id != after)]
    if open_.empty:
        return None
    ids = list(q.answer_id)
    if after in ids:
        later = open_[open_.index > ids.index(after)]
        if not later.empty:
            return int(later.iloc[0].answer_id)
    return int(open_.iloc[0].answer_id)


QUEUE = WorkQueue(
    review_queue,
    "answer_id",
    lambda q, after=None: _next_open(q, after),
    store.get_position,
    store.set_position,
    lambda answer_id, user: ReljudgeError(CODES("review_not_assigned", answer=answer_id, user=user)),
    int,
)
"""The review queue's position and moves: the rule of the judging queue (reljudge.campaign.queue_position)."""


def current_answer(db: Database, username: str) -> int | None:
    """Where the reviewer left off; else their first unfinished answer (remembered)."""
    return QUEUE.current(db, username)


def go_to(db: Database, username: str, answer_id: int) -> None:
    QUEUE.go_to(db, username, answer_id)


def step(db: Database, username: str, delta: int, only_open: bool = False) -> int | None:
    """Move ``delta`` answers forward/back, or (``only_open``) to the next unfinished one."""
    return QUEUE.step(db, username, delta, only_open)


# -- the page's data -------------------------------------------------------------------


def _none(x):
    return None if x is None or (isinstance(x, float) and np.isnan(x)) or x is pd.NA else x


def payload(db: Database, username: str, answer_id: int, lang: str = "ko") -> dict:
    """Everything the review page shows for one answer, blind (no system name, version
    or rank): the question and its criteria, the answer sentence by sentence, each with
    its cited paragraphs (full text, source line, the current aggregated relevance grade
    when judged) and this reviewer's decisions with their event ids (``eid``: the
    ``base`` of the next edit)."""
    q = review_queue(db, username)
    row = q[q.answer_id == answer_id]
    if row.empty:
        raise ReljudgeError(CODES("review_not_assigned", answer=answer_id, user=username))
    r = row.iloc[0]
    head, sentences, citations = store.answer_view(db, answer_id)
    mine = {
        (m.kind, _none(m.sentence), _none(m.pid)): m for m in store.my_reviews(db, username, answer_id).itertuples()
    }

    def decision(kind, sentence=None, pid=None, field="grade"):
        m = mine.get((kind, sentence, pid))
        if m is None:
            return None, 0
        value = _none(getattr(m, field))
        if value is not None:
            value = bool(value) if field == "flag" else (str(value) if field == "note" else int(value))
        return value, int(m.event_id)

    relevance = store.relevance_grades(db, head[1], list(citations.pid.unique()))
    out_sentences = []
    for s in sentences.itertuples():
        cites = citations[citations.idx == s.idx]
        needs, needs_eid = decision("needs_citation", int(s.idx), None, "flag")
        items = []
        for c in cites.itertuples():
            grade, eid = decision("support", int(s.idx), c.pid)
            items.append(
                {
                    "pid": c.pid,
                    "text": c.text,
                    "source": source_line(c.title, c.date, c.volume, c.page, lang),
                    "relevance": relevance.get(c.pid),
                    "support": grade,
                    "eid": eid,
                }
            )
        out_sentences.append(
            {
                "index": int(s.idx),
                "text": s.text,
                "needs_citation": needs,
                "needs_citation_eid": needs_eid,
                "citations": items,
            }
        )
    interpretation, interpretation_eid = decision("interpretation")
    appropriate, abstention_eid = decision("abstention", field="flag")
    note, note_eid = decision("note", field="note")
    same_q = q[q.qid == r.qid]
    done = q.done
    ids = list(q.answer_id)
    return {
        "answer_id": int(answer_id),
        "qid": r.qid,
        "index": ids.index(answer_id) + 1,
        "n_answers": len(ids),
        "in_question": {"index": list(same_q.answer_id).index(answer_id) + 1, "n": int(len(same_q))},
        "question": {"text": head[2], "type": head[3], "criteria": head[4], "no_answer_expected": bool(head[5])},
        "abstained": bool(head[6]),
        "ask_abstention": bool(head[6] or head[5]),
        "sentences": out_sentences,
        "interpretation": interpretation,
        "interpretation_eid": interpretation_eid,
        "abstention_appropriate": appropriate,
        "abstention_eid": abstention_eid,
        "note": note or "",
        "note_eid": note_eid,
        "done": bool(r.done),
        "progress": {
            "answers_done": int(done.sum()),
            "n_answers": len(ids),
            "pairs_done": int(q.n_supported.clip(upper=q.n_pairs).sum()),
            "n_pairs": int(q.n_pairs.sum()),
        },
        "unfinished_before": int((~done.iloc[: ids.index(answer_id)]).sum()),
    }


# -- assignments ----------------------------------------------------------------------


def preview_reviews(db: Database, reviewers: list[str] | None = None, **options):
    """The plan :func:`assign_reviews` would store, without storing it: the
    paragraph-judging planner (:func:`reljudge.campaign.assignment.plan`: overlap share, balance
    by type, started work kept) over the questions that have answers; the work of a
    question is its answers plus its (sentence, citation) pairs."""
    from reljudge.campaign import assignment
    from reljudge.storage import team

    return assignment.plan(
        store.questions_for_review(db),
        reviewers or team.active_annotators(db),
        started=store.started_reviews(db),
        **options,
    )


def assign_reviews(db: Database, lead: str, reviewers: list[str] | None = None, **options):
    """Replace the review assignments with :func:`preview_reviews`' plan; returns it."""
    plan = preview_reviews(db, reviewers, **options)
    store.replace_review_assignments(db, plan.rows, lead)
    return plan


active_review_assignments = store.active_review_assignments


# -- several reviewers → one decision ----------------------------------------------------

POLICY_TEXT = (
    "adjudicated decision if any; else the majority of the reviewers per item "
    "(sentence × cited paragraph, sentence, answer); a tie goes to the stricter "
    "reading: the lower support or interpretation grade, 'needs a citation', "
    "'not appropriate'"
)


def _strict_value(frame: pd.DataFrame) -> pd.Series:
    """Each decision on one ordered scale where lower is stricter: support and
    interpretation grades as they are; needs_citation 0 = needs one, 1 = needs none;
    abstention 0 = not appropriate, 1 = appropriate."""
    flag = frame.flag.astype("boolean")
    return np.where(
        frame.kind.isin(["support", "interpretation"]),
        frame.grade.astype(float),
        np.where(frame.kind == "needs_citation", (~flag).astype(float), flag.astype(float)),
    )


def aggregate(state: pd.DataFrame, adjudicated: pd.DataFrame | None = None) -> pd.DataFrame:
    """One decision per item: answer_id, kind, sentence, pid, value (grade, or the flag
    as a bool), provenance (adjudicated / single / unanimous / majority / tie),
    n_reviewers. See POLICY_TEXT; ``state``: reviewer, answer_id, kind, sentence, pid,
    grade, flag (notes are not aggregated)."""
    key = ["answer_id", "kind", "sentence", "pid"]
    s = state[state.kind != "note"].copy()
    s["sentence"] = s.sentence.astype("Int64").fillna(-1)
    s["pid"] = s.pid.fillna("")
    s["v"] = _strict_value(s)
    adj = None
    if adjudicated is not None and len(adjudicated):
        adj = adjudicated.copy()
        adj["sentence"] = adj.sentence.astype("Int64").fillna(-1)
        adj["pid"] = adj.pid.fillna("")
        adj["v"] = _strict_value(adj)
    # the one rule of several raters → one decision, as for paragraphs (reljudge.storage.aggregation)
    winners = aggregation.decide_frames(s, key, adj, n_name="n_reviewers")
    winners = winners.astype({"sentence": "Int64", "n_reviewers": int, "pid": object})
    kind = winners.kind
    value = pd.Series(winners.v.astype(int).astype(object), index=winners.index)
    value[kind == "needs_citation"] = winners.v[kind == "needs_citation"] == 0
    value[kind == "abstention"] = winners.v[kind == "abstention"] == 1
    out = winners.assign(
        value=value,
        sentence=winners.sentence.where(winners.sentence >= 0),
        pid=winners.pid.where(winners.pid != "", None),
    )
    return (
        out[key + ["value", "provenance", "n_reviewers"]].sort_values(key, na_position="first").reset_index(drop=True)
    )


def aggregated_reviews(db: Database, policy: str = "adjudicated") -> pd.DataFrame:
    """The decisions the measures use under ``policy``: ``adjudicated`` (a lead's ruling
    if any, else the majority, ties to the stricter reading), ``majority`` (the same
    without rulings), ``reviewer:NAME`` (one reviewer), ``source:NAME`` (an imported
    review source, its reviewers aggregated by majority)."""
    if not (policy in ("adjudicated", "majority") or policy.startswith(("reviewer:", "source:"))):
        raise ReljudgeError(CODES("review_error_policy", policy=policy))
    state = store.review_state(db, policy)
    adj = store.current_review_adjudications(db) if policy == "adjudicated" else None
    return aggregate(state, adj)


def review_ratings(db: Database, include_sources: bool = True) -> pd.DataFrame:
    """Each rater's support and interpretation grades on the current answers, for
    agreement (:func:`reljudge.agreement.coefficients.review_agreement`): annotator, qid, answer_id,
    kind, sentence, pid, grade. The team's reviewers by name; each imported review
    source as ONE rater ``source:NAME`` (its decisions under the policy
    ``source:NAME``), as an imported qrels source joins paragraph agreement."""
    cols = ["annotator", "answer_id", "kind", "sentence", "pid", "grade"]
    frames = [store.review_state(db, "majority").rename(columns={"reviewer": "annotator"})[cols]]
    for name in store.review_sources(db) if include_sources else []:
        agg = aggregated_reviews(db, f"source:{name}")
        agg = agg[agg.kind.isin(["support", "interpretation"])]
        frames.append(agg.assign(annotator=f"source:{name}", grade=agg.value)[cols])
    out = (
        pd.concat([f for f in frames if len(f)], ignore_index=True)
        if any(len(f) for f in frames)
        else pd.DataFrame(columns=cols)
    )
    out = out[out.kind.isin(["support", "interpretation"]) & out.grade.notna()]
    out = out.merge(store.answer_keys(db)[["answer_id", "qid"]], on="answer_id")
    return out.astype({"grade": int})[["annotator", "qid", *cols[1:]]].reset_index(drop=True)


# -- disagreements (the lead's queue) -----------------------------------------------------

DISPUTED_KINDS = ("support", "interpretation")


def disagreements(db: Database) -> pd.DataFrame:
    """Items of the current answers on which the team's reviewers gave different grades:
    a (sentence, cited paragraph) support grade or an answer's interpretation. One row
    per item: answer_id, qid, qtype, seq, kind, sentence, pid, grades (the grades given,
    sorted, without reviewer names), lo, hi, n_reviewers, ruling (the lead's current
    ruling or None), decided (the grade the measures use under the adjudicated policy).
    Open items first, the widest gap first (2 against 0), then campaign order."""
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
    state = store.review_state(db, "majority")
    state = state[state.kind.isin(DISPUTED_KINDS) & state.grade.notna()].copy()
    if state.empty:
        return pd.DataFrame(columns=cols)
    key = ["answer_id", "kind", "sentence", "pid"]
    state["sentence"] = state.sentence.astype("Int64").fillna(-1)
    state["pid"] = state.pid.fillna("")
    state["grade"] = state.grade.astype(int)
    items = (
        state.groupby(key)
        .grade.agg(grades=lambda g: tuple(sorted(g)), lo="min", hi="max", n_reviewers="size")
        .reset_index()
    )
    items = items[items.lo < items.hi]
    answers = store.current_answer_tables(db)[0][["answer_id", "qid", "qtype", "seq"]]
    items = items.merge(answers, on="answer_id")
    adj = store.current_review_adjudications(db)
    adj = adj[adj.kind.isin(DISPUTED_KINDS)].assign(
        sentence=adj.sentence.astype("Int64").fillna(-1), pid=adj.pid.fillna("")
    )
    items = items.merge(adj[key + ["grade"]].rename(columns={"grade": "ruling"}), on=key, how="left")
    decided = aggregate(state, adj).assign(
        sentence=lambda f: f.sentence.astype("Int64").fillna(-1), pid=lambda f: f.pid.fillna("")
    )
    items = items.merge(decided[key + ["value"]].rename(columns={"value": "decided"}), on=key, how="left")
    items["open"] = items.ruling.isna()
    items = items.sort_values(
        ["open", "hi", "lo", "seq", "answer_id", "kind", "sentence", "pid"],
        ascending=[False, False, True, True, True, False, True, True],
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


def review_coverage(db: Database) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Who reviewed the current answers, for the report's disclosure: (reviewer,
    n_answers) per team reviewer, and (n_reviewers, n_answers): how many answers were
    reviewed by 0, 1, 2 … of them (an answer counts as reviewed by someone who made
    any decision on it)."""
    state = store.review_state(db, "majority")
    keys = store.answer_keys(db)
    state = state[state.answer_id.isin(keys.answer_id)].drop_duplicates(["reviewer", "answer_id"])
    per_reviewer = state.groupby("reviewer").size().rename("n_answers").reset_index()
    per_answer = state.groupby("answer_id").size().reindex(keys.answer_id, fill_value=0)
    spread = per_answer.value_counts().sort_index().rename_axis("n_reviewers").rename("n_answers").reset_index()
    return per_reviewer, spread


# -- review files: out and in --------------------------------------------------------------


def review_records(db: Database, source: str | None = None) -> list[dict]:
    """One record per reviewer × current answer (the review JSONL): ``{"qid", "system",
    "reviewer", "interpretation", "abstention_appropriate", "note", "sentences": [{"index",
    "needs_citation", "support": {pid: grade}}]}``; every sentence of the answer is listed
    (needs_citation true unless said otherwise; support holds the graded citations).
    ``source`` gives an imported source's records instead of the team's."""
    state = store.review_state(db, f"source:{source}" if source else "adjudicated")
    answers, sentences, _ = store.current_answer_tables(db)
    state = state[state.answer_id.isin(answers.answer_id)]
    info = answers.set_index("answer_id")
    n_sent = sentences.groupby("answer_id").size().to_dict()
    out = []
    for (reviewer, answer_id), part in state.groupby(["reviewer", "answer_id"], sort=False):
        a = info.loc[answer_id]
        one = {k: part[part.kind == k] for k in KINDS}
        needs = {int(r.sentence): bool(r.flag) for r in one["needs_citation"].itertuples()}
        support: dict[int, dict] = {}
        for r in one["support"].itertuples():
            support.setdefault(int(r.sentence), {})[r.pid] = int(r.grade)
        interp = one["interpretation"].grade
        abst = one["abstention"].flag
        note = one["note"].note
        out.append(
            {
                "qid": a.qid,
                "system": a.system,
                "reviewer": reviewer,
                "interpretation": int(interp.iloc[0]) if len(interp) else None,
                "abstention_appropriate": bool(abst.iloc[0]) if len(abst) else None,
                "note": str(note.iloc[0]) if len(note) else "",
                "sentences": [
                    {"index": i, "needs_citation": needs.get(i, True), "support": support.get(i, {})}
                    for i in range(int(n_sent.get(answer_id, 0)))
                ],
                "_order": (int(a.seq), a.system, reviewer),
            }
        )
    out.sort(key=lambda r: r["_order"])
    for r in out:
        del r["_order"]
    return out


def reviews_bytes(db: Database, source: str | None = None) -> bytes:
    """:func:`review_records` as JSONL (the Export page's download, the CLI's file)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in review_records(db, source)).encode("utf-8")


def write_reviews(db: Database, path, source: str | None = None) -> int:
    """Write :func:`reviews_bytes` to ``path``; returns the number of records."""
    data = reviews_bytes(db, source)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(data)
    return data.count(b"\n")


def import_reviews(db: Database, path, source: str, display: str | None = None) -> int:
    """Import review records (the format of :func:`review_records`) as the named source,
    replacing that source; all or nothing, one error naming file, line and problem.
    Returns the number of reviewer × answer records."""
    if not source or not source.strip():
        raise ReljudgeError(CODES("review_error_source_needed"))
    source = importers.check_name(source, None, None, "source name")
    src = importers.Source.of(path, display)
    name = src.display
    answers, sentences, citations = store.current_answer_tables(db)
    by_key = {(a.qid, a.system): int(a.answer_id) for a in answers.itertuples()}
    n_sent = sentences.groupby("answer_id").size().to_dict()
    cited = set(zip(citations.answer_id, citations.idx, citations.pid))
    rows, seen = [], {}

    def bad(lineno, problem):
        raise InputError(name, lineno, problem)

    for lineno, obj in importers.jsonl_records(src):
        qid, system, reviewer = obj.get("qid"), obj.get("system"), obj.get("reviewer")
        for field, value in (("qid", qid), ("system", system), ("reviewer", reviewer)):
            if not isinstance(value, str) or not value.strip():
                bad(lineno, CODES("review_file_missing", field=field))
            importers.check_name(value, name, lineno, field)
        answer_id = by_key.get((qid, system))
        if answer_id is None:
            bad(lineno, CODES("review_file_no_answer", system=system, qid=qid))
        if (reviewer, answer_id) in seen:
            bad(
                lineno,
                CODES(
                    "review_file_duplicate",
                    qid=qid,
                    system=system,
                    reviewer=reviewer,
                    first=seen[(reviewer, answer_id)],
                ),
            )
        seen[(reviewer, answer_id)] = lineno
        base = {"line": lineno, "reviewer": reviewer, "answer_id": answer_id}
        interp = obj.get("interpretation")
        if interp is not None:
            if isinstance(interp, bool) or interp not in GRADES:
                bad(lineno, CODES("review_file_interpretation", value=interp))
            rows.append({**base, "kind": "interpretation", "grade": interp})
        appropriate = obj.get("abstention_appropriate")
        if appropriate is not None:
            if not isinstance(appropriate, bool):
                bad(lineno, CODES("review_file_abstention", value=appropriate))
            rows.append({**base, "kind": "abstention", "flag": appropriate})
        note = obj.get("note")
        if note not in (None, ""):
            if not isinstance(note, str):
                bad(lineno, CODES("review_file_note"))
            rows.append({**base, "kind": "note", "note": note})
        listed = obj.get("sentences", [])
        if not isinstance(listed, list):
            bad(lineno, CODES("review_file_sentences"))
        for s in listed:
            if not isinstance(s, dict) or isinstance(s.get("index"), bool) or not isinstance(s.get("index"), int):
                bad(lineno, CODES("review_file_index"))
            i = s["index"]
            if not 0 <= i < n_sent.get(answer_id, 0):
                bad(lineno, CODES("review_file_index_range", index=i, n=int(n_sent.get(answer_id, 0))))
            needs = s.get("needs_citation")
            if needs is not None:
                if not isinstance(needs, bool):
                    bad(lineno, CODES("review_file_needs_citation", value=needs))
                rows.append({**base, "kind": "needs_citation", "sentence": i, "flag": needs})
            support = s.get("support") or {}
            if not isinstance(support, dict):
                bad(lineno, CODES("review_file_support"))
            for pid, grade in support.items():
                if (answer_id, i, pid) not in cited:
                    bad(lineno, CODES("review_file_not_cited", pid=pid, index=i))
                if isinstance(grade, bool) or grade not in GRADES:
                    bad(lineno, CODES("review_file_support_grade", value=grade))
                rows.append({**base, "kind": "support", "sentence": i, "pid": pid, "grade": grade})
    frame = pd.DataFrame(
        rows, columns=["line", "reviewer", "answer_id", "kind", "sentence", "pid", "grade", "flag", "note"]
    )
    frame = frame.astype({"sentence": "Int64", "grade": "Int64", "flag": "boolean"})
    return store.replace_external_reviews(db, source.strip(), frame, name)


review_sources = store.review_sources


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
        if isinstance(grade, bool) or grade not in GRADES:
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
