"""Every page through Streamlit's AppTest, on a real DuckDB file (demo loaded on first start)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_support import copy_demo
from reljudge import display, i18n
from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.ui import webapp
from reljudge.ui import navigation, uploads

ROOT = Path(__file__).resolve().parents[1]
LEAD_PAGES = [f"screens/{name}.py" for name, _, _ in navigation.LEAD_PAGES]


@pytest.fixture
def app_db(tmp_path, monkeypatch):
    path = copy_demo(tmp_path / "app.duckdb")  # the demo, as a first start would load it
    monkeypatch.setenv("RELJUDGE_DB", str(path))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")  # as `reljudge serve` on the default file
    return path


def _app(script: str = "workbench.py") -> AppTest:
    """The web app's script, or one of its pages ("screens/x.py"), as shipped in the package."""
    return AppTest.from_file(str(webapp.HERE / script), default_timeout=60)


def _db():
    from reljudge.ui.session import get_db

    return get_db()


def _login(at: AppTest, username: str, password: str) -> AppTest:
    at.text_input(key="login_username").input(username)
    at.text_input(key="login_password").input(password)
    at.button[0].click().run()
    return at


def _token(username: str, password: str) -> str:
    db = _db()
    return auth.start_session(db, auth.authenticate(db, username, password))


def test_first_start_loads_demo_and_shows_korean_login(app_db):
    at = _app().run()
    assert not at.exception
    assert [t.label for t in at.text_input] == ["사용자 이름", "비밀번호"]
    assert "예시 캠페인" in at.info[0].value and "annotator1 / demo-pass1" in at.info[0].value
    counts = campaign.counts(_db())
    assert counts["questions"] == 24 and counts["systems"] == 4 and counts["users"] == 3


def test_wrong_password_is_refused(app_db):
    at = _login(_app().run(), "annotator1", "wrong-password")
    assert at.error[0].value == "사용자 이름 또는 비밀번호가 맞지 않습니다."
    assert "token" not in at.session_state


def test_annotator_logs_in_and_sees_only_the_judging_page(app_db):
    at = _login(_app().run(), "annotator1", "demo-pass1")
    assert not at.exception
    assert at.title[0].value == "근거 판정"
    keys = [getattr(el, "key", None) for el in at.main]
    assert "rj_judge" in keys  # the judging widget is mounted
    assert at.sidebar.selectbox[0].label == "질문으로 이동"
    for page in LEAD_PAGES:
        with pytest.raises(ValueError):  # not in this user's navigation
            at.switch_page(page)


def test_question_picker_moves_and_is_remembered(app_db):
    at = _login(_app().run(), "annotator1", "demo-pass1")
    at.sidebar.selectbox[0].select("q05").run()
    assert not at.exception
    assert judging.current_question(_db(), "annotator1") == "q05"
    picker = at.sidebar.selectbox[0]
    # the open question's count is in the widget (always live), not in the sidebar
    assert picker.format_func("q05") == "▶ q05 · 사실 확인"
    assert picker.format_func("q01").startswith("○ q01 · 사실 확인 · 0/")


def test_english_switch(app_db):
    at = _app().run()
    at.sidebar.toggle[0].set_value(True).run()
    assert [t.label for t in at.text_input] == ["Username", "Password"]


@pytest.mark.parametrize("page", LEAD_PAGES)
def test_lead_pages_render(app_db, page):
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page(page).run()
    assert not at.exception
    assert not at.error
    assert at.title


@pytest.mark.parametrize("page", LEAD_PAGES)
def test_lead_pages_refuse_annotators_on_the_server(app_db, page):
    _app().run()  # creates the database + demo
    at = _app(page)
    at.session_state["token"] = _token("annotator1", "demo-pass1")
    at.run()
    assert at.error[0].value == "이 화면을 볼 권한이 없습니다."
    assert not at.dataframe and not at.title


@pytest.mark.parametrize("page", ["screens/judge.py"] + LEAD_PAGES)
def test_pages_refuse_anonymous_and_forged_sessions(app_db, page):
    _app().run()
    at = _app(page)
    at.session_state["token"] = "forged-token"
    at.run()
    assert at.error[0].value == "먼저 로그인하세요."
    assert not at.title


