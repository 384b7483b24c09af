"""The evaluation report: everything the methodology asks to disclose (seed §3, §5).

Number and types of questions; the relevance criterion and the evidence unit; K,
tie rule, duplicate policy, threshold, qrels version or policy; per system × question
type and overall: MRR with its interval, Recall@K, nDCG@K, P@K, rank-1 / top-3 /
not-found shares, Judged@K; abstention rates; agreement; failure cases with the
question text and what each system returned first. Markdown or self-contained HTML
(charts as inline SVG), Korean by default.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import pandas as pd

from reljudge import policy as policies
from reljudge.campaign import team_agreement
from reljudge import i18n, times
from reljudge.agreement import coefficients as agreement
from reljudge.campaign import bundle
from reljudge.campaign import setup as campaign
from reljudge.reporting import dashboard
from reljudge.campaign import evaluation
from reljudge.eval import metrics
from reljudge.campaign import plan
from reljudge.reporting import report_answers
from reljudge.reporting import judge_tables
from reljudge.reporting.render import fmt_cell, html_table, md_cell, md_table
from reljudge.storage import catalog, evaluation_inputs
from reljudge.storage.db import Database


def measure_definitions(measures, lang: str = "en") -> str:
    """Each reported family's definition (and, in English, its source), from the one
    registry of measures."""
    from reljudge.eval.measures import REGISTRY

    names = list(dict.fromkeys(m.name for m in measures))
    if lang == "ko":
        return "; ".join(f"{n}: {REGISTRY[n].definition_ko or REGISTRY[n].definition}" for n in names)
    return "; ".join(f"{n}: {REGISTRY[n].definition} ({REGISTRY[n].source})" for n in names)


def _t(key: str, lang: str, **kw) -> str:
    return i18n.t(f"report_{key}", lang, **kw)


@dataclass
class ReportData:
    lang: str
    generated: str
    setup: list[tuple[str, str]]
    question_types: pd.DataFrame
    k: int
    results: pd.DataFrame
    mrr_by_k: pd.DataFrame
    chart: pd.DataFrame
    abstention: pd.DataFrame
    tests: pd.DataFrame
    agreement: pd.DataFrame
    failures: pd.DataFrame
    is_demo: bool
    bundle_sha256: str = ""
    # questions changed after judging began: each wording and the judgment events made under it
    wordings: pd.DataFrame | None = None
    test_procedure: str = ""  # how the p-values were computed, stated beside them
    agreement_notes: list[str] = field(default_factory=list)  # footnote (i) of the agreement table
    few_questions_note: str = ""  # below the results when a group rests on too few questions
    answer_review: object = None  # the "answer review" section (reljudge.reporting.report_answers), None: no answers
    unsettled_note: str = ""  # above the tests when they rest on figures the unjudged paragraphs can still move
    # below the results under a sampling plan: which numbers are estimated (docs/sampling.md)
    estimates_note: str = ""
    model_judge: object = None  # "model vs reference" (reljudge.reporting.judge_tables), None: no model source


def build(
    db: Database, policy: str = "adjudicated", version: int | None = None, lang: str = "ko", n_boot: int = 1000
) -> ReportData:
    """The report's data. Every part reads the same judgment and review events, read once
    (:meth:`reljudge.storage.db.Database.reading_once`): on PostgreSQL, saves made while
    the report is built cannot make its figures and its agreement disagree."""
    # every column: the bundle hashes the events as `reljudge export bundle` writes them
    with db.reading_once({"judgment_events": None, "review_events": None}):
        return _build(db, policy, version, lang, n_boot)


def _build(db: Database, policy: str, version: int | None, lang: str, n_boot: int) -> ReportData:
    ev = evaluation.evaluate_campaign(
        db, policy=policy, version=version, n_boot=n_boot, n_perm=metrics.RANDOMIZATION.permutations
    )
    settings = campaign.settings(db)
    # the hash of the reproducibility bundle of these very figures (reljudge.campaign.bundle):
    # `reljudge export bundle` on the same data writes it as manifest.json's bundle_sha256
    built = bundle.build(db, ev=ev)
    k = max(ev.ks)
    r = ev.result
    qtypes = (
        evaluation_inputs.questions(db)
        .qtype.replace("", "(none)")
        .value_counts()
        .rename_axis("type")
        .reset_index(name="questions")
    )
    setup = [
        (
            _t("questions", lang),
            f"{int(qtypes.questions.sum())} — " + ", ".join(f"{t} {n}" for t, n in zip(qtypes.type, qtypes.questions)),
        ),
        (
            _t("evaluated", lang),
            _t("evaluated_text", lang, a=r.n_questions["answerable"], n=r.n_questions["no_answer"]),
        ),
        (_t("criterion", lang), _t("criterion_text", lang, rel=ev.threshold)),
        (_t("unit", lang), _t("unit_text", lang)),
        (_t("k", lang), ", ".join(str(x) for x in ev.ks)),
        (_t("ties", lang), _t(f"ties_{r.policies['ties']}", lang)),
        (_t("dedup", lang), _t(f"dedup_{r.policies['dedup']}", lang)),
        (_t("qrels", lang), _qrels_text(ev, lang)),
        (_t("pool", lang), _t("pool_text", lang, d=settings["pool_depth"])),
        (_t("plan", lang), _plan_text(plan.current(db), lang)),
        *([(_t("estimates", lang), design)] if (design := _estimates_text(db, ev, lang)) else []),
        (
            _t("pool_judged", lang),
            _t("pool_judged_text", lang, q=r.policies["bounds"]["pooled_not_judged"], **dashboard.pool_judged(ev)),
        ),
        (_t("highlight", lang), _t(f"highlight_{settings['highlight']}", lang)),
        (_t("quality", lang), _quality_text(db, lang)),
        (_t("measures", lang), measure_definitions(r.measures, lang)),
        (_t("unjudged", lang), _t("unjudged_text", lang)),
        (_t("no_answer", lang), _t("no_answer_text", lang, n=len(ev.no_answer_qids))),
        (_t("ci", lang), _t("ci_text", lang, b=n_boot)),
        (
            _t("test", lang),
            _t(
                "test_text",
                lang,
                exact=metrics.RANDOMIZATION.exact_max_n,
                r=f"{metrics.RANDOMIZATION.permutations:,}",
                seed=metrics.RANDOMIZATION.seed,
            ),
        ),
        (_t("bundle", lang), _t("bundle_text", lang, h=built.bundle_sha256, cmd=bundle_command(policy, version))),
    ]
    results = dashboard.summary_table(ev, k)
    few_note = (
        i18n.t("few_questions_note", lang, m=dashboard.FEW_QUESTIONS_BELOW)
        if not results.empty and results.few_questions.any()
        else ""
    )
    means = r.means[(r.means.qtype == "all") & r.means.measure.str.startswith("RR")]
    mrr_by_k = (
        means.assign(K=means.measure.str.extract(r"@(\d+)")[0].astype(int))
        .pivot_table(index="system", columns="K", values="mean")
        .reset_index()
    )
    mrr_by_k.columns = ["system"] + [f"MRR@{c}" for c in mrr_by_k.columns[1:]]
    failures = _failures_with_first(db, ev, k)
    agree, agree_notes = _agreement_with_notes(team_agreement.from_database(db), lang)
    # every reported quality measure at K, Holm per measure as on the dashboard (one function)
    tests = dashboard.tests_table(ev, k)
    unsettled = dashboard.unsettled_measures(ev, k)
    unsettled_note = _t("unsettled_tests", lang, measures=", ".join(unsettled)) if unsettled else ""
    is_demo = campaign.is_demo(db)
    results, abstention = _localized(results, lang), _localized(dashboard.abstention_table(ev), lang)
    tests = _localized(tests, lang)
    return ReportData(
        lang,
        times.now_iso(catalog.campaign_zone(db)),
        setup,
        qtypes,
        k,
        results,
        mrr_by_k,
        dashboard.chart_frame(ev, k, "RR"),
        abstention,
        tests,
        agree,
        failures,
        is_demo,
        built.bundle_sha256,
        catalog.judged_wordings(db),
        i18n.test_procedure(dashboard.test_procedure(ev), lang),
        agree_notes,
        few_note,
        report_answers.build(db, lang, n_boot),
        unsettled_note,
        model_judge=judge_tables.build_section(db, lang, policy),  # against the report's policy
        estimates_note=_estimates_note(ev, k, lang),
    )


# the agreement table's column that shows a figure (cohen_kappa[A|B] -> its mean's column)
_FIGURE_COLUMNS = {
    "percent_agreement": "percent_agreement",
    "cohen_kappa": "cohen_kappa_mean",
    "fleiss_kappa": "fleiss_kappa",
    "krippendorff_alpha_nominal": "alpha_nominal",
    "krippendorff_alpha_ordinal": "alpha_ordinal",
}


def _agreement_with_notes(rep: agreement.AgreementReport, lang: str) -> tuple[pd.DataFrame, list[str]]:
    """The agreement figures without the long "not computed" column: a figure that is
    missing carries a footnote number "(i)" in its cell (a figure without a column, in
    the notes column), and each distinct reason is written once, as footnote i."""
    table = i18n.localized_values(agreement.figures_table(rep).drop(columns="not_computed", errors="ignore"), lang)
    if table.empty:
        return table, []
    # the rows of figures_table: overall, then each type; grades before verdicts
    results = [
        res
        for g, v in [(rep.grades, rep.no_answer)] + [p for _, p in sorted(rep.by_type.items())]
        for res in (g, v)
        if res is not None
    ]
    if len(results) != len(table):
        raise RuntimeError("internal error: agreement rows and results differ")
    notes: list[str] = []
    cells = table.astype(object).map(fmt_cell)
    extra = [""] * len(table)
    for row, res in enumerate(results):
        for name, reason in res.reasons.items():
            text = f"{i18n.figure_name(name, lang)}: {i18n.message(reason, lang)}"
            if text not in notes:
                notes.append(text)
            mark = f"({notes.index(text) + 1})"
            column = _FIGURE_COLUMNS.get(name.partition("[")[0])
            if column in cells.columns:
                cells.iat[row, cells.columns.get_loc(column)] += " " + mark
            else:
                extra[row] = (extra[row] + " " + mark).strip()
    cells["footnotes"] = extra
    return cells, notes


def _quality_text(db: Database, lang: str) -> str:
    """The quality-control settings and figures (reljudge.campaign.quality), one paragraph."""
    from reljudge.campaign import quality

    data = quality.summary(db, promote_auto=False)
    if not data["gold_items"] and not data["decoys_placed"]:
        return _t("quality_none", lang)
    s = data["settings"]
    origins = quality.gold_items(db).origin.value_counts().to_dict()

    def num(x) -> str:
        return "—" if x is None else f"{x:.3f}"

    people = "; ".join(
        _t(
            "quality_person",
            lang,
            name=a["annotator"],
            gold_judged=a["gold_judged"],
            accuracy=num(a["gold_accuracy"]),
            kappa=num(a["gold_kappa"]),
            decoys_failed=a["decoys_failed"],
            decoys_judged=a["decoys_judged"],
            flag=_t(
                "quality_flagged",
                lang,
                reasons=", ".join(i18n.t(f"quality_reason_{r}", lang) for r in a["reasons"]),
            )
            if a["flagged"]
            else "",
        )
        for a in data["annotators"]
    )
    return _t(
        "quality_text",
        lang,
        n_gold=data["gold_items"],
        n_import=origins.get("import", 0),
        n_adjudication=origins.get("adjudication", 0),
        n_promoted=origins.get("promoted", 0),
        auto=_t("on" if s["auto_gold"] else "off", lang),
        n_decoys=data["decoys_placed"],
        rate="—" if s["decoy_rate"] is None else s["decoy_rate"],
        seed="—" if s["decoy_seed"] is None else s["decoy_seed"],
        min_gold=s["min_gold"],
        min_accuracy=s["min_accuracy"],
        max_failed=s["max_failed_decoys"],
        people=people or "—",
    )


def _plan_text(p: "plan.Plan", lang: str) -> str:
    """The judging plan in the report's words (docs/judging-plans.md#판정-계획--judging-plans)."""
    if p.name == "complete":
        if p.order_source:
            return _t("plan_complete", lang) + " " + _t("plan_model_order", lang, source=p.order_source)
        return _t("plan_complete", lang)
    if p.name == "sample":
        return _t("plan_sample", lang, rate=f"{p.sample_rate:g}", seed=p.sample_seed)
    then = _t("plan_then_sample", lang, rate=f"{p.sample_rate:g}", seed=p.sample_seed) if p.samples else ""
    return _t("plan_rr_first", lang, k=p.k, rel=p.rel) + (_t("plan_then_rest", lang) if p.rest else then)


