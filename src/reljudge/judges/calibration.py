"""Model vs people: how far a model source's grades agree with a reference policy's.

Over the pooled pairs both have graded: ``n``, ``exact_agreement``, ``kappa_linear``
(linearly weighted Cohen's κ, as :func:`reljudge.agreement.coefficients.cohen_kappa`), the 3×3
``confusion`` matrix (rows: the reference's grade 0, 1, 2; columns: the model's), the same
per question type, and the outcome side: per measure, Kendall's τ-b between the system
rankings under the two qrels and each system's figure under both.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from reljudge.campaign import adjudication
from reljudge.agreement import coefficients as agreement
from reljudge.codes import Codes
from reljudge.display import clean_text
from reljudge.errors import ReljudgeError
from reljudge.campaign.outcome_agreement import kendall_tau_b
from reljudge.judges.endpoint import MODEL_VERSION_CHARS
from reljudge.storage import judge_sources as store
from reljudge.storage.db import Database

CODES = Codes(judge_error_no_source=("source",), judge_error_against_itself=())

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
    }


def paired_grades(db: Database, source: str, against: str) -> pd.DataFrame:
    """qid, pid, qtype, reference, model over the pooled pairs both have graded."""
    model = adjudication.qrels(db, f"source:{source}")[["qid", "pid", "grade"]]
    reference = adjudication.qrels(db, against)[["qid", "pid", "grade"]]
    pooled = store.pooled_pairs(db)[["qid", "pid", "qtype"]]
    both = pooled.merge(reference.rename(columns={"grade": "reference"}), on=["qid", "pid"]).merge(
        model.rename(columns={"grade": "model"}), on=["qid", "pid"]
    )
    both["qtype"] = both.qtype.replace("", UNTYPED).fillna(UNTYPED)
    return both.astype({"reference": int, "model": int})


def outcome(db: Database, source: str, against: str, measures=MEASURES) -> dict:
    """Per measure: each system's mean under both qrels and Kendall's τ-b of the two
    system rankings."""
    from reljudge.campaign.evaluation import evaluate_campaign

    means = {}
    for name, policy in (("against", against), ("source", f"source:{source}")):
        ev = evaluate_campaign(db, list(measures), policy=policy, n_boot=0, n_perm=0, with_bounds=False)
        m = ev.result.means
        means[name] = m[m.qtype == "all"].set_index(["measure", "system"])["mean"]
    out = {}
    for measure in means["against"].index.get_level_values(0).unique():
        ref = means["against"].xs(measure)
        mod = means["source"].xs(measure).reindex(ref.index)
        ok = ref.notna() & mod.notna()
        tau = kendall_tau_b(ref[ok].values, mod[ok].values)
        out[str(measure)] = {
            "kendall_tau": None if tau is None else float(tau),
            "systems": {str(s): {"against": _num(ref[s]), "source": _num(mod[s])} for s in ref.index.sort_values()},
        }
    return out


def _num(x) -> float | None:
    return None if x is None or pd.isna(x) else float(x)


def calibrate(db: Database, source: str, against: str = "adjudicated", with_outcome: bool = True) -> dict:
    """Every figure of ``calibrate NAME --against POLICY`` (JSON-ready)."""
    if against == f"source:{source}":
        raise ReljudgeError(CODES("judge_error_against_itself"))
    meta = store.meta(db, source)
    if meta is None and source not in _imported(db):
        raise ReljudgeError(CODES("judge_error_no_source", source=source))
    both = paired_grades(db, source, against)
    figures = pair_figures(both.reference, both.model)
    per_type = {
        str(t): pair_figures(g.reference, g.model) for t, g in sorted(both.groupby("qtype"), key=lambda x: str(x[0]))
    }
    result = {
        "source": source,
        "against": against,
        "against_described": adjudication.describe_policy(against),
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
    }
    if with_outcome:
        result["outcome"] = outcome(db, source, against)
    return result


def _imported(db: Database) -> list[str]:
    from reljudge.storage import qrels_io

    return qrels_io.sources(db)
