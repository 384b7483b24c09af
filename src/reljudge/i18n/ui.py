"""The screens' texts: login, navigation, the judging and review widgets, the lead's pages
(pages/). ``{key: (Korean, English)}``, looked up by :func:`reljudge.i18n.t`; the texts of the
library's message codes are in :mod:`reljudge.i18n.messages`, the report's in :mod:`reljudge.i18n.report`."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # app / login
    "app_title": ("reljudge — 검색 근거 판정", "reljudge — relevance judgments"),
    "login_title": ("로그인", "Log in"),
    "username": ("사용자 이름", "Username"),
    "table_empty": ("아직 표에 들어갈 행이 없습니다.", "No rows yet."),
    "password": ("비밀번호", "Password"),
    "login_button": ("로그인", "Log in"),
    "login_failed": ("사용자 이름 또는 비밀번호가 맞지 않습니다.", "Wrong username or password."),
    "login_wait": (
        "로그인 실패가 여러 번 이어졌습니다. {s}초 뒤에 다시 시도하세요.",
        "Too many failed logins in a row. Try again in {s} s.",
    ),
    "logging_in": (
        "로그인 중… 이 브라우저에 로그인을 저장하고 있습니다.",
        "Logging in… storing the login in this browser.",
    ),
    "login_cookie_failed": (
        "로그인을 마치지 못했습니다: 이 브라우저가 로그인을 저장하지 못했습니다(쿠키). 다시 로그인하세요.",
        "Could not finish logging in: this browser did not store the login (cookie). Please log in again.",
    ),
    "org_login_button": ("조직 계정으로 로그인", "Sign in with your organisation account"),
    "org_login_button_named": ("{provider} 계정으로 로그인", "Sign in with {provider}"),
    "org_login_or": ("또는 사용자 이름과 비밀번호로 로그인", "or log in with a username and password"),
    "org_login_pending": (
        "조직 계정 {email}에 연결된 reljudge 계정이 아직 없습니다. 책임자가 역할을 주어 활성화하면 "
        "로그인할 수 있습니다(요청이 기록되었습니다).",
        "No reljudge account is linked to the organisation account {email} yet. Once a lead activates "
        "it with a role you can sign in (your request has been recorded).",
    ),
    "org_login_unverified": (
        "조직 계정이 확인된 이메일 주소를 보내지 않아 로그인할 수 없습니다.",
        "Your organisation account did not send a verified e-mail address, so it cannot sign in.",
    ),
    "org_login_lookalike": (
        "조직 계정의 이메일 주소에 ASCII 글자와 헷갈리는 문자(예: 켈빈 기호 K, ſ, 전각 글자)가 있어 로그인할 수 "
        "없습니다. 책임자에게 문의하세요.",
        "The organisation account's e-mail address holds a character that stands for an ASCII letter (such as the "
        "Kelvin sign K, ſ, fullwidth letters), so it cannot sign in. Ask a lead.",
    ),
    "org_login_invalid_token": (
        "조직 계정의 ID 토큰에 올바른 유효 기간(exp, iat)이 없어 로그인할 수 없습니다. 책임자에게 조직 계정 "
        "로그인 설정을 확인해 달라고 하세요.",
        "The organisation account's ID token carries no valid expiry (exp, iat), so it cannot sign in. Ask a lead "
        "to check the organisation login's settings.",
    ),
    "org_login_inactive": (
        "조직 계정 {email}에 연결된 reljudge 계정은 비활성화되어 있습니다. 책임자에게 문의하세요.",
        "The reljudge account linked to the organisation account {email} is deactivated. Ask a lead.",
    ),
    "org_login_misconfigured": (
        "조직 계정 로그인 설정(secrets.toml의 [auth])이 완전하지 않습니다: {error}",
        "The organisation login's settings ([auth] in secrets.toml) are incomplete: {error}",
    ),
    "logging_out": ("로그아웃 중…", "Logging out…"),
    "org_logout": ("조직 계정에서 로그아웃", "Sign out of the organisation account"),
    "password_login_off": (
        "비밀번호 로그인은 꺼져 있습니다.",
        "Password login is turned off.",
    ),
    "org_login_missing": (
        "비밀번호 로그인이 꺼져 있는데 조직 계정 로그인(secrets.toml의 [auth])도 설정되어 있지 않습니다. "
        "서버 관리자에게 문의하세요.",
        "Password login is turned off and organisation login ([auth] in secrets.toml) is not configured. "
        "Ask the server's administrator.",
    ),
    "identity_requests": ("승인을 기다리는 조직 계정", "Organisation identities waiting for access"),
    "no_identity_requests": ("승인을 기다리는 조직 계정이 없습니다.", "No organisation identity is waiting."),
    "identity_email": ("조직 계정 이메일", "Organisation e-mail"),
    "activate_identity": ("계정 만들어 활성화", "Create the account and activate"),
    "identity_activated": (
        "{email} → 계정 {user}({role})로 로그인할 수 있습니다.",
        "{email} can now sign in as {user} ({role}).",
    ),
    "dismiss_identity": ("요청 지우기", "Dismiss the request"),
    "account_email": ("계정의 조직 이메일", "The account's organisation e-mail"),
    "account_email_help": (
        "이 이메일로 조직 계정 로그인을 하면 이 계정으로 들어옵니다. 비우면 연결을 끊습니다.",
        "Signing in with this organisation e-mail opens this account. Leave empty to unlink.",
    ),
    "set_email": ("이메일 저장", "Save the e-mail"),
    "login_locked": (
        "로그인 실패가 너무 많아 이 계정이 잠겼습니다. 책임자에게 잠금 해제를 요청하세요.",
        "This account is locked after too many failed logins. Ask a lead to unlock it.",
    ),
    "unsaved_here": (
        "이 브라우저에 아직 저장되지 않은 판정이 {n}건 있습니다. 같은 계정으로 다시 로그인하면 저장됩니다"
        "(계정이 비활성화되었다면 책임자에게 문의하세요).",
        "{n} judgment(s) in this browser are not saved yet. Log in again with the same account "
        "and they are saved (if your account was deactivated, ask a lead).",
    ),
    "first_lead_title": ("첫 책임자 계정 만들기", "Create the first lead account"),
    "first_lead_info": (
        "이 데이터베이스에는 아직 계정이 없습니다. 캠페인을 관리할 책임자 계정을 만드세요.",
        "This database has no account yet. Create the lead account that manages the campaign.",
    ),
    "password_again": ("비밀번호 확인", "Password again"),
    "setup_code": ("설정 코드", "Setup code"),
    "include_no_answer": ("근거 없음 질문의 행도 qrels에 넣기", "Keep the no-answer questions' rows in the qrels"),
    "no_answer_left_out": (
        "근거 없음으로 판정된 질문은 qrels에서 빠지고 옆의 근거 없음 질문 파일에 목록으로 들어갑니다. "
        "평가가 평균에서 빼므로, 모든 질문을 평균하는 trec_eval도 대시보드와 같은 값을 냅니다.",
        "Questions judged to have no answer are left out of the qrels and listed in the file "
        "beside them (qrels.no_answer): the evaluation leaves them out of the means, so "
        "`trec_eval -c` gives the dashboard's numbers.",
    ),
    "no_answer_included": (
        "근거 없음 질문의 행(모두 0점)이 qrels에 들어갑니다. 모든 질문을 평균하는 trec_eval은 이 "
        "질문들을 0으로 평균에 넣으므로 대시보드보다 낮은 값을 냅니다.",
        "The no-answer questions' rows (all grade 0) are in the qrels: `trec_eval -c` averages "
        "them in as zeros, lower than the dashboard's numbers.",
    ),
    "setup_code_help": (
        "서버를 시작한 터미널(서버 로그)에 나온 일회용 코드입니다. 서버를 시작한 사람만 볼 수 있습니다.",
        "The one-time code printed in the terminal (the server's log) where the server was "
        "started: only whoever started it can see it.",
    ),
    "passwords_differ": ("두 비밀번호가 다릅니다.", "The passwords differ."),
    "logout": ("로그아웃", "Log out"),
    "logged_in_as": ("{user} ({role}) 로그인됨", "Logged in as {user} ({role})"),
    "role_lead": ("책임자", "lead"),
    "role_annotator": ("판정자", "annotator"),
    "demo_notice": (
        "예시 캠페인(가상의 표본 자료)이 들어 있습니다. 예시 계정: {accounts}",
        "A demo campaign (synthetic sample data) is loaded. Demo accounts: {accounts}",
    ),
    "english": ("English", "English"),
    "forbidden": ("이 화면을 볼 권한이 없습니다.", "You are not allowed to see this page."),
    "not_logged_in": ("먼저 로그인하세요.", "Please log in first."),
    "db_locked": ("데이터베이스를 열 수 없습니다: {error}", "Cannot open the database: {error}"),
    # navigation
    "address_unknown": (
        "/{address} 은(는) 없는 주소라서 첫 화면을 엽니다.",
        "There is no page at /{address}: here is the first page.",
    ),
    "address_lead_only": (
        "/{address} 화면은 책임자만 볼 수 있어 첫 화면을 엽니다.",
        "Only leads can open /{address}: here is the first page.",
    ),
    # several campaigns (the picker after login; the campaign is kept in the URL)
    "campaign_picker": ("캠페인", "Campaign"),
    "grant_role": ("이 캠페인의 역할 주기", "Give a role in this campaign"),
    "revoke_role": ("이 캠페인의 역할 거두기", "Take the role in this campaign"),
    "revoke_role_user": ("역할을 거둘 계정", "Account whose role to take"),
    "role_revoked": (
        "{user}의 이 캠페인 역할을 거두었습니다 (계정과 다른 캠페인의 역할은 그대로입니다).",
        "{user} has no role in this campaign any more (the account and its roles elsewhere stay).",
    ),
    "role_granted": ("{user}: 이 캠페인의 {role}", "{user}: {role} in this campaign"),
    "accounts_managed_in_default": (
        "계정은 이 서버의 모든 캠페인이 함께 씁니다: 비밀번호, 비활성화, 잠금 해제, 로그인 세션은 기본 캠페인의 "
        "책임자가 관리합니다.",
        "Accounts are shared by every campaign of this server: passwords, deactivation, locks and login "
        "sessions are managed by the default campaign's leads.",
    ),
    "campaign_default": ("기본 캠페인", "Default campaign"),
    "campaign_with_role": ("{campaign} · {role}", "{campaign} · {role}"),
    # a campaign named inside a sentence (campaign_unavailable)
    "campaign_in_text_default": ("기본 캠페인", "the default campaign"),
    "campaign_in_text": ("{campaign} 캠페인", "campaign {campaign}"),
    # one wording whether the campaign does not exist or the account has no role there:
    # two told a logged-in account which campaign names exist (issue 34.4)
    "campaign_unavailable": (
        "{campaign}에서는 역할이 없어 {other}을 엽니다.",
        "You have no role in {campaign}: here is {other}.",
    ),
    "no_role_anywhere": (
        "이 계정은 이 서버의 어느 캠페인에도 역할이 없습니다. 책임자에게 역할을 요청하십시오.",
        "This account has no role in any campaign of this server: ask a lead for one.",
    ),
    "nav_judge": ("판정하기", "Judge"),
    "nav_overview": ("진행 현황", "Progress"),
    "nav_import": ("자료 가져오기", "Import data"),
    "nav_users": ("사용자 관리", "Users"),
    "nav_audit": ("판정 이력", "Audit"),
    # judging
    "all_done": ("모든 질문을 마쳤습니다. 수고하셨습니다!", "Every question is done. Thank you!"),
    "no_further_question": (
        "더 넘어갈 질문이 없습니다. 아직 끝나지 않은 다른 질문이 {n}개 있습니다 (U: 다음 미완료 질문).",
        "No further question. {n} other questions are not finished yet (U: next unfinished question).",
    ),
    "last_open_question": (
        "남은 질문은 이것뿐입니다: 아직 판정하지 않은 문단이 {n}개 있습니다.",
        "This is the only unfinished question: {n} paragraphs are still ungraded.",
    ),
    "judge_title": ("근거 판정", "Relevance judging"),
    "review_title": ("답변 검수", "Answer review"),
    "nav_review": ("답변 검수", "Answer review"),
    "answer_n": ("답변 {i} / {n}", "Answer {i} / {n}"),
    "answer_in_question": ("이 질문의 답변 {i} / {n}", "answer {i} of {n} for this question"),
    "answer_short": ("답변 {n}", "answer {n}"),
    # a paragraph's place in the collection (campaign.judging.source_line)
    "source_volume_page": ("{volume}권 {page}쪽", "vol. {volume}, p. {page}"),
    "source_volume": ("{volume}권", "vol. {volume}"),
    "source_page": ("{page}쪽", "p. {page}"),
    "jump_to_answer": ("답변으로 이동", "Go to answer"),
    "no_answers_to_review": ("검수할 답변이 없습니다.", "No answer to review."),
    "no_further_answer": (
        "더 넘어갈 답변이 없습니다 (U: 다음 미완료 답변).",
        "No further answer (U: next unfinished answer).",
    ),
    "no_answer_expected": ("근거 없는 질문으로 표시된 질문입니다.", "This question is marked as having no answer."),
    "answer_abstained": ("시스템이 답변을 보류했습니다.", "The system abstained."),
    "interpretation": ("해석 타당성", "Interpretation"),
    "interp2": ("2 타당", "2 valid"),
    "interp1": ("1 부분적", "1 partly"),
    "interp0": ("0 타당하지 않음", "0 invalid"),
    "abstention_q": ("보류(또는 답변)가 적절한가", "Was abstaining (or answering) appropriate"),
    "yes": ("예", "yes"),
    "no": ("아니오", "no"),
    "review_note": ("메모", "note"),
    "review_keys": (
        "단축키 — ↓/J ↑/K 인용 이동 · 2/1/0 뒷받침(충분/부분/없음) · X 인용 불필요 문장 · "
        "I 뒤 2/1/0 해석 타당성 · A 보류 적절성 · M 메모 · Enter/] 다음 답변 · [ 이전 · U 다음 미완료",
        "Keys — ↓/J ↑/K move · 2/1/0 support (full/partial/none) · X sentence needs no citation · "
        "I then 2/1/0 interpretation · A abstention appropriate · M note · Enter/] next answer · [ previous · U next unfinished",
    ),
    "relevance_now": ("현재 판정 {g}", "judged {g}"),
    "support2": ("2 충분히 뒷받침", "2 full support"),
    "support1": ("1 부분적", "1 partial"),
    "support0": ("0 뒷받침 안 함", "0 no support"),
    "cites_nothing": (
        "이 문장은 아무 문단도 인용하지 않습니다 (X: 인용이 필요 없는 문장).",
        "This sentence cites nothing (X: it needs no citation).",
    ),
    "needs_no_citation": ("인용 불필요", "needs no citation"),
    "pairs_done": ("검수한 인용 {d}/{n}", "citations reviewed {d}/{n}"),
    "prev_answer": ("이전 답변 [", "Previous answer ["),
    "next_answer": ("다음 답변 ]", "Next answer ]"),
    "next_open_answer": ("다음 미완료 답변 U", "Next unfinished answer U"),
    "answer_empty": ("빈 답변입니다.", "The answer is empty."),
    "no_questions": (
        "판정할 질문이 없습니다. 책임자가 자료를 가져와야 합니다.",
        "No questions to judge yet: a lead must import data first.",
    ),
    "lead_all_assigned": (
        "모든 질문이 판정자에게 배정되어 있습니다. 책임자의 판정은 '조정' 화면에서 조정으로 기록합니다.",
        "Every question is assigned to annotators: a lead's grade is recorded as an adjudication (the Adjudicate page).",
    ),
    "none_assigned": (
        "아직 배정된 질문이 없습니다. 책임자에게 배정을 요청하세요.",
        "No question is assigned to you yet: ask the lead.",
    ),
    "question_n": ("질문 {i} / {n}", "Question {i} / {n}"),
    "type": ("유형", "Type"),
    "criteria": ("판정 기준", "Criteria"),
    "ungraded": ("미판정", "not judged"),
    "no_answer": ("이 결과에 근거 없음", "No answer in these results"),
    "na_conflict": (
        "근거 없음으로 표시했지만 {t}점 이상인 문단이 있습니다. 집계에서는 그 등급이 우선하므로, "
        "둘 중 하나를 고쳐 주세요.",
        "Marked “no answer”, yet a paragraph has grade {t} or more; the aggregation lets "
        "that grade win, so please correct one of them.",
    ),
    "empty_pool": (
        "이 질문에는 판정할 문단이 없습니다 (어느 시스템도 결과를 내지 않았습니다). "
        "근거 없음(N)으로 표시하거나 다음 질문으로 넘어가세요.",
        "There is nothing to judge for this question (no system returned results). "
        "Mark it “no answer” (N) or go on to the next question.",
    ),
    "note": ("메모", "Note"),
    "evidence": ("근거 문장 (2점일 때)", "Evidence sentence (grade 2)"),
    "evidence_short": ("근거 문장", "evidence"),
    "edit_hint": (
        "Enter 저장 · Esc 취소 (입력한 내용 버림) · Tab 다음 칸",
        "Enter saves · Esc cancels (discards what was typed) · Tab next field",
    ),
    "context_prev": ("앞 문단", "Previous paragraph"),
    "context_next": ("뒤 문단", "Next paragraph"),
    "no_context": ("(같은 문서의 앞뒤 문단 없음)", "(no neighbouring paragraph)"),
    "copies": ("중복 {n}건을 하나로 묶음", "{n} duplicate copies collapsed"),
    "progress_q": ("이 질문 {j}/{t}", "this question {j}/{t}"),
    "progress_all": ("전체 {j}/{t} ({p}%)", "overall {j}/{t} ({p}%)"),
    "questions_done": ("완료한 질문 {d}/{n}", "questions done {d}/{n}"),
    "progress_all_plan": (
        "전체: 끝난 질문 {d}/{n} ({p}%) · 남은 판정 {r}",
        "overall: {d}/{n} questions done ({p}%) · {r} left to judge",
    ),
    "na_ask": (
        "아직 판정하지 않은 문단이 {n}개 있습니다. 근거 없음으로 표시하면서 이 문단들을 0(관련 없음)으로 둘까요?",
        "{n} paragraphs are still ungraded. Mark “no answer” and grade them 0 (not relevant)?",
    ),
    "na_ask_yes": ("예, 나머지는 0 (Y)", "Yes, the rest are 0 (Y)"),
    "na_ask_only": ("근거 없음만 표시 (N)", "Only mark “no answer” (N)"),
    "na_ask_cancel": ("취소 (Esc)", "Cancel (Esc)"),
    "unfold_hint": ("… F: 펼치기 / 접기", "… F: unfold / fold"),
    "judging_display": ("판정 화면", "Judging screen"),
    "upload_button": ("파일 올리기", "Upload"),
    "upload_limit": ("파일 하나에 최대 2GB", "up to 2 GB per file"),
    "highlight_toggle": (
        "문단에서 질문의 내용어 강조 (형태소 분석: kiwipiepy)",
        "Mark the question's content words in the paragraphs (morphemes: kiwipiepy)",
    ),
    "highlight_help": (
        "기본은 꺼 둡니다: '관련'은 낱말이 겹치는지가 아니라 질문에 답하는 인용 가능한 근거인지로 판정하므로, "
        "강조가 판단을 낱말 일치 쪽으로 끌 수 있습니다. 켜거나 끈 사실은 보고서에 적힙니다.",
        "Off by default: relevance is whether a paragraph is citable evidence for the question, not "
        "word overlap, and marks can pull judges towards overlap. The report states the setting.",
    ),
    "unfinished_before": (
        "이 질문 앞에 아직 끝나지 않은 질문이 {n}개 있습니다 ([ 이전 질문, 왼쪽 목록에서 이동).",
        "{n} unfinished question(s) come before this one ([ previous question, or the list on the left).",
    ),
    "saving": ("저장 중…", "saving…"),
    "saved": ("모두 저장됨", "all saved"),
    "save_login": (
        "저장 대기 {n}건 — 로그인이 끝났습니다. 다시 로그인하면 이 브라우저에 보관된 판정이 저장됩니다",
        "{n} waiting — your login has ended; log in again and this browser saves them",
    ),
    "offline": ("저장 대기 {n}건 — 연결되면 자동으로 다시 보냅니다", "{n} waiting to be saved — resent automatically"),
    "save_waiting_server": (
        "저장 대기 중 — {n}개 판정이 서버를 기다립니다(사라지지 않음). 서버가 지금 저장할 수 없어 "
        "이 브라우저에 보관하고 자동으로 다시 보냅니다",
        "Saves waiting — {n} judgment(s) wait for the server (not lost). The server cannot store "
        "them right now; this browser keeps them and sends them again automatically",
    ),
    "shortcuts": (
        "단축키 — ↓/J 다음 문단 · ↑/K 이전 문단 · 2/1/0 판정 후 다음 문단으로 · Backspace 판정 지우기 · "
        "C 앞뒤 문단 보기 · E 메모·근거 문장 · N 근거 없음 표시 · Enter/] 다음 질문 · [ 이전 질문 · "
        "U 다음 미완료 질문 · V 간결하게 보기 · F 긴 문단 펼치기",
        "Keys — ↓/J next paragraph · ↑/K previous · 2/1/0 grade and move on · Backspace clear · "
        "C neighbouring paragraphs · E note & evidence · N no answer · Enter/] next question · "
        "[ previous question · U next unfinished question · V compact layout · F unfold a long paragraph",
    ),
    "prev_q": ("◀ 이전 질문", "◀ Previous"),
    "next_q": ("다음 질문 ▶", "Next ▶"),
    "next_open": ("다음 미완료 ▶▶", "Next unfinished ▶▶"),
    "jump_to": ("질문으로 이동", "Go to question"),
    # overview
    "overview_title": ("진행 현황", "Progress"),
    "campaign_counts": (
        "문단 {paragraphs} · 질문 {questions} · 시스템 {systems} · 풀 {pool} · 판정 기록 {judgment_events}",
        "paragraphs {paragraphs} · questions {questions} · systems {systems} · pool {pool} · judgment events {judgment_events}",
    ),
    # import
    "import_title": ("자료 가져오기", "Import data"),
    "import_kind": ("종류", "Kind"),
    "kind_answers": ("생성 답변", "Generated answers"),
    "kind_reviews": ("답변 검수 기록 (이름 붙인 출처)", "Answer reviews (a named source)"),
    "kind_qrels": ("외부 qrels (이름 붙인 출처)", "External qrels (a named source)"),
    # what each kind of file holds: a caption (Korean: no field names, the page stays Korean) and the file
    # field's help (the fields and the CLI command)
    "import_help_corpus": (
        "문단마다 한 줄인 JSONL·CSV, 또는 BEIR 말뭉치.",
        "One paragraph per line (JSONL, CSV), or a BEIR corpus.",
    ),
    "import_help_questions": (
        "질문마다 한 줄인 JSONL·CSV, 또는 BEIR 질문 파일. 유형은 아래 '질문 유형'에 선언된 것만 "
        "받습니다(비어 있으면 유형 없음).",
        "One question per line (JSONL, CSV), or BEIR queries. Only the types declared under "
        "“Question types” below are accepted (empty: no type).",
    ),
    "import_help_run": (
        "한 시스템(또는 tag별 여러 시스템)의 검색 결과: TREC run, 또는 JSONL·CSV.",
        "The ranked results of a system (or of several, by tag): a TREC run, or JSONL, CSV.",
    ),
    "import_help_answers": (
        "시스템이 생성한 답변, 답변마다 한 줄인 JSONL·CSV. 시스템마다 버전으로 쌓이고, 검수 화면에 나타납니다.",
        "Generated answers, one per line (JSONL, CSV); kept as versions per system, reviewed on "
        "the answer review page.",
    ),
    "import_help_reviews": (
        "다른 곳에서 한 답변 검수(다른 팀, LLM 판정자): 검수자 × 답변마다 한 줄인 JSONL. 이름 붙인 "
        "출처로 들어가 일치도에서 검수자 한 명으로 비교되고, 같은 이름의 출처는 바뀝니다.",
        "Answer reviews made elsewhere (another team, an LLM judge), one line per reviewer × "
        "answer (JSONL); kept as a named source, compared as one reviewer in the agreement "
        "figures; a source of the same name is replaced.",
    ),
    "import_help_qrels": (
        "다른 곳에서 한 적합성 판정: TREC qrels 또는 BEIR TSV. 이름 붙인 출처로 들어가 일치도·지표·"
        "내보내기에서 고를 수 있고, 같은 이름의 출처는 바뀝니다.",
        "Relevance judgments made elsewhere: TREC qrels or BEIR TSV; kept as a named source that "
        "agreement, the metrics and the export can use; a source of the same name is replaced.",
    ),
    "import_fields_corpus": (
        "필드: `pid`, `text`[, `doc_id`, `title`, `date`, `volume`, `page`, `position`]; 명령줄: "
        "`reljudge import corpus FILE`",
        "Fields: `pid`, `text`[, `doc_id`, `title`, `date`, `volume`, `page`, `position`]; CLI: "
        "`reljudge import corpus FILE`",
    ),
    "import_fields_questions": (
        "필드: `qid`, `text`, `type`, `criteria`, `no_answer_expected`; 명령줄: "
        "`reljudge import questions FILE [--update-questions]`",
        "Fields: `qid`, `text`, `type`, `criteria`, `no_answer_expected`; CLI: "
        "`reljudge import questions FILE [--update-questions]`",
    ),
    "import_fields_run": (
        "TREC: `qid Q0 pid rank score tag`; JSONL·CSV: `qid`, `pid`, `rank`/`score`[, `abstained`, "
        "`tag`]; 명령줄: `reljudge import run FILE [--system NAME] [--replace]`",
        "TREC: `qid Q0 pid rank score tag`; JSONL, CSV: `qid`, `pid`, `rank`/`score`[, `abstained`, "
        "`tag`]; CLI: `reljudge import run FILE [--system NAME] [--replace]`",
    ),
    "import_fields_answers": (
        "필드: `qid`, `system`, `answer`[, `citations`, `sentences`, `abstained`]; 명령줄: "
        "`reljudge import answers FILE [--system NAME] [--replace]`",
        "Fields: `qid`, `system`, `answer`[, `citations`, `sentences`, `abstained`]; CLI: "
        "`reljudge import answers FILE [--system NAME] [--replace]`",
    ),
    "import_fields_reviews": (
        "`reljudge export reviews`의 형식: `qid`, `system`, `reviewer`, `interpretation`, "
        "`abstention_appropriate`, `note`, `sentences`; 명령줄: "
        "`reljudge import reviews FILE --source NAME`",
        "The format of `reljudge export reviews`: `qid`, `system`, `reviewer`, `interpretation`, "
        "`abstention_appropriate`, `note`, `sentences`; CLI: "
        "`reljudge import reviews FILE --source NAME`",
    ),
    "import_fields_qrels": (
        "TREC: `qid 0 pid grade`; BEIR: `query-id`, `corpus-id`, `score` 머리글의 TSV; 명령줄: "
        "`reljudge import qrels FILE --source NAME`",
        "TREC: `qid 0 pid grade`; BEIR: TSV with the header `query-id`, `corpus-id`, `score`; "
        "CLI: `reljudge import qrels FILE --source NAME`",
    ),
    "file": ("파일", "File"),
    "format": ("형식", "Format"),
    "format_auto": ("자동(확장자)", "auto (extension)"),
    "system_name": ("시스템 이름 (run; 비우면 tag 열)", "System name (run; empty = tag column)"),
    "system_name_answers": ("시스템 이름 (비우면 파일의 시스템 열)", "System name (empty = the system column)"),
    "replace_answers": (
        "이미 답변이 있는 시스템이면 새 버전으로 가져오기 (이전 버전과 그 검수는 남음)",
        "A system that has answers already: import them as its new version (the old version and its reviews are kept)",
    ),
    "answers_imported": ("생성 답변 {name}: {versions}", "Generated answers {name}: {versions}"),
    "answers_version": ("시스템 {system} 버전 {v}", "system {system} version {v}"),
    "reviews_imported": (
        "검수 기록 {name}: 검수자 × 답변 {n}건을 출처 {source}로",
        "Answer reviews {name}: {n} reviewer × answer records as source {source}",
    ),
    "qrels_source_imported": (
        "외부 qrels {name}: {n}행을 출처 {source}로",
        "External qrels {name}: {n} rows as source {source}",
    ),
    # question types (reljudge.question_types) on the import page
    "question_types_title": ("질문 유형", "Question types"),
    "question_types_help": (
        "이 캠페인이 받는 질문 유형입니다(처음에는 방법론의 네 유형). 질문 파일에 다른 유형이 있으면 "
        "파일·줄과 이 목록을 밝히며 가져오기를 거부합니다: 띄어쓰기가 다른 '사실확인'이나 영어로 쓴 "
        "유형이 유형별 표에서 따로 묶이지 않도록. 새 유형은 여기서(또는 명령줄에서) 선언합니다.",
        "The question types this campaign accepts (at first the methodology's four). A questions "
        "file with another type is refused, naming the file, the line and this list, so that "
        "`사실확인` (no space) or `fact` never becomes a group of its own in the per-type tables. "
        "Declare a new type here (`reljudge types add`).",
    ),
    "untyped_questions": ("유형이 없는 질문: {n}개", "Questions without a type: {n}"),
    "new_type": ("새 유형 이름", "New type name"),
    "declare_type": ("유형 선언", "Declare type"),
    "type_declared": ("유형 {name}을(를) 선언했습니다.", "Declared type {name}."),
    "type_already_declared": ("유형 {name}은(는) 이미 선언되어 있습니다.", "Type {name} is declared already."),
    "withdraw_type": ("선언 취소할 유형", "Type to withdraw"),
    "withdraw_type_button": ("선언 취소", "Withdraw"),
    "choose_type": ("유형을 고르세요", "Choose a type"),
    "type_withdrawn": (
        "유형 {name}의 선언을 취소했습니다: 이 유형의 질문은 이제 가져올 수 없습니다.",
        "Withdrew type {name}: questions of this type are refused from now on.",
    ),
    "import_button": ("가져오기", "Import"),
    "import_ok": ("가져왔습니다: {msg}", "Imported: {msg}"),
    "import_failed": (
        "가져오지 못했습니다 (아무것도 저장되지 않음): {error}",
        "Import failed (nothing was written): {error}",
    ),
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
    "locked_accounts": ("잠긴 계정", "Locked accounts"),
    "unlock": ("잠금 해제", "Unlock"),
    "unlocked": ("{user} 계정의 잠금을 풀었습니다.", "Unlocked {user}."),
    "no_locked": ("잠긴 계정이 없습니다.", "No account is locked."),
    "active_sessions": ("로그인 세션", "Login sessions"),
    "end_session": ("세션 끝내기", "End session"),
    "session_ended": ("세션 {id}를 끝냈습니다.", "Ended session {id}."),
    "failed_logins": ("로그인 실패 기록", "Failed logins"),
    "activate": ("활성화", "Activate"),
    "set_password": ("비밀번호 바꾸기", "Change password"),
    "done": ("완료", "Done"),
    # audit
    "audit_title": ("판정 이력", "Judgment history"),
    "question": ("질문", "Question"),
    "paragraph": ("문단", "Paragraph"),
    "no_history": ("기록이 없습니다.", "No events."),
    "adjudication_history": ("책임자의 조정 기록", "Lead adjudications"),
    "all_adjudications": ("모든 질문의 조정 기록", "Adjudications on every question"),
    "no_adjudications": ("이 질문에는 조정 기록이 없습니다.", "No adjudications on this question."),
    "policy_short_adjudicated": (
        "조정 우선 (조정 → 다수결 → 동수면 낮은 등급)",
        "adjudicated, else majority, else lower tied grade",
    ),
    "policy_short_majority": (
        "다수결 (조정 무시, 동수면 낮은 등급)",
        "majority (adjudications ignored), else lower tied grade",
    ),
    "policy_short_adjudicated+exclude-flagged": (
        "조정 우선, 품질 관리에서 표시된 판정자 제외",
        "adjudicated, else majority; annotators flagged by quality control left out",
    ),
    "policy_short_majority+exclude-flagged": (
        "다수결, 품질 관리에서 표시된 판정자 제외",
        "majority; annotators flagged by quality control left out",
    ),
    "provenance_unanimous": ("만장일치", "unanimous"),
    "provenance_majority": ("다수결", "majority"),
    "provenance_adjudicated": ("조정", "adjudicated"),
    "provenance_single": ("판정자 한 명", "single annotator"),
    "provenance_tie": ("동수 (낮은 등급)", "tie (lower grade)"),
    "n_events": ("{n}건", "{n} events"),
    "download_adjudications": ("조정 기록 내려받기 (JSONL)", "Download adjudications (JSONL)"),
    "download_reviews": ("답변 검수 기록 내려받기 (JSONL)", "Download the answer reviews (JSONL)"),
    # team
    "nav_assign": ("작업 배정", "Assignments"),
    "nav_agreement": ("일치도", "Agreement"),
    "nav_adjudicate": ("불일치 조정", "Adjudication"),
    "assign_title": ("작업 배정", "Assign questions"),
    "assign_help": (
        "질문마다 판정자 수를 정하거나, 일치도 측정을 위해 일부 질문만 두 명이 판정하게 합니다. 배정하면 판정자는 자기 질문만 봅니다.",
        "Give every question N annotators, or have a share double-judged for agreement. Once assigned, annotators see only their own queue.",
    ),
    "annotators": ("판정자", "Annotators"),
    "per_question": ("질문당 판정자 수", "Annotators per question"),
    "double_share": ("두 명이 판정할 질문 비율", "Share of questions double-judged"),
    "double_share_off": (
        "질문마다 두 명 이상이 판정하므로 모든 질문이 이미 중복 판정됩니다.",
        "Every question already has two or more annotators.",
    ),
    "by_type": ("질문 유형별로 고르게", "Balance within each question type"),
    "preview": ("미리 보기", "Preview"),
    "apply": ("배정하기", "Assign"),
    "assigned": ("배정했습니다: {msg}", "Assigned: {msg}"),
    "current_assignments": ("현재 배정", "Current assignments"),
    "no_assignments": (
        "배정이 없습니다: 모든 판정자가 모든 질문을 봅니다.",
        "No assignments: everyone sees every question.",
    ),
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
    "queue_n": (
        "열린 불일치 {n}건 (2 대 0, 그다음 시스템의 첫 근거 순위를 바꾸는 것부터)",
        "{n} open disagreements (2 vs 0 first, then those that change a system's first citable rank)",
    ),
    "grades_given": ("판정 (이름 없이)", "Grades given (anonymous)"),
    "notes_given": ("메모", "Notes"),
    "evidence_given": ("판정자가 고른 근거 문장", "Evidence sentences the annotators marked"),
    "final_grade": ("최종 판정", "Final grade"),
    "reason": ("이유", "Reason"),
    "save_adjudication": ("조정 저장", "Save adjudication"),
    "adjudicated": ("조정을 저장했습니다: {item} → {ruling}", "Adjudication saved: {item} → {ruling}"),
    "verdict_queue": ("근거 없음 판정의 불일치", "Disagreements on no-answer"),
    "weights_none": ("가중치 없음", "unweighted"),
    "weights_linear": ("선형 가중 (0/1/2의 거리)", "linear weights (distance on 0/1/2)"),
    "reason_needed": ("조정 이유를 적어 주세요.", "Give a reason for the adjudication."),
    "choose_grade": ("최종 등급을 고르세요.", "Choose the final grade."),
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
    "min_grade": ("최소 등급", "Minimum grade"),
    "download_qrels": ("qrels 내려받기", "Download qrels"),
    "download_csv": ("CSV 내려받기", "Download CSV"),
    "time_zone": ("시간대 (화면과 내보내기의 시각)", "Time zone (times on the pages and in exports)"),
    "time_zone_help": (
        "시각은 UTC로 저장되고, 여기서 고른 시간대로 ISO 8601(오프셋 포함)로 표시·내보내집니다.",
        "Times are stored in UTC and shown and exported in this zone as ISO 8601 with its offset.",
    ),
    "time_zone_saved": ("시간대를 {zone}(으)로 바꿨습니다.", "Time zone set to {zone}."),
    "download_no_answer": ("근거 없음 질문 목록 내려받기", "Download no-answer questions"),
    "download_judgments": ("판정 기록 전체 내려받기 (JSONL)", "Download the full judgment history (JSONL)"),
    "import_qrels": ("외부 qrels 가져오기 (TREC / BEIR)", "Import external qrels (TREC / BEIR)"),
    "import_qrels_moved": (
        "외부 qrels는 **자료 가져오기** 화면에서 이름 붙인 출처로 가져옵니다(종류: 외부 qrels). "
        "가져온 출처는 위의 '무엇을'에서 고를 수 있습니다.",
        "External qrels are imported as a named source on the **Import data** page (kind: "
        "external qrels); an imported source can be chosen under “What” above.",
    ),
    "source_name": ("출처 이름", "Source name"),
    # dashboard
    "nav_dashboard": ("평가 지표", "Metrics"),
    "dashboard_title": ("실시간 평가 지표", "Live evaluation"),
    "dashboard_caption": (
        "현재 판정으로 계산합니다 (자동 새로 고침 {s}초). 판정 기준: 등급 ≥ {rel}. qrels: {qrels}. 동점: {ties}. 중복: {dedup}.",
        "Computed from the current judgments (refreshes every {s} s). Relevant: grade ≥ {rel}. qrels: {qrels}. Ties: {ties}. Duplicates: {dedup}.",
    ),
    "k": ("K", "K"),
    "threshold": ("관련 기준 (등급 ≥)", "Relevant when grade ≥"),
    "qtypes": ("질문 유형", "Question types"),
    "systems": ("시스템", "Systems"),
    "qrels_choice": ("판정 집합", "Judgments"),
    "no_judgments_yet": ("아직 판정이 없습니다.", "No judgments yet."),
    "few_questions_note": (
        "'질문 적음' 표시는 답할 수 있는 질문이 {m}개 미만인 그룹입니다: 평균과 95% 구간이 질문 몇 개에 "
        "기대고 있어 믿기 어렵습니다 (질문 5개로도 [1.000, 1.000]이 나올 수 있습니다). "
        "결론을 내리기 전에 질문을 더 판정하세요.",
        "'Few questions' rows rest on fewer than {m} answerable questions: their means and 95% "
        "intervals depend on a handful of questions and are not reliable (5 questions can give "
        "[1.000, 1.000]). Judge more questions before drawing conclusions.",
    ),
    "glance_title": (
        "지표: 값과 범위 (확정 · 잠정)",
        "Measures: value and bounds (settled / provisional)",
    ),
    "glance_note": (
        "값은 판정된 답할 수 있는 질문의 평균입니다(판정하지 않은 문단은 관련 없음으로 셈, trec_eval과 같음). "
        "'확정': 아직 판정하지 않은 풀 문단이 어떤 등급을 받아도 값이 그대로입니다(범위의 양 끝이 같음). "
        "'잠정 [낮은 끝, 높은 끝]': 값이 아직 그 범위 안에서 움직일 수 있습니다(판정이 아직 없는 질문도 포함하므로 "
        "풀 전체를 판정한 뒤의 값이 반드시 이 안에 듭니다). 풀 판정: {judged}/{size}개 ({share}).",
        "The value is the mean over the judged answerable questions (unjudged paragraphs count as not relevant, "
        "as in trec_eval). 'Settled': whatever grades the unjudged pooled paragraphs get, the value stays "
        "(its bounds meet). 'Provisional [low, high]': it can still move within that range (questions nobody has "
        "judged yet count too, so the full-pool value lies within). Pool judged: {judged}/{size} ({share}).",
    ),
    "status_settled": ("확정", "settled"),
    "status_open": ("잠정", "provisional"),
    "status_estimated": ("추정", "estimated"),
    "status_bounds": ("범위", "bounds"),
    "glance_estimate_note": (
        "'추정 값 [낮은 끝, 높은 끝]': 판정 계획의 무작위 표본으로 추정한 값과 95% 판정 표본 구간입니다 — 이 질문들을 "
        "풀 전체 판정했을 때의 값이 어디쯤일지(문항 표본의 부트스트랩 구간과는 다름). 앞의 값은 판정하지 않은 문단을 "
        "관련 없음으로 센 값이고, '범위'는 그 값이 아직 움직일 수 있는 구간입니다 (docs/sampling.md).",
        "'Estimated value [low, high]': the estimate from the judging plan's random sample and its 95% "
        "judging-sample interval — where the value a full judging of these questions would give may lie (not "
        "the bootstrap interval of the question sample). The value before it counts unjudged paragraphs as not "
        "relevant; 'bounds' is where that value can still go (docs/sampling.md).",
    ),
    "plan_label_complete": ("전체 판정", "complete"),
    "plan_label_rr-first": ("첫 근거 우선", "rr-first"),
    "plan_label_then_rest": (" + 나머지", " + rest"),
    "plan_label_sample": ("표본", "sample"),
    "plan_label_then_sample": (" + 표본", " + sample"),
    "plan_where": (
        "판정 계획 **{plan}** (K = {k}, 등급 ≥ {rel}):",
        "Judging plan **{plan}** (K = {k}, grade ≥ {rel}):",
    ),
    "plan_settles_all": (
        "풀 전체를 판정하므로 끝나면 모든 지표가 확정됩니다 — 모두 판정 {n}건(판정자마다 셈), 지금까지 {judged}건.",
        "it judges the whole pool, so every measure is settled at its end — {n} judgments in all (each "
        "annotator counted), {judged} so far.",
    ),
    "plan_settles": (
        "{measures}을(를) 확정합니다 (지금 {first}: 시스템 {of}개 중 {done}개 확정).",
        "it settles {measures} (now {first}: {done} of {of} systems settled).",
    ),
    "estimates_out_of_date": (
        "표본을 뽑은 뒤 풀을 다시 만든 질문은 추정하지 않습니다(판정이 시작된 뒤라 다시 뽑지 않음): {qids}.",
        "Questions whose pool was rebuilt after the sample was drawn get no estimate (judging had begun, so "
        "they were not drawn again): {qids}.",
    ),
    "plan_estimates": (
        "{measures}은(는) 표본(비율 {rate}, 시드 {seed})으로 추정합니다 (지금 {first}: 시스템 {of}개 중 {done}개 추정).",
        "it estimates {measures} from its sample (rate {rate}, seed {seed}; now {first}: {done} of {of} systems "
        "estimated).",
    ),
    "plan_no_estimates_frozen": (
        "고정된 판정 버전 {version}을(를) 보고 있어 표본 추정은 없습니다 — 추정은 지금의 판정에서만 계산합니다.",
        "This is frozen qrels version {version}, so nothing is estimated from the sample — estimates are "
        "computed from the live judgments only.",
    ),
    "plan_settles_none_here": (
        "여기 보이는 지표(K = {k}, 등급 ≥ {rel}) 중 확정하는 것이 없습니다 — 계획의 K와 기준으로 보세요.",
        "it settles none of the measures shown here (K = {k}, grade ≥ {rel}) — look at the plan's K and threshold.",
    ),
    "plan_rest_needs": (
        "{open}은(는) 열어 둡니다: 이것까지 확정하려면 풀 전체, 판정 {n}건이 필요합니다 — 이 계획의 {plan_n}건보다 "
        "{extra}건 더 (판정자마다 셈; 지금까지 {judged}건).",
        "It leaves {open} open: settling them takes the whole pool, {n} judgments — {extra} more than this "
        "plan's {plan_n} (each annotator counted; {judged} so far).",
    ),
    "plan_about": ("약 {n}", "about {n}"),
    "sample_title": (
        "문항 표본: 95% 부트스트랩 구간",
        "Question sample: 95% bootstrap intervals",
    ),
    "sample_note": (
        "이 구간은 판정이 아니라 질문 표본에서 오는 불확실성입니다: 다른 질문들을 골랐다면 평균이 어디쯤일지 "
        "(질문을 다시 뽑는 부트스트랩). 값이 확정이어도 구간은 넓을 수 있습니다.",
        "These intervals are the uncertainty of the question sample, not of the judgments: where the mean might "
        "be with other questions (resampling the questions). A settled value can still have a wide interval.",
    ),
    "counts_title": (
        "1위 · 상위 3위 · 미검색, 판정된 비율",
        "Rank 1 / top 3 / not found, judged share",
    ),
    "bounds_chart_title": ("시스템별 {m}: 값(점)과 범위(막대)", "{m} per system: value (dot) and bounds (bar)"),
    "nothing_citable_title": (
        "인용할 근거가 없는데 '근거 없음'으로 표시되지 않은 질문",
        "Questions with nothing citable, not marked “no answer”",
    ),
    "nothing_citable_note": (
        "판정 계획이 묻는 문단을 모두 판정했는데(한 판정자라도 그 질문을 끝냄) 등급 {t} 이상이 없는 질문은, "
        "'근거 없음'으로 표시하지 않으면 모든 시스템의 MRR@{k}에 RR 0으로 들어가고, 표시하면 평균에서 빠져 "
        "답변 보류 표로 갑니다. 표는 시스템마다 지금의 MRR@{k}와 그 질문 하나만 표시했을 때의 MRR@{k}입니다.",
        "A question whose paragraphs the judging plan asks for are all judged (some annotator finished it) "
        "and none reached grade {t} counts as RR 0 in every system's MRR@{k} while unmarked; marked “no "
        "answer”, it leaves the means for the abstention table. The table shows each system's MRR@{k} now "
        "and with that question alone marked.",
    ),
    "abstention": ("답변 보류 (적절한 보류율 / 잘못된 보류율)", "Abstention (appropriate / false abstention rate)"),
    "tests": (
        "시스템 간 차이 (대응 무작위화 검정, Holm 보정)",
        "Differences between systems (paired randomization test, Holm)",
    ),
    "failures": ("실패 사례: 상위 K 안에 인용 가능한 근거가 없는 질문", "Failure cases: no citable paragraph within K"),
    "failure_pick": ("실패 사례 자세히 보기", "Open a failure case"),
    "contested_no_answer": (
        "'근거 없음' 표시가 있지만 {t}점 이상 문단도 있어 답할 수 있는 질문으로 계산한 질문: {qids}. "
        "불일치 조정 화면의 '근거 없음' 대기열에 올라 있습니다(판정자가 한 명이어도): 책임자가 "
        "근거 유무를 확정하거나, 판정자가 그 질문의 표시나 등급을 고치면 사라집니다.",
        "Marked “no answer” by someone, yet a paragraph has grade {t} or more, so counted as "
        "answerable: {qids}. They are in the “no answer” queue of the adjudication page (even "
        "when one person judged them): rule on them there, or the annotator corrects the mark "
        "or the grade.",
    ),
    "questions_used": (
        "평균은 전체 질문 {total}개 중 판정된, 답할 수 있는 질문 {answerable}개에 근거합니다 "
        "(근거 없음 {no_answer}개는 따로, 판정이 아직 없는 질문 {unjudged}개는 빠짐).",
        "The means rest on {answerable} judged, answerable questions of {total} "
        "({no_answer} no-answer questions apart; {unjudged} questions not judged yet are left out).",
    ),
    "build_report": ("보고서 만들기", "Build the report"),
    "build_bundle": ("재현 번들 만들기", "Build the reproducibility bundle"),
    "building_bundle": ("재현 번들을 만드는 중…", "Building the reproducibility bundle…"),
    "download_bundle": ("재현 번들 내려받기 (zip)", "Download the reproducibility bundle (zip)"),
    "bundle_caption": (
        "평가에 쓰인 그대로의 qrels와 run, 질문별 값, 모든 수치를 내는 trec_eval 명령 (REPRODUCE.md); "
        "bundle_sha256 {h}",
        "qrels and runs exactly as evaluated, every per-question value, and the trec_eval "
        "command for every number (REPRODUCE.md); bundle_sha256 {h}",
    ),
    "download_report": ("보고서 내려받기 ({fmt})", "Download the report ({fmt})"),
    "outcome_title": ("결론의 일치도: 판정자별 시스템 순위", "Agreement on outcomes: system rankings per annotator"),
    "outcome_caption": (
        "판정자마다 자기 판정만으로 {measure}를 계산해 시스템 순위를 매기고, 순위 사이의 Kendall's tau를 보입니다. 아래 표는 한 판정자의 판정으로 바꾸면 1위 시스템이 달라지는 질문입니다.",
        "Each annotator's own labels give {measure} per system; Kendall's tau compares the rankings. The table lists questions where one annotator's labels would change which system comes first.",
    ),
    # importing (progress, versions), the dashboard's chart, a refused event, which qrels a figure rests on
    "importing": ("{name} 가져오는 중… (큰 파일은 시간이 걸립니다)", "Importing {name}… (large files take a while)"),
    "all": ("전체", "all"),
    "lang_ko": ("한국어", "Korean"),
    "lang_en": ("영어", "English"),
    "choose_file": ("가져올 파일을 고르세요.", "Choose a file to import."),
    "source_needed": ("출처 이름을 적으세요 (예: llm-judge).", "Give the source a name (e.g. llm-judge)."),
    "replace_run": (
        "같은 이름의 시스템이 있으면 run 바꾸기 (이전 run은 버전으로 보관)",
        "Replace the run of a system already imported (the old run is kept as a version)",
    ),
    "update_questions": (
        "판정이 있는 질문도 바꾸기 (이전 문구는 버전으로 보관)",
        "Change questions that already have judgments (earlier wording is kept)",
    ),
    "question_versions": (
        "질문 문구 이력: 어느 문구로 판정했는지",
        "Question wording history: which wording was judged",
    ),
    "run_versions": ("바뀐 run (보관된 이전 버전)", "Replaced runs (earlier versions kept)"),
    "import_progress": ("{name}: {done:,} / {total:,}줄 읽음", "{name}: {done:,} of {total:,} lines read"),
    "import_writing": ("{name}: 검사하고 저장하는 중…", "{name}: checking and saving…"),
    "building_report": ("보고서를 만드는 중…", "Building the report…"),
    "chart_measure": ("그래프 지표", "Measure in the chart"),
    "event_rejected": ("저장하지 못한 판정이 있습니다: {reason}", "A judgment could not be saved: {reason}"),
    "policy_exclude_flagged": (
        "{label} — 품질 관리에서 표시된 판정자 제외",
        "{label} — annotators flagged by quality control left out",
    ),
    "policy_source": ("가져온 외부 판정 {name}", "imported qrels source {name}"),
    "policy_annotator": ("판정자 {name}의 등급만", "grades of annotator {name} only"),
    # answer review: adjudication, assignment
    "nav_review_adjudicate": ("검수 불일치 조정", "Review adjudication"),
    "nav_review_assign": ("검수 배정", "Review assignments"),
    "review_adjudicate_title": ("답변 검수 불일치 조정", "Answer review: adjudication"),
    "review_adjudicate_help": (
        "검수자들이 뒷받침 등급이나 해석 타당성에서 서로 다른 판정을 한 항목입니다(시스템·검수자 이름 없이). "
        "지표는 조정한 판정을 쓰고, 없으면 항목별 다수결, 동수면 낮은 등급을 씁니다.",
        "Items where the reviewers gave different support or interpretation grades (no system or reviewer "
        "names). The measures use the ruling; else the majority per item; a tie goes to the lower grade.",
    ),
    "review_queue_empty": ("조정할 검수 불일치가 없습니다.", "No review disagreement to adjudicate."),
    "review_queue_n": (
        "불일치 항목 {n}개 (조정 전 {open}개), 답변 {a}개",
        "{n} disputed items ({open} open) in {a} answers",
    ),
    "review_disputed_answer": ("답변", "Answer"),
    "review_disputed_label": (
        "{qid} · 답변 {a} · 미조정 {open}/{n} · 차이 {gap}",
        "{qid} · answer {a} · open {open}/{n} · gap {gap}",
    ),
    "review_disputed_item": ("항목", "Item"),
    "review_item_support": ("문장 {s} · 인용 {pid}", "sentence {s} · cites {pid}"),
    "review_answer_text": ("답변 (문장별)", "Answer (by sentence)"),
    "review_the_sentence": ("문장 {s}", "Sentence {s}"),
    "review_ruled": ("현재 조정: {g}", "Current ruling: {g}"),
    "review_queue_table": ("불일치 항목 전체", "Every disputed item"),
    "review_assign_title": ("답변 검수 배정", "Answer review assignments"),
    "review_assign_help": (
        "질문마다 그 질문의 모든 답변을 검수할 사람을 정합니다(일치도를 위해 일부 또는 모든 질문에 두 명). "
        "이미 검수를 시작한 질문은 그 검수자에게 남습니다. 배정이 없으면 모두가 모든 답변을 봅니다.",
        "Choose who reviews each question's answers (two reviewers on some or every question, for agreement). "
        "A question already started stays with its reviewer. Without assignments everyone sees every answer.",
    ),
    "reviewers": ("검수자", "Reviewers"),
    "review_assigned": ("검수를 배정했습니다: {msg}", "Reviews assigned: {msg}"),
    "no_review_assignments": (
        "검수 배정이 없습니다: 모든 검수자가 모든 답변을 봅니다.",
        "No review assignment: every reviewer sees every answer.",
    ),
    # storage.answers: answer imports, review sources
    "answers_failures": (
        "실패 사례: 뒷받침되지 않은 문장과 그 인용",
        "Failure cases: unsupported sentences and their citations",
    ),
    # judging plans
    "plan_title": ("판정 계획", "Judging plan"),
    "plan_choice": ("판정자가 판정할 문단", "What annotators judge"),
    "plan_complete": ("전체 판정: 풀의 모든 문단 (기본)", "Complete: every pooled paragraph (default)"),
    "plan_rr_first": (
        "RR@{k} 먼저: 어떤 시스템의 RR@{k}를 아직 바꿀 수 있는 문단부터, 모든 시스템이 확정되면 질문 끝",
        "RR@{k} first: paragraphs that can still change some system's RR@{k}; a question is done "
        "once every system's RR@{k} is settled",
    ),
    "plan_rest": (
        "RR@K가 모두 확정된 뒤 나머지 문단도 판정 (여러 시스템의 상위에 있는 문단부터)",
        "Once every RR@K is settled, go on with the rest of the pool (paragraphs high in many systems' top K first)",
    ),
    "plan_help": (
        "RR@K 먼저: 질문마다 각 시스템의 순위를 위에서부터 따라가, 관련(등급 ≥ 기준)으로 판정된 문단이 판정 안 된 문단보다 "
        "먼저 나오면 그 시스템의 RR@K는 확정입니다. 판정자는 확정되지 않은 시스템마다 가장 높은 미판정 문단을 "
        "섞인 순서로 봅니다(시스템·순위는 보이지 않음). 판정자 자신의 판정으로 셉니다.",
        "RR@K first: walking each system's ranking from the top, its RR@K is settled once a paragraph "
        "judged relevant (grade ≥ the threshold) comes before any unjudged one. Annotators see each "
        "unsettled system's highest unjudged paragraph, shuffled (no system or rank shown), counted "
        "on their own grades.",
    ),
    "plan_apply": ("판정 계획 적용", "Apply the judging plan"),
    "plan_sample": (
        "표본: 질문마다 풀에서 무작위로 뽑은 문단만 (Recall·nDCG·P·AP는 추정)",
        "Sample: a random sample of each pool only (Recall, nDCG, P, AP estimated)",
    ),
    "plan_then_sample": (
        "RR@K 먼저에 더해 풀의 무작위 표본도 판정 (나머지 문단 대신; Recall·nDCG·P·AP를 추정)",
        "With RR@K first, also judge a random sample of the pool (instead of the rest; estimates Recall, nDCG, P, AP)",
    ),
    "plan_estimate_sample": (
        "지금 계획(표본 포함): 범위 (예상)",
        "the chosen plan, sample included: range (expected)",
    ),
    "plan_sample_rate": ("표본 비율 (0보다 크고 1 이하)", "Sampling rate (above 0, at most 1)"),
    "plan_sample_seed": ("표본 시드", "Sample seed"),
    "plan_sample_help": (
        "표본은 계획을 적용할 때 질문마다 한 번 뽑혀 모든 판정자에게 같습니다(등급을 읽지 않음). 판정이 시작된 뒤에는 "
        "다른 비율·시드로 바꿀 수 없습니다.",
        "The sample is drawn once per question when the plan is applied, the same for every annotator (it reads no "
        "grade). Once judging has begun, its rate and seed cannot change.",
    ),
    "plan_estimate_button": ("계획별 판정량·시간 추정", "Estimate each plan's judgments and hours"),
    "plan_estimate_complete": ("전체 판정", "complete"),
    "plan_estimate_range": ("rr-first: 순위만으로 본 범위", "rr-first: range from the rankings"),
    "plan_estimate_expected": ("rr-first: 지금까지의 판정으로 본 예상", "rr-first: expected from the judgments so far"),
    "plan_estimate_note": (
        "판정자 수를 곱한 판정 수입니다. 예상은 지금까지의 판정 {n}개에서 순위별 '관련' 비율로 모의 실험한 값이고(판정 전에는 "
        "범위만), 시간은 팀의 판정당 중앙값 {s}초로 계산합니다.",
        "Judgments times the annotators per question. The expectation simulates rr-first with the share of relevant "
        "paragraphs per rank among the {n} judgments so far (before any, only the range); hours at the team's median "
        "{s} s per judgment.",
    ),
    "plan_saved": ("판정 계획을 적용했습니다.", "The judging plan is applied."),
    "plan_settled": ("RR@{k} 확정: {s}/{n} 시스템", "RR@{k} settled: {s}/{n} systems"),
    "plan_done": ("✓ 이 질문 끝 (판정 계획)", "✓ question done (judging plan)"),
    "plan_now": ("이 질문: 남은 판정 {n}", "this question: {n} left to judge"),
    "plan_left_short": ("남은 판정 {n}", "{n} left to judge"),
    "nothing_citable_ask": (
        "판정 계획이 필요로 한 문단을 모두 판정했고, 등급 {t} 이상(직접 인용할 근거)은 하나도 없습니다. "
        "이 결과에 답이 없다고 표시할까요? N = 근거 없음으로 표시 · Esc = 나중에 (표시하지 않으면 이 질문은 모든 시스템의 "
        "MRR에서 RR 0으로 셉니다)",
        "Every paragraph the judging plan needed is judged and none reached grade {t} (directly citable). "
        "Do these results hold no answer? N = mark “no answer” · Esc = not now (unmarked, the question counts as "
        "RR 0 in every system's MRR)",
    ),
    "plan_rest_items": (
        "나머지 문단 — 판정하지 않아도 됩니다 (판정해도 됩니다)",
        "The rest of the pool — not needed now (may still be judged)",
    ),
    # model judge (reljudge.judges): never shown to annotators
    "judge_panel_title": ("모델 대 기준", "Model vs reference"),
    "judge_panel_info": (
        "모델 판정(출처 {source})을 기준({against})과 비교합니다: 둘 다 판정한 풀 문단 {n}개. "
        "모델 판정은 판정자에게 보이지 않습니다.",
        "The model's grades (source {source}) against the reference ({against}): {n} pooled pairs both "
        "graded. Model grades are never shown to annotators.",
    ),
    "judge_model_line": (
        "모델 {model} · 버전 {version} · 프롬프트 sha256 {sha} · 판정 시각 {at}",
        "model {model} · version {version} · prompt sha256 {sha} · judged at {at}",
    ),
    "judge_confusion": (
        "혼동 행렬 (행: 기준 0·1·2, 열: 모델 0·1·2, Σ·합계: 합)",
        "Confusion matrix (rows: reference 0·1·2, columns: model 0·1·2, Σ and sum: the margins)",
    ),
    "judge_outcome": ("시스템 순위 일치 (켄달 타우)", "System ranking agreement (Kendall's tau)"),
    "judge_none": (
        "모델 판정 출처가 아직 없습니다(명령줄의 reljudge 자동 판정 명령으로 만듭니다).",
        "No model source yet (reljudge auto-judge).",
    ),
    "judge_pick": ("모델 출처", "Model source"),
    "judge_report_title": ("모델 판정 (모델 대 기준)", "Model judge (model vs reference)"),
    # quality control (pages/quality.py)
    "nav_quality": ("품질 관리", "Quality"),
    "quality_title": ("품질 관리", "Quality control"),
    "quality_reassign_link": (
        "{name}: 표시됨 — 이 판정자의 남은 질문을 다른 판정자에게 넘기기",
        "{name}: flagged — hand this annotator's remaining questions to others",
    ),
    "quality_caption": (
        "판정자마다 골드 항목(책임자가 믿는 정답)에 대한 정확도와 가중 카파, 미끼 문단(다른 질문의 문단, 기대 등급 0)에서 "
        "0보다 높게 준 수, 너무 빠른 판정 비율. 판정자에게는 골드와 미끼가 다른 문단과 똑같이 보입니다. 미끼는 qrels·지표·"
        "일치도·조정·qrels 내보내기·풀 크기·진행 현황에 들어가지 않습니다.",
        "Per annotator: accuracy and weighted kappa against gold items (answers the lead trusts), decoys "
        "(paragraphs of other questions, expected grade 0) graded above 0, and the share of too-fast "
        "judgments. Annotators see gold items and decoys like any other paragraph. Decoys never enter "
        "qrels, metrics, agreement, adjudication, qrels exports, pool sizes or progress.",
    ),
    "quality_rule": (
        "표시 기준: 골드 {min_gold}개 이상 판정하고 정확도 {min_accuracy} 미만, 또는 미끼 {max_failed}개 이상 실패. "
        "골드 항목 {n_gold}개, 놓인 미끼 {n_decoys}개.",
        "Flagged when gold accuracy < {min_accuracy} after at least {min_gold} gold items, or at least "
        "{max_failed} failed decoys. Gold items: {n_gold}; decoys placed: {n_decoys}.",
    ),
    "quality_settings": ("기준 바꾸기", "Change the thresholds"),
    "quality_min_gold": ("정확도 기준을 적용할 골드 판정 수", "Gold items judged before the floor applies"),
    "quality_min_accuracy": ("골드 정확도 하한", "Gold accuracy floor"),
    "quality_max_failed": ("표시할 미끼 실패 수", "Failed decoys that flag"),
    "quality_auto_gold": (
        "3명 이상이 만장일치한 항목을 골드로 자동 승격",
        "Promote items that 3 or more annotators agree on unanimously to gold",
    ),
    "quality_save": ("기준 저장", "Save the thresholds"),
    "quality_saved": ("기준을 저장했습니다.", "Thresholds saved."),
    "gold_header": ("골드 항목", "Gold items"),
    "gold_upload": ("골드 파일 (TREC qrels: qid 0 pid 등급)", "Gold file (TREC qrels: qid 0 pid grade)"),
    "gold_import": ("골드 가져오기", "Import gold"),
    "gold_imported": ("골드 항목 {n}개를 저장했습니다.", "{n} gold item(s) stored."),
    "decoys_header": ("미끼 문단 (주의 확인)", "Decoys (attention checks)"),
    "decoy_rate": ("미끼 비율", "Decoy rate"),
    "decoy_seed": ("시드", "Seed"),
    "decoys_help": (
        "판정자마다 목록에 다른 질문의 풀에서 가져온 문단(질문의 내용어가 없는 것)을 이 비율로 넣습니다(질문마다 최대 1개). "
        "다른 문단과 똑같이 보이며, 기대 등급은 0입니다. 다시 놓으면 아직 판정하지 않은 미끼만 바뀝니다.",
        "Puts paragraphs from other questions' pools (free of the question's content words) in each "
        "annotator's queue at this rate (at most one per question). They look like any other paragraph; "
        "expected grade 0. Placing again replaces only the decoys nobody has graded yet.",
    ),
    "decoy_history": ("미끼 판정 기록", "Grades given to decoys"),
    "decoys_place": ("미끼 놓기", "Place decoys"),
    "decoys_placed": (
        "판정자 {annotators}명의 목록에 미끼 {placed}개가 놓여 있습니다.",
        "{placed} decoy(s) in force over {annotators} annotator(s).",
    ),
    "use_as_gold_title": ("골드로 쓰기", "Use as gold"),
    "use_as_gold_none": (
        "골드로 쓸 수 있는 조정 결과가 없습니다(조정한 문단은 모두 이미 골드입니다).",
        "No ruling to use as gold (every adjudicated paragraph is gold already).",
    ),
    "use_as_gold": ("골드로 쓰기", "Use as gold"),
    "used_as_gold": ("{item}을(를) 골드 항목으로 저장했습니다.", "{item} is now a gold item."),
    "quality_export": ("품질 기록 내려받기 (JSONL)", "Download the quality export (JSONL)"),
    # model vs reference (pages/agreement.py, reporting.judge_tables): the reference picked,
    # and what a model source is good for
    "judge_reference": ("기준 (사람의 판정 또는 출처)", "Reference (the people's grades or a source)"),
    "judge_model_use": (
        "모델 출처는 시스템의 순서를 매기는 데 쓸 만하지만 절대값은 사람의 판정과 멉니다: KorQuAD 질문 50개 "
        "캠페인에서 e5-small은 시스템 순위를 사람과 같게 매겼으나(시스템 순위의 켄달 타우 1.0), MRR@10의 "
        "절대 오차는 기본 임계값에서 0.16–0.22, 교차 적합한 임계값에서 0.34–0.42였습니다. 순서 매기기와 "
        "선별에 쓰고, 절대값을 보고하는 데는 쓰지 마세요.",
        "A model source orders systems well, but its absolute values are far from the people's: on a "
        "50-question KorQuAD campaign, e5-small ranked the systems as the people did (Kendall τ 1.0 of the "
        "system ranking), while its MRR@10 was off by 0.16–0.22 with the default thresholds and by "
        "0.34–0.42 cross-fitted. Use it for ordering and triage, not for reporting absolute values.",
    ),
}