def test_lead_adds_a_user_in_the_app(app_db):
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/users.py").run()
    form = at.get("form")[0]
    form.text_input[0].input("새판정자")
    form.text_input[1].input("long-password-1")
    form.selectbox[0].select("annotator")
    form.button[0].click().run()
    assert not at.exception
    assert at.success[0].value == "새판정자 추가됨"
    assert auth.authenticate(_db(), "새판정자", "long-password-1").role == "annotator"
    users = at.dataframe[0].value.set_index("username")
    assert users.loc["lead", "role"] == "책임자" and users.loc["annotator1", "role"] == "판정자"


def test_a_refused_account_reads_in_the_users_language(app_db):
    """The library raises the error as a code; the page words it (Korean, or English after
    the switch), the CLI's str() is the English catalog text."""
    from reljudge.errors import ReljudgeError

    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/users.py").run()
    form = at.get("form")[0]
    form.text_input[0].input("annotator1")
    form.text_input[1].input("long-password-1")
    form.button[0].click().run()
    assert not at.exception
    # the page escapes data for Markdown (display.md): the reader sees the sentence as is
    assert at.error[0].value == display.md("이미 있는 사용자입니다: 'annotator1'")
    form = at.get("form")[0]
    form.text_input[0].input("짧은비번")
    form.text_input[1].input("short")
    form.button[0].click().run()
    assert at.error[0].value == display.md("비밀번호는 8자 이상이어야 합니다")
    with pytest.raises(ReljudgeError) as err:
        auth.add_user(_db(), "annotator1", "long-password-1", "annotator")
    assert str(err.value) == "user 'annotator1' already exists"
    assert err.value.message.code == "error_user_exists"


def test_audit_page_shows_history(app_db):
    _app().run()
    db = _db()
    pid = judging.payload(db, "annotator1", "q01")["items"][0]["pid"]
    judging.grade(db, "annotator1", "q01", pid, 1)
    judging.grade(db, "annotator1", "q01", pid, 2)
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/audit.py").run()
    assert not at.exception
    assert at.selectbox[1].value == pid  # opens on the paragraph that has a history
    assert at.selectbox[1].format_func(pid).endswith("(2건)")
    frame = at.dataframe[0].value
    assert list(frame.grade) == [1, 2] and list(frame.username) == ["annotator1", "annotator1"]
    assert list(frame.previous_grade.fillna(-1)) == [-1, 1]
    assert at.dataframe[0].proto.placeholder == "—"  # empty cells, not Streamlit's "None"
    at.selectbox[1].select(judging.VERDICT).run()  # the no-answer verdict: nothing recorded
    assert at.info[0].value == "기록이 없습니다."
    assert at.info[1].value == "이 질문에는 조정 기록이 없습니다."
    # the page opens on the question of the latest judgment
    judging.grade(db, "annotator2", "q05", judging.payload(db, "annotator2", "q05")["items"][0]["pid"], 0)
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/audit.py").run()
    assert at.selectbox[0].value == "q05" and len(at.dataframe[0].value) == 1
    # ... and stays where the lead chose while annotators keep working elsewhere
    at.selectbox[0].select("q03").run()
    judging.grade(db, "annotator2", "q07", judging.payload(db, "annotator2", "q07")["items"][0]["pid"], 1)
    at.run()
    assert at.selectbox[0].value == "q03"


class _Upload(io.BytesIO):
    def __init__(self, name: str, data: bytes):
        super().__init__(data)
        self.name = name


