"""Answer review (issue 14): import, review events, payload, aggregation, measures
(hand-computed), review files round trip, CLI. Real DuckDB files, no mocks."""

from __future__ import annotations

import json

import pytest

from reljudge.campaign import team_agreement
from reljudge.review import measures as answer_metrics
from reljudge.review import adjudication
from reljudge.review import assignment
from reljudge.review import decisions as review_decisions
from reljudge.review import events as review_events
from reljudge.review import ingest
from reljudge.review import queue
from reljudge.cli.main import main
from reljudge.errors import InputError, ReljudgeError

ANSWERS = [
    # q1: markers [pid] and [n] into the citations list; the last sentence cites nothing
    {
        "qid": "q1",
        "system": "rag",
        "answer": "감사는 받은 것을 헤아리는 데서 시작됩니다 [p01]. 날마다 은혜를 기록합니다[1][2]. 좋은 질문입니다.",
        "citations": ["p02", "p03"],
    },
    # q2: a citations list without markers: every sentence cites both; pre-split sentences
    {
        "qid": "q2",
        "system": "rag",
        "answer": "용서는 나를 살립니다. 평화는 듣기에서 옵니다.",
        "sentences": ["용서는 나를 살립니다.", "평화는 듣기에서 옵니다."],
        "citations": ["p04", "p05"],
    },
    {"qid": "q3", "system": "rag", "answer": "", "abstained": True},
    {"qid": "q1", "system": "base", "answer": "감사는 봄비입니다 [p03].", "citations": []},
]


