"""Agreement coefficients: textbook cases, edge cases, and hundreds of random data
sets checked against the krippendorff package, statsmodels and scikit-learn."""

from __future__ import annotations

import json
import math
import warnings
from collections import Counter
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

from reljudge.codes import Message
from reljudge.agreement.coefficients import (
    UNTYPED,
    annotator_summary,
    cohen_kappa,
    compute_agreement,
    count_matrix,
    fleiss_kappa,
    grade_agreement,
    krippendorff_alpha,
    no_answer_agreement,
    pair_key,
    pairwise_matrix,
    percent_agreement,
)

NAN = np.nan


def strict_json(obj) -> dict:
    """Round-trip through JSON, failing on NaN/Infinity."""
    return json.loads(json.dumps(obj, allow_nan=False))


def long_grades(matrix, names, qids=None) -> pd.DataFrame:
    """items × annotators matrix of grades (NaN = not rated) → long frame."""
    rows = []
    for i, row in enumerate(np.asarray(matrix, dtype=float)):
        qid = qids[i] if qids is not None else f"q{i // 3}"
        for a, value in zip(names, row):
            if not np.isnan(value):
                rows.append((a, qid, f"p{i}", int(value)))
    return pd.DataFrame(rows, columns=["annotator", "qid", "pid", "grade"])


# ---------------------------------------------------------------- textbook cases


def test_cohen_two_by_two_by_hand():
    # Wikipedia "Cohen's kappa" example: 50 proposals, yes/yes 20, yes/no 5,
    # no/yes 10, no/no 15.  p_o = 35/50 = 0.7; p_e = 0.5·0.6 + 0.5·0.4 = 0.5;
    # κ = (0.7 − 0.5) / (1 − 0.5) = 0.4.
    a = np.array([1] * 25 + [0] * 25, dtype=float)
    b = np.array([1] * 20 + [0] * 5 + [1] * 10 + [0] * 15, dtype=float)
    fig = cohen_kappa(a, b, 2)
    assert fig.value == pytest.approx(0.4, abs=1e-12)
    assert fig.n == 50


def test_cohen_three_by_three_weighted_by_hand():
    # Confusion (rows A, columns B): [[4,1,0],[1,2,1],[0,1,0]], n = 10, marginals
    # A = B = (5, 4, 1).  Unweighted: p_o = 0.6, p_e = (25+16+1)/100 = 0.42,
    # κ = 0.18/0.58 = 9/29.  Linear: observed Σ|i−j|o = 4/10; expected
    # Σ|i−j| r_i c_j / n² = (1·(20+20) + 1·(4+4) + 2·(5+5))/100 = 0.68;
    # κ_w = 1 − 0.4/0.68 = 7/17.
    conf = [[4, 1, 0], [1, 2, 1], [0, 1, 0]]
    a, b = [], []
    for i in range(3):
        for j in range(3):
            a += [i] * conf[i][j]
            b += [j] * conf[i][j]
    assert cohen_kappa(a, b, 3).value == pytest.approx(9 / 29, abs=1e-12)
    assert cohen_kappa(a, b, 3, "linear").value == pytest.approx(7 / 17, abs=1e-12)


def test_fleiss_wikipedia_worked_example():
    # Wikipedia "Fleiss' kappa": 10 subjects, 14 raters, 5 categories;
    # P̄ = 0.378, P̄_e = 0.213, κ = 0.210.
    table = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    fig = fleiss_kappa(table)
    assert fig.value == pytest.approx(0.210, abs=5e-4)
    assert (fig.n, fig.raters) == (10, 14)
    # P̄ alone is the percent agreement on these items.
    assert percent_agreement(table).value == pytest.approx(0.378, abs=5e-4)