def test_upload_import_is_all_or_nothing_and_names_the_upload(app_db):
    _app().run()
    db = _db()
    before = campaign.counts(db)
    bad = _Upload("내_문단.jsonl", '{"pid": "new1", "text": "새 문단"}\n{"pid": "new2"}\n'.encode())
    with pytest.raises(Exception) as err:
        uploads.import_upload(db, "corpus", bad, None, None)
    assert str(err.value) == "내_문단.jsonl, line 2: missing or empty text"
    assert campaign.counts(db) == before
    for empty_kind in ("corpus", "questions", "run"):
        with pytest.raises(Exception) as err:
            uploads.import_upload(db, empty_kind, _Upload("빈파일.jsonl", b""), None, None)
        assert str(err.value).startswith("빈파일.jsonl: file is empty")
    with pytest.raises(Exception) as err:
        uploads.import_upload(db, "corpus", _Upload("문단.xlsx", b"x"), None, None)
    assert str(err.value).startswith("문단.xlsx: cannot tell the format")
    good = _Upload("more.jsonl", '{"pid": "new1", "text": "새 문단"}\n'.encode())
    summary = uploads.import_upload(db, "corpus", good, None, None)
    assert summary.inserted == 1
    pooled = db.cursor().execute("SELECT count(*) FROM pool").fetchall()[0][0]
    assert summary.pooled == pooled and i18n.message(summary.messages(), "ko", sep=summary.SEP).endswith(
        f"판정 풀을 다시 만들었습니다: 항목 {pooled}개"
    )


def _two_annotators_judge(db, qid="q01", n=6):
    items = judging.payload(db, "annotator1", qid)["items"][:n]
    for k, item in enumerate(items):
        judging.grade(db, "annotator1", qid, item["pid"], 2 if k == 0 else k % 3, ms=5000)
        judging.grade(db, "annotator2", qid, item["pid"], 0 if k == 0 else k % 3, ms=900)
    return items


