"""Assigning questions to annotators, with overlap for agreement.

Greedy balancing: questions are taken in a seeded random order (heaviest first within
each question type when balancing by type) and each goes to the annotators with the
least work so far, work being the number of pooled paragraphs. This is the classic
longest-processing-time heuristic (Graham 1969); it keeps every annotator's load
within one question's pool of the others'.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pandas as pd

from reljudge.codes import Codes, Message
from reljudge.errors import ReljudgeError
from reljudge.storage import team
from reljudge.storage.db import Database

CODES = Codes(
    assign_summary=("n", "per"),  # per: assign_load messages
    assign_load=("user", "questions", "paragraphs"),
    assign_kept=("n",),
    assign_empty=("qids",),
    error_no_annotators=(),
    error_per_question=(),
    error_too_few_annotators=("n", "available"),
    error_double_share=(),
    error_nothing_pooled=(),
    error_no_takeover=(),
)
"""What an assignment did: every code :meth:`AssignmentPlan.messages` returns."""


@dataclass
class AssignmentPlan:
    rows: pd.DataFrame  # qid, username
    loads: pd.DataFrame  # username, questions, paragraphs
    kept: int = 0  # questions kept with the annotators who started them
    empty: tuple[str, ...] = ()  # questions with nothing pooled: only a verdict to give

    def messages(self) -> list[Message]:
        """What the plan does, as messages (:data:`CODES`); ``i18n.message`` words them."""
        per = tuple(
            CODES("assign_load", user=r.username, questions=int(r.questions), paragraphs=int(r.paragraphs))
            for r in self.loads.itertuples()
        )
        out = [CODES("assign_summary", n=len(self.rows), per=per)]
        if self.kept:
            out.append(CODES("assign_kept", n=self.kept))
        if self.empty:
            out.append(CODES("assign_empty", qids=tuple(self.empty)))
        return out


def plan(
    questions: pd.DataFrame,
    annotators: list[str],
    *,
    per_question: int = 1,
    double_share: float = 0.0,
    by_type: bool = False,
    seed: int = 0,
    started: pd.DataFrame | None = None,
) -> AssignmentPlan:
    """Plan assignments.

    Every question gets ``per_question`` annotators; additionally a share
    ``double_share`` of the questions (chosen at random, stratified by type when
    ``by_type``) gets at least two, for agreement. Loads are balanced overall and,
    with ``by_type``, within each question type.

    ``started`` (qid, username, n) lists work already done: every annotator (among
    ``annotators``) who has judged part of a question keeps it, so nothing judged is
    orphaned — a question started by two counts towards the double-judged share first,
    and keeps both even beyond its share. Kept work is placed first and counted in the
    loads; the remaining places are balanced around it. A question with an empty pool
    costs one unit of work (its annotator only says whether there is an answer)."""
    annotators = sorted(set(annotators))
    if not annotators:
        raise ReljudgeError(CODES("error_no_annotators"))
    if per_question < 1:
        raise ReljudgeError(CODES("error_per_question"))
    if per_question > len(annotators) or (double_share > 0 and len(annotators) < 2):
        raise ReljudgeError(
            CODES("error_too_few_annotators", n=max(per_question, 2 if double_share else 1), available=len(annotators))
        )
    if not 0.0 <= double_share <= 1.0:
        raise ReljudgeError(CODES("error_double_share"))
    qs = questions[["qid", "qtype", "pool_size"]].copy()
    if qs.empty or not (qs.pool_size > 0).any():
        raise ReljudgeError(CODES("error_nothing_pooled"))
    rng = random.Random(seed)
    qs["work"] = qs.pool_size.clip(lower=1).astype(int)
    qs["key"] = [rng.random() for _ in range(len(qs))]
    groups = [g for _, g in qs.groupby("qtype", sort=True, dropna=False)] if by_type else [qs]

    keep: dict[str, list[str]] = {}
    if started is not None:
        known = set(qs.qid)
        for r in started.sort_values(["n", "username"], ascending=[False, True]).itertuples():
            if r.username in annotators and r.qid in known:
                keep.setdefault(r.qid, []).append(r.username)

    need: dict[str, int] = {}
    for g in groups:
        n_double = round(double_share * len(g))
        # Questions already judged by two count first: their overlap exists already.
        by_start = g.assign(doubled=[-min(len(keep.get(q, [])), 2) for q in g.qid])
        chosen = set(by_start.sort_values(["doubled", "key"]).qid.head(n_double))
        for qid in g.qid:
            need[qid] = max(per_question, 2 if qid in chosen else 1, len(keep.get(qid, [])))

    work = dict(zip(qs.qid, qs.work))
    total = {a: 0 for a in annotators}
    local = [{a: 0 for a in annotators} for _ in groups]
    group_of = {qid: gi for gi, g in enumerate(groups) for qid in g.qid}
    rows = []
    for qid, people in keep.items():
        for a in people:
            rows.append((qid, a))
            local[group_of[qid]][a] += work[qid]
            total[a] += work[qid]
    for gi, g in enumerate(groups):
        # Heaviest first, random among equals: the LPT heuristic.
        for r in g.sort_values(["work", "key"], ascending=[False, True]).itertuples():
            have = keep.get(r.qid, [])
            order = sorted(
                (a for a in annotators if a not in have), key=lambda a: (local[gi][a], total[a], rng.random())
            )
            for a in order[: need[r.qid] - len(have)]:
                rows.append((r.qid, a))
                local[gi][a] += r.work
                total[a] += r.work
    frame = pd.DataFrame(rows, columns=["qid", "username"])
    sizes = dict(zip(qs.qid, qs.pool_size.astype(int)))
    loads = (
        frame.assign(paragraphs=frame.qid.map(sizes))
        .groupby("username")
        .agg(questions=("qid", "count"), paragraphs=("paragraphs", "sum"))
        .reindex(annotators, fill_value=0)
        .astype(int)
        .reset_index()
    )
    return AssignmentPlan(frame, loads, len(keep), tuple(qs.qid[qs.pool_size == 0]))


def preview(db: Database, annotators: list[str] | None = None, **options) -> AssignmentPlan:
    """The plan ``assign`` would store, without storing it. Every named annotator must
    have a role in the campaign (auth.require_member: "no such account" is worded apart
    from "exists, but has no role here", with the command that grants one): an assignment
    to an account outside the campaign could never be judged."""
    from reljudge.campaign import auth

    for name in annotators or []:
        auth.require_member(db, name)
    return plan(
        team.questions_for_assignment(db),
        annotators or team.active_annotators(db),
        started=team.started_work(db),
        **options,
    )


def assign(db: Database, lead: str, annotators: list[str] | None = None, **options) -> AssignmentPlan:
    """Replace the campaign's assignments with a new balanced plan that keeps every
    annotator's started questions (see ``plan``)."""
    result = preview(db, annotators, **options)
    team.replace_assignments(db, result.rows, lead)
    return result


