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
=========  ==========================================  =====================

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
}

# Spellings people type, mapped case-insensitively to the canonical name.
_ALIASES = {
    "rr": "RR", "mrr": "RR", "recip_rank": "RR",
    "ndcg": "nDCG", "ndcg_cut": "nDCG",
    "r": "R", "recall": "R",
    "p": "P", "precision": "P",
    "judged": "Judged",
}

_NAME_RE = re.compile(
    r"""^\s*(?P<name>[A-Za-z_]+)
        (?:\(\s*(?P<params>[^)]*)\))?
        (?:@(?P<k>[^\s()]+))?\s*$""",
    re.VERBOSE,
)
# trec_eval spellings with the cutoff after an underscore: P_5, recall_100, ndcg_cut_10
_TREC_RE = re.compile(r"^\s*(P|recall|ndcg_cut)_(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Measure:
    """A parsed measure: ``name`` (canonical), cutoff ``k``, threshold ``rel``.

    ``rel`` is None for measures that take no threshold (nDCG, Judged).
    """

    name: str
    k: int
    rel: int | None = None

    def __str__(self) -> str:
        if self.rel is None:
            return f"{self.name}@{self.k}"
        return f"{self.name}(rel={self.rel})@{self.k}"


def _known() -> str:
    return ", ".join(f"{n}@K" + ("" if not t else f" / {n}(rel=N)@K") for n, (t, _) in REGISTRY.items())


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
    if m.group("k") is None:
        raise ReljudgeError(f"measure {text!r} needs a cutoff, e.g. {name}@10")
    try:
        k = int(m.group("k"))
    except ValueError:
        raise ReljudgeError(f"measure {text!r}: cutoff {m.group('k')!r} is not a whole number") from None
    if k < 1:
        raise ReljudgeError(f"measure {text!r}: cutoff must be at least 1")
    if k > MAX_CUTOFF:
        raise ReljudgeError(f"measure {text!r}: cutoff {k} is too large (at most {MAX_CUTOFF})")
    takes_rel, _ = REGISTRY[name]
    rel: int | None = default_rel if takes_rel else None
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
        for piece in re.split(r",(?![^()]*\))", text):
            if piece.strip():
                mm = parse_measure(piece, default_rel)
                if mm not in out:
                    out.append(mm)
    if not out:
        raise ReljudgeError(f"no measure given; known measures: {_known()}")
    return out
