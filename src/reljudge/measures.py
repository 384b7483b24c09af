"""One registry of measure names, shared by the CLI, the dashboard and reports.

Names follow ir_measures (https://ir-measur.es/): ``RR@10``, ``nDCG@10``,
``R@100``, ``P@5``, ``Judged@10``; ``rel=N`` sets the relevance threshold
(``RR(rel=1)@10``).  A name without ``rel=`` takes the caller's default
threshold (campaign: 2, citable; ``--qrels`` file mode: 1, as trec_eval), and
the canonical name always spells the threshold out, so every printed figure
says which threshold produced it.

=========  ==========================================  =====================
name       value for one query (run cut at rank K)     trec_eval equivalent
=========  ==========================================  =====================
RR@K       1/r, r = rank of the first doc with          ``recip_rank`` on the
           grade >= rel within K, else 0               run truncated to K
P@K        |{rank <= K, grade >= rel}| / K             ``P_K``
R@K        |{rank <= K, grade >= rel}| / |{grade>=rel}| ``recall_K``
           (0 when the query has no relevant doc)
nDCG@K     DCG@K / IDCG@K, gain = grade (> 0 only),    ``ndcg_cut_K``
           discount log2(rank + 1), ideal from every
           judged grade of the query (0 if IDCG = 0)
Judged@K   |{rank <= K, judged}| / K                   ir_measures Judged@K
Success@K  1 if some doc with grade >= rel is within   ``success_K``
           K, else 0 (Success@1 = P@1 for one query)
RR         RR@K with K = the whole ranking             ``recip_rank``
NumQ       1 for every evaluated query (its sum is     ``num_q``
           the number of queries)
=========  ==========================================  =====================

Sources: trec_eval 10.0 (github.com/usnistgov/trec_eval, ``m_recip_rank.c``,
``m_P.c``, ``m_recall.c``, ``m_ndcg_cut.c``, ``m_success.c``, ``m_num_q.c``);
Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", TOIS
2002 (nDCG); ir_measures (MacAvaney et al., ECIR 2022) for the names.

trec_eval's own spellings are read too (:data:`TREC_NAMES`): ``recip_rank``,
``P.5,10`` and ``P_5``, ``recall.100``, ``ndcg_cut.10``, ``success.1``,
``num_q``; :func:`trec_name` gives the name trec_eval prints for a measure.

nDCG and Judged do not depend on a threshold (trec_eval's ``ndcg_cut`` uses the
raw grade as gain), so they take no ``rel=``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reljudge.errors import ReljudgeError

#: The largest cutoff K: the metrics keep each ranking's top K rows with DuckDB's
#: top-n aggregates (``max(x, n)``, ``max_by(x, key, n)``), which take n < 1,000,000.
MAX_CUTOFF = 999_999

#: canonical name -> (takes a threshold, one-line description)
REGISTRY: dict[str, tuple[bool, str]] = {
    "RR": (True, "reciprocal rank of the first relevant result within K (MRR as the mean)"),
    "nDCG": (False, "normalised discounted cumulative gain at K (gain = grade, log2 discount)"),
    "R": (True, "recall at K: share of the query's relevant documents found within K"),
    "P": (True, "precision at K: relevant documents within K divided by K"),
    "Judged": (False, "share of the top K that has a judgment (coverage of the figures)"),
    "Success": (True, "success at K: 1 if a relevant document is within K, else 0"),
    "NumQ": (False, "number of evaluated queries (1 per query; trec_eval num_q)"),
}

#: Measures that read the whole ranking and take no cutoff: RR (without @K, trec_eval
#: ``recip_rank``) and NumQ.  Their Measure has ``k=None``.
NO_CUTOFF = {"NumQ"}
CUTOFF_OPTIONAL = {"RR"}

#: trec_eval family name -> canonical name (``P.5,10``, ``ndcg_cut.10`` ...), in the
#: order trec_eval prints its measures (``measures.c: te_trec_measures``).
TREC_NAMES = {"num_q": "NumQ", "recip_rank": "RR", "P": "P", "recall": "R", "ndcg_cut": "nDCG",
              "success": "Success"}

# Spellings people type, mapped case-insensitively to the canonical name.
_ALIASES = {
    "rr": "RR", "mrr": "RR", "recip_rank": "RR",
    "ndcg": "nDCG", "ndcg_cut": "nDCG",
    "r": "R", "recall": "R",
    "p": "P", "precision": "P",
    "judged": "Judged",
    "success": "Success",
    "numq": "NumQ", "num_q": "NumQ",
}

_NAME_RE = re.compile(
    r"""^\s*(?P<name>[A-Za-z_]+)
        (?:\(\s*(?P<params>[^)]*)\))?
        (?:@(?P<k>[^\s()]+))?\s*$""",
    re.VERBOSE,
)
# trec_eval spellings with the cutoff after an underscore: P_5, recall_100, ndcg_cut_10
_TREC_RE = re.compile(r"^\s*(P|recall|ndcg_cut|success)_(\d+)\s*$", re.IGNORECASE)
# trec_eval's -m syntax: family.cutoffs, e.g. P.5,10 or ndcg_cut.10
_TREC_DOT_RE = re.compile(r"^\s*(P|recall|ndcg_cut|success)\.(\d+(?:\s*,\s*\d+)*)\s*$")


@dataclass(frozen=True, order=True)
class Measure:
    """A parsed measure: ``name`` (canonical), cutoff ``k``, threshold ``rel``.

    ``rel`` is None for measures that take no threshold (nDCG, Judged, NumQ); ``k``
    is None for a measure of the whole ranking (RR without @K, NumQ).
    """

    name: str
    k: int | None
    rel: int | None = None

    def __str__(self) -> str:
        at = "" if self.k is None else f"@{self.k}"
        if self.rel is None:
            return f"{self.name}{at}"
        return f"{self.name}(rel={self.rel}){at}"


def trec_name(m: Measure) -> str | None:
    """The name trec_eval prints for ``m`` (``P_5``, ``recip_rank``, ``num_q``), or None
    when trec_eval has no such measure (RR@K, Judged@K)."""
    if m.name == "NumQ":
        return "num_q"
    if m.name == "RR":
        return "recip_rank" if m.k is None else None
    family = {"P": "P", "R": "recall", "nDCG": "ndcg_cut", "Success": "success"}.get(m.name)
    return f"{family}_{m.k}" if family else None


def trec_order(m: Measure) -> tuple:
    """Sort key putting measures in the order trec_eval prints them (its measure table,
    cutoffs ascending); measures trec_eval lacks come last."""
    order = list(TREC_NAMES.values())
    return (order.index(m.name) if trec_name(m) else len(order), m.k or 0)


def _known() -> str:
    return (", ".join(n if n in NO_CUTOFF else f"{n}@K" + ("" if not t else f" / {n}(rel=N)@K")
                      for n, (t, _) in REGISTRY.items())
            + "; RR without @K = whole ranking; trec_eval spellings: " + ", ".join(
                ["recip_rank", "P.5,10", "P_5", "recall.100", "ndcg_cut.10", "success.1", "num_q"]))


def parse_measure(text: str, default_rel: int) -> Measure:
    """Parse one name such as ``RR@10`` or ``RR(rel=1)@10`` into a Measure.

    Raises ReljudgeError naming the measures that exist when the name is unknown
    or malformed.
    """
    t = _TREC_RE.match(text or "")
    if t:
        text = f"{t.group(1)}@{t.group(2)}"
    m = _NAME_RE.match(text or "")
    if not m:
        raise ReljudgeError(f"cannot read measure {text!r}; known measures: {_known()}")
    raw = m.group("name")
    name = _ALIASES.get(raw.lower())
    if name is None:
        raise ReljudgeError(f"unknown measure {raw!r} in {text!r}; known measures: {_known()}")
    takes_rel, _ = REGISTRY[name]
    rel: int | None = default_rel if takes_rel else None
    if name in NO_CUTOFF:
        if m.group("k") is not None or m.group("params"):
            raise ReljudgeError(f"measure {text!r}: {name} takes no cutoff and no parameter")
        return Measure(name, None, None)
    if m.group("k") is None and name not in CUTOFF_OPTIONAL:
        raise ReljudgeError(f"measure {text!r} needs a cutoff, e.g. {name}@10")
    try:
        k = None if m.group("k") is None else int(m.group("k"))
    except ValueError:
        raise ReljudgeError(f"measure {text!r}: cutoff {m.group('k')!r} is not a whole number") from None
    if k is not None and k < 1:
        raise ReljudgeError(f"measure {text!r}: cutoff must be at least 1")
    if k is not None and k > MAX_CUTOFF:
        raise ReljudgeError(f"measure {text!r}: cutoff {k} is too large (at most {MAX_CUTOFF})")
    params = (m.group("params") or "").strip()
    if params:
        for part in params.split(","):
            key, sep, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if key != "rel" or not sep:
                raise ReljudgeError(f"measure {text!r}: unknown parameter {part.strip()!r} (only rel=N exists)")
            if not takes_rel:
                raise ReljudgeError(f"measure {text!r}: {name} takes no rel= (its gain is the grade itself)")
            try:
                rel = int(value)
            except ValueError:
                raise ReljudgeError(f"measure {text!r}: rel={value!r} is not a whole number") from None
    return Measure(name, k, rel)


def parse_measures(texts, default_rel: int) -> list[Measure]:
    """Parse several names (each may also be comma-separated); duplicates dropped, order kept."""
    out: list[Measure] = []
    for text in texts:
        # split on commas that are not inside parentheses
        dot = _TREC_DOT_RE.match(text or "")
        if dot:
            # trec_eval: P.5,10 is P_5 and P_10
            text = ",".join(f"{dot.group(1)}_{k.strip()}" for k in dot.group(2).split(","))
        for piece in re.split(r",(?![^()]*\))", text):
            if piece.strip():
                mm = parse_measure(piece, default_rel)
                if mm not in out:
                    out.append(mm)
    if not out:
        raise ReljudgeError(f"no measure given; known measures: {_known()}")
    return out