def test_agreement_page_shows_figures_speed_and_heatmap(app_db):
    _app().run()
    _two_annotators_judge(_db())
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/agreement.py").run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    speed = next(f for f in frames if "fast_percent" in f.columns).set_index("username")
    assert speed.loc["annotator2", "fast"] == 6 and speed.loc["annotator1", "fast"] == 0
    figures = next(f for f in frames if "percent_agreement" in f.columns)
    overall = figures[(figures.rating == "문단 판정")].iloc[0]
    assert overall.items_2plus == 6 and abs(overall.percent_agreement - 5 / 6) < 1e-9
    chart = (at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart"))[0]
    import json

    spec = json.loads(chart.proto.spec)
    assert spec["width"] == spec["height"] == {"step": 64}  # square cells, whatever the count


def adjudication_rows(db) -> int:
    return db.cursor().execute("SELECT count(*) FROM adjudications").fetchall()[0][0]


def test_adjudication_page_resolves_the_top_disagreement(app_db):
    _app().run()
    items = _two_annotators_judge(_db())
    judging.grade(_db(), "annotator1", "q01", items[0]["pid"], 2, evidence="감사는 마음의 태도입니다")
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/adjudicate.py").run()
    assert not at.exception
    texts = [t.value for t in at.text]
    assert texts[2] == items[0]["text"]  # the 2-vs-0 paragraph comes first
    # the lead decides with the question's criteria and the evidence an annotator marked
    criteria = _db().cursor().execute("SELECT criteria FROM questions WHERE qid = 'q01'").fetchall()[0][0]
    assert texts[1] == criteria and "감사는 마음의 태도입니다" in texts
    form = at.get("form")[0]
    assert form.radio[0].value is None  # no grade preselected
    form.text_input[0].input("정의를 직접 서술함")
    form.button[0].click().run()
    assert at.error[0].value == "최종 등급을 고르세요."
    assert adjudication_rows(_db()) == 0
    form = at.get("form")[0]
    assert form.text_input[0].value == "정의를 직접 서술함"  # the typed reason is kept
    form.radio[0].set_value(2)
    form.text_input[0].input("  ")
    form.button[0].click().run()
    assert at.error[0].value == "조정 이유를 적어 주세요." and adjudication_rows(_db()) == 0
    form = at.get("form")[0]
    form.text_input[0].input("정의를 직접 서술함")
    form.button[0].click().run()
    assert not at.exception
    pid = items[0]["pid"]
    # the confirmation survives the rerun that refreshes the queue
    assert at.success[0].value == f"조정을 저장했습니다: q01 · {pid} → 2 직접 인용 가능한 근거"
    from reljudge.campaign import adjudication

    q = adjudication.qrels(_db()).set_index("pid")
    assert q.loc[pid, "provenance"] == "adjudicated" and q.loc[pid, "grade"] == 2
    # the ruling and its reason are on the audit page
    at.switch_page("screens/audit.py").run()
    rulings = next(d.value for d in at.dataframe if "ruling" in d.value.columns)
    assert rulings[["lead", "qid", "pid", "ruling", "reason", "in_force"]].values.tolist() == [
        ["lead", "q01", pid, "2 직접 인용 가능한 근거", "정의를 직접 서술함", True]
    ]


def test_verdict_adjudication_is_confirmed_and_audited(app_db):
    _app().run()
    db = _db()
    judging.mark_no_answer(db, "annotator1", "q02", True)
    judging.mark_no_answer(db, "annotator2", "q02", False)
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/adjudicate.py").run()
    queue = next(d.value for d in at.dataframe if "verdicts" in d.value.columns)
    assert set(queue.verdicts[0].split(" · ")) == {"근거 없음", "근거 있음"}
    form = next(f for f in at.get("form") if f.checkbox)  # the verdict form
    form.selectbox[0].select("q02")
    form.checkbox[0].check()
    form.text_input[0].input("어느 문단도 질문에 답하지 않음")
    form.button[0].click().run()
    assert not at.exception
    assert at.success[0].value == "조정을 저장했습니다: q02 → 근거 없음"
    judging.grade(db, "annotator1", "q03", judging.payload(db, "annotator1", "q03")["items"][0]["pid"], 1)
    freeze = next(f for f in at.get("form") if f.selectbox and not f.checkbox and not f.radio)
    freeze.text_input[0].input("1차 동결")
    freeze.button[0].click().run()
    assert at.success[0].value.startswith("버전 1")
    versions = at.dataframe[-1].value
    assert list(versions.policy) == ["조정 우선 (조정 → 다수결 → 동수면 낮은 등급)"]
    at.switch_page("screens/audit.py").run()
    at.selectbox[0].select("q02").run()
    rulings = next(d.value for d in at.dataframe if "ruling" in d.value.columns)
    assert rulings[["pid", "ruling", "reason"]].values.tolist() == [
        ["(질문 전체: 근거 유무)", "근거 없음", "어느 문단도 질문에 답하지 않음"]
    ]


def test_assign_page_gives_annotators_their_own_queue(app_db):
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/assign.py").run()
    form = at.get("form")[0]
    form.slider[0].set_value(0.0)
    form.button[1].click().run()  # "assign"
    assert not at.exception and at.success
    q1 = set(judging.overview(_db(), "annotator1").qid)
    q2 = set(judging.overview(_db(), "annotator2").qid)
    assert q1 and q2 and not q1 & q2 and len(q1 | q2) == 24


def test_assign_page_switches_the_double_share_off_when_everyone_doubles(app_db):
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/assign.py").run()
    assert not at.slider[0].disabled
    at.number_input[0].set_value(2).run()
    assert at.slider[0].disabled
    at.get("form")[0].button[1].click().run()  # "assign", two annotators per question
    assert not at.exception and at.success
    assert all(len(set(judging.overview(_db(), a).qid)) == 24 for a in ("annotator1", "annotator2"))


def test_export_page_offers_qrels_downloads(app_db):
    _app().run()
    _two_annotators_judge(_db())
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/export.py").run()
    assert not at.exception and not at.error
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == [
        "qrels 내려받기",
        "근거 없음 질문 목록 내려받기",
        "판정 기록 전체 내려받기 (JSONL)",
        "조정 기록 내려받기 (JSONL)",
        "답변 검수 기록 내려받기 (JSONL)",
    ]
    at.button(key="build_report").click().run()
    assert at.button(key="build_report").proto.label == "보고서 만들기"
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels[-1] == "보고서 내려받기 (html)"
    at.button(key="build_bundle").click().run()
    assert not at.exception and not at.error
    assert "재현 번들 내려받기 (zip)" in [b.proto.label for b in at.get("download_button")]
    from reljudge.campaign import bundle

    assert any(bundle.build(_db()).bundle_sha256 in c.value for c in at.caption)


def test_dashboard_page_shows_live_metrics(app_db):
    _app().run()
    _two_annotators_judge(_db())
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/dashboard.py").run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert set(table.system) == {"bm25", "vector", "hybrid", "graphrag"}
    # one question judged: every figure still provisional, its bounds beside it
    assert "MRR@10" in table.columns and table["MRR@10"].str.contains(" · 잠정 [", regex=False).all()
    # the page says how few questions the means rest on
    assert at.info[0].value.startswith("평균은 전체 질문 24개 중 판정된, 답할 수 있는 질문 1개에 근거합니다")
    assert "판정이 아직 없는 질문 23개는 빠짐" in at.info[0].value
    # a new judgment shows up on the next run, no restart
    before = table[(table.system == "bm25") & (table.qtype == "전체")]["n"].iloc[0]
    db = _db()
    pid = judging.payload(db, "annotator1", "q02")["items"][0]["pid"]
    judging.grade(db, "annotator1", "q02", pid, 2)
    at.run()
    after = at.dataframe[0].value
    assert after[(after.system == "bm25") & (after.qtype == "전체")]["n"].iloc[0] == before + 1
    assert not at.warning
    # "no answer" beside a citable grade: counted as answerable, and the page says so
    judging.mark_no_answer(db, "annotator2", "q02", True)
    at.run()
    assert [w.value for w in at.warning] == [
        "'근거 없음' 표시가 있지만 2점 이상 문단도 있어 답할 수 있는 질문으로 계산한 질문: q02. "
        "불일치 조정 화면의 '근거 없음' 대기열에 올라 있습니다(판정자가 한 명이어도): 책임자가 "
        "근거 유무를 확정하거나, 판정자가 그 질문의 표시나 등급을 고치면 사라집니다."
    ]
    # ... and the adjudication page it points to offers the ruling
    at.switch_page("screens/adjudicate.py").run()
    assert not at.exception and any("q02" in box.options for box in at.selectbox)


def test_users_page_deactivates_and_reactivates_without_touching_others(app_db):
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/users.py").run()
    at.selectbox(key="manage_target").select("annotator2").run()
    at.button(key="deactivate").click().run()
    assert not at.exception
    db = _db()
    assert not auth.is_active(db, "annotator2") and auth.is_active(db, "annotator1")
    at.button(key="activate").click().run()
    assert auth.is_active(db, "annotator2")


def test_every_table_header_on_the_lead_pages_is_korean(app_db):
    """Each column a lead page shows has a Korean header, except names that are data
    (annotators, systems) or measure names (RR@10, nDCG@10, Judged@10)."""
    from reljudge import i18n

    _app().run()
    db = _db()
    _two_annotators_judge(db)
    judging.mark_no_answer(db, "annotator1", "q02", True)
    judging.mark_no_answer(db, "annotator2", "q02", False)
    from reljudge.campaign import assignment

    assignment.assign(db, "lead", per_question=1)
    data_names = {"annotator1", "annotator2", "bm25", "vector", "hybrid", "graphrag"}
    untranslated = {}
    for page in LEAD_PAGES:
        at = _login(_app().run(), "lead", "demo-lead")
        at.switch_page(page).run()
        assert not at.exception
        for frame in (d.value for d in at.dataframe):
            for column in map(str, frame.columns):
                if column in data_names or "@" in column and not column.startswith("not found"):
                    continue
                if i18n.column_label(column, "ko") == column:
                    untranslated.setdefault(page, []).append(column)
    assert untranslated == {}
    assert i18n.column_label("RR@10 95% CI", "ko") == "RR@10 95% 구간"
    assert i18n.column_label("not found @10", "ko") == "10위 안에 없음"
    assert i18n.column_label("percent_agreement", "en") == "percent agreement"


def test_every_page_checks_the_role_before_anything_else():
    """The server-side guard is each screen's first statement (a screen file can be run
    on its own, e.g. by AppTest or a misconfigured server)."""
    import ast

    files = sorted((webapp.HERE / "screens").glob("*.py"))
    assert sorted(p.stem for p in files) == sorted(navigation.all_addresses())  # all in the menu
    for path in files:
        body = [
            node
            for node in ast.parse(path.read_text(encoding="utf-8")).body
            if not isinstance(node, (ast.Import, ast.ImportFrom))
            and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        ]
        first = body[0]
        call = first.value if isinstance(first, (ast.Assign, ast.Expr)) else None
        assert isinstance(call, ast.Call) and ast.unparse(call.func) == "session.require_role", path.name


def test_a_new_campaign_file_starts_empty_and_asks_for_its_first_lead(tmp_path, monkeypatch):
    monkeypatch.setenv("RELJUDGE_DB", str(tmp_path / "campaign.duckdb"))
    monkeypatch.delenv("RELJUDGE_DEMO", raising=False)
    at = _app().run()
    assert not at.exception
    assert campaign.counts(_db())["users"] == 0 and campaign.counts(_db())["questions"] == 0  # no demo
    assert "demo-lead" not in " ".join(i.value for i in at.info)
    at.text_input(key="first_lead_username").input("boss")
    at.text_input(key="first_lead_password").input("boss-password-1")
    at.text_input(key="first_lead_again").input("boss-password-1")
    # Without the setup code from the server's log, whoever reaches the page first
    # cannot take the campaign.
    at.text_input(key="first_lead_code").input("wrong-code-0000")
    at.button[0].click().run()
    assert not at.exception and "설정 코드가 맞지 않습니다" in at.error[0].value
    assert campaign.counts(_db())["users"] == 0
    at.text_input(key="first_lead_code").input(auth.setup_code().upper().replace("-", " "))
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.error]
    assert not at.error, [e.value for e in at.error]
    assert auth.authenticate(_db(), "boss", "boss-password-1").role == "lead"
    at.switch_page("screens/users.py").run()
    assert at.title[0].value == "사용자 관리"


