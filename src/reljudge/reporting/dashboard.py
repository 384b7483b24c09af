"""What the live dashboard shows, shaped from one campaign evaluation (no Streamlit).

Every table gives counts and shares beside the mean (seed methodology §5). A figure is
settled ("확정") when its bounds meet (:mod:`reljudge.eval.bounds`, the one rule) and
provisional ("잠정") otherwise; the bootstrap interval is the question-sample
uncertainty, shown apart (docs/lead-guide.md#대시보드--dashboard).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reljudge.campaign import adjudication, plan, progress
from reljudge.campaign.evaluation import CampaignEvaluation, evaluate_campaign
from reljudge.eval.measures import COVERAGE_FAMILIES, DASHBOARD_FAMILIES, DASHBOARD_QUALITY, parse_measures
from reljudge.eval.metrics import ABSTENTION_COLUMNS, RANDOMIZATION
from reljudge.storage import evaluation_inputs, judgments
from reljudge.storage.db import Database

#: A group (system × question type) resting on fewer answerable questions than this is
#: flagged: its mean and bootstrap interval say little (5 questions can give [1.000, 1.000]).
FEW_QUESTIONS_BELOW = 10


def one_reading(db: Database):
    """``with dashboard.one_reading(db):`` around one refresh: its queries read the
    judgment events once (on PostgreSQL every view over them would copy the table again;
    see :meth:`reljudge.storage.db.Database.reading_once`)."""
    return db.reading_once({"judgment_events": judgments.VIEW_COLUMNS})


def contested_no_answer(db: Database, policy: str, version: int | None, threshold: int) -> list[str]:
    """Questions marked "no answer" by an annotator although the aggregated grades hold a
    citable paragraph (and no lead ruled): the grade wins, the dashboard says so. Frozen
    versions and imported sources are settled already: nothing to flag."""
    from reljudge.storage import team

    return [] if version is not None else team.contested_no_answer(db, policy, threshold)


def evaluate_for_dashboard(
    db: Database,
    k: int,
    threshold: int,
    policy: str = "adjudicated",
    version: int | None = None,
    n_boot: int = 1000,
    n_perm: int = RANDOMIZATION.permutations,
) -> CampaignEvaluation:
    """The measures at one cutoff K (what the dashboard shows), with intervals; the tests
    run the one procedure of :data:`reljudge.eval.metrics.RANDOMIZATION` (as the CLI and the
    report), so a comparison gets the same p everywhere."""
    names = [f"{family}@{k}" for family in DASHBOARD_FAMILIES]
    return evaluate_campaign(
        db,
        parse_measures(names, default_rel=threshold),
        ks=[k],
        threshold=threshold,
        policy=policy,
        version=version,
        n_boot=n_boot,
        n_perm=n_perm,
    )


def tests_table(ev: CampaignEvaluation, k: int | None = None) -> pd.DataFrame:
    """The system comparisons on the quality measures (Judged@K is coverage, not quality),
    optionally only those at cutoff ``k``: every measure's p-values with Holm's correction
    over the system pairs of that measure. The dashboard and the report show this table."""
    t = ev.result.tests
    t = t[~t.measure.str.match("|".join(COVERAGE_FAMILIES))]
    if k is not None:
        t = t[t.measure.str.endswith(f"@{k}")]
    return t.reset_index(drop=True)


def unsettled_measures(ev: CampaignEvaluation, k: int) -> list[str]:
    """The quality measures at cutoff ``k`` whose overall figure is not settled for some
    system (its bounds still apart): the intervals and tests on them can still move."""
    m = ev.result.means
    if "settled" not in m.columns:
        return []
    m = m[(m.qtype == "all") & m.measure.str.endswith(f"@{k}") & ~m.measure.str.match("|".join(COVERAGE_FAMILIES))]
    return sorted(set(m[~m.settled.astype(bool)].measure))


def test_procedure(ev: CampaignEvaluation) -> dict | None:
    """How the p-values of ``ev`` were computed (exact or sampled, with its parameters);
    None when no test was run. :func:`reljudge.i18n.test_procedure` says it in words."""
    return ev.result.policies["randomization_test"].get("used")


def questions_used(db: Database, ev: CampaignEvaluation) -> dict[str, int]:
    """How many questions the figures rest on: answerable (in the means), no-answer
    (reported apart), not judged yet (left out), of all questions in the campaign."""
    # Only the questions are counted: campaign.counts would also count paragraphs, pool and
    # every judgment event, which on PostgreSQL streams each of those tables (bench_dashboard).
    total = int(db.cursor().execute("SELECT count(*) FROM questions").fetchall()[0][0])
    n = ev.result.n_questions
    return {
        "answerable": int(n["answerable"]),
        "no_answer": int(n["no_answer"]),
        "total": total,
        "unjudged": max(total - int(n["all"]), 0),
    }


def pool_judged(ev: CampaignEvaluation) -> dict:
    """How much of the pool is judged: judged, size and the share as text."""
    b = ev.result.policies.get("bounds", {})
    size, judged = int(b.get("pool_size", 0)), int(b.get("pool_judged", 0))
    return {"judged": judged, "size": size, "share": _pct(judged / size if size else float("nan"))}


def summary_table(
    ev: CampaignEvaluation, k: int, qtypes: list[str] | None = None, systems: list[str] | None = None
) -> pd.DataFrame:
    """One row per system × question type (and 'all'): n, whether n is below
    FEW_QUESTIONS_BELOW, each mean with its 95% interval, rank-1 / top-3 / not-found
    counts and shares, Judged@K, provisional flag (some quality figure's bounds still apart);
    under a sampling plan also "<measure> estimate": the estimate with its 95 % judging-sample
    interval (docs/sampling.md), "—" where nothing is estimated."""
    r = ev.result
    m = r.means.copy()
    m["measure"] = m["measure"].str.replace(r"\(rel=\d+\)", "", regex=True)
    bounded = "bound_low" in m.columns
    sampled = "estimate" in m.columns  # a sampling plan: the estimates beside the bounds
    values = ["mean", "ci_low", "ci_high"] + (["bound_low", "bound_high", "settled", "n_open"] if bounded else [])
    if sampled:
        m[["estimate", "estimate_low", "estimate_high"]] = m[["estimate", "estimate_low", "estimate_high"]].astype(
            float
        )
        values += ["estimate", "estimate_low", "estimate_high"]
        # a column only for the measures the sample estimates (reljudge.campaign.plan.estimates)
        estimated_names = {("estimate", name) for name in m[m.estimate.notna()].measure}
    wide = m.pivot_table(index=["system", "qtype"], columns="measure", values=values, aggfunc="first", dropna=False)
    rows = []
    shares = r.shares[(r.shares.k == k) & (r.shares.rel == ev.threshold)].set_index(["system", "qtype"])
    coverage = (
        r.coverage[r.coverage.k == k].set_index(["system", "qtype"]).judged_share
        if not r.coverage.empty
        else pd.Series(dtype=float)
    )
    for (system, qtype), row in wide.iterrows():
        out = {"system": system, "qtype": qtype}
        n = int(m[(m.system == system) & (m.qtype == qtype)]["n"].iloc[0])
        out["n"] = n
        out["few_questions"] = n < FEW_QUESTIONS_BELOW
        for fam in DASHBOARD_FAMILIES:
            name = f"{fam}@{k}"
            if ("mean", name) not in row.index:
                continue
            label = "MRR" if fam == "RR" else fam
            out[f"{label}@{k}"] = row[("mean", name)]
            if fam not in COVERAGE_FAMILIES:
                out[f"{label}@{k} 95% CI"] = _ci(row[("ci_low", name)], row[("ci_high", name)])
                if bounded:
                    # where the value can still go as the unjudged pooled paragraphs are
                    # graded (reljudge.eval.bounds): one range, or "settled"
                    out[f"{label}@{k} bounds"] = _bounds(
                        row[("bound_low", name)], row[("bound_high", name)], row[("settled", name)]
                    )
                if sampled and ("estimate", name) in estimated_names:
                    # the sample's estimate with its 95 % judging-sample interval ("—": not estimated)
                    out[f"{label}@{k} estimate"] = _estimate(
                        row[("estimate", name)], row[("estimate_low", name)], row[("estimate_high", name)]
                    )
        if bounded and ("n_open", f"nDCG@{k}") in row.index:
            # every open pooled paragraph within K of this system: judging them settles all its figures
            opened = row[("n_open", f"nDCG@{k}")]
            out[f"open @{k}"] = int(opened) if opened == opened else 0
        if (system, qtype) in shares.index:
            s = shares.loc[(system, qtype)]
            out["rank 1"] = f"{int(s.n_rank1)} ({_pct(s.rank1)})"
            out["top 3"] = f"{int(s.n_top3)} ({_pct(s.top3)})"
            out[f"not found @{k}"] = f"{int(s.n_not_found)} ({_pct(s.not_found)})"
        out["judged_returned"] = coverage.get((system, qtype), np.nan)
        # provisional = some quality figure of the row is not settled: the bounds' rule
        # (reljudge.eval.bounds), not a judged share (an exactly settled MRR is settled)
        quality = [f"{fam}@{k}" for fam in DASHBOARD_QUALITY if ("settled", f"{fam}@{k}") in row.index]
        out["provisional"] = not bounded or not all(_is_true(row[("settled", name)]) for name in quality)
        rows.append(out)
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    if qtypes:
        table = table[table.qtype.isin(qtypes + ["all"])]
    if systems:
        table = table[table.system.isin(systems)]
    order = {"all": 0}
    return table.sort_values(["qtype", "system"], key=lambda c: c.map(lambda v: (order.get(v, 1), v))).reset_index(
        drop=True
    )


def sample_table(table: pd.DataFrame) -> pd.DataFrame:
    """The question-sample uncertainty of :func:`summary_table`'s rows ("문항 표본"): system,
    question type, n, whether n is below FEW_QUESTIONS_BELOW, every 95% bootstrap interval."""
    if table.empty:
        return table
    keep = ["system", "qtype", "n", "few_questions"] + [c for c in table.columns if str(c).endswith(" 95% CI")]
    return table[keep]


def counts_table(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`summary_table`'s counts: rank 1, top 3, not found within K, Judged@K, the
    judged share of what was returned, the open pooled paragraphs within K."""
    if table.empty:
        return table
    keep = ["system", "qtype"] + [
        c
        for c in table.columns
        if c in ("rank 1", "top 3", "judged_returned")
        or str(c).startswith(("not found @", "open @", "Judged@", "Unj@"))
    ]
    return table[keep]


def label(family: str, k: int) -> str:
    """A measure's name on the dashboard: RR's mean is MRR."""
    return f"{'MRR' if family == 'RR' else family}@{k}"


STATUS_COLUMNS = ["system", "qtype", "n", "measure", "family", "value", "bound_low", "bound_high", "settled"]
#: what :func:`measure_status` adds under a sampling plan (docs/sampling.md): the estimate,
#: its 95 % judging-sample interval, and whether sampling decides the figure
ESTIMATE_STATUS_COLUMNS = ["estimate", "estimate_low", "estimate_high", "estimated"]


def measure_status(
    ev: CampaignEvaluation, k: int, qtypes: list[str] | None = None, systems: list[str] | None = None
) -> pd.DataFrame:
    """The dashboard's first table, long: one row per system × question type ('all'
    first) × quality measure at K (the registry's dashboard families, in its order):
    ``n`` answerable judged questions, ``value`` (the mean over them, unjudged = not
    relevant, as trec_eval), its bounds and ``settled`` — the bounds meet
    (:attr:`reljudge.eval.bounds.Bounds.settled`, summarised by :func:`reljudge.eval.bounds.frames`):
    "확정" where settled, "잠정" where not. ``measure`` is the shown name (MRR@K).

    Under a sampling plan (the evaluation carries the estimates of
    :func:`reljudge.campaign.evaluation.attach_estimates`, the ones ``reljudge evaluate``
    prints) the rows also carry ``estimate``, ``estimate_low``, ``estimate_high`` (its 95 %
    judging-sample interval, NaN where nothing is estimated) and ``estimated``: sampling,
    not judging, decides the figure (an estimated mean whose bounds do not meet) — "추정";
    a settled figure stays "확정". Without a sampling plan the columns are absent."""
    m = ev.result.means
    sampled = "estimate" in m.columns
    columns = STATUS_COLUMNS + (ESTIMATE_STATUS_COLUMNS if sampled else [])
    if m.empty or "settled" not in m.columns:
        return pd.DataFrame(columns=columns)
    names = {f"{fam}@{k}": fam for fam in DASHBOARD_QUALITY}
    bare = m.measure.str.replace(r"\(rel=\d+\)", "", regex=True)
    sel = m[bare.isin(list(names))].assign(family=bare.map(names))
    if qtypes:
        sel = sel[sel.qtype.isin(list(qtypes) + ["all"])]
    if systems:
        sel = sel[sel.system.isin(systems)]
    order = {fam: i for i, fam in enumerate(DASHBOARD_QUALITY)}
    out = pd.DataFrame(
        {
            "system": sel.system,
            "qtype": sel.qtype,
            "n": sel.n.astype(int),
            "measure": [label(f, k) for f in sel.family],
            "family": sel.family,
            "value": sel["mean"].astype(float),
            "bound_low": sel.bound_low.astype(float),
            "bound_high": sel.bound_high.astype(float),
            "settled": [_is_true(x) for x in sel.settled],
        }
    )
    if sampled:
        for c in ("estimate", "estimate_low", "estimate_high"):
            out[c] = [np.nan if x is None else float(x) for x in sel[c]]
        out["estimated"] = [_is_true(e) and not s for e, s in zip(sel.estimated, out.settled)]
    out["_q"] = out.qtype.map(lambda v: (0, "") if v == "all" else (1, v))
    out["_f"] = out.family.map(order)
    return out.sort_values(["_q", "system", "_f"]).drop(columns=["_q", "_f"]).reset_index(drop=True)[columns]


def stale_draws(ev: CampaignEvaluation) -> list[str]:
    """Questions whose pool was rebuilt after the sampling plan's draw (once judging had
    begun, so not drawn again): they get no estimate (docs/sampling.md). Empty without a
    sampling plan."""
    return list(ev.result.policies.get("estimates", {}).get("draw_out_of_date", []))


def plan_summary(db: Database, ev: CampaignEvaluation, k: int) -> dict:
    """What the campaign's judging plan settles among the dashboard's measures at K and
    the evaluation's threshold, and what the rest would cost — data for one sentence
    (the page words it): ``plan``, ``rest``, ``plan_k``, ``plan_rel``, ``k``, ``rel``;
    ``settles`` / ``open`` (shown names: :func:`reljudge.campaign.plan.settles`);
    ``settled_now`` (shown name → [systems settled now overall, systems]); from
    :func:`reljudge.campaign.plan.estimate`: ``complete`` (judgments the whole pool takes,
    every annotator counted: what settles every measure), ``plan_expected`` or
    ``plan_low``/``plan_high`` (what this plan takes; the range until judging has begun)
    and ``judged`` (judgments so far). Under a sampling plan also ``estimates`` (shown
    names the plan estimates from its sample: :func:`reljudge.campaign.plan.estimates`),
    ``estimated_now`` (shown name → [systems estimated now overall, systems]),
    ``sample_rate`` and ``sample_seed``; ``estimates`` is empty otherwise, and empty too
    when the evaluation carries no estimate although the plan samples (a frozen version:
    then ``no_estimates_reason`` is ``"frozen_version"`` and ``version`` names it)."""
    chosen = plan.current(db)
    est = plan.estimate(db)
    t = est["totals"]
    settles = [label(f, k) for f in DASHBOARD_QUALITY if plan.settles(chosen, f, k, ev.threshold)]
    status = measure_status(ev, k)
    overall = status[status.qtype == "all"]
    settled_now = {
        name: [int(overall[overall.measure == name].settled.sum()), int((overall.measure == name).sum())]
        for name in settles
    }
    # A frozen version (or any evaluation the sample was not applied to) carries no estimate:
    # the sentence must not promise one (``no_estimates_reason``; docs/sampling.md).
    carries = "estimates" in ev.result.policies
    sampled = [label(f, k) for f in DASHBOARD_QUALITY if label(f, k) not in settles and plan.estimates(chosen, f, k)]
    estimates = sampled if carries else []
    whole = chosen.name == "complete" or chosen.rest
    head = "with_sample" if chosen.samples else "rr_first"  # what the chosen plan takes (plan.estimate)
    return {
        "plan": chosen.name,
        "rest": chosen.rest,
        "samples": chosen.samples,
        "plan_k": chosen.k,
        "plan_rel": chosen.rel,
        "k": k,
        "rel": ev.threshold,
        "settles": settles,
        "open": [label(f, k) for f in DASHBOARD_QUALITY if label(f, k) not in settles],
        "settled_now": settled_now,
        "complete": _count(t["complete"]),
        "plan_expected": _count(t["complete"] if whole else t[f"{head}_expected"]),
        "plan_low": _count(t["complete"] if whole else t[f"{head}_low"]),
        "plan_high": _count(t["complete"] if whole else t[f"{head}_high"]),
        "judged": int(est["judged_so_far"]),
        "estimates": estimates,
        **(
            {
                "estimated_now": {
                    name: [
                        int(overall[overall.measure == name].estimated.sum()) if "estimated" in overall else 0,
                        int((overall.measure == name).sum()),
                    ]
                    for name in estimates
                },
                "sample_rate": chosen.sample_rate,
                "sample_seed": chosen.sample_seed,
            }
            if chosen.samples and carries
            else {}
        ),
        **(
            {"no_estimates_reason": "frozen_version", "version": ev.version}
            if sampled and not carries and ev.version is not None
            else {}
        ),
    }


def _count(x) -> int | None:
    return None if x is None else int(round(float(x)))


def _is_true(x) -> bool:
    return bool(x) if x == x else False


def _ci(lo: float, hi: float) -> str:
    if lo != lo or hi != hi:
        return "—"
    return f"[{lo:.3f}, {hi:.3f}]"


def _bounds(lo: float, hi: float, settled) -> str:
    """A figure's bounds as the table shows them: "= 0.833" when settled, else "[lo, hi]"."""
    if lo != lo or hi != hi:
        return "—"
    if bool(settled):
        return f"= {lo:.3f}"
    return f"[{lo:.3f}, {hi:.3f}]"


def _estimate(value: float, lo: float, hi: float) -> str:
    """An estimate with its judging-sample interval: "0.705 [0.650, 0.760]" ("—": none)."""
    if value != value:
        return "—"
    return f"{value:.3f} {_ci(lo, hi)}"


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.0f}%"


