"""The two disagreement queues a lead works through: pooled paragraphs
(reljudge.storage.team.paragraph_disagreements, the Adjudicate page) and answer-review
items (reljudge.review.adjudication.disagreements, the answer-review adjudication page).
Both list the items on which raters' current grades differ, the widest spread first,
and both follow the same rule for when a lead's ruling settles an item; the columns and
order each returns are pinned here, as the pages and reports read them."""

from __future__ import annotations

import json

import pytest

from reljudge.campaign import adjudication as paragraph_rulings
from reljudge.campaign import judging
from reljudge.review import adjudication
from reljudge.review import events
from reljudge.review import ingest
from reljudge.storage import team

PARAGRAPH_COLUMNS = [
    "qid",
    "question",
    "criteria",
    "pid",
    "paragraph",
    "lo",
    "hi",
    "spread",
    "changes_first",
    "n_systems",
    "n_annotators",
    "grades",
    "notes",
    "evidence",
]
ANSWER_COLUMNS = [
    "answer_id",
    "qid",
    "qtype",
    "seq",
    "kind",
    "sentence",
    "pid",
    "grades",
    "lo",
    "hi",
    "n_reviewers",
    "ruling",
    "decided",
]


def _paragraph_rows(db):
    queue = team.paragraph_disagreements(db)
    assert list(queue.columns) == PARAGRAPH_COLUMNS
    return [
        (r.qid, r.pid, int(r.lo), int(r.hi), int(r.spread), int(r.n_annotators), tuple(sorted(r.grades)))
        for r in queue.itertuples()
    ]


def test_the_paragraph_queue_lists_differing_grades_widest_spread_first_until_a_ruling(campaign_db):
    db = campaign_db
    for user, qid, pid, grade in [
        ("ann", "q1", "p01", 2),
        ("bob", "q1", "p01", 0),  # 2 vs 0
        ("ann", "q1", "p02", 2),
        ("bob", "q1", "p02", 1),  # 2 vs 1
        ("ann", "q1", "p03", 1),
        ("bob", "q1", "p03", 0),  # 1 vs 0
        ("ann", "q1", "p08", 2),
        ("bob", "q1", "p08", 2),  # agree: not listed
        ("ann", "q2", "p05", 1),  # one annotator: not listed
    ]:
        judging.grade(db, user, qid, pid, grade)
    assert _paragraph_rows(db) == [
        ("q1", "p01", 0, 2, 2, 2, (0, 2)),
        ("q1", "p02", 1, 2, 1, 2, (1, 2)),
        ("q1", "p03", 0, 1, 1, 2, (0, 1)),
    ]
    # a ruling settles the item: it leaves the queue
    paragraph_rulings.adjudicate(db, "lee", "q1", "p01", 1, "부분 근거")
    assert [r[1] for r in _paragraph_rows(db)] == ["p02", "p03"]
    # a grade given after the ruling opens it again
    judging.grade(db, "bob", "q1", "p01", 1)
    judging.grade(db, "ann", "q1", "p01", 0)
    assert [r[:2] for r in _paragraph_rows(db)][:1] == [("q1", "p02")]
    assert ("q1", "p01", 0, 1, 1, 2, (0, 1)) in _paragraph_rows(db)


ANSWERS = [
    {
        "qid": "q1",
        "system": "rag",
        "answer": "감사는 받은 것을 헤아리는 데서 시작됩니다 [p01]. 날마다 은혜를 기록합니다[1][2].",
        "citations": ["p02", "p03"],
    },
    {
        "qid": "q2",
        "system": "rag",
        "answer": "용서는 나를 살립니다. 평화는 듣기에서 옵니다.",
        "sentences": ["용서는 나를 살립니다.", "평화는 듣기에서 옵니다."],
        "citations": ["p04", "p05"],
    },
]