def sampling_design(db: Database, ev) -> dict | None:
    """The sampling plan's design as the figures used it (docs/sampling.md), None when the
    evaluation carries no estimate (no sampling plan, a frozen version): ``measures``
    (estimated), ``rate``, ``seed``, ``known`` (the certain set's rule), ``questions``
    (drawn), ``strata`` (per question, mean), ``pooled``, ``drawn``, ``drawn_judged``
    (drawn items with an aggregated grade), ``out_of_date`` (questions whose pool was rebuilt
    after the draw: no estimate)."""
    info = ev.result.policies.get("estimates")
    if info is None:
        return None
    draws = plan.draws_of(db)
    graded = set(zip(ev.qrels.qid.astype(str), ev.qrels.pid.astype(str))) if not ev.qrels.empty else set()
    drawn = [(d.qid, x.item) for d in draws for x in d.items if x.drawn]
    chosen = plan.current(db)
    return {
        "measures": [re.sub(r"\(rel=\d+\)", "", name) for name in info.get("measures", [])],
        "rate": chosen.sample_rate,
        "seed": chosen.sample_seed,
        "known": info.get("known", ""),
        "questions": len(draws),
        "strata": sum(len(d.strata) for d in draws) / len(draws) if draws else 0.0,
        "pooled": sum(len(d.items) for d in draws),
        "drawn": len(drawn),
        "drawn_judged": sum(1 for x in drawn if x in graded),
        "out_of_date": dashboard.stale_draws(ev),
    }


