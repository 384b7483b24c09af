"""Evaluating the campaign: its runs against its judgments, live or a frozen version.

The same function feeds the dashboard, ``reljudge evaluate`` without ``--qrels``, and
the report. Judgments are keyed by each duplicate group's first paragraph (DESIGN.md),
so run rows are mapped to that paragraph before ranking: copies collapse under the
"first copy counts" policy, and a copy gets its group's judgment. For a collection
without duplicates this is exactly the file-mode evaluation of the exported qrels.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from reljudge import adjudication
from reljudge.measures import Measure, parse_measures
from reljudge.metrics import EvalResult, evaluate
from reljudge.storage import catalog, evaluation_inputs
from reljudge.storage.db import Database

MEASURE_FAMILIES = ("RR", "R", "nDCG", "P", "Judged")


def settings_ks(db: Database) -> list[int]:
    return [int(k) for k in catalog.get_settings(db)["ks"].split(",") if k.strip()]


def default_measures(ks: list[int], threshold: int) -> list[Measure]:
    names = [f"{family}@{k}" for family in MEASURE_FAMILIES for k in ks]
    return parse_measures(names, default_rel=threshold)


@dataclass
class CampaignEvaluation:
    result: EvalResult
    policy: str
    version: int | None
    threshold: int
    ks: list[int]
    qrels: pd.DataFrame
    no_answer_qids: list[str]

    @property
    def qrels_label(self) -> str:
        if self.version is not None:
            return f"frozen version {self.version}"
        return f"live judgments — {adjudication.describe_policy(self.policy)}"


def evaluate_campaign(db: Database, measures: list[str] | list[Measure] | None = None, *,
                      ks: list[int] | None = None, threshold: int | None = None,
                      policy: str = "adjudicated", version: int | None = None,
                      ties: str | None = None, dedup: str | None = None,
                      systems: list[str] | None = None, run: pd.DataFrame | None = None,
                      n_boot: int = 1000, n_perm: int = 2000, seed: int = 42) -> CampaignEvaluation:
    """Evaluate every run of the campaign (or ``run``: system, qid, pid, score, rank)
    against the aggregated judgments under ``policy``/``version``."""
    settings = catalog.get_settings(db)
    threshold = int(threshold if threshold is not None else settings["rel_threshold"])
    ks = ks or settings_ks(db)
    ties = ties or settings["ties"]
    dedup = dedup or settings["dedup"]
    if measures is None:
        parsed = default_measures(ks, threshold)
    else:
        parsed = [m if isinstance(m, Measure) else None for m in measures]
        if any(m is None for m in parsed):
            parsed = parse_measures([str(m) for m in measures], default_rel=threshold)
    qrels = adjudication.qrels(db, policy, version)
    verdicts = adjudication.verdicts(db, policy, threshold, version)
    no_answer = sorted(verdicts[verdicts.no_answer.astype(bool)].qid)
    runs = evaluation_inputs.canonical_run(db, run)
    if systems is None:
        systems = evaluation_inputs.systems(db) if run is None else sorted(set(run.system))
    con = db.cursor()
    result = evaluate(con, qrels[["qid", "pid", "grade"]], runs, parsed, ties=ties, dedup=dedup,
                      default_rel=threshold, questions=evaluation_inputs.questions(db),
                      abstentions=evaluation_inputs.abstentions(db), no_answer_qids=no_answer,
                      systems=systems, n_boot=n_boot, n_perm=n_perm, seed=seed)
    return CampaignEvaluation(result, policy, version, threshold, ks, qrels, no_answer)