@pytest.fixture
def reviewed(campaign_db, tmp_path):
    """q1's and q2's answers reviewed by ann, bob and (one item) lee."""
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ANSWERS), encoding="utf-8")
    ingest.import_answers(campaign_db, path)
    ids = {
        a.qid: int(a.answer_id)
        for a in campaign_db.cursor().execute("SELECT answer_id, qid FROM current_answers").df().itertuples()
    }
    a1, a2 = ids["q1"], ids["q2"]
    for user, answer, kind, fields in [
        ("ann", a1, "support", {"sentence": 0, "pid": "p01", "grade": 2}),
        ("bob", a1, "support", {"sentence": 0, "pid": "p01", "grade": 0}),  # 2 vs 0
        ("ann", a1, "support", {"sentence": 1, "pid": "p02", "grade": 2}),
        ("bob", a1, "support", {"sentence": 1, "pid": "p02", "grade": 1}),  # 2 vs 1
        ("ann", a1, "support", {"sentence": 1, "pid": "p03", "grade": 1}),
        ("bob", a1, "support", {"sentence": 1, "pid": "p03", "grade": 0}),  # 1 vs 0
        ("ann", a1, "interpretation", {"grade": 2}),
        ("bob", a1, "interpretation", {"grade": 1}),  # 2 vs 1
        ("ann", a2, "support", {"sentence": 0, "pid": "p04", "grade": 1}),
        ("bob", a2, "support", {"sentence": 0, "pid": "p04", "grade": 0}),
        ("lee", a2, "support", {"sentence": 0, "pid": "p04", "grade": 1}),  # 1, 1 vs 0
        ("ann", a2, "interpretation", {"grade": 2}),
        ("bob", a2, "interpretation", {"grade": 2}),  # agree: not listed
        ("ann", a2, "support", {"sentence": 1, "pid": "p05", "grade": 0}),  # one reviewer: not listed
        ("ann", a1, "needs_citation", {"sentence": 0, "needs_citation": False}),
        ("bob", a1, "needs_citation", {"sentence": 0, "needs_citation": True}),  # not a graded kind
    ]:
        events.review(campaign_db, user, answer, kind, **fields)
    return campaign_db, a1, a2


def _answer_rows(db):
    queue = adjudication.disagreements(db)
    assert list(queue.columns) == ANSWER_COLUMNS
    return [
        (r.qid, r.kind, r.sentence, r.pid, r.grades, r.lo, r.hi, r.n_reviewers, r.ruling, r.decided)
        for r in queue.itertuples()
    ]


def test_the_answer_queue_lists_differing_grades_open_first_widest_spread_first_until_a_ruling(reviewed):
    db, a1, a2 = reviewed
    assert _answer_rows(db) == [
        ("q1", "support", 0, "p01", (0, 2), 0, 2, 2, None, 0),
        ("q1", "support", 1, "p02", (1, 2), 1, 2, 2, None, 1),
        ("q1", "interpretation", None, None, (1, 2), 1, 2, 2, None, 1),
        ("q1", "support", 1, "p03", (0, 1), 0, 1, 2, None, 0),
        ("q2", "support", 0, "p04", (0, 1, 1), 0, 1, 3, None, 1),
    ]
    queue = adjudication.disagreements(db)
    assert list(queue.answer_id) == [a1, a1, a1, a1, a2] and list(queue.seq) == sorted(queue.seq)
    # a ruling settles the item: it stays in the queue, after the open ones, with the ruling
    adjudication.adjudicate(db, "lee", a1, "support", sentence=0, pid="p01", grade=1, reason="부분 근거")
    rows = _answer_rows(db)
    assert [r[1:4] for r in rows] == [
        ("support", 1, "p02"),
        ("interpretation", None, None),
        ("support", 1, "p03"),
        ("support", 0, "p04"),
        ("support", 0, "p01"),
    ]
    assert rows[-1][-2:] == (1, 1)
    disputed = adjudication.disputed_answers(adjudication.disagreements(db))
    assert disputed.to_dict("records") == [
        {"answer_id": a1, "qid": "q1", "qtype": disputed.qtype[0], "n_items": 4, "n_open": 3, "gap": 2},
        {"answer_id": a2, "qid": "q2", "qtype": disputed.qtype[1], "n_items": 1, "n_open": 1, "gap": 1},
    ]
    # a grade given after the ruling opens the item again, as in the paragraph queue; the
    # ruling still decides the measures until the lead rules again
    events.review(db, "bob", a1, "support", sentence=0, pid="p01", grade=1)
    events.review(db, "ann", a1, "support", sentence=0, pid="p01", grade=0)
    rows = _answer_rows(db)
    assert rows[2] == ("q1", "support", 0, "p01", (0, 1), 0, 1, 2, None, 1)
    assert [r[1:4] for r in rows] == [
        ("support", 1, "p02"),
        ("interpretation", None, None),
        ("support", 0, "p01"),
        ("support", 1, "p03"),
        ("support", 0, "p04"),
    ]
