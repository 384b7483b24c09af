"""Quality control: silent gold items and blind decoys (attention checks), and each
annotator's accuracy against them (docs/quality-control.md#품질-관리--quality-control).

* **Gold items** are (question, pooled paragraph, grade) pairs a lead trusts: imported
  (``reljudge gold import FILE``, TREC qrels lines), marked from the adjudication page
  ("use as gold"), or promoted when at least 3 annotators agree unanimously (off by
  default). Annotators judge them as any other paragraph; their grades count in the qrels.
* **Decoys** are paragraphs of *other* questions' pools, free of the question's content
  words, placed in one annotator's queue at a rate. They are shown, ordered and offered
  like pooled paragraphs, but stored apart (storage.quality), so that they never reach
  qrels, metrics, agreement, adjudication, qrels exports, pool sizes or progress counts.
  Expected grade 0.
* Per annotator: ``gold_judged``, ``gold_accuracy`` (exact match share), ``gold_kappa``
  (linearly weighted Cohen's κ against gold), ``decoys_judged``, ``decoys_failed``
  (graded above 0), ``fast_percent`` (judgments under 2 s, as the agreement page), and
  ``flagged`` with ``reasons`` (codes: ``low_gold_accuracy``, ``failed_decoys``).

The library returns data and codes; the pages and the CLI word them."""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from reljudge.agreement.coefficients import cohen_kappa
from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.grades import GRADES, is_grade
from reljudge.storage import quality as store
from reljudge.storage import team
from reljudge.storage.db import Database

CODES = Codes(
    error_quality_min_gold=(),
    error_quality_min_accuracy=(),
    error_quality_max_failed=(),
    error_gold_grade=("grade",),
    error_decoy_rate=("rate",),
    error_unknown_quality_format=("format",),
)
"""What quality control can refuse (worded by reljudge.i18n)."""

FLAG_LOW_GOLD = store.FLAG_LOW_GOLD
FLAG_FAILED_DECOYS = store.FLAG_FAILED_DECOYS
COLUMNS = [
    "annotator",
    "gold_judged",
    "gold_accuracy",
    "gold_kappa",
    "decoys_judged",
    "decoys_failed",
    "fast_percent",
    "flagged",
    "reasons",
]
FAST_MS = 2000  # the agreement page's "too fast" (reljudge.campaign.team_agreement.judging_speed)


@dataclass(frozen=True)
class Settings:
    """The lead's quality-control settings (defaults after Potato's quality control)."""

    min_gold: int = 10
    min_accuracy: float = 0.7
    max_failed_decoys: int = 2
    auto_gold: bool = False
    auto_gold_min: int = 3
    decoy_rate: float | None = None
    decoy_seed: int | None = None


def settings(db: Database) -> Settings:
    s = store.settings(db)
    rate = _decoy_state(db)
    return Settings(
        min_gold=int(s["quality_min_gold"]),
        min_accuracy=float(s["quality_min_accuracy"]),
        max_failed_decoys=int(s["quality_max_failed_decoys"]),
        auto_gold=s["quality_auto_gold"] == "on",
        auto_gold_min=int(s["quality_auto_gold_min"]),
        decoy_rate=rate[0],
        decoy_seed=rate[1],
    )


def _decoy_state(db: Database) -> tuple[float | None, int | None]:
    placed = store.placements(db)
    if placed.empty:
        return None, None
    last = placed.sort_values("placed_at").iloc[-1]
    return float(last.rate), int(last.seed)


def set_settings(
    db: Database,
    min_gold: int | None = None,
    min_accuracy: float | None = None,
    max_failed_decoys: int | None = None,
    auto_gold: bool | None = None,
) -> Settings:
    """Change the flagging thresholds or the auto-promotion of unanimous items."""
    values: dict[str, str] = {}
    if min_gold is not None:
        if int(min_gold) < 0:
            raise ReljudgeError(CODES("error_quality_min_gold"))
        values["quality_min_gold"] = str(int(min_gold))
    if min_accuracy is not None:
        if not 0.0 <= float(min_accuracy) <= 1.0:
            raise ReljudgeError(CODES("error_quality_min_accuracy"))
        values["quality_min_accuracy"] = repr(float(min_accuracy))
    if max_failed_decoys is not None:
        if int(max_failed_decoys) < 1:
            raise ReljudgeError(CODES("error_quality_max_failed"))
        values["quality_max_failed_decoys"] = str(int(max_failed_decoys))
    if auto_gold is not None:
        values["quality_auto_gold"] = "on" if auto_gold else "off"
    if values:
        store.set_settings(db, values)
    if auto_gold:
        promote(db)
    return settings(db)


