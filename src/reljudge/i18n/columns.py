"""What tables mean, in words: the column headers the pages and the report show
(:data:`COLUMNS`, :func:`column_label`), the names of the agreement figures (:data:`FIGURES`,
:func:`figure_name`), and the words for the values of known columns
(:func:`localized_values`: groups, provenance, qrels policy, roles, messages in cells;
:func:`p_text`, :func:`verdict_text`, :func:`not_computed_text`,
:func:`test_procedure`)."""

from __future__ import annotations

from reljudge.codes import Message
from reljudge.i18n.lookup import STRINGS, message, t


# The agreement figures' names, one list: the agreement tables' column headers (COLUMNS) and a
# figure named in a footnote or a reason (figure_name) read them here. English: the column
# headers'; figure_name keeps a figure's English name as the data spells it (cohen_kappa[A|B]).
FIGURES: dict[str, tuple[str, str]] = {
    "percent_agreement": ("일치율", "percent agreement"),
    "cohen_kappa": ("Cohen κ", "Cohen's κ"),
    "cohen_kappa_linear": ("Cohen κ (선형 가중)", "Cohen's κ (linear weights)"),
    "fleiss_kappa": ("Fleiss κ", "Fleiss' κ"),
    "krippendorff_alpha_nominal": ("Krippendorff α (명목)", "Krippendorff's α (nominal)"),
    "krippendorff_alpha_ordinal": ("Krippendorff α (서열)", "Krippendorff's α (ordinal)"),
    "kendall_tau": ("Kendall τ", "Kendall's τ"),
}

