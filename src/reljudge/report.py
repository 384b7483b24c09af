"""The evaluation report: everything the methodology asks to disclose (seed §3, §5).

Number and types of questions; the relevance criterion and the evidence unit; K,
tie rule, duplicate policy, threshold, qrels version or policy; per system × question
type and overall: MRR with its interval, Recall@K, nDCG@K, P@K, rank-1 / top-3 /
not-found shares, Judged@K; abstention rates; agreement; failure cases with the
question text and what each system returned first. Markdown or self-contained HTML
(charts as inline SVG), Korean by default.
"""

from __future__ import annotations

import datetime as dt
import html
from dataclasses import dataclass

import pandas as pd

from reljudge import agreement, campaign, dashboard, evaluation
from reljudge.storage import evaluation_inputs
from reljudge.storage.db import Database

TEXT = {
    "title": ("검색 평가 보고서", "Retrieval evaluation report"),
    "generated": ("작성", "Generated"),
    "setup": ("평가 설정", "Evaluation set-up"),
    "questions": ("질문 수와 유형", "Questions and types"),
    "criterion": ("'관련' 판정 기준", "Relevance criterion"),
    "criterion_text": (
        "등급 ≥ {rel}: 질문에 답할 수 있는 원문 근거인지로 판정하며(단순 키워드 일치가 아님), "
        "2 = 직접 인용 가능한 근거, 1 = 관련 있으나 단독 인용 불가, 0 = 관련 없음.",
        "grade ≥ {rel}: whether the paragraph answers the question as citable source text "
        "(not keyword overlap); 2 = directly citable evidence, 1 = related but not citable alone, "
        "0 = not relevant."),
    "unit": ("정답 근거의 단위", "Evidence unit"),
    "unit_text": ("문단 (pool의 항목 하나 = 문단 하나; 같은 본문의 중복 문단은 하나로 묶음)",
                  "paragraph (one pool item = one paragraph; duplicates with the same text collapsed)"),
    "k": ("검색 상한 K", "Cutoffs K"),
    "ties": ("동점 처리 규칙", "Tie rule"),
    "dedup": ("중복 제거 정책", "Duplicate policy"),
    "qrels": ("판정 집합 (qrels)", "Judgments (qrels)"),
    "pool": ("판정 풀", "Judging pool"),
    "pool_text": ("시스템마다 상위 {d}개의 합집합", "union of every system's top {d}"),
    "unjudged": ("미판정 문단", "Unjudged paragraphs"),
    "unjudged_text": ("관련 없음으로 계산 (Judged@K로 잠정 여부 표시)",
                      "counted as not relevant (Judged@K shows how provisional a figure is)"),
    "no_answer": ("근거 없는 질문", "No-answer questions"),
    "no_answer_text": ("{n}개: MRR·Recall·nDCG 평균에서 빼고 따로 보고",
                       "{n}: left out of the MRR/Recall/nDCG means and reported separately"),
    "ci": ("구간", "Intervals"),
    "ci_text": ("질문 단위 퍼센타일 부트스트랩 95% (B = {b}, 모든 시스템에 같은 재표본)",
                "95% percentile bootstrap over questions (B = {b}, same resamples for every system)"),
    "results": ("시스템 × 질문 유형별 결과 (K = {k})", "Results per system × question type (K = {k})"),
    "mrr_by_k": ("K별 MRR (전체)", "MRR at each K (all questions)"),
    "chart": ("MRR@{k}와 95% 구간", "MRR@{k} with 95% intervals"),
    "abstention": ("답변 보류", "Abstention"),
    "abstention_text": ("적절한 보류율 = 근거 없는 질문 중 보류한 비율; 잘못된 보류율 = 답할 수 있는 질문 중 보류한 비율; "
                        "no_answer_rate = 판정자들이 근거 없음으로 판정한 질문의 비율.",
                        "appropriate = share of no-answer questions on which the system abstained; "
                        "false = share of answerable questions on which it abstained; no_answer_rate = "
                        "the annotators' own no-answer rate."),
    "tests": ("시스템 간 차이 검정 (대응 무작위화, Holm 보정)", "Paired randomization tests (Holm)"),
    "agreement": ("판정자 간 일치도", "Inter-annotator agreement"),
    "failures": ("실패 사례: 상위 {k} 안에 인용 가능한 근거가 없는 질문", "Failure cases: no citable paragraph within {k}"),
    "first_returned": ("각 시스템이 처음 돌려준 문단", "What each system returned first"),
    "none": ("없음", "none"),
    "sample": ("예시 자료(가상의 표본)로 만든 보고서입니다.", "This report was made from synthetic sample data."),
}