def _estimates_text(db: Database, ev, lang: str) -> str:
    """The sampling design in the report's words (the set-up table), "" without estimates."""
    d = sampling_design(db, ev)
    if d is None:
        return ""
    share = dashboard.pool_judged(ev)["share"]
    text = _t(
        "estimates_text",
        lang,
        measures=", ".join(d["measures"]) or "—",
        rate="—" if d["rate"] is None else f"{d['rate']:g}",
        seed="—" if d["seed"] is None else d["seed"],
        questions=d["questions"],
        strata=f"{d['strata']:.1f}",
        drawn=d["drawn"],
        pooled=d["pooled"],
        drawn_share=f"{100 * d['drawn'] / d['pooled']:.0f}%" if d["pooled"] else "—",
        drawn_judged=d["drawn_judged"],
        share=share,
        known=_t("estimates_known_rr_first" if plan.current(db).walks else "estimates_known_none", lang),
    )
    if d["out_of_date"]:
        text += " " + _t("estimates_out_of_date", lang, qids=", ".join(d["out_of_date"]))
    return text


def _estimates_note(ev, k: int, lang: str) -> str:
    """Below the results under a sampling plan: which numbers are estimated ("" otherwise)."""
    info = ev.result.policies.get("estimates")
    if info is None:
        return ""
    m = ev.result.means
    shown = [
        dashboard.label(name, k)
        for name in dashboard.chart_families()
        if "estimate" in m.columns
        and any(
            x is not None and x == x
            for x in m[
                (m.qtype == "all") & (m.measure.str.replace(r"\(rel=\d+\)", "", regex=True) == f"{name}@{k}")
            ].estimate
        )
    ]
    return _t("estimates_note", lang, measures=", ".join(shown) or "—")


