"""Agreement on outcomes: do the annotators' labels rank the systems the same way?

For each annotator, the systems are ranked by MRR@K computed with that annotator's
grades only (on the questions they judged). Kendall's tau-b (Kendall 1945) between two
annotators' rankings says how far the conclusions agree. A question is flagged when
putting one annotator's labels in place of the aggregated ones on that question alone
changes which system comes first overall.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from reljudge.policy import Policy
from reljudge.agreement import coefficients as agreement
from reljudge.codes import Codes, Message
from reljudge.campaign.evaluation import evaluate_campaign
from reljudge.eval.measures import parse_measure
from reljudge.storage import team
from reljudge.storage.db import Database

CODES = Codes(reason_all_tied=())
"""Why a tau is not computed (besides ``agreement``'s "fewer than two annotators")."""


def kendall_tau_b(x, y) -> float | None:
    """Kendall's tau-b of two equally long score vectors (ties handled as in tau-b);
    None when either vector is constant or fewer than two items."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2:
        return None
    i, j = np.triu_indices(len(x), 1)
    dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
    concordant_minus_discordant = float((dx * dy).sum())
    n_x, n_y = float((dx != 0).sum()), float((dy != 0).sum())
    if n_x == 0 or n_y == 0:
        return None
    return concordant_minus_discordant / np.sqrt(n_x * n_y)


@dataclass
class OutcomeAgreement:
    k: int
    measure: str
    mrr: pd.DataFrame  # annotator × system
    rankings: dict[str, list[str]]  # annotator -> systems best first
    kendall_tau: dict[str, float | None]  # "A|B" -> tau-b
    flagged: pd.DataFrame  # qid, annotator, winner_aggregated, winner_if_annotator
    reasons: dict[str, Message] = field(default_factory=dict)

    def tau_table(self) -> pd.DataFrame:
        """One row per annotator pair: Kendall's tau-b of their system rankings, or why not
        (``not_computed``: the reason message, or None)."""
        rows = [
            {
                "pair": pair.replace("|", " · "),
                "kendall_tau": None if tau is None else round(tau, 3),
                "not_computed": self.reasons.get(pair),
            }
            for pair, tau in self.kendall_tau.items()
        ]
        if not rows and "kendall_tau" in self.reasons:
            rows.append({"pair": "—", "kendall_tau": None, "not_computed": self.reasons["kendall_tau"]})
        return pd.DataFrame(rows, columns=["pair", "kendall_tau", "not_computed"])

    def to_dict(self) -> dict:
        return {
            "measure": self.measure,
            "rankings": self.rankings,
            "kendall_tau": self.kendall_tau,
            "mrr": {a: {s: float(v) for s, v in row.items()} for a, row in self.mrr.iterrows()},
            "flagged_questions": self.flagged.to_dict(orient="records"),
            "reasons": {k: v.to_dict() for k, v in self.reasons.items()},
        }


def outcome_agreement(db: Database, k: int = 10, threshold: int | None = None) -> OutcomeAgreement:
    grades = team.current_grades(db)
    annotators = sorted(set(grades.annotator))
    settings_rel = threshold
    base = evaluate_campaign(db, [f"RR@{k}"], threshold=settings_rel, n_boot=0, n_perm=0)
    measure = str(parse_measure(f"RR@{k}", base.threshold))
    reasons: dict[str, Message] = {}
    rows, per_query = {}, {}
    for a in annotators:
        ev = evaluate_campaign(
            db, [measure], threshold=base.threshold, policy=str(Policy("annotator", a)), n_boot=0, n_perm=0
        )
        m = ev.result.means
        rows[a] = m[m.qtype == "all"].set_index("system")["mean"]
        per_query[a] = ev.result.per_query.set_index(["system", "qid"])["value"]
    mrr = pd.DataFrame(rows).T if rows else pd.DataFrame()
    rankings = {a: list(mrr.loc[a].sort_values(ascending=False, kind="stable").index) for a in mrr.index}
    taus: dict[str, float | None] = {}
    for a, b in itertools.combinations(annotators, 2):
        key = "|".join(sorted((a, b)))
        tau = kendall_tau_b(mrr.loc[a].values, mrr.loc[b].values)
        taus[key] = tau
        if tau is None:
            reasons[key] = CODES("reason_all_tied")
    if len(annotators) < 2:
        reasons["kendall_tau"] = agreement.CODES("reason_fewer_annotators")
    flagged = _flag(base, per_query, grades)
    return OutcomeAgreement(k, measure, mrr, rankings, taus, flagged, reasons)


def _flag(base, per_query: dict[str, pd.Series], grades: pd.DataFrame) -> pd.DataFrame:
    """Questions judged by two or more annotators where one annotator's labels on that
    question alone would change the overall winner."""
    r = base.result
    pq = r.per_query[~r.per_query.no_answer]
    if pq.empty:
        return pd.DataFrame(columns=["qid", "annotator", "winner", "winner_if_annotator"])
    table = pq.pivot_table(index="qid", columns="system", values="value")
    n = len(table)
    means = table.mean()
    winner = means.idxmax()
    multi = grades.groupby("qid").annotator.nunique()
    out = []
    for qid in multi[multi >= 2].index:
        if qid not in table.index:
            continue
        for a, values in per_query.items():
            try:
                theirs = values.xs(qid, level="qid")
            except KeyError:
                continue
            changed = means + (theirs.reindex(means.index).fillna(0) - table.loc[qid]) / n
            alt = changed.idxmax()
            if alt != winner and changed[alt] > changed[winner]:
                out.append((qid, a, winner, alt))
    return pd.DataFrame(out, columns=["qid", "annotator", "winner", "winner_if_annotator"])
