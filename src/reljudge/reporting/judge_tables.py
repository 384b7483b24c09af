"""The "model vs reference" figures as tables, for the Agreement page's panel and the report's
section (reljudge.judges.calibration computes them). The reference is any policy: the
people's (adjudicated, majority, annotator:X) or any source, imported or model
(source:Y). Data only; the words are in i18n."""

from __future__ import annotations

import html as _html
from dataclasses import dataclass, field

import pandas as pd

from reljudge import policy as policies
from reljudge import i18n
from reljudge.policy import source_policy
from reljudge.reporting.render import html_table, md_cell, md_table
from reljudge.storage import judge_sources as store
from reljudge.storage.db import Database

ALL = "all"


def model_sources(db: Database) -> list[str]:
    """The sources a model judge made (imported qrels sources are not among them)."""
    return store.judge_source_names(db)


def reference_choices(db: Database, source: str | None = None) -> list[str]:
    """The policies a model source can be compared with: the live policies and annotators
    an export offers, every source (imported, or a model's), ``source`` itself left out."""
    from reljudge.campaign import export

    choices = [policy for policy, version in export.export_choices(db) if version is None]
    choices += [source_policy(s) for s in model_sources(db) if source_policy(s) not in choices]
    return [c for c in choices if c != source_policy(source)]


def figures_frame(result: dict) -> pd.DataFrame:
    """One row for all pairs, then one per question type: n, exact agreement, linear κ."""
    rows = [(ALL, result["n"], result["exact_agreement"], result["kappa_linear"])]
    rows += [(t, f["n"], f["exact_agreement"], f["kappa_linear"]) for t, f in result["per_type"].items()]
    frame = pd.DataFrame(rows, columns=["qtype", "judged_pairs", "exact_agreement", "kappa_linear"])
    for column in ("exact_agreement", "kappa_linear"):
        frame[column] = frame[column].map(lambda x: None if x is None else round(float(x), 3))
    return frame


def confusion_frame(result: dict) -> pd.DataFrame:
    """Rows: the reference's grade; columns: the model's (``model_0`` …); with its margins:
    the column ``model_sum`` (row sums) and the row ``Σ`` (column sums, and the total).
    Column names are fixed words, never data (a source name is data)."""
    from reljudge.judges.calibration import margins

    m = margins(result["confusion"])
    rows = [list(row) + [m["against"][g]] for g, row in enumerate(result["confusion"])]
    rows.append(list(m["source"]) + [m["total"]])
    return pd.DataFrame(
        rows,
        index=pd.Index(["0", "1", "2", SUM], name="reference_grade"),
        columns=[f"model_{g}" for g in "012"] + ["model_sum"],
    )


SUM = "Σ"


def outcome_frame(result: dict) -> pd.DataFrame:
    """Per measure and system: the figure under the reference and under the model, and
    Kendall's τ-b of the two system rankings (repeated on each of the measure's rows)."""
    rows = []
    for measure, o in result.get("outcome", {}).items():
        tau = None if o["kendall_tau"] is None else round(o["kendall_tau"], 3)
        for system, v in o["systems"].items():
            rows.append((measure, system, _r(v["against"]), _r(v["source"]), tau))
    return pd.DataFrame(rows, columns=["measure", "system", "reference_value", "model_value", "kendall_tau"])


def _r(x):
    return None if x is None else round(float(x), 4)


def info(result: dict, lang: str) -> list[str]:
    """What is compared, which model and prompt, and how the pairs and questions were
    counted (:func:`reljudge.judges.calibration.notes`), as plain text in ``lang``."""
    from reljudge.judges.calibration import notes

    first = i18n.t(
        # the reference in the reader's language (issue 39.9: no English policy sentence in a Korean report)
        "judge_panel_info",
        lang,
        source=result["source"],
        against=policies.qrels_label(result["against"], None, lang),
        n=result["n"],
    )
    second = i18n.t(
        "judge_model_line",
        lang,
        model=result["model"],
        version=result["model_version"],
        sha=result["prompt_sha256"],
        at=result["judged_at"],
    )
    return [first, second, *(i18n.message(m, lang) for m in notes(result))]


def use_note(lang: str) -> str:
    """What a model source is good for (ordering, triage) and what not (absolute values),
    with the figures measured."""
    return i18n.t("judge_model_use", lang)


@dataclass
class Section:
    """The report's "model vs reference" section: one calibration per model source."""

    lang: str
    results: list[dict] = field(default_factory=list)
    against: str = "adjudicated"


def build_section(db: Database, lang: str, against: str = "adjudicated") -> Section | None:
    """Every model source (but ``against``'s own) against ``against``: the report's
    policy, the people's or any source's."""
    from reljudge.judges.calibration import calibrate

    sources = [s for s in model_sources(db) if source_policy(s) != against]
    if not sources:
        return None
    return Section(lang, [calibrate(db, s, against) for s in sources], against)


def markdown(section: Section | None) -> str:
    if section is None:
        return ""
    L = section.lang
    out = [f"\n## {md_cell(i18n.t('judge_report_title', L))}\n\n{md_cell(use_note(L))}\n"]
    for result in section.results:
        lines = "\n\n".join(md_cell(line) for line in info(result, L))
        out.append(f"\n### {md_cell(result['source'])}\n\n{lines}\n")
        out.append(md_table(figures_frame(result), L))
        out.append(f"\n{md_cell(i18n.t('judge_confusion', L))}\n")
        out.append(md_table(confusion_frame(result).reset_index(), L))
        out.append(f"\n{md_cell(i18n.t('judge_outcome', L))}\n")
        out.append(md_table(outcome_frame(result), L))
    return "\n".join(out)


def html(section: Section | None) -> str:
    if section is None:
        return ""
    L = section.lang
    e = _html.escape
    parts = [f"<h2>{e(i18n.t('judge_report_title', L))}</h2><p>{e(use_note(L))}</p>"]
    for result in section.results:
        first, *rest = info(result, L)
        parts.append(
            f"<h3>{e(result['source'])}</h3><p>{e(first)}</p>"
            + "".join(f"<p class='caption'>{e(line)}</p>" for line in rest)
        )
        parts.append(html_table(figures_frame(result), L))
        parts.append(f"<p class='caption'>{e(i18n.t('judge_confusion', L))}</p>")
        parts.append(html_table(confusion_frame(result).reset_index(), L))
        parts.append(f"<p class='caption'>{e(i18n.t('judge_outcome', L))}</p>")
        parts.append(html_table(outcome_frame(result), L))
    return "\n".join(parts)