def test_the_login_form_slows_down_guessing_and_a_lead_unlocks(app_db):
    at = _app().run()
    for _ in range(auth.FREE_FAILURES):
        _login(at, "annotator1", "wrong-password")
    _login(at, "annotator1", "demo-pass1")
    assert "초 뒤에 다시 시도하세요" in at.error[0].value and "token" not in at.session_state
    db = _db()
    for _ in range(auth.LOCK_AFTER):
        db.cursor().execute("UPDATE login_events SET attempted_at = attempted_at - INTERVAL 1 HOUR")
        auth.login(db, "annotator1", "wrong-password")
    lead = _login(_app().run(), "lead", "demo-lead")
    lead.switch_page("screens/users.py").run()
    assert lead.selectbox(key="unlock_target").options == ["annotator1"]
    lead.button(key="unlock").click().run()
    assert not lead.exception and auth.locked_users(db) == []
    assert any("annotator1" in str(t.value) for t in lead.dataframe)  # failed logins listed
    lead.switch_page("screens/audit.py").run()  # and on the audit page
    assert not lead.exception
    assert any("attempted_at" in d.value.columns and "annotator1" in set(d.value.username) for d in lead.dataframe)


def test_review_screen_shows_an_answer_blind(app_db):
    """Answer review (methodology §4): the reviewer sees the question and an answer of the
    demo, never which system wrote it."""
    at = _login(_app().run(), "annotator1", "demo-pass1")
    at.switch_page("screens/review.py").run()
    assert not at.exception
    assert at.title[0].value == "답변 검수"
    keys = [getattr(el, "key", None) for el in at.main]
    assert "rv_review" in keys
    from reljudge.review import queue as answer_queue

    data = answer_queue.payload(_db(), "annotator1", answer_queue.current_answer(_db(), "annotator1"))
    assert "system" not in data and not any(s in str(data) for s in ("bm25", "graphrag", "hybrid"))


