"""One rule for every input format (issue 12, item 5): a rank is a whole number of 0 or
more in TREC, JSONL and CSV runs alike, and a NUL character is refused in every format
(raw or escaped), each with file and line; nothing is written."""

from __future__ import annotations

import pytest

from reljudge.campaign import setup as campaign
from reljudge.errors import InputError


@pytest.mark.parametrize(
    "name,content,line",
    [
        ("neg.trec", "q1 Q0 p02 1 9.0 bm25\nq1 Q0 p01 -3 8.0 bm25\n", 2),
        (
            "neg.jsonl",
            '{"qid":"q1","pid":"p02","rank":1,"score":9,"tag":"x"}\n'
            '{"qid":"q1","pid":"p01","rank":-3,"score":8,"tag":"x"}\n',
            2,
        ),
        ("neg.csv", "qid,pid,rank,score,tag\nq1,p02,1,9,x\nq1,p01,-3,8,x\n", 3),
    ],
)
def test_a_negative_rank_is_refused_in_every_format(campaign_db, tmp_path, name, content, line):
    f = tmp_path / name
    f.write_text(content, encoding="utf-8")
    before = campaign.counts(campaign_db)
    with pytest.raises(InputError) as err:
        campaign.import_file(campaign_db, "run", f, system="neg")
    assert err.value.line == line and "rank" in str(err.value)
    assert campaign.counts(campaign_db) == before


@pytest.mark.parametrize(
    "name,content",
    [
        ("zero.trec", "q1 Q0 p02 0 9.0 zero\nq1 Q0 p01 1 8.0 zero\n"),
        ("zero.jsonl", '{"qid":"q1","pid":"p02","rank":0,"score":9}\n{"qid":"q1","pid":"p01","rank":1,"score":8}\n'),
        ("zero.csv", "qid,pid,rank,score\nq1,p02,0,9\nq1,p01,1,8\n"),
    ],
)
def test_a_zero_based_ranking_is_accepted_in_every_format(campaign_db, tmp_path, name, content):
    f = tmp_path / name
    f.write_text(content, encoding="utf-8")
    campaign.import_file(campaign_db, "run", f, system="zero")
    assert "zero" in set(campaign.list_runs(campaign_db).system)


@pytest.mark.parametrize(
    "name,content,line",
    [
        ("nul.csv", "pid,text\nz1,fine\nz2,a\x00b\n", 3),
        ("nul-escaped.jsonl", '{"pid":"z1","text":"fine"}\n{"pid":"z2","text":"a\\u0000b"}\n', 2),
        ("nul-raw.jsonl", '{"pid":"z1","text":"fine"}\n{"pid":"z2","text":"a\x00b"}\n', 2),
    ],
)
def test_a_nul_character_is_refused_in_every_format(db, tmp_path, name, content, line):
    f = tmp_path / name
    f.write_bytes(content.encode("utf-8"))
    with pytest.raises(InputError) as err:
        campaign.import_file(db, "corpus", f)
    assert err.value.line == line
    assert campaign.counts(db)["paragraphs"] == 0
