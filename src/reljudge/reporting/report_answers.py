"""The "답변 검수 / Answer review" section of the dashboard and the report (docs/answer-review.md#답변-검수--answer-review;
methodology §4: "답변의 해석 타당성과 인용 정확도는 사람 검수로 평가한다").

One builder for both: per system × question type and overall, the answer measures
(:mod:`reljudge.review.measures`) with their 95% bootstrap intervals and the number of
answers each rests on; the counts, abstentions apart; the reviewers' agreement
(:func:`reljudge.campaign.team_agreement.reviews_from_database`); the failure cases (sentences that
need a citation and have no supporting one, with their citations and grades); and the
disclosure of how the review was done (who reviewed, how many reviewers per answer,
the policy, what the measures are). Tables hold data; the renderers escape every cell
(the report's own table renderers), so answer text never reaches Markdown or HTML
unescaped.
"""

from __future__ import annotations

import html as _html
from dataclasses import dataclass, field

import pandas as pd

from reljudge.campaign import team_agreement
from reljudge import i18n
from reljudge.agreement import coefficients as agreement
from reljudge.review import measures as answer_metrics
from reljudge.review import decisions
from reljudge.reporting.dashboard import _ci
from reljudge.reporting.render import html_table, md_table
from reljudge.storage import answers as store
from reljudge.storage.db import Database


def _t(key: str, lang: str, **kw) -> str:
    return i18n.t(f"answers_{key}", lang, **kw)


@dataclass
class AnswerReviewSection:
    lang: str
    measures: pd.DataFrame  # system, qtype, n per family, then per measure "mean [lo, hi]"
    counts: pd.DataFrame  # system, qtype, n_answers … n_unreviewed (abstentions apart)
    agreement: pd.DataFrame  # agreement.figures_table of the reviewers, in ``lang``
    pairs: pd.DataFrame  # agreement.pairs_table: Cohen's kappa per reviewer pair (weighted too)
    failures: pd.DataFrame  # system, qid, qtype, sentence (1-based), text, citations
    disclosure: list[tuple[str, str]] = field(default_factory=list)

    def disclosure_frame(self, columns=("aspect", "detail")) -> pd.DataFrame:
        """The disclosure as a two-column table."""
        return pd.DataFrame(self.disclosure, columns=list(columns))


def measures_table(ev: answer_metrics.AnswerEvaluation) -> pd.DataFrame:
    """One row per system × question type ('all' first): each measure as "mean [95%
    interval]" ("—" when no answer has it), and how many answers the support and the
    interpretation figures rest on."""
    m = ev.means
    rows = []
    order = ["all"] + sorted(q for q in m.qtype.unique() if q != "all")
    for qtype in order:
        for system in sorted(m.system.unique()):
            part = m[(m.system == system) & (m.qtype == qtype)].set_index("measure")
            out = {
                "system": system,
                "qtype": qtype,
                "n_support": int(part.loc["support_precision", "n"]),
                "n_interpretation": int(part.loc["interpretation_mean", "n"]),
            }
            for name in answer_metrics.MEASURES:
                r = part.loc[name]
                out[name] = "—" if r["mean"] != r["mean"] else f"{r['mean']:.3f} {_ci(r.ci_low, r.ci_high)}"
            rows.append(out)
    return pd.DataFrame(rows)


def failures_table(ev: answer_metrics.AnswerEvaluation) -> pd.DataFrame:
    """The unsupported sentences: system, qid, qtype, sentence (counted from 1), text,
    citations ("p01 (0), p02 (0)"; empty when the sentence cites nothing)."""
    f = ev.failures
    if f.empty:
        return pd.DataFrame(columns=["system", "qid", "qtype", "sentence", "text", "citations"])
    return pd.DataFrame(
        {
            "system": f.system,
            "qid": f.qid,
            "qtype": f.qtype,
            "sentence": f.sentence + 1,
            "text": f.text,
            "citations": [", ".join(f"{p} ({g})" for p, g in c) or "—" for c in f.citations],
        }
    )