def test_every_refusal_code_has_a_translation():
    from reljudge import i18n
    from reljudge.campaign import judging
    from reljudge.review import events

    for code in set(judging.REJECTION_CODES) | set(events.REJECTION_CODES):
        for lang in ("ko", "en"):
            assert i18n.t(f"rejected_{code}", lang)


def test_dashboard_states_the_test_procedure_beside_the_p_values(app_db):
    """Issue 13 item 8: the p-values come with how they were computed (here 3 questions:
    the exact test over all 2^3 sign patterns)."""
    _app().run()
    db = _db()
    for qid in ("q01", "q02", "q03"):
        _two_annotators_judge(db, qid)
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/dashboard.py").run()
    assert not at.exception and not at.error
    captions = [c.value for c in at.caption]
    assert (
        "p 값: 질문 3개의 부호 조합 2^3 = 8가지를 모두 센 정확한 대응 무작위화 검정(양측); "
        "Holm 보정은 지표마다 시스템 쌍에 대해"
    ) in captions


def test_dashboard_flags_groups_resting_on_few_questions(app_db):
    """Issue 13 item 11: a group with fewer than 10 answerable questions is flagged in the
    table, and a caption says why its interval is not to be trusted."""
    _app().run()
    db = _db()
    for qid in ("q01", "q02", "q03"):
        _two_annotators_judge(db, qid)
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/dashboard.py").run()
    assert not at.exception and not at.error
    table = next(d.value for d in at.dataframe if "few_questions" in d.value.columns)  # under 문항 표본
    assert table.few_questions.all() and (table.n < 10).all()
    assert any(c.value.startswith("'질문 적음' 표시는 답할 수 있는 질문이 10개 미만인 그룹입니다") for c in at.caption)