def bundle_command(policy: str, version: int | None) -> str:
    """The command that writes the bundle whose hash a report of ``policy``/``version`` names
    (under the campaign's tie rule and duplicates policy, as the report)."""
    cmd = "reljudge export bundle -o DIR"
    if policy != "adjudicated":
        cmd += f" --policy {policy}"
    if version is not None:
        cmd += f" --version {version}"
    return cmd


def _localized(frame: pd.DataFrame, lang: str) -> pd.DataFrame:
    return i18n.localized_values(frame, lang, booleans=True)


def _qrels_text(ev, lang: str) -> str:
    """The judgments the figures rest on, with whom a ``+exclude-flagged`` policy left out
    (the report's reader must see it beside the numbers, not only in the bundle)."""
    text = policies.qrels_label(ev.policy, ev.version, lang)
    if ev.version is None and policies.parse(ev.policy).excludes_flagged:
        text += _t("left_out", lang, names=", ".join(ev.excluded) if ev.excluded else _t("nobody", lang))
    return text


def _failures_with_first(db: Database, ev, k: int) -> pd.DataFrame:
    f = dashboard.failure_cases(db, ev, k)
    if f.empty:
        return f
    return f[["qid", "qtype", "question", "system", "first_pid", "first_grade", "first_text"]]


