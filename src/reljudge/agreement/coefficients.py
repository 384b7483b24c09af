"""Inter-annotator agreement on paragraph grades and on the no-answer verdict.

Every coefficient is written here over numpy/pandas (no per-item Python loops),
so the library does not depend on the packages the tests use as references
(krippendorff, statsmodels, scikit-learn).

Data model
----------
An *item* is what several annotators may rate: a (qid, pid) pair for paragraph
grades, a qid for the question-level no-answer verdict.  Ratings are turned into
a *code matrix* (items × annotators, float, ``NaN`` = not rated, otherwise the
index of the category in the ordered category list) and from there into a
*count matrix* (items × categories: how many annotators put the item in each
category).

A figure that cannot be computed (no overlapping items, a single category so the
expected disagreement is 0, fewer than two annotators...) is ``None`` and its
reason is stored in a parallel ``reasons`` dict, as a code with parameters
(:data:`CODES`; the words are in :mod:`reljudge.i18n`): no ``NaN`` ever reaches JSON.

Definitions and sources
-----------------------
* Percent agreement: for an item with m ≥ 2 ratings, the share of agreeing
  rater pairs, P_i = Σ_c n_ic (n_ic − 1) / (m (m − 1)); the figure is the mean of
  P_i over the items rated at least twice (each item weighs the same; with two
  annotators this is simply the share of items given the same category).
* Cohen's kappa (Cohen 1960; weighted: Cohen 1968), per annotator pair on the
  items both rated: κ = 1 − Σ w_ij o_ij / Σ w_ij e_ij, with o the observed
  proportions, e_ij = o_i· o_·j, and w_ij = [i ≠ j] (unweighted) or |i − j|
  (linear, over category ranks — as scikit-learn's ``weights="linear"``).
* Fleiss' kappa (Fleiss 1971) over the items that have exactly m ratings, m the
  most common rater count ≥ 2 (ties go to the larger m):
  κ = (P̄ − P̄_e) / (1 − P̄_e), P̄ = mean of P_i above, P̄_e = Σ_j p_j²,
  p_j = share of all those ratings in category j.
* Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's
  Alpha-Reliability", Annenberg School for Communication): units with ≥ 2
  values are pairable; coincidences o_ck = Σ_u n_uc (n_uk − [c = k]) / (m_u − 1);
  n_c = Σ_k o_ck, n = Σ_c n_c; α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck.
  Nominal δ²_ck = [c ≠ k]; ordinal δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)².
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterable, Mapping, NamedTuple, Sequence

import numpy as np
import pandas as pd

from reljudge import grades
from reljudge.codes import Codes, Message

CODES = Codes(
    reason_no_pairable_items=(),
    reason_fleiss_one_category=("items", "raters"),
    reason_alpha_one_category=(),
    reason_no_common_items=(),
    reason_cohen_one_category=("items",),
    reason_fewer_annotators=(),
    reason_unordered_kappa=(),
    reason_unordered_alpha=(),
    reason_no_type_grades=(),
    reason_no_verdicts=(),
)
"""Why a figure is not computed: every code this module returns, with its parameters."""

NOT_APPLICABLE = frozenset({"reason_unordered_kappa", "reason_unordered_alpha"})
"""Reasons that say a figure does not apply (rather than that the data fall short)."""

GRADES = grades.GRADES
"""Paragraph grades (reljudge.grades): 0 not relevant, 1 related, 2 directly citable evidence."""

VERDICTS: tuple[bool, ...] = (False, True)
"""No-answer verdict categories (False = the results hold an answer)."""

UNTYPED = "(untyped)"
"""Question-type key for questions missing from the question-type mapping."""


class Figure(NamedTuple):
    """One agreement coefficient: value (None if undefined), items it rests on, why None."""

    value: float | None
    n: int
    reason: Message | None = None
    raters: int | None = None  # Fleiss only: the rater count m the figure uses


def pair_key(a: str, b: str) -> str:
    """Key of an annotator pair: the two names sorted, joined by '|'."""
    first, second = sorted((str(a), str(b)))
    return f"{first}|{second}"


# --------------------------------------------------------------------------
# Coefficients on count / code matrices
# --------------------------------------------------------------------------


def count_matrix(codes: np.ndarray, k: int) -> np.ndarray:
    """Items × categories counts from an items × raters code matrix (NaN = missing)."""
    codes = np.asarray(codes, dtype=float)
    if codes.ndim != 2:
        raise ValueError("codes must be a 2-D items × raters array")
    return np.stack([(codes == c).sum(axis=1) for c in range(k)], axis=1).astype(np.int64)


def _as_counts(counts) -> np.ndarray:
    counts = np.asarray(counts, dtype=np.int64)
    if counts.ndim != 2:
        raise ValueError("counts must be a 2-D items × categories array")
    if (counts < 0).any():
        raise ValueError("counts must be non-negative")
    return counts


def percent_agreement(counts) -> Figure:
    """Mean over items rated ≥ 2 times of the share of agreeing rater pairs.

    P_i = Σ_c n_ic (n_ic − 1) / (m_i (m_i − 1)); figure = mean_i P_i.
    """
    counts = _as_counts(counts)
    m = counts.sum(axis=1)
    keep = m >= 2
    n = int(keep.sum())
    if n == 0:
        return Figure(None, 0, CODES("reason_no_pairable_items"))
    c, m = counts[keep], m[keep]
    per_item = (c * (c - 1)).sum(axis=1) / (m * (m - 1))
    return Figure(float(per_item.mean()), n)


def fleiss_kappa(counts) -> Figure:
    """Fleiss' kappa (Fleiss 1971) on the items with the most common rater count m ≥ 2.

    κ = (P̄ − P̄_e) / (1 − P̄_e); P_i = (Σ_j n_ij² − m) / (m (m − 1)),
    P̄ = mean_i P_i, p_j = Σ_i n_ij / (N m), P̄_e = Σ_j p_j².
    Ties between rater counts go to the larger m.  ``Figure.raters`` is m.
    """
    counts = _as_counts(counts)
    m_all = counts.sum(axis=1)
    eligible = m_all[m_all >= 2]
    if eligible.size == 0:
        return Figure(None, 0, CODES("reason_no_pairable_items"))
    values, freq = np.unique(eligible, return_counts=True)
    best = freq == freq.max()
    m = int(values[best].max())
    c = counts[m_all == m].astype(float)
    n = c.shape[0]
    p_i = ((c * c).sum(axis=1) - m) / (m * (m - 1))
    p_j = c.sum(axis=0) / (n * m)
    p_e = float((p_j * p_j).sum())
    if 1.0 - p_e <= 1e-12:
        return Figure(None, n, CODES("reason_fleiss_one_category", items=n, raters=m), m)
    return Figure(float((p_i.mean() - p_e) / (1.0 - p_e)), n, None, m)


def _ordinal_delta2(n_c: np.ndarray) -> np.ndarray:
    """Krippendorff's ordinal δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)² over category ranks."""
    cs = np.cumsum(n_c)
    lo = np.minimum.outer(np.arange(n_c.size), np.arange(n_c.size))
    hi = np.maximum.outer(np.arange(n_c.size), np.arange(n_c.size))
    between = cs[hi] - cs[lo] + n_c[lo]  # Σ_{g=lo..hi} n_g
    return (between - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2


def krippendorff_alpha(counts, level: str = "nominal") -> Figure:
    """Krippendorff's alpha (Krippendorff 2011), nominal or ordinal, missing values allowed.

    Units with fewer than two values are not pairable and are left out.
    α = 1 − (n − 1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck, see the module docstring.
    """
    if level not in ("nominal", "ordinal"):
        raise ValueError(f"unknown level of measurement {level!r}")
    counts = _as_counts(counts)
    m = counts.sum(axis=1)
    keep = m >= 2
    units = int(keep.sum())
    if units == 0:
        return Figure(None, 0, CODES("reason_no_pairable_items"))
    c = counts[keep].astype(float)
    scaled = c / (m[keep] - 1)[:, None]
    o = scaled.T @ c - np.diag(scaled.sum(axis=0))
    n_c = o.sum(axis=1)
    n = n_c.sum()
    k = c.shape[1]
    if level == "nominal":
        d2 = 1.0 - np.eye(k)
    else:
        d2 = _ordinal_delta2(n_c)
    expected = float((np.outer(n_c, n_c) * d2).sum())
    if expected <= 1e-12:
        return Figure(None, units, CODES("reason_alpha_one_category"))
    observed = float((o * d2).sum())
    return Figure(float(1.0 - (n - 1.0) * observed / expected), units)


def cohen_kappa(a, b, k: int, weights: str | None = None) -> Figure:
    """Cohen's kappa (Cohen 1960; weighted, Cohen 1968) of two raters on items both rated.

    ``a`` and ``b`` are category indices 0..k−1 with NaN for "not rated".
    κ = 1 − Σ w_ij o_ij / Σ w_ij e_ij; w = [i ≠ j] or |i − j| (``weights="linear"``).
    """
    if weights not in (None, "linear"):
        raise ValueError(f"unknown weights {weights!r}")
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    both = ~np.isnan(a) & ~np.isnan(b)
    n = int(both.sum())
    if n == 0:
        return Figure(None, 0, CODES("reason_no_common_items"))
    ai = a[both].astype(np.int64)
    bi = b[both].astype(np.int64)
    conf = np.bincount(ai * k + bi, minlength=k * k).reshape(k, k) / n
    expected = np.outer(conf.sum(axis=1), conf.sum(axis=0))
    idx = np.arange(k)
    if weights is None:
        w = (idx[:, None] != idx[None, :]).astype(float)
    else:
        w = np.abs(idx[:, None] - idx[None, :]).astype(float)
    e = float((w * expected).sum())
    if e <= 1e-12:
        return Figure(None, n, CODES("reason_cohen_one_category", items=n))
    return Figure(1.0 - float((w * conf).sum()) / e, n)


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------


def _clean(value: float | None) -> float | None:
    if value is None or not np.isfinite(value):
        return None
    return float(value)


@dataclass
class AgreementResult:
    """All agreement figures on one kind of rating (grades or verdicts) and one item set."""

    annotators: list[str]
    n_items: int  # items rated by two or more annotators
    n_items_total: int
    n_ratings: int
    percent_agreement: float | None
    percent_agreement_n: int
    cohen_kappa: dict[str, float | None]
    cohen_kappa_linear: dict[str, float | None]
    cohen_n: dict[str, int]
    fleiss_kappa: float | None
    fleiss_raters: int | None
    fleiss_n: int
    krippendorff_alpha_nominal: float | None
    krippendorff_alpha_ordinal: float | None
    krippendorff_n: int
    reasons: dict[str, Message] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready dict: figures, item counts per figure ("n") and reasons for nulls
        (``{"code": ..., **params}``)."""
        return {
            "annotators": list(self.annotators),
            "n_items": self.n_items,
            "n_items_total": self.n_items_total,
            "n_ratings": self.n_ratings,
            "percent_agreement": _clean(self.percent_agreement),
            "cohen_kappa": {k: _clean(v) for k, v in self.cohen_kappa.items()},
            "cohen_kappa_linear": {k: _clean(v) for k, v in self.cohen_kappa_linear.items()},
            "fleiss_kappa": _clean(self.fleiss_kappa),
            "fleiss_raters": self.fleiss_raters,
            "krippendorff_alpha_nominal": _clean(self.krippendorff_alpha_nominal),
            "krippendorff_alpha_ordinal": _clean(self.krippendorff_alpha_ordinal),
            "n": {
                "percent_agreement": self.percent_agreement_n,
                "cohen_kappa": dict(self.cohen_n),
                "fleiss_kappa": self.fleiss_n,
                "krippendorff_alpha": self.krippendorff_n,
            },
            "reasons": {k: v.to_dict() for k, v in self.reasons.items()},
        }


def agreement_from_codes(codes: np.ndarray, annotators: Sequence[str], k: int, ordinal: bool = True) -> AgreementResult:
    """Every figure from an items × annotators code matrix (category indices, NaN missing).

    ``ordinal=False`` (binary or unordered categories) leaves the linear-weighted
    kappa and ordinal alpha out, with a reason.
    """
    codes = np.asarray(codes, dtype=float)
    annotators = [str(a) for a in annotators]
    if codes.ndim != 2 or codes.shape[1] != len(annotators):
        raise ValueError("codes must be items × annotators")
    counts = count_matrix(codes, k)
    m = counts.sum(axis=1)
    reasons: dict[str, Message] = {}
    pairs = list(combinations(sorted(annotators), 2))
    index = {name: i for i, name in enumerate(annotators)}

    def take(name: str, fig: Figure | None) -> float | None:
        if fig is not None and fig.reason:
            reasons[name] = fig.reason
        return None if fig is None else fig.value

    if len(annotators) < 2:
        # "No item rated twice" would be true too, but this says why.
        few = Figure(None, 0, CODES("reason_fewer_annotators"))
        pa = fk = ka_nom = few
        ka_ord = few if ordinal else None
        reasons["cohen_kappa"] = few.reason
    else:
        pa = percent_agreement(counts)
        fk = fleiss_kappa(counts)
        ka_nom = krippendorff_alpha(counts, "nominal")
        ka_ord = krippendorff_alpha(counts, "ordinal") if ordinal else None
    if ordinal and len(annotators) < 2:
        reasons["cohen_kappa_linear"] = CODES("reason_fewer_annotators")

    cohen: dict[str, float | None] = {}
    cohen_lin: dict[str, float | None] = {}
    cohen_n: dict[str, int] = {}
    for a, b in pairs:
        key = pair_key(a, b)
        col_a, col_b = codes[:, index[a]], codes[:, index[b]]
        unw = cohen_kappa(col_a, col_b, k)
        cohen[key] = take(f"cohen_kappa[{key}]", unw)
        cohen_n[key] = unw.n
        if ordinal:
            cohen_lin[key] = take(f"cohen_kappa_linear[{key}]", cohen_kappa(col_a, col_b, k, "linear"))

    result = AgreementResult(
        annotators=sorted(annotators),
        n_items=int((m >= 2).sum()),
        n_items_total=int(codes.shape[0]),
        n_ratings=int(m.sum()),
        percent_agreement=take("percent_agreement", pa),
        percent_agreement_n=pa.n,
        cohen_kappa=cohen,
        cohen_kappa_linear=cohen_lin,
        cohen_n=cohen_n,
        fleiss_kappa=take("fleiss_kappa", fk),
        fleiss_raters=fk.raters,
        fleiss_n=fk.n,
        krippendorff_alpha_nominal=take("krippendorff_alpha_nominal", ka_nom),
        krippendorff_alpha_ordinal=take("krippendorff_alpha_ordinal", ka_ord),
        krippendorff_n=ka_nom.n,
        reasons=reasons,
    )
    if not ordinal:
        reasons["cohen_kappa_linear"] = CODES("reason_unordered_kappa")
        reasons["krippendorff_alpha_ordinal"] = CODES("reason_unordered_alpha")
    return result


def _code_frame(
    ratings: pd.DataFrame, item_cols: list[str], value_col: str, categories: Sequence
) -> tuple[np.ndarray, list[str], pd.DataFrame]:
    """Long ratings → (items × annotators code matrix, annotators, items frame)."""
    missing = [c for c in ["annotator", *item_cols, value_col] if c not in ratings.columns]
    if missing:
        raise ValueError(f"missing columns: {', '.join(missing)}")
    df = ratings[["annotator", *item_cols, value_col]].copy()
    if df.isna().any().any():
        bad = df.columns[df.isna().any()][0]
        raise ValueError(f"column {bad} has missing values")
    df["annotator"] = df["annotator"].astype(str)
    cat_index = pd.Index(list(categories))
    code = cat_index.get_indexer(df[value_col])
    if (code < 0).any():
        bad = df.loc[code < 0, value_col].iloc[0]
        raise ValueError(f"{value_col} {bad!r} is not one of {list(categories)}")
    df["_code"] = code
    key = ["annotator", *item_cols]
    dup = df.duplicated(key, keep=False)
    if dup.any():
        clash = df[dup].groupby(key, sort=False)["_code"].nunique()
        if (clash > 1).any():
            who = clash[clash > 1].index[0]
            raise ValueError(f"annotator {who[0]!r} rated item {tuple(who[1:])!r} more than once with different values")
        df = df.drop_duplicates(key)
    # First-appearance order on both sides (sorting mixed-type ids could fail).
    item_id = df.groupby(item_cols, sort=False).ngroup().to_numpy()
    items = df.drop_duplicates(item_cols)[item_cols].reset_index(drop=True)
    annotators = sorted(df["annotator"].unique())
    rater_id = pd.Categorical(df["annotator"], categories=annotators).codes
    codes = np.full((len(items), len(annotators)), np.nan)
    codes[item_id, rater_id] = df["_code"].to_numpy()
    return codes, annotators, items


def grade_agreement(grades: pd.DataFrame, categories: Sequence[int] = GRADES) -> AgreementResult:
    """Agreement on paragraph grades: columns annotator, qid, pid, grade; item = (qid, pid)."""
    codes, annotators, _ = _code_frame(grades, ["qid", "pid"], "grade", categories)
    return agreement_from_codes(codes, annotators, len(categories), ordinal=True)


def _verdict_frame(verdicts: pd.DataFrame) -> pd.DataFrame:
    if "no_answer" not in verdicts.columns:
        raise ValueError("missing columns: no_answer")
    v = verdicts.copy()
    ok = v["no_answer"].isin([True, False])  # also accepts 0/1
    if not ok.all():
        raise ValueError(f"no_answer {v.loc[~ok, 'no_answer'].iloc[0]!r} is not a boolean")
    v["no_answer"] = v["no_answer"].astype(bool)
    return v


def no_answer_agreement(verdicts: pd.DataFrame) -> AgreementResult:
    """Agreement on the question-level verdict: columns annotator, qid, no_answer; item = qid."""
    v = _verdict_frame(verdicts)
    codes, annotators, _ = _code_frame(v, ["qid"], "no_answer", VERDICTS)
    return agreement_from_codes(codes, annotators, len(VERDICTS), ordinal=False)


@dataclass
class AgreementReport:
    """Agreement overall and per question type, on grades and on the no-answer verdict."""

    grades: AgreementResult
    no_answer: AgreementResult | None
    by_type: dict[str, tuple[AgreementResult | None, AgreementResult | None]]
    KINDS = ("grades", "no_answer")  # the rating kinds, each also an attribute (figures_table)

    def to_dict(self) -> dict:
        """JSON-ready: grade figures at top level, then "no_answer" and "by_type"."""

        def part(grades: AgreementResult | None, verdicts: AgreementResult | None) -> dict:
            out = (
                grades.to_dict()
                if grades is not None
                else {"n_items": 0, "reasons": {"grades": CODES("reason_no_type_grades").to_dict()}}
            )
            out["no_answer"] = verdicts.to_dict() if verdicts is not None else None
            if verdicts is None:
                out["reasons"]["no_answer"] = CODES("reason_no_verdicts").to_dict()
            return out

        out = part(self.grades, self.no_answer)
        out["by_type"] = {t: part(g, v) for t, (g, v) in self.by_type.items()}
        return out


def _type_of(qids: pd.Series, question_types: Mapping) -> pd.Series:
    return qids.map(lambda q: question_types.get(q, UNTYPED)).fillna(UNTYPED).astype(str)


def compute_agreement(
    grades: pd.DataFrame, verdicts: pd.DataFrame | None = None, question_types: Mapping | None = None
) -> AgreementReport:
    """Agreement overall and, given ``question_types`` (qid → type), per question type.

    ``grades``: annotator, qid, pid, grade (0/1/2).  ``verdicts``: annotator, qid,
    no_answer (bool).  Questions missing from the mapping count as type "(untyped)".
    """
    overall = grade_agreement(grades)
    verdict_overall = no_answer_agreement(verdicts) if verdicts is not None else None
    by_type: dict[str, tuple[AgreementResult | None, AgreementResult | None]] = {}
    if question_types is not None:
        g_type = _type_of(grades["qid"], question_types)
        v_type = _type_of(verdicts["qid"], question_types) if verdicts is not None else None
        types = set(g_type)
        if v_type is not None:
            types |= set(v_type)
        for t in sorted(types):
            g_sub = grades[g_type == t]
            g_res = grade_agreement(g_sub) if len(g_sub) else None
            v_res = None
            if verdicts is not None:
                v_sub = verdicts[v_type == t]
                v_res = no_answer_agreement(v_sub) if len(v_sub) else None
            by_type[t] = (g_res, v_res)
    return AgreementReport(overall, verdict_overall, by_type)


# --------------------------------------------------------------------------
# Helpers for the lead's page
# --------------------------------------------------------------------------


def annotator_summary(
    grades: pd.DataFrame, verdicts: pd.DataFrame | None = None, categories: Sequence[int] = GRADES
) -> pd.DataFrame:
    """Per annotator: judgments made, questions touched, share of each grade, no-answer rate.

    Columns: n_judgments, n_questions, share_<g> for each grade g, and, given
    verdicts, n_verdicts, n_no_answer, no_answer_rate (= n_no_answer / n_verdicts).
    """
    cols = ["n_judgments", "n_questions", *[f"share_{g}" for g in categories]]
    g = grades[["annotator", "qid", "grade"]].copy()
    g["annotator"] = g["annotator"].astype(str)
    counts = pd.crosstab(g["annotator"], g["grade"]).reindex(columns=list(categories), fill_value=0)
    n = counts.sum(axis=1)
    out = pd.DataFrame(index=counts.index)
    out["n_judgments"] = n.astype(int)
    out["n_questions"] = g.groupby("annotator")["qid"].nunique().reindex(out.index).astype(int)
    for c in categories:
        out[f"share_{c}"] = counts[c] / n
    if verdicts is not None:
        v = _verdict_frame(verdicts)[["annotator", "no_answer"]]
        v["annotator"] = v["annotator"].astype(str)
        agg = v.groupby("annotator")["no_answer"].agg(["size", "sum"])
        out = out.join(agg, how="outer")
        out["n_verdicts"] = out.pop("size").fillna(0).astype(int)
        out["n_no_answer"] = out.pop("sum").fillna(0).astype(int)
        with np.errstate(invalid="ignore", divide="ignore"):
            out["no_answer_rate"] = (out["n_no_answer"] / out["n_verdicts"]).where(out["n_verdicts"] > 0)
        out["n_judgments"] = out["n_judgments"].fillna(0).astype(int)
        out["n_questions"] = out["n_questions"].fillna(0).astype(int)
        cols += ["n_verdicts", "n_no_answer", "no_answer_rate"]
    out.index.name = "annotator"
    return out[cols].sort_index()


def pairwise_matrix(result: AgreementResult, weights: str | None = None) -> pd.DataFrame:
    """Square annotator × annotator DataFrame of Cohen's kappa, for a heat map.

    Symmetric; NaN where the pair's kappa is undefined (see ``result.reasons``)
    and on the diagonal (an annotator is not compared with themself).
    ``weights="linear"`` gives the linear-weighted kappa.
    """
    source = result.cohen_kappa_linear if weights == "linear" else result.cohen_kappa
    if weights not in (None, "linear"):
        raise ValueError(f"unknown weights {weights!r}")
    names = list(result.annotators)
    mat = pd.DataFrame(np.nan, index=pd.Index(names, name="annotator"), columns=pd.Index(names, name="annotator"))
    # Names may contain "|", so pairs are rebuilt from the names, not split from keys.
    for a, b in combinations(names, 2):
        value = source.get(pair_key(a, b))
        if value is not None:
            mat.loc[a, b] = mat.loc[b, a] = value
    return mat


__all__: Iterable[str] = [
    "GRADES",
    "VERDICTS",
    "UNTYPED",
    "Figure",
    "pair_key",
    "count_matrix",
    "percent_agreement",
    "fleiss_kappa",
    "krippendorff_alpha",
    "cohen_kappa",
    "AgreementResult",
    "AgreementReport",
    "agreement_from_codes",
    "grade_agreement",
    "no_answer_agreement",
    "compute_agreement",
    "annotator_summary",
    "pairwise_matrix",
]


def figures_table(report: AgreementReport) -> pd.DataFrame:
    """One row per (scope, rating kind): the main figures and the items each rests on.

    Data, not words: ``scope`` is "all" or a question type, ``rating`` the kind
    ("grades", "no_answer"; for a :class:`ReviewAgreementReport` "support", "interpretation") and ``not_computed`` a dict {figure: reason message};
    :func:`reljudge.i18n.localized_values` puts them in a language."""
    rows = []
    kinds = getattr(report, "KINDS", ("grades", "no_answer"))
    scopes = [("all", *(getattr(report, k) for k in kinds))] + [
        (t, *pair) for t, pair in sorted(report.by_type.items())
    ]
    for scope, *results in scopes:
        for kind, res in zip(kinds, results):
            if res is None:
                continue
            pairs = [v for v in res.cohen_kappa.values() if v is not None]
            rows.append(
                {
                    "scope": scope,
                    "rating": kind,
                    "annotators": len(res.annotators),
                    "items_2plus": res.n_items,
                    "percent_agreement": _clean(res.percent_agreement),
                    "cohen_kappa_mean": float(np.mean(pairs)) if pairs else None,
                    "fleiss_kappa": _clean(res.fleiss_kappa),
                    "fleiss_items": res.fleiss_n,
                    "alpha_nominal": _clean(res.krippendorff_alpha_nominal),
                    "alpha_ordinal": _clean(res.krippendorff_alpha_ordinal),
                    "not_computed": dict(res.reasons),
                }
            )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------
# Answer review (docs/answer-review.md#답변-검수--answer-review): support grades and interpretation
# --------------------------------------------------------------------------

SUPPORT_ITEM = ["answer_id", "sentence", "pid"]
"""A support item: one (sentence, cited paragraph) pair of one answer."""
INTERPRETATION_ITEM = ["answer_id"]
"""An interpretation item: one answer."""


@dataclass
class ReviewAgreementReport:
    """Agreement of the answer reviewers, overall and per question type: on the support
    grade of each (sentence, cited paragraph) and on each answer's interpretation, both
    on the ordered scale 0 < 1 < 2 (so Cohen's linear-weighted kappa and Krippendorff's
    ordinal alpha apply; the other figures of :func:`agreement_from_codes` come too)."""

    support: AgreementResult | None
    interpretation: AgreementResult | None
    by_type: dict[str, tuple[AgreementResult | None, AgreementResult | None]]
    KINDS = ("support", "interpretation")

    def to_dict(self) -> dict:
        def part(support, interpretation) -> dict:
            return {
                "support": support.to_dict() if support is not None else None,
                "interpretation": interpretation.to_dict() if interpretation is not None else None,
            }

        out = part(self.support, self.interpretation)
        out["by_type"] = {t: part(s, i) for t, (s, i) in self.by_type.items()}
        return out


def _rated(ratings: pd.DataFrame, kind: str, item: list[str]) -> AgreementResult | None:
    part = ratings[(ratings["kind"] == kind) & ratings["grade"].notna()]
    if part.empty:
        return None
    part = part.assign(grade=part["grade"].astype(int))
    codes, annotators, _ = _code_frame(part, item, "grade", GRADES)
    return agreement_from_codes(codes, annotators, len(GRADES), ordinal=True)


def review_agreement(ratings: pd.DataFrame, question_types: Mapping | None = None) -> ReviewAgreementReport:
    """Agreement on answer reviews. ``ratings``: annotator, qid, answer_id, kind
    ("support" or "interpretation"; other kinds are ignored), sentence, pid, grade
    (0/1/2). A support item is (answer_id, sentence, pid), an interpretation item the
    answer. Given ``question_types`` (qid → type), per question type too."""
    r = ratings[ratings["kind"].isin(ReviewAgreementReport.KINDS)]
    by_type: dict[str, tuple[AgreementResult | None, AgreementResult | None]] = {}
    if question_types is not None and len(r):
        qtype = _type_of(r["qid"], question_types)
        for t in sorted(set(qtype)):
            sub = r[qtype == t]
            by_type[t] = (_rated(sub, "support", SUPPORT_ITEM), _rated(sub, "interpretation", INTERPRETATION_ITEM))
    return ReviewAgreementReport(
        _rated(r, "support", SUPPORT_ITEM), _rated(r, "interpretation", INTERPRETATION_ITEM), by_type
    )


def pairs_table(report) -> pd.DataFrame:
    """Cohen's kappa per rater pair, unweighted and linear-weighted, with the items the
    pair shares, for every rating kind of ``report`` (overall scope): rating, pair,
    cohen_kappa, cohen_kappa_linear, items."""
    rows = []
    for kind in getattr(report, "KINDS", ("grades", "no_answer")):
        res = getattr(report, kind)
        if res is None:
            continue
        for key, value in res.cohen_kappa.items():
            rows.append(
                {
                    "rating": kind,
                    "pair": key,
                    "cohen_kappa": _clean(value),
                    "cohen_kappa_linear": _clean(res.cohen_kappa_linear.get(key)),
                    "items": res.cohen_n.get(key, 0),
                }
            )
    return pd.DataFrame(rows, columns=["rating", "pair", "cohen_kappa", "cohen_kappa_linear", "items"])