def disclosure(db: Database, ev: answer_metrics.AnswerEvaluation, lang: str) -> list[tuple[str, str]]:
    """How the review was done, as (label, text) rows."""
    per_reviewer, spread = decisions.review_coverage(db)
    who = ", ".join(f"{r.reviewer} ({int(r.n_answers)})" for r in per_reviewer.itertuples()) or "—"
    how_many = (
        ", ".join(
            _t("reviewers_per_answer_item", lang, k=int(r.n_reviewers), n=int(r.n_answers)) for r in spread.itertuples()
        )
        or "—"
    )
    sources = ", ".join(store.review_sources(db)) or "—"
    return [
        (_t("who", lang), _t("who_text", lang, n=len(per_reviewer), who=who)),
        (_t("per_answer", lang), how_many),
        (_t("procedure", lang), _t("procedure_text", lang)),
        (
            _t("policy", lang),
            _t(
                f"policy_{ev.policy}" if ev.policy in ("adjudicated", "majority") else "policy_other",
                lang,
                policy=ev.policy,
            ),
        ),
        (_t("measures", lang), _t("measures_text", lang, rel=ev.threshold)),
        (_t("scope", lang), _t("scope_text", lang)),
        (_t("ci", lang), _t("ci_text", lang, b=ev.n_boot, seed=ev.seed)),
        (_t("sources", lang), _t("sources_text", lang, sources=sources)),
    ]


def build(
    db: Database, lang: str = "ko", n_boot: int = 1000, policy: str = "adjudicated"
) -> AnswerReviewSection | None:
    """The section's tables in ``lang``; None when the campaign has no answers."""
    if store.answer_keys(db).empty:
        return None
    ev = answer_metrics.evaluate_answers(db, policy, n_boot=n_boot)
    agree = team_agreement.reviews_from_database(db)
    return AnswerReviewSection(
        lang,
        i18n.localized_values(measures_table(ev), lang),
        i18n.localized_values(ev.counts, lang),
        i18n.localized_values(agreement.figures_table(agree), lang),
        i18n.localized_values(agreement.pairs_table(agree), lang),
        failures_table(ev),
        disclosure(db, ev, lang),
    )


def markdown(section: AnswerReviewSection | None) -> str:
    """The section in Markdown (every cell escaped by the report's table renderer)."""
    if section is None:
        return ""
    L = section.lang
    out = [
        f"\n## {_t('title', L)}\n",
        md_table(section.disclosure_frame(["", ""]), L),
        f"\n### {_t('means', L)}\n",
        md_table(section.measures, L),
        f"\n### {_t('counts', L)}\n\n{_t('counts_text', L)}\n",
        md_table(section.counts, L),
        f"\n### {_t('agreement', L)}\n",
        md_table(section.agreement, L),
        "\n" + md_table(section.pairs, L),
        f"\n### {_t('failures', L)}\n",
        md_table(section.failures, L),
    ]
    return "\n".join(out)


def html(section: AnswerReviewSection | None) -> str:
    """The section in HTML (every cell escaped by the report's table renderer)."""
    if section is None:
        return ""
    L = section.lang
    esc = _html.escape
    return "".join(
        [
            f"<h2>{esc(_t('title', L))}</h2>",
            html_table(section.disclosure_frame(["", ""]), L),
            f"<h3>{esc(_t('means', L))}</h3>",
            html_table(section.measures, L),
            f"<h3>{esc(_t('counts', L))}</h3><p>{esc(_t('counts_text', L))}</p>",
            html_table(section.counts, L),
            f"<h3>{esc(_t('agreement', L))}</h3>",
            html_table(section.agreement, L),
            html_table(section.pairs, L),
            f"<h3>{esc(_t('failures', L))}</h3>",
            html_table(section.failures, L),
        ]
    )
