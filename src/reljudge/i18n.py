"""Every visible UI string, Korean first, English second — kept in one place."""

from __future__ import annotations

LANGS = ("ko", "en")

STRINGS: dict[str, tuple[str, str]] = {
    # app / login
    "app_title": ("reljudge — 검색 근거 판정", "reljudge — relevance judgments"),
    "login_title": ("로그인", "Log in"),
    "username": ("사용자 이름", "Username"),
    "password": ("비밀번호", "Password"),
    "login_button": ("로그인", "Log in"),
    "login_failed": ("사용자 이름 또는 비밀번호가 맞지 않습니다.", "Wrong username or password."),
    "logout": ("로그아웃", "Log out"),
    "logged_in_as": ("{user} ({role}) 로그인됨", "Logged in as {user} ({role})"),
    "role_lead": ("책임자", "lead"),
    "role_annotator": ("판정자", "annotator"),
    "demo_notice": (
        "예시 캠페인(가상의 표본 자료)이 들어 있습니다. 예시 계정: {accounts}",
        "A demo campaign (synthetic sample data) is loaded. Demo accounts: {accounts}"),
    "english": ("English", "English"),
    "forbidden": ("이 화면을 볼 권한이 없습니다.", "You are not allowed to see this page."),
    "not_logged_in": ("먼저 로그인하세요.", "Please log in first."),
    "db_locked": ("데이터베이스를 열 수 없습니다: {error}", "Cannot open the database: {error}"),
    # navigation
    "nav_judge": ("판정하기", "Judge"),
    "nav_overview": ("진행 현황", "Progress"),
    "nav_import": ("자료 가져오기", "Import data"),
    "nav_users": ("사용자 관리", "Users"),
    "nav_audit": ("판정 이력", "Audit"),
    # judging
    "judge_title": ("근거 판정", "Relevance judging"),
    "no_questions": ("판정할 질문이 없습니다. 책임자가 자료를 가져와야 합니다.",
                     "No questions to judge yet: a lead must import data first."),
    "question_n": ("질문 {i} / {n}", "Question {i} / {n}"),
    "type": ("유형", "Type"),
    "criteria": ("판정 기준", "Criteria"),
    "grade2": ("2 직접 인용 가능한 근거", "2 directly citable evidence"),
    "grade1": ("1 관련 있으나 단독 인용 불가", "1 related, not citable alone"),
    "grade0": ("0 관련 없음", "0 not relevant"),
    "ungraded": ("미판정", "not judged"),
    "no_answer": ("이 결과에 근거 없음", "No answer in these results"),
    "note": ("메모", "Note"),
    "evidence": ("근거 문장 (2점일 때)", "Evidence sentence (grade 2)"),
    "context_prev": ("앞 문단", "Previous paragraph"),
    "context_next": ("뒤 문단", "Next paragraph"),
    "no_context": ("(같은 문서의 앞뒤 문단 없음)", "(no neighbouring paragraph)"),
    "copies": ("중복 {n}건을 하나로 묶음", "{n} duplicate copies collapsed"),
    "progress_q": ("이 질문 {j}/{t}", "this question {j}/{t}"),
    "progress_all": ("전체 {j}/{t} ({p}%)", "overall {j}/{t} ({p}%)"),
    "questions_done": ("완료한 질문 {d}/{n}", "questions done {d}/{n}"),
    "saving": ("저장 중…", "saving…"),
    "saved": ("모두 저장됨", "all saved"),
    "offline": ("저장 대기 {n}건 — 연결되면 자동으로 다시 보냅니다", "{n} waiting to be saved — resent automatically"),
    "shortcuts": (
        "단축키 — ↓/J 다음 문단 · ↑/K 이전 문단 · 2/1/0 판정 · Backspace 판정 지우기 · "
        "C 앞뒤 문단 보기 · E 메모·근거 문장 · N 근거 없음 표시 · Enter/] 다음 질문 · [ 이전 질문 · "
        "U 다음 미완료 질문",
        "Keys — ↓/J next paragraph · ↑/K previous · 2/1/0 grade · Backspace clear · "
        "C neighbouring paragraphs · E note & evidence · N no answer · Enter/] next question · "
        "[ previous question · U next unfinished question"),
    "prev_q": ("◀ 이전 질문", "◀ Previous"),
    "next_q": ("다음 질문 ▶", "Next ▶"),
    "next_open": ("다음 미완료 ▶▶", "Next unfinished ▶▶"),
    "jump_to": ("질문으로 이동", "Go to question"),
    "sample_data": ("예시 자료", "sample data"),
    # overview
    "overview_title": ("진행 현황", "Progress"),
    "my_progress": ("내 진행 상황", "My progress"),
    "campaign_counts": ("문단 {paragraphs} · 질문 {questions} · 시스템 {systems} · 풀 {pool} · 판정 기록 {judgment_events}",
                        "paragraphs {paragraphs} · questions {questions} · systems {systems} · pool {pool} · judgment events {judgment_events}"),
    # import
    "import_title": ("자료 가져오기", "Import data"),
    "import_kind": ("종류", "Kind"),
    "kind_corpus": ("말뭉치(문단)", "Corpus (paragraphs)"),
    "kind_questions": ("질문", "Questions"),
    "kind_run": ("검색 결과(run)", "Run"),
    "file": ("파일", "File"),
    "format": ("형식", "Format"),
    "format_auto": ("자동(확장자)", "auto (extension)"),
    "system_name": ("시스템 이름 (run; 비우면 tag 열)", "System name (run; empty = tag column)"),
    "import_button": ("가져오기", "Import"),
    "import_ok": ("가져왔습니다: {msg}", "Imported: {msg}"),
    "import_failed": ("가져오지 못했습니다 (아무것도 저장되지 않음): {error}",
                      "Import failed (nothing was written): {error}"),
    "pool_depth": ("풀 깊이 D", "Pool depth D"),
    "rebuild_pool": ("풀 다시 만들기", "Rebuild pool"),
    "pool_built": ("풀: {n}개 항목", "Pool: {n} items"),
    "runs_table": ("가져온 시스템", "Imported systems"),
    # users
    "users_title": ("사용자 관리", "Users"),
    "add_user": ("사용자 추가", "Add user"),
    "role": ("역할", "Role"),
    "user_added": ("{user} 추가됨", "Added {user}"),
    "deactivate": ("비활성화", "Deactivate"),
    "activate": ("활성화", "Activate"),
    "set_password": ("비밀번호 바꾸기", "Change password"),
    "done": ("완료", "Done"),
    # audit
    "audit_title": ("판정 이력", "Judgment history"),
    "question": ("질문", "Question"),
    "paragraph": ("문단", "Paragraph"),
    "no_history": ("기록이 없습니다.", "No events."),
    # team
    "nav_assign": ("작업 배정", "Assignments"),
    "nav_agreement": ("일치도", "Agreement"),
    "nav_adjudicate": ("불일치 조정", "Adjudication"),
    "assign_title": ("작업 배정", "Assign questions"),
    "assign_help": ("질문마다 판정자 수를 정하거나, 일치도 측정을 위해 일부 질문만 두 명이 판정하게 합니다. 배정하면 판정자는 자기 질문만 봅니다.",
                    "Give every question N annotators, or have a share double-judged for agreement. Once assigned, annotators see only their own queue."),
    "annotators": ("판정자", "Annotators"),
    "per_question": ("질문당 판정자 수", "Annotators per question"),
    "double_share": ("두 명이 판정할 질문 비율", "Share of questions double-judged"),
    "by_type": ("질문 유형별로 고르게", "Balance within each question type"),
    "preview": ("미리 보기", "Preview"),
    "apply": ("배정하기", "Assign"),
    "assigned": ("배정했습니다: {msg}", "Assigned: {msg}"),
    "current_assignments": ("현재 배정", "Current assignments"),
    "no_assignments": ("배정이 없습니다: 모든 판정자가 모든 질문을 봅니다.", "No assignments: everyone sees every question."),
    "reassign": ("떠나는 판정자의 미완료 질문 넘기기", "Hand over a leaving annotator's unfinished questions"),
    "reassign_button": ("넘기기", "Reassign"),
    "reassigned": ("{n}개 질문을 넘겼습니다.", "Moved {n} questions."),
    "agreement_title": ("진행과 일치도", "Progress and agreement"),
    "speed": ("판정 속도", "Judging speed"),
    "fast_threshold": ("너무 빠른 판정 기준(초)", "Suspiciously fast below (seconds)"),
    "annotator_summary": ("판정자별 요약 (판정 분포, 근거 없음 비율)", "Per annotator (grade shares, no-answer rate)"),
    "agreement_figures": ("일치도 (문단 판정, 근거 없음 판정)", "Agreement (paragraph grades, no-answer verdicts)"),
    "pairwise": ("판정자 쌍별 Cohen's kappa", "Cohen's kappa per annotator pair"),
    "weights": ("가중치", "Weights"),
    "adjudicate_title": ("불일치 조정", "Adjudication"),
    "queue_empty": ("조정할 불일치가 없습니다.", "No open disagreements."),
    "queue_n": ("열린 불일치 {n}건 (2 대 0, 그다음 시스템의 첫 근거 순위를 바꾸는 것부터)",
                "{n} open disagreements (2 vs 0 first, then those that change a system's first citable rank)"),
    "grades_given": ("판정 (이름 없이)", "Grades given (anonymous)"),
    "notes_given": ("메모", "Notes"),
    "final_grade": ("최종 판정", "Final grade"),
    "reason": ("이유", "Reason"),
    "save_adjudication": ("조정 저장", "Save adjudication"),
    "adjudicated": ("저장했습니다.", "Saved."),
    "verdict_queue": ("근거 없음 판정의 불일치", "Disagreements on no-answer"),
    "final_no_answer": ("최종: 근거 없음", "Final: no answer"),
    "freeze_title": ("qrels 버전 동결", "Freeze a qrels version"),
    "freeze_note": ("메모", "Note"),
    "freeze_button": ("현재 판정을 새 버전으로 동결", "Freeze current judgments as a new version"),
    "frozen": ("버전 {v}을 만들었습니다.", "Created version {v}."),
    "versions": ("동결된 버전", "Frozen versions"),
    "policy": ("집계 정책", "Aggregation policy"),
    "changes_first": ("첫 근거 순위를 바꿈", "changes a first citable rank"),
    # export
    "nav_export": ("내보내기", "Export"),
    "export_title": ("qrels와 판정 기록 내보내기", "Export qrels and judgments"),
    "qrels_source": ("무엇을", "What"),
    "live_state": ("현재 판정", "live judgments"),
    "version_n": ("동결 버전 {v}", "frozen version {v}"),
    "min_grade": ("최소 등급", "Minimum grade"),
    "download_qrels": ("qrels 내려받기", "Download qrels"),
    "download_no_answer": ("근거 없음 질문 목록 내려받기", "Download no-answer questions"),
    "download_judgments": ("판정 기록 전체 내려받기 (JSONL)", "Download the full judgment history (JSONL)"),
    "import_qrels": ("외부 qrels 가져오기 (TREC / BEIR)", "Import external qrels (TREC / BEIR)"),
    "source_name": ("출처 이름", "Source name"),
    "qrels_imported": ("{n}행을 출처 {source}로 가져왔습니다.", "Imported {n} rows as source {source}."),
}


def t(key: str, lang: str = "ko", **kwargs) -> str:
    """The string ``key`` in ``lang`` (falls back to Korean), formatted with kwargs."""
    ko, en = STRINGS[key]
    text = en if lang == "en" else ko
    return text.format(**kwargs) if kwargs else text


def bundle(keys: list[str], lang: str) -> dict[str, str]:
    return {k: t(k, lang) for k in keys}