def test_krippendorff_2011_four_coders_missing_data():
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C:
    # 4 observers, 12 units, values 1..5, missing data; α_nominal = 0.743,
    # α_ordinal = 0.815.  Unit 12 has a single value and is not pairable.
    data = np.array(
        [
            [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
            [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
        ]
    )
    counts = count_matrix((data - 1).T, 5)
    nominal = krippendorff_alpha(counts, "nominal")
    ordinal = krippendorff_alpha(counts, "ordinal")
    assert round(nominal.value, 3) == 0.743
    assert round(ordinal.value, 3) == 0.815
    assert nominal.n == ordinal.n == 11


def test_percent_agreement_by_hand():
    # item 1: (2, 2, 0) → 1 agreeing pair of 3; item 2: (1, 1) → 1; item 3 has one
    # rating and is left out.  Mean = (1/3 + 1) / 2 = 2/3.
    codes = [[2, 2, 0], [1, 1, NAN], [0, NAN, NAN]]
    fig = percent_agreement(count_matrix(codes, 3))
    assert fig.value == pytest.approx(2 / 3)
    assert fig.n == 2


def test_fleiss_rater_count_choice():
    # rater counts 2, 2, 3, 3: a tie, the larger count (3) is used.
    counts = [[2, 0, 0], [1, 1, 0], [3, 0, 0], [0, 1, 2]]
    fig = fleiss_kappa(counts)
    assert (fig.raters, fig.n) == (3, 2)
    # rater counts 2, 2, 2, 3, 1: 2 is the most common; the single rating is never eligible.
    counts = [[2, 0, 0], [1, 1, 0], [0, 0, 2], [0, 1, 2], [1, 0, 0]]
    fig = fleiss_kappa(counts)
    assert (fig.raters, fig.n) == (2, 3)


def test_complete_disagreement_is_negative():
    fig = cohen_kappa([0, 1], [1, 0], 2)
    assert fig.value == pytest.approx(-1.0)


# ---------------------------------------------------------------- edge cases


def test_perfect_agreement():
    matrix = [[0, 0, 0], [1, 1, 1], [2, 2, 2], [2, 2, NAN], [0, NAN, 0]]
    res = grade_agreement(long_grades(matrix, ["A", "B", "C"]))
    assert res.percent_agreement == 1.0
    assert all(v == pytest.approx(1.0) for v in res.cohen_kappa.values())
    assert all(v == pytest.approx(1.0) for v in res.cohen_kappa_linear.values())
    assert res.fleiss_kappa == pytest.approx(1.0)
    assert res.krippendorff_alpha_nominal == pytest.approx(1.0)
    assert res.krippendorff_alpha_ordinal == pytest.approx(1.0)
    assert res.reasons == {}
    assert (res.n_items, res.n_items_total, res.n_ratings) == (5, 5, 13)


def test_single_category_gives_none_with_reasons():
    matrix = [[2, 2], [2, 2], [2, NAN]]
    res = grade_agreement(long_grades(matrix, ["A", "B"]))
    assert res.percent_agreement == 1.0
    assert res.cohen_kappa == {"A|B": None}
    assert res.cohen_n == {"A|B": 2}
    assert res.fleiss_kappa is None and res.fleiss_n == 2
    assert res.krippendorff_alpha_nominal is None and res.krippendorff_alpha_ordinal is None
    for key in ("cohen_kappa[A|B]", "cohen_kappa_linear[A|B]"):
        assert res.reasons[key] == Message("reason_cohen_one_category", (("items", 2),))
    assert res.reasons["fleiss_kappa"] == Message("reason_fleiss_one_category", (("items", 2), ("raters", 2)))
    for key in ("krippendorff_alpha_nominal", "krippendorff_alpha_ordinal"):
        assert res.reasons[key].code == "reason_alpha_one_category"
    d = strict_json(res.to_dict())
    assert d["reasons"]["fleiss_kappa"] == {"code": "reason_fleiss_one_category", "items": 2, "raters": 2}
    assert d["cohen_kappa"] == {"A|B": None} and d["fleiss_kappa"] is None


def test_no_overlap():
    matrix = [[0, NAN], [1, NAN], [NAN, 2], [NAN, 1]]
    res = grade_agreement(long_grades(matrix, ["A", "B"]))
    assert res.n_items == 0 and res.n_items_total == 4
    for name in ("percent_agreement", "fleiss_kappa", "krippendorff_alpha_nominal", "krippendorff_alpha_ordinal"):
        assert getattr(res, name) is None
        assert res.reasons[name].code == "reason_no_pairable_items"
    assert res.cohen_kappa == {"A|B": None}
    assert res.reasons["cohen_kappa[A|B]"].code == "reason_no_common_items"
    assert strict_json(res.to_dict())["n"]["cohen_kappa"] == {"A|B": 0}


def test_one_annotator():
    res = grade_agreement(long_grades([[0], [1], [2]], ["solo"]))
    assert res.annotators == ["solo"]
    assert res.cohen_kappa == {} and res.cohen_kappa_linear == {}
    for name in (
        "percent_agreement",
        "cohen_kappa",
        "cohen_kappa_linear",
        "fleiss_kappa",
        "krippendorff_alpha_nominal",
        "krippendorff_alpha_ordinal",
    ):
        assert res.reasons[name].code == "reason_fewer_annotators"
    strict_json(res.to_dict())


def test_duplicate_and_invalid_ratings():
    same = pd.DataFrame(
        [("A", "q", "p", 2), ("A", "q", "p", 2), ("B", "q", "p", 2)], columns=["annotator", "qid", "pid", "grade"]
    )
    assert grade_agreement(same).n_ratings == 2
    clash = same.copy()
    clash.loc[1, "grade"] = 0
    with pytest.raises(ValueError, match="more than once"):
        grade_agreement(clash)
    bad = same.copy()
    bad.loc[0, "grade"] = 3
    with pytest.raises(ValueError, match="not one of"):
        grade_agreement(bad)
    with pytest.raises(ValueError, match="missing columns: grade"):
        grade_agreement(same.drop(columns="grade"))


def test_pair_keys_sorted_and_pairwise_matrix():
    matrix = [[0, 0, 1], [1, 1, 1], [2, 2, 0], [2, 1, 2], [0, 0, NAN]]
    names = ["zoe", "a|b", "김"]
    res = grade_agreement(long_grades(matrix, names))
    assert set(res.cohen_kappa) == {pair_key(a, b) for a, b in combinations(names, 2)}
    assert set(res.cohen_kappa) == {"a|b|zoe", "a|b|김", "zoe|김"}
    assert pair_key("김", "zoe") == pair_key("zoe", "김") == "zoe|김"
    mat = pairwise_matrix(res)
    assert list(mat.index) == list(mat.columns) == sorted(names)
    assert np.isnan(np.diag(mat.to_numpy())).all()
    assert mat.equals(mat.T)
    for a, b in combinations(names, 2):
        assert mat.loc[a, b] == pytest.approx(res.cohen_kappa[pair_key(a, b)])
        assert pairwise_matrix(res, "linear").loc[b, a] == pytest.approx(res.cohen_kappa_linear[pair_key(a, b)])


def test_pairwise_matrix_leaves_undefined_pairs_empty():
    matrix = [[0, 1, NAN], [1, 1, NAN], [NAN, NAN, 2]]
    res = grade_agreement(long_grades(matrix, ["A", "B", "C"]))
    mat = pairwise_matrix(res)
    assert np.isnan(mat.loc["A", "C"]) and np.isnan(mat.loc["C", "B"])
    assert mat.loc["A", "B"] == pytest.approx(res.cohen_kappa["A|B"])


def test_no_answer_verdicts_and_per_type_breakdown():
    grades = long_grades(
        [[2, 2], [0, 1], [1, 1], [2, 0], [0, 0], [1, 2]], ["A", "B"], qids=["q1", "q1", "q2", "q2", "q3", "q3"]
    )
    verdicts = pd.DataFrame(
        [
            ("A", "q1", False),
            ("B", "q1", False),
            ("A", "q2", True),
            ("B", "q2", False),
            ("A", "q3", True),
            ("B", "q3", True),
            ("A", "q4", 0),
            ("B", "q4", 0),
        ],
        columns=["annotator", "qid", "no_answer"],
    )
    types = {"q1": "사실", "q2": "사실", "q3": "why"}
    report = compute_agreement(grades, verdicts, types)
    assert set(report.by_type) == {"사실", "why", UNTYPED}
    g, v = report.by_type["사실"]
    assert g.n_items == 4 and v.n_items == 2
    # 사실 grades: A = 2,0,1,2  B = 2,1,1,0 → 2 of 4 agree.
    assert g.percent_agreement == pytest.approx(0.5)
    assert report.by_type[UNTYPED][0] is None and report.by_type[UNTYPED][1].n_items == 1
    # Verdicts overall: agree on q1, q3, q4; disagree on q2.
    assert report.no_answer.percent_agreement == pytest.approx(0.75)
    assert report.no_answer.cohen_kappa_linear == {}
    assert report.no_answer.krippendorff_alpha_ordinal is None
    assert report.no_answer.reasons["krippendorff_alpha_ordinal"].code == "reason_unordered_alpha"
    assert report.no_answer.reasons["cohen_kappa_linear"].code == "reason_unordered_kappa"
    d = strict_json(report.to_dict())
    assert d["no_answer"]["n_items"] == 4
    assert d["by_type"][UNTYPED]["no_answer"]["n_items"] == 1
    assert d["by_type"]["why"]["percent_agreement"] == pytest.approx(0.5)
    assert d["by_type"][UNTYPED]["reasons"]["grades"] == {"code": "reason_no_type_grades"}


def test_annotator_summary():
    grades = pd.DataFrame(
        [("A", "q1", "p1", 2), ("A", "q1", "p2", 0), ("A", "q2", "p3", 0), ("A", "q2", "p4", 1), ("B", "q1", "p1", 2)],
        columns=["annotator", "qid", "pid", "grade"],
    )
    verdicts = pd.DataFrame(
        [("A", "q1", True), ("A", "q2", False), ("C", "q1", True)], columns=["annotator", "qid", "no_answer"]
    )
    s = annotator_summary(grades, verdicts)
    assert list(s.index) == ["A", "B", "C"]
    assert s.loc["A", "n_judgments"] == 4 and s.loc["A", "n_questions"] == 2
    assert s.loc["A", ["share_0", "share_1", "share_2"]].tolist() == [0.5, 0.25, 0.25]
    assert s.loc["B", "share_2"] == 1.0 and s.loc["B", "n_verdicts"] == 0
    assert np.isnan(s.loc["B", "no_answer_rate"])
    assert s.loc["A", "no_answer_rate"] == 0.5 and s.loc["C", "no_answer_rate"] == 1.0
    assert s.loc["C", "n_judgments"] == 0
    assert "no_answer_rate" not in annotator_summary(grades).columns


# ---------------------------------------------------------------- random data vs references


def random_matrix(rng: np.random.Generator, k: int) -> np.ndarray:
    """items × annotators codes with missing values; agreement anywhere from none to high."""
    n_raters = int(rng.integers(2, 7))
    n_items = int(rng.integers(1, 61))
    truth = rng.choice(k, size=n_items, p=rng.dirichlet(np.ones(k)))
    noise = rng.uniform(0, 1)
    codes = np.where(
        rng.random((n_items, n_raters)) < noise, rng.integers(0, k, (n_items, n_raters)), truth[:, None]
    ).astype(float)
    codes[rng.random((n_items, n_raters)) < rng.uniform(0, 0.7)] = NAN
    return codes


def ref_percent(codes: np.ndarray) -> float | None:
    shares = []
    for row in codes:
        vals = row[~np.isnan(row)]
        if len(vals) >= 2:
            pairs = list(combinations(vals, 2))
            shares.append(sum(x == y for x, y in pairs) / len(pairs))
    return float(np.mean(shares)) if shares else None


def ref_fleiss(codes: np.ndarray, k: int) -> tuple[float | None, int | None, int]:
    m = (~np.isnan(codes)).sum(axis=1)
    freq = Counter(int(x) for x in m if x >= 2)
    if not freq:
        return None, None, 0
    top = max(freq.values())
    chosen = max(c for c, f in freq.items() if f == top)
    rows = np.array([r[~np.isnan(r)] for r in codes[m == chosen]])
    table, _ = aggregate_raters(rows.astype(int), n_cat=k)
    with np.errstate(invalid="ignore", divide="ignore"):  # nan when P̄_e = 1
        value = sm_fleiss_kappa(table, method="fleiss")
    return (None if not np.isfinite(value) else float(value)), chosen, len(rows)


def ref_alpha(codes: np.ndarray, k: int, level: str) -> float | None:
    try:
        with np.errstate(invalid="ignore", divide="ignore"):
            value = krippendorff.alpha(
                reliability_data=codes.T, level_of_measurement=level, value_domain=list(range(k))
            )
    except ValueError:  # e.g. "There has to be more than one value in the domain."
        return None
    return float(value) if np.isfinite(value) else None


def ref_cohen(a: np.ndarray, b: np.ndarray, k: int, weights) -> float | None:
    both = ~np.isnan(a) & ~np.isnan(b)
    if not both.any():
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = cohen_kappa_score(a[both].astype(int), b[both].astype(int), labels=list(range(k)), weights=weights)
    return float(value) if np.isfinite(value) else None


def assert_close(ours, ref, what):
    if ref is None:
        assert ours is None, f"{what}: expected None, got {ours}"
    else:
        assert ours is not None, f"{what}: expected {ref}, got None"
        assert math.isclose(ours, ref, rel_tol=1e-9, abs_tol=1e-9), f"{what}: {ours} != {ref}"


@pytest.mark.parametrize("seed", range(4))
def test_grades_match_references_on_random_data(seed):
    rng = np.random.default_rng(1000 + seed)
    for trial in range(150):
        codes = random_matrix(rng, 3)
        names = [f"ann{j}" for j in rng.permutation(codes.shape[1])]
        res = grade_agreement(long_grades(codes, names))
        what = f"seed {seed} trial {trial}"
        # Items nobody rated vanish in the long frame: compare on the rated ones.
        rated = codes[(~np.isnan(codes)).any(axis=1)]
        raters = [j for j in range(codes.shape[1]) if (~np.isnan(codes[:, j])).any()]
        assert res.n_items_total == len(rated)
        assert res.n_items == int(((~np.isnan(rated)).sum(axis=1) >= 2).sum())
        assert_close(res.percent_agreement, ref_percent(rated), f"{what} percent")
        fk, m, n = ref_fleiss(rated, 3)
        assert_close(res.fleiss_kappa, fk, f"{what} fleiss")
        assert (res.fleiss_raters, res.fleiss_n) == (m, n)
        for level in ("nominal", "ordinal"):
            assert_close(
                getattr(res, f"krippendorff_alpha_{level}"), ref_alpha(rated, 3, level), f"{what} alpha {level}"
            )
        assert len(res.cohen_kappa) == len(raters) * (len(raters) - 1) // 2
        for i, j in combinations(raters, 2):
            key = pair_key(names[i], names[j])
            assert_close(res.cohen_kappa[key], ref_cohen(codes[:, i], codes[:, j], 3, None), f"{what} cohen {key}")
            assert_close(
                res.cohen_kappa_linear[key],
                ref_cohen(codes[:, i], codes[:, j], 3, "linear"),
                f"{what} cohen linear {key}",
            )
            assert res.cohen_n[key] == int((~np.isnan(codes[:, i]) & ~np.isnan(codes[:, j])).sum())
        strict_json(res.to_dict())


def test_verdicts_match_references_on_random_data():
    rng = np.random.default_rng(7)
    for trial in range(200):
        codes = random_matrix(rng, 2)
        names = [f"r{j}" for j in range(codes.shape[1])]
        rows = [(names[j], f"q{i}", bool(codes[i, j])) for i, j in zip(*np.nonzero(~np.isnan(codes)))]
        if not rows:
            continue
        res = no_answer_agreement(pd.DataFrame(rows, columns=["annotator", "qid", "no_answer"]))
        rated = codes[(~np.isnan(codes)).any(axis=1)]
        what = f"verdict trial {trial}"
        assert_close(res.percent_agreement, ref_percent(rated), f"{what} percent")
        assert_close(res.fleiss_kappa, ref_fleiss(rated, 2)[0], f"{what} fleiss")
        assert_close(res.krippendorff_alpha_nominal, ref_alpha(rated, 2, "nominal"), f"{what} alpha")
        raters = sorted({r[0] for r in rows})
        for a, b in combinations(raters, 2):
            i, j = names.index(a), names.index(b)
            assert_close(res.cohen_kappa[pair_key(a, b)], ref_cohen(codes[:, i], codes[:, j], 2, None), f"{what} cohen")


def test_core_functions_match_references_with_more_categories():
    # The 2011 example uses 5 categories: check the generic code paths on k = 2..6.
    rng = np.random.default_rng(11)
    for trial in range(300):
        k = int(rng.integers(2, 7))
        codes = random_matrix(rng, k)
        counts = count_matrix(codes, k)
        for level in ("nominal", "ordinal"):
            assert_close(
                krippendorff_alpha(counts, level).value,
                ref_alpha(codes, k, level),
                f"k={k} trial {trial} alpha {level}",
            )
        assert_close(fleiss_kappa(counts).value, ref_fleiss(codes, k)[0], f"k={k} fleiss")
        a, b = codes[:, 0], codes[:, 1]
        for weights in (None, "linear"):
            assert_close(
                cohen_kappa(a, b, k, weights).value, ref_cohen(a, b, k, weights), f"k={k} trial {trial} cohen {weights}"
            )


def test_no_grades_at_all():
    empty = pd.DataFrame(columns=["annotator", "qid", "pid", "grade"])
    verdicts = pd.DataFrame([("A", "q", True), ("B", "q", True)], columns=["annotator", "qid", "no_answer"])
    report = compute_agreement(empty, verdicts, {"q": "t"})
    assert report.grades.n_items_total == 0 and report.grades.percent_agreement is None
    assert report.no_answer.percent_agreement == 1.0
    assert report.no_answer.cohen_kappa == {"A|B": None}
    d = strict_json(report.to_dict())
    assert d["reasons"]["percent_agreement"] == {"code": "reason_fewer_annotators"}
    assert d["by_type"]["t"]["no_answer"]["n_items"] == 1


def test_reasons_are_shown_in_korean_on_the_pages_and_report():
    """Every reason the library gives (a code, English for the CLI and JSON) reads in
    Korean on the pages and the report: a Korean lead must never read 'fewer than two
    annotators'."""
    import re
    from reljudge.agreement.coefficients import figures_table
    from reljudge.i18n import localized_values

    cases = [
        compute_agreement(
            long_grades([[0], [1], [2]], ["solo"]),
            pd.DataFrame({"annotator": ["solo"], "qid": ["q0"], "no_answer": [True]}),
        ),
        compute_agreement(
            long_grades([[2, 2], [2, 2], [2, NAN]], ["A", "B"]),
            pd.DataFrame({"annotator": ["A", "B"], "qid": ["q0", "q0"], "no_answer": [True, True]}),
        ),
        compute_agreement(
            long_grades([[0, NAN], [1, NAN], [NAN, 2]], ["A", "B"]),
            pd.DataFrame({"annotator": ["A", "B", "C"], "qid": ["q0", "q0", "q0"], "no_answer": [True, False, True]}),
            {"q0": "사실", "q1": "정의"},
        ),
    ]
    seen = set()
    for report in cases:
        for lang in ("ko", "en"):
            table = localized_values(figures_table(report), lang)
            text = " ".join(table.not_computed)
            if lang == "en":
                assert "annotators" in text or "category" in text
                continue
            words = set(re.findall(r"[A-Za-z]{3,}", text)) - {"Cohen", "Fleiss", "Krippendorff", "kappa", "alpha"}
            assert not words, (words, text)
            seen |= {r for r in table.not_computed if r}
    assert len(seen) >= 3
    ko = localized_values(figures_table(cases[1]), "ko")
    assert ko.scope[0] == "전체" and ko.rating[0] == "문단 판정"
    assert "Fleiss κ: 판정자 2명이 본 항목 2개의 판정이 모두 한 범주여서" in ko.not_computed[0]
    en = localized_values(figures_table(cases[1]), "en")
    assert "fleiss_kappa: all ratings on the 2 items with 2 raters fall in one category" in en.not_computed[0]
