"""Set-wise retrieval metrics with trec_eval semantics, plus the report extras.

One entry point, :func:`evaluate`, serves the dashboard, the CLI and reports.
Per-query values are computed in one DuckDB query (no Python loop per query);
intervals and tests are vectorised numpy.

Semantics (trec_eval's; which version's ranking depends on ``ties``):

* ranking (:mod:`reljudge.eval.ranking`, the one place the rule is written): score
  descending, compared as a C ``double`` under ``ties="trec10"`` (trec_eval 10.0)
  or in single precision under ``"trec9"`` (trec_eval 9.x and pytrec-eval-terrier
  store a C ``float``: 0.5 and 0.5 + 1e-9 tie), ties broken by document id
  descending in byte order (trec_eval's ``strcmp``); under ``ties="ranked"`` the run's rank
  column orders the ranking instead (score, then id, break ties in rank).  A row
  without a score is placed after every scored row of its ranking, in rank order.
* duplicates (same ``dup_key``, or same pid when ``dup_key`` is NULL) inside one
  ranking: ``"first"`` keeps the first copy and closes ranks up, before any
  cutoff, and the ranking's items are the duplicate keys (the qrels name them);
  ``"keep"`` counts every copy and the items are the pids (the qrels name every
  copy, so trec_eval on the raw ids gives the same numbers).
* relevant: grade >= rel.  Unjudged documents are not relevant (grade NULL).
* each measure's per-query value and its summary over questions (mean, sum or
  geometric mean) are those of its family in :mod:`reljudge.eval.measures` (the one
  registry: definition, source and the SQL of the per-query computation); this
  module plans the aggregates they ask for into one DuckDB query (:class:`_Plan`).
* ``max_docs`` (trec_eval -M) cuts each ranking first; ``judged_only`` (-J) then
  drops its unjudged rows (not in the qrels, or a negative grade), ranks closed up.
* the evaluated questions are those of the qrels plus the no-answer questions;
  a question missing from a run scores 0 (trec_eval ``-c``); run questions
  absent from the qrels are ignored.
* no-answer questions are left out of every mean in ``means`` and reported in
  ``means_no_answer`` (docs/policies.md#정책--policies: no-answer questions).

Intervals: percentile bootstrap (Efron & Tibshirani 1993, ch. 13) over questions,
the same resampled questions for every system and measure.  Tests: paired
randomization (sign-flip) test of the mean difference (Smucker, Allan &
Carterette, CIKM 2007) over all answerable questions, Holm's step-down
correction (Holm 1979) over the system pairs of each measure.  With at most
EXACT_SIGN_FLIPS_MAX_N questions all 2^n sign patterns are enumerated, so the
p-value is exact and the same whatever number of permutations is asked for.
"""

from __future__ import annotations

import itertools
import sys
import uuid
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import duckdb
import numpy as np

if TYPE_CHECKING:  # annotations only: pandas itself is imported on first use (_pandas)
    import pandas as pd

from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.sql import dotted, ident
from reljudge.eval import ranking
from reljudge.eval.measures import MIN_GEO_MEAN, Measure, summary_of

