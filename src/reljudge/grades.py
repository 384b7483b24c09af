"""The grade scale: the one definition every parser, aggregation, agreement figure, bound
and screen reads (docs/annotator-guide.md#판정-화면--judging).

0 = not relevant, 1 = related but not citable on its own, 2 = directly citable evidence.
The database's CHECK constraints (shipped migrations, never edited) hold the same scale;
tests/test_grade_scale.py checks that they accept exactly these grades.
"""

from __future__ import annotations

from numbers import Integral

#: every grade a judgment can carry, lowest first
GRADES: tuple[int, ...] = (0, 1, 2)

#: the highest grade: directly citable evidence (an open paragraph's best case, reljudge.eval.bounds)
TOP_GRADE: int = max(GRADES)


def is_grade(value) -> bool:
    """Whether ``value`` is a grade of the scale (a bool is not, though Python counts it as 0/1)."""
    return not isinstance(value, bool) and isinstance(value, Integral) and int(value) in GRADES