def chart_frame(
    ev: CampaignEvaluation,
    k: int,
    family: str = "RR",
    qtypes: list[str] | None = None,
    systems: list[str] | None = None,
) -> pd.DataFrame:
    """system, qtype, n, mean, ci_low, ci_high of one measure (for a bar chart with error
    bars), and bound_low, bound_high, settled when the evaluation has its bounds; optionally
    only some question types (plus 'all') and systems."""
    m = ev.result.means
    name = f"{family}@{k}"
    sel = m[m.measure.str.replace(r"\(rel=\d+\)", "", regex=True) == name]
    if qtypes:
        sel = sel[sel.qtype.isin(list(qtypes) + ["all"])]
    if systems:
        sel = sel[sel.system.isin(systems)]
    columns = ["system", "qtype", "n", "mean", "ci_low", "ci_high"]
    if "settled" in sel.columns:
        columns += ["bound_low", "bound_high", "settled"]
    return sel[columns].reset_index(drop=True)


def abstention_table(ev: CampaignEvaluation) -> pd.DataFrame:
    return ev.result.abstention[list(ABSTENTION_COLUMNS)].copy()


NOTHING_CITABLE_COLUMNS = ["qid", "qtype", "question", "judged", "system", "mrr_now", "mrr_if_marked"]


