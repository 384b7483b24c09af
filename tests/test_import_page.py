"""The Import page does every lead import the CLI does, so nothing needs the app stopped:
generated answers (``import answers``, its --system and --replace), answer reviews and
external qrels as named sources (``import reviews|qrels FILE --source NAME``), and the
question types a campaign declares (``reljudge types``). AppTest on a real DuckDB file
with the demo campaign, logged in as the demo lead."""

from __future__ import annotations

import io
import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from app_support import lead_on

from reljudge import i18n
from reljudge.campaign import setup as campaign
from reljudge.campaign import export
from reljudge.review import ingest
from reljudge.errors import ReljudgeError
from reljudge.ui import uploads


@pytest.fixture
def app_db(tmp_path, monkeypatch):
    monkeypatch.setenv("RELJUDGE_DB", str(tmp_path / "app.duckdb"))
    monkeypatch.setenv("RELJUDGE_DEMO", "1")  # as `reljudge serve` on the default file


def _db():
    from reljudge.ui.session import get_db

    return get_db()


def _shown(markdown: str) -> str:
    """What a Markdown alert shows: its backslash escapes resolved."""
    return re.sub(r"\\([!-~])", r"\1", markdown)


def _lead_on(page: str = "screens/import_data.py") -> AppTest:
    return lead_on(page)


class _Upload(io.BytesIO):
    """What st.file_uploader hands the page."""

    def __init__(self, name: str, data: bytes):
        super().__init__(data)
        self.name = name


def _jsonl(*rows) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def _upload(at: AppTest, kind: str, name: str, data: bytes, text: str = "", replace: bool = False) -> AppTest:
    """Choose the kind, then fill its form: the file, its one text field (system or
    source name) and the replace box, and import."""
    at.selectbox(key="import_kind").set_value(kind).run()
    form = at.get("form")[0]
    form.file_uploader[0].set_value((name, data, "application/octet-stream"))
    if text:
        form.text_input[0].input(text)
    if replace:
        form.checkbox(key=f"import_replace_{kind}").check()
    form.button[0].click().run()
    assert not at.exception
    return at


def _form_labels(at: AppTest) -> list[str]:
    form = at.get("form")[0]
    return [w.label for w in form.selectbox] + [w.label for w in form.text_input] + [w.label for w in form.checkbox]


def test_each_kind_shows_the_options_of_its_cli_command(app_db):
    at = _lead_on()
    kinds = at.selectbox(key="import_kind")
    assert kinds.options == [
        "말뭉치(문단)",
        "질문",
        "검색 결과(run)",
        "생성 답변",
        "답변 검수 기록 (이름 붙인 출처)",
        "외부 qrels (이름 붙인 출처)",
    ]
    expected = {
        "corpus": ["형식"],
        "questions": ["형식", "판정이 있는 질문도 바꾸기 (이전 문구는 버전으로 보관)"],
        "run": [
            "형식",
            "시스템 이름 (run; 비우면 tag 열)",
            "같은 이름의 시스템이 있으면 run 바꾸기 (이전 run은 버전으로 보관)",
        ],
        "answers": [
            "형식",
            "시스템 이름 (비우면 파일의 시스템 열)",
            "이미 답변이 있는 시스템이면 새 버전으로 가져오기 (이전 버전과 그 검수는 남음)",
        ],
        "reviews": ["출처 이름"],
        "qrels": ["형식", "출처 이름"],
    }
    for kind, labels in expected.items():
        at.selectbox(key="import_kind").select(kind).run()
        assert not at.exception
        assert _form_labels(at) == labels, kind
        assert f"reljudge import {kind} FILE" in at.get("form")[0].file_uploader[0].proto.help, kind
    at.selectbox(key="import_kind").select("qrels").run()
    assert at.get("form")[0].selectbox[0].options == ["자동(확장자)", "trec", "beir"]