# Column headers of the tables the pages show (the data keeps its English names, which
# the CLI, exports and tests use); a column not listed here shows its own name.
COLUMNS: dict[str, tuple[str, str]] = {
    "email": ("이메일", "e-mail"),
    "identity_name": ("조직 계정 이름", "name at the provider"),
    "provider": ("제공자", "provider"),
    "refusals": ("거절 횟수", "refusals"),
    "first_seen": ("처음 온 때", "first seen"),
    "last_seen": ("마지막으로 온 때", "last seen"),
    "gold_judged": ("판정한 골드", "gold judged"),
    "gold_accuracy": ("골드 정확도", "gold accuracy"),
    "gold_kappa": ("골드 대비 가중 카파", "weighted kappa vs gold"),
    "decoys_judged": ("판정한 미끼", "decoys judged"),
    "decoys_failed": ("실패한 미끼", "failed decoys"),
    "flagged": ("표시", "flagged"),
    "reasons": ("이유", "reasons"),
    "origin": ("출처", "origin"),
    "added_by": ("추가한 사람", "added by"),
    "added_at": ("추가한 때", "added"),
    "placed_at": ("놓은 때", "placed"),
    "username": ("사용자", "user"),
    "annotator": ("판정자", "annotator"),
    "role": ("역할", "role"),
    "active": ("활성", "active"),
    "session_id": ("세션", "session"),
    "expires_at": ("만료", "expires"),
    "attempted_at": ("시도한 때", "attempted"),
    "address": ("주소", "address"),
    "created_at": ("만든 때", "created"),
    "created_by": ("만든 사람", "created by"),
    "judgment_events": ("판정 기록 수", "judgment events"),
    "last_judged_at": ("마지막 판정", "last judged"),
    "qid": ("질문 id", "question id"),
    "qtype": ("질문 유형", "question type"),
    "question": ("질문", "question"),
    "pid": ("문단 id", "paragraph id"),
    "text": ("본문", "text"),
    "system": ("시스템", "system"),
    "judged": ("판정한 문단", "judged"),
    "mrr_now": ("지금 MRR", "MRR now"),
    "mrr_if_marked": ("표시하면 MRR", "MRR if marked"),
    "pool_size": ("풀 크기", "pool size"),
    "percent": ("진행률 %", "% done"),
    "finished": ("끝낸 질문", "finished questions"),
    "median_seconds": ("판정당 중앙값(초)", "median s / judgment"),
    "no_answer": ("근거 없음", "no answer"),
    "judgments": ("판정 수", "judgments"),
    "estimate_plan": ("판정 계획", "judging plan"),
    "estimate_hours": ("시간", "hours"),
    "fast": ("너무 빠른 판정", "too fast"),
    "grade_decisions": ("등급 결정 횟수 (바꾼 것 포함)", "grade decisions (changes included)"),
    "fast_percent": ("너무 빠른 비율 %", "too fast %"),
    "n_judgments": ("판정 수", "judgments"),
    "n_questions": ("질문 수", "questions"),
    "share_0": ("0점 비율", "share of 0"),
    "share_1": ("1점 비율", "share of 1"),
    "share_2": ("2점 비율", "share of 2"),
    "n_verdicts": ("질문 판정 수", "question verdicts"),
    "n_no_answer": ("근거 없음 수", "no-answer"),
    "contested": ("2점 문단과 충돌", "against a citable grade"),
    "no_answer_rate": ("근거 없음 비율", "no-answer rate"),
    "scope": ("범위", "scope"),
    "rating": ("대상", "rating"),
    "annotators": ("판정자 수", "annotators"),
    "items_2plus": ("2명 이상 판정한 항목", "items with 2+ ratings"),
    "percent_agreement": FIGURES["percent_agreement"],
    "cohen_kappa_mean": ("Cohen κ 평균", "Cohen's κ (mean)"),
    "fleiss_kappa": FIGURES["fleiss_kappa"],
    "fleiss_items": ("Fleiss 항목 수", "Fleiss items"),
    "alpha_nominal": FIGURES["krippendorff_alpha_nominal"],
    "alpha_ordinal": FIGURES["krippendorff_alpha_ordinal"],
    "not_computed": ("계산하지 못한 이유", "not computed because"),
    "pair": ("판정자 쌍", "pair"),
    "kendall_tau": FIGURES["kendall_tau"],
    "winner": ("1위 시스템 (집계)", "winner (aggregated)"),
    "winner_if_annotator": ("이 판정자만 따를 때 1위", "winner by this annotator alone"),
    "source_file": ("파일", "file"),
    "n_rows": ("행 수", "rows"),
    "n_qrels_rows": ("qrels 행 수 (중복 사본 포함)", "qrels rows (with duplicate copies)"),
    "n_judged": ("판정한 문단 수", "judged paragraphs"),
    "imported_at": ("가져온 때", "imported"),
    "questions": ("질문 수", "questions"),
    "abstained": ("보류한 질문", "abstained"),
    "paragraphs": ("문단 수", "paragraphs"),
    "n": ("질문 수", "questions"),
    "provisional": ("잠정", "provisional"),
    "judged_returned": ("반환된 상위 K 중 판정 비율", "judged share of returned top K"),
    "n_appropriate": ("적절한 보류", "appropriate abstentions"),
    "appropriate_rate": ("적절한 보류율", "appropriate rate"),
    "n_answerable": ("답할 수 있는 질문", "answerable"),
    "n_false": ("잘못된 보류", "false abstentions"),
    "false_rate": ("잘못된 보류율", "false abstention rate"),
    "measure": ("지표", "measure"),
    "system_a": ("시스템 A", "system A"),
    "system_b": ("시스템 B", "system B"),
    "mean_a": ("A 평균", "mean A"),
    "mean_b": ("B 평균", "mean B"),
    "diff": ("차이 (A−B)", "A − B"),
    "p_value": ("p 값", "p"),
    "p_holm": ("p (Holm 보정)", "p (Holm)"),
    "first_pid": ("첫 결과 문단", "first paragraph"),
    "first_grade": ("첫 결과 등급", "its grade"),
    "first_text": ("첫 결과 본문", "its text"),
    "rank": ("순위", "rank"),
    "grade": ("등급", "grade"),
    "provenance": ("출처", "provenance"),
    "version": ("버전", "version"),
    "policy": ("집계 정책", "policy"),
    "note": ("메모", "note"),
    "notes": ("메모", "notes"),
    "evidence": ("근거 문장", "evidence"),
    "event_id": ("기록 번호", "event"),
    "time_spent_ms": ("걸린 시간(ms)", "time spent (ms)"),
    "seconds_spent": ("걸린 시간(초)", "time spent (s)"),
    "previous_grade": ("이전 등급", "previous grade"),
    "assigned_at": ("배정한 때", "assigned"),
    "assigned_by": ("배정한 사람", "assigned by"),
    "n_annotators": ("판정자 수", "annotators"),
    "verdicts": ("근거 없음 판정", "verdicts"),
    "grades": ("등급들", "grades"),
    "lead": ("조정한 책임자", "lead"),
    "ruling": ("조정 결과", "ruling"),
    "reason": ("이유", "reason"),
    "in_force": ("현재 적용", "in force"),
    "adjudication_id": ("조정 번호", "adjudication"),
    "rank 1": ("1위", "rank 1"),
    "top 3": ("상위 3위 안", "top 3"),
    "criteria": ("판정 기준", "criteria"),
    "no_answer_expected": ("근거 없음 예상", "no answer expected"),
    "valid_from": ("적용 시작", "in force from"),
    "replaced_at": ("바뀐 때", "replaced"),
    "replaced_by": ("바꾼 파일", "replaced by"),
    "footnotes": ("주석", "notes"),
    "few_questions": ("질문 적음", "few questions"),
    "answer_id": ("답변 번호", "answer"),
    "kind": ("항목 종류", "item kind"),
    "sentence": ("문장 번호", "sentence"),
    "lo": ("가장 낮은 판정", "lowest"),
    "hi": ("가장 높은 판정", "highest"),
    "n_reviewers": ("검수자 수", "reviewers"),
    "decided": ("지표가 쓰는 판정", "grade used by the measures"),
    "support_precision": ("인용 정밀도 (뒷받침)", "support precision"),
    "support_recall": ("인용 재현율 (뒷받침)", "support recall"),
    "full_support_share": ("충분히 뒷받침된 문장 비율", "fully supported share"),
    "interpretation_valid_share": ("해석 타당 비율", "valid interpretation share"),
    "interpretation_mean": ("해석 타당성 평균", "interpretation mean"),
    "citation_relevance": ("인용 문단 적합 비율", "citation relevance"),
    "n_support": ("뒷받침 지표의 답변 수", "answers (support)"),
    "n_interpretation": ("해석 지표의 답변 수", "answers (interpretation)"),
    "n_answers": ("답변 수", "answers"),
    "n_sentences": ("문장 수", "sentences"),
    "n_pairs": ("인용 쌍 수", "citation pairs"),
    "n_abstained": ("보류", "abstained"),
    "n_abstained_answerable": ("답할 수 있는 질문에서 보류", "abstained, answerable"),
    "n_abstained_no_answer": ("근거 없는 질문에서 보류", "abstained, no-answer"),
    "n_abstention_reviewed": ("보류를 검수한 수", "abstentions reviewed"),
    "n_abstention_appropriate": ("적절한 보류", "appropriate abstentions"),
    "n_unreviewed": ("검수가 덜 된 답변", "not fully reviewed"),
    "cohen_kappa": FIGURES["cohen_kappa"],
    "cohen_kappa_linear": FIGURES["cohen_kappa_linear"],
    "items": ("공통 항목 수", "items"),
    "aspect": ("항목", "aspect"),
    "detail": ("내용", "detail"),
    "citations": ("인용 (뒷받침 등급)", "citations (support grade)"),
    # model vs people (reljudge.reporting.judge_tables)
    "judged_pairs": ("둘 다 판정한 문단 수", "pairs both graded"),
    "exact_agreement": ("완전 일치율", "exact agreement"),
    "kappa_linear": ("선형 가중 κ", "linearly weighted κ"),
    "reference_grade": ("기준 등급", "reference grade"),
    "reference_value": ("기준 qrels", "reference qrels"),
    "model_value": ("모델 qrels", "model qrels"),
    "model_0": ("모델 0", "model 0"),
    "model_1": ("모델 1", "model 1"),
    "model_2": ("모델 2", "model 2"),
    "model_sum": ("합계", "sum"),
}


