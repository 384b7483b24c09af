"""The evaluation report's texts (reljudge.reporting.report, report_answers): its sections,
the set-up it states, the test procedure beside every table of p-values, and the answer
review section the dashboard shows too. ``{key: (Korean, English)}``, looked up by
:func:`reljudge.i18n.t`."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # the judging set-up the report states: paragraph highlighting, quality control
    "report_highlight": ("문단 강조", "Paragraph highlighting"),
    "report_highlight_on": (
        "질문의 내용어를 문단에 표시함 (kiwipiepy 형태소)",
        "the question's content words marked (kiwipiepy morphemes)",
    ),
    "report_highlight_off": ("사용 안 함", "not used"),
    "report_quality": ("품질 관리 (골드·미끼)", "Quality control (gold items, decoys)"),
    "report_quality_none": ("사용 안 함 (골드 항목도 미끼도 없음)", "not used (no gold item, no decoy)"),
    "report_quality_text": (
        "골드 항목 {n_gold}개(가져옴 {n_import}, 조정 {n_adjudication}, 자동 승격 {n_promoted}; 자동 승격 {auto}); "
        "미끼 {n_decoys}개(비율 {rate}, 시드 {seed}; 기대 등급 0, qrels·지표·일치도·조정·내보낸 qrels·풀 크기·진행에서 "
        "제외); 표시 기준: 골드 {min_gold}개 이상에서 정확도 {min_accuracy} 미만, 또는 미끼 실패 {max_failed}개 이상. "
        "판정자별: {people}",
        "{n_gold} gold item(s) (imported {n_import}, adjudication {n_adjudication}, promoted {n_promoted}; "
        "auto-promotion {auto}); {n_decoys} decoy(s) (rate {rate}, seed {seed}; expected grade 0, left out of "
        "qrels, metrics, agreement, adjudication, qrels exports, pool size and progress); flagged when gold "
        "accuracy < {min_accuracy} after at least {min_gold} gold items, or at least {max_failed} failed decoys. "
        "Per annotator: {people}",
    ),
    "report_quality_person": (
        "{name} — 골드 {gold_judged}개 정확도 {accuracy}, 가중 카파 {kappa}; 미끼 {decoys_failed}/{decoys_judged} 실패{flag}",
        "{name} — gold {gold_judged}, accuracy {accuracy}, weighted kappa {kappa}; decoys failed "
        "{decoys_failed}/{decoys_judged}{flag}",
    ),
    "report_quality_flagged": (" (표시됨: {reasons})", " (flagged: {reasons})"),
    "report_on": ("켜짐", "on"),
    "report_off": ("꺼짐", "off"),
    # dashboard
    "report_lang": ("보고서 언어", "Report language"),
    # report
    "report_title": ("검색 평가 보고서", "Retrieval evaluation report"),
    "report_generated": ("작성", "Generated"),
    "report_setup": ("평가 설정", "Evaluation set-up"),
    "report_questions": ("질문 수와 유형", "Questions and types"),
    "report_criterion": ("'관련' 판정 기준", "Relevance criterion"),
    "report_criterion_text": (
        "등급 ≥ {rel}: 질문에 답할 수 있는 원문 근거인지로 판정하며(단순 키워드 일치가 아님), "
        "2 = 직접 인용 가능한 근거, 1 = 관련 있으나 단독 인용 불가, 0 = 관련 없음.",
        "grade ≥ {rel}: whether the paragraph answers the question as citable source text "
        "(not keyword overlap); 2 = directly citable evidence, 1 = related but not citable alone, "
        "0 = not relevant.",
    ),
    "report_unit": ("정답 근거의 단위", "Evidence unit"),
    "report_unit_text": (
        "문단 (pool의 항목 하나 = 문단 하나; 같은 본문의 중복 문단은 하나로 묶음)",
        "paragraph (one pool item = one paragraph; duplicates with the same text collapsed)",
    ),
    "report_k": ("검색 상한 K", "Cutoffs K"),
    "report_evaluated": ("평가에 쓴 질문", "Questions evaluated"),
    "report_evaluated_text": (
        "판정이 있는 질문 중 답할 수 있는 {a}개로 평균을 냄 (근거 없는 질문 {n}개는 따로 보고; "
        "판정이 없는 질문은 빠짐)",
        "means over the {a} answerable questions that have judgments ({n} no-answer "
        "questions reported apart; questions without judgments left out)",
    ),
    "report_ties": ("동점 처리 규칙", "Tie rule"),
    "report_dedup": ("중복 제거 정책", "Duplicate policy"),
    "report_qrels": ("판정 집합 (qrels)", "Judgments (qrels)"),
    "report_pool": ("판정 풀", "Judging pool"),
    "report_pool_text": ("시스템마다 상위 {d}개의 합집합", "union of every system's top {d}"),
    "report_plan": ("판정 계획", "Judging plan"),
    "report_plan_complete": (
        "전체 판정: 판정자마다 풀의 모든 문단",
        "complete: every pooled paragraph, for every annotator",
    ),
    "report_plan_rr_first": (
        "RR@{k} 먼저: 질문마다 어떤 시스템의 RR@{k}(관련 = 등급 ≥ {rel})를 아직 바꿀 수 있는 문단만 "
        "판정하고, 모든 시스템의 RR@{k}가 확정되면 그 질문을 끝냄. 그래서 다른 측정(Recall, nDCG 등)은 "
        "범위가 넓게 남을 수 있습니다",
        "rr-first: per question only the paragraphs that could still change some system's "
        "RR@{k} (relevant = grade ≥ {rel}) were judged, and a question ended once every system's "
        "RR@{k} was settled; other measures (Recall, nDCG, …) may therefore keep wide bounds",
    ),
    "report_plan_sample": (
        "표본: 질문마다 풀에서 비율 {rate}로 무작위로 뽑은 문단(층별, 시드 {seed}, 판정 전에 한 번)만 판정; Recall, nDCG, "
        "P, AP는 추정값입니다 (docs/sampling.md)",
        "sample: per question only a random sample of {rate} of the pool was judged (stratified, seed {seed}, drawn "
        "once before judging); Recall, nDCG, P and AP are estimates (docs/sampling.md)",
    ),
    "report_plan_then_sample": (
        "; 그리고 풀에서 비율 {rate}로 무작위로 뽑은 문단도 (층별, 시드 {seed}, 판정 전에 한 번)",
        "; and a random sample of {rate} of the pool (stratified, seed {seed}, drawn once before judging)",
    ),
    "report_plan_then_rest": (
        "; 그 뒤 나머지 문단도 (여러 시스템 상위의 문단부터)",
        "; then the rest of the pool (paragraphs high in many systems first)",
    ),
    "report_estimates": ("표본 추정", "Sampling estimates"),
    "report_estimates_text": (
        "{measures}은(는) 판정 계획의 무작위 표본으로 추정한 값입니다 (docs/sampling.md). 설계: 질문마다 판정 전에 한 번, "
        "풀 전체에서 비율 {rate}, 시드 {seed}; 문단의 최고 순위로 나눈 층(≤ 1, ≤ 2, ≤ 3, ≤ 5, ≤ 10, 그 아래, 순위 없음; "
        "층마다 두 개 이상 뽑히도록 이웃 층을 합침; 질문당 평균 {strata}개 층) 안에서 단순 무작위 비복원 추출. 질문 "
        "{questions}개에서 풀 문단 {pooled}개 중 {drawn}개({drawn_share})를 뽑았고 그중 {drawn_judged}개가 판정됨; 판정한 "
        "풀 비율 {share}. 확실한 것으로 넘긴 문단: {known}. 추정: Horvitz–Thompson 합과 그 비율(R, nDCG, AP: 거의 "
        "치우치지 않음, 잭나이프 보정), 범위 안으로 자름. 구간: 95% 판정 표본 구간(층별 잭나이프) — 이 질문들을 풀 "
        "전체 판정했을 때의 값이 어디쯤일지; 문항 표본의 부트스트랩 구간과는 다름",
        "{measures} are estimated from the judging plan's random sample (docs/sampling.md). Design: per question, "
        "once before judging, from the whole pool at rate {rate}, seed {seed}; strata by an item's best rank (≤ 1, "
        "≤ 2, ≤ 3, ≤ 5, ≤ 10, below, unranked; adjacent strata merged so that each holds two draws; {strata} "
        "strata per question on average), simple random sampling without replacement within each. {drawn} of "
        "the {pooled} pooled items of {questions} questions drawn ({drawn_share}), {drawn_judged} of them "
        "judged; share of the pool judged {share}. Taken as certain: {known}. Estimators: Horvitz–Thompson totals "
        "and their ratios (R, nDCG, AP: nearly unbiased, jackknife-corrected), clipped into the bounds. Interval: "
        "the 95% judging-sample interval (stratified jackknife) — where the value a full judging of these "
        "questions would give may lie; not the bootstrap interval of the question sample",
    ),
    "report_estimates_known_rr_first": (
        "rr-first의 최소 집합(등급이 RR@K를 확정한 시스템마다 K 안에서 첫 관련 문단까지)",
        "rr-first's least set (for every system whose RR@K the grades settle, its items within K down to the "
        "first relevant one)",
    ),
    "report_estimates_known_none": ("없음 (풀 전체가 판정된 질문만)", "none (only fully judged pools)"),
    "report_estimates_out_of_date": (
        "뽑은 뒤 풀을 다시 만든 질문은 추정하지 않음: {qids}.",
        "Questions whose pool was rebuilt after the draw get no estimate: {qids}.",
    ),
    "report_estimates_note": (
        "추정된 값: {measures}. '… 추정' 열이 표본의 추정값과 95% 판정 표본 구간이고(풀 전체가 판정된 질문은 정확한 "
        "값), 그 옆의 값과 범위는 판정한 것만으로 셈한 값(미판정 = 관련 없음)과 그 값이 움직일 수 있는 구간입니다. "
        "MRR 등 다른 값은 추정하지 않습니다.",
        "Estimated: {measures}. The '… estimate' columns give the sample's estimate and its 95% judging-sample "
        "interval (exact on fully judged questions); the value and bounds beside them are the judged figure "
        "(unjudged = not relevant) and where it can still go. MRR and the other figures are not estimated.",
    ),
    "report_pool_judged": ("판정한 풀 비율", "Share of the pool judged"),
    "report_pool_judged_text": (
        "{judged}/{size}개 ({share}); 판정이 아직 없는 질문 {q}개. 결과 표의 '범위'는 미판정 문단이 "
        "어떤 등급을 받더라도 값이 들어갈 구간이고, '= 값'만 확정된 값입니다",
        "{judged}/{size} ({share}); {q} questions not judged yet. The results' 'bounds' are "
        "where a figure can still go whatever grades the unjudged paragraphs get; only "
        "'= value' is settled",
    ),
    "report_unsettled_tests": (
        "주의: 아래 구간과 검정은 아직 확정되지 않은 값에 기댑니다({measures}): 미판정 문단을 판정하면 "
        "바뀔 수 있습니다.",
        "Caution: the intervals and tests below rest on figures not yet settled ({measures}): "
        "judging the unjudged paragraphs can change them.",
    ),
    "report_measures": ("측정 정의", "Measure definitions (reljudge.eval.measures)"),
    "report_unjudged": ("미판정 문단", "Unjudged paragraphs"),
    "report_unjudged_text": (
        "관련 없음으로 계산 (Judged@K로 잠정 여부 표시)",
        "counted as not relevant (Judged@K shows how provisional a figure is)",
    ),
    "report_no_answer": ("근거 없는 질문", "No-answer questions"),
    "report_no_answer_text": (
        "{n}개: MRR·Recall·nDCG 평균에서 빼고 따로 보고",
        "{n}: left out of the MRR/Recall/nDCG means and reported separately",
    ),
    "report_ci": ("구간", "Intervals"),
    "report_ci_text": (
        "질문 단위 퍼센타일 부트스트랩 95% (B = {b}, 모든 시스템에 같은 재표본)",
        "95% percentile bootstrap over questions (B = {b}, same resamples for every system)",
    ),
    "report_test": ("검정", "Tests"),
    "report_test_text": (
        "대응 무작위화(부호 뒤집기) 양측 검정: 질문이 {exact}개 이하면 2^n가지 부호를 모두 세는 정확한 p, "
        "그보다 많으면 무작위 {r}회(시드 {seed}); 각 지표의 시스템 쌍마다 Holm 보정 (대시보드·CLI와 같은 절차)",
        "paired randomization (sign-flip), two-sided: exact over all 2^n sign patterns up to "
        "{exact} questions, else {r} random flips (seed {seed}); Holm over the system pairs of each measure "
        "(the same procedure as the dashboard and the CLI)",
    ),
    # beside every table of p-values (dashboard, report; the CLI prints the English)
    "test_procedure_exact": (
        "p 값: 질문 {n}개의 부호 조합 2^{n} = {patterns:,}가지를 모두 센 정확한 대응 무작위화 검정(양측); "
        "Holm 보정은 지표마다 시스템 쌍에 대해",
        "p: exact paired randomization test over all 2^{n} = {patterns:,} sign patterns of "
        "{n} questions (two-sided); Holm over the system pairs of each measure",
    ),
    "test_procedure_sampled": (
        "p 값: 질문 {n}개에 무작위 부호 뒤집기 {permutations:,}회(시드 {seed})로 구한 대응 무작위화 "
        "검정(양측; 질문이 {exact}개 이하면 모든 부호 조합을 세는 정확 검정); "
        "Holm 보정은 지표마다 시스템 쌍에 대해",
        "p: paired randomization test with {permutations:,} random sign flips of {n} questions "
        "(seed {seed}; exact over all sign patterns up to {exact} questions), two-sided; "
        "Holm over the system pairs of each measure",
    ),
    "report_bundle": ("재현 번들", "Reproducibility bundle"),
    "report_bundle_text": (
        "bundle_sha256 {h}: 같은 자료로 `{cmd}`를 실행하면 번들의 manifest.json에 같은 값이 적힙니다 "
        "(REPRODUCE.md에 모든 수치를 내는 명령)",
        "bundle_sha256 {h}: `{cmd}` on the same data writes this value into the bundle's "
        "manifest.json (REPRODUCE.md has the trec_eval command for every number)",
    ),
    "report_results": ("시스템 × 질문 유형별 결과 (K = {k})", "Results per system × question type (K = {k})"),
    "report_mrr_by_k": ("K별 MRR (전체)", "MRR at each K (all questions)"),
    "report_chart": ("MRR@{k}와 95% 구간", "MRR@{k} with 95% intervals"),
    "report_abstention": ("답변 보류", "Abstention"),
    "report_abstention_text": (
        "적절한 보류율 = 근거 없는 질문 중 보류한 비율; 잘못된 보류율 = 답할 수 있는 질문 중 보류한 비율; "
        "근거 없음 비율 = 판정자들이 근거 없음으로 판정한 질문의 비율.",
        "appropriate = share of no-answer questions on which the system abstained; "
        "false = share of answerable questions on which it abstained; no_answer_rate = "
        "the annotators' own no-answer rate.",
    ),
    "report_tests": ("시스템 간 차이 검정 (대응 무작위화, Holm 보정)", "Paired randomization tests (Holm)"),
    "report_agreement": ("판정자 간 일치도", "Inter-annotator agreement"),
    "report_failures": (
        "실패 사례: 상위 {k} 안에 인용 가능한 근거가 없는 질문",
        "Failure cases: no citable paragraph within {k}",
    ),
    "report_wordings": (
        "판정 뒤에 바뀐 질문: 어느 문구로 판정했는가",
        "Questions changed after judging began: which wording was judged",
    ),
    "report_wordings_text": (
        "질문의 모든 문구(버전)와, 그 문구가 적용되던 동안 남긴 판정 기록 수입니다.",
        "Every wording (version) of each such question, with the judgment events made while it was in force.",
    ),
    "report_first_returned": ("각 시스템이 처음 돌려준 문단", "What each system returned first"),
    "report_none": ("없음", "none"),
    "report_sample": (
        "예시 자료(가상의 표본)로 만든 보고서입니다.",
        "This report was made from synthetic sample data.",
    ),
    "report_ties_trec10": (
        "trec_eval 10 규칙: 점수 내림차순(trec_eval 10.0처럼 double로 비교), 동점이면 문단 id 내림차순(바이트 순서); 점수가 없는 행만 순위 열 사용",
        "trec_eval 10 rule: score descending (compared as double, as trec_eval 10.0), then paragraph id descending (byte order); the rank column only for rows without a score",
    ),
    "report_ties_trec9": (
        "trec_eval 9 규칙: 점수 내림차순(trec_eval 9.x·pytrec_eval처럼 float32로 비교), 동점이면 문단 id 내림차순(바이트 순서); 점수가 없는 행만 순위 열 사용",
        "trec_eval 9 rule: score descending (compared as float32, as trec_eval 9.x and pytrec_eval), then paragraph id descending (byte order); the rank column only for rows without a score",
    ),
    "report_ties_ranked": (
        "run의 순위 열(as ranked); 같은 순위면 점수 내림차순, 그다음 id 내림차순",
        "the run's rank column (as ranked); score descending, then id descending, break ties",
    ),
    "report_dedup_first": (
        "첫 사본만 인정: 같은 id 또는 같은 정규화 본문의 뒤 사본은 빼고 순위를 당김",
        "first copy counts: later copies (same id or same normalised text) removed and ranks closed up",
    ),
    "report_dedup_keep": (
        "모든 사본을 각자의 순위에서 셈; 판정된 문단의 사본마다 그 등급을 주어 재현율 분모와 이상적 순위에도 셈 (원래 id로 trec_eval)",
        "every copy counts at its own rank and carries its group's grade, also in the recall base "
        "and the ideal ranking (trec_eval on the raw ids)",
    ),
    "report_policy_adjudicated": (
        "현재 판정 — 조정한 등급, 없으면 다수결, 동수면 낮은 등급",
        "live judgments — adjudicated grade if any, else majority, else the lower tied grade",
    ),
    "report_policy_majority": (
        "현재 판정 — 다수결, 동수면 낮은 등급 (조정 무시)",
        "live judgments — majority grade, else the lower tied grade (adjudications ignored)",
    ),
    "report_left_out": (" (이번 계산에서 뺀 판정자: {names})", " (left out of these figures: {names})"),
    "report_nobody": ("없음 — 표시된 판정자가 없습니다", "nobody — no annotator is flagged"),
    "report_policy_version": ("동결된 qrels 버전 {v}", "frozen qrels version {v}"),
    # the "answer review" section of the dashboard and the report (reljudge.reporting.report_answers)
    "answers_title": ("답변 검수", "Answer review"),
    "answers_none": (
        "가져온 답변이 없습니다 (자료 가져오기 화면이나 명령줄에서 답변 파일을 가져오면 여기에 나타납니다).",
        "No answers imported (the Import page, or reljudge import answers).",
    ),
    "answers_who": ("검수자", "Reviewers"),
    "answers_who_text": ("{n}명: {who} (괄호: 검수한 답변 수)", "{n}: {who} (answers reviewed)"),
    "answers_per_answer": ("답변당 검수자 수", "Reviewers per answer"),
    "answers_reviewers_per_answer_item": ("{k}명 {n}개", "{k} reviewer(s): {n} answers"),
    "answers_procedure": ("검수 방법", "How answers were reviewed"),
    "answers_procedure_text": (
        "답변마다 문장 단위로, 문장이 인용한 문단(전문)과 대조해 뒷받침을 2 충분 · 1 부분 · 0 없음으로 판정하고, "
        "인용이 필요 없는 문장(인사, 연결)을 표시하고, 답변 전체의 해석 타당성을 2 · 1 · 0으로 판정함. "
        "시스템 이름 없이, 질문마다 검수자별 고정 무작위 순서로.",
        "Each answer sentence by sentence against the paragraphs it cites (full text): support 2 full · "
        "1 partial · 0 none; sentences that need no citation (greetings, transitions) marked; the whole answer's "
        "interpretation 2 · 1 · 0. Blind (no system name), answers of a question in a fixed random order per reviewer.",
    ),
    "answers_policy": ("여러 검수자 → 하나의 판정", "Several reviewers → one decision"),
    "answers_policy_adjudicated": (
        "책임자가 조정한 판정, 없으면 항목별 다수결, 동수면 엄격한 쪽(낮은 등급)",
        "the lead's ruling if any; else the majority per item; a tie goes to the stricter reading (the lower grade)",
    ),
    "answers_policy_majority": (
        "항목별 다수결, 동수면 엄격한 쪽(낮은 등급); 조정은 쓰지 않음",
        "the majority per item; a tie goes to the lower grade; rulings ignored",
    ),
    "answers_policy_other": ("{policy}", "{policy}"),
    "answers_measures": ("지표", "Measures"),
    "answers_measures_text": (
        "인용 정밀도(뒷받침): 모든 (문장, 인용) 쌍의 s 평균(충분 1, 부분 0.5, 없음 0; TREC 2024 RAG); "
        "인용 재현율(뒷받침): 인용이 필요한 문장마다 인용 중 가장 큰 s의 평균(인용 없음 0); 충분히 뒷받침된 문장 비율; "
        "해석 타당 비율(해석 2); 해석 타당성 평균(0–2); 인용 문단 적합 비율: 인용한 문단 중 qrels 등급 ≥ {rel}인 비율"
        "(자동). 답변마다 계산해 답변에 대해 평균.",
        "support_precision: mean s over the (sentence, citation) pairs (full 1, partial 0.5, none 0; TREC 2024 RAG); "
        "support_recall: mean over sentences that need a citation of their best s (0 without a citation); "
        "full_support_share: share of those sentences fully supported; interpretation_valid_share: share "
        "interpreted 2; interpretation_mean: mean interpretation (0–2); citation_relevance: share of cited "
        "paragraphs with a qrels grade ≥ {rel} (automatic). Per answer, then the mean over answers.",
    ),
    "answers_scope": ("대상", "Answers counted"),
    "answers_scope_text": (
        "각 시스템의 현재 버전, 답할 수 있는 질문만; 시스템이 보류한 답변은 평균에서 빼고 따로 셈; "
        "모든 인용이 검수되지 않은 답변은 뒷받침 지표에서 빠짐(n이 그 수를 밝힘).",
        "Each system's current version, answerable questions only; answers the system abstained on are left out "
        "of the means and counted apart; an answer enters the support figures once all its citations are reviewed "
        "(n says how many).",
    ),
    "answers_ci": ("신뢰 구간", "Intervals"),
    "answers_ci_text": (
        "답변 단위 백분위 부트스트랩 95%, {b}번, 시드 {seed}",
        "95% percentile bootstrap over answers, {b} resamples, seed {seed}",
    ),
    "answers_sources": ("가져온 검수 출처", "Imported review sources"),
    "answers_sources_text": (
        "{sources} (일치도에만, 출처 이름의 검수자 한 명으로 들어감)",
        "{sources} (in agreement only, as raters source:NAME)",
    ),
    "answers_means": ("시스템 × 질문 유형별 지표 (95% 구간)", "Measures per system × question type (95% intervals)"),
    "answers_counts": ("답변 수와 답변 보류", "Counts and abstentions"),
    "answers_counts_text": (
        "보류한 답변은 평균에서 빠지고 여기서 따로 셉니다(적절하다고 검수된 수 포함).",
        "Abstentions are left out of the means and counted here (with how many reviewers found appropriate).",
    ),
    "answers_agreement": ("검수자 간 일치도 (뒷받침, 해석)", "Reviewer agreement (support, interpretation)"),
    # model judge (reljudge.judges): never shown to annotators
    "report_plan_model_order": (
        "질문마다 문단을 모델 판정 출처 {source}의 등급이 높은 것부터 보여 주었습니다(판정자에게 등급은 보이지 않음).",
        "Each question's paragraphs were shown ordered by model source {source}, most likely relevant first "
        "(its grades were not shown to annotators).",
    ),
}
