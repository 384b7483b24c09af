"""Model vs people: how far a model source's grades agree with a reference policy's.

Over the pooled pairs both have graded: ``n``, ``exact_agreement``, ``kappa_linear``
(linearly weighted Cohen's κ, as :func:`reljudge.agreement.coefficients.cohen_kappa`), the 3×3
``confusion`` matrix (rows: the reference's grade 0, 1, 2; columns: the model's) with its
``margins``, the same per question type, and the outcome side: per measure, Kendall's τ-b
between the system rankings under the two qrels and each system's figure under both,
averaged over the same questions on both sides (the questions both qrels cover).

Which pairs a side "has graded" depends on what the side is (:func:`side_kind`): an
*imported* qrels source (``import qrels``: a TREC qrels lists mostly the relevant pairs)
grades every pooled pair, those it does not list as 0, as trec_eval reads a qrels; a
*model* source (``auto-judge``) and the people grade only the pairs they graded (a pair the
model could not grade is not a 0: it is left out and counted in ``errors``).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from reljudge.policy import Policy, source_policy
from reljudge.campaign import adjudication
from reljudge.agreement import coefficients as agreement
from reljudge.codes import Codes
from reljudge.display import clean_text
from reljudge.errors import ReljudgeError
from reljudge.campaign.outcome_agreement import kendall_tau_b
from reljudge.judges.endpoint import MODEL_VERSION_CHARS
from reljudge.storage import judge_sources as store
from reljudge.storage.db import Database

CODES = Codes(
    judge_error_no_source=("source",),
    judge_error_against_itself=(),
    calibrate_imported_side=("name",),
    calibrate_outcome_questions=("n", "against", "source"),
)

IMPORTED, MODEL, PEOPLE = "imported", "model", "people"
"""What a side of a comparison is (:func:`side_kind`)."""

MEASURES = ("RR@10", "nDCG@10")
UNTYPED = agreement.UNTYPED


def pair_figures(reference, model) -> dict:
    """``n``, ``exact_agreement``, ``kappa_linear`` and ``confusion`` (reference rows ×
    model columns, grades 0..2) of two equally long grade vectors."""
    a = np.asarray(reference, int)
    b = np.asarray(model, int)
    n = len(a)
    confusion = np.bincount(a * 3 + b, minlength=9).reshape(3, 3) if n else np.zeros((3, 3), int)
    kappa = agreement.cohen_kappa(a, b, 3, weights="linear")
    return {
        "n": int(n),
        "exact_agreement": float((a == b).mean()) if n else None,
        "kappa_linear": None if kappa.value is None else float(kappa.value),
        "confusion": confusion.astype(int).tolist(),
        "margins": margins(confusion),
    }


def margins(confusion) -> dict:
    """The confusion matrix's margins: ``against`` (row sums: the reference's grades 0, 1,
    2), ``source`` (column sums: the compared source's) and ``total``."""
    m = np.asarray(confusion, int).reshape(3, 3)
    return {"against": m.sum(axis=1).tolist(), "source": m.sum(axis=0).tolist(), "total": int(m.sum())}


def side_kind(db: Database, policy: str) -> str:
    """IMPORTED (an imported qrels source), MODEL (a source a model judge registered, graded
    or not) or PEOPLE (every other policy: adjudicated, majority, annotator:X)."""
    name = Policy.parse(policy).source()
    if name is None:
        return PEOPLE
    return MODEL if store.meta(db, name) is not None else IMPORTED


def _side(db: Database, policy: str, pooled: pd.DataFrame, column: str) -> pd.DataFrame:
    """qid, pid, ``column``: the side's grades on the pooled pairs it grades (an imported
    source: every pooled pair, 0 where it lists none)."""
    grades = adjudication.qrels(db, policy)[["qid", "pid", "grade"]].rename(columns={"grade": column})
    keys = pooled[["qid", "pid"]]
    if side_kind(db, policy) == IMPORTED:
        return keys.merge(grades, on=["qid", "pid"], how="left").fillna({column: 0})
    return keys.merge(grades, on=["qid", "pid"])


def paired_grades(db: Database, source: str, against: str) -> pd.DataFrame:
    """qid, pid, qtype, reference, model over the pooled pairs both have graded (an
    imported source grades every pooled pair: those it does not list are 0)."""
    pooled = store.pooled_pairs(db)[["qid", "pid", "qtype"]]
    both = pooled.merge(_side(db, against, pooled, "reference"), on=["qid", "pid"]).merge(
        _side(db, source_policy(source), pooled, "model"), on=["qid", "pid"]
    )
    both["qtype"] = both.qtype.replace("", UNTYPED).fillna(UNTYPED)
    return both.astype({"reference": int, "model": int})


def outcome(db: Database, source: str, against: str, measures=MEASURES) -> dict:
    """Per measure: each system's mean under both qrels, over the same questions (those
    both qrels cover: each evaluation averages over the answerable questions its qrels
    has, as trec_eval does), its ``n_questions``, and Kendall's τ-b of the two system
    rankings."""
    return _outcome(db, source, against, measures)[0]


def _outcome(db: Database, source: str, against: str, measures=MEASURES) -> tuple[dict, dict]:
    """(:func:`outcome`, the questions: ``common``, and each side's own count)."""
    from reljudge.campaign.evaluation import evaluate_campaign

    per_query = {}
    for name, policy in (("against", against), ("source", source_policy(source))):
        ev = evaluate_campaign(db, list(measures), policy=policy, n_boot=0, n_perm=0, with_bounds=False)
        q = ev.result.per_query
        per_query[name] = q[~q.no_answer.astype(bool)]
    covered = {name: set(q.qid) for name, q in per_query.items()}
    common = covered["against"] & covered["source"]
    means = {
        name: q[q.qid.isin(common)].groupby(["measure", "system"])["value"].mean() for name, q in per_query.items()
    }
    out = {}
    for measure in per_query["against"].measure.unique():
        systems = pd.Index(sorted(set(per_query["against"].system)))
        ref = _series(means["against"], measure, systems)
        mod = _series(means["source"], measure, systems)
        ok = ref.notna() & mod.notna()
        tau = kendall_tau_b(ref[ok].values, mod[ok].values)
        out[str(measure)] = {
            "kendall_tau": None if tau is None else float(tau),
            "systems": {str(s): {"against": _num(ref[s]), "source": _num(mod[s])} for s in systems},
            "n_questions": len(common),
        }
    questions = {"common": len(common), "against": len(covered["against"]), "source": len(covered["source"])}
    return out, questions


def _series(means: pd.Series, measure, systems: pd.Index) -> pd.Series:
    if measure in means.index.get_level_values(0):
        return means.xs(measure).reindex(systems)
    return pd.Series(np.nan, index=systems)


def _num(x) -> float | None:
    return None if x is None or pd.isna(x) else float(x)


def calibrate(db: Database, source: str, against: str = "adjudicated", with_outcome: bool = True) -> dict:
    """Every figure of ``calibrate NAME --against POLICY`` (JSON-ready)."""
    if against == source_policy(source):
        raise ReljudgeError(CODES("judge_error_against_itself"))
    meta = store.meta(db, source)
    if meta is None and source not in _imported(db):
        raise ReljudgeError(CODES("judge_error_no_source", source=source))
    if side_kind(db, against) == IMPORTED and Policy.parse(against).source() not in _imported(db):
        raise ReljudgeError(CODES("judge_error_no_source", source=Policy.parse(against).source()))
    both = paired_grades(db, source, against)
    figures = pair_figures(both.reference, both.model)
    per_type = {
        str(t): pair_figures(g.reference, g.model) for t, g in sorted(both.groupby("qtype"), key=lambda x: str(x[0]))
    }
    result = {
        "source": source,
        "against": against,
        "against_described": describe(db, against),
        "model": meta["model"] if meta else None,
        # cleaned again where it is shown: a version stored before endpoints' answers were
        # cleaned may hold anything the server said
        "model_version": clean_text(meta["model_version"], MODEL_VERSION_CHARS) if meta else None,
        "prompt_sha256": meta["prompt_sha256"] if meta else None,
        "settings": json.loads(meta["settings"]) if meta else None,
        "judged_at": str(meta["updated_at"]) if meta else None,
        **figures,
        "per_type": per_type,
        "errors": int(len(store.errors(db, source))),
        # what each side is (IMPORTED, MODEL, PEOPLE): an imported side's unlisted pooled pairs are 0
        "source_kind": side_kind(db, source_policy(source)),
        "against_kind": side_kind(db, against),
    }
    if with_outcome:
        result["outcome"], result["outcome_questions"] = _outcome(db, source, against)
    return result


def notes(result: dict) -> list:
    """The messages that say how the figures were counted: each imported side's zeros
    (calibrate_imported_side) and the outcome's one question set (calibrate_outcome_questions)."""
    out = [
        CODES("calibrate_imported_side", name=name)
        for name, kind in (
            (result["against"], result.get("against_kind")),
            (source_policy(result["source"]), result.get("source_kind")),
        )
        if kind == IMPORTED
    ]
    q = result.get("outcome_questions")
    if q is not None:
        out.append(CODES("calibrate_outcome_questions", n=q["common"], against=q["against"], source=q["source"]))
    return out


def describe(db: Database, policy: str) -> str:
    """The policy in words, as :func:`reljudge.campaign.adjudication.describe_policy`, a
    model source named as one (not as an imported source)."""
    if side_kind(db, policy) == MODEL:
        return f"model source {policy.split(':', 1)[1]}"
    return adjudication.describe_policy(policy)


def _imported(db: Database) -> list[str]:
    from reljudge.storage import qrels_io

    return qrels_io.sources(db)