# -- rendering -----------------------------------------------------------------------


def render_markdown(data: ReportData) -> str:
    L = data.lang
    out = [f"# {_t('title', L)}\n", f"{_t('generated', L)}: {data.generated}\n"]
    if data.is_demo:
        out.append(f"> {_t('sample', L)}\n")
    out.append(f"## {_t('setup', L)}\n")
    out.append(md_table(pd.DataFrame(data.setup, columns=["", ""]), L))
    out.append(f"\n## {_t('results', L, k=data.k)}\n")
    out.append(md_table(data.results, L))
    if data.estimates_note:
        out.append(f"\n> {md_cell(data.estimates_note)}\n")
    if data.few_questions_note:
        out.append(f"\n> {md_cell(data.few_questions_note)}\n")
    out.append(f"\n## {_t('mrr_by_k', L)}\n")
    out.append(md_table(data.mrr_by_k, L))
    out.append(f"\n## {_t('abstention', L)}\n\n{_t('abstention_text', L)}\n\n")
    out.append(md_table(data.abstention, L))
    out.append(f"\n## {_t('tests', L)}\n")
    if data.unsettled_note:
        out.append(f"\n> {md_cell(data.unsettled_note)}\n")
    out.append(md_table(data.tests, L))
    if data.test_procedure:
        out.append(f"\n{data.test_procedure}\n")
    out.append(f"\n## {_t('agreement', L)}\n")
    out.append(md_table(data.agreement, L))
    if data.agreement_notes:
        out.append(
            "\n" + "\n".join(f"- ({i}) {md_cell(note)}" for i, note in enumerate(data.agreement_notes, 1)) + "\n"
        )
    out.append(f"\n## {_t('failures', L, k=data.k)}\n")
    out.append(md_table(data.failures, L))
    if data.wordings is not None and not data.wordings.empty:
        out.append(f"\n## {_t('wordings', L)}\n\n{_t('wordings_text', L)}\n\n")
        out.append(md_table(data.wordings, L))
    out.append(judge_tables.markdown(data.model_judge))
    out.append(report_answers.markdown(data.answer_review))
    return "\n".join(out)


def _chart_svg(frame: pd.DataFrame, title: str) -> str:
    if frame.empty:
        return ""
    import vl_convert as vlc
    from reljudge.reporting.charts import means_with_intervals

    return vlc.vegalite_to_svg(means_with_intervals(frame, title).to_json())


