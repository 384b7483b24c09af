"""One registry of measures, shared by the CLI, the dashboard, reports and the docs.

Every measure family is one :class:`Family` entry of :data:`REGISTRY`: its
canonical name (ir_measures, https://ir-measur.es/), its ir_measures and
trec_eval spellings, its parameters (cutoff required / optional / none, or a
recall level; whether it takes a relevance threshold ``rel=``), how the
per-query values are summarised over queries (mean, sum or geometric mean), its
definition with its source, and its per-query computation (a SQL expression
built by :func:`reljudge.eval.metrics.evaluate`'s planner).  Parsing
(:func:`parse_measure`), the ``--help`` text (:func:`help_text`), the
dashboard's default measures (:data:`DASHBOARD_FAMILIES`), the report and the
measure table of docs/measures.md#측정--measures (:func:`markdown_table`) all derive from it.

Names follow ir_measures: ``RR@10``, ``nDCG@10``, ``R@100``, ``P@5``,
``Judged@10``, ``AP``, ``IPrec@0.5``; ``rel=N`` sets the relevance threshold
(``RR(rel=1)@10``).  A name without ``rel=`` takes the caller's default
threshold (campaign: 2, citable; ``--qrels`` file mode: 1, as trec_eval), and
the canonical name always spells the threshold out, so every printed figure
says which threshold produced it.  trec_eval's own spellings are read too
(``recip_rank``, ``P.5,10``, ``P_5``, ``map``, ``iprec_at_recall.0,.5``,
``unj.10`` ...); :func:`trec_name` gives the name trec_eval prints.

Common notation of the definitions: the ranking of a query is the run's rows
in the tie rule's order (:mod:`reljudge.eval.ranking`), cut at ``-M`` rows and,
under ``-J``, without its unjudged rows (ranks closed up); ``rel_i`` = 1 when
the document at rank i has grade >= rel; ``R`` = the query's judged documents
with grade >= rel; ``N`` = its judged documents with 0 <= grade < rel; a
document absent from the qrels, or with a negative grade, is unjudged (trec_eval
``form_res_rels.c``: RELVALUE_NONPOOL / RELVALUE_UNJUDGED).  A query of the
qrels that the run lacks scores 0 on every measure (trec_eval ``-c``).

Sources: trec_eval 10.0 (github.com/usnistgov/trec_eval, the ``m_*.c`` file
named in each entry); Järvelin & Kekäläinen, TOIS 2002 (nDCG); Buckley &
Voorhees, SIGIR 2004 (bpref); Robertson, SIGIR 2006 / trec_eval (GMAP);
ir_measures (MacAvaney et al., ECIR 2022) for the names.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable

from reljudge.errors import ReljudgeError
from reljudge.codes import Codes

CODES = Codes(
    error_measure_unreadable=("measure", "known"),
    error_measure_unknown=("name", "measure", "known"),
    error_measure_parameter=("measure", "parameter"),
    error_measure_no_rel_gain=("measure", "name"),
    error_measure_no_rel=("measure", "name"),
    error_measure_rel_not_whole=("measure", "value"),
    error_measure_no_cutoff=("measure", "name"),
    error_measure_no_cutoff_nor_parameter=("measure", "name"),
    error_measure_needs_level=("measure", "example"),
    error_measure_needs_cutoff=("measure", "example"),
    error_measure_level_not_number=("measure", "value"),
    error_measure_level_range=("measure",),
    error_measure_cutoff_not_whole=("measure", "value"),
    error_measure_cutoff_small=("measure",),
    error_measure_cutoff_large=("measure", "k", "most"),
    error_no_measure=("known",),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

#: The largest cutoff K: the metrics keep each ranking's top K rows with DuckDB's
#: top-n aggregates (``max(x, n)``, ``max_by(x, key, n)``), which take n < 1,000,000.
MAX_CUTOFF = 999_999

#: trec_eval's floor for the geometric mean (``trec_eval.h``: MIN_GEO_MEAN)
MIN_GEO_MEAN = 0.00001


@dataclass(frozen=True, order=True)
class Measure:
    """A parsed measure: ``name`` (canonical family), parameter ``k``, threshold ``rel``.

    ``k`` is the cutoff (an int), the recall level of IPrec (a float in [0, 1]), or
    None for a measure of the whole ranking; ``rel`` is None for families that take
    no threshold (nDCG, Judged, NumQ ...).
    """

    name: str
    k: int | float | None
    rel: int | None = None

    @property
    def family(self) -> "Family":
        return REGISTRY[self.name]

    def __str__(self) -> str:
        at = "" if self.k is None else f"@{_fmt_k(self.k)}"
        if self.rel is None:
            return f"{self.name}{at}"
        return f"{self.name}(rel={self.rel}){at}"


def _fmt_k(k) -> str:
    return repr(float(k)) if isinstance(k, float) else str(k)


@dataclass(frozen=True)
class Family:
    """One measure family: everything the program knows about it, in one place."""

    name: str  #: canonical (ir_measures) name
    ir_measures: str  #: how ir_measures spells it ("" if it lacks it)
    trec: str | None  #: trec_eval's family name (None: trec_eval lacks it)
    aliases: tuple[str, ...]  #: other spellings, read case-insensitively
    cutoff: str  #: "required" | "optional" | "none" | "recall"
    takes_rel: bool  #: takes rel=N
    summary: str  #: "mean" | "sum" | "gmean" (over queries)
    description: str  #: one line, for --help and the report
    definition: str  #: the formula, in the notation of the module docstring
    source: str  #: where the definition comes from
    #: per-query value: (measure, planner) -> SQL expression (see metrics._Plan)
    sql: Callable = field(repr=False, compare=False, default=None)
    trec_cutoffs: tuple = ()  #: trec_eval's default parameters (``-m P`` = P.5,10,...)
    dashboard: int = 0  #: place among the dashboard's default measures (0: not shown)
    definition_ko: str = ""  #: the definition in Korean, for the Korean report

    def trec_name(self, m: Measure) -> str | None:
        if self.trec is None:
            return None
        if self.cutoff == "recall":
            return f"{self.trec}_{m.k:.2f}"
        if self.cutoff in ("required", "optional"):
            if m.k is None:
                return self.trec
            return f"{self.trec}_{m.k}" if self.cutoff == "required" else None
        return self.trec


# -- per-query computations -----------------------------------------------------------
# Each takes the Measure and the planner of reljudge.eval.metrics, which turns the
# aggregates asked for into one DuckDB query over the ranked rows of every
# (system, query): columns r (rank, 1..), grade (NULL = not in the qrels).  A query
# missing from the run gets NULL from every run aggregate, hence the coalesce.


def _rel(m: Measure) -> int:
    return int(m.rel)


def _sql_rr(m, p):
    f = p.first(_rel(m))
    if m.k is None:
        return f"CASE WHEN {f} IS NOT NULL THEN 1.0 / {f} ELSE 0.0 END"
    return f"CASE WHEN {f} <= {int(m.k)} THEN 1.0 / {f} ELSE 0.0 END"


def _sql_success(m, p):
    return f"CASE WHEN {p.first(_rel(m))} <= {int(m.k)} THEN 1.0 ELSE 0.0 END"


def _sql_p(m, p):
    h = p.run(f"count(*) FILTER (WHERE grade >= {_rel(m)} AND r <= {int(m.k)})")
    return f"coalesce({h}, 0) / {int(m.k)}.0"


def _sql_r(m, p):
    h = p.run(f"count(*) FILTER (WHERE grade >= {_rel(m)} AND r <= {int(m.k)})")
    n = p.nrel(_rel(m))
    return f"CASE WHEN coalesce({n}, 0) > 0 THEN coalesce({h}, 0) / {n} ELSE 0.0 END"


def _sql_ndcg(m, p):
    k = int(m.k)
    dcg = p.run(f"sum(grade / log2(r + 1)) FILTER (WHERE grade > 0 AND r <= {k})")
    idcg = p.ideal(f"sum(grade / log2(ir + 1)) FILTER (WHERE ir <= {k})")
    return f"CASE WHEN coalesce({idcg}, 0) > 0 THEN coalesce({dcg}, 0) / {idcg} ELSE 0.0 END"


def _sql_judged(m, p):
    return f"coalesce({p.run(f'count(grade) FILTER (WHERE r <= {int(m.k)})')}, 0) / {int(m.k)}.0"


def _sql_unj(m, p):
    k = int(m.k)
    return f"coalesce({p.run(f'count(*) FILTER (WHERE r <= {k} AND (grade IS NULL OR grade < 0))')}, 0) / {k}.0"


def _sql_numq(m, p):
    return "1.0"


def _rel_precisions(m, p) -> str:
    """SQL (final select): the list of P@i at the ranks i of the relevant retrieved
    documents, in rank order (its k-th element is k / rank of the k-th relevant
    document); NULL when none is retrieved.  One list aggregate, no window."""
    ranks = p.run(f"list(r ORDER BY r) FILTER (WHERE grade >= {_rel(m)})")
    return f"list_transform({ranks}, (x, i) -> i / x)"


def _sql_ap(m, p):
    n = p.nrel(_rel(m))
    # summed in rank order, as trec_eval does
    return f"CASE WHEN coalesce({n}, 0) > 0 THEN coalesce(list_sum({_rel_precisions(m, p)}), 0) / {n} ELSE 0.0 END"


def _sql_rprec(m, p):
    rel = _rel(m)
    n = p.nrel(rel)
    h = p.run(f"count(*) FILTER (WHERE grade >= {rel} AND r <= {p.row(n)})")
    return f"CASE WHEN coalesce({n}, 0) > 0 THEN coalesce({h}, 0) / {n} ELSE 0.0 END"


def _sql_bpref(m, p):
    rel = _rel(m)
    nonrel_above = p.row(
        f"count(*) FILTER (WHERE grade >= 0 AND grade < {rel}) OVER (PARTITION BY system, qid "
        "ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
    )
    n_rel = p.nrel(rel)
    n_non = p.qrels(f"count(*) FILTER (WHERE grade >= 0 AND grade < {rel})")
    nr, nn = p.row(n_rel), p.row(n_non)
    s = p.run(
        f"sum(CASE WHEN {nonrel_above} > 0 THEN 1.0 - least({nonrel_above}, {nr})::DOUBLE / least({nn}, {nr}) "
        f"ELSE 1.0 END) FILTER (WHERE grade >= {rel})"
    )
    return f"CASE WHEN coalesce({n_rel}, 0) > 0 THEN coalesce({s}, 0) / {n_rel} ELSE 0.0 END"


def _sql_iprec(m, p):
    rel = _rel(m)
    # interpolated precision at the c-th relevant document: the best precision at any
    # rank from there on, which is reached at a relevant rank (precision only rises
    # at one), i.e. the maximum of the list's elements from the c-th on
    precisions = _rel_precisions(m, p)
    # the recall level as a number of relevant documents: trec_eval 10 rounds half away
    # from zero (lround); trec_eval 9 (ties "trec9") truncated x * R + 0.9
    xr = f"{float(m.k)!r}::DOUBLE * {p.nrel(rel)}"
    c = f"{'floor(' + xr + ' + 0.9)' if p.ties == 'trec9' else 'round(' + xr + ')'}"
    cut = f"greatest({c}, 1)::BIGINT"
    value = f"CASE WHEN {cut} <= len({precisions}) THEN list_max(list_slice({precisions}, {cut}, -1)) ELSE 0.0 END"
    if p.judged_only:
        # trec_eval -J with no judged document left: its precision 0/0 is NaN, which the
        # levels with c = 0 take (trec_eval prints -nan).  trec_eval 10 -c gives a query
        # missing from the run one unjudged "ceci_nest_pas_un_docno" (trec_eval.c), so the
        # same happens there; trec_eval 9 scores such a query 0.
        empty = f"coalesce({p.run('count(*)')}, 0) = 0"
        if p.ties == "trec9":
            empty += f" AND {p.returned_before_judged_only()} > 0"
        return f"CASE WHEN {empty} AND {c} = 0 THEN 'NaN'::DOUBLE ELSE {value} END"
    return value


def _sql_num_ret(m, p):
    return f"coalesce({p.run('count(*)')}, 0)"


def _sql_num_rel(m, p):
    return f"coalesce({p.nrel(_rel(m))}, 0)"


def _sql_num_rel_ret(m, p):
    return f"coalesce({p.run(f'count(*) FILTER (WHERE grade >= {_rel(m)})')}, 0)"


_TREC_P = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_IPREC_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

#: Every measure family, in the order trec_eval prints its measures (``measures.c``:
#: ``te_trec_measures``); families trec_eval lacks come last.
FAMILIES: tuple[Family, ...] = (
    Family(
        "NumQ",
        "NumQ",
        "num_q",
        ("num_q", "numq"),
        "none",
        False,
        "sum",
        "number of evaluated queries",
        "1 for every evaluated query; summed over queries",
        "trec_eval m_num_q.c",
        _sql_numq,
        definition_ko="평가한 질문 수 (질문마다 1, 합계)",
    ),
    Family(
        "NumRet",
        "NumRet",
        "num_ret",
        ("num_ret", "numret"),
        "none",
        False,
        "sum",
        "number of documents retrieved (after -M and -J)",
        "|ranking|; summed over queries",
        "trec_eval m_num_ret.c",
        _sql_num_ret,
        definition_ko="순위에 든 문서 수 (-M, -J 뒤), 합계",
    ),
    Family(
        "NumRel",
        "NumRel",
        "num_rel",
        ("num_rel", "numrel"),
        "none",
        True,
        "sum",
        "number of relevant documents in the qrels",
        "R; summed over queries (trec_eval -c sums grade > 0 over every qrels query instead)",
        "trec_eval m_num_rel.c",
        _sql_num_rel,
        definition_ko="판정에서 등급이 기준 이상인 문서 수 R, 합계",
    ),
    Family(
        "NumRelRet",
        "NumRet(rel=N)",
        "num_rel_ret",
        ("num_rel_ret", "numrelret"),
        "none",
        True,
        "sum",
        "number of relevant documents retrieved",
        "sum_i rel_i; summed over queries",
        "trec_eval m_num_rel_ret.c",
        _sql_num_rel_ret,
        definition_ko="순위에 든 관련 문서 수, 합계",
    ),
    Family(
        "AP",
        "AP",
        "map",
        ("map", "ap"),
        "none",
        True,
        "mean",
        "average precision over the whole ranking (MAP as the mean)",
        "sum_i rel_i * P@i / R (0 when R = 0)",
        "trec_eval m_map.c; Buckley & Voorhees 2005",
        _sql_ap,
        definition_ko="관련 문서가 나온 순위마다의 정밀도의 합 / R (R = 0이면 0), 평균이 MAP",
    ),
    Family(
        "GMAP",
        "",
        "gm_map",
        ("gm_map", "gmap"),
        "none",
        True,
        "gmean",
        "geometric mean of AP over queries",
        "exp(mean over queries of log(max(AP, 0.00001)))",
        "trec_eval m_gm_map.c, meas_avg.c",
        _sql_ap,
        definition_ko="질문별 AP의 기하 평균: exp(평균 log(max(AP, 0.00001)))",
    ),
    Family(
        "Rprec",
        "Rprec",
        "Rprec",
        ("rprec",),
        "none",
        True,
        "mean",
        "precision after R documents (R = relevant documents of the query)",
        "sum_{i <= R} rel_i / R (0 when R = 0)",
        "trec_eval m_Rprec.c",
        _sql_rprec,
        definition_ko="상위 R개 안의 관련 문서 수 / R (R = 0이면 0)",
    ),
    Family(
        "Bpref",
        "Bpref",
        "bpref",
        ("bpref",),
        "none",
        True,
        "mean",
        "binary preference: relevant documents ranked above judged non-relevant ones",
        "1/R * sum over relevant retrieved d of (1 - min(n_d, R) / min(N, R)), n_d = judged non-relevant "
        "documents above d (the term is 1 when n_d = 0); unjudged documents are skipped",
        "trec_eval m_bpref.c; Buckley & Voorhees, SIGIR 2004",
        _sql_bpref,
        definition_ko="관련 문서마다 1 − min(그 위의 판정된 비관련 수, R) / min(N, R)의 합 / R; 미판정 문서는 건너뜀",
    ),
    Family(
        "RR",
        "RR",
        "recip_rank",
        ("rr", "mrr", "recip_rank"),
        "optional",
        True,
        "mean",
        "reciprocal rank of the first relevant result (within K if given; MRR as the mean)",
        "1 / min{i <= K : rel_i} (0 if none)",
        "trec_eval m_recip_rank.c (RR@K: on the run cut at K)",
        _sql_rr,
        dashboard=1,
        definition_ko="등급이 기준 이상인 첫 문서의 순위 r에 대해 1/r (K 안에 없으면 0), 평균이 MRR",
    ),
    Family(
        "IPrec",
        "IPrec",
        "iprec_at_recall",
        ("iprec", "iprec_at_recall"),
        "recall",
        True,
        "mean",
        "interpolated precision at a recall level x in [0, 1]",
        "max_{j >= i_c} P@j, i_c = rank of the c-th relevant retrieved document, c = max(1, lround(x * R)); "
        "0 if fewer than c are retrieved; NaN under -J when no judged document is left and c = 0 (as trec_eval) "
        "(under --ties trec9, trec_eval 9's c = max(1, floor(x * R + 0.9)))",
        "trec_eval m_iprec_at_recall.c (10.0: lround; 9.x: + 0.9 and truncation)",
        _sql_iprec,
        trec_cutoffs=_IPREC_LEVELS,
        definition_ko="재현율 x에서의 보간 정밀도: c = max(1, 반올림(x·R))번째 관련 문서부터 뒤의 최대 정밀도",
    ),
    Family(
        "P",
        "P",
        "P",
        ("p", "precision"),
        "required",
        True,
        "mean",
        "precision at K: relevant documents within K divided by K",
        "sum_{i <= K} rel_i / K (K also for a shorter ranking)",
        "trec_eval m_P.c",
        _sql_p,
        trec_cutoffs=_TREC_P,
        dashboard=4,
        definition_ko="상위 K 안의 관련 문서 수 / K (순위가 짧아도 K로 나눔)",
    ),
    Family(
        "R",
        "R",
        "recall",
        ("r", "recall"),
        "required",
        True,
        "mean",
        "recall at K: share of the query's relevant documents found within K",
        "sum_{i <= K} rel_i / R (0 when R = 0)",
        "trec_eval m_recall.c",
        _sql_r,
        trec_cutoffs=_TREC_P,
        dashboard=2,
        definition_ko="상위 K 안의 관련 문서 수 / 그 질문의 관련 문서 수 R (R = 0이면 0)",
    ),
    Family(
        "nDCG",
        "nDCG",
        "ndcg_cut",
        ("ndcg", "ndcg_cut"),
        "required",
        False,
        "mean",
        "normalised discounted cumulative gain at K (gain = grade, log2 discount)",
        "DCG@K / IDCG@K, DCG@K = sum_{i <= K} g_i / log2(i + 1), g_i = grade if > 0 else 0, IDCG from all "
        "judged grades of the query sorted descending (0 when IDCG = 0)",
        "trec_eval m_ndcg_cut.c; Järvelin & Kekäläinen, TOIS 2002",
        _sql_ndcg,
        trec_cutoffs=(5, 10, 15, 20, 30, 100, 200, 500, 1000),
        dashboard=3,
        definition_ko="DCG@K / IDCG@K, 이득 = 등급(0 초과만), 할인 log2(순위 + 1), 이상적 순위는 그 질문의 모든 판정 등급으로",
    ),
    Family(
        "Success",
        "Success",
        "success",
        ("success",),
        "required",
        True,
        "mean",
        "success at K: 1 if a relevant document is within K, else 0",
        "1 if some rel_i = 1 with i <= K, else 0",
        "trec_eval m_success.c",
        _sql_success,
        trec_cutoffs=(1, 5, 10),
        definition_ko="상위 K 안에 관련 문서가 있으면 1, 없으면 0",
    ),
    Family(
        "Unj",
        "",
        "unj",
        ("unj",),
        "required",
        False,
        "mean",
        "share of the top K that is unjudged (trec_eval's red flag)",
        "|{i <= K : document i absent from the qrels or graded < 0}| / K; ranks a short ranking leaves "
        "empty count as judged",
        "trec_eval m_unjudged.c",
        _sql_unj,
        trec_cutoffs=(5, 10, 15, 20, 30, 100, 200, 500, 1000),
        definition_ko="상위 K 안의 미판정 문서(판정 없음 또는 음수 등급) 수 / K; 짧은 순위의 빈 자리는 판정된 것으로 셈",
    ),
    Family(
        "Judged",
        "Judged",
        None,
        ("judged",),
        "required",
        False,
        "mean",
        "share of the top K that has a judgment (coverage of the figures)",
        "|{i <= K : document i in the qrels, any grade}| / K. Unlike ir_measures' Judged@K, which "
        "divides by min(K, ranking length) and skips queries missing from the run, the divisor is "
        "always K and a missing query scores 0",
        "reljudge (after ir_measures Judged@K, judged_provider.py)",
        _sql_judged,
        dashboard=5,
        definition_ko="상위 K 안의 판정된 문서 수 / K (순위가 짧아도 K로 나눔; 어느 등급이든 판정으로 셈)",
    ),
)

#: canonical name -> Family
REGISTRY: dict[str, Family] = {f.name: f for f in FAMILIES}

#: families shown by default on the dashboard (at each of the campaign's K), in its order
DASHBOARD_FAMILIES: tuple[str, ...] = tuple(
    f.name for f in sorted((f for f in FAMILIES if f.dashboard), key=lambda f: f.dashboard)
)

#: families that measure how much is judged, not retrieval quality (no test, no interval on the dashboard)
COVERAGE_FAMILIES: frozenset[str] = frozenset({"Judged", "Unj"})

#: the dashboard's quality families, in its order (its chart offers these)
DASHBOARD_QUALITY: tuple[str, ...] = tuple(f for f in DASHBOARD_FAMILIES if f not in COVERAGE_FAMILIES)

#: families that take no parameter (their Measure has ``k=None``)
NO_CUTOFF = {f.name for f in FAMILIES if f.cutoff == "none"}

#: trec_eval family name -> canonical name, in the order trec_eval prints them
TREC_NAMES = {f.trec: f.name for f in FAMILIES if f.trec}

#: trec_eval's -m official (``measures.c``: off_names), runid aside
OFFICIAL = (
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
)

# Spellings people type, mapped case-insensitively to the canonical name.
_ALIASES = {a.lower(): f.name for f in FAMILIES for a in (f.name, *f.aliases)}

_NAME_RE = re.compile(
    r"""^\s*(?P<name>[A-Za-z_]+)
        (?:\(\s*(?P<params>[^)]*)\))?
        (?:@(?P<k>[^\s()]+))?\s*$""",
    re.VERBOSE,
)
_PARAM_FAMILIES = "|".join(
    sorted((re.escape(f.trec) for f in FAMILIES if f.trec and f.cutoff != "none"), key=len, reverse=True)
)
# trec_eval spellings with the parameter after an underscore: P_5, recall_100, iprec_at_recall_0.50
_TREC_RE = re.compile(rf"^\s*({_PARAM_FAMILIES})_([0-9.]+)\s*$", re.IGNORECASE)
# trec_eval's -m syntax: family.params, e.g. P.5,10 or iprec_at_recall.0,.5,1
_TREC_DOT_RE = re.compile(rf"^\s*({_PARAM_FAMILIES})\.([0-9.]+(?:\s*,\s*[0-9.]+)*)\s*$", re.IGNORECASE)


def trec_name(m: Measure) -> str | None:
    """The name trec_eval prints for ``m`` (``P_5``, ``recip_rank``, ``iprec_at_recall_0.50``),
    or None when trec_eval has no such measure (RR@K, Judged@K)."""
    return REGISTRY[m.name].trec_name(m)


def trec_order(m: Measure) -> tuple:
    """Sort key putting measures in the order trec_eval prints them (its measure table,
    parameters ascending); measures trec_eval lacks come last."""
    order = [f.name for f in FAMILIES]
    return (order.index(m.name) if trec_name(m) else len(order), m.k or 0)


def summary_of(m: Measure) -> str:
    """How ``m``'s per-query values become one figure: "mean", "sum" or "gmean"."""
    return REGISTRY[m.name].summary