def reassign(db: Database, lead: str, leaving: str, to: list[str] | None = None) -> pd.DataFrame:
    """Move ``leaving``'s unfinished questions to the least-loaded other annotators who do
    not already have them. Finished work and its judgments stay."""
    from reljudge.campaign import judging  # the one rule of a finished question

    current = team.active_assignments(db)
    mine = set(current[current.username == leaving].qid)
    queue = judging.overview(db, leaving, decoys=False)
    todo = [q for q, done in zip(queue.qid, judging.finished(queue)) if q in mine and not done]
    candidates = sorted(set(to or team.active_annotators(db)) - {leaving})
    if todo and not candidates:
        raise ReljudgeError(CODES("error_no_takeover"))
    sizes = dict(zip(*team.questions_for_assignment(db)[["qid", "pool_size"]].T.values))
    load = {a: int(sum(sizes.get(q, 0) for q in current[current.username == a].qid)) for a in candidates}
    moved = []
    for qid in todo:
        have = set(current[current.qid == qid].username)
        options = [a for a in candidates if a not in have]
        if not options:
            continue
        pick = min(options, key=lambda a: (load[a], a))
        moved.append((qid, pick))
        load[pick] += int(sizes.get(qid, 0))
    rows = pd.DataFrame(moved, columns=["qid", "username"])
    team.end_assignments(db, leaving, todo)
    team.add_assignments(db, rows, lead)
    return rows


active_assignments = team.active_assignments
active_annotators = team.active_annotators
