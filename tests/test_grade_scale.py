"""One grade scale (reljudge.grades): the database's CHECK constraints, the event parser,
adjudication and agreement all hold exactly its grades."""

from __future__ import annotations

import pytest

from reljudge import grades
from reljudge.campaign import adjudication
from reljudge.agreement import coefficients as agreement
from reljudge.campaign import event_fields
from reljudge.errors import ReljudgeError


def _insert(db, grade, n):
    db.cursor().execute(
        "INSERT INTO judgment_events (client_event_id, username, qid, pid, grade) VALUES (?, 'ann', 'q1', 'p1', ?)",
        [f"scale-{n}", grade],
    )


def test_the_databases_constraint_holds_exactly_the_scale(db):
    for n, g in enumerate(grades.GRADES):
        _insert(db, g, n)
    for n, g in enumerate((min(grades.GRADES) - 1, grades.TOP_GRADE + 1)):
        with pytest.raises(Exception, match="(?i)constraint|check"):
            _insert(db, g, 100 + n)


def test_every_consumer_reads_the_one_scale():
    assert agreement.GRADES is grades.GRADES
    # an event's grade is read by the scale's own check: exactly the scale, as JSON integers
    for value in (-1, 0, 1, 2, 3, True, 2.0, "2"):
        try:
            taken = event_fields.grade({"grade": value}) is not None
        except ReljudgeError:
            taken = False
        assert taken == grades.is_grade(value), value
    assert [g for g in range(-2, 6) if grades.is_grade(g)] == list(grades.GRADES)
    assert not grades.is_grade(True) and not grades.is_grade(2.0)


def test_adjudication_refuses_a_grade_off_the_scale(campaign_db):
    with pytest.raises(ReljudgeError):
        adjudication.adjudicate(campaign_db, "lee", "q1", "p01", grades.TOP_GRADE + 1, "이유")