def test_an_empty_table_says_so_in_korean_not_with_the_grids_english_placeholder(app_db):
    # st.dataframe paints "empty" on its canvas for a table without rows (no frozen qrels
    # version yet on the adjudication page): the page says it in the user's language instead
    _app().run()
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/adjudicate.py").run()
    assert not at.exception
    assert "아직 표에 들어갈 행이 없습니다." in [c.value for c in at.caption]
    assert all(len(d.value) for d in at.dataframe)


def test_dashboard_lists_a_question_with_nothing_citable_until_it_is_marked(app_db):
    """Issue 35.4: judged with nothing citable and not marked, a question is listed with
    what marking it would do to each system's MRR; once marked it is gone from the list."""
    _app().run()
    db = _db()
    _two_annotators_judge(db, "q01")
    for item in judging.payload(db, "annotator1", "q02")["items"]:
        judging.grade(db, "annotator1", "q02", item["pid"], 0)
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/dashboard.py").run()
    assert not at.exception and not at.error
    assert "인용할 근거가 없는데 '근거 없음'으로 표시되지 않은 질문" in [s.value for s in at.subheader]
    listed = next(d.value for d in at.dataframe if "mrr_if_marked" in d.value.columns)
    assert set(listed.qid) == {"q02"} and (listed.mrr_if_marked >= listed.mrr_now).all()
    judging.mark_no_answer(_db(), "annotator1", "q02", True)
    at.run()
    assert "인용할 근거가 없는데 '근거 없음'으로 표시되지 않은 질문" not in [s.value for s in at.subheader]


def test_an_annotator_without_assignments_is_told_to_ask_the_lead(app_db):
    """Issue 39.8: the data is imported, only this annotator has no question of it."""
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/assign.py").run()
    at.get("form")[0].button[1].click().run()  # "assign": annotator1 and annotator2 share the work
    assert not at.exception and at.success
    auth.add_user(_db(), "annotator3", "demo-pass3", "annotator")
    at = _login(_app().run(), "annotator3", "demo-pass3")
    assert not at.exception
    texts = [i.value for i in at.info]
    assert "아직 배정된 질문이 없습니다. 책임자에게 배정을 요청하세요." in texts
    assert not any("자료를 가져와야" in t for t in texts)