def _t(key: str, lang: str, **kw) -> str:
    ko, en = TEXT[key]
    s = en if lang == "en" else ko
    return s.format(**kw) if kw else s


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


def build(db: Database, policy: str = "adjudicated", version: int | None = None,
          lang: str = "ko", n_boot: int = 1000) -> ReportData:
    ev = evaluation.evaluate_campaign(db, policy=policy, version=version, n_boot=n_boot, n_perm=10000)
    settings = campaign.settings(db)
    k = max(ev.ks)
    r = ev.result
    qtypes = evaluation_inputs.questions(db).qtype.replace("", "(none)").value_counts().rename_axis(
        "type").reset_index(name="questions")
    setup = [
        (_t("questions", lang), f"{int(qtypes.questions.sum())} — " + ", ".join(
            f"{t} {n}" for t, n in zip(qtypes.type, qtypes.questions))),
        (_t("criterion", lang), _t("criterion_text", lang, rel=ev.threshold)),
        (_t("unit", lang), _t("unit_text", lang)),
        (_t("k", lang), ", ".join(str(x) for x in ev.ks)),
        (_t("ties", lang), r.policies["ties_rule"]),
        (_t("dedup", lang), r.policies["dedup_rule"]),
        (_t("qrels", lang), ev.qrels_label),
        (_t("pool", lang), _t("pool_text", lang, d=settings["pool_depth"])),
        (_t("unjudged", lang), _t("unjudged_text", lang)),
        (_t("no_answer", lang), _t("no_answer_text", lang, n=len(ev.no_answer_qids))),
        (_t("ci", lang), _t("ci_text", lang, b=n_boot)),
    ]
    results = dashboard.summary_table(ev, k)
    means = r.means[(r.means.qtype == "all") & r.means.measure.str.startswith("RR")]
    mrr_by_k = means.assign(K=means.measure.str.extract(r"@(\d+)")[0].astype(int)).pivot_table(
        index="system", columns="K", values="mean").reset_index()
    mrr_by_k.columns = ["system"] + [f"MRR@{c}" for c in mrr_by_k.columns[1:]]
    failures = _failures_with_first(db, ev, k)
    agree = agreement.figures_table(agreement.from_database(db))
    tests = r.tests[r.tests.measure.str.startswith("RR") & r.tests.measure.str.endswith(f"@{k}")]
    is_demo = campaign.is_demo(db)
    return ReportData(lang, dt.datetime.now().strftime("%Y-%m-%d %H:%M"), setup, qtypes, k, results,
                      mrr_by_k, dashboard.chart_frame(ev, k, "RR"), dashboard.abstention_table(ev),
                      tests, agree, failures, is_demo)


def _failures_with_first(db: Database, ev, k: int) -> pd.DataFrame:
    f = dashboard.failure_cases(db, ev, k)
    if f.empty:
        return f
    return f[["qid", "qtype", "question", "system", "first_pid", "first_grade", "first_text"]]


# -- rendering -----------------------------------------------------------------------

def _fmt(v) -> str:
    if v is None or (isinstance(v, float) and v != v) or v is pd.NA:
        return "—"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def _md_cell(v) -> str:
    # Corpus text must stay plain text: escape what Markdown would interpret.
    text = _fmt(v).replace("\n", " ")
    for ch in "\\|*_`[]<>#":
        text = text.replace(ch, "\\" + ch)
    return text


