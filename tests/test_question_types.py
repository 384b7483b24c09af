"""Declared question types (reljudge.question_types): a questions import with a type the
campaign has not declared is refused, naming the file, the line, the type and the declared
list, and writes nothing; a lead declares and withdraws types; a database made before
the step keeps every type its questions use. On both backends."""

from __future__ import annotations

import json

import pytest

from reljudge import i18n
from reljudge.campaign import setup as campaign
from reljudge import question_types
from reljudge.errors import InputError, ReljudgeError
from reljudge.storage import database as storage_database, open_database, transfer
from reljudge.storage.db import database_key
from reljudge.storage.migrations import MIGRATIONS

DEFAULT = ["사실 확인", "개념 관계", "시대 변화", "전역 주제"]


def _questions(path, *rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _stored(db):
    return db.cursor().execute("SELECT qid, qtype FROM questions ORDER BY seq").fetchall()


def test_a_new_campaign_declares_the_methodologys_four_types(db):
    assert question_types.DEFAULT_TYPES == tuple(DEFAULT)
    assert campaign.declared_types(db) == DEFAULT
    table = campaign.question_types_table(db)
    assert list(table.qtype) == DEFAULT and list(table.questions) == [0, 0, 0, 0]


def test_the_demo_uses_exactly_the_default_types():
    rows = [json.loads(line) for line in (campaign.demo_dir() / "questions.jsonl").read_text("utf-8").splitlines()]
    assert {r["type"] for r in rows} == set(question_types.DEFAULT_TYPES)


def test_an_undeclared_type_is_refused_with_file_line_and_the_declared_list(db, tmp_path):
    f = _questions(
        tmp_path / "q.jsonl",
        {"qid": "a", "text": "첫 질문", "type": "사실 확인"},
        {"qid": "b", "text": "둘째", "type": "개념 관계"},
        {"qid": "c", "text": "셋째", "type": "fact"},
    )
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "questions", f)
    assert (err.value.file, err.value.line) == (str(f), 3)
    assert str(err.value) == (
        f"{f}, line 3: question type 'fact' is not declared in this campaign "
        "(declared: 사실 확인, 개념 관계, 시대 변화, 전역 주제); correct the file, or if it is "
        "a new type, a lead declares it (Import page, reljudge types add) and you import again"
    )
    assert i18n.message(err.value.message, "ko").startswith(
        f"{f}, 3번째 줄: 질문 유형 'fact'은(는) 이 캠페인에 선언되지 않았습니다 (선언된 유형: 사실 확인, 개념 관계, "
        "시대 변화, 전역 주제)"
    )
    assert _stored(db) == []  # all or nothing
    assert campaign.counts(db)["questions"] == 0