# The kinds of rating agreement is measured on (the agreement tables' "rating" column, a
# review item's "kind"), on the Korean pages and report.
_RATINGS_KO = {
    "grades": "문단 판정",
    "no_answer": "근거 없음 판정",
    "support": "뒷받침 (문장 × 인용)",
    "interpretation": "해석 타당성",
}


def verdict_text(no_answer: bool, lang: str = "ko") -> str:
    """A question-level verdict in words: "근거 없음" / "근거 있음"."""
    return t("ruling_no_answer" if no_answer else "ruling_has_answer", lang)


def localized_values(frame, lang: str = "ko", booleans: bool = False):
    """A copy of ``frame`` whose English data values read in ``lang``: the overall
    group "all" (``qtype``, ``scope``), provenance, qrels policy, account roles, the
    agreement rating kind, the reasons a figure is missing (``not_computed`` messages),
    any cell holding a library message (or a tuple of them, joined by " · ") and
    (``booleans``) True/False. The data keeps English and codes for the CLI and
    exports; pages and reports show this."""

    def by_key(prefix: str, fallback=lambda v: v):
        return lambda v: t(f"{prefix}{v}", lang) if f"{prefix}{v}" in STRINGS else fallback(v)

    frame = frame.copy()
    for col in ("qtype", "scope"):
        if col in frame.columns:
            frame[col] = frame[col].replace({"all": t("all", lang)})
    if "rating" in frame.columns:
        frame["rating"] = frame["rating"].map(lambda kind: figure_name(kind, lang))
    if "kind" in frame.columns:  # review items: support / interpretation
        frame["kind"] = frame["kind"].map(lambda k: figure_name(k, lang) if k in ("support", "interpretation") else k)
    if "not_computed" in frame.columns:
        frame["not_computed"] = frame["not_computed"].map(lambda v: not_computed_text(v, lang))
    for col in [c for c in frame.columns if frame[c].dtype == "object"]:  # not pandas 3's str columns
        if frame[col].map(_is_message).any():
            frame[col] = frame[col].map(lambda v: _cell_text(v, lang))
    if "provenance" in frame.columns:
        frame["provenance"] = frame["provenance"].map(by_key("provenance_"))
    if "policy" in frame.columns:
        # a named policy (annotator:NAME, source:NAME) shows as written
        frame["policy"] = frame["policy"].map(by_key("policy_short_"))
    if "role" in frame.columns:
        frame["role"] = frame["role"].map(by_key("role_"))
    if booleans:
        for col in frame.columns:
            if frame[col].dtype == bool:
                frame[col] = frame[col].map({True: t("yes", lang), False: t("no", lang)})
    return frame