def test_answers_are_imported_on_the_page_with_system_and_replace(app_db):
    at = _lead_on()
    new = _jsonl(
        {"qid": "q01", "answer": "감사의 첫걸음은 주어진 것을 헤아리는 일입니다 [p0045].", "citations": ["p0045"]},
        {"qid": "q02", "answer": "", "abstained": True},
    )
    _upload(at, "answers", "rag.jsonl", new, text="rag")  # --system rag: the file has no system
    assert not at.error
    assert _shown(at.success[0].value) == "가져왔습니다: 생성 답변 rag.jsonl: 시스템 rag 버전 1"
    versions = ingest.answer_versions(_db()).set_index("system")
    assert versions.loc["rag", "n_answers"] == 2 and versions.loc["rag", "source_file"] == "rag.jsonl"
    # a system that has answers already needs the box, as --replace does
    again = _jsonl({"qid": "q01", "system": "rag", "answer": "다시 쓴 답변입니다 [p0045].", "citations": ["p0045"]})
    _upload(at, "answers", "rag-v2.jsonl", again)
    error = _shown(at.error[0].value)
    assert error.startswith(
        "가져오지 못했습니다 (아무것도 저장되지 않음): rag-v2.jsonl: 시스템 'rag'의 답변이 이미 있습니다 (버전 1)"
    )
    _upload(at, "answers", "rag-v2.jsonl", again, replace=True)
    assert not at.error and _shown(at.success[0].value).endswith("시스템 rag 버전 2")
    assert ingest.answer_versions(_db()).query("system == 'rag'").version.tolist() == [1, 2]


def test_a_bad_answers_file_names_its_line_in_the_pages_language_and_writes_nothing(app_db):
    at = _lead_on()
    before = len(ingest.answer_versions(_db()))
    bad = _jsonl(
        {"qid": "q01", "system": "rag", "answer": "첫 답변 [1].", "citations": ["p0045"]},
        {"qid": "q02", "system": "rag", "answer": "둘째 답변 [3].", "citations": ["p0001"]},
    )
    _upload(at, "answers", "답변.jsonl", bad)
    assert _shown(at.error[0].value) == (
        "가져오지 못했습니다 (아무것도 저장되지 않음): 답변.jsonl, 2번째 줄: "
        "인용 표시 [3]이(가) citations 목록(1개) 밖을 가리킵니다"
    )
    unknown = _jsonl(
        {"qid": "q01", "system": "rag", "answer": "답변 [1].", "citations": ["p0045"]},
        {"qid": "q99", "system": "rag", "answer": "없는 질문의 답변 [1].", "citations": ["p0045"]},
    )
    _upload(at, "answers", "답변.jsonl", unknown)
    assert "답변.jsonl, 2번째 줄: 없는 질문 id 'q99'" in _shown(at.error[0].value)
    assert len(ingest.answer_versions(_db())) == before
    # in English (the page passes its language; AppTest cannot word a selectbox in English)
    with pytest.raises(ReljudgeError) as err:
        uploads.import_any(_db(), "answers", _Upload("answers.jsonl", bad), lang="en")
    assert i18n.message(err.value.message, "en") == (
        "answers.jsonl, line 2: citation marker [3] points outside the citations list (1 entries)"
    )
    done = uploads.import_any(_db(), "answers", _Upload("answers.jsonl", bad[: bad.index(b"\n") + 1]), lang="en")
    assert done == uploads.Imported("Generated answers answers.jsonl: system rag version 1")


def test_reviews_are_imported_as_a_named_source(app_db):
    at = _lead_on()
    good = _jsonl(
        {
            "qid": "q01",
            "system": "bm25",
            "reviewer": "llm",
            "interpretation": 2,
            "sentences": [{"index": 0, "support": {"p0045": 2}}],
        },
        {"qid": "q01", "system": "vector", "reviewer": "llm", "interpretation": 1},
    )
    _upload(at, "reviews", "llm.jsonl", good)  # no source name: asked for
    assert at.warning[0].value == "출처 이름을 적으세요 (예: llm-judge)."
    assert ingest.review_sources(_db()) == []
    _upload(at, "reviews", "llm.jsonl", good, text="llm-judge")
    assert not at.error
    assert _shown(at.success[0].value) == "가져왔습니다: 검수 기록 llm.jsonl: 검수자 × 답변 2건을 출처 llm-judge로"
    assert ingest.review_sources(_db()) == ["llm-judge"]
    assert len(ingest.review_records(_db(), "llm-judge")) == 2
    bad = _jsonl(
        {"qid": "q01", "system": "bm25", "reviewer": "llm", "interpretation": 2},
        {"qid": "q01", "system": "vector", "reviewer": "llm", "interpretation": 5},
    )
    _upload(at, "reviews", "llm-bad.jsonl", bad, text="llm-judge")
    assert _shown(at.error[0].value) == (
        "가져오지 못했습니다 (아무것도 저장되지 않음): llm-bad.jsonl, 2번째 줄: "
        "interpretation은 0, 1, 2, null 가운데 하나여야 합니다 (받은 값: 5)"
    )
    assert len(ingest.review_records(_db(), "llm-judge")) == 2  # the source as it was