# -- gold ---------------------------------------------------------------------------


def import_gold(db: Database, path, by: str | None = None, display: str | None = None):
    """Gold items from a TREC qrels file (``qid 0 pid grade``); every pair must be pooled.
    All or nothing; an error names the file, the line and the problem. Returns an
    :class:`reljudge.campaign.export.QrelsImport`: the gold items stored and the identical
    duplicate rows of the file skipped (the rules of ``import qrels``)."""
    from reljudge.campaign.export import QrelsImport, read_qrels_counted

    rows, duplicates = read_qrels_counted(path, "trec", display)
    return QrelsImport(store.import_gold(db, rows, display or str(path), by), duplicates)


def use_as_gold(db: Database, qid: str, pid: str, grade: int, lead: str) -> None:
    """A lead marks an adjudicated item as gold (the adjudication page's "use as gold")."""
    if not is_grade(grade):
        raise ReljudgeError(CODES("error_gold_grade", grade=repr(grade)))
    store.add_gold(db, qid, pid, int(grade), "adjudication", lead)


gold_items = store.gold_items
remove_gold = store.remove_gold
adjudicated_not_gold = store.adjudicated_not_gold


def promote(db: Database) -> int:
    """Promote unanimous items to gold when the lead switched auto-promotion on."""
    s = settings(db)
    return store.promote_unanimous(db, s.auto_gold_min) if s.auto_gold else 0


# -- decoys -------------------------------------------------------------------------


def _key(seed: int, *parts: str) -> str:
    return hashlib.sha256("\x1f".join([str(seed), *parts]).encode()).hexdigest()


def place_decoys(db: Database, rate: float, seed: int = 42) -> dict:
    """Place decoys in every active annotator's queue: about ``rate`` × the pooled
    paragraphs of their queue (at least one, at most one per question), each a paragraph
    of another question's pool that contains none of the question's content words and is
    not pooled for it. Deterministic for a seed and a campaign state. Placements already
    graded stay (they count towards the rate); the others are placed again.
    Returns {"placed": total in force, "annotators": n, "rate": rate, "seed": seed}."""
    from reljudge.campaign import highlight

    try:
        rate = float(rate)
    except (TypeError, ValueError):
        raise ReljudgeError(CODES("error_decoy_rate", rate=repr(rate))) from None
    if not 0.0 < rate <= 0.5:
        raise ReljudgeError(CODES("error_decoy_rate", rate=repr(rate)))
    queues, pooled, placed = store.decoy_inputs(db)
    judged = placed[placed.judged.astype(bool)] if not placed.empty else placed
    pools = {qid: set(g.pid) for qid, g in pooled.groupby("qid")}
    texts = dict(zip(pooled.pid, pooled.text.str.lower()))
    all_pids = sorted(texts)
    words_of: dict[str, set[str]] = {}
    new_rows = []
    for annotator, queue in queues.groupby("annotator", sort=True):
        total = int(queue.pool_size.sum())
        target = max(1, int(np.floor(rate * total + 0.5))) if total else 0
        mine = judged[judged.annotator == annotator] if not judged.empty else judged
        have = {(r.qid, r.pid) for r in mine.itertuples()}
        qids_with = {q for q, _ in have}
        want = target - len(have)
        order = sorted(queue.qid, key=lambda q: _key(seed, annotator, q))
        for qid in order:
            if want <= 0:
                break
            if qid in qids_with:
                continue
            if qid not in words_of:
                text = queue.loc[queue.qid == qid, "text"].iloc[0]
                words_of[qid] = {w for w in highlight.content_words(text) if w}
            words = words_of[qid]
            own = pools.get(qid, set())
            candidates = [pid for pid in all_pids if pid not in own and not any(w in texts[pid] for w in words)]
            if not candidates:
                continue
            pick = random.Random(_key(seed, annotator, qid)).choice(candidates)
            new_rows.append((annotator, qid, pick))
            want -= 1
    new = pd.DataFrame(new_rows, columns=["annotator", "qid", "pid"])
    n = store.replace_decoys(db, judged, new, rate, seed)
    return {"placed": n, "annotators": int(queues.annotator.nunique()), "rate": rate, "seed": int(seed)}


