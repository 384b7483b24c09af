"""Every visible UI string, Korean first, English second — kept in one place."""

from __future__ import annotations

from reljudge.codes import Message

LANGS = ("ko", "en")

STRINGS: dict[str, tuple[str, str]] = {
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
    "campaign_unknown": (
        "이 데이터베이스에는 {campaign}이 없어 {other}을 엽니다.",
        "This database holds no {campaign}: here is {other}.",
    ),
    # a campaign named inside a sentence (campaign_unknown, campaign_no_role)
    "campaign_in_text_default": ("기본 캠페인", "the default campaign"),
    "campaign_in_text": ("{campaign} 캠페인", "campaign {campaign}"),
    "campaign_no_role": (
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
    "question_n": ("질문 {i} / {n}", "Question {i} / {n}"),
    "type": ("유형", "Type"),
    "criteria": ("판정 기준", "Criteria"),
    "grade2": ("2 직접 인용 가능한 근거", "2 directly citable evidence"),
    "grade1": ("1 관련 있으나 단독 인용 불가", "1 related, not citable alone"),
    "grade0": ("0 관련 없음", "0 not relevant"),
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
    "sample_data": ("예시 자료", "sample data"),
    # overview
    "overview_title": ("진행 현황", "Progress"),
    "my_progress": ("내 진행 상황", "My progress"),
    "campaign_counts": (
        "문단 {paragraphs} · 질문 {questions} · 시스템 {systems} · 풀 {pool} · 판정 기록 {judgment_events}",
        "paragraphs {paragraphs} · questions {questions} · systems {systems} · pool {pool} · judgment events {judgment_events}",
    ),
    # import
    "import_title": ("자료 가져오기", "Import data"),
    "import_kind": ("종류", "Kind"),
    "kind_corpus": ("말뭉치(문단)", "Corpus (paragraphs)"),
    "kind_questions": ("질문", "Questions"),
    "kind_run": ("검색 결과(run)", "Run"),
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
    "provenance_unanimous": ("만장일치", "unanimous"),
    "provenance_majority": ("다수결", "majority"),
    "provenance_adjudicated": ("조정", "adjudicated"),
    "provenance_single": ("판정자 한 명", "single annotator"),
    "provenance_tie": ("동수 (낮은 등급)", "tie (lower grade)"),
    "ruling_no_answer": ("근거 없음", "no answer"),
    "ruling_has_answer": ("근거 있음", "has an answer"),
    "question_verdict": ("(질문 전체: 근거 유무)", "(whole question: answer or not)"),
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
    "assign_load": (
        "{user}: 질문 {questions}개 / 문단 {paragraphs}개",
        "{user}: {questions} questions / {paragraphs} paragraphs",
    ),
    "assign_summary": ("배정 {n}건 — {per}.", "{n} assignments — {per}."),
    "assign_kept": (
        "이미 판정을 시작한 질문 {n}개는 시작한 판정자에게 그대로 두었습니다.",
        "{n} questions already started stay with the annotators who started them.",
    ),
    "assign_empty": (
        "풀이 빈 질문(판정자는 근거 없음 여부만 표시): {qids}",
        "Questions with nothing pooled (the annotator only marks whether there is an answer): {qids}",
    ),
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
    "bounds_note": (
        "'범위'는 아직 판정하지 않은 풀 문단이 어떤 등급을 받더라도 값이 들어갈 구간입니다(판정이 아직 없는 "
        "질문도 포함하므로 풀 전체를 판정한 뒤의 값이 반드시 이 안에 듭니다). '= 값'은 확정된 값입니다. "
        "'상위 K 안 미판정'은 그 시스템의 값을 모두 확정하려면 많아야 몇 개를 더 판정하면 되는지입니다. "
        "풀 판정: {judged}/{size}개 ({share}).",
        "'Bounds': where the figure can still go, whatever grades the unjudged pooled paragraphs get "
        "(questions nobody has judged yet count too, so the full-pool value lies within). '= value': "
        "settled. 'Unjudged within K': at most this many more judgments settle that system's figures. "
        "Pool judged: {judged}/{size} ({share}).",
    ),
    "provisional_note": (
        "'잠정' 표시는 시스템이 상위 K 안에 내놓은 문단 중 판정된 비율이 {p}% 미만이라는 뜻입니다: "
        "판정하지 않은 문단은 관련 없음으로 세므로 값이 아직 바뀔 수 있습니다. "
        "(Judged@K는 run이 K보다 짧아도 K로 나누므로(ir_measures와 달리), K개보다 적게 내놓은 시스템은 1에 이르지 못합니다.)",
        "'Provisional' rows: less than {p}% of what the systems returned within K is judged; "
        "unjudged paragraphs count as not relevant, so the figure may still change. "
        "(Judged@K divides by K even for a shorter ranking, unlike ir_measures, so a system returning fewer than K never reaches 1.)",
    ),
    "few_questions_note": (
        "'질문 적음' 표시는 답할 수 있는 질문이 {m}개 미만인 그룹입니다: 평균과 95% 구간이 질문 몇 개에 "
        "기대고 있어 믿기 어렵습니다 (질문 5개로도 [1.000, 1.000]이 나올 수 있습니다). "
        "결론을 내리기 전에 질문을 더 판정하세요.",
        "'Few questions' rows rest on fewer than {m} answerable questions: their means and 95% "
        "intervals depend on a handful of questions and are not reliable (5 questions can give "
        "[1.000, 1.000]). Judge more questions before drawing conclusions.",
    ),
    "means_table": (
        "시스템 × 질문 유형: 평균(95% 부트스트랩 구간), 1위·상위 3위·미검색 건수와 비율",
        "System × question type: means (95% bootstrap interval), rank-1 / top-3 / not-found counts and shares",
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
    "no_answer_questions": (
        "근거 없음 질문 {n}개는 평균에서 빼고 따로 보고합니다.",
        "{n} no-answer questions are left out of the means and reported separately.",
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
    "report_lang": ("보고서 언어", "Report language"),
    "outcome_title": ("결론의 일치도: 판정자별 시스템 순위", "Agreement on outcomes: system rankings per annotator"),
    "outcome_caption": (
        "판정자마다 자기 판정만으로 {measure}를 계산해 시스템 순위를 매기고, 순위 사이의 Kendall's tau를 보입니다. 아래 표는 한 판정자의 판정으로 바꾸면 1위 시스템이 달라지는 질문입니다.",
        "Each annotator's own labels give {measure} per system; Kendall's tau compares the rankings. The table lists questions where one annotator's labels would change which system comes first.",
    ),
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
    "report_plan_then_rest": (
        "; 그 뒤 나머지 문단도 (여러 시스템 상위의 문단부터)",
        "; then the rest of the pool (paragraphs high in many systems first)",
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
    "importing": ("{name} 가져오는 중… (큰 파일은 시간이 걸립니다)", "Importing {name}… (large files take a while)"),
    "all": ("전체", "all"),
    "lang_ko": ("한국어", "Korean"),
    "lang_en": ("영어", "English"),
    "choose_file": ("가져올 파일을 고르세요.", "Choose a file to import."),
    "source_needed": ("출처 이름을 적으세요 (예: llm-judge).", "Give the source a name (e.g. llm-judge)."),
    "summary_head": ("{kind} {source}: {parts}", "{kind} {source}: {parts}"),
    "summary_added": ("{n}개 추가", "{n} added"),
    "summary_updated": ("{n}개 수정", "{n} updated"),
    "summary_unchanged": ("{n}개 그대로", "{n} unchanged"),
    "summary_systems": ("시스템: {names}", "systems: {names}"),
    "summary_pooled": ("판정 풀을 다시 만들었습니다: 항목 {n}개", "judging pool rebuilt: {n} items"),
    "summary_pool_change": (
        "판정 풀을 다시 만들었습니다: 항목 {before}개 → {size}개 (새로 들어옴 {added}개, 빠짐 {removed}개 — "
        "그중 이미 판정된 것 {judged}개; 그 판정은 남지만 풀 밖에 있음)",
        "judging pool rebuilt: {before} → {size} items ({added} joined, {removed} left — "
        "{judged} of those already judged; their judgments stay, outside the pool)",
    ),
    "summary_versioned": (
        "판정이 있는 질문 {n}개({qids})를 바꾸었습니다: 이전 문구는 버전으로 남아 있습니다",
        "{n} judged questions changed ({qids}): their earlier wording is kept as a version",
    ),
    "summary_replaced": (
        "시스템 {system}의 이전 run({n}줄, {source})을 버전 {v}로 보관하고 바꾸었습니다",
        "replaced the run of system {system} ({n} lines from {source}, kept as version {v})",
    ),
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
    "summary_incomplete": (
        "주의: 질문 {n}개에 유형이나 판정 기준(criteria)이 없습니다 — 판정자가 무엇을 근거로 "
        "볼지 알 수 있게 채워서 다시 가져오세요",
        "note: {n} questions have no type or criteria; annotators need the criteria to "
        "judge, so fill them in and import again",
    ),
    "import_progress": ("{name}: {done:,} / {total:,}줄 읽음", "{name}: {done:,} of {total:,} lines read"),
    "import_writing": ("{name}: 검사하고 저장하는 중…", "{name}: checking and saving…"),
    "building_report": ("보고서를 만드는 중…", "Building the report…"),
    "chart_measure": ("그래프 지표", "Measure in the chart"),
    "event_rejected": ("저장하지 못한 판정이 있습니다: {reason}", "A judgment could not be saved: {reason}"),
    "rejected_stale": (
        "다른 브라우저에서 그 뒤에 바뀌었습니다. 더 새로운 판정을 남겼습니다",
        "changed in another browser after this edit was made; the newer judgment is kept",
    ),
    "rejected_not_pooled": (
        "이 문단은 더 이상 이 질문의 풀에 없습니다",
        "this paragraph is no longer in the question's pool",
    ),
    "rejected_not_assigned": (
        "이 질문은 더 이상 내게 배정되어 있지 않습니다",
        "this question is no longer assigned to you",
    ),
    "rejected_unknown_question": ("없는 질문입니다", "unknown question"),
    "rejected_held_back": (
        "함께 보낸 다른 판정이 거부되어 저장하지 않았습니다",
        "not stored: another event of the same save was refused",
    ),
    "rejected_malformed": ("잘못된 판정 기록입니다", "malformed judgment event"),
    "rejected_not_cited": ("이 문장은 그 문단을 인용하지 않습니다", "this sentence does not cite that paragraph"),
    "rejected_superseded": ("이 답변은 새 버전으로 바뀌었습니다", "this answer was replaced by a newer version"),
    "rejected_unknown_answer": ("없는 답변입니다", "unknown answer"),
    "rejected_unknown_sentence": ("답변에 없는 문장입니다", "no such sentence in the answer"),
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
    "policy_source": ("가져온 외부 판정 {name}", "imported qrels source {name}"),
    "policy_annotator": ("판정자 {name}의 등급만", "grades of annotator {name} only"),
    "report_policy_version": ("동결된 qrels 버전 {v}", "frozen qrels version {v}"),
    # why an agreement figure is not computed (reljudge.agreement.coefficients.CODES, outcome_agreement.CODES)
    "reason_no_pairable_items": ("두 명 이상이 판정한 항목이 없습니다", "no item was rated by two or more annotators"),
    "reason_fleiss_one_category": (
        "판정자 {raters}명이 본 항목 {items}개의 판정이 모두 한 범주여서 우연 일치가 1이므로 kappa를 정의할 수 없습니다",
        "all ratings on the {items} items with {raters} raters fall in one category: chance agreement is 1, "
        "kappa is undefined",
    ),
    "reason_alpha_one_category": (
        "비교할 수 있는 판정이 모두 한 범주여서 기대 불일치가 0이므로 alpha를 정의할 수 없습니다",
        "every pairable rating is in one category: expected disagreement is 0, alpha is undefined",
    ),
    "reason_no_common_items": ("두 판정자가 함께 판정한 항목이 없습니다", "the two annotators rated no item in common"),
    "reason_cohen_one_category": (
        "두 판정자가 공통 항목 {items}개를 모두 같은 한 범주에 넣어 우연 일치가 1이므로 kappa를 정의할 수 없습니다",
        "both annotators put all {items} common items in the same single category: chance agreement is 1, "
        "kappa is undefined",
    ),
    "reason_fewer_annotators": ("판정자가 두 명보다 적습니다", "fewer than two annotators"),
    "reason_unordered_kappa": (
        "해당 없음: 범주에 순서가 없습니다 (예/아니오 판정에서는 가중치 없는 kappa와 같습니다)",
        "not applicable: the categories are not ordered (on a yes/no verdict it equals the unweighted kappa)",
    ),
    "reason_unordered_alpha": (
        "해당 없음: 범주에 순서가 없습니다 (예/아니오 판정에서는 명목 alpha와 같습니다)",
        "not applicable: the categories are not ordered (on a yes/no verdict it equals nominal alpha)",
    ),
    "reason_no_type_grades": ("이 유형에는 문단 판정이 없습니다", "no paragraph grades for this type"),
    "reason_no_verdicts": ("질문 단위 근거 없음 판정이 없습니다", "no question-level no-answer verdicts"),
    # errors the library raises with a code (assignment, adjudication, auth .CODES)
    "error_no_annotators": ("배정할 판정자가 없습니다", "no annotators to assign to"),
    "error_per_question": ("질문마다 판정자가 한 명 이상 필요합니다", "each question needs at least one annotator"),
    "error_too_few_annotators": (
        "질문 하나에 판정자 {n}명을 줄 수 없습니다: 판정자가 {available}명뿐입니다",
        "cannot give a question {n} annotators: only {available} available",
    ),
    "error_double_share": (
        "두 명이 판정할 비율은 0과 1 사이여야 합니다",
        "the double-judged share must be between 0 and 1",
    ),
    "error_nothing_pooled": (
        "아직 풀이 없습니다: run을 가져오고 풀을 만든 뒤 배정하세요",
        "nothing is pooled yet: import the runs and build the pool before assigning",
    ),
    "error_no_takeover": ("넘겨받을 다른 판정자가 없습니다", "no other annotator to take over"),
    "error_grade": (
        "등급은 0, 1, 2 가운데 하나여야 합니다 (받은 값: {grade!r})",
        "grade must be 0, 1 or 2, got {grade!r}",
    ),
    "error_reason_needed": ("판정 이유를 적어 주세요", "an adjudication needs a reason"),
    "error_freeze_source": (
        "가져온 외부 판정은 동결할 수 없습니다",
        "an imported source is already fixed; freeze the team's judgments instead",
    ),
    "error_nothing_to_freeze": ("동결할 판정이 아직 없습니다", "nothing to freeze: no judgments yet"),
    "error_invalid_username": (
        "쓸 수 없는 사용자 이름 {user!r}: 글자, 숫자, '.', '-', '_', '@'로 1–64자",
        "invalid username {user!r}: 1–64 letters, digits, '.', '-', '_' or '@'",
    ),
    "error_short_password": ("비밀번호는 8자 이상이어야 합니다", "password must have at least 8 characters"),
    "error_unknown_role": (
        "알 수 없는 역할 {role!r}: {roles} 가운데 고르세요",
        "unknown role {role!r}; choose one of {roles}",
    ),
    "error_user_exists": ("이미 있는 사용자입니다: {user!r}", "user {user!r} already exists"),
    "error_accounts_exist": (
        "이미 계정이 있습니다: 다른 계정은 책임자가 추가합니다",
        "accounts exist already; a lead adds further accounts",
    ),
    "error_no_such_user": ("없는 사용자입니다: {user!r}", "no such user {user!r}"),
    "error_invalid_email": ("올바른 이메일 주소가 아닙니다: {email!r}", "not a valid e-mail address: {email!r}"),
    "error_email_taken": (
        "이메일 {email!r}은(는) 이미 계정 {user!r}의 것입니다",
        "the e-mail {email!r} belongs to the account {user!r} already",
    ),
    "error_no_such_identity": (
        "승인을 기다리는 조직 계정이 없습니다: {email!r}",
        "no organisation identity waits under {email!r}",
    ),
    "error_bad_setup_code": (
        "설정 코드가 맞지 않습니다: 서버를 시작한 터미널(서버 로그)에 나온 코드를 입력하세요",
        "wrong setup code: enter the code printed in the terminal (the server's log) where the server was started",
    ),
    "error_db_locked": (
        "{path}: 데이터베이스를 다른 프로세스(예: 실행 중인 reljudge 앱)가 사용 중입니다. "
        "그 프로세스를 멈추거나 다른 --db 파일을 쓰세요.",
        "{path}: the database is in use by another process (e.g. the running app); stop it or use another --db file.",
    ),
    "error_db_unavailable": (
        "{where}: 데이터베이스 서버에 연결할 수 없습니다({detail}). 서버가 켜져 있는지, "
        "주소·사용자·비밀번호(PGPASSWORD, ~/.pgpass)가 맞는지 확인하세요. "
        "저장하지 못한 판정은 브라우저에 남아 있다가 다시 보내집니다.",
        "{where}: cannot reach the database server ({detail}). Check that it is running "
        "and that the address, user and password (PGPASSWORD, ~/.pgpass) are right; "
        "unsaved judgments wait in the browser and are sent again.",
    ),
    # where bad input is (errors.CODES) and what is wrong with it (importers.CODES)
    "error_import_database": (
        "{file}: 가져오지 못했습니다 ({detail}). 아무것도 기록하지 않았습니다",
        "{file}: could not import ({detail}); nothing was written",
    ),
    "error_pool_below_k": (
        "풀 깊이 {depth}가 보고하는 가장 큰 K({k})보다 작습니다: K={k}의 수치가 "
        "아무도 판정할 수 없는 문단에 기대게 됩니다",
        "pool depth {depth} is below the largest K reported ({k}): "
        "figures at K={k} would rest on paragraphs nobody can judge",
    ),
    # declaring question types (campaign.CODES)
    "error_type_empty": ("유형 이름이 비어 있습니다", "a question type needs a name"),
    "error_type_too_long": (
        "유형 이름이 {n}자입니다: {limit}자까지 받습니다",
        "the type name has {n} characters; at most {limit} are accepted",
    ),
    "error_type_hidden": (
        "유형 {qtype!r}에 보이지 않는 문자나 제어 문자({char})가 있습니다: 다른 유형과 구별되지 않습니다",
        "type {qtype!r} holds an invisible or control character ({char}); it could not be told from another type",
    ),
    "error_id_has_space": (
        "{column} {value!r}에 공백이 있어 TREC 파일에 쓸 수 없습니다",
        "{column} {value!r} contains whitespace: it cannot be written to a TREC file",
    ),
    "error_qrels_import_format": (
        "qrels 가져오기는 trec 또는 beir 형식만 읽습니다 ({format!r}가 아님)",
        "qrels import reads trec or beir, not {format!r}",
    ),
    "error_beir_header": (
        "첫 줄은 'query-id<TAB>corpus-id<TAB>score' 머리글이어야 합니다",
        "expected the header 'query-id<TAB>corpus-id<TAB>score'",
    ),
    "error_beir_fields": (
        "탭으로 나뉜 3개 칸이 있어야 하는데 {n}개입니다",
        "expected 3 tab-separated fields, found {n}",
    ),
    "error_grade_not_whole": ("등급 {value!r}는 정수가 아닙니다", "grade {value!r} is not a whole number"),
    "error_grade_range": ("등급 {value}는 범위({grades})를 벗어납니다", "grade {value} is out of range ({grades})"),
    "error_qrels_empty_id": ("qid 또는 docid가 비어 있습니다", "empty qid or docid"),
    # the notebook front door (reljudge.evaluate, reljudge.open_campaign)
    "error_frame_column": (
        "{what} DataFrame에 {column} 열이 없습니다 (있는 열: {has})",
        "{what} DataFrame lacks a {column} column (has {has})",
    ),
    "error_frame_relevance_whole": (
        "qrels: 모든 relevance는 정수여야 합니다",
        "qrels: every relevance must be a whole number",
    ),
    "error_frame_judged_twice": (
        "qrels: 질의 {qid}가 문서 {pid}를 두 번 판정합니다",
        "qrels: query {qid} judges document {pid} twice",
    ),
    "error_frame_no_score": (
        "run DataFrame에는 'score'(또는 'rank') 열이 있어야 합니다",
        "run DataFrame needs a 'score' (or 'rank') column",
    ),
    "error_frame_score_number": ("run: 모든 score는 숫자여야 합니다", "run: every score must be a number"),
    "error_frame_ranked_twice": (
        "run: 질의 {qid}가 문서 {pid}를 두 번 순위에 올립니다",
        "run: query {qid} ranks document {pid} twice",
    ),
    "error_frame_qrels_kind": (
        "qrels: DataFrame이나 TREC qrels 파일의 경로를 주십시오",
        "qrels: give a DataFrame or the path of a TREC qrels file",
    ),
    "error_frame_run_kind": (
        "run: DataFrame이나 run 파일의 경로를 주십시오",
        "run: give a DataFrame or the path of a run file",
    ),
    "error_open_campaign_target": (
        "open_campaign에는 캠페인 파일의 경로나 postgresql:// URL이 필요합니다",
        "open_campaign needs the path of a campaign file or a postgresql:// URL",
    ),
    "error_qrels_conflict": (
        "서로 다른 중복: {qid} {pid}가 여기서는 {grade}, {other_line}번째 줄에서는 {other}입니다",
        "conflicting duplicate: {qid} {pid} is {grade} here but {other} on line {other_line}",
    ),
    "error_no_qrels_rows": ("빈 파일입니다 (qrels 행이 없습니다)", "file is empty (no qrels rows)"),
    "error_qrels_no_source": (
        "qrels 가져오기에는 출처 이름(--source NAME)이 필요합니다",
        "a qrels import needs --source NAME",
    ),
    "error_input_at_line": ("{file}, {line}번째 줄: {problem}", "{file}, line {line}: {problem}"),
    "error_input_in_file": ("{file}: {problem}", "{file}: {problem}"),
    "error_file_not_found": ("파일이 없습니다", "file not found"),
    "error_is_directory": ("파일이 아니라 폴더입니다", "is a directory, not a file"),
    "error_file_empty": ("빈 파일입니다", "file is empty"),
    "error_bad_utf8": ("{byte}번째 바이트가 UTF-8이 아닙니다", "invalid UTF-8 at byte {byte}"),
    "error_bad_json": (
        "JSON 형식이 잘못되었습니다: {detail} ({column}번째 글자)",
        "malformed JSON: {detail} (column {column})",
    ),
    "error_not_object": ("줄마다 JSON 객체가 하나 있어야 합니다", "expected a JSON object per line"),
    "error_answer_too_long": (
        "답변이 {n}자입니다: {limit}자까지 받습니다",
        "the answer has {n} characters; at most {limit} are accepted",
    ),
    "error_json_too_deep": (
        "JSON 값이 너무 깊게 중첩되어 있습니다({limit}단계까지 받음)",
        "the JSON value nests too deeply (at most {limit} levels are accepted)",
    ),
    "error_no_records": ("레코드가 없습니다", "file is empty (no records)"),
    "error_no_header": ("머리글 행이 없습니다", "missing header row"),
    "error_missing_column": ("{columns} 열이 없습니다 (있는 열: {found})", "missing column {columns}; found {found}"),
    "error_extra_fields": ("머리글의 {n}개보다 칸이 많습니다", "more fields than the header's {n}"),
    "error_missing_field": ("{field} 값이 없습니다", "missing {field}"),
    "error_not_id": (
        "{field}는 문자열이나 정수여야 합니다 (받은 값: {value!r})",
        "{field} must be a string or an integer, got {value!r}",
    ),
    "error_id_whitespace": ("{field} {value!r}에 공백이 있습니다", "{field} {value!r} contains whitespace"),
    "error_not_integer": (
        "{field}는 정수여야 합니다 (받은 값: {value!r})",
        "{field} must be an integer, got {value!r}",
    ),
    "error_out_of_range": ("{field} {value!r}가 범위를 벗어납니다", "{field} {value!r} is out of range"),
    "error_not_number": ("{field}는 숫자여야 합니다 (받은 값: {value!r})", "{field} must be a number, got {value!r}"),
    "error_not_finite": (
        "{field}는 유한한 숫자여야 합니다 (받은 값: {value!r})",
        "{field} must be a finite number, got {value!r}",
    ),
    "error_not_bool": (
        "{field}는 true 또는 false여야 합니다 (받은 값: {value!r})",
        "{field} must be true or false, got {value!r}",
    ),
    "error_unknown_format": (
        "알 수 없는 형식 {format!r}: {formats} 가운데 고르세요",
        "unknown format {format!r}; choose one of {formats}",
    ),
    "error_unknown_suffix": (
        "확장자 {suffix!r}로는 형식을 알 수 없습니다: 형식(jsonl|csv)을 고르세요",
        "cannot tell the format from {suffix!r}; use --format jsonl|csv",
    ),
    "error_no_suffix": (
        "확장자가 없어 형식을 알 수 없습니다: 형식(jsonl|csv)을 고르세요",
        "cannot tell the format from 'no extension'; use --format jsonl|csv",
    ),
    "error_empty_text": ("본문(text)이 없거나 비어 있습니다", "missing or empty text"),
    "error_empty_question": ("질문 본문(text)이 없거나 비어 있습니다", "missing or empty question text"),
    "error_no_system": (
        "시스템 이름이 없습니다: 시스템 이름을 주거나 'tag' 열을 넣으세요",
        "no system name: give --system NAME or a 'tag' column",
    ),
    "error_no_rank": ("순위(rank)나 점수(score)가 있어야 합니다", "needs a rank or a score"),
    "error_rank_negative": ("rank는 0 이상이어야 합니다 (받은 값: {rank})", "rank must be 0 or more, got {rank}"),
    "error_nul": ("{field}: NUL 문자(U+0000)는 허용되지 않습니다", "{field}: NUL character (U+0000) is not allowed"),
    "error_system_empty": ("시스템 이름(--system)이 비어 있습니다", "--system must not be empty"),
    "error_answer_no_system": (
        "시스템 이름이 없습니다: 시스템 이름을 주거나 'system' 열을 넣으세요",
        "no system name: give --system NAME or a 'system' field",
    ),
    "error_answer_twice": (
        "시스템 {system!r}의 질문 {qid!r}에 대한 답변이 두 번 나옵니다 (처음은 {first}번째 줄)",
        "duplicate answer of system {system!r} to question {qid!r} (first at line {first})",
    ),
    "error_answer_not_text": ("answer는 글이어야 합니다 (받은 값: {value!r})", "answer must be text, got {value!r}"),
    "error_answer_empty": (
        "빈 답변입니다 (시스템이 답변을 보류했다면 abstained: true로 표시하세요)",
        "empty answer (set abstained: true if the system declined)",
    ),
    "error_citations_not_list": (
        "citations는 문단 id의 목록이어야 합니다 (받은 값: {value!r})",
        "citations must be a list of paragraph ids, got {value!r}",
    ),
    "error_marker_outside": (
        "인용 표시 [{n}]이(가) citations 목록({entries}개) 밖을 가리킵니다",
        "citation marker [{n}] points outside the citations list ({entries} entries)",
    ),
    "error_sentences_not_list": ("sentences는 목록이어야 합니다", "sentences must be a list"),
    "error_sentence_item": (
        "sentences[{i}]는 글이거나 'text'가 있는 객체여야 합니다",
        "sentences[{i}] must be text or an object with 'text'",
    ),
    "error_markers_first": ("문장보다 앞에 인용 표시가 있습니다", "citation markers before any sentence"),
    # why an import was refused after reading (storage.catalog.CODES)
    "error_duplicate_id": (
        "{field} {value!r}가 두 번 나옵니다 (처음은 {first}번째 줄)",
        "duplicate {field} {value!r} (first at line {first})",
    ),
    "error_pid_changed": (
        "pid {pid!r}가 이미 다른 본문으로 있습니다: 판정한 문단의 id는 바뀌면 안 됩니다",
        "pid {pid!r} already exists with a different text; paragraph ids must stay stable once judged",
    ),
    "error_unknown_qid": (
        "없는 qid {qid!r} (가져온 질문에 없음)",
        "unknown qid {qid!r} (not among the imported questions)",
    ),
    "error_unknown_pid": ("없는 pid {pid!r} (말뭉치에 없음)", "unknown pid {pid!r} (not in the corpus)"),
    "error_run_twice": (
        "시스템 {system!r}의 질문 {qid!r}에 pid {pid!r}가 두 번 나옵니다 (처음은 {first}번째 줄)",
        "pid {pid!r} appears twice for query {qid!r} of system {system!r} (first at line {first})",
    ),
    "error_undeclared_type": (
        "질문 유형 {qtype!r}은(는) 이 캠페인에 선언되지 않았습니다 (선언된 유형: {declared}). "
        "파일을 고치거나, 새 유형이면 책임자가 선언한 뒤(자료 가져오기 화면, reljudge types add) "
        "다시 가져오세요",
        "question type {qtype!r} is not declared in this campaign (declared: {declared}); "
        "correct the file, or if it is a new type, a lead declares it (Import page, "
        "reljudge types add) and you import again",
    ),
    "error_undeclared_type_near": (
        "질문 유형 {qtype!r}은(는) 이 캠페인에 선언되지 않았습니다 (선언된 유형: {declared}). "
        "{near!r}을(를) 뜻했나요? 띄어쓰기·대소문자·문장부호만 다릅니다",
        "question type {qtype!r} is not declared in this campaign (declared: {declared}); "
        "did you mean {near!r}? They differ only in spacing, case or punctuation",
    ),
    "error_type_variant": (
        "유형 {qtype!r}은(는) 선언된 유형 {near!r}와(과) 띄어쓰기·대소문자·문장부호만 다릅니다: "
        "유형별 표에서 따로 묶이게 됩니다. {near!r}을(를) 쓰세요",
        "type {qtype!r} differs from the declared type {near!r} only in spacing, case or "
        "punctuation: it would be a group of its own in every per-type table; use {near!r}",
    ),
    "error_type_not_declared": (
        "유형 {qtype!r}은(는) 선언되어 있지 않습니다 (선언된 유형: {declared})",
        "type {qtype!r} is not declared (declared: {declared})",
    ),
    "error_type_in_use": (
        "질문 {n}개가 유형 {qtype!r}을(를) 쓰고 있어 선언을 취소할 수 없습니다: 먼저 그 질문들의 "
        "유형을 바꾸세요(--update-questions)",
        "{n} questions have type {qtype!r}, so it cannot be withdrawn; change their type first (--update-questions)",
    ),
    "reason_all_tied": ("한 판정자의 순위에서 모든 시스템이 동률입니다", "a ranking has all systems tied"),
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
    "support_label": ("뒷받침", "support"),
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
    # review.py: refused review events, malformed events, review files
    "review_stale": (
        "다른 브라우저에서 그 뒤에 바뀌었습니다. 더 새로운 판정을 남겼습니다",
        "changed in another browser after this edit was made; the newer decision is kept",
    ),
    "review_unknown_answer": ("없는 답변 {answer!r}", "unknown answer {answer!r}"),
    "review_superseded": (
        "답변 {answer!r}은(는) 그 시스템의 답변을 새로 가져오면서 새 버전으로 바뀌었습니다",
        "answer {answer!r} was replaced by a newer import of its system's answers",
    ),
    "review_unknown_sentence": (
        "답변 {answer!r}에 문장 {sentence}이(가) 없습니다",
        "answer {answer!r} has no sentence {sentence}",
    ),
    "review_not_cited": (
        "답변 {answer!r}의 그 문장은 문단 {pid!r}을(를) 인용하지 않습니다",
        "paragraph {pid!r} is not cited by that sentence of answer {answer!r}",
    ),
    "review_not_assigned": (
        "답변 {answer!r}은(는) {user!r}의 검수 목록에 없습니다",
        "answer {answer!r} is not in the review queue of {user!r}",
    ),
    "review_held_back": (
        "함께 보낸 다른 검수가 거부되어 저장하지 않았습니다",
        "not stored: another event of the same save was refused",
    ),
    "review_malformed": ("잘못된 검수 기록입니다", "malformed review event"),
    "review_malformed_detail": ("잘못된 검수 기록입니다: {detail}", "malformed review event: {detail}"),
    # a field of a browser event (reljudge.campaign.event_fields: judgments and reviews alike)
    "event_error_id": (
        "잘못된 기록 id입니다 (최대 100자의 문자열)",
        "malformed event id (a string of at most 100 characters)",
    ),
    "event_error_missing": ("{field}이(가) 없습니다", "missing {field}"),
    "event_error_text": ("{field}은(는) 문자열이어야 합니다", "{field} must be a string"),
    "event_error_too_long": ("{field}이(가) {limit}자보다 깁니다", "{field} longer than {limit} characters"),
    "event_error_characters": (
        "{field}에 저장할 수 없는 문자(짝 없는 서러게이트, NUL)가 있습니다",
        "{field} holds characters that cannot be stored (a lone surrogate, NUL)",
    ),
    "event_error_integer": ("{field}은(는) 정수여야 합니다", "{field} must be an integer"),
    "event_error_range": ("{field}이(가) 범위를 벗어났습니다", "{field} out of range"),
    "event_error_boolean": ("{field}은(는) true 또는 false여야 합니다", "{field} must be true or false"),
    "event_error_grade": (
        "등급은 0, 1, 2 가운데 하나여야 합니다 (받은 값: {value})",
        "grade must be 0, 1 or 2, got {value}",
    ),
    "event_error_kind": ("알 수 없는 기록 종류 {value}", "unknown event kind {value}"),
    "review_error_policy": (
        "알 수 없는 집계 정책 {policy!r}: adjudicated, majority, reviewer:이름, source:이름 가운데 하나",
        "unknown policy {policy!r}; use adjudicated, majority, reviewer:NAME or source:NAME",
    ),
    "review_error_source_needed": ("--source로 검수 출처의 이름을 정하세요", "--source must name the review source"),
    "review_error_cannot_adjudicate": ("{kind!r}은(는) 조정할 수 없습니다", "cannot adjudicate {kind!r}"),
    "review_error_flag_needed": ("예 또는 아니오를 골라야 합니다", "flag must be true or false"),
    "review_file_missing": ("{field}이(가) 없습니다", "missing {field}"),
    "review_file_no_answer": (
        "시스템 {system!r}의 질문 {qid!r}에 대한 현재 답변이 없습니다",
        "no current answer of system {system!r} to question {qid!r}",
    ),
    "review_file_duplicate": (
        "{reviewer!r}의 {qid!r}/{system!r} 검수가 두 번 있습니다 (처음: {first}번째 줄)",
        "duplicate review of {qid!r}/{system!r} by {reviewer!r} (first at line {first})",
    ),
    "review_file_interpretation": (
        "interpretation은 0, 1, 2, null 가운데 하나여야 합니다 (받은 값: {value!r})",
        "interpretation must be 0, 1, 2 or null, got {value!r}",
    ),
    "review_file_abstention": (
        "abstention_appropriate는 true, false, null 가운데 하나여야 합니다 (받은 값: {value!r})",
        "abstention_appropriate must be true, false or null, got {value!r}",
    ),
    "review_file_note": ("note는 글이어야 합니다", "note must be text"),
    "review_file_sentences": ("sentences는 목록이어야 합니다", "sentences must be a list"),
    "review_file_index": ("문장마다 정수 'index'가 있어야 합니다", "each sentence needs an integer 'index'"),
    "review_file_index_range": (
        "문장 번호 {index}이(가) 답변의 문장 {n}개 밖에 있습니다",
        "sentence index {index} outside the answer's {n} sentences",
    ),
    "review_file_needs_citation": (
        "needs_citation은 true 또는 false여야 합니다 (받은 값: {value!r})",
        "needs_citation must be true or false, got {value!r}",
    ),
    "review_file_support": (
        "support는 문단 id에서 등급으로 가는 객체여야 합니다",
        "support must be an object mapping pid to grade",
    ),
    "review_file_not_cited": (
        "문장 {index}은(는) 문단 {pid!r}을(를) 인용하지 않습니다",
        "paragraph {pid!r} is not cited by sentence {index}",
    ),
    "review_file_support_grade": (
        "뒷받침 등급은 0, 1, 2 가운데 하나여야 합니다 (받은 값: {value!r})",
        "support grade must be 0, 1 or 2, got {value!r}",
    ),
    # storage.answers: answer imports, review sources
    "answers_unknown_qid": (
        "없는 질문 id {qid!r} (가져온 질문에 없음)",
        "unknown qid {qid!r} (not among the imported questions)",
    ),
    "answers_unknown_pid": (
        "인용한 문단 id {pid!r}이(가) 말뭉치에 없습니다",
        "unknown cited pid {pid!r} (not in the corpus)",
    ),
    "answers_system_exists": (
        "시스템 {system!r}의 답변이 이미 있습니다 (버전 {version}); 새 버전으로 가져오려면 --replace를 쓰세요 "
        "(이전 버전과 그 검수는 남습니다)",
        "system {system!r} has answers already (version {version}); import again with --replace to add a new "
        "version (the old one and its reviews are kept)",
    ),
    "review_unknown_source": ("가져온 검수 출처 {source!r}이(가) 없습니다", "no imported review source {source!r}"),
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
    "plan_saved": ("판정 계획을 적용했습니다.", "The judging plan is applied."),
    "plan_settled": ("RR@{k} 확정: {s}/{n} 시스템", "RR@{k} settled: {s}/{n} systems"),
    "plan_done": ("✓ 이 질문 끝 (판정 계획)", "✓ question done (judging plan)"),
    "plan_now": ("지금 판정할 문단 {n}개", "{n} paragraph(s) to judge now"),
    "plan_rest_items": (
        "나머지 문단 — 판정하지 않아도 됩니다 (판정해도 됩니다)",
        "The rest of the pool — not needed now (may still be judged)",
    ),
    "error_plan_order_complete_only": (
        "모델 출처는 complete 계획의 순서만 정합니다",
        "a model source orders the complete plan only",
    ),
    "error_no_model_source": (
        "모델 출처 {source}이(가) 없습니다 (reljudge auto-judge --source 이름)",
        "no model source {source} (reljudge auto-judge --source NAME)",
    ),
    # the metric engine's messages: measure names (eval.measures), ranking rule (eval.ranking), TREC files (eval.trec_io)
    "error_measure_unreadable": (
        "측정 {measure}을(를) 읽을 수 없습니다. 아는 측정: {known}",
        "cannot read measure {measure}; known measures: {known}",
    ),
    "error_measure_unknown": (
        "{measure}의 측정 {name}을(를) 모릅니다. 아는 측정: {known}",
        "unknown measure {name} in {measure}; known measures: {known}",
    ),
    "error_measure_parameter": (
        "측정 {measure}: 모르는 매개변수 {parameter} (rel=N만 있습니다)",
        "measure {measure}: unknown parameter {parameter} (only rel=N exists)",
    ),
    "error_measure_no_rel_gain": (
        "측정 {measure}: {name}은(는) rel=을 받지 않습니다(이득이 등급 자체입니다)",
        "measure {measure}: {name} takes no rel= (its gain is the grade itself)",
    ),
    "error_measure_no_rel": (
        "측정 {measure}: {name}은(는) rel=을 받지 않습니다",
        "measure {measure}: {name} takes no rel=",
    ),
    "error_measure_rel_not_whole": (
        "측정 {measure}: rel={value}은(는) 정수가 아닙니다",
        "measure {measure}: rel={value} is not a whole number",
    ),
    "error_measure_no_cutoff": (
        "측정 {measure}: {name}은(는) 컷오프를 받지 않습니다",
        "measure {measure}: {name} takes no cutoff",
    ),
    "error_measure_no_cutoff_nor_parameter": (
        "측정 {measure}: {name}은(는) 컷오프도 매개변수도 받지 않습니다",
        "measure {measure}: {name} takes no cutoff and no parameter",
    ),
    "error_measure_needs_level": (
        "측정 {measure}에는 재현율 수준이 필요합니다. 예: {example}",
        "measure {measure} needs a recall level, e.g. {example}",
    ),
    "error_measure_needs_cutoff": (
        "측정 {measure}에는 컷오프가 필요합니다. 예: {example}",
        "measure {measure} needs a cutoff, e.g. {example}",
    ),
    "error_measure_level_not_number": (
        "측정 {measure}: 재현율 수준 {value}은(는) 수가 아닙니다",
        "measure {measure}: recall level {value} is not a number",
    ),
    "error_measure_level_range": (
        "측정 {measure}: 재현율 수준은 0에서 1 사이여야 합니다",
        "measure {measure}: recall level must be from 0 to 1",
    ),
    "error_measure_cutoff_not_whole": (
        "측정 {measure}: 컷오프 {value}은(는) 정수가 아닙니다",
        "measure {measure}: cutoff {value} is not a whole number",
    ),
    "error_measure_cutoff_small": (
        "측정 {measure}: 컷오프는 1 이상이어야 합니다",
        "measure {measure}: cutoff must be at least 1",
    ),
    "error_measure_cutoff_large": (
        "측정 {measure}: 컷오프 {k}은(는) 너무 큽니다(최대 {most})",
        "measure {measure}: cutoff {k} is too large (at most {most})",
    ),
    "error_no_measure": ("측정이 주어지지 않았습니다. 아는 측정: {known}", "no measure given; known measures: {known}"),
    "error_unknown_dedup": (
        "모르는 중복 정책 {value}: {choices} 중 하나를 쓰세요",
        "unknown duplicates policy {value}; use one of {choices}",
    ),
    "error_depth_small": ("순위 깊이는 1 이상이어야 합니다", "a ranking depth must be at least 1"),
    "error_no_such_file": ("파일이 없습니다", "no such file"),
    "error_not_utf8": ("올바른 UTF-8 텍스트가 아닙니다", "not valid UTF-8 text"),
    "error_trec_field_count": (
        "필드 {expected}개({format})가 필요한데 {found}개입니다",
        "expected {expected} fields ({format}), found {found}",
    ),
    "error_score_not_number": ("점수 {value}은(는) 수가 아닙니다", "score {value} is not a number"),
    "error_document_twice": (
        "문서 {pid}이(가) 이 {what}에서 질문 {qid}에 두 번 나옵니다",
        "document {pid} appears twice for query {qid} in this {what}",
    ),
    "error_cannot_read_trec": ("TREC {kind}(으)로 읽을 수 없습니다: {detail}", "cannot read as TREC {kind}: {detail}"),
    "error_score_nan": ("점수가 NaN이라 순위를 매길 수 없습니다", "score is NaN, which cannot be ranked"),
    "error_qrels_empty": ("이 qrels 파일에 판정이 없습니다", "no judgments in this qrels file"),
    # campaign work and storage: unknown names, formats, databases
    "error_unknown_question": ("모르는 질문 {qid}", "unknown question {qid}"),
    "error_unknown_plan": (
        "모르는 판정 계획 {plan}: {choices} 중 하나를 쓰세요",
        "unknown judging plan {plan}; use one of {choices}",
    ),
    "error_unknown_policy": (
        "모르는 정책 {policy}: adjudicated, majority, annotator:이름, source:이름 중 하나를 쓰세요",
        "unknown policy {policy}; use adjudicated, majority, annotator:NAME or source:NAME",
    ),
    "error_no_qrels_version": ("qrels 버전 {version}이(가) 없습니다", "no qrels version {version}"),
    "error_unknown_zone": (
        "모르는 시간대 {zone}: Asia/Seoul이나 UTC 같은 IANA 이름을 쓰세요",
        "unknown time zone {zone}: use an IANA name such as Asia/Seoul or UTC",
    ),
    "error_no_qrels_source": ("가져온 qrels 출처 {source}이(가) 없습니다", "no imported qrels source {source}"),
    "error_unknown_qrels_format": (
        "모르는 qrels 형식 {format}: {choices} 중 하나를 고르세요",
        "unknown qrels format {format}; choose one of {choices}",
    ),
    "error_unknown_history_format": (
        "모르는 형식 {format}: {choices} 중 하나를 고르세요",
        "unknown format {format}; choose one of {choices}",
    ),
    "error_unknown_import_kind": (
        "모르는 가져오기 종류 {kind}: {choices} 중 하나를 고르세요",
        "unknown import kind {kind}; choose one of {choices}",
    ),
    "error_malformed_csv": ("CSV 형식이 잘못되었습니다: {detail}", "malformed CSV: {detail}"),
    "error_format_not_for_kind": (
        "형식 {format}은(는) 이 종류의 파일에 쓸 수 없습니다",
        "format {format} is not supported for this kind of file",
    ),
    "error_bundle_no_equivalent": (
        "번들에 {measure}에 해당하는 trec_eval 측정이 없습니다",
        "the bundle has no trec_eval equivalent for {measure}",
    ),
    "error_not_a_directory": ("{path}이(가) 이미 있고 폴더가 아닙니다", "{path} exists and is not a directory"),
    "error_memory_limit": (
        "${variable}={value}: 256MB나 2GB 같은 크기가 필요합니다",
        "${variable}={value}: expected a size such as 256MB or 2GB",
    ),
    "error_cannot_open_db": (
        "{path}: 데이터베이스를 열 수 없습니다: {detail}",
        "{path}: cannot open database: {detail}",
    ),
    "error_no_database": (
        "{path}에 데이터베이스가 없습니다: --db / {variable}를 확인하거나 `reljudge init`으로 만드세요",
        "no database at {path}: check --db / {variable}, or create it with `reljudge init`",
    ),
    "error_campaign_name": (
        "캠페인 이름이 올바르지 않습니다: {name} (영문 소문자로 시작하고 소문자·숫자·_만, 41자까지)",
        "invalid campaign name {name}: a lower-case letter, then lower-case letters, digits or _ (at most 41)",
    ),
    "error_unknown_campaign": (
        "없는 캠페인입니다: {name!r} (있는 캠페인: {known}). `reljudge campaigns create {name}`으로 만드세요",
        "no campaign {name!r} in this database (campaigns: {known}); create it with `reljudge campaigns create {name}`",
    ),
    "error_campaign_exists": (
        "이미 있는 캠페인입니다: {name!r}",
        "campaign {name!r} exists already",
    ),
    "error_identities_in_default": (
        "계정의 이메일과 계정을 기다리는 조직 신원은 기본 캠페인에서 관리합니다 (지금은 {campaign} 캠페인): "
        "--campaign 없이 실행하십시오",
        "accounts' e-mails and the organisation identities waiting for an account are managed in the default "
        "campaign (this is campaign {campaign}): run without --campaign",
    ),
    "error_account_elsewhere": (
        "{user!r} 계정은 이 서버의 다른 캠페인에 이미 있습니다: `reljudge --campaign {campaign} users grant {user} "
        "--role 역할`로 이 캠페인의 역할을 주세요",
        "the account {user!r} exists in another campaign of this server: give it a role in this one with "
        "`reljudge --campaign {campaign} users grant {user} --role ROLE`",
    ),
    "error_no_such_account": (
        "이 서버에 없는 계정입니다: {user!r}",
        "no account {user!r} on this server",
    ),
    "error_no_role_here": (
        "{user!r} 계정은 {campaign} 캠페인에서 역할이 없습니다",
        "the account {user!r} has no role in campaign {campaign}",
    ),
    "error_cannot_open_source_db": (
        "{source}: 원본 데이터베이스를 열 수 없습니다: {detail}",
        "{source}: cannot open the source database: {detail}",
    ),
    # TREC fields (eval.trec_io)
    "error_empty_run": ("결과가 없는 실행 파일입니다(비어 있음)", "no results in this run file (it is empty)"),
    "error_field_not_whole": ("{what} {value}은(는) 정수가 아닙니다", "{what} {value} is not a whole number"),
    "error_field_out_of_range": (
        "{what} {value}이(가) 범위를 벗어났습니다({low}부터 {high}까지의 정수)",
        "{what} {value} is out of range (a whole number from {low} to {high})",
    ),
    # model judge (reljudge.judges): never shown to annotators
    "judge_error_source_name": (
        "모델 판정 출처 이름 {source!r}은(는) 쓸 수 없습니다: 비어 있지 않고 ':'가 없는 이름을 쓰세요",
        "model source name {source!r} cannot be used: give a non-empty name without ':'",
    ),
    "judge_error_imported_source": (
        "출처 {source!r}에는 가져온 qrels가 있습니다: 모델 판정에는 다른 이름을 쓰세요",
        "source {source!r} holds imported qrels: give the model judge another name",
    ),
    "judge_error_other_judge": (
        "출처 {source!r}은(는) 다른 판정 모델({kind}, {model})이 만든 것입니다: 다른 이름을 쓰세요",
        "source {source!r} was made by another judge ({kind}, {model}): give this one another name",
    ),
    "judge_error_no_source": (
        "출처 {source!r}이(가) 없습니다(auto-judge나 import qrels로 만드세요)",
        "no source {source!r} (make it with auto-judge or import qrels)",
    ),
    "judge_error_against_itself": (
        "출처를 자기 자신과 비교할 수 없습니다",
        "a source cannot be calibrated against itself",
    ),
    "judge_panel_title": ("모델 대 사람", "Model vs people"),
    "judge_panel_info": (
        "모델 판정(출처 {source})을 사람의 판정({against})과 비교합니다: 둘 다 판정한 풀 문단 {n}개. "
        "모델 판정은 판정자에게 보이지 않습니다.",
        "The model's grades (source {source}) against the people's ({against}): {n} pooled pairs both "
        "graded. Model grades are never shown to annotators.",
    ),
    "judge_model_line": (
        "모델 {model} · 버전 {version} · 프롬프트 sha256 {sha} · 판정 시각 {at}",
        "model {model} · version {version} · prompt sha256 {sha} · judged at {at}",
    ),
    "judge_exact": ("완전 일치", "Exact agreement"),
    "judge_kappa_linear": ("선형 가중 카파", "Linearly weighted kappa"),
    "judge_confusion": (
        "혼동 행렬 (행: 사람 0·1·2, 열: 모델 0·1·2)",
        "Confusion matrix (rows: people 0·1·2, columns: model 0·1·2)",
    ),
    "judge_outcome": ("시스템 순위 일치 (켄달 타우)", "System ranking agreement (Kendall's tau)"),
    "judge_none": (
        "모델 판정 출처가 아직 없습니다(명령줄의 reljudge 자동 판정 명령으로 만듭니다).",
        "No model source yet (reljudge auto-judge).",
    ),
    "judge_pick": ("모델 출처", "Model source"),
    "judge_report_title": ("모델 판정 (모델 대 사람)", "Model judge (model vs people)"),
    "report_plan_model_order": (
        "질문마다 문단을 모델 판정 출처 {source}의 등급이 높은 것부터 보여 주었습니다(판정자에게 등급은 보이지 않음).",
        "Each question's paragraphs were shown ordered by model source {source}, most likely relevant first "
        "(its grades were not shown to annotators).",
    ),
    # quality control (pages/quality.py)
    "nav_quality": ("품질 관리", "Quality"),
    "quality_title": ("품질 관리", "Quality control"),
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
    "quality_reason_low_gold_accuracy": ("골드 정확도 낮음", "low gold accuracy"),
    "quality_reason_failed_decoys": ("미끼 실패", "failed decoys"),
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
    "error_gold_unknown_qid": (
        "알 수 없는 질문 id {qid!r} (가져온 질문에 없음)",
        "unknown qid {qid!r} (not among the imported questions)",
    ),
    "error_gold_unknown_pid": ("알 수 없는 문단 id {pid!r} (말뭉치에 없음)", "unknown pid {pid!r} (not in the corpus)"),
    "error_gold_not_pooled": (
        "문단 {pid!r}은(는) 질문 {qid!r}의 풀에 없습니다",
        "paragraph {pid!r} is not in the pool of question {qid!r}",
    ),
    "error_gold_two_grades": (
        "질문 {qid!r}의 문단 {pid!r}에 서로 다른 골드 등급이 둘 있습니다 (중복 사본은 풀의 대표 문단으로 셈)",
        "paragraph {pid!r} of question {qid!r} has two different gold grades "
        "(a duplicate copy counts as its pooled paragraph)",
    ),
    "error_quality_min_gold": (
        "정확도 기준을 적용할 골드 판정 수는 0 이상이어야 합니다",
        "the number of gold items before flagging must be 0 or more",
    ),
    "error_quality_min_accuracy": (
        "골드 정확도 하한은 0과 1 사이여야 합니다",
        "the gold accuracy floor must be between 0 and 1",
    ),
    "error_quality_max_failed": (
        "표시할 미끼 실패 수는 1 이상이어야 합니다",
        "the number of failed decoys that flags an annotator must be at least 1",
    ),
    "error_gold_grade": (
        "골드 등급 {grade}은(는) 0, 1, 2 중 하나여야 합니다",
        "gold grade {grade} is not one of 0, 1, 2",
    ),
    "error_decoy_rate": (
        "미끼 비율은 0보다 크고 0.5 이하인 수여야 합니다 ({rate})",
        "the decoy rate must be a number above 0 and at most 0.5 (not {rate})",
    ),
    "quality_export": ("품질 기록 내려받기 (JSONL)", "Download the quality export (JSONL)"),
}


def t(key: str, lang: str = "ko", **kwargs) -> str:
    """The string ``key`` in ``lang`` (falls back to Korean), formatted with kwargs."""
    ko, en = STRINGS[key]
    text = en if lang == "en" else ko
    return text.format(**kwargs) if kwargs else text


def bundle(keys: list[str], lang: str) -> dict[str, str]:
    return {k: t(k, lang) for k in keys}


def message(msg, lang: str = "ko", sep: str = " ") -> str:
    """A library message (:class:`reljudge.codes.Message`: code + parameters) in ``lang``,
    or a sequence of them joined by ``sep``; the code is the catalog key. A parameter
    that is itself a message is translated too, a tuple of values is listed with ", ".
    The CLI passes ``lang="en"``."""
    if isinstance(msg, (list, tuple)):
        return sep.join(message(m, lang) for m in msg)
    return t(msg.code, lang, **{k: _param(v, lang) for k, v in msg.params})


def _param(value, lang: str):
    if isinstance(value, Message):
        return message(value, lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_param(v, lang)) for v in value)
    return value


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
    "pool_size": ("풀 크기", "pool size"),
    "percent": ("진행률 %", "% done"),
    "finished": ("끝낸 질문", "finished questions"),
    "median_seconds": ("판정당 중앙값(초)", "median s / judgment"),
    "no_answer": ("근거 없음", "no answer"),
    "judgments": ("판정 수", "judgments"),
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
    "percent_agreement": ("일치율", "percent agreement"),
    "cohen_kappa_mean": ("Cohen κ 평균", "Cohen's κ (mean)"),
    "fleiss_kappa": ("Fleiss κ", "Fleiss' κ"),
    "fleiss_items": ("Fleiss 항목 수", "Fleiss items"),
    "alpha_nominal": ("Krippendorff α (명목)", "Krippendorff's α (nominal)"),
    "alpha_ordinal": ("Krippendorff α (서열)", "Krippendorff's α (ordinal)"),
    "not_computed": ("계산하지 못한 이유", "not computed because"),
    "pair": ("판정자 쌍", "pair"),
    "kendall_tau": ("Kendall τ", "Kendall's τ"),
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
    "cohen_kappa": ("Cohen κ", "Cohen's κ"),
    "cohen_kappa_linear": ("Cohen κ (선형 가중)", "Cohen's κ (linear weights)"),
    "items": ("공통 항목 수", "items"),
    "aspect": ("항목", "aspect"),
    "detail": ("내용", "detail"),
    "citations": ("인용 (뒷받침 등급)", "citations (support grade)"),
    # model vs people (reljudge.reporting.judge_tables)
    "judged_pairs": ("둘 다 판정한 문단 수", "pairs both graded"),
    "exact_agreement": ("완전 일치율", "exact agreement"),
    "kappa_linear": ("선형 가중 κ", "linearly weighted κ"),
    "reference_grade": ("기준(사람) 등급", "reference (people) grade"),
    "reference_value": ("기준(사람) qrels", "reference (people) qrels"),
    "model_value": ("모델 qrels", "model qrels"),
    "model_0": ("모델 0", "model 0"),
    "model_1": ("모델 1", "model 1"),
    "model_2": ("모델 2", "model 2"),
}


# Names of the agreement figures and rating kinds on the Korean pages and report.
_FIGURE_NAMES_KO = {
    "percent_agreement": "일치율",
    "cohen_kappa": "Cohen κ",
    "cohen_kappa_linear": "Cohen κ (선형 가중)",
    "fleiss_kappa": "Fleiss κ",
    "krippendorff_alpha_nominal": "Krippendorff α (명목)",
    "krippendorff_alpha_ordinal": "Krippendorff α (서열)",
    "kendall_tau": "Kendall τ",
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
        frame["policy"] = frame["policy"].map(by_key("policy_short_", lambda p: qrels_label(p, None, lang)))
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
    return _FIGURE_NAMES_KO.get(base, base) + (f" [{pair}" if bracket else "")


def qrels_label(policy: str, version: int | None = None, lang: str = "ko") -> str:
    """Which judgments a figure rests on, for people (the CLI keeps its English labels)."""
    if version is not None:
        return t("report_policy_version", lang, v=version)
    if policy in ("adjudicated", "majority"):
        return t(f"report_policy_{policy}", lang)
    kind, _, name = policy.partition(":")
    if kind in ("source", "annotator") and name:
        return t(f"policy_{kind}", lang, name=name)
    return policy


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
        if name.startswith("open @"):
            return "상위 " + name[len("open @") :] + " 안 미판정"
    return name