def _spelling(f: Family) -> str:
    """How ``--help`` writes a family's names: ``P@K / P(rel=N)@K``, ``nDCG@K``, ``RR[@K]``."""
    at = {"none": "", "recall": "@x", "optional": "[@K]"}.get(f.cutoff, "@K")
    names = [f.name] + ([f"{f.name}(rel=N)"] if f.takes_rel else [])
    return " / ".join(name + at for name in names)


def _known() -> str:
    def one(f: Family) -> str:
        if f.cutoff == "none":
            return f.name
        at = "@x" if f.cutoff == "recall" else "@K"
        return f"{f.name}{at}" + (f" / {f.name}(rel=N){at}" if f.takes_rel else "")

    return (
        ", ".join(one(f) for f in FAMILIES)
        + "; RR without @K = whole ranking; trec_eval spellings: "
        + ", ".join(
            [
                "recip_rank",
                "P.5,10",
                "P_5",
                "recall.100",
                "ndcg_cut.10",
                "success.1",
                "map",
                "gm_map",
                "Rprec",
                "bpref",
                "iprec_at_recall.0,.5",
                "num_q",
                "num_ret",
                "num_rel",
                "num_rel_ret",
                "unj.10",
                "official",
            ]
        )
    )


def help_text() -> str:
    """The measure list of ``reljudge evaluate --help``, one line per family."""
    lines = []
    for f in FAMILIES:
        trec = f" (trec_eval {f.trec})" if f.trec else ""
        agg = {"sum": "; summed", "gmean": "; geometric mean"}.get(f.summary, "")
        lines.append(f"  {_spelling(f):<28} {f.description}{trec}{agg}")
    return "\n".join(lines)


