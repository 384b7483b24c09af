"""The texts of the message codes the library returns and raises: each module declares its
codes in a module-level ``CODES`` (:mod:`reljudge.codes`) and returns or raises them with
their parameters (:class:`reljudge.errors.ReljudgeError`); the code is the key here.
``{code: (Korean, English)}``, worded by :func:`reljudge.i18n.message`; tests/test_message_codes.py
checks that every declared code has both texts with its parameters."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # a ruling's grade in words (campaign.adjudication.CODES)
    "grade2": ("2 직접 인용 가능한 근거", "2 directly citable evidence"),
    "grade1": ("1 관련 있으나 단독 인용 불가", "1 related, not citable alone"),
    "grade0": ("0 관련 없음", "0 not relevant"),
    # the kinds of file an import summary names (storage.catalog.CODES)
    "kind_corpus": ("말뭉치(문단)", "Corpus (paragraphs)"),
    "kind_questions": ("질문", "Questions"),
    "kind_run": ("검색 결과(run)", "Run"),
    # a ruling on a whole question (campaign.adjudication.CODES)
    "ruling_no_answer": ("근거 없음", "no answer"),
    "ruling_has_answer": ("근거 있음", "has an answer"),
    "question_verdict": ("(질문 전체: 근거 유무)", "(whole question: answer or not)"),
    # what an assignment does (campaign.assignment.CODES)
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
    # what an import did (storage.catalog.CODES); why an event was refused (campaign.judging.REJECTION_CODES,
    # shown as rejected_<code>)
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
    "summary_incomplete": (
        "주의: 질문 {n}개에 유형이나 판정 기준(criteria)이 없습니다 — 판정자가 무엇을 근거로 "
        "볼지 알 수 있게 채워서 다시 가져오세요",
        "note: {n} questions have no type or criteria; annotators need the criteria to "
        "judge, so fill them in and import again",
    ),
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
    "rejected_adjudicate_instead": (
        "이 질문은 판정자에게 배정되어 있습니다: 책임자의 등급은 '조정' 화면에서 조정으로 기록하세요",
        "this question is assigned to annotators: record a lead's grade as an adjudication (the Adjudicate page)",
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
    "error_invalid_email": ("올바른 이메일 주소가 아닙니다: {email!r}", "not a valid e-mail address: {email!r}"),
    "error_lookalike_email": (
        "이메일 주소 {email!r}에 ASCII 글자와 헷갈리는 문자(예: 켈빈 기호 K, ſ, ﬀ, 전각 글자, 점 없는 ı)가 있어 "
        "받지 않습니다: 일반 ASCII 글자로 쓴 주소를 쓰세요",
        "the e-mail address {email!r} holds a character that stands for an ASCII letter (such as the Kelvin sign K, "
        "ſ, ﬀ, fullwidth letters, dotless ı); it is refused: use the address written in plain ASCII letters",
    ),
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
    # a command on a DuckDB file the running app holds (cli.forward.CODES, docs/served.md)
    "error_served_not_forwarded": (
        "{path}: 실행 중인 reljudge 앱({url})이 이 데이터베이스를 열고 있습니다. "
        "`reljudge {command}`는 아직 앱을 거쳐 실행되지 않습니다: 앱을 멈추고 명령을 실행한 뒤 다시 시작하세요.",
        "{path}: the running reljudge app ({url}) holds this database, and `reljudge {command}` is not "
        "carried out through the app yet: stop the app, run the command, then start the app again.",
    ),
    "error_served_init": (
        "{path}: 실행 중인 reljudge 앱({url})이 이 데이터베이스를 이미 만들고 최신으로 올려 두었습니다. "
        "init할 것이 없습니다(데모를 넣으려면 앱을 멈추고 빈 새 파일에 init --demo를 하세요).",
        "{path}: the running reljudge app ({url}) already created this database and keeps it up to date: "
        "there is nothing to init (for the demo, stop the app and run init --demo on a new, empty file).",
    ),
    "error_served_serve": (
        "{path}: 이 데이터베이스는 이미 실행 중인 reljudge 앱이 서비스하고 있습니다: {url} 을 여세요 "
        "(다른 주소로 옮기려면 그 앱을 먼저 멈추세요).",
        "{path}: a running reljudge app already serves this database: open {url} "
        "(to serve it elsewhere, stop that app first).",
    ),
    "error_served_copy_db": (
        "{path}: 실행 중인 reljudge 앱({url})이 이 데이터베이스를 열고 있어 그대로 복사할 수 없습니다. "
        "앱을 멈추고 copy-db를 실행하세요(앱을 멈추지 않고 판정을 가져가려면 reljudge export를 쓰세요).",
        "{path}: the running reljudge app ({url}) holds this database, so it cannot be copied as it is: "
        "stop the app, then run copy-db (to take the judgments out while it runs, use reljudge export).",
    ),
    "error_served_refused": (
        "{path}: 실행 중인 앱({url})이 런타임 파일의 비밀값을 받아들이지 않았습니다. "
        "앱이 다시 시작되는 중일 수 있습니다: 잠시 뒤 다시 실행하세요.",
        "{path}: the running app ({url}) refused the runtime file's secret; it may be restarting: "
        "run the command again in a moment.",
    ),
    "error_served_failed": (
        "실행 중인 앱({url})이 명령을 끝내지 못했습니다: {detail}",
        "the running app ({url}) could not carry out the command: {detail}",
    ),
    "error_served_lost": (
        "{path}: 실행 중인 앱({url})이 `reljudge {command}`에 답하기 전에 멈췄습니다. 쓰기는 모두 되었거나 "
        "전혀 되지 않았습니다(반쯤 된 것은 없음): 앱을 다시 시작하거나 멈춘 채로, 읽기 명령으로 확인한 뒤 다시 실행하세요.",
        "{path}: the running app ({url}) stopped before it answered `reljudge {command}`. Each write was made "
        "whole or not at all (nothing is half done): check with a read command (the app restarted, or stopped) "
        "and run it again if needed.",
    ),
    "error_served_client_file": (
        "{path}: 이 파일을 읽거나 쓸 수 없습니다({detail})",
        "{path}: cannot read or write this file ({detail})",
    ),
    "served_interrupted": (
        "중단됨: 더 기다리지 않습니다. 실행 중인 앱({url})은 읽기를 끝내고 결과를 버립니다(아무것도 쓰지 않았습니다).",
        "interrupted: no longer waiting; the running app ({url}) finishes the read and drops its answer "
        "(nothing was written).",
    ),
    "served_interrupted_write": (
        "중단됨: 더 기다리지 않습니다. 실행 중인 앱({url})은 `reljudge {command}`를 끝까지 실행합니다"
        "(쓰기마다 전부 아니면 전무). 결과는 읽기 명령으로 확인하세요.",
        "interrupted: no longer waiting; the running app ({url}) carries `reljudge {command}` out to its end "
        "(each of its writes all or nothing): check the result with a read command.",
    ),
    "error_url_campaign_parameter": (
        "{where}: 'campaign'은 PostgreSQL 연결 인자가 아닙니다. 캠페인은 --campaign {name} "
        "(또는 RELJUDGE_CAMPAIGN={name}, 노트북에서는 open_campaign(url, campaign='{name}'))로 고르세요.",
        "{where}: 'campaign' is not a PostgreSQL connection parameter. Choose the campaign with "
        "--campaign {name} (or RELJUDGE_CAMPAIGN={name}; in a notebook open_campaign(url, campaign='{name}')).",
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
    "notice_identical_duplicates": (
        "똑같은 중복 행 {n}개를 건너뛰었습니다: 같은 행은 한 번만 넣습니다",
        "{n} identical duplicate rows skipped: each row is kept once",
    ),
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
    "error_json_number_too_long": (
        "JSON 수가 {limit}자리를 넘습니다: 이렇게 긴 수는 받지 않습니다",
        "a JSON number has more than {limit} digits, which is not accepted",
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
    # judging plans
    "error_plan_order_complete_only": (
        "모델 출처는 complete 계획의 순서만 정합니다",
        "a model source orders the complete plan only",
    ),
    "error_no_model_source": (
        "모델 출처 {source}이(가) 없습니다 (reljudge auto-judge --source 이름)",
        "no model source {source} (reljudge auto-judge --source NAME)",
    ),
    # sampling plans (docs/sampling.md)
    "error_trec_sampled_no_sample": (
        "trec-sampled는 표본 계획에서만 씁니다: reljudge plan sample RATE 또는 rr-first --then-sample RATE",
        "trec-sampled needs a sampling plan: reljudge plan sample RATE, or rr-first --then-sample RATE",
    ),
    "error_trec_sampled_min_grade": (
        "trec-sampled에는 --min-grade를 쓸 수 없습니다: 표본의 모든 줄이 설계의 일부입니다",
        "trec-sampled takes no --min-grade: every line of the sample is part of its design",
    ),
    "error_trec_sampled_source": (
        "trec-sampled는 팀의 판정을 씁니다: 가져온 출처(source:)에는 표본이 없습니다",
        "trec-sampled writes the team's judgments: an imported source (source:) has no sample",
    ),
    "error_sample_rate": (
        "표본 비율 {rate}은(는) 0보다 크고 1 이하인 수여야 합니다 (예: 0.2)",
        "sampling rate {rate} must be a number above 0 and at most 1 (e.g. 0.2)",
    ),
    "error_sample_seed": (
        "시드 {seed}은(는) 0 이상의 정수여야 합니다",
        "seed {seed} must be a whole number, 0 or more",
    ),
    "error_sample_needs_rate": (
        "sample 계획에는 비율이 필요합니다: reljudge plan sample 0.2",
        "the sample plan needs a rate: reljudge plan sample 0.2",
    ),
    "error_sample_rate_plan": (
        "{plan} 계획은 표본을 뽑지 않습니다: reljudge plan sample RATE 또는 rr-first --then-sample RATE",
        "the {plan} plan draws no sample: reljudge plan sample RATE, or rr-first --then-sample RATE",
    ),
    "error_sample_and_rest": (
        "--then-sample과 --then-rest는 함께 쓸 수 없습니다: 하나만 고르세요",
        "--then-sample and --then-rest exclude each other: choose one",
    ),
    "error_sample_redraw_judged": (
        "판정이 이미 시작되어 표본을 다시 뽑지 않습니다 (저장된 표본: 비율 {rate}, 시드 {seed}; 요청: 비율 {new_rate}, "
        "시드 {new_seed}): 지금까지의 판정은 저장된 표본이 요청한 것입니다. 같은 비율과 시드를 쓰세요",
        "judging has begun, so the sample is not drawn again (stored draw: rate {rate}, seed {seed}; asked: rate "
        "{new_rate}, seed {new_seed}): the grades so far were asked for by the stored draw. Use its rate and seed",
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
    "error_line_endings": (
        "줄 끝이 CR뿐입니다(줄 중간에 CR이 있음): 줄 끝을 LF나 CRLF로 바꾸어 저장하세요",
        "CR-only line endings (a carriage return inside the line): save the file with LF or CRLF line endings",
    ),
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
        "모르는 정책 {policy}: adjudicated, majority, annotator:이름, source:이름 중 하나를 쓰세요"
        " (adjudicated와 majority에는 +exclude-flagged를 붙일 수 있습니다)",
        "unknown policy {policy}; use adjudicated, majority, annotator:NAME or source:NAME"
        " (adjudicated and majority take +exclude-flagged)",
    ),
    "error_policy_option": (
        "정책 {policy}의 선택 {option}을(를) 모릅니다: adjudicated와 majority만 +exclude-flagged를 받습니다",
        "policy {policy}: unknown option {option}; only adjudicated and majority take +exclude-flagged",
    ),
    "error_policy_name": (
        "정책 {policy}에 이름이 없습니다: annotator:이름, source:이름, reviewer:이름처럼 쓰세요",
        "policy {policy} names nobody; write annotator:NAME, source:NAME or reviewer:NAME",
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
    "error_wal_unrecoverable": (
        "{path}: 데이터베이스를 열 수 없습니다: 미리 쓰기 로그 {wal}가 재생되지 않고({detail}) "
        "복구도 실패했습니다({again}). 파일은 바뀌지 않았습니다",
        "{path}: cannot open database: its write-ahead log {wal} does not replay ({detail}), "
        "and recovering it failed too ({again}); the files are unchanged",
    ),
    "error_cannot_reopen_db": (
        "{path}: 저장소 장애 뒤 데이터베이스를 다시 열 수 없습니다: {detail}",
        "{path}: cannot open the database again after its storage failed: {detail}",
    ),
    "error_no_campaign_on_server": (
        "{path}: 이 PostgreSQL 데이터베이스에는 reljudge 캠페인이 없습니다: "
        "--db / $RELJUDGE_DB를 확인하거나 `reljudge init`으로 만드세요",
        "{path}: this PostgreSQL database holds no reljudge campaign: "
        "check --db / $RELJUDGE_DB, or create it with `reljudge init`",
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
    "error_not_member": (
        "{user!r} 계정은 있지만 {campaign} 캠페인에서 역할이 없습니다. 역할을 주려면: {command}",
        "the account {user!r} exists, but has no role in campaign {campaign}; give it one with: {command}",
    ),
    "error_no_role_here": (
        "{user!r} 계정은 {campaign} 캠페인에서 역할이 없습니다",
        "the account {user!r} has no role in campaign {campaign}",
    ),
    "error_source_policy_disagree": (
        "--source {source}와 --policy {policy}가 서로 다릅니다: 하나만 주세요",
        "--source {source} and --policy {policy} disagree: give one of them",
    ),
    "error_copy_target_not_empty": (
        "{path}: 대상 데이터베이스가 비어 있지 않습니다({tables}). copy-db는 새 데이터베이스만 채웁니다",
        "{path}: the target database is not empty ({tables}); copy-db only fills a new database",
    ),
    "error_copy_migrations_differ": (
        "원본과 대상의 마이그레이션이 다릅니다({steps}). 먼저 이 버전의 reljudge로 원본을 여세요(마이그레이션됩니다)",
        "the source and the target have different migrations ({steps}): open the source with this "
        "version of reljudge first (it migrates it)",
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
    # quality control: why an annotator is flagged, what a gold import or the settings refuse
    # (campaign.quality)
    "quality_reason_low_gold_accuracy": ("골드 정확도 낮음", "low gold accuracy"),
    "quality_reason_failed_decoys": ("미끼 실패", "failed decoys"),
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
    # bad input or a refusal worded here too (errors.OutOfMemory, campaign.quality/bundle/importers,
    # judges.endpoint, storage.postgres/catalog, eval.metrics/ranking)
    "error_out_of_memory": (
        "메모리가 부족합니다({detail}). RELJUDGE_MEMORY_LIMIT로 DuckDB에 메모리를 더 주거나(예: 2GB) "
        "이 컴퓨터의 메모리를 비우세요",
        "not enough memory ({detail}); give DuckDB more with RELJUDGE_MEMORY_LIMIT "
        "(e.g. 2GB) or free memory on this machine",
    ),
    "error_unknown_quality_format": (
        "모르는 품질 내보내기 형식 {format!r}입니다 (jsonl만 있습니다)",
        "unknown quality export format {format!r} (jsonl)",
    ),
    "error_bundle_stray_files": (
        "{path}에 이 번들에 속하지 않는 파일이 있습니다({files}{more}). 비어 있거나 새 폴더를 쓰세요",
        "{path} holds files that are not part of this bundle ({files}{more}): use an empty or new directory",
    ),
    "error_lone_surrogate": (
        "{field}: 짝이 없는 서로게이트 이스케이프 {escape}은(는) 문자가 아닙니다 (쌍의 절반, 예: 잘린 이모지)",
        "{field}: lone surrogate escape {escape} is not a character (half of a pair, e.g. a cut emoji)",
    ),
    "error_part_key_in": ("{field}의 어떤 키", "a key in {field}"),
    "error_part_key": ("어떤 키", "a key"),
    "error_unclosed_quote": (
        "따옴표로 감싼 칸이 여기서 시작하는데 닫는 따옴표가 나오지 않습니다 (뒤의 모든 줄이 이 칸에 합쳐집니다)",
        "a quoted field begins here and its closing quote never comes (every later line would merge into it)",
    ),
    "error_quote_closed_early": (
        "CSV 형식이 잘못되었습니다: 여기서 시작한 따옴표 칸이 {line}번째 줄에서 닫힌 뒤 다른 글자가 "
        '이어집니다({detail}). 따옴표 칸 안의 따옴표는 ""로 쓰세요',
        "malformed CSV: the quoted field that begins here is closed on line {line} and followed by more "
        'text ({detail}); write a quote inside a quoted field as ""',
    ),
    "error_run_many_systems": (
        "시스템 {n}개({systems})가 들어 있습니다. 파일 하나에 run 하나만 주세요",
        "names {n} systems ({systems}): give one run per file",
    ),
    "error_endpoint_url": (
        "--endpoint {url!r}: http:// 또는 https:// 주소여야 합니다",
        "--endpoint {url!r}: expected an http:// or https:// address",
    ),
    "error_api_key_env_unset": (
        "--api-key-env {variable}: 그 환경 변수가 설정되어 있지 않습니다",
        "--api-key-env {variable}: that environment variable is not set",
    ),
    "error_postgres_extension_missing": (
        "PostgreSQL을 쓰려면 duckdb-extension-postgres-scanner 패키지(duckdb와 같은 버전 {version})가 "
        "필요합니다: pip install 'duckdb-extension-postgres-scanner=={version}'",
        "PostgreSQL needs the package duckdb-extension-postgres-scanner (version {version}, the same as "
        "duckdb): pip install 'duckdb-extension-postgres-scanner=={version}'",
    ),
    "error_postgres_extension_version": (
        "설치된 DuckDB postgres 확장은 {built}용인데 duckdb는 {version}입니다. 둘을 같은 버전으로 설치하세요 "
        "(pip install 'duckdb=={version}' 'duckdb-extension-postgres-scanner=={version}')",
        "the installed DuckDB postgres extension is built for {built}, but duckdb is {version}: install the "
        "same version of both (pip install 'duckdb=={version}' 'duckdb-extension-postgres-scanner=={version}')",
    ),
    "error_postgres_extension_no_build": (
        "설치된 DuckDB postgres 확장에는 어느 버전용 빌드도 없는데 duckdb는 {version}입니다. 둘을 같은 버전으로 "
        "설치하세요 (pip install 'duckdb=={version}' 'duckdb-extension-postgres-scanner=={version}')",
        "the installed DuckDB postgres extension is built for no version, but duckdb is {version}: install the "
        "same version of both (pip install 'duckdb=={version}' 'duckdb-extension-postgres-scanner=={version}')",
    ),
    "error_question_judged": (
        "질문 {qid!r}에는 이미 판정이 {events}개 있습니다. {changed}을(를) 바꾸려면 --update-questions가 "
        "필요합니다 (이전 문구는 버전으로 보관됩니다)",
        "question {qid!r} already has {events} judgments; changing its {changed} needs "
        "--update-questions (the earlier wording is kept as a version)",
    ),
    "error_run_exists": (
        "시스템 {system!r}에는 이미 run이 있습니다({source}의 {n}줄, {imported}에 가져옴). 바꾸려면 "
        "--replace로 가져오세요 (이전 run은 버전으로 보관됩니다)",
        "system {system!r} already has a run ({n} lines from {source}, imported {imported}); import with "
        "--replace to replace it (the old run is kept as a version)",
    ),
    "error_input_kind": (
        "{what}: 테이블 이름, DuckDB 관계 또는 DataFrame이어야 하는데 {kind}입니다",
        "{what}: expected a table name, a DuckDB relation or a DataFrame, got {kind}",
    ),
    "error_lacks_columns": (
        "{what}에 {missing} 열이 없습니다 (있는 열: {found})",
        "{what} lacks column(s) {missing} (has {found})",
    ),
    "error_no_measure_given": ("측정이 주어지지 않았습니다", "no measure given"),
    "error_qrels_no_grade": (
        "qrels에 grade 열이 없습니다 (있는 열: {found})",
        "qrels lacks column grade (has {found})",
    ),
    "error_run_no_score_or_rank": ("run에는 score나 rank 열이 있어야 합니다", "run needs a score or a rank column"),
    "error_unknown_ties": (
        "모르는 동점 규칙 {value!r}: {choices} 중 하나를 쓰세요 (trec = {trec})",
        "unknown ties rule {value!r}; use one of {choices} (trec = {trec})",
    ),
    # reljudge evaluate (cli.evaluate)
    "error_trec_eval_needs_qrels": (
        "--format trec_eval에는 --qrels 파일이 필요합니다 (trec_eval은 파일을 평가합니다)",
        "--format trec_eval needs --qrels FILE (trec_eval evaluates files)",
    ),
    "error_file_flags_need_qrels": (
        "-M과 -J에는 --qrels 파일이 필요합니다 (파일에 쓰는 trec_eval의 옵션입니다)",
        "-M and -J need --qrels FILE (they are trec_eval's flags for files)",
    ),
    "error_no_measure_trec_eval_default": (
        "측정이 주어지지 않았습니다: -m 측정..., 예: -m RR@10 nDCG@10 "
        "(--format trec_eval만 기본값으로 trec_eval의 -m official을 씁니다)",
        "no measure given: -m MEASURE..., e.g. -m RR@10 nDCG@10 "
        "(only --format trec_eval defaults to trec_eval's -m official)",
    ),
    "error_nothing_to_evaluate": (
        "아직 평가할 것이 없습니다: 판정된, 답할 수 있는 질문이 없습니다 ({qrels})",
        "nothing to evaluate yet: no answerable question has judgments ({qrels})",
    ),
    "error_nothing_to_evaluate_no_answer": (
        "아직 평가할 것이 없습니다: 판정된, 답할 수 있는 질문이 없습니다 (근거 없는 질문 {n}개) ({qrels})",
        "nothing to evaluate yet: no answerable question has judgments ({n} no-answer questions) ({qrels})",
    ),
    "note_bounds_only": (
        "아직 판정된, 답할 수 있는 질문이 없어 범위만 보입니다 (풀의 모든 문단이 아직 열려 있음)",
        "no answerable question has judgments yet: only the bounds (every pooled paragraph still open)",
    ),
    "note_bounds_only_no_answer": (
        "아직 판정된, 답할 수 있는 질문이 없어 범위만 보입니다 (근거 없는 질문 {n}개; 풀의 모든 문단이 아직 열려 있음)",
        "no answerable question has judgments yet ({n} no-answer questions): only the bounds "
        "(every pooled paragraph still open)",
    ),
    "error_invisible_character": (
        "{field}에 보이지 않는 문자나 제어 문자 {codepoint}({name})가 있습니다. id는 눈에 보이는 글자로만 쓰세요",
        "{field} contains the invisible or control character {codepoint} ({name}); ids must be plain visible text",
    ),
    "error_run_given_twice": ("같은 run 파일이 두 번 주어졌습니다", "the same run file is given twice"),
    "error_no_run_given": (
        "run이 주어지지 않았습니다: reljudge evaluate --qrels 파일 RUN... -m 측정...",
        "no run given: reljudge evaluate --qrels FILE RUN... -m MEASURE...",
    ),
    "error_max_docs_small": (
        "-M {value}: 문서 수는 1 이상이어야 합니다",
        "-M {value}: the number of documents must be at least 1",
    ),
    "error_run_no_common_query": (
        "run {system}: 결과와 관련성 정보가 모두 있는 질문이 없습니다",
        "run {system}: no query with both results and relevance information",
    ),
    # reljudge agreement: the grades CSV (cli.agreement)
    "error_grades_not_utf8": ("올바른 UTF-8이 아닙니다 (바이트 0x{byte})", "not valid UTF-8 (byte 0x{byte})"),
    "error_grades_unreadable": ("파일을 읽을 수 없습니다 ({detail})", "cannot read the file ({detail})"),
    "error_grades_file_empty": ("빈 파일입니다", "the file is empty"),
    "error_grades_malformed_csv": ("CSV 형식이 잘못되었습니다 ({detail})", "malformed CSV ({detail})"),
    "error_grades_missing_columns": (
        "{missing} 열이 없습니다. 머리글에 {required}가 있어야 합니다 (있는 열: {found})",
        "missing column(s) {missing}; the header must contain {required} (found: {found})",
    ),
    "error_grades_duplicate_columns": (
        "{columns} 열이 두 번 이상 나옵니다",
        "column(s) {columns} appear more than once",
    ),
    "error_grades_field_count": (
        "칸이 {expected}개여야 하는데 {found}개입니다",
        "expected {expected} fields, found {found}",
    ),
    "error_grades_empty_field": ("{field}이(가) 비어 있습니다", "empty {field}"),
    "error_grades_not_integer": (
        "등급 {value!r}은(는) 정수가 아닙니다 ({grades} 중 하나여야 합니다)",
        "grade {value!r} is not an integer (expected one of {grades})",
    ),
    "error_grades_out_of_range": (
        "등급 {grade}은(는) 범위를 벗어납니다 ({grades} 중 하나여야 합니다)",
        "grade {grade} is out of range (expected one of {grades})",
    ),
    "error_grades_conflict": (
        "판정자 {annotator!r}가 qid {qid!r}, pid {pid!r}를 여기서는 {grade}, {first}번째 줄에서는 {old}로 판정했습니다",
        "annotator {annotator!r} grades qid {qid!r}, pid {pid!r} as {grade} here but as {old} on line {first}",
    ),
    "error_grades_type_conflict": (
        "질문 {qid!r}의 유형이 여기서는 {qtype!r}, {first}번째 줄에서는 {old!r}입니다",
        "question {qid!r} has type {qtype!r} here but {old!r} on line {first}",
    ),
    "error_grades_no_rows": (
        "판정이 없습니다 (파일에 머리글만 있고 행이 없습니다)",
        "no judgments (the file has a header but no rows)",
    ),
    "error_reviews_no_file": (
        "--reviews는 데이터베이스를 읽으므로 파일을 받지 않습니다",
        "--reviews reads the database; it takes no FILE",
    ),
    # calibrate and export qrels of a model source (judges.calibration, campaign.export): how
    # each side's pairs are counted
    "calibrate_imported_side": (
        "{name}은(는) 가져온 qrels 출처입니다: 목록에 없는 풀 문단은 trec_eval이 qrels를 읽듯 등급 0으로 셉니다",
        "{name} is an imported qrels source: pooled pairs it does not list count as grade 0, as trec_eval "
        "reads a qrels",
    ),
    "calibrate_outcome_questions": (
        "시스템 수치는 두 qrels가 모두 다루는 같은 질문 {n}개에서 평균했습니다 (기준 {against}개, 비교 출처 {source}개)",
        "system figures averaged over the same {n} questions, those both qrels cover (against: {against}, "
        "source: {source})",
    ),
    "notice_model_source_export": (
        "모델 출처 {source!r}: {graded}개 판정, 오류 {errors}개 (판정하지 못한 쌍은 파일에 없습니다)",
        "model source {source!r}: {graded} graded, {errors} errors (pairs it could not grade are not in the file)",
    ),
    # auto-judge's probe, its prompt check and `judges errors` (reljudge.judges.runner.CODES)
    "judge_error_other_prompt": (
        "출처 {source!r}의 판정은 다른 프롬프트(sha256 {recorded}…)로 매겨졌습니다. 지금 프롬프트는 {current}…입니다: "
        "한 출처의 판정이 한 프롬프트에서 나오도록 다른 출처 이름을 쓰세요",
        "source {source!r} was graded under another prompt (sha256 {recorded}…); this prompt is {current}…: "
        "give this run another source name, so that one source's grades come from one prompt",
    ),
    "judge_probe_none_parsed": (
        "시험 판정에서 모델이 한 쌍도 정해진 형식('##final score: N' 줄)으로 답하지 못했습니다. 위의 답을 보고 "
        "--max-tokens를 늘려 보거나(지금 {max_tokens}) 지시를 더 잘 따르는 다른 모델을 쓰세요",
        "the probe parsed no answer: the model never ended with the line '##final score: N'. Read the answers "
        "above, then try a larger --max-tokens (now {max_tokens}) or a model that follows instructions better",
    ),
    "judge_errors_no_source": (
        "모델 판정 출처 {source!r}이(가) 없습니다(auto-judge로 만든 출처의 이름을 쓰세요)",
        "no model source {source!r} (give the name of a source auto-judge made)",
    ),
    # personal API tokens and remote clients (issue 37 section 2: reljudge.campaign.api_tokens,
    # reljudge.cli.remote)
    "error_token_expires": (
        "--expires {value!r}: 12h, 30d, 8w처럼 시간(h)·일(d)·주(w) 수(최대 5년)나 never를 쓰세요",
        "--expires {value!r}: give a number of hours, days or weeks such as 12h, 30d, 8w (five years at most), "
        "or never",
    ),
    "error_token_name": (
        "토큰 이름 {name!r}: 글자, 숫자, '.', '-', '_'로 1~64자여야 합니다",
        "token name {name!r}: use 1 to 64 letters, digits, '.', '-' or '_'",
    ),
    "error_token_name_taken": (
        "{user}에게는 캠페인 {campaign}에 이미 {name!r}라는 유효한 토큰이 있습니다(다른 이름을 쓰거나 먼저 폐기하세요)",
        "{user} already has a live token named {name!r} in campaign {campaign} (choose another name, or revoke "
        "that one first)",
    ),
    "error_token_no_such": (
        "캠페인 {campaign}에 {user}의 유효한 토큰 {name!r}이(가) 없습니다(users token list로 확인하세요)",
        "{user} has no live token named {name!r} in campaign {campaign} (see users token list)",
    ),
    "error_token_user_needed": (
        "어느 계정의 토큰인지 --user ACCOUNT로 밝히세요",
        "name the account whose token it is: --user ACCOUNT",
    ),
    "error_token_not_yours": (
        "{user}의 토큰은 캠페인의 책임자만 다룰 수 있습니다(자신의 토큰만 다룰 수 있습니다)",
        "only a lead of the campaign manages {user}'s tokens (you manage your own)",
    ),
    "error_token_no_role": (
        "{user}은(는) 캠페인 {campaign}에 역할이 없습니다: 먼저 users grant로 역할을 주세요",
        "{user} has no role in campaign {campaign}: grant one first (users grant)",
    ),
    "error_remote_url": (
        "--db {url}: 원격 서버는 https://HOST[:PORT][/BASE] 꼴로 쓰세요(주소 안에 사용자 이름·비밀번호·질의는 넣지 않습니다)",
        "--db {url}: name a remote server as https://HOST[:PORT][/BASE] (no user name, password or query in it)",
    ),
    "error_remote_plain_http": (
        "--db {url}: 토큰은 HTTPS로만 보냅니다. http://는 이 컴퓨터({host}이(가) 아닌 localhost, 127.0.0.1, ::1)에만 "
        "쓸 수 있습니다: https://를 쓰세요",
        "--db {url}: an API token travels over HTTPS only; http:// is for this machine (localhost, 127.0.0.1, ::1), "
        "not {host}: use https://",
    ),
    "error_remote_no_token": (
        "API 토큰이 없습니다: 환경 변수 {var}에 넣으세요(users token create로 만듭니다; 명령줄에는 쓰지 않습니다)",
        "no API token: put it in the environment variable {var} (made with users token create; never on the "
        "command line)",
    ),
    "error_remote_refused": (
        "원격 서버({url})가 거절했습니다: {reason} — {detail}",
        "the remote server ({url}) refused: {reason} — {detail}",
    ),
    "error_remote_unreachable": (
        "원격 서버({url})에 닿지 않습니다: 주소와 포트, 서버가 실행 중인지 확인하세요",
        "cannot reach the remote server ({url}): check the address, the port, and that the server runs",
    ),
    "error_remote_not_forwarded": (
        "`reljudge {command}`은(는) 원격 서버({url})에서 실행하지 않습니다(init, serve, copy-db, auto-judge는 "
        "서버의 컴퓨터에서 실행하세요)",
        "`reljudge {command}` is not carried out by a remote server ({url}): run init, serve, copy-db and "
        "auto-judge on the server's machine",
    ),
}