def nothing_citable(db: Database, ev: CampaignEvaluation, k: int) -> pd.DataFrame:
    """Questions with nothing citable — every paragraph the judging plan asks for is judged
    (some annotator finished it: :func:`reljudge.campaign.progress.finished_questions`) and
    no aggregated grade reaches the threshold — and not marked "no answer", with what
    marking each one would do to every system's
    MRR@K: unmarked it is an answerable question with RR 0 in every mean; marked it leaves
    the means for the abstention table (docs/judging-plans.md#판정-계획--judging-plans). One row per question ×
    system: ``mrr_now`` (the overall mean now) and ``mrr_if_marked`` (that question alone
    marked: the mean of RR@K over the other answerable questions)."""
    qrels = ev.qrels
    if qrels.empty:
        return pd.DataFrame(columns=NOTHING_CITABLE_COLUMNS)
    best = qrels.groupby("qid").grade.agg(["max", "size"])
    marked = set(ev.no_answer_qids)
    candidates = [q for q, row in best.iterrows() if row["max"] < ev.threshold and q not in marked]
    if candidates:
        # a question the plan still asks paragraphs of may yet hold a citable one: not yet
        done = progress.finished_questions(db)
        candidates = [q for q in candidates if str(q) in done]
    pq = ev.result.per_query
    rr = pq[(pq.measure == f"RR(rel={ev.threshold})@{k}") & ~pq.no_answer.astype(bool)]
    candidates = [q for q in candidates if q in set(rr.qid)]
    if not candidates:
        return pd.DataFrame(columns=NOTHING_CITABLE_COLUMNS)
    texts = evaluation_inputs.question_texts(db)
    qtypes = dict(zip(rr.qid, rr.qtype))
    rows = []
    for qid in candidates:
        for system, values in rr.groupby("system", sort=False):
            others = values[values.qid != qid].value
            rows.append(
                {
                    "qid": qid,
                    "qtype": qtypes[qid],
                    "question": texts.get(qid, ""),
                    "judged": int(best.loc[qid, "size"]),
                    "system": system,
                    "mrr_now": float(values.value.mean()),
                    "mrr_if_marked": float(others.mean()) if len(others) else float("nan"),
                }
            )
    return pd.DataFrame(rows, columns=NOTHING_CITABLE_COLUMNS)


