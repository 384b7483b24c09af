"""The lead's answer-review pages (issue 14) through AppTest, on the demo campaign:
review adjudication and review assignments."""

from __future__ import annotations

import pytest
from test_app_pages import _app, _db, _login, app_db  # noqa: F401  (app_db: the fixture)

from reljudge.review import measures as answer_metrics
from reljudge.review import adjudication as review_adjudication
from reljudge.review import assignment
from reljudge.review import decisions
from reljudge.review import events
from reljudge.review import queue as answer_queue
from reljudge.storage import answers as store


def _disagree(db):
    """annotator1 and annotator2 review the same demo answer and disagree on one
    support grade (2 vs 0) and on its interpretation (2 vs 1)."""
    answers, _, cites = store.current_answer_tables(db)
    cited = cites.merge(answers[~answers.abstained], on="answer_id")
    first = cited.iloc[0]
    a, s, pid = int(first.answer_id), int(first.idx), first.pid
    for user, grade, interp in (("annotator1", 2, 2), ("annotator2", 0, 1)):
        for c in cites[cites.answer_id == a].itertuples():
            g = grade if (c.idx, c.pid) == (s, pid) else 1
            events.review(db, user, a, "support", sentence=int(c.idx), pid=c.pid, grade=g)
        events.review(db, user, a, "interpretation", grade=interp)
    return a, s, pid


@pytest.mark.usefixtures("app_db")
def test_review_adjudication_page_rules_a_disagreement_and_the_measures_use_it():
    _app().run()
    db = _db()
    a, s, pid = _disagree(db)
    queue = review_adjudication.disagreements(db)
    assert [(r.kind, r.sentence, r.pid, r.grades) for r in queue.itertuples()] == [
        ("support", s, pid, (0, 2)),
        ("interpretation", None, None, (1, 2)),
    ]  # widest gap first
    # before the ruling: a tie goes to the lower grade
    assert list(queue.decided) == [0, 1]
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/review_adjudicate.py").run()
    assert not at.exception and not at.error
    assert at.title[0].value == "답변 검수 불일치 조정"
    assert "bm25" not in " ".join(t.value for t in at.text)  # blind: no system name
    at.radio[0].set_value(2)
    at.text_input[0].input("문단이 문장을 그대로 뒷받침함")
    at.button[0].click().run()
    assert not at.exception and not at.error
    assert "조정을 저장했습니다" in at.success[0].value
    decided = decisions.aggregated_reviews(db).set_index(["answer_id", "kind", "sentence", "pid"])
    row = decided.loc[(a, "support", s, pid)]
    assert row.value == 2 and row.provenance == "adjudicated"
    queue = review_adjudication.disagreements(db)
    assert queue.iloc[0].kind == "interpretation" and queue.iloc[-1].ruling == 2  # open items first
    table = next(d.value for d in at.dataframe if "grades" in d.value.columns)
    assert set(table.kind) == {"뒷받침 (문장 × 인용)", "해석 타당성"}  # in Korean
    per = answer_metrics.evaluate_answers(db, n_boot=0).per_answer
    assert a in set(per[per.measure == "support_precision"].answer_id)


@pytest.mark.usefixtures("app_db")
def test_review_adjudication_page_refuses_a_ruling_without_reason():
    _app().run()
    _disagree(_db())
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/review_adjudicate.py").run()
    at.radio[0].set_value(0)
    at.button[0].click().run()
    assert at.error and not review_adjudication.adjudication_history(_db()).shape[0]


@pytest.mark.usefixtures("app_db")
def test_review_assignment_page_gives_each_reviewer_their_questions():
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/review_assign.py").run()
    assert not at.exception and at.title[0].value == "답변 검수 배정"
    assert "검수 배정이 없습니다" in at.info[0].value
    at.slider[0].set_value(0.5)
    at.button[1].click().run()  # apply
    assert not at.exception and not at.error
    assert "검수를 배정했습니다" in at.success[0].value
    db = _db()
    rows = assignment.active_review_assignments(db)
    assert set(rows.username) == {"annotator1", "annotator2"}
    per_question = rows.groupby("qid").size()
    assert set(per_question) == {1, 2} and (per_question == 2).sum() >= 1  # overlap for agreement
    mine = set(rows[rows.username == "annotator1"].qid)
    assert set(answer_queue.review_queue(db, "annotator1").qid) == mine


@pytest.mark.usefixtures("app_db")
def test_dashboard_shows_the_answer_review_section():
    _app().run()
    _disagree(_db())
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/dashboard.py").run()
    assert not at.exception and not at.error
    assert "답변 검수" in [h.value for h in at.header]
    frames = {tuple(d.value.columns)[:3]: d.value for d in at.dataframe}
    measures = next(f for f in (d.value for d in at.dataframe) if "support_precision" in f.columns)
    assert set(measures.system) == {"bm25", "vector", "hybrid", "graphrag"}
    pairs = next(f for f in (d.value for d in at.dataframe) if "cohen_kappa_linear" in f.columns)
    assert set(pairs.pair) == {"annotator1|annotator2"} and frames


@pytest.mark.usefixtures("app_db")
def test_agreement_page_shows_the_reviewers_agreement():
    _app().run()
    _disagree(_db())
    at = _login(_app().run(), "lead", "demo-lead")
    at.switch_page("screens/agreement.py").run()
    assert not at.exception
    frames = [d.value for d in at.dataframe]
    figures = [f for f in frames if "percent_agreement" in f.columns]
    reviews = next(f for f in figures if set(f.rating) & {"뒷받침 (문장 × 인용)", "해석 타당성"})
    support = reviews[(reviews.scope == "전체") | (reviews.scope == "all")]
    assert len(support) and (support.percent_agreement <= 1).all()
    assert any("cohen_kappa_linear" in f.columns for f in frames)  # the pairs, weighted too