def test_a_spelling_variant_is_refused_with_the_type_it_resembles(db, tmp_path):
    f = tmp_path / "q.csv"
    f.write_text("qid,text,type\na,첫 질문,사실 확인\nb,둘째,사실확인\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "questions", f)
    assert err.value.line == 3
    assert "question type '사실확인' is not declared" in str(err.value)
    assert "did you mean '사실 확인'?" in str(err.value)
    assert "'사실 확인'을(를) 뜻했나요?" in i18n.message(err.value.message, "ko")
    assert _stored(db) == []


def test_a_declared_type_is_accepted_and_an_empty_type_stays_allowed(db, tmp_path):
    f = _questions(
        tmp_path / "q.jsonl",
        {"qid": "a", "text": "첫 질문", "type": "인물"},
        {"qid": "b", "text": "유형 없는 질문", "criteria": "기준"},
        {"qid": "c", "text": "빈 유형", "type": "", "criteria": "기준"},
    )
    with pytest.raises(InputError, match="'인물' is not declared"):
        campaign.import_file(db, "questions", f)
    assert campaign.declare_types(db, ["인물"], "lee") == ["인물"]
    summary = campaign.import_file(db, "questions", f)
    assert summary.inserted == 3 and summary.incomplete == 3  # no criteria on a; no type on b, c
    assert _stored(db) == [("a", "인물"), ("b", ""), ("c", "")]
    assert campaign.untyped_questions(db) == 2
    table = campaign.question_types_table(db).set_index("qtype").questions
    assert table.to_dict() == {**{t: 0 for t in DEFAULT}, "인물": 1}
    # a re-import that leaves the type out keeps it; changing it to an undeclared one is refused
    _questions(f, {"qid": "a", "text": "첫 질문"})
    campaign.import_file(db, "questions", f)
    _questions(f, {"qid": "a", "text": "첫 질문", "type": "인물들"})
    with pytest.raises(InputError, match="line 1: question type '인물들' is not declared"):
        campaign.import_file(db, "questions", f)
    assert _stored(db)[0] == ("a", "인물")


def test_declaring_and_withdrawing_types(db, tmp_path):
    assert campaign.declare_types(db, ["  역사 배경 ", "인물", "인물"], "lee") == ["역사 배경", "인물"]
    assert campaign.declare_types(db, ["인물", "사실 확인"]) == []  # already declared
    assert campaign.declared_types(db) == DEFAULT + ["역사 배경", "인물"]
    row = db.cursor().execute("SELECT declared, changed_by FROM question_types WHERE name = '인물'").fetchall()
    assert row == [(True, "lee")]
    # a default the campaign does not use can be withdrawn, and declared again
    campaign.withdraw_type(db, "전역 주제", "lee")
    assert campaign.declared_types(db) == ["사실 확인", "개념 관계", "시대 변화", "역사 배경", "인물"]
    f = _questions(tmp_path / "q.jsonl", {"qid": "a", "text": "질문", "type": "전역 주제"})
    with pytest.raises(InputError, match="'전역 주제' is not declared"):
        campaign.import_file(db, "questions", f)
    campaign.declare_types(db, ["전역 주제"])
    assert campaign.declared_types(db) == DEFAULT + ["역사 배경", "인물"]
    campaign.import_file(db, "questions", f)
    # a type questions use cannot be withdrawn; one not declared neither
    with pytest.raises(ReljudgeError) as err:
        campaign.withdraw_type(db, "전역 주제")
    assert str(err.value).startswith("1 questions have type '전역 주제', so it cannot be withdrawn")
    with pytest.raises(ReljudgeError, match=r"type 'fact' is not declared \(declared: 사실 확인, "):
        campaign.withdraw_type(db, "fact")
    campaign.withdraw_type(db, "역사 배경")
    assert campaign.declared_types(db) == DEFAULT + ["인물"]


@pytest.mark.parametrize(
    "names,problem",
    [
        ([""], "a question type needs a name"),
        (["   "], "a question type needs a name"),
        (["x" * 101], "the type name has 101 characters; at most 100 are accepted"),
        (["사실\u200b확인"], "holds an invisible or control character (U+200B)"),
        (["좋은 유형", "인물\t"], None),  # surrounding tab stripped: fine
        (["좋은 유형", "사실확인"], "type '사실확인' differs from the declared type '사실 확인' only in spacing"),
        (["Fact", "fact"], None),
    ],
)
def test_type_names_are_checked_before_anything_is_declared(db, names, problem):
    if problem is None:
        campaign.declare_types(db, names)
        return
    with pytest.raises(ReljudgeError) as err:
        campaign.declare_types(db, names)
    assert problem in str(err.value)
    assert campaign.declared_types(db) == DEFAULT  # all or nothing


def test_an_older_database_keeps_the_types_its_questions_use(backend, tmp_path, request, monkeypatch):
    """A campaign made before migration 13 whose questions use other types (free text then)
    declares them on upgrade, beside the default four: nothing it holds is refused or lost,
    and its own files import again."""
    target = (
        request.getfixturevalue("pg_server").url(request.getfixturevalue("pg_server").new_database())
        if backend == "postgresql"
        else tmp_path / "old.duckdb"
    )
    monkeypatch.setattr(storage_database, "MIGRATIONS", MIGRATIONS[:12])
    old = open_database(target)
    with old.transaction() as cur:
        for qid, qtype in [("q1", "fact"), ("q2", "사실확인"), ("q3", "사실 확인"), ("q4", ""), ("q5", "fact")]:
            cur.execute("INSERT INTO questions(qid, text, qtype) VALUES (?, ?, ?)", [qid, f"질문 {qid}", qtype])
    old.close()
    monkeypatch.setattr(storage_database, "MIGRATIONS", MIGRATIONS)
    db = open_database(target)
    try:
        assert (13, "question_types") in db.applied_migrations()
        assert campaign.declared_types(db) == DEFAULT + ["fact", "사실확인"]
        assert _stored(db) == [("q1", "fact"), ("q2", "사실확인"), ("q3", "사실 확인"), ("q4", ""), ("q5", "fact")]
        f = _questions(
            tmp_path / "same.jsonl",
            *[
                {"qid": q, "text": f"질문 {q}", "type": t}
                for q, t in [("q1", "fact"), ("q2", "사실확인"), ("q6", "fact")]
            ],
        )
        assert campaign.import_file(db, "questions", f).inserted == 1
        with pytest.raises(ReljudgeError, match="questions have type 'fact'"):
            campaign.withdraw_type(db, "fact")
    finally:
        db.close()


def test_copy_db_carries_the_declared_types(db, tmp_path):
    campaign.declare_types(db, ["인물"], "lee")
    campaign.withdraw_type(db, "전역 주제", "lee")
    source = database_key(db.url or db.path)
    db.close()  # copy-db reads a closed campaign
    target = open_database(tmp_path / "copy.duckdb")
    try:
        transfer.copy(source, target)
        assert campaign.declared_types(target) == ["사실 확인", "개념 관계", "시대 변화", "인물"]
        assert campaign.declare_types(target, ["또 다른 유형"]) == ["또 다른 유형"]  # the sequence goes on
    finally:
        target.close()


def test_the_cli_lists_declares_and_withdraws_types(db_target, tmp_path, capsys):
    from reljudge.cli import main as cli

    target = str(db_target)
    assert cli.main(["--db", target, "init"]) == 0
    f = _questions(
        tmp_path / "q.jsonl",
        {"qid": "a", "text": "질문", "type": "사실 확인"},
        {"qid": "b", "text": "질문 둘", "type": "역사 배경"},
        {"qid": "c", "text": "유형 없음"},
    )
    capsys.readouterr()
    assert cli.main(["--db", target, "import", "questions", str(f)]) == 2
    assert capsys.readouterr().err == (
        f"error: {f}, line 2: question type '역사 배경' is not declared in this "
        "campaign (declared: 사실 확인, 개념 관계, 시대 변화, 전역 주제); correct the "
        "file, or if it is a new type, a lead declares it (Import page, reljudge "
        "types add) and you import again\n"
    )
    assert cli.main(["--db", target, "types", "add", "역사 배경", "사실 확인", "인물"]) == 0
    assert capsys.readouterr().out == "declared: 역사 배경, 인물\nalready declared: 사실 확인\n"
    assert cli.main(["--db", target, "types", "add", "인물"]) == 0
    assert capsys.readouterr().out == "nothing new: every name was declared already\n"
    assert cli.main(["--db", target, "types", "add", "역사배경"]) == 2
    assert "differs from the declared type '역사 배경' only in spacing" in capsys.readouterr().err
    assert cli.main(["--db", target, "import", "questions", str(f)]) == 0
    capsys.readouterr()
    assert cli.main(["--db", target, "types", "list"]) == 0
    out = capsys.readouterr()
    assert out.out == "사실 확인\t1\n개념 관계\t0\n시대 변화\t0\n전역 주제\t0\n역사 배경\t1\n인물\t0\n"
    assert out.err == "(1 questions have no type)\n"
    assert cli.main(["--db", target, "types", "remove", "역사 배경"]) == 2
    assert capsys.readouterr().err.startswith("error: 1 questions have type '역사 배경', so it cannot be withdrawn")
    assert cli.main(["--db", target, "types", "remove", "인물"]) == 0
    assert capsys.readouterr().out.startswith("withdrew '인물'")
    assert cli.main(["--db", target, "types", "remove", "인물"]) == 2
    assert "type '인물' is not declared" in capsys.readouterr().err
    db = open_database(target)
    try:
        assert campaign.declared_types(db) == DEFAULT + ["역사 배경"]
        assert db.cursor().execute("SELECT changed_by FROM question_types WHERE name = '인물'").fetchall() == [("cli",)]
    finally:
        db.close()


def test_the_types_command_has_help_with_examples_and_needs_a_campaign(tmp_path, capsys):
    from reljudge.cli import main as cli

    for argv in (
        ["types", "--help"],
        ["types", "add", "--help"],
        ["types", "remove", "--help"],
        ["types", "list", "--help"],
    ):
        with pytest.raises(SystemExit):
            cli.main(argv)
        assert "example:\n  reljudge types" in capsys.readouterr().out
    missing = tmp_path / "nothing.duckdb"
    assert cli.main(["--db", str(missing), "types", "list"]) == 2
    assert not missing.exists()