def failure_cases(db: Database, ev: CampaignEvaluation, k: int, systems: list[str] | None = None) -> pd.DataFrame:
    """Questions whose first citable paragraph is not within K, per system, with the
    question text and what the system returned first (text and its grade)."""
    f = ev.result.failures
    f = f[(f.k == k) & (f.rel == ev.threshold)]
    if systems:
        f = f[f.system.isin(systems)]
    if f.empty:
        return pd.DataFrame(columns=["system", "qid", "qtype", "question", "first_pid", "first_grade", "first_text"])
    questions = evaluation_inputs.question_texts(db)
    texts = evaluation_inputs.paragraph_texts(db, [p for p in f.first_pid.dropna()])
    out = f[["system", "qid", "qtype", "first_pid", "first_grade"]].copy()
    out.insert(3, "question", out.qid.map(questions))
    out["first_text"] = out.first_pid.map(lambda p: (texts.get(p) or "")[:160] if p else "")
    return out.reset_index(drop=True)


def question_detail(db: Database, ev: CampaignEvaluation, qid: str, k: int) -> pd.DataFrame:
    """Each system's top-K for one question, ranked as the evaluation ranked it (its tie
    rule and duplicates policy), with the aggregated grade of every paragraph: the
    grade of its duplicate group, which the judgments name."""
    qrels = ev.qrels[ev.qrels.qid == qid].set_index("pid")
    policies = ev.result.policies
    ranked = evaluation_inputs.top_k(db, qid, k, policies["ties"], policies.get("dedup", "first"))
    ranked["grade"] = ranked.group_pid.map(qrels["grade"]) if not qrels.empty else None
    ranked["provenance"] = ranked.group_pid.map(qrels["provenance"]) if not qrels.empty else None
    return ranked.drop(columns="group_pid")


def chart_families() -> tuple[str, ...]:
    """The measures the dashboard's chart offers: the registry's dashboard quality families."""
    return DASHBOARD_QUALITY


def question_types(db: Database) -> list[str]:
    return sorted(set(evaluation_inputs.questions(db).qtype))


def qrels_choices(db: Database) -> list[tuple[str, int | None]]:
    """(policy, version) pairs the dashboard can evaluate on: the live policies (with and
    without the annotators quality control flags), every imported source, every frozen version."""
    from reljudge.policy import source_policy, team_policies
    from reljudge.storage import qrels_io

    return (
        [(p, None) for p in team_policies()]
        + [(source_policy(s), None) for s in qrels_io.sources(db)]
        + [("adjudicated", v) for v in versions(db)]
    )


def versions(db: Database) -> list[int]:
    return [int(v) for v in adjudication.versions(db).version]