decoy_grades = store.decoy_grades
decoy_history = store.decoy_history
placements = store.placements


# -- figures ------------------------------------------------------------------------


def annotator_quality(db: Database, with_settings: Settings | None = None, promote_auto: bool = True) -> pd.DataFrame:
    """One row per annotator (active annotators and anyone who judged), columns
    :data:`COLUMNS`. ``gold_accuracy`` / ``gold_kappa`` are NaN without gold judgments
    (κ also when it is undefined: a single category); ``fast_percent`` NaN without
    judgments. With auto-promotion on (and ``promote_auto``), unanimous items are promoted
    to gold first (the report reads only: ``promote_auto=False``). ``reasons`` lists codes: FLAG_LOW_GOLD (accuracy below the floor after at
    least ``min_gold`` gold items), FLAG_FAILED_DECOYS (at least ``max_failed_decoys``
    decoys graded above 0)."""
    s = with_settings or settings(db)
    if s.auto_gold and promote_auto:
        promote(db)
    gold = store.gold_pairs(db)
    decoys = store.decoy_grades(db)
    speed = team.judging_speed(db, FAST_MS).set_index("username")
    rows = []
    for name in store.people(db):
        g = gold[gold.annotator == name]
        n_gold = len(g)
        accuracy = float((g.grade == g.gold).mean()) if n_gold else float("nan")
        kappa = float("nan")
        if n_gold:
            figure = cohen_kappa(g.grade.to_numpy(float), g.gold.to_numpy(float), len(GRADES), weights="linear")
            kappa = float(figure.value) if figure.value is not None else float("nan")
        d = decoys[(decoys.annotator == name) & decoys.grade.notna()]
        failed = int((d.grade > 0).sum())
        fast = float(speed.loc[name, "fast_percent"]) if name in speed.index else float("nan")
        reasons = store.flag_reasons(n_gold, accuracy, failed, s.min_gold, s.min_accuracy, s.max_failed_decoys)
        rows.append((name, n_gold, accuracy, kappa, len(d), failed, fast, bool(reasons), reasons))
    return pd.DataFrame(rows, columns=COLUMNS).astype(
        {"gold_judged": "int64", "decoys_judged": "int64", "decoys_failed": "int64"}
    )


def summary(db: Database, promote_auto: bool = True) -> dict:
    """The figures and settings together, JSON-ready (``reljudge quality --format json``,
    the report): {"settings": {...}, "gold_items": n, "decoys_placed": n, "annotators": [...]}."""
    s = settings(db)
    table = annotator_quality(db, s, promote_auto)
    return {
        "settings": asdict(s),
        "gold_items": int(len(store.gold_items(db))),
        "decoys_placed": int(len(store.placements(db))),
        "annotators": [
            {k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}
            for row in table.to_dict(orient="records")
        ],
    }


def export_quality(db: Database, path, fmt: str = "jsonl") -> int:
    """The quality export: every decoy placement with its latest grade, every grade event
    on a decoy, the gold items and the figures (one JSON object per line, ``kind`` first).
    Returns the lines written."""
    import json
    from pathlib import Path

    from reljudge import times
    from reljudge.storage import catalog

    if fmt != "jsonl":
        raise ReljudgeError(CODES("error_unknown_quality_format", format=fmt))
    zone = catalog.get_settings(db)["time_zone"]
    lines = []

    def rows(kind: str, frame: pd.DataFrame):
        for rec in frame.to_dict(orient="records"):
            out = {"kind": kind}
            for k, v in rec.items():
                if isinstance(v, pd.Timestamp):
                    v = times.iso(v, zone)
                elif isinstance(v, float) and np.isnan(v):
                    v = None
                elif isinstance(v, np.generic):
                    v = v.item()
                out[k] = v
            lines.append(json.dumps(out, ensure_ascii=False, default=str))

    rows("gold", store.gold_items(db))
    rows("decoy", store.decoy_grades(db))
    rows("decoy_event", store.decoy_history(db))
    rows("annotator", annotator_quality(db))
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return len(lines)


def export_bytes(db: Database) -> bytes:
    """The quality export as bytes (the page's download button)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "quality.jsonl"
        export_quality(db, path)
        return path.read_bytes()