CODES = Codes(
    error_input_kind=("what", "kind"),
    error_lacks_columns=("what", "missing", "found"),
    error_no_measure_given=(),
    error_qrels_no_grade=("found",),
    error_run_no_score_or_rank=(),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

ALL = "all"  #: label of the overall group in ``qtype`` columns
NO_TYPE = "(none)"  #: label for questions without a type

# The ranking rule lives in reljudge.eval.ranking; re-exported for the report and callers.
TIES = ranking.TIES
DEDUP = ranking.DEDUP
float32_sql = ranking.float32_sql


def _pandas():
    """pandas, imported on first use: `evaluate --qrels` with tsv or trec_eval output never
    needs it, and importing it is most of a small evaluation's time (tests/test_evaluate_memory.py)."""
    import pandas

    return pandas


def _is_frame(obj) -> bool:
    """Whether ``obj`` is a pandas DataFrame (without importing pandas for the question)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(obj, pandas.DataFrame)


def _column(wide: dict, name: str, dtype=float) -> np.ndarray:
    """A column of a ``fetchnumpy()`` result as a plain array: NULL as NaN (numbers) or None."""
    col = np.ma.asarray(wide[name])
    mask = np.ma.getmaskarray(col)
    data = np.asarray(col.data, dtype=float if dtype is float else object)
    if mask.any():
        data = data.copy()
        data[mask] = np.nan if dtype is float else None
    return data


@dataclass
class PerQueryValues:
    """Every measure's value for every system × question (:func:`per_query_values`).

    ``values[s, q, m]``: system ``systems[s]``, question ``qids[q]`` (DuckDB's VARCHAR
    order), measure ``measures[m]``; ``wide``: the per-query query's columns
    (``fetchnumpy``), for the shares, failures and coverage of :func:`evaluate`."""

    measures: list[Measure]
    systems: list[str]
    qids: np.ndarray
    values: np.ndarray
    wide: dict
    na_set: set
    qtype_of: dict
    abstentions: set | None
    share_keys: list
    ties: str


@dataclass
class EvalResult:
    """Everything one evaluation produced; DataFrames are long/tidy.

    per_query:       system, qid, qtype, no_answer, measure, value (every evaluated question)
    means:           system, qtype, measure, n, mean, ci_low, ci_high (answerable questions;
                     qtype ``all`` is the overall mean)
    means_no_answer: system, qtype, measure, n, mean (no-answer questions only)
    shares:          system, qtype, rel, k, n, n_rank1, n_top3, n_not_found, rank1, top3, not_found
    failures:        system, qid, qtype, rel, k, first_pid, first_grade (first relevant not within K)
    tests:           qtype, measure, system_a, system_b, mean_a, mean_b, diff, n, p_value, p_holm
    abstention:      system, qtype, n_questions, n_no_answer, no_answer_rate (annotators'),
                     n_appropriate, appropriate_rate, n_answerable, n_false, false_rate
    coverage:        system, qtype, k, n_returned, n_judged, judged_share — for each Judged@K:
                     of what the system actually returned within K (answerable questions),
                     how much is judged.  Judged@K divides by K (even for a shorter ranking,
                     unlike ir_measures), so a run that returns fewer than K paragraphs can
                     never reach 1 there; this share can.
    """

    measures: list[Measure]
    systems: list[str]
    per_query: pd.DataFrame
    means: pd.DataFrame
    means_no_answer: pd.DataFrame
    shares: pd.DataFrame
    failures: pd.DataFrame
    tests: pd.DataFrame
    abstention: pd.DataFrame
    n_questions: dict[str, int]
    policies: dict[str, Any] = field(default_factory=dict)
    coverage: pd.DataFrame = field(default_factory=lambda: _pandas().DataFrame())
    #: per question (system, qid, qtype, no_answer, judged, measure, bound_low, bound_high,
    #: settled, n_open) when the evaluation knows the pool (reljudge.eval.bounds); ``means``
    #: then carries n_bounded, bound_low, bound_high, settled, n_open too
    bounds: pd.DataFrame | None = None
    #: under a sampling plan: system, qid, measure, estimate, estimate_low, estimate_high,
    #: estimated (reljudge.campaign.evaluation.attach_estimates; docs/sampling.md)
    estimates: pd.DataFrame | None = None

    def mean(self, system: str, measure: Measure | str, qtype: str = ALL) -> float:
        """The mean of one measure for one system (overall unless ``qtype`` given)."""
        m = self.means
        hit = m[(m.system == system) & (m.measure == str(measure)) & (m.qtype == qtype)]
        if hit.empty:
            raise KeyError((system, str(measure), qtype))
        return float(hit["mean"].iloc[0])

    def to_dict(self, per_query: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (NaN becomes None)."""

        pd = _pandas()

        def records(df: pd.DataFrame) -> list[dict]:
            if df is None or df.empty:
                return []
            clean = df.astype(object).where(pd.notna(df), None)
            return clean.to_dict(orient="records")

        out = {
            "measures": [str(m) for m in self.measures],
            "systems": list(self.systems),
            "n_questions": dict(self.n_questions),
            "policies": self.policies,
            "means": records(self.means),
            "means_no_answer": records(self.means_no_answer),
            "shares": records(self.shares),
            "failures": records(self.failures),
            "tests": records(self.tests),
            "abstention": records(self.abstention),
            "coverage": records(self.coverage),
        }
        if per_query:
            pq = self.per_query
            if self.bounds is not None:
                # every entry gains its bounds; a pooled question nobody has judged yet
                # comes with its bounds and no value (the value counts judged questions)
                b = self.bounds.drop(columns=["judged"])
                pq = pq.merge(b, on=["system", "qid", "measure"], how="outer", sort=False, suffixes=("", "_b"))
                for col in ("qtype", "no_answer"):
                    pq[col] = pq[col].astype(object).where(pq[col].notna(), pq[col + "_b"])
                pq = pq.drop(columns=["qtype_b", "no_answer_b"])
                order = {s: i for i, s in enumerate(self.systems)}
                pq = pq.sort_values(
                    ["system", "qid"], key=lambda c: c.map(order) if c.name == "system" else c, kind="stable"
                )
            if self.estimates is not None:
                # every entry gains the estimate keys: None for the measures not estimated
                pq = pq.merge(self.estimates, on=["system", "qid", "measure"], how="left", sort=False)
            out["per_query"] = records(pq)
        return out


# ---------------------------------------------------------------------------
# inputs


class _Inputs:
    """Expose each input (table name, DuckDB relation or DataFrame) under a SQL name."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con
        self._views: list[str] = []
        self._registered: list[str] = []

    def sql_name(self, obj: Any, what: str) -> str:
        if isinstance(obj, str):
            return dotted(obj)  # a table name, possibly qualified
        name = f"_rj_{what}_{uuid.uuid4().hex[:12]}"
        if isinstance(obj, duckdb.DuckDBPyRelation):
            obj.create_view(name, replace=True)
            self._views.append(name)
        elif _is_frame(obj):
            self.con.register(name, obj)
            self._registered.append(name)
        else:
            raise ReljudgeError(CODES("error_input_kind", what=what, kind=type(obj).__name__))
        return ident(name)

    def columns(self, sql_name: str) -> list[str]:
        return [d[0].lower() for d in self.con.execute(f"SELECT * FROM {sql_name} LIMIT 0").description]

    def close(self) -> None:
        for v in self._views:
            self.con.execute(f"DROP VIEW IF EXISTS {ident(v)}")
        for r in self._registered:
            self.con.unregister(r)


def _require(cols: list[str], need: Iterable[str], what: str) -> None:
    missing = [c for c in need if c not in cols]
    if missing:
        raise ReljudgeError(CODES("error_lacks_columns", what=what, missing=", ".join(missing), found=", ".join(cols)))


# ---------------------------------------------------------------------------
# the per-query query


def ranking_depth(measures: Sequence[Measure], max_docs: int | None = None, judged_only: bool = False) -> int:
    """How many rows of each ranking :func:`evaluate` looks at: the largest cutoff, at
    least 3 (the rank-1 / top-3 shares need the top 3 even for RR@1); a measure of the
    whole ranking (RR without @K, AP, Bpref, IPrec, NumRet ...) or ``judged_only`` (the
    unjudged rows are dropped before any cutoff) needs every row, up to MAX_CUTOFF;
    ``max_docs`` (trec_eval -M) caps it."""
    from reljudge.eval.measures import MAX_CUTOFF

    whole = judged_only or any(
        m.family.cutoff == "recall"
        or (m.k is None and m.name != "NumQ" and m.family.cutoff != "none")
        or (m.family.cutoff == "none" and m.name not in ("NumQ", "NumRel"))
        for m in measures
    )
    depth = MAX_CUTOFF if whole else max([int(m.k) for m in measures if m.k is not None] + [3])
    return depth if max_docs is None else max(1, min(depth, int(max_docs)))


class _Plan:
    """Collects the aggregates the measures' per-query computations ask for
    (:attr:`reljudge.eval.measures.Family.sql`) and writes them as one DuckDB query.

    * :meth:`run`: an aggregate over the ranked rows of one (system, query): columns
      ``r`` (rank), ``grade`` (NULL = not in the qrels), and the :meth:`row` columns;
    * :meth:`qrels`: an aggregate over the query's qrels rows (column ``grade``);
    * :meth:`ideal`: an aggregate over the query's positive grades in descending
      order (columns ``grade``, ``ir`` = 1, 2, ...);
    * :meth:`row`: a per-row expression (window functions allowed) over the ranked
      rows joined with the query's :meth:`qrels` aggregates.

    Each returns the name of a column of the final select; equal expressions share one.
    """

    def __init__(self, ties: str = ranking.DEFAULT_TIES, judged_only: bool = False) -> None:
        self.judged_only = judged_only
        #: the tie rule names the trec_eval version whose definitions apply (IPrec's rounding)
        self.ties = ranking.resolve(ties)
        self.runs: dict[str, str] = {}
        self.qs: dict[str, str] = {}
        self.ideals: dict[str, str] = {}
        self.rows: dict[str, tuple[str, int]] = {}  # expr -> (name, layer)
        self.rows_need_qstat = False
        self.need_before = False

    def returned_before_judged_only(self) -> str:
        """SQL (final select): how many rows the ranking had before -J dropped the unjudged."""
        self.need_before = True
        return "coalesce(n_before, 0)"

    def run(self, expr: str) -> str:
        return self.runs.setdefault(expr, f"a{len(self.runs)}")

    def qrels(self, expr: str) -> str:
        return self.qs.setdefault(expr, f"q{len(self.qs)}")

    def nrel(self, rel: int) -> str:
        return self.qrels(f"count(*) FILTER (WHERE grade >= {int(rel)})")

    def first(self, rel: int) -> str:
        return self.run(f"min(r) FILTER (WHERE grade >= {int(rel)})")

    def ideal(self, expr: str) -> str:
        return self.ideals.setdefault(expr, f"i{len(self.ideals)}")

    def row(self, expr: str, depends: Sequence[str] = ()) -> str:
        if expr in self.qs.values():
            # a qrels aggregate, read on every row: join the query's figures in
            self.rows_need_qstat = True
            return expr
        if expr not in self.rows:
            layers = {name: layer for name, layer in self.rows.values()}
            layer = 1 + max([layers.get(d, 0) for d in depends] + [0])
            self.rows[expr] = (f"w{len(self.rows)}", layer)
        return self.rows[expr][0]

    def ctes(self, ranked_with_grades: str) -> list[str]:
        """CTEs from ``j`` (the ranked rows with grades) to ``per_run``, ``qstat``, ``idcg``."""
        out = [
            f"qstat AS (SELECT qid, count(*) AS n_judged{''.join(f', {e} AS {n}' for e, n in self.qs.items())} "
            "FROM qr GROUP BY qid)"
        ]
        src = ranked_with_grades
        if self.rows or self.rows_need_qstat:
            out.append(
                f"jq0 AS (SELECT {src}.*{''.join(', qstat.' + n for n in self.qs.values())} FROM {src} "
                f"LEFT JOIN qstat USING (qid))"
            )
            src = "jq0"
            for layer in sorted({lay for _, lay in self.rows.values()}):
                cols = "".join(f", {e} AS {n}" for e, (n, lay) in self.rows.items() if lay == layer)
                out.append(f"jq{layer} AS (SELECT *{cols} FROM {src})")
                src = f"jq{layer}"
        aggs = ["arg_min(pid, r) AS first_pid", "arg_min(grade, r) AS first_grade", "count(*) AS n_ret"]
        aggs += [f"{e} AS {n}" for e, n in self.runs.items()]
        out.append(f"per_run AS (SELECT system, qid, {', '.join(aggs)} FROM {src} GROUP BY system, qid)")
        if self.ideals:
            out.append(
                "ideal AS (SELECT qid, grade, row_number() OVER (PARTITION BY qid ORDER BY grade DESC) AS ir "
                "FROM qr WHERE grade > 0)"
            )
            out.append(
                f"idcg AS (SELECT qid, {', '.join(f'{e} AS {n}' for e, n in self.ideals.items())} "
                "FROM ideal GROUP BY qid)"
            )
        return out


def judged_items_sql(qrels: str, grade: str = "grade") -> str:
    """The qrels as the engine reads them: qid, pid, grade — one row per (qid, pid),
    the highest grade if several, rows without qid or pid left out."""
    return (
        f"SELECT qid::VARCHAR AS qid, pid::VARCHAR AS pid, max({grade})::INTEGER AS grade "
        f"FROM {qrels} WHERE qid IS NOT NULL AND pid IS NOT NULL GROUP BY ALL"
    )


def _per_query_sql(
    measures: list[Measure],
    rels: list[int],
    depth: int,
    ties: str,
    dedup: str,
    run: str,
    qrels: str,
    run_cols: list[str],
    qrels_grade: str,
    extra_qids: str | None,
    judged_only: bool = False,
) -> str:
    """One query giving, for every (system, evaluated query), each measure's value
    (columns "0", "1", ...), the first relevant rank at each threshold of ``rels``
    (columns first_<rel>), the first result and its grade, and the ranking's length."""
    score = "score::DOUBLE" if "score" in run_cols else "NULL::DOUBLE"
    rank = "rank::BIGINT" if "rank" in run_cols else "NULL::BIGINT"
    dkey = "dup_key::VARCHAR" if "dup_key" in run_cols else "NULL::VARCHAR"
    ranked = "position" in run_cols

    plan = _Plan(ties, judged_only)
    cols = [f'({m.family.sql(m, plan)})::DOUBLE AS "{i}"' for i, m in enumerate(measures)]
    cols += [f'{plan.first(rel)} AS "first_{rel}"' for rel in rels]

    extra = f" UNION SELECT qid::VARCHAR FROM {extra_qids}" if extra_qids else ""
    ctes = [
        f"qr AS ({judged_items_sql(qrels, qrels_grade)})",
        f"qset AS (SELECT DISTINCT qid FROM qr{extra})",
        # run rows of evaluated questions only: queries absent from the qrels are ignored
        # NOT MATERIALIZED: DuckDB would otherwise materialise this multiply-referenced
        # CTE, i.e. copy the whole run
        f"src AS NOT MATERIALIZED (SELECT system::VARCHAR AS system, qid::VARCHAR AS qid, pid::VARCHAR AS pid, "
        f"{score} AS score, {rank} AS rank, {dkey} AS dkey{', position::BIGINT AS position' if ranked else ''} FROM {run} "
        f"WHERE pid IS NOT NULL AND system IS NOT NULL AND qid::VARCHAR IN (SELECT qid FROM qset))",
    ]
    if ranked:
        # the caller ranked and deduplicated each ranking already with the same rule
        # (trec_io.read_run_top): a heap over rows that all fit in it, and the
        # duplicate search, would cost more than everything else here
        # (a ranked run may name each row's duplicate group: the campaign's, ranked once
        # for the engine and the bounds by evaluation_inputs.stage_ranked)
        ctes.append(
            f"ranked AS (SELECT system, qid, pid, coalesce(dkey, pid) AS dkey, position AS r FROM src "
            f"WHERE position <= {depth})"
        )
    else:
        ctes.append(f"ranked AS ({ranking.ranked_sql('src', ties, dedup, depth)})")
    # a ranking's items are looked up in the qrels by the id the rule names: the
    # duplicate group under "first", the returned id under "keep" (reljudge.eval.ranking)
    item = ranking.item_column(dedup)
    ctes.append(
        f"j AS (SELECT r.system, r.qid, r.{item} AS pid, r.r, q.grade FROM ranked r "
        f"LEFT JOIN qr q ON q.qid = r.qid AND q.pid = r.{item})"
    )
    if judged_only:
        # trec_eval -J (form_res_rels.c): after the -M cut, unjudged rows (not in the
        # qrels, or a negative grade) leave the ranking and the ranks close up
        ctes.append(
            "jj AS (SELECT system, qid, pid, row_number() OVER (PARTITION BY system, qid ORDER BY r) AS r, "
            "grade FROM j WHERE grade >= 0)"
        )
    ctes += plan.ctes("jj" if judged_only else "j")
    if plan.need_before:
        ctes.append("before AS (SELECT system, qid, count(*) AS n_before FROM j GROUP BY system, qid)")
    ctes.append(
        "sys AS (SELECT unnest($systems::VARCHAR[]) AS system, generate_subscripts($systems::VARCHAR[], 1) AS sord)"
    )
    ctes.append("base AS (SELECT sys.system, sys.sord, qset.qid FROM sys CROSS JOIN qset)")

    joins = "LEFT JOIN per_run USING (system, qid) LEFT JOIN qstat USING (qid)"
    if plan.ideals:
        joins += " LEFT JOIN idcg USING (qid)"
    if plan.need_before:
        joins += " LEFT JOIN before USING (system, qid)"
    return (
        "WITH "
        + ",\n".join(ctes)
        + f"\nSELECT base.system, base.qid, first_pid, first_grade, coalesce(n_ret, 0) AS n_ret, {', '.join(cols)} "
        f"FROM base {joins} ORDER BY base.sord, base.qid"
    )


# ---------------------------------------------------------------------------
# statistics


def holm(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979): for sorted p_(1..m),
    adj_(i) = max_{j<=i} min(1, (m - j + 1) p_(j))."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adj = np.empty(m)
    adj[order] = np.maximum.accumulate(stepped)
    return adj


def _rng(seed: int, label: str) -> np.random.Generator:
    # one stream per group, so a group's figures do not depend on which other groups exist
    return np.random.default_rng([seed, zlib.crc32(label.encode("utf-8"))])


def bootstrap_ci(
    values: np.ndarray, n_boot: int, seed: int, label: str = ALL, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval of the column means of ``values`` (questions × columns).

    Every column (system × measure) is averaged over the same resampled questions.
    """
    n, c = values.shape
    lo = np.full(c, np.nan)
    hi = np.full(c, np.nan)
    if n == 0 or n_boot <= 0:
        return lo, hi
    rng = _rng(seed, label)
    # resample as counts per question; blocks keep memory bounded for large n
    block = max(1, min(n_boot, 20_000_000 // max(n, 1)))
    means = np.empty((n_boot, c))
    for start in range(0, n_boot, block):
        b = min(block, n_boot - start)
        idx = rng.integers(0, n, size=(b, n))
        counts = np.bincount((idx + (np.arange(b) * n)[:, None]).ravel(), minlength=b * n).reshape(b, n)
        means[start : start + b] = counts @ values / n
    alpha = (1 - level) / 2
    lo, hi = np.quantile(means, [alpha, 1 - alpha], axis=0)
    return lo, hi


# Up to 2^16 = 65,536 patterns: a few times the work of the 10,000 random flips,
# and the answer is exact (and the same on every page).
EXACT_SIGN_FLIPS_MAX_N = 16


@dataclass(frozen=True)
class RandomizationProcedure:
    """The paired randomization test's parameters: the one place the dashboard, the
    CLI, the report and the bundle take them from, so one comparison gets one p.

    With n <= ``exact_max_n`` questions every one of the 2^n sign patterns is counted
    (exact p); with more, ``permutations`` random sign flips drawn from ``seed``
    (Smucker, Allan & Carterette 2007 use 10^5; 10^4 keeps the Monte Carlo error of
    p = 0.05 near 0.002 and the dashboard within its budget).
    """

    permutations: int = 10_000
    seed: int = 42
    exact_max_n: int = EXACT_SIGN_FLIPS_MAX_N

    def describe(self, n: int, permutations: int | None = None, seed: int | None = None) -> dict[str, Any]:
        """How the p-values over ``n`` questions are (were) computed, as data: ``exact``
        with its ``patterns`` (2^n), or ``sampled`` with its ``permutations`` and ``seed``."""
        permutations = self.permutations if permutations is None else permutations
        seed = self.seed if seed is None else seed
        if n <= self.exact_max_n:
            return {"procedure": "exact", "n": n, "patterns": 2**n, "exact_max_n": self.exact_max_n}
        return {
            "procedure": "sampled",
            "n": n,
            "permutations": permutations,
            "seed": seed,
            "exact_max_n": self.exact_max_n,
        }


#: The test procedure every consumer runs (see RandomizationProcedure).
RANDOMIZATION = RandomizationProcedure()


def randomization_test(diffs: np.ndarray, n_perm: int, seed: int, label: str = ALL) -> np.ndarray:
    """Two-sided paired randomization test of mean(diffs) = 0 for each column.

    n <= EXACT_SIGN_FLIPS_MAX_N: exact, p = #{s in {-1,+1}^n : |sum s_i d_i| >= |T|} / 2^n.
    Otherwise R random sign flips; p = (1 + #{|T*| >= |T|}) / (1 + R).
    """
    n, c = diffs.shape
    if n == 0 or n_perm <= 0:
        return np.full(c, np.nan)
    obs = np.abs(diffs.sum(axis=0))
    total = diffs.sum(axis=0)
    tol = 1e-12 * np.maximum(1.0, np.abs(diffs).sum(axis=0))  # float noise must not turn a tie into a miss
    if n <= EXACT_SIGN_FLIPS_MAX_N:
        hits = np.zeros(c)
        # in blocks: 2^16 patterns × thousands of columns would not fit in memory at once
        block = max(1, min(2**n, 8_000_000 // max(c, 1)))
        for start in range(0, 2**n, block):
            ids = np.arange(start, min(start + block, 2**n), dtype=np.uint32)
            patterns = (ids[:, None] >> np.arange(n, dtype=np.uint32)) & 1
            t = 2.0 * (patterns.astype(np.float64) @ diffs) - total
            hits += (np.abs(t) >= obs - tol).sum(axis=0)
        return hits / 2**n
    rng = _rng(seed, "perm:" + label)
    hits = np.zeros(c)
    block = max(1, min(n_perm, 8_000_000 // max(n, 1)))
    for start in range(0, n_perm, block):
        b = min(block, n_perm - start)
        # one random byte gives eight signs; sum(s_i d_i) = 2 * sum_{s_i=+1} d_i - sum(d)
        bits = np.unpackbits(rng.integers(0, 256, size=(b, (n + 7) // 8), dtype=np.uint8), axis=1, count=n)
        t = 2.0 * (bits.astype(np.float64) @ diffs) - total
        hits += (np.abs(t) >= obs - tol).sum(axis=0)
    return (hits + 1) / (n_perm + 1)


def summarise(
    values: np.ndarray, kinds: np.ndarray, n_boot: int, seed: int, label: str = ALL
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each column's figure over the questions (rows) of ``values``, with its percentile
    bootstrap interval, as the column's kind says (:attr:`reljudge.eval.measures.Family.summary`):

    * "mean": the arithmetic mean;
    * "sum": the sum (trec_eval num_ret, num_rel, num_rel_ret, num_q); its interval is
      n times the mean's;
    * "gmean": exp(mean(log(max(v, 0.00001)))), the geometric mean with trec_eval's
      floor (``meas_avg.c``: te_calc_avg_meas_s_gm; ``trec_eval.h``: MIN_GEO_MEAN); its
      interval is the exp of the log-mean's.
    """
    n, c = values.shape
    gm = kinds == "gmean"
    x = values.copy()
    if gm.any():
        x[:, gm] = np.log(np.maximum(x[:, gm], MIN_GEO_MEAN))
    mu = x.mean(axis=0) if n else np.full(c, np.nan)
    lo, hi = bootstrap_ci(x, n_boot, seed, label)
    if gm.any():
        mu[gm], lo[gm], hi[gm] = np.exp(mu[gm]), np.exp(lo[gm]), np.exp(hi[gm])
    sm = kinds == "sum"
    if sm.any():
        mu[sm], lo[sm], hi[sm] = (mu[sm] * n if n else 0.0), lo[sm] * n, hi[sm] * n
    return mu, lo, hi


# ---------------------------------------------------------------------------
# entry point


def per_query_values(
    con: duckdb.DuckDBPyConnection,
    qrels: Any,
    run: Any,
    measures: Sequence[Measure],
    *,
    ties: str = ranking.DEFAULT_TIES,
    dedup: str = "first",
    default_rel: int = 2,
    questions: Any = None,
    abstentions: Any = None,
    no_answer_qids: Any = None,
    systems: Sequence[str] | None = None,
    max_docs: int | None = None,
    judged_only: bool = False,
) -> PerQueryValues:
    """The first step of :func:`evaluate` (same arguments): every measure's per-query
    value from one DuckDB query (:func:`_per_query_sql`), as numpy arrays -- no pandas,
    so `evaluate --qrels` with tsv or trec_eval output starts fast."""
    ranking.check(ties, dedup)
    ties = ranking.resolve(ties)
    measures = list(dict.fromkeys(measures))
    if not measures:
        raise ReljudgeError(CODES("error_no_measure_given"))

    inputs = _Inputs(con)
    try:
        q_sql = inputs.sql_name(qrels, "qrels")
        r_sql = inputs.sql_name(run, "run")
        q_cols, r_cols = inputs.columns(q_sql), inputs.columns(r_sql)
        _require(q_cols, ["qid", "pid"], "qrels")
        grade = "grade" if "grade" in q_cols else ("rel" if "rel" in q_cols else None)
        if grade is None:
            raise ReljudgeError(CODES("error_qrels_no_grade", found=", ".join(q_cols)))
        _require(r_cols, ["system", "qid", "pid"], "run")
        if "score" not in r_cols and "rank" not in r_cols:
            raise ReljudgeError(CODES("error_run_no_score_or_rank"))

        if systems is None:
            systems = [
                r[0]
                for r in con.execute(
                    f"SELECT DISTINCT system::VARCHAR FROM {r_sql} WHERE system IS NOT NULL ORDER BY 1"
                ).fetchall()
            ]
        systems = list(dict.fromkeys(str(s) for s in systems))

        na_sql = None
        na_list: list[str] | None = None
        if no_answer_qids is not None:
            if isinstance(no_answer_qids, (list, tuple, set, frozenset, np.ndarray)) or (
                "pandas" in sys.modules and isinstance(no_answer_qids, sys.modules["pandas"].Series)
            ):
                na_list = sorted({str(q) for q in no_answer_qids})
                na_sql = "(SELECT unnest($na::VARCHAR[]) AS qid)"
            else:
                na_sql = inputs.sql_name(no_answer_qids, "noanswer")
                _require(inputs.columns(na_sql), ["qid"], "no_answer_qids")

        rels = sorted({m.rel for m in measures if m.rel is not None} | {default_rel})
        share_keys = (
            sorted({(m.rel, m.k) for m in measures if m.name == "RR" and m.k is not None})
            or sorted({(m.rel, m.k) for m in measures if m.rel is not None and isinstance(m.k, int)})
            or [(default_rel, min(ranking_depth(measures), 10))]
        )
        depth = ranking_depth(measures, max_docs, judged_only)
        sql = _per_query_sql(measures, rels, depth, ties, dedup, r_sql, q_sql, r_cols, grade, na_sql, judged_only)
        params: dict[str, Any] = {"systems": systems}
        if na_list is not None:
            params["na"] = na_list
        wide = con.execute(sql, params).fetchnumpy()

        if na_list is not None:
            na_set = set(na_list)
        elif na_sql is not None:
            na_set = {
                r[0]
                for r in con.execute(f"SELECT DISTINCT qid::VARCHAR FROM {na_sql} WHERE qid IS NOT NULL").fetchall()
            }
        else:
            na_set = set()
        # same set and order as the per-query query's `qset` (DuckDB VARCHAR order)
        qids = np.array(
            [
                r[0]
                for r in con.execute(
                    f"SELECT qid FROM (SELECT DISTINCT qid::VARCHAR AS qid FROM {q_sql} WHERE qid IS NOT NULL AND pid IS NOT NULL "
                    "UNION SELECT unnest($na::VARCHAR[])) ORDER BY qid",
                    {"na": sorted(na_set)},
                ).fetchall()
            ],
            dtype=object,
        )
        n_rows = len(wide["qid"]) if "qid" in wide else 0
        if n_rows != len(systems) * len(qids) or (
            len(systems) and not (_column(wide, "qid", object)[: len(qids)] == qids).all()
        ):
            raise ReljudgeError("internal error: per-query table is not systems × questions")
        qtype_of: dict[str, str] = {}
        if questions is not None:
            qs_sql = inputs.sql_name(questions, "questions")
            _require(inputs.columns(qs_sql), ["qid", "qtype"], "questions")
            qtype_of = dict(
                con.execute(f"SELECT qid::VARCHAR, qtype::VARCHAR FROM {qs_sql} WHERE qid IS NOT NULL").fetchall()
            )
        abst: set[tuple[str, str]] | None = None
        if abstentions is not None:
            ab_sql = inputs.sql_name(abstentions, "abstentions")
            _require(inputs.columns(ab_sql), ["system", "qid"], "abstentions")
            abst = set(con.execute(f"SELECT DISTINCT system::VARCHAR, qid::VARCHAR FROM {ab_sql}").fetchall())
    finally:
        inputs.close()

    S, Q, M = len(systems), len(qids), len(measures)
    values = (
        np.stack([_column(wide, str(i)) for i in range(M)], axis=-1).reshape(S, Q, M)
        if S and Q
        else np.zeros((S, Q, M))
    )
    return PerQueryValues(
        measures=measures,
        systems=systems,
        qids=qids,
        values=values,
        wide=wide,
        na_set=na_set,
        qtype_of=qtype_of,
        abstentions=abst,
        share_keys=share_keys,
        ties=ties,
    )


def evaluate(
    con: duckdb.DuckDBPyConnection,
    qrels: Any,
    run: Any,
    measures: Sequence[Measure],
    *,
    ties: str = ranking.DEFAULT_TIES,
    dedup: str = "first",
    default_rel: int = 2,
    questions: Any = None,
    abstentions: Any = None,
    no_answer_qids: Any = None,
    systems: Sequence[str] | None = None,
    n_boot: int = 1000,
    n_perm: int = RANDOMIZATION.permutations,
    seed: int = RANDOMIZATION.seed,
    max_docs: int | None = None,
    judged_only: bool = False,
) -> EvalResult:
    """Evaluate every system of ``run`` against ``qrels``.

    Each table-like argument is a table or view name in ``con`` (str), a
    DuckDBPyRelation of ``con``, or a pandas DataFrame:

    * qrels: qid, pid, grade (INTEGER; negative grades count as 0 gain)
    * run: system, qid, pid, and score and/or rank; optional dup_key (rows of one
      ranking with equal dup_key are copies; NULL means "use pid"; under
      ``dedup="first"`` the qrels are looked up by dup_key, under ``"keep"`` by pid,
      see :mod:`reljudge.eval.ranking`); optional
      position: 1, 2, ... — each row's place in its ranking, already in the order
      ``ties`` gives and with no copies (as :func:`reljudge.eval.trec_io.read_run_top`
      writes it, which rejects repeated documents, so both ``dedup`` policies
      agree); the rankings are then taken as they are
    * questions: qid, qtype (optional; gives the per-type groups)
    * abstentions: system, qid — the system abstained on that question
    * no_answer_qids: qids finally judged to have no citable evidence (a list/set
      of str, or a table-like with column qid)

    ``systems`` fixes which systems (and their order) are reported, so a system
    with an empty run still gets its zeros; default: the run's systems, sorted.
    ``default_rel`` is recorded in the policies; each Measure carries its own threshold.
    ``n_boot``/``n_perm`` = 0 skip intervals/tests (the CLI does for plain tsv).
    ``max_docs`` (trec_eval -M) keeps only each ranking's first rows; ``judged_only``
    (trec_eval -J) then drops the unjudged rows (absent from the qrels, or a negative
    grade) and closes the ranks up.

    The work is in steps: :func:`_per_query_sql` (every measure's per-query value, one
    DuckDB query), :func:`summarise` (each measure's figure over queries: mean, sum or
    geometric mean, as its family says), bootstrap intervals and tests, the shares,
    the coverage and the abstention tables.
    """
    pqv = per_query_values(
        con,
        qrels,
        run,
        measures,
        ties=ties,
        dedup=dedup,
        default_rel=default_rel,
        questions=questions,
        abstentions=abstentions,
        no_answer_qids=no_answer_qids,
        systems=systems,
        max_docs=max_docs,
        judged_only=judged_only,
    )
    grid = _Grid.of(pqv)
    means, means_no_answer, tests = _means_and_tests(grid, n_boot, n_perm, seed)
    shares, failures = _shares_and_failures(grid, pqv.share_keys)
    run_options = {"n_boot": n_boot, "n_perm": n_perm, "seed": seed, "max_docs": max_docs, "judged_only": judged_only}
    return EvalResult(
        measures=pqv.measures,
        systems=pqv.systems,
        per_query=grid.per_query_frame(),
        means=means,
        means_no_answer=means_no_answer,
        shares=shares,
        failures=failures,
        tests=tests,
        abstention=_abstention(grid, pqv.abstentions),
        n_questions={
            "all": grid.Q,
            "answerable": int((~grid.no_answer).sum()),
            "no_answer": int(grid.no_answer.sum()),
        },
        policies=_policies(pqv, grid, dedup, default_rel, run_options),
        coverage=_coverage(grid),
    )


@dataclass
class _Grid:
    """The per-query values of one evaluation as a systems × questions × measures array,
    with what each question is (its type, whether it has no answer) and the groups
    reported (all questions, then each type)."""

    measures: list[Measure]
    systems: list[str]
    qids: np.ndarray
    qtypes: np.ndarray
    no_answer: np.ndarray
    values: np.ndarray
    wide: dict
    groups: list[str]

    @classmethod
    def of(cls, pqv: PerQueryValues) -> _Grid:
        Q = len(pqv.qids)
        qtypes = (
            np.array([pqv.qtype_of.get(q) or NO_TYPE for q in pqv.qids], dtype=object)
            if pqv.qtype_of
            else np.full(Q, NO_TYPE, dtype=object)
        )
        return cls(
            measures=pqv.measures,
            systems=pqv.systems,
            qids=pqv.qids,
            qtypes=qtypes,
            no_answer=np.array([q in pqv.na_set for q in pqv.qids], dtype=bool),
            values=pqv.values,
            wide=pqv.wide,
            groups=[ALL] + (sorted(set(qtypes.tolist())) if pqv.qtype_of else []),
        )

    @property
    def S(self) -> int:
        return len(self.systems)

    @property
    def Q(self) -> int:
        return len(self.qids)

    @property
    def M(self) -> int:
        return len(self.measures)

    @property
    def names(self) -> list[str]:
        return [str(m) for m in self.measures]

    def in_group(self, g: str) -> np.ndarray:
        """The questions of group ``g`` (all of them, or one type)."""
        return np.ones(self.Q, bool) if g == ALL else (self.qtypes == g)

    def wide_column(self, name: str, dtype=float) -> np.ndarray:
        """A column of the per-query query's result as systems × questions."""
        if not self.S:
            return np.zeros((0, self.Q), dtype=dtype)
        return _column(self.wide, name, dtype).reshape(self.S, self.Q)

    def per_query_frame(self):
        S, Q, M = self.S, self.Q, self.M
        return _pandas().DataFrame(
            {
                "system": np.repeat(np.array(self.systems, dtype=object), Q * M),
                "qid": np.tile(np.repeat(self.qids, M), S),
                "qtype": np.tile(np.repeat(self.qtypes, M), S),
                "no_answer": np.tile(np.repeat(self.no_answer, M), S),
                "measure": np.tile(np.array(self.names, dtype=object), S * Q),
                "value": self.values.reshape(-1),
            }
        )


def _means_and_tests(grid: _Grid, n_boot: int, n_perm: int, seed: int):
    """(means, means of the no-answer questions, paired tests): per group, over the
    answerable questions, each measure summarised as its family says (:func:`summarise`)
    with bootstrap intervals; the randomization tests with Holm's correction on the
    overall group only."""
    pd = _pandas()
    S, M, names, systems, values, no_answer = grid.S, grid.M, grid.names, grid.systems, grid.values, grid.no_answer
    kinds = np.array([summary_of(m) for m in grid.measures], dtype=object)
    mean_rows, na_rows, test_rows = [], [], []
    pairs = list(itertools.combinations(range(S), 2))
    for g in grid.groups:
        in_g = grid.in_group(g)
        sel = in_g & ~no_answer
        v = values[:, sel, :]  # S × n × M
        n = int(sel.sum())
        flat = v.transpose(1, 0, 2).reshape(n, S * M)
        mu, lo, hi = summarise(flat, np.tile(kinds, S), n_boot, seed, g)
        for s in range(S):
            for mi in range(M):
                c = s * M + mi
                mean_rows.append((systems[s], g, names[mi], n, mu[c], lo[c], hi[c]))
        sel_na = in_g & no_answer
        n_na = int(sel_na.sum())
        if n_na:
            mu_na = summarise(
                values[:, sel_na, :].transpose(1, 0, 2).reshape(n_na, S * M), np.tile(kinds, S), 0, seed, g
            )[0].reshape(S, M)
            for s in range(S):
                for mi in range(M):
                    na_rows.append((systems[s], g, names[mi], n_na, mu_na[s, mi]))
        # tests on the overall group only: per-type tests would multiply the cost
        # and the comparisons (the dashboard's budget is ~300 ms)
        if pairs and g == ALL:
            diffs = np.stack([v[a] - v[b] for a, b in pairs], axis=1).reshape(n, len(pairs) * M)  # n × (pairs·M)
            p = randomization_test(diffs, n_perm, seed, g).reshape(len(pairs), M)
            for mi in range(M):
                adj = holm(p[:, mi]) if n_perm > 0 and n else np.full(len(pairs), np.nan)
                for pi, (a, b) in enumerate(pairs):
                    ma, mb = mu[a * M + mi], mu[b * M + mi]
                    test_rows.append((g, names[mi], systems[a], systems[b], ma, mb, ma - mb, n, p[pi, mi], adj[pi]))
    means = pd.DataFrame(mean_rows, columns=["system", "qtype", "measure", "n", "mean", "ci_low", "ci_high"])
    means_no_answer = pd.DataFrame(na_rows, columns=["system", "qtype", "measure", "n", "mean"])
    tests = pd.DataFrame(
        test_rows,
        columns=["qtype", "measure", "system_a", "system_b", "mean_a", "mean_b", "diff", "n", "p_value", "p_holm"],
    )
    return means, means_no_answer, tests


def _shares_and_failures(grid: _Grid, share_keys: list[tuple[int, int]]):
    """(shares, failures): for each (rel, K) of ``share_keys``, per system and group, how
    many answerable questions have their first relevant paragraph at rank 1, within the
    top 3, or not within K; and each (system, question) not found, with the paragraph
    the system ranked first and its grade."""
    pd = _pandas()
    S, systems, qids, qtypes, no_answer = grid.S, grid.systems, grid.qids, grid.qtypes, grid.no_answer
    share_rows, fail_frames = [], []
    first_pid = grid.wide_column("first_pid", object)
    first_grade = grid.wide_column("first_grade")
    for rel, k in share_keys:
        first = grid.wide_column(f"first_{rel}")
        found = first <= k  # NaN (nothing relevant retrieved) compares False
        for g in grid.groups:
            sel = grid.in_group(g) & ~no_answer
            n = int(sel.sum())
            for s in range(S):
                f = first[s, sel]
                n1, n3, nf = int((f == 1).sum()), int((f <= 3).sum()), int((~found[s, sel]).sum())
                share_rows.append(
                    (systems[s], g, rel, k, n, n1, n3, nf, *(x / n if n else np.nan for x in (n1, n3, nf)))
                )
        miss = ~found & ~no_answer[None, :]
        si, qi = np.nonzero(miss)
        fail_frames.append(
            pd.DataFrame(
                {
                    "system": np.array(systems, dtype=object)[si] if S else [],
                    "qid": qids[qi],
                    "qtype": qtypes[qi],
                    "rel": rel,
                    "k": k,
                    "first_pid": first_pid[si, qi],
                    "first_grade": pd.array(
                        np.where(np.isnan(first_grade[si, qi]), np.nan, first_grade[si, qi]), dtype="Int64"
                    )
                    if len(si)
                    else pd.array([], dtype="Int64"),
                }
            )
        )
    shares = pd.DataFrame(
        share_rows,
        columns=["system", "qtype", "rel", "k", "n", "n_rank1", "n_top3", "n_not_found", "rank1", "top3", "not_found"],
    )
    failures = pd.concat(fail_frames, ignore_index=True) if fail_frames else pd.DataFrame()
    return shares, failures


def _coverage(grid: _Grid):
    """How much of what each system returned within K is judged (the "provisional"
    signal), for each Judged@K measure asked, per system and group."""
    cov_rows = []
    n_ret = grid.wide_column("n_ret")
    for mi, m in enumerate(grid.measures):
        if m.name != "Judged":
            continue
        returned = np.minimum(n_ret, m.k)
        judged = np.rint(grid.values[:, :, mi] * m.k)  # Judged@K * K = judged paragraphs within K
        for g in grid.groups:
            sel = grid.in_group(g) & ~grid.no_answer
            for s in range(grid.S):
                nr, nj = int(returned[s, sel].sum()), int(judged[s, sel].sum())
                cov_rows.append((grid.systems[s], g, m.k, nr, nj, nj / nr if nr else np.nan))
    return _pandas().DataFrame(cov_rows, columns=["system", "qtype", "k", "n_returned", "n_judged", "judged_share"])


#: The abstention table's columns, in order (the dashboard and the report show them so).
ABSTENTION_COLUMNS = (
    "system",
    "qtype",
    "n_questions",
    "n_no_answer",
    "no_answer_rate",
    "n_appropriate",
    "appropriate_rate",
    "n_answerable",
    "n_false",
    "false_rate",
)


def _abstention(grid: _Grid, abst: set[tuple[str, str]] | None):
    """Per system and group: the no-answer questions, the appropriate abstentions (on a
    no-answer question) and the false ones (on an answerable question), with their
    rates; None counts when the run says nothing about abstaining."""
    ab_rows = []
    no_answer, qids = grid.no_answer, grid.qids
    for g in grid.groups:
        in_g = grid.in_group(g)
        n_q, n_na = int(in_g.sum()), int((in_g & no_answer).sum())
        n_ans = n_q - n_na
        for s in grid.systems:
            if abst is None:
                n_app = n_false = None
            else:
                did = np.array([(s, q) in abst for q in qids], dtype=bool) if grid.Q else np.zeros(0, bool)
                n_app, n_false = int((did & in_g & no_answer).sum()), int((did & in_g & ~no_answer).sum())
            ab_rows.append(
                (
                    s,
                    g,
                    n_q,
                    n_na,
                    n_na / n_q if n_q else np.nan,
                    n_app,
                    (n_app / n_na) if (n_app is not None and n_na) else np.nan,
                    n_ans,
                    n_false,
                    (n_false / n_ans) if (n_false is not None and n_ans) else np.nan,
                )
            )
    return _pandas().DataFrame(ab_rows, columns=list(ABSTENTION_COLUMNS))


def _policies(pqv: PerQueryValues, grid: _Grid, dedup: str, default_rel: int, options: dict) -> dict:
    """What every number of the result rests on, as the report and the CLI print it."""
    ties, share_keys, measures, no_answer = pqv.ties, pqv.share_keys, pqv.measures, grid.no_answer
    abst = pqv.abstentions
    n_boot, n_perm, seed = options["n_boot"], options["n_perm"], options["seed"]
    max_docs, judged_only = options["max_docs"], options["judged_only"]
    pairs = grid.S * (grid.S - 1) // 2
    return {
        "ties": ties,
        "ties_rule": TIES[ties],
        "dedup": dedup,
        "dedup_rule": DEDUP[dedup],
        "default_rel": default_rel,
        "relevant": "grade >= rel (each measure names its rel)",
        "ndcg": "gain = grade (negative grades count 0), discount log2(rank + 1), ideal from all judged grades of the question",
        "unjudged": "not relevant",
        "missing_from_run": "scores 0 (trec_eval -c)",
        "not_in_qrels": "run questions without judgments are ignored",
        "no_answer": "no-answer questions are left out of the means and reported separately",
        "abstentions_given": abst is not None,
        "bootstrap": {
            "method": "percentile",
            "level": 0.95,
            "resamples": n_boot,
            "seed": seed,
            "same questions for every system": True,
        },
        "randomization_test": {
            "method": "paired sign-flip, two-sided; exact (all 2^n sign patterns) "
            f"when n <= {EXACT_SIGN_FLIPS_MAX_N} questions",
            "permutations": n_perm,
            "seed": seed,
            "correction": "Holm over the system pairs of each measure",
            "questions": "all answerable questions (not per type)",
            # what the p-values of this result rest on (None: no test run)
            "used": (
                RANDOMIZATION.describe(int((~no_answer).sum()), n_perm, seed)
                if n_perm > 0 and pairs and (~no_answer).any()
                else None
            ),
        },
        "shares": [{"rel": r, "k": k} for r, k in share_keys],
        # how each measure's figure over questions is formed when it is not the mean
        "summaries": {str(m): summary_of(m) for m in measures if summary_of(m) != "mean"},
        "max_docs": max_docs,
        "judged_only": judged_only,
    }
