"""Files into and out of answer review: importing generated answers, and review files
(one record per reviewer × answer) written out and read back as a named source."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from reljudge.policy import source_policy
from reljudge.campaign import importers
from reljudge.codes import Codes
from reljudge.errors import InputError, ReljudgeError
from reljudge.grades import is_grade
from reljudge.review.events import KINDS
from reljudge.storage import answers as store
from reljudge.storage.db import Database

CODES = Codes(
    review_error_source_needed=(),
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
"""What importing a review file can say: no source name, or the problem at a line."""


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

# -- review files: out and in --------------------------------------------------------------


def review_records(db: Database, source: str | None = None) -> list[dict]:
    """One record per reviewer × current answer (the review JSONL): ``{"qid", "system",
    "reviewer", "interpretation", "abstention_appropriate", "note", "sentences": [{"index",
    "needs_citation", "support": {pid: grade}}]}``; every sentence of the answer is listed
    (needs_citation true unless said otherwise; support holds the graded citations).
    ``source`` gives an imported source's records instead of the team's."""
    state = store.review_state(db, source_policy(source) if source else "adjudicated")
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
            if not is_grade(interp):
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
                if not is_grade(grade):
                    bad(lineno, CODES("review_file_support_grade", value=grade))
                rows.append({**base, "kind": "support", "sentence": i, "pid": pid, "grade": grade})
    frame = pd.DataFrame(
        rows, columns=["line", "reviewer", "answer_id", "kind", "sentence", "pid", "grade", "flag", "note"]
    )
    frame = frame.astype({"sentence": "Int64", "grade": "Int64", "flag": "boolean"})
    return store.replace_external_reviews(db, source.strip(), frame, name)


review_sources = store.review_sources
