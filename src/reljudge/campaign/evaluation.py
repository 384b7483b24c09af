"""Evaluating the campaign: its runs against its judgments, live or a frozen version.

The same function feeds the dashboard, ``reljudge evaluate`` without ``--qrels``, and
the report. Judgments are keyed by each duplicate group's first paragraph (docs/policies.md#정책--policies: duplicates);
run rows keep the id the system returned and carry their group as the duplicate key
(:mod:`reljudge.eval.ranking`): under "first" copies collapse into their group, which the
judgments name; under "keep" every copy counts and carries its group's grade, in the
ranking and in the recall base / ideal ranking alike (trec_eval on the raw ids). For a
collection without duplicates both are exactly the file-mode evaluation of the
exported qrels.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from reljudge.campaign import adjudication, plan
from reljudge.eval import bounds
from reljudge.eval.measures import DASHBOARD_FAMILIES, Measure, parse_measures
from reljudge.eval.metrics import RANDOMIZATION, EvalResult, evaluate, ranking_depth
from reljudge.storage import catalog, evaluation_inputs
from reljudge.storage.db import Database

MEASURE_FAMILIES = DASHBOARD_FAMILIES  # the registry's dashboard families (reljudge.eval.measures)


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
    no_answer_qids: list[str]
    n_qrels: int
    db: Database
    #: the annotators whose grades the figures leave out (a ``+exclude-flagged`` policy,
    #: decided when the figures were computed; empty otherwise)
    excluded: tuple[str, ...] = ()

    @property
    def qrels(self) -> pd.DataFrame:
        """The aggregated qrels the figures rest on (read on demand)."""
        return adjudication.qrels(self.db, self.policy, self.version)

    @property
    def qrels_label(self) -> str:
        if self.version is not None:
            return f"frozen version {self.version}"
        label = f"live judgments — {adjudication.describe_policy(self.policy)}"
        if self.excluded:
            label += f" (left out: {', '.join(self.excluded)})"
        return label


def evaluate_campaign(
    db: Database,
    measures: list[str] | list[Measure] | None = None,
    *,
    ks: list[int] | None = None,
    threshold: int | None = None,
    policy: str = "adjudicated",
    version: int | None = None,
    ties: str | None = None,
    dedup: str | None = None,
    systems: list[str] | None = None,
    run: pd.DataFrame | None = None,
    n_boot: int = 1000,
    n_perm: int = RANDOMIZATION.permutations,
    seed: int = RANDOMIZATION.seed,
    with_bounds: bool = True,
) -> CampaignEvaluation:
    """Evaluate every run of the campaign (or ``run``: system, qid, pid, score, rank)
    against the aggregated judgments under ``policy``/``version``; ``with_bounds``:
    every figure also gets its bounds over the ways the unjudged pooled paragraphs
    could still be graded (:mod:`reljudge.eval.bounds`)."""
    settings = catalog.get_settings(db)
    threshold = int(threshold if threshold is not None else settings["rel_threshold"])
    ks = ks or settings_ks(db)
    ties = ties or settings["ties"]
    dedup = dedup or settings["dedup"]
    if measures is None:
        parsed = default_measures(ks, threshold)
    elif all(isinstance(m, Measure) for m in measures):
        parsed = list(measures)
    else:
        parsed = parse_measures([str(m) for m in measures], default_rel=threshold)
    # Everything stays inside DuckDB: the judgments are aggregated into temporary tables
    # of this thread's cursor and the engine reads them there.
    cur = db.cursor()
    staged = stage_inputs(cur, policy, threshold, version, dedup, run)
    if systems is None:
        systems = evaluation_inputs.systems(db) if run is None else sorted(set(run.system))
    # with the bounds, the run is ranked once for the engine and the bounds alike
    run_table = (
        evaluation_inputs.stage_ranked(cur, staged.run, ties, dedup, ranking_depth(parsed))
        if with_bounds
        else staged.run
    )
    result = evaluate(
        cur,
        staged.items,
        run_table,
        parsed,
        ties=ties,
        dedup=dedup,
        default_rel=threshold,
        questions="questions",
        abstentions="run_abstentions",
        no_answer_qids=staged.no_answer,
        systems=systems,
        n_boot=n_boot,
        n_perm=n_perm,
        seed=seed,
    )
    if with_bounds:
        attach_bounds(result, cur, staged, dedup, ties, evaluation_inputs.questions(db), run_table)
        chosen = plan.current(db)
        if chosen.samples and version is None and run is None:
            attach_estimates(result, cur, staged, chosen, plan.draws_of(db), evaluation_inputs.questions(db), run_table)
    return CampaignEvaluation(
        result,
        policy,
        version,
        threshold,
        ks,
        staged.no_answer,
        evaluation_inputs.count(cur, staged.qrels),
        db,
        staged.excluded,
    )


def attach_bounds(
    result: EvalResult, cur, staged: "StagedInputs", dedup: str, ties: str, questions: pd.DataFrame, ranked_run: str
) -> None:
    """Give ``result`` its bounds: ``result.bounds`` per question, and the columns
    n_bounded, bound_low, bound_high, settled, n_open on ``result.means``."""
    from reljudge.eval.metrics import ALL, NO_TYPE

    pq = result.per_query
    qids = list(dict.fromkeys(pq.qid)) if not pq.empty else []
    M = len(result.measures)
    values = (
        pq.value.to_numpy(dtype=float).reshape(len(result.systems), len(qids), M)
        if len(qids) and len(result.systems)
        else None
    )
    b = bounds.compute(
        cur,
        staged.items,
        ranked_run,
        evaluation_inputs.pool_items(cur, dedup),
        result.measures,
        result.systems,
        ties=ties,
        dedup=dedup,
        extra_qids=staged.no_answer,
        values=values,
        value_qids=qids,
        ranked=True,
    )
    qtype_of = dict(zip(questions.qid.astype(str), questions.qtype)) if not questions.empty else {}
    per_query, means = bounds.frames(b, qtype_of, set(staged.no_answer), ALL, NO_TYPE)
    result.bounds = per_query
    result.means = result.means.merge(means, on=["system", "qtype", "measure"], how="left")
    result.policies["bounds"] = {
        "what": "lowest and highest value over every way the unjudged pooled paragraphs could still be graded",
        "means": "over every answerable pooled question, judged or not (the mean itself: judged questions only)",
        "pool_size": int(b.pool_size.sum()),
        "pool_judged": int(b.n_judged_in_pool.sum()),
        # answerable pooled questions nobody has judged yet: in the bounds, not in the value
        "pooled_not_judged": int(sum(1 for q, j in zip(b.qids, b.judged) if not j and q not in set(staged.no_answer))),
    }


@dataclass
class StagedInputs:
    """Names of the temporary tables (of one cursor) the metric engine reads."""

    qrels: str  # aggregated qrels, keyed by duplicate group
    items: str  # the qrels keyed as the ranking's items under the dedup policy
    run: str  # system, qid, pid, score, rank, dup_key
    no_answer: list[str]  # qids finally judged to have no citable evidence
    excluded: tuple[str, ...] = ()  # annotators the policy left out (+exclude-flagged)


def stage_inputs(
    cur, policy: str, threshold: int, version: int | None, dedup: str, run: pd.DataFrame | None = None
) -> StagedInputs:
    """Stage what :func:`evaluate_campaign` evaluates on ``cur``; the reproducibility
    bundle (:mod:`reljudge.campaign.bundle`) writes its files from the same tables."""
    qrels_table, verdicts_table, excluded = evaluation_inputs.stage(cur, policy, threshold, version)
    run_table = evaluation_inputs.stage_run(cur, run)
    no_answer = evaluation_inputs.no_answer_qids(cur, verdicts_table)
    # the judgments name duplicate groups; under "keep" every copy carries its group's grade
    items = evaluation_inputs.items_qrels(cur, qrels_table, dedup)
    return StagedInputs(qrels_table, items, run_table, no_answer, excluded)


#: the columns the sampling plans add to ``means`` and the per-question rows (``reljudge
#: evaluate --format json``; docs/sampling.md)
ESTIMATE_COLUMNS = ("estimate", "estimate_low", "estimate_high", "estimated")


def certain_items(
    rankings: dict[str, list[str]], grades: dict[str, int], pooled: set[str], rel: int, k: int
) -> set[str]:
    """rr-first's least set as far as the grades fix it (docs/sampling.md, "Why the estimates
    are unbiased"): for every system whose RR@K the grades settle (:func:`plan.settled`), its
    pooled items within K down to the first relevant one — the items any plan must judge to
    settle it, a function of the grades alone, never of which items were drawn. A question
    whose whole pool is graded is certain as a whole (its exact value)."""
    if pooled and all(p in grades for p in pooled):
        return set(pooled)
    out: set[str] = set()
    for ranking in rankings.values():
        if not plan.settled(ranking, grades, pooled, rel, k):
            continue
        for item in ranking[:k]:
            if item not in pooled:
                continue
            out.add(item)
            if grades[item] >= rel:
                break
    return out


@dataclass
class EstimatorInputs:
    """What :func:`attach_estimates` hands :func:`reljudge.eval.sampling.estimate`, kept on
    ``result.estimate_inputs`` so that the reproducibility bundle writes exactly these
    (``sampling/``, :mod:`reljudge.campaign.bundle`) and its ``reproduce_estimates.py`` reads
    them back into :func:`estimate_frames`. Items are named by duplicate group."""

    draws: list  # reljudge.eval.sampling.Draw, one per question estimated
    grades: dict  # qid -> item -> grade: the aggregated qrels the figures rest on
    rankings: dict  # qid -> system -> items in rank order (the engine's ranking)
    measures: list  # the estimated measures
    systems: list  # the evaluated systems
    certain: dict  # qid -> items taken as known with certainty
    low: object  # np.ndarray [s, q, m]: the hard bounds the estimates are clipped into
    high: object
    no_answer: set  # the no-answer qids: estimated, left out of the means

    @property
    def qids(self) -> list[str]:
        return [d.qid for d in self.draws]

    @property
    def judged(self) -> set[str]:
        """The questions someone has judged (the others have nothing to estimate from)."""
        return {q for q in self.qids if self.grades.get(q)}

    @property
    def include(self) -> list[str]:
        """The questions the means cover: the judged answerable ones (as ``mean``)."""
        judged = self.judged
        return [q for q in self.qids if q in judged and q not in self.no_answer]


def estimator_inputs(
    result: EvalResult, cur, staged: "StagedInputs", chosen, draws: list, ranked_run: str
) -> tuple[EstimatorInputs | None, list[str]]:
    """(the inputs of the estimates, the qids whose draw is out of date): grades from the
    staged qrels, rankings from the ranked run, known items (:func:`certain_items` under
    rr-first --then-sample, or a fully graded pool) and the bounds of ``result.bounds``
    (0 and 1 where it has none). None when nothing is to be estimated."""
    import numpy as np

    measures = [m for m in result.measures if plan.estimates(chosen, m.name, m.k)]
    if not measures or not draws or not result.systems:
        return None, []
    # a draw made before the pool was last rebuilt no longer describes the pool: no estimate
    pool: dict[str, set[str]] = {}
    for qid, pid in evaluation_inputs.pooled_groups(cur):
        pool.setdefault(str(qid), set()).add(str(pid))
    stale = sorted(d.qid for d in draws if {x.item for x in d.items} != pool.get(d.qid, set()))
    draws = [d for d in draws if d.qid not in set(stale)]
    if not draws:
        return None, stale
    grades: dict[str, dict[str, int]] = {}
    for qid, pid, grade in evaluation_inputs.group_grades(cur, staged.qrels):
        grades.setdefault(str(qid), {})[str(pid)] = int(grade)
    rankings: dict[str, dict[str, list[str]]] = {}
    for system, qid, item in evaluation_inputs.ranked_groups(cur, ranked_run):
        rankings.setdefault(str(qid), {}).setdefault(str(system), []).append(str(item))
    certain = {}
    for d in draws:
        pooled = {x.item for x in d.items}
        g = {p: v for p, v in grades.get(d.qid, {}).items() if p in pooled}
        if chosen.walks:
            certain[d.qid] = certain_items(rankings.get(d.qid, {}), g, pooled, chosen.rel, chosen.k)
        elif pooled and len(g) == len(pooled):
            certain[d.qid] = pooled
    qids = [d.qid for d in draws]
    names = [str(m) for m in measures]
    S, Q, M = len(result.systems), len(qids), len(measures)
    low, high = np.zeros((S, Q, M)), np.ones((S, Q, M))
    if result.bounds is not None and not result.bounds.empty:
        b = result.bounds
        b = b[b.measure.isin(names)]
        si = {s: i for i, s in enumerate(result.systems)}
        qi = {q: i for i, q in enumerate(qids)}
        mi = {m: i for i, m in enumerate(names)}
        for s, q, m, lo, hi in zip(b.system, b.qid, b.measure, b.bound_low, b.bound_high):
            if s in si and q in qi and lo == lo and hi == hi:
                low[si[s], qi[q], mi[m]], high[si[s], qi[q], mi[m]] = lo, hi
    inputs = EstimatorInputs(
        draws, grades, rankings, measures, list(result.systems), certain, low, high, set(staged.no_answer)
    )
    return inputs, stale


def estimate_frames(inputs: EstimatorInputs, qtype_of: dict[str, str]):
    """(per question, means, the Estimates): :func:`reljudge.eval.sampling.estimate` on
    ``inputs``; per question system, qid, measure + ESTIMATE_COLUMNS (None for a question
    nobody has judged), means system, qtype, measure + ESTIMATE_COLUMNS over the judged
    answerable questions, overall (``all``) and per question type (``qtype_of``)."""
    import numpy as np

    from reljudge.eval import sampling
    from reljudge.eval.metrics import ALL, NO_TYPE

    judged, answerable = inputs.judged, inputs.include
    est = sampling.estimate(
        inputs.draws,
        inputs.grades,
        inputs.rankings,
        inputs.measures,
        systems=inputs.systems,
        certain=inputs.certain,
        include=answerable,
        bounds=(inputs.low, inputs.high),
    )
    per_query, _ = est.frames()
    unjudged = ~per_query.qid.isin(judged)
    for c in ("estimate", "estimate_low", "estimate_high"):
        per_query[c] = per_query[c].astype(object).where(~unjudged, None)
    per_query["estimated"] = per_query.estimated.astype(bool)
    per_query = per_query[["system", "qid", "measure", *ESTIMATE_COLUMNS]]
    # the means, overall and per question type, over the judged answerable questions
    groups = {ALL: answerable}
    for q in answerable:
        groups.setdefault(qtype_of.get(q) or NO_TYPE, []).append(q)
    names = [str(m) for m in inputs.measures]
    rows = []
    for qtype, members in groups.items():
        mean, _, lo, hi = est.means_over(members)
        some = bool(np.any(est.estimated[[q in set(members) for q in est.qids]]))
        for s, system in enumerate(inputs.systems):
            for m, name in enumerate(names):
                ok = bool(members) and mean[s, m] == mean[s, m]
                rows.append(
                    (
                        system,
                        qtype,
                        name,
                        *(float(x[s, m]) if ok else None for x in (mean, lo, hi)),
                        some if ok else None,
                    )
                )
    means = pd.DataFrame(rows, columns=["system", "qtype", "measure", *ESTIMATE_COLUMNS])
    return per_query, means, est


def attach_estimates(
    result: EvalResult, cur, staged: "StagedInputs", chosen, draws: list, questions: pd.DataFrame, ranked_run: str
) -> None:
    """Under a sampling plan, give ``result`` the estimates of reljudge.eval.sampling for
    P@K, R@K, nDCG@K and AP: ``result.estimates`` (system, qid, measure + ESTIMATE_COLUMNS)
    and the same columns on ``result.means`` — None for the other measures, and for a
    question nobody has judged (nothing to estimate from). Grades: the aggregated qrels the
    figures rest on; known with certainty: rr-first's least set as far as the grades fix it
    (:func:`certain_items`, under rr-first --then-sample) or a fully graded pool; the rest
    weighted by the draw's inclusion probabilities. Clipped into the bounds. The means:
    over the answerable questions someone has judged (as ``mean``). A question whose pool
    was rebuilt after the draw (its draw no longer lists its pool) gets no estimate.
    ``result.estimate_inputs``: what the estimator read (:class:`EstimatorInputs`, None
    when nothing is estimated), for the bundle."""
    result.means = result.means.assign(**{c: None for c in ESTIMATE_COLUMNS})
    # every entry gains the keys, null where nothing is estimated
    result.estimates = pd.DataFrame(
        {c: pd.Series(dtype=object) for c in ("system", "qid", "measure", *ESTIMATE_COLUMNS)}
    )
    inputs, stale = estimator_inputs(result, cur, staged, chosen, draws, ranked_run)
    result.estimate_inputs = inputs
    if inputs is None:
        if stale:
            result.policies["estimates"] = {"measures": [], "draw_out_of_date": stale}
        return
    qtype_of = dict(zip(questions.qid.astype(str), questions.qtype)) if not questions.empty else {}
    per_query, found, est = estimate_frames(inputs, qtype_of)
    result.estimates = per_query
    result.means = result.means.drop(columns=list(ESTIMATE_COLUMNS)).merge(
        found, on=["system", "qtype", "measure"], how="left"
    )
    result.means[list(ESTIMATE_COLUMNS)] = result.means[list(ESTIMATE_COLUMNS)].astype(object)
    result.policies["estimates"] = {
        "what": "design-based estimates from the plan's random sample (docs/sampling.md)",
        "measures": [str(m) for m in inputs.measures],
        "rate": chosen.sample_rate,
        "seed": chosen.sample_seed,
        "known": "rr-first's least set as far as the grades fix it" if chosen.walks else "none (fully graded pools)",
        "interval": "95 % judging-sample interval (stratified jackknife), clipped into the bounds",
        "means": "over the answerable questions someone has judged (as mean)",
        # questions whose pool was rebuilt after the draw: no estimate (docs/sampling.md)
        "draw_out_of_date": stale,
        **{k: v for k, v in est.notes.items() if k != "z"},
    }
