"""Every message code the library can return has a Korean and an English text.

The library returns codes with parameters (``reljudge.codes``); each module declares
the codes it can return in a module-level ``CODES``. This walks the whole package, so
a module that starts returning codes is checked without being listed here."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string

import pytest

import reljudge
from reljudge import i18n
from reljudge.codes import Codes, Message

# Streamlit scripts run their page when imported; they hold no library codes.
_SKIP = ("reljudge.ui.webapp", "reljudge.ui.launcher", "reljudge.ui.workbench", "reljudge.__main__")


def _declared() -> dict[str, tuple[str, tuple[str, ...]]]:
    """{code: (module, parameter names)} over every ``Codes`` in the package."""
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for info in pkgutil.walk_packages(reljudge.__path__, "reljudge."):
        if info.name.startswith(_SKIP):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Codes):
                for code, params in value.items():
                    owner = found.setdefault(code, (info.name, params))
                    assert owner == (info.name, params) or owner[1] == params, (
                        f"{code} declared twice with different parameters: {owner} and {info.name}"
                    )
    return found


DECLARED = _declared()


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_walk_finds_the_library_codes():
    modules = {module for module, _ in DECLARED.values()}
    assert {
        "reljudge.agreement.coefficients",
        "reljudge.campaign.outcome_agreement",
        "reljudge.campaign.assignment",
        "reljudge.storage.catalog",
        "reljudge.campaign.adjudication",
    } <= modules
    assert "reason_fewer_annotators" in DECLARED and "reason_all_tied" in DECLARED


@pytest.mark.parametrize("code", sorted(DECLARED))
def test_every_code_has_korean_and_english_with_its_parameters(code):
    module, params = DECLARED[code]
    assert code in i18n.STRINGS, f"{module} returns {code!r}, which has no text in reljudge.i18n"
    ko, en = i18n.STRINGS[code]
    assert ko.strip() and en.strip(), f"{code}: an empty text"
    words = re.sub(r"\{[^}]*\}", "", en)
    if re.search(r"[A-Za-z]", words):  # a template such as "{kind} {source}: {parts}" has no words
        assert re.search(r"[\uac00-\ud7a3]", ko), f"{code}: the Korean text has no Hangul: {ko!r}"
    assert _fields(ko) == set(params), f"{code}: Korean placeholders {_fields(ko)} != parameters {params}"
    assert _fields(en) == set(params), f"{code}: English placeholders {_fields(en)} != parameters {params}"
    msg = Message(code, tuple(sorted((p, 7) for p in params)))
    for lang in i18n.LANGS:
        text = i18n.message(msg, lang)
        assert "{" not in text and ("7" in text or not params)


def test_a_module_cannot_return_an_undeclared_code_or_skip_a_parameter():
    codes = Codes(reason_x=("n",))
    assert codes("reason_x", n=3) == Message("reason_x", (("n", 3),))
    with pytest.raises(ValueError):
        codes("reason_y")
    with pytest.raises(ValueError):
        codes("reason_x")
    with pytest.raises(ValueError):
        codes("reason_x", n=3, m=4)


def test_message_round_trips_through_json_form():
    msg = Message("reason_fleiss_one_category", (("items", 4), ("raters", 3)))
    assert Message.from_dict(msg.to_dict()) == msg
    assert msg.to_dict() == {"code": "reason_fleiss_one_category", "items": 4, "raters": 3}


def test_no_sentence_is_translated_by_pattern_any_more():
    """The Korean reasons came from regular expressions over English sentences; editing
    one English sentence silently broke its translation. The catalog is keyed by code."""
    assert not hasattr(i18n, "reason_text") and not hasattr(i18n, "_REASONS_KO")


def test_an_error_raised_with_a_code_reads_english_in_the_cli_and_korean_on_the_pages():
    from reljudge.errors import DatabaseLockedError
    from reljudge.storage import duckdb_file as db

    exc = DatabaseLockedError(db.CODES("error_db_locked", path="x.duckdb"))
    assert str(exc).startswith("x.duckdb: the database is in use by another process")
    assert i18n.message(exc.message, "ko").startswith("x.duckdb: 데이터베이스를 다른 프로세스")
    plain = DatabaseLockedError("some text")
    assert str(plain) == "some text" and plain.message is None


@pytest.mark.parametrize(
    "raise_it, english, korean",
    [
        (
            lambda: __import__("reljudge.eval.measures", fromlist=["x"]).parse_measure("RR@0", 2),
            "measure 'RR@0': cutoff must be at least 1",
            "측정 'RR@0': 컷오프는 1 이상이어야 합니다",
        ),
        (
            lambda: __import__("reljudge.eval.measures", fromlist=["x"]).parse_measure("Nope@10", 2),
            "unknown measure 'Nope' in 'Nope@10'; known measures:",
            "'Nope@10'의 측정 'Nope'을(를) 모릅니다",
        ),
        (
            lambda: __import__("reljudge.eval.ranking", fromlist=["x"]).check("trec10", "merge"),
            "unknown duplicates policy 'merge'; use one of",
            "모르는 중복 정책 'merge'",
        ),
    ],
)
def test_the_engine_s_errors_are_codes_worded_in_both_languages(raise_it, english, korean):
    """The metric engine's errors (measure names, the ranking rule, TREC files) reach the
    pages too (the dashboard's measure choice, an uploaded run): a code, so the page words
    it in Korean while the CLI keeps its English sentence."""
    from reljudge.errors import ReljudgeError

    with pytest.raises(ReljudgeError) as caught:
        raise_it()
    assert isinstance(caught.value.message, Message)
    assert str(caught.value).startswith(english)
    assert i18n.message(caught.value.message, "ko").startswith(korean)


def test_a_trec_file_problem_names_file_and_line_in_korean(tmp_path):
    import duckdb

    from reljudge.errors import InputError
    from reljudge.eval import trec_io

    run = tmp_path / "bad.run"
    run.write_text("q1 Q0 d1 1 1.5 sys\nq1 Q0 d2 2 abc sys\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        trec_io.read_run(duckdb.connect(), run, "run")
    assert caught.value.line == 2
    assert str(caught.value) == f"{run}, line 2: score 'abc' is not a number"
    assert i18n.message(caught.value.message, "ko") == f"{run}, 2번째 줄: 점수 'abc'은(는) 수가 아닙니다"