def markdown_table() -> str:
    """The measure table of docs/measures.md#측정--measures (tests/test_measures.py checks it holds exactly this)."""
    rows = [
        "| name | ir_measures | trec_eval | parameter | rel= | over queries | definition | source |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    for f in FAMILIES:
        param = {"none": "—", "optional": "K (optional)", "required": "K", "recall": "recall level x"}[f.cutoff]
        suffix = {"required": "_K", "recall": "_x"}.get(f.cutoff, "")
        trec = f"`{f.trec}{suffix}`" if f.trec else "—"
        if f.cutoff == "optional" and f.trec:
            trec += " (without K)"
        rows.append(
            f"| `{f.name}` | {('`' + f.ir_measures + '`') if f.ir_measures else '—'} | {trec} | {param} | "
            f"{'yes' if f.takes_rel else 'no'} | {f.summary} | {cell(f.definition)} | {cell(f.source)} |"
        )
    return "\n".join(rows)


def parse_measure(text: str, default_rel: int) -> Measure:
    """Parse one name such as ``RR@10``, ``RR(rel=1)@10`` or ``map`` into a Measure.

    Raises ReljudgeError naming the measures that exist when the name is unknown
    or malformed.
    """
    t = _TREC_RE.match(text or "")
    if t:
        text = f"{t.group(1)}@{t.group(2)}"
    m = _NAME_RE.match(text or "")
    if not m:
        raise ReljudgeError(CODES("error_measure_unreadable", measure=repr(text), known=_known()))
    raw = m.group("name")
    name = _ALIASES.get(raw.lower())
    if name is None:
        raise ReljudgeError(CODES("error_measure_unknown", name=repr(raw), measure=repr(text), known=_known()))
    fam = REGISTRY[name]
    rel: int | None = default_rel if fam.takes_rel else None
    params = (m.group("params") or "").strip()
    if params:
        for part in params.split(","):
            key, sep, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if key != "rel" or not sep:
                raise ReljudgeError(CODES("error_measure_parameter", measure=repr(text), parameter=repr(part.strip())))
            if not fam.takes_rel:
                code = "error_measure_no_rel_gain" if name == "nDCG" else "error_measure_no_rel"
                raise ReljudgeError(CODES(code, measure=repr(text), name=name))
            try:
                rel = int(value)
            except ValueError:
                raise ReljudgeError(
                    CODES("error_measure_rel_not_whole", measure=repr(text), value=repr(value))
                ) from None
    kt = m.group("k")
    if fam.cutoff == "none":
        if kt is not None or (params and not fam.takes_rel):
            code = "error_measure_no_cutoff" if fam.takes_rel else "error_measure_no_cutoff_nor_parameter"
            raise ReljudgeError(CODES(code, measure=repr(text), name=name))
        return Measure(name, None, rel)
    if kt is None:
        if fam.cutoff == "optional":
            return Measure(name, None, rel)
        example = f"{name}@0.5" if fam.cutoff == "recall" else f"{name}@10"
        code = "error_measure_needs_level" if fam.cutoff == "recall" else "error_measure_needs_cutoff"
        raise ReljudgeError(CODES(code, measure=repr(text), example=example))
    if fam.cutoff == "recall":
        try:
            x = float(kt)
        except ValueError:
            raise ReljudgeError(CODES("error_measure_level_not_number", measure=repr(text), value=repr(kt))) from None
        if not (0.0 <= x <= 1.0) or math.isnan(x):
            raise ReljudgeError(CODES("error_measure_level_range", measure=repr(text)))
        return Measure(name, x, rel)
    try:
        k = int(kt)
    except ValueError:
        raise ReljudgeError(CODES("error_measure_cutoff_not_whole", measure=repr(text), value=repr(kt))) from None
    if k < 1:
        raise ReljudgeError(CODES("error_measure_cutoff_small", measure=repr(text)))
    if k > MAX_CUTOFF:
        raise ReljudgeError(CODES("error_measure_cutoff_large", measure=repr(text), k=k, most=MAX_CUTOFF))
    return Measure(name, k, rel)


def _expand_trec_family(text: str) -> list[str] | None:
    """trec_eval's bare family names with default parameters (``-m P`` = P_5 ... P_1000,
    ``-m official``); None if ``text`` is not one."""
    t = (text or "").strip()
    if t == "official":
        return [x for name in OFFICIAL for x in (_expand_trec_family(name) or [name])]
    fam = next((f for f in FAMILIES if f.trec == t and f.trec_cutoffs), None)
    if fam is None:
        return None
    if fam.cutoff == "recall":
        return [f"{fam.trec}_{x:.2f}" for x in fam.trec_cutoffs]
    return [f"{fam.trec}_{k}" for k in fam.trec_cutoffs]


def parse_measures(texts, default_rel: int) -> list[Measure]:
    """Parse several names (each may also be comma-separated); duplicates dropped, order kept."""
    out: list[Measure] = []
    for text in texts:
        expanded = _expand_trec_family(text)
        if expanded is not None:
            text = ",".join(expanded)
        dot = _TREC_DOT_RE.match(text or "")
        if dot:
            # trec_eval: P.5,10 is P_5 and P_10
            text = ",".join(f"{dot.group(1)}_{k.strip()}" for k in dot.group(2).split(","))
        # split on commas that are not inside parentheses
        for piece in re.split(r",(?![^()]*\))", text):
            if piece.strip():
                mm = parse_measure(piece, default_rel)
                if mm not in out:
                    out.append(mm)
    if not out:
        raise ReljudgeError(CODES("error_no_measure", known=_known()))
    return out


def parse_trec_eval_measures(texts, default_rel: int) -> list[Measure]:
    """Parse ``-m`` arguments as trec_eval reads them (``meas_init.c``): a family's
    parameters are those of its FIRST ``-m family.params`` (later ones are ignored, and
    a bare ``-m family`` or ``-m official`` then uses them too); without any, the
    family's defaults.  Other spellings (``RR@10``, ``P_5``) parse as in
    :func:`parse_measures`."""
    pieces: list[str] = []
    for text in texts:
        t = (text or "").strip()
        pieces += list(OFFICIAL) if t == "official" else [t]
    explicit: dict[str, str] = {}
    for t in pieces:
        dot = _TREC_DOT_RE.match(t)
        if dot:
            explicit.setdefault(dot.group(1), dot.group(2))
    out = []
    for t in pieces:
        dot = _TREC_DOT_RE.match(t)
        fam = dot.group(1) if dot else t
        if fam in explicit:
            t = f"{fam}.{explicit[fam]}"
        out.append(t)
    return parse_measures(out, default_rel)
