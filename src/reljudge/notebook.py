"""The front door for notebooks: ``reljudge.evaluate`` and ``reljudge.open_campaign``.

``evaluate`` scores one run against qrels, as ``reljudge evaluate --qrels`` does (the same
engine, the same numbers as trec_eval), on pandas DataFrames with ir_measures' column
names or on files::

    import pandas as pd, reljudge
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "relevance": [2, 0]})
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d2", "d1"], "score": [0.9, 0.5]})
    reljudge.evaluate(qrels, run, ["RR@10", "nDCG@10"])             # measure, value
    reljudge.evaluate("qrels.txt", "bm25.trec", "P@5", per_query=True)  # query_id, measure, value

``open_campaign`` opens a campaign database (a DuckDB file or a ``postgresql://`` URL),
read-only by default, and gives its judgments, qrels and evaluation as DataFrames.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import duckdb
import numpy as np
import pandas as pd

from reljudge.codes import Codes
from reljudge.eval import ranking
from reljudge.errors import ReljudgeError
from reljudge.eval.measures import parse_measures

CODES = Codes(
    error_frame_column=("what", "column", "has"),
    error_frame_relevance_whole=(),
    error_frame_judged_twice=("qid", "pid"),
    error_frame_no_score=(),
    error_frame_score_number=(),
    error_frame_ranked_twice=("qid", "pid"),
    error_frame_qrels_kind=(),
    error_frame_run_kind=(),
    error_open_campaign_target=(),
)
"""What this module can tell people: codes worded by reljudge.i18n."""

#: The relevance threshold when ``rel`` is not given: trec_eval's and ir_measures' (1).
#: A campaign's own threshold (2, directly citable) applies in :meth:`Campaign.evaluate`.
DEFAULT_REL = 1

# ir_measures' column names, and reljudge's own, for each role.
_QRELS_COLUMNS = {"qid": ("query_id", "qid"), "pid": ("doc_id", "pid", "docid"), "grade": ("relevance", "grade", "rel")}
_RUN_COLUMNS = {"qid": ("query_id", "qid"), "pid": ("doc_id", "pid", "docid"), "score": ("score",), "rank": ("rank",)}


def _columns(frame: pd.DataFrame, wanted: dict, what: str, optional: Sequence[str] = ()) -> dict[str, str]:
    found = {}
    for role, names in wanted.items():
        hit = next((n for n in names if n in frame.columns), None)
        if hit is None and role not in optional:
            raise ReljudgeError(
                CODES("error_frame_column", what=what, column=repr(names[0]), has=", ".join(map(str, frame.columns)))
            )
        if hit is not None:
            found[role] = hit
    return found


def _qrels_frame(frame: pd.DataFrame) -> pd.DataFrame:
    cols = _columns(frame, _QRELS_COLUMNS, "qrels")
    grades = pd.to_numeric(frame[cols["grade"]], errors="coerce")
    if grades.isna().any() or (grades != grades.round()).any():
        raise ReljudgeError(CODES("error_frame_relevance_whole"))
    out = pd.DataFrame(
        {"qid": frame[cols["qid"]].astype(str), "pid": frame[cols["pid"]].astype(str), "grade": grades.astype("int64")}
    )
    repeated = out.duplicated(["qid", "pid"], keep=False)
    if repeated.any():
        first = out[repeated].iloc[0]
        raise ReljudgeError(CODES("error_frame_judged_twice", qid=repr(first.qid), pid=repr(first.pid)))
    return out


def _run_frame(frame: pd.DataFrame) -> pd.DataFrame:
    cols = _columns(frame, _RUN_COLUMNS, "run", optional=("score", "rank"))
    if "score" not in cols and "rank" not in cols:
        raise ReljudgeError(CODES("error_frame_no_score"))
    out = pd.DataFrame({"system": "run", "qid": frame[cols["qid"]].astype(str), "pid": frame[cols["pid"]].astype(str)})
    out["score"] = pd.to_numeric(frame[cols["score"]], errors="coerce") if "score" in cols else np.nan
    out["rank"] = pd.to_numeric(frame[cols["rank"]], errors="coerce") if "rank" in cols else np.nan
    if "score" in cols and out.score.isna().any():
        raise ReljudgeError(CODES("error_frame_score_number"))
    repeated = out.duplicated(["qid", "pid"], keep=False)
    if repeated.any():
        first = out[repeated].iloc[0]
        raise ReljudgeError(CODES("error_frame_ranked_twice", qid=repr(first.qid), pid=repr(first.pid)))
    return out


def _caller_spelling(names: Sequence[str], default_rel: int) -> dict:
    """Each parsed measure's label: the caller's own text where one text names one measure
    (issue 39.9: ``P@5`` must not come back as ``P(rel=1)@5``), else reljudge's name."""
    labels: dict = {}
    for text in names:
        found = parse_measures([text], default_rel=default_rel)
        for m in found:
            labels.setdefault(m, text.strip() if len(found) == 1 else str(m))
    return labels