def _md_table(frame: pd.DataFrame) -> str:
    if frame is None or frame.empty:
        return "_—_\n"
    cols = list(frame.columns)
    lines = ["| " + " | ".join(str(c).replace("|", "/") for c in cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


def render_markdown(data: ReportData) -> str:
    L = data.lang
    out = [f"# {_t('title', L)}\n", f"{_t('generated', L)}: {data.generated}\n"]
    if data.is_demo:
        out.append(f"> {_t('sample', L)}\n")
    out.append(f"## {_t('setup', L)}\n")
    out.append(_md_table(pd.DataFrame(data.setup, columns=["", ""])))
    out.append(f"\n## {_t('results', L, k=data.k)}\n")
    out.append(_md_table(data.results))
    out.append(f"\n## {_t('mrr_by_k', L)}\n")
    out.append(_md_table(data.mrr_by_k))
    out.append(f"\n## {_t('abstention', L)}\n\n{_t('abstention_text', L)}\n\n")
    out.append(_md_table(data.abstention))
    out.append(f"\n## {_t('tests', L)}\n")
    out.append(_md_table(data.tests))
    out.append(f"\n## {_t('agreement', L)}\n")
    out.append(_md_table(data.agreement))
    out.append(f"\n## {_t('failures', L, k=data.k)}\n")
    out.append(_md_table(data.failures))
    return "\n".join(out)


def _html_table(frame: pd.DataFrame) -> str:
    if frame is None or frame.empty:
        return "<p>—</p>"
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in row) + "</tr>"
                   for row in frame.itertuples(index=False))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _chart_svg(frame: pd.DataFrame, title: str) -> str:
    if frame.empty:
        return ""
    import vl_convert as vlc
    from reljudge.charts import means_with_intervals
    return vlc.vegalite_to_svg(means_with_intervals(frame, title).to_json())


CSS = """body{font-family:'Noto Sans KR','Malgun Gothic',sans-serif;max-width:1200px;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;font-size:.85rem}th,td{border:1px solid #ccc;padding:.25rem .45rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}.note{background:#fff7e0;padding:.5rem;border-left:4px solid #f0b000}"""


def render_html(data: ReportData) -> str:
    L = data.lang
    parts = [f"<!doctype html><html lang='{L}'><head><meta charset='utf-8'><title>{html.escape(_t('title', L))}</title>",
             f"<style>{CSS}</style></head><body>",
             f"<h1>{html.escape(_t('title', L))}</h1><p>{_t('generated', L)}: {html.escape(data.generated)}</p>"]
    if data.is_demo:
        parts.append(f"<p class='note'>{html.escape(_t('sample', L))}</p>")
    parts.append(f"<h2>{_t('setup', L)}</h2>" + _html_table(pd.DataFrame(data.setup, columns=["", ""])))
    parts.append(f"<h2>{html.escape(_t('results', L, k=data.k))}</h2>" + _html_table(data.results))
    parts.append(f"<h3>{html.escape(_t('chart', L, k=data.k))}</h3>" + _chart_svg(data.chart, f"MRR@{data.k}"))
    parts.append(f"<h2>{_t('mrr_by_k', L)}</h2>" + _html_table(data.mrr_by_k))
    parts.append(f"<h2>{_t('abstention', L)}</h2><p>{html.escape(_t('abstention_text', L))}</p>"
                 + _html_table(data.abstention))
    parts.append(f"<h2>{_t('tests', L)}</h2>" + _html_table(data.tests))
    parts.append(f"<h2>{_t('agreement', L)}</h2>" + _html_table(data.agreement))
    parts.append(f"<h2>{html.escape(_t('failures', L, k=data.k))}</h2>" + _html_table(data.failures))
    parts.append("</body></html>")
    return "\n".join(parts)


def render(data: ReportData, fmt: str = "md") -> str:
    if fmt == "html":
        return render_html(data)
    if fmt == "md":
        return render_markdown(data)
    raise ValueError(f"unknown report format {fmt!r}; use md or html")