def test_qrels_are_imported_as_a_named_source_on_the_import_page_only(app_db):
    at = _lead_on()
    _upload(at, "qrels", "other.qrels", b"q01 0 p0045 2\nq01 0 p0001 1\nq02 0 p0002 0\n", text="other-team")
    assert not at.error
    assert _shown(at.success[0].value) == "가져왔습니다: 외부 qrels other.qrels: 3행을 출처 other-team로"
    assert export.sources(_db()) == ["other-team"]
    _upload(at, "qrels", "bad.qrels", b"q01 0 p0045 2\nq01 0 p0001 7\n", text="broken")
    assert _shown(at.error[0].value) == (
        "가져오지 못했습니다 (아무것도 저장되지 않음): bad.qrels, 2번째 줄: 등급 7는 범위(0, 1, 2)를 벗어납니다"
    )
    assert export.sources(_db()) == ["other-team"]
    # the Export page no longer has a form of its own: it points here, and offers the source
    ex = _lead_on("screens/export.py")
    assert not ex.get("file_uploader") and not ex.error
    assert any("자료 가져오기" in c.value and "외부 qrels" in c.value for c in ex.caption)
    assert "가져온 외부 판정 other-team" in ex.selectbox[0].options


def test_questions_with_an_undeclared_type_are_refused_until_the_lead_declares_it(app_db):
    at = _lead_on()
    table = next(d.value for d in at.dataframe if "qtype" in d.value.columns and "questions" in d.value.columns)
    assert table.qtype.tolist() == list(campaign.DEFAULT_TYPES) and table.questions.tolist() == [6, 6, 6, 6]
    questions = _jsonl(
        {"qid": "q90", "text": "새 질문 하나", "type": "사실 확인", "criteria": "기준"},
        {"qid": "q91", "text": "새 질문 둘", "type": "인물", "criteria": "기준"},
    )
    _upload(at, "questions", "새질문.jsonl", questions)
    assert _shown(at.error[0].value) == (
        "가져오지 못했습니다 (아무것도 저장되지 않음): 새질문.jsonl, 2번째 줄: 질문 유형 '인물'은(는) 이 캠페인에 "
        "선언되지 않았습니다 (선언된 유형: 사실 확인, 개념 관계, 시대 변화, 전역 주제). 파일을 고치거나, 새 유형이면 "
        "책임자가 선언한 뒤(자료 가져오기 화면, reljudge types add) 다시 가져오세요"
    )
    assert campaign.counts(_db())["questions"] == 24
    # a variant of a declared type is refused, a new one declared
    at.text_input(key="new_type").input("사실확인")
    at.get("form")[1].button[0].click().run()
    assert "선언된 유형 '사실 확인'와(과) 띄어쓰기·대소문자·문장부호만 다릅니다" in _shown(at.error[0].value)
    at.text_input(key="new_type").input("인물")
    at.get("form")[1].button[0].click().run()
    assert not at.exception and _shown(at.success[0].value) == "유형 인물을(를) 선언했습니다."
    table = next(d.value for d in at.dataframe if "qtype" in d.value.columns and "questions" in d.value.columns)
    assert table.qtype.tolist()[-1] == "인물"
    assert _db().cursor().execute("SELECT changed_by FROM question_types WHERE name = '인물'").fetchall() == [("lead",)]
    _upload(at, "questions", "새질문.jsonl", questions)
    assert not at.error and "2개 추가" in _shown(at.success[0].value)
    # a type questions use cannot be withdrawn; an unused one can
    at.selectbox(key="withdraw_type").select("인물")
    at.get("form")[2].button[0].click().run()
    assert _shown(at.error[0].value).startswith("질문 1개가 유형 '인물'을(를) 쓰고 있어 선언을 취소할 수 없습니다")
    at.selectbox(key="withdraw_type").select("전역 주제")  # the demo's six questions use it
    at.get("form")[2].button[0].click().run()
    assert _shown(at.error[0].value).startswith("질문 6개가 유형 '전역 주제'을(를) 쓰고 있어")
    assert campaign.declared_types(_db()) == list(campaign.DEFAULT_TYPES) + ["인물"]


def test_an_unused_type_is_withdrawn_on_the_page(app_db):
    at = _lead_on()
    at.text_input(key="new_type").input("역사 배경")
    at.get("form")[1].button[0].click().run()
    at.selectbox(key="withdraw_type").select("역사 배경")
    at.get("form")[2].button[0].click().run()
    assert not at.exception and not at.error
    assert (
        _shown(at.success[0].value) == "유형 역사 배경의 선언을 취소했습니다: 이 유형의 질문은 이제 가져올 수 없습니다."
    )
    assert campaign.declared_types(_db()) == list(campaign.DEFAULT_TYPES)