def _is_path(value) -> bool:
    return isinstance(value, (str, os.PathLike))


def evaluate(
    qrels,
    run,
    measures: str | Sequence[str],
    *,
    rel: int | None = None,
    ties: str = ranking.DEFAULT_TIES,
    per_query: bool = False,
) -> pd.DataFrame:
    """``run`` scored against ``qrels`` by ``measures`` (ir_measures names: ``"RR@10"``,
    ``"nDCG@10"``, ``"R@100"``, ``"P(rel=2)@5"`` …; trec_eval's too: ``"ndcg_cut.10"``).

    ``qrels``: a DataFrame with ``query_id``, ``doc_id``, ``relevance`` (ir_measures'
    names; reljudge's ``qid``, ``pid``, ``grade`` work too), or a TREC qrels file.
    ``run``: a DataFrame with ``query_id``, ``doc_id``, ``score`` (and/or ``rank``), or a
    run file (TREC, or the JSONL/CSV that ``reljudge import run`` reads).
    ``rel``: the relevance threshold of measures that do not name one (default 1, as
    trec_eval). ``ties``: how tied scores are ordered (``trec10``, trec_eval's rule;
    ``trec9``; ``ranked`` uses the rank column).

    Every qrels query counts and a query the run lacks scores 0 (``trec_eval -c``).
    Returns a DataFrame (``measure``, ``value``) of means, or with ``per_query`` one row
    per query and measure (``query_id``, ``measure``, ``value``). Measures keep the
    caller's spelling (``"P@5"`` stays ``P@5``, as ir_measures keeps it); a name that stands
    for several measures (``"P.5,10"``, ``"official"``) gives each its reljudge name."""
    from reljudge.cli.evaluate import as_trec_runs
    from reljudge.eval.metrics import per_query_values, summarise
    from reljudge.eval.measures import summary_of
    from reljudge.eval.trec_io import read_qrels, read_run
    import shutil
    import tempfile

    names = [measures] if isinstance(measures, str) else list(measures)
    parsed = parse_measures(names, default_rel=DEFAULT_REL if rel is None else int(rel))
    labels = _caller_spelling(names, DEFAULT_REL if rel is None else int(rel))
    con = duckdb.connect()
    folder = tempfile.mkdtemp(prefix="reljudge-notebook-")
    try:
        if _is_path(qrels):
            read_qrels(con, Path(qrels), "qrels")
        elif isinstance(qrels, pd.DataFrame):
            con.register("qrels_frame", _qrels_frame(qrels))
            con.execute("CREATE TABLE qrels AS SELECT * FROM qrels_frame")
        else:
            raise ReljudgeError(CODES("error_frame_qrels_kind"))
        if _is_path(run):
            read_run(con, as_trec_runs([os.fspath(run)], folder, ties)[0], "runs", system="run")
        elif isinstance(run, pd.DataFrame):
            con.register("run_frame", _run_frame(run))
            con.execute("CREATE TABLE runs AS SELECT * FROM run_frame")
        else:
            raise ReljudgeError(CODES("error_frame_run_kind"))
        result = per_query_values(
            con,
            "qrels",
            "runs",
            parsed,
            ties=ties,
            default_rel=DEFAULT_REL if rel is None else int(rel),
            systems=["run"],
        )
    finally:
        con.close()
        shutil.rmtree(folder, ignore_errors=True)
    rows = []
    for mi, m in enumerate(result.measures):
        col = result.values[0, :, mi] if len(result.systems) else np.zeros(0)
        if per_query:
            rows += [{"query_id": str(q), "measure": labels[m], "value": float(v)} for q, v in zip(result.qids, col)]
        else:
            value = summarise(col[:, None], np.array([summary_of(m)], dtype=object), 0, 0)[0][0] if len(col) else 0.0
            rows.append({"measure": labels[m], "value": float(value)})
    return pd.DataFrame(rows, columns=["query_id", "measure", "value"] if per_query else ["measure", "value"])