# Korean breaks between any two syllables unless told otherwise: keep-all keeps words
# whole, so a narrow column wraps at spaces instead of showing one syllable per line.
# Wide tables scroll on screen; on paper (A4) the type shrinks and rows do not split.
CSS = """body{font-family:'Noto Sans KR','Malgun Gothic',sans-serif;max-width:1200px;margin:2rem auto;padding:0 1rem;color:#222}
.wide{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;font-size:.85rem}th,td{border:1px solid #ccc;padding:.25rem .45rem;text-align:left;vertical-align:top;word-break:keep-all;overflow-wrap:break-word}
th{background:#f3f3f3}.note{background:#fff7e0;padding:.5rem;border-left:4px solid #f0b000}
.footnote,.caption{font-size:.8rem;color:#444;margin:.2rem 0}
@page{size:A4;margin:12mm}
@media print{body{max-width:none;margin:0;padding:0;font-size:9pt}.wide{overflow:visible}
table{font-size:7.5pt;page-break-inside:auto}tr{page-break-inside:avoid}th,td{padding:.1rem .25rem}
h2,h3{page-break-after:avoid}svg{max-width:100%;height:auto}}"""


def render_html(data: ReportData) -> str:
    L = data.lang
    parts = [
        f"<!doctype html><html lang='{L}'><head><meta charset='utf-8'><title>{html.escape(_t('title', L))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{html.escape(_t('title', L))}</h1><p>{_t('generated', L)}: {html.escape(data.generated)}</p>",
    ]
    if data.is_demo:
        parts.append(f"<p class='note'>{html.escape(_t('sample', L))}</p>")
    parts.append(f"<h2>{_t('setup', L)}</h2>" + html_table(pd.DataFrame(data.setup, columns=["", ""]), L))
    parts.append(
        f"<h2>{html.escape(_t('results', L, k=data.k))}</h2>"
        + html_table(data.results, L)
        + (f"<p class='note'>{html.escape(data.estimates_note)}</p>" if data.estimates_note else "")
        + (f"<p class='note'>{html.escape(data.few_questions_note)}</p>" if data.few_questions_note else "")
    )
    parts.append(f"<h3>{html.escape(_t('chart', L, k=data.k))}</h3>" + _chart_svg(data.chart, f"MRR@{data.k}"))
    parts.append(f"<h2>{_t('mrr_by_k', L)}</h2>" + html_table(data.mrr_by_k, L))
    parts.append(
        f"<h2>{_t('abstention', L)}</h2><p>{html.escape(_t('abstention_text', L))}</p>" + html_table(data.abstention, L)
    )
    parts.append(
        f"<h2>{_t('tests', L)}</h2>"
        + (f"<p>{html.escape(data.unsettled_note)}</p>" if data.unsettled_note else "")
        + html_table(data.tests, L)
        + (f"<p class='caption'>{html.escape(data.test_procedure)}</p>" if data.test_procedure else "")
    )
    parts.append(
        f"<h2>{_t('agreement', L)}</h2>"
        + html_table(data.agreement, L)
        + "".join(
            f"<p class='footnote'>({i}) {html.escape(note)}</p>" for i, note in enumerate(data.agreement_notes, 1)
        )
    )
    parts.append(f"<h2>{html.escape(_t('failures', L, k=data.k))}</h2>" + html_table(data.failures, L))
    if data.wordings is not None and not data.wordings.empty:
        parts.append(
            f"<h2>{html.escape(_t('wordings', L))}</h2><p>{html.escape(_t('wordings_text', L))}</p>"
            + html_table(data.wordings, L)
        )
    parts.append(judge_tables.html(data.model_judge))
    parts.append(report_answers.html(data.answer_review))
    parts.append("</body></html>")
    return "\n".join(parts)


def render(data: ReportData, fmt: str = "md") -> str:
    if fmt == "html":
        return render_html(data)
    if fmt == "md":
        return render_markdown(data)
    raise ValueError(f"unknown report format {fmt!r}; use md or html")