def _is_message(value) -> bool:
    return isinstance(value, Message) or (
        isinstance(value, tuple) and bool(value) and all(isinstance(v, Message) for v in value)
    )


def _cell_text(value, lang: str):
    """A table cell in words: a message, or a tuple of messages joined by " · "."""
    if isinstance(value, Message):
        return message(value, lang)
    if _is_message(value):
        return message(value, lang, sep=" · ")
    return value


def not_computed_text(value, lang: str = "ko") -> str:
    """Why figures are missing, in words: a reason message, or a dict {figure: message}
    ("Cohen κ [A|B]: 두 판정자가 …; Fleiss κ: …"); None or an empty dict -> ""."""
    if value is None or isinstance(value, str):
        return value or ""
    if isinstance(value, dict):
        return "; ".join(f"{figure_name(k, lang)}: {message(v, lang)}" for k, v in value.items())
    return message(value, lang)


def test_procedure(used: dict | None, lang: str = "ko") -> str:
    """The sentence stated beside p-values: how they were computed (``used`` is
    ``policies["randomization_test"]["used"]`` of an evaluation; None: no test, "")."""
    if not used:
        return ""
    # the procedure states its own exactness limit (metrics.RandomizationProcedure.describe):
    # the catalog does not reach up into the engine for it
    facts = {k: v for k, v in used.items() if k != "exact_max_n"}
    return t(f"test_procedure_{used['procedure']}", lang, exact=used.get("exact_max_n"), **facts)


def p_text(p: float | None, digits: int = 3) -> str:
    """A p-value as people read it: ``digits`` decimals, and "< 0.001" (never "0.000")
    below what they can show; "—" when no test was run."""
    if p is None or p != p:
        return "—"
    floor = 10.0**-digits
    return f"< {floor:.{digits}f}" if p < floor else f"{p:.{digits}f}"


def figure_name(name: str, lang: str = "ko") -> str:
    """``cohen_kappa[A|B]`` -> ``Cohen κ [A|B]`` (a pair's figure keeps its pair)."""
    if lang == "en":
        return name
    base, bracket, pair = name.partition("[")
    name_ko = FIGURES[base][0] if base in FIGURES else _RATINGS_KO.get(base, base)
    return name_ko + (f" [{pair}" if bracket else "")


def column_label(name: str, lang: str = "ko") -> str:
    """The header a page shows for the column ``name``; measure-derived names
    ("RR@10 95% CI", "not found @10") are translated by their pattern."""
    if name in COLUMNS:
        ko, en = COLUMNS[name]
        return en if lang == "en" else ko
    if lang != "en":
        if name.endswith(" 95% CI"):
            return name[: -len(" 95% CI")] + " 95% 구간"
        if name.startswith("not found @"):
            return name[len("not found @") :] + "위 안에 없음"
        if name.endswith(" bounds"):
            return name[: -len(" bounds")] + " 범위(미판정 반영)"
        if name.endswith(" estimate"):
            return name[: -len(" estimate")] + " 추정 [판정 표본 95% 구간]"
        if name.startswith("open @"):
            return "상위 " + name[len("open @") :] + " 안 미판정"
    elif name.endswith(" estimate"):
        return name + " [95% judging-sample interval]"
    return name