class Campaign:
    """A campaign database opened from a notebook (:func:`open_campaign`). Close it (or use
    ``with``) to let the app or the CLI write the file again."""

    def __init__(self, db):
        self.db = db

    def __enter__(self) -> "Campaign":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    @property
    def judgments(self) -> pd.DataFrame:
        """Every annotator's current grade per (question, paragraph), and no-answer verdicts
        (``pid`` empty): the latest event of each."""
        return self.db.cursor().execute("SELECT * FROM current_judgments ORDER BY qid, pid, username").df()

    @property
    def events(self) -> pd.DataFrame:
        """The append-only history of judgment events, oldest first."""
        from reljudge.storage import qrels_io

        return qrels_io.raw_events(self.db)

    def qrels(
        self, policy: str = "adjudicated", version: int | None = None, include_no_answer: bool = False
    ) -> pd.DataFrame:
        """The aggregated qrels (``qid``, ``pid``, ``grade``, provenance …) under ``policy``
        (adjudicated, majority, annotator:NAME, source:NAME) or a frozen ``version``;
        no-answer questions left out unless asked (as the export)."""
        from reljudge.campaign import export

        return export.qrels_table(self.db, policy, version, include_no_answer=include_no_answer)[0]

    def evaluate(
        self,
        measures: Sequence[str] | None = None,
        *,
        policy: str = "adjudicated",
        version: int | None = None,
        per_query: bool = False,
    ) -> pd.DataFrame:
        """The campaign's runs scored on its judgments, as the dashboard and ``reljudge
        evaluate`` (the campaign's threshold, tie and duplicate rules, no-answer questions
        left out of the means): means per system × question type with 95 % bootstrap
        intervals, or with ``per_query`` every question's value."""
        from reljudge.campaign.evaluation import evaluate_campaign

        ev = evaluate_campaign(
            self.db,
            list(measures) if measures else None,
            policy=policy,
            version=version,
            n_boot=0 if per_query else 1000,
            n_perm=0,
        )
        frame = ev.result.per_query if per_query else ev.result.means
        return frame.assign(measure=frame["measure"].map(str)).reset_index(drop=True)


def open_campaign(path_or_url, read_only: bool = True, campaign: str | None = None) -> Campaign:
    """Open a campaign: a DuckDB file (which must exist: a mistyped path is refused, not
    created empty) or a ``postgresql://`` URL. Read-only by default; DuckDB lets one
    process write a file, so a notebook that only reads does not stop the app from
    starting afterwards (while the app runs, open a copy, or use the team server).
    ``campaign``: which campaign of the database (``reljudge --campaign``; default
    ``$RELJUDGE_CAMPAIGN``, else the default campaign)."""
    from reljudge.storage import open_database

    if path_or_url is None or (isinstance(path_or_url, str) and not path_or_url.strip()):
        raise ReljudgeError(CODES("error_open_campaign_target"))
    return Campaign(open_database(path_or_url, read_only=read_only, must_exist=True, campaign=campaign))