def _write(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def answered(campaign_db, tmp_path):
    ingest.import_answers(campaign_db, _write(tmp_path / "answers.jsonl", ANSWERS))
    return campaign_db


def _ids(db):
    keys = {
        (a.qid, a.system): int(a.answer_id)
        for a in db.cursor().execute("SELECT answer_id, qid, system FROM current_answers").df().itertuples()
    }
    return keys


def test_import_splits_sentences_and_keeps_their_citations(answered):
    db = answered
    ids = _ids(db)
    rows = (
        db.cursor()
        .execute("""SELECT s.answer_id, s.idx, s.text, list(c.pid ORDER BY c.ord) FILTER (WHERE c.pid IS NOT NULL)
                                  FROM answer_sentences s LEFT JOIN answer_citations c USING (answer_id, idx)
                                  GROUP BY ALL ORDER BY 1, 2""")
        .fetchall()
    )
    q1 = [(i, t, c) for a, i, t, c in rows if a == ids[("q1", "rag")]]
    assert q1 == [
        (0, "감사는 받은 것을 헤아리는 데서 시작됩니다.", ["p01"]),
        (1, "날마다 은혜를 기록합니다.", ["p02", "p03"]),
        (2, "좋은 질문입니다.", None),
    ]
    q2 = [(i, c) for a, i, t, c in rows if a == ids[("q2", "rag")]]
    assert q2 == [(0, ["p04", "p05"]), (1, ["p04", "p05"])]
    assert not [r for r in rows if r[0] == ids[("q3", "rag")]]


@pytest.mark.parametrize(
    "record, problem",
    [
        ({"qid": "qX", "system": "s", "answer": "가."}, "unknown qid 'qX'"),
        ({"qid": "q1", "system": "s", "answer": "가 [p99]."}, "unknown cited pid 'p99'"),
        ({"qid": "q1", "system": "s", "answer": "가 [3].", "citations": ["p01"]}, "marker [3] points outside"),
        ({"qid": "q1", "system": "s", "answer": "  "}, "empty answer"),
        ({"qid": "q1", "system": "s", "answer": "가. " * 7_000}, "at most 20000 are accepted"),
        (
            {"qid": "q1", "system": "s", "answer": "가.", "sentences": ["가. " * 6_000] * 2},
            "the answer has 36000 characters",
        ),
    ],
)
def test_bad_answers_name_file_line_and_problem_and_write_nothing(campaign_db, tmp_path, record, problem):
    path = _write(tmp_path / "bad.jsonl", [{"qid": "q2", "system": "s", "answer": "좋습니다."}, record])
    with pytest.raises(InputError) as err:
        ingest.import_answers(campaign_db, path)
    assert err.value.line == 2 and problem in str(err.value) and str(path) in str(err.value)
    assert campaign_db.cursor().execute("SELECT count(*) FROM answers").fetchall()[0][0] == 0


def test_duplicate_answer_and_reimport_needs_replace_and_keeps_old_version(answered, tmp_path):
    dup = _write(tmp_path / "dup.jsonl", [ANSWERS[0], ANSWERS[0]])
    with pytest.raises(InputError, match="line 2: duplicate answer of system 'rag'"):
        ingest.import_answers(answered, dup)
    old = _ids(answered)[("q1", "rag")]
    review_events.review(answered, "ann", old, "interpretation", grade=2)
    again = _write(tmp_path / "again.jsonl", [ANSWERS[0]])
    with pytest.raises(InputError, match="--replace"):
        ingest.import_answers(answered, again)
    assert ingest.import_answers(answered, again, replace=True) == {"rag": 2}
    new = _ids(answered)[("q1", "rag")]
    assert new != old and ("q2", "rag") not in _ids(answered)  # version 2 holds only q1
    assert (
        answered.cursor().execute("SELECT count(*) FROM review_events WHERE answer_id = ?", [old]).fetchall()[0][0] == 1
    )  # the old review is kept
    _, refused, _ = review_events.record_each(
        answered,
        "ann",
        [{"id": "x", "kind": "interpretation", "answer_id": old, "grade": 1}],
        with_ids=True,
        codes=True,
    )
    assert refused == {"x": "superseded"}


def test_record_each_shape_codes_idempotency_and_stale(answered):
    a = _ids(answered)[("q1", "rag")]
    events = [
        {"id": "e1", "kind": "support", "answer_id": a, "sentence": 0, "pid": "p01", "grade": 2, "client": "A"},
        {"id": "e2", "kind": "support", "answer_id": a, "sentence": 0, "pid": "p02", "grade": 2},
        {"id": "e3", "kind": "support", "answer_id": a, "sentence": 7, "pid": "p01", "grade": 2},
        {"id": "e4", "kind": "interpretation", "answer_id": a, "grade": 3},
        {"id": "e5", "kind": "interpretation", "answer_id": 999, "grade": 1},
        {"id": "e6", "kind": "needs_citation", "answer_id": a, "sentence": 2, "needs_citation": False},
    ]
    acked, refused, eids = review_events.record_each(answered, "ann", events, with_ids=True, codes=True)
    assert acked == ["e1", "e6"] and set(eids) == {"e1", "e6"}
    assert refused == {"e2": "not_cited", "e3": "unknown_sentence", "e4": "malformed", "e5": "unknown_answer"}
    again = review_events.record_each(answered, "ann", events[:1], with_ids=True, codes=True)
    assert again == (["e1"], {}, {"e1": eids["e1"]})  # resent: acknowledged, stored once
    base = eids["e1"]
    review_events.record_each(
        answered,
        "ann",
        [
            {
                "id": "e7",
                "kind": "support",
                "answer_id": a,
                "sentence": 0,
                "pid": "p01",
                "grade": 1,
                "client": "B",
                "base": base,
            }
        ],
    )
    _, refused, _ = review_events.record_each(
        answered,
        "ann",
        [
            {
                "id": "e8",
                "kind": "support",
                "answer_id": a,
                "sentence": 0,
                "pid": "p01",
                "grade": 0,
                "client": "A",
                "base": base,
            }
        ],
        with_ids=True,
        codes=True,
    )
    assert refused == {"e8": "stale"}
    text = review_events.record_each(answered, "ann", [events[1]])[1]["e2"]
    assert "not cited" in text


def test_review_assignments_limit_the_queue(answered):
    plan = assignment.assign_reviews(answered, "lee", ["ann", "bob"], per_question=1)
    mine = set(plan.rows[plan.rows.username == "ann"].qid)
    assert set(queue.review_queue(answered, "ann").qid) == mine
    other = next(a for (q, s), a in _ids(answered).items() if q not in mine)
    _, refused = review_events.record_each(
        answered, "ann", [{"id": "z", "kind": "interpretation", "answer_id": other, "grade": 1}], codes=True
    )
    assert refused == {"z": "not_assigned"}


def test_payload_is_blind_ordered_and_shows_decisions(answered):
    from reljudge.campaign import judging

    ids = _ids(answered)
    a = ids[("q1", "rag")]
    judging.grade(answered, "bob", "q1", "p01", 2)
    review_events.review(answered, "ann", a, "support", sentence=0, pid="p01", grade=1)
    review_events.review(answered, "ann", a, "note", note="두 번째 문장이 과장됨")
    p = queue.payload(answered, "ann", a)
    assert "rag" not in json.dumps(p, ensure_ascii=False) and "system" not in p
    first = p["sentences"][0]["citations"][0]
    assert first["pid"] == "p01" and first["support"] == 1 and first["relevance"] == 2 and first["eid"] > 0
    assert first["source"].startswith("[예시] 문서 d1")
    assert p["note"] == "두 번째 문장이 과장됨" and p["in_question"]["n"] == 2
    q = queue.review_queue(answered, "ann")
    assert list(q.qid) == sorted(q.qid, key=lambda x: int(x[1:]))  # campaign order of questions
    orders = {u: list(queue.review_queue(answered, u).answer_id) for u in ("ann", "bob", "lee")}
    assert orders["ann"] == list(queue.review_queue(answered, "ann").answer_id)  # fixed per reviewer
    assert queue.current_answer(answered, "ann") == int(q.answer_id.iloc[0])
    assert queue.step(answered, "ann", 1) == int(q.answer_id.iloc[1])


def _review_q1_q2(db, user, q1, q2, q1_support=((0, "p01", 2), (1, "p02", 1), (1, "p03", 0)), interp=(2, 1)):
    for s, pid, g in q1_support:
        review_events.review(db, user, q1, "support", sentence=s, pid=pid, grade=g)
    review_events.review(db, user, q1, "needs_citation", sentence=2, needs_citation=False)
    for s, pid, g in ((0, "p04", 2), (0, "p05", 0), (1, "p04", 0), (1, "p05", 0)):
        review_events.review(db, user, q2, "support", sentence=s, pid=pid, grade=g)
    review_events.review(db, user, q1, "interpretation", grade=interp[0])
    review_events.review(db, user, q2, "interpretation", grade=interp[1])


def test_measures_hand_computed(answered):
    db = answered
    ids = _ids(db)
    q1, q2, q3, b1 = ids[("q1", "rag")], ids[("q2", "rag")], ids[("q3", "rag")], ids[("q1", "base")]
    _review_q1_q2(db, "ann", q1, q2)
    review_events.review(db, "ann", b1, "support", sentence=0, pid="p03", grade=0)
    review_events.review(db, "ann", b1, "interpretation", grade=0)
    review_events.review(db, "ann", q3, "abstention", appropriate=True)
    from reljudge.campaign import judging

    for pid, g in (("p01", 2), ("p02", 1), ("p03", 0)):  # q1's paragraph judgments
        judging.grade(db, "bob", "q1", pid, g)
    judging.grade(db, "bob", "q2", "p04", 2)
    ev = answer_metrics.evaluate_answers(db, n_boot=200)
    m = {(r.system, r.qtype, r.measure): (r.n, r.mean) for r in ev.means.itertuples()}
    # q1/rag: pairs s = 1, .5, 0 -> P = .5; sentences needing a citation 0, 1: max s 1, .5 -> R = .75,
    # full 1/2. q2/rag: pairs 1, 0, 0, 0 -> P = .25; R = (1 + 0)/2 = .5; full = .5.
    assert m[("rag", "all", "support_precision")] == (2, pytest.approx((0.5 + 0.25) / 2))
    assert m[("rag", "all", "support_recall")] == (2, pytest.approx((0.75 + 0.5) / 2))
    assert m[("rag", "all", "full_support_share")] == (2, pytest.approx(0.5))
    assert m[("rag", "all", "interpretation_valid_share")] == (2, pytest.approx(0.5))
    assert m[("rag", "all", "interpretation_mean")] == (2, pytest.approx(1.5))
    # citation relevance (threshold 2): q1 cites p01 (2), p02 (1), p03 (0) -> 1/3; q2 cites p04 (2), p05 (unjudged) -> 1/2
    assert m[("rag", "all", "citation_relevance")] == (2, pytest.approx((1 / 3 + 1 / 2) / 2))
    assert m[("rag", "사실 확인", "support_precision")] == (1, pytest.approx(0.5))
    assert m[("base", "all", "support_recall")] == (1, pytest.approx(0.0))
    lo, hi = ev.means.set_index(["system", "qtype", "measure"]).loc[
        ("rag", "all", "support_precision"), ["ci_low", "ci_high"]
    ]
    assert 0.25 <= lo <= hi <= 0.5
    c = ev.counts.set_index(["system", "qtype"]).loc[("rag", "all")]
    assert (c.n_answers, c.n_sentences, c.n_pairs, c.n_abstained, c.n_abstention_appropriate) == (2, 5, 7, 1, 1)
    fails = {(r.qid, r.system, r.sentence) for r in ev.failures.itertuples()}
    assert fails == {("q2", "rag", 1), ("q1", "base", 0)}


def test_unreviewed_answer_is_left_out_of_support_means(answered):
    ids = _ids(answered)
    review_events.review(answered, "ann", ids[("q1", "rag")], "support", sentence=0, pid="p01", grade=2)
    ev = answer_metrics.evaluate_answers(answered, n_boot=0)
    row = ev.means.set_index(["system", "qtype", "measure"]).loc[("rag", "all", "support_precision")]
    assert row.n == 0
    assert ev.counts.set_index(["system", "qtype"]).loc[("rag", "all")].n_unreviewed == 2


def test_several_reviewers_majority_ties_to_stricter_and_adjudication(answered):
    db = answered
    a = _ids(db)[("q1", "rag")]
    review_events.review(db, "ann", a, "support", sentence=0, pid="p01", grade=2)
    review_events.review(db, "bob", a, "support", sentence=0, pid="p01", grade=1)
    review_events.review(db, "ann", a, "needs_citation", sentence=2, needs_citation=False)
    review_events.review(db, "bob", a, "needs_citation", sentence=2, needs_citation=True)
    review_events.review(db, "ann", a, "interpretation", grade=2)
    review_events.review(db, "bob", a, "interpretation", grade=2)
    review_events.review(db, "lee", a, "interpretation", grade=0)
    agg = review_decisions.aggregated_reviews(db).set_index(["kind"])
    assert agg.loc["support"].value == 1 and agg.loc["support"].provenance == "tie"
    assert agg.loc["needs_citation"].value is True or agg.loc["needs_citation"].value == True  # noqa: E712
    assert agg.loc["interpretation"].value == 2 and agg.loc["interpretation"].provenance == "majority"
    adjudication.adjudicate(db, "lee", a, "support", sentence=0, pid="p01", grade=2, reason="전문 인용")
    agg = review_decisions.aggregated_reviews(db).set_index("kind")
    assert agg.loc["support"].value == 2 and agg.loc["support"].provenance == "adjudicated"
    assert review_decisions.aggregated_reviews(db, "majority").set_index("kind").loc["support"].value == 1
    assert review_decisions.aggregated_reviews(db, "reviewer:ann").set_index("kind").loc["support"].value == 2


def test_review_file_round_trip_exact_and_bad_lines(answered, tmp_path):
    db = answered
    ids = _ids(db)
    _review_q1_q2(db, "ann", ids[("q1", "rag")], ids[("q2", "rag")])
    review_events.review(db, "ann", ids[("q1", "rag")], "note", note="좋음")
    review_events.review(db, "bob", ids[("q3", "rag")], "abstention", appropriate=False)
    first = tmp_path / "reviews.jsonl"
    assert ingest.write_reviews(db, first) == 3
    assert first.read_bytes() == ingest.reviews_bytes(db)  # the Export page's download
    rec = json.loads(first.read_text(encoding="utf-8").splitlines()[0])
    assert rec["reviewer"] == "ann" and rec["qid"] == "q1" and rec["note"] == "좋음"
    assert rec["sentences"][1] == {"index": 1, "needs_citation": True, "support": {"p02": 1, "p03": 0}}
    assert rec["sentences"][2]["needs_citation"] is False
    assert ingest.import_reviews(db, first, "copy") == 3
    second = tmp_path / "again.jsonl"
    ingest.write_reviews(db, second, source="copy")
    assert second.read_bytes() == first.read_bytes()
    # the source evaluates like the team under the same decisions
    team = answer_metrics.evaluate_answers(db, n_boot=0).means
    copy = answer_metrics.evaluate_answers(db, "source:copy", n_boot=0).means
    assert team["mean"].fillna(-1).tolist() == copy["mean"].fillna(-1).tolist()
    bad = _write(
        tmp_path / "bad.jsonl",
        [rec, {**rec, "reviewer": "x", "sentences": [{"index": 0, "needs_citation": True, "support": {"p05": 2}}]}],
    )
    with pytest.raises(InputError, match=r"bad.jsonl, line 2: paragraph 'p05' is not cited by sentence 0"):
        ingest.import_reviews(db, bad, "bad")
    assert "bad" not in ingest.review_sources(db)


def test_cli_import_evaluate_export(answered, db_path, tmp_path, capsys):
    answered.close()
    path = _write(tmp_path / "more.jsonl", [{"qid": "q2", "answer": "가정은 평화롭습니다 [p05]."}])
    assert main(["--db", str(db_path), "import", "answers", str(path), "--system", "extra"]) == 0
    assert "extra version 1" in capsys.readouterr().out
    assert main(["--db", str(db_path), "import", "answers", str(path), "--system", "extra"]) == 2
    assert "--replace" in capsys.readouterr().err
    bad = _write(tmp_path / "bad.jsonl", [{"qid": "q9", "system": "s", "answer": "가."}])
    assert main(["--db", str(db_path), "import", "answers", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.jsonl, line 1: unknown qid 'q9'" in err
    from reljudge.storage import open_database

    db = open_database(db_path)
    a = _ids(db)[("q2", "extra")]
    review_events.review(db, "ann", a, "support", sentence=0, pid="p05", grade=1)
    review_events.review(db, "ann", a, "interpretation", grade=2)
    db.close()
    assert main(["--db", str(db_path), "evaluate-answers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "extra\tsupport_precision\tall\t0.5000" in lines
    assert "extra\tinterpretation_mean\tall\t2.0000" in lines
    assert main(["--db", str(db_path), "evaluate-answers", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    row = next(
        r
        for r in data["measures"]
        if r["system"] == "extra" and r["measure"] == "support_recall" and r["qtype"] == "all"
    )
    assert row["value"] == 0.5 and row["n_answers"] == 1 and row["ci_low"] == 0.5
    assert main(["--db", str(db_path), "evaluate-answers", "--format", "table"]) == 0
    assert "support_precision" in capsys.readouterr().out
    out = tmp_path / "r.jsonl"
    assert main(["--db", str(db_path), "export", "reviews", "-o", str(out)]) == 0
    assert main(["--db", str(db_path), "import", "reviews", str(out), "--source", "copy"]) == 0
    assert "1 reviewer × answer records as source 'copy'" in capsys.readouterr().out
    # The two spellings of a source agree (as on `export qrels`); an option that does not
    # apply to reviews is refused instead of silently exporting nothing.
    by_source, by_policy = tmp_path / "s.jsonl", tmp_path / "p.jsonl"
    assert main(["--db", str(db_path), "export", "reviews", "--source", "copy", "-o", str(by_source)]) == 0
    assert main(["--db", str(db_path), "export", "reviews", "--policy", "source:copy", "-o", str(by_policy)]) == 0
    assert "1 reviewer × answer records" in capsys.readouterr().out
    assert by_source.read_text(encoding="utf-8") == by_policy.read_text(encoding="utf-8") != ""
    for wrong in (
        ["--policy", "majority"],
        ["--min-grade", "1"],
        ["--format", "csv"],
        ["--source", "copy", "--policy", "source:other"],
    ):
        assert main(["--db", str(db_path), "export", "reviews", *wrong, "-o", str(tmp_path / "x.jsonl")]) == 2
        assert capsys.readouterr().err.startswith("error: ")
    assert not (tmp_path / "x.jsonl").exists()


# -- agreement on support and interpretation (reuses reljudge.agreement.coefficients) ---------------


def _ratings(rows):
    import pandas as pd

    return pd.DataFrame(rows, columns=["annotator", "qid", "answer_id", "kind", "sentence", "pid", "grade"])


def test_review_agreement_hand_computed():
    from reljudge.agreement import coefficients as agreement

    # support on 4 (sentence, paragraph) pairs: A 2,1,0,2 / B 2,0,0,1. Observed linear
    # disagreement Σ|i−j| o_ij = .25 + .25 = .5; marginals A (.25,.25,.5), B (.5,.25,.25):
    # expected Σ|i−j| p_i q_j = .25·.75 + .25·.75 + .5·1.25 = 1 -> weighted κ = 1 − .5/1 = .5
    support = [
        (who, "q1", 1, "support", s, pid, g)
        for who, grades in (("A", (2, 1, 0, 2)), ("B", (2, 0, 0, 1)))
        for (s, pid), g in zip(((0, "p1"), (0, "p2"), (1, "p1"), (1, "p3")), grades)
    ]
    # interpretation of 3 answers: A 2,2,0 / B 2,1,0. Coincidences o22 = 2, o21 = o12 = 1,
    # o00 = 2; n = (2, 1, 3), 6 values; ordinal δ²(1,2) = (1+3−2)² = 4, δ²(0,1) = (2+1−1.5)²
    # = 2.25, δ²(0,2) = (2+1+3−2.5)² = 12.25; α = 1 − 5·(2·4) / (2·(2·2.25 + 6·12.25 + 3·4)) = 7/9
    interp = [
        (who, "q1", a, "interpretation", None, None, g)
        for who, grades in (("A", (2, 2, 0)), ("B", (2, 1, 0)))
        for a, g in zip((1, 2, 3), grades)
    ]
    rep = agreement.review_agreement(_ratings(support + interp), {"q1": "사실 확인"})
    assert rep.support.cohen_kappa_linear["A|B"] == pytest.approx(0.5)
    assert rep.support.n_items == 4 and rep.interpretation.n_items == 3
    assert rep.interpretation.krippendorff_alpha_ordinal == pytest.approx(7 / 9)
    assert rep.interpretation.percent_agreement == pytest.approx(2 / 3)
    assert set(rep.by_type) == {"사실 확인"}
    table = agreement.figures_table(rep)
    assert list(table.rating) == ["support", "interpretation", "support", "interpretation"]
    json.dumps(rep.to_dict())  # JSON-ready, no NaN


def test_review_agreement_matches_krippendorff_and_scikit_learn():
    import krippendorff
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    from reljudge.agreement import coefficients as agreement

    rng = np.random.default_rng(3)
    for _ in range(20):
        n = int(rng.integers(5, 40))
        truth = rng.integers(0, 3, n)
        a = np.where(rng.random(n) < 0.7, truth, rng.integers(0, 3, n))
        b = np.where(rng.random(n) < 0.6, truth, rng.integers(0, 3, n))
        c = np.where(rng.random(n) < 0.5, truth, rng.integers(0, 3, n)).astype(float)
        c[rng.random(n) < 0.3] = np.nan  # a third reviewer saw only some
        rows = [
            (who, "q", i, "interpretation", None, None, int(v))
            for who, col in (("a", a), ("b", b), ("c", c))
            for i, v in enumerate(col)
            if v == v
        ]
        rows += [
            (who, "q", i // 3, "support", i % 3, "p", int(v))
            for who, col in (("a", a), ("b", b))
            for i, v in enumerate(col)
        ]
        rep = agreement.review_agreement(_ratings(rows))
        for res in (rep.support, rep.interpretation):
            if len(set(a) | set(b)) > 1:
                want = cohen_kappa_score(a, b, weights="linear", labels=[0, 1, 2])
                assert res.cohen_kappa_linear["a|b"] == pytest.approx(want, abs=1e-9)
        reliability = np.vstack([a, b, c]).astype(float)
        want = krippendorff.alpha(reliability_data=reliability, level_of_measurement="ordinal", value_domain=[0, 1, 2])
        assert rep.interpretation.krippendorff_alpha_ordinal == pytest.approx(want, abs=1e-9)


def test_review_agreement_from_database_with_an_imported_source(answered, tmp_path, db_path, capsys):

    db = answered
    ids = _ids(db)
    q1, q2 = ids[("q1", "rag")], ids[("q2", "rag")]
    _review_q1_q2(db, "ann", q1, q2)
    _review_q1_q2(db, "bob", q1, q2, q1_support=((0, "p01", 2), (1, "p02", 0), (1, "p03", 0)), interp=(2, 2))
    rep = team_agreement.reviews_from_database(db)
    assert rep.support.annotators == ["ann", "bob"] and rep.support.n_items == 7
    # ann 2,1,0 | 2,0,0,0 and bob 2,0,0 | 2,0,0,0: one pair differs by one grade
    from sklearn.metrics import cohen_kappa_score

    assert rep.support.cohen_kappa_linear["ann|bob"] == pytest.approx(
        cohen_kappa_score([2, 1, 0, 2, 0, 0, 0], [2, 0, 0, 2, 0, 0, 0], weights="linear")
    )
    assert rep.interpretation.n_items == 2
    # an imported source joins as one rater "source:NAME", like an imported qrels source
    path = tmp_path / "ann.jsonl"
    ingest.write_reviews(db, path)
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    _write(path, [dict(r, reviewer="llm") for r in lines if r["reviewer"] == "ann"])
    ingest.import_reviews(db, path, "llm")
    rep = team_agreement.reviews_from_database(db)
    assert rep.support.annotators == ["ann", "bob", "source:llm"]
    assert rep.support.cohen_kappa["ann|source:llm"] == pytest.approx(1.0)
    assert team_agreement.reviews_from_database(db, include_sources=False).support.annotators == ["ann", "bob"]
    db.close()
    assert main(["--db", str(db_path), "agreement", "--reviews"]) == 0
    out = capsys.readouterr().out
    assert "Support grades" in out and "ann|source:llm" in out and "Interpretation" in out
    assert main(["--db", str(db_path), "agreement", "--reviews", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["support"]["cohen_kappa"]["ann|source:llm"] == 1.0 and "interpretation" in doc


# -- the "answer review" section of the dashboard and the report ------------------------


def test_report_section_hand_computed(answered):
    from reljudge.reporting import report
    from reljudge.reporting import report_answers

    db = answered
    ids = _ids(db)
    q1, q2 = ids[("q1", "rag")], ids[("q2", "rag")]
    _review_q1_q2(db, "ann", q1, q2)
    _review_q1_q2(db, "bob", q1, q2)  # the same decisions: agreement 1
    review_events.review(db, "ann", ids[("q3", "rag")], "abstention", appropriate=True)
    sec = report_answers.build(db, "en", n_boot=200)
    m = sec.measures.set_index(["system", "qtype"])
    # as in test_measures_hand_computed: P = (.5 + .25)/2, R = (.75 + .5)/2, interpretation (2 + 1)/2
    assert m.loc[("rag", "all"), "support_precision"].startswith("0.375 [")
    assert m.loc[("rag", "all"), "support_recall"].startswith("0.625 [")
    assert m.loc[("rag", "all"), "interpretation_mean"].startswith("1.500 [")
    assert m.loc[("rag", "all"), "n_support"] == 2 and m.loc[("base", "all"), "n_support"] == 0
    assert m.loc[("base", "all"), "support_precision"] == "—"
    c = sec.counts.set_index(["system", "qtype"]).loc[("rag", "all")]
    assert (c.n_answers, c.n_abstained, c.n_abstention_appropriate) == (2, 1, 1)
    assert [tuple(r) for r in sec.failures[["system", "qid", "sentence", "citations"]].itertuples(index=False)] == [
        ("rag", "q2", 2, "p04 (0), p05 (0)")
    ]
    agree = sec.agreement[sec.agreement.scope == "all"].set_index("rating")
    assert agree.loc["support", "percent_agreement"] == 1.0 and agree.loc["support", "items_2plus"] == 7
    assert set(sec.pairs.cohen_kappa_linear) == {1.0}
    disclosure = dict(sec.disclosure)
    assert disclosure["Reviewers"] == "2: ann (3), bob (2) (answers reviewed)"
    # q1/base nobody, q3/rag (abstained) ann alone, q1/rag and q2/rag both
    assert (
        disclosure["Reviewers per answer"]
        == "0 reviewer(s): 1 answers, 1 reviewer(s): 1 answers, 2 reviewer(s): 2 answers"
    )
    assert "the lead's ruling if any" in disclosure["Several reviewers → one decision"]
    ko = report.render(report.build(db, lang="ko", n_boot=50), "md")
    assert "## 답변 검수" in ko and "검수자 간 일치도" in ko and "0.375 [" in ko
    en = report.render(report.build(db, lang="en", n_boot=50), "html")
    assert "<h2>Answer review</h2>" in en and "p04 (0), p05 (0)" in en


def test_report_section_escapes_answer_text(answered, tmp_path):
    from reljudge.reporting import report_answers

    db = answered
    evil = "<img src=x onerror=alert(1)> **굵게** | <b>x</b>"
    ingest.import_answers(
        db,
        _write(
            tmp_path / "evil.jsonl",
            [{"qid": "q2", "system": "evil", "answer": evil, "sentences": [evil], "citations": ["p04"]}],
        ),
    )
    a = _ids(db)[("q2", "evil")]
    review_events.review(db, "ann", a, "support", sentence=0, pid="p04", grade=0)
    sec = report_answers.build(db, "ko", n_boot=0)
    assert list(sec.failures.text) == [evil]  # data kept as it is
    md = report_answers.markdown(sec)
    import re

    assert evil not in md and not re.search(r"(?<!\\)<(img|b)", md)  # every < escaped
    assert "\\<img src=x onerror=alert(1)\\> \\*\\*굵게\\*\\* \\| \\<b\\>" in md
    page = report_answers.html(sec)
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_a_long_answer_is_split_in_bounded_pieces_and_imports(campaign_db, tmp_path):
    """Kiwi's splitter grows faster than its text, so a long answer is split piece by
    piece: every piece is at most SPLIT_PIECE characters, cut where a sentence ends, and
    the pieces are the whole text; an answer at the limit imports."""
    from reljudge import korean
    from reljudge.campaign.importers import MAX_ANSWER_CHARS

    base = "목회자는 믿음을 설명했다 [1]. 그 해 겨울 교회는 피난민을 도왔다. "
    text = (base * (MAX_ANSWER_CHARS // len(base) + 1))[:MAX_ANSWER_CHARS].strip()
    pieces = list(korean._pieces(text))
    assert "".join(pieces) == text and max(map(len, pieces)) <= korean.SPLIT_PIECE
    assert all(p.rstrip().endswith(".") for p in pieces[:-1])  # cut at sentence ends
    assert list(korean._pieces("가" * 2_400)) == ["가" * 500, "가" * 1_900]  # no break: cut short
    ingest.import_answers(
        campaign_db,
        _write(tmp_path / "long.jsonl", [{"qid": "q1", "system": "long", "answer": text, "citations": ["p01"]}]),
    )
    n = campaign_db.cursor().execute("SELECT count(*) FROM answer_sentences").fetchone()[0]
    assert n == text.count(". ") + 1


@pytest.mark.parametrize(
    "field, value",
    [("reviewer", "ann\u202eeil"), ("reviewer", "a\u200bnn"), ("system", "rag\u202e"), ("note", "좋\x00음")],
)
def test_hidden_characters_in_review_names_and_nul_in_notes_are_refused(answered, tmp_path, field, value):
    """One rule for names and ids (reljudge.display.id_problem): a reviewer or system name
    holding U+202E or U+200B is refused like an id, and a NUL in any field of a review
    file is refused like in every other import — with file and line."""
    db = answered
    ids = _ids(db)
    review_events.review(db, "ann", ids[("q1", "rag")], "note", note="좋음")
    good = tmp_path / "reviews.jsonl"
    ingest.write_reviews(db, good)
    rec = json.loads(good.read_text(encoding="utf-8").splitlines()[0])
    bad = _write(tmp_path / "bad.jsonl", [rec, {**rec, "reviewer": "bob", field: value}])
    with pytest.raises(InputError) as err:
        ingest.import_reviews(db, bad, "bad")
    assert err.value.line == 2 and "bad.jsonl" in str(err.value)
    assert "bad" not in ingest.review_sources(db)


def test_hidden_characters_in_source_and_answer_system_names_are_refused(answered, tmp_path):
    from reljudge.campaign import export

    db = answered
    review_events.review(db, "ann", _ids(db)[("q1", "rag")], "note", note="좋음")
    reviews = tmp_path / "r.jsonl"
    ingest.write_reviews(db, reviews)
    for name in ("live\u202e", "zero\u200bwidth"):
        with pytest.raises(ReljudgeError, match="source name"):
            ingest.import_reviews(db, reviews, name)
        qrels = tmp_path / "q.txt"
        qrels.write_text("q1 0 p01 2\n", encoding="utf-8")
        with pytest.raises(ReljudgeError, match="source name"):
            export.import_qrels(db, qrels, name)
    bad = _write(tmp_path / "answers.jsonl", [{"qid": "q2", "system": "gr\u200baph", "answer": "좋습니다."}])
    with pytest.raises(InputError, match="line 1"):
        ingest.import_answers(db, bad)
    with pytest.raises(InputError):
        ingest.import_answers(
            db, _write(tmp_path / "a2.jsonl", [{"qid": "q2", "answer": "좋습니다."}]), system="sys\u202e"
        )
