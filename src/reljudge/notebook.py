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
read-only by default, or reaches it through the app that holds the file or a remote server
(``https://HOST`` with an API token), and gives its judgments, qrels and evaluation as the
same DataFrames whichever way (docs/served.md#노트북--notebooks-open_campaign-through-a-server).
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


#: What a Campaign gives, and the keyword arguments of each: the one table the local
#: object, the served one and the server's route (reljudge.web.api, ``POST /api/v1/frame``) read.
FRAMES = {
    "judgments": (),
    "events": (),
    "qrels": ("policy", "version", "include_no_answer"),
    "evaluate": ("measures", "policy", "version", "per_query"),
}


def campaign_frame(db, name: str, kwargs: dict) -> pd.DataFrame:
    """Frame ``name`` of :data:`FRAMES` of the open campaign ``db`` with ``kwargs`` (the
    one computation, whether the notebook opened the file or a server answers it)."""
    if name not in FRAMES or not set(kwargs) <= set(FRAMES[name]):
        raise TypeError(f"no frame {name!r} with {sorted(kwargs)}")
    if name == "judgments":
        return db.cursor().execute("SELECT * FROM current_judgments ORDER BY qid, pid, username").df()
    if name == "events":
        from reljudge.storage import qrels_io

        return qrels_io.raw_events(db)
    if name == "qrels":
        from reljudge.campaign import export

        return export.qrels_table(
            db,
            kwargs.get("policy", "adjudicated"),
            kwargs.get("version"),
            include_no_answer=bool(kwargs.get("include_no_answer", False)),
        )[0]
    from reljudge.campaign.evaluation import evaluate_campaign

    measures, per_query = kwargs.get("measures"), bool(kwargs.get("per_query", False))
    ev = evaluate_campaign(
        db,
        list(measures) if measures else None,
        policy=kwargs.get("policy", "adjudicated"),
        version=kwargs.get("version"),
        n_boot=0 if per_query else 1000,
        n_perm=0,
    )
    frame = ev.result.per_query if per_query else ev.result.means
    return frame.assign(measure=frame["measure"].map(str)).reset_index(drop=True)


class Campaign:
    """A campaign opened from a notebook (:func:`open_campaign`): its file, or a running
    app or remote server that answers for it (``db`` None then; the same frames, sent as
    Arrow). Close it (or use ``with``) to let the app or the CLI write the file again."""

    def __init__(self, db, served=None):
        self.db = db
        self._served = served

    def __enter__(self) -> "Campaign":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.db is not None:
            self.db.close()

    def _frame(self, name: str, **kwargs) -> pd.DataFrame:
        if self._served is not None:
            return self._served.frame(name, kwargs)
        return campaign_frame(self.db, name, kwargs)

    @property
    def judgments(self) -> pd.DataFrame:
        """Every annotator's current grade per (question, paragraph), and no-answer verdicts
        (``pid`` empty): the latest event of each."""
        return self._frame("judgments")

    @property
    def events(self) -> pd.DataFrame:
        """The append-only history of judgment events, oldest first."""
        return self._frame("events")

    def qrels(
        self, policy: str = "adjudicated", version: int | None = None, include_no_answer: bool = False
    ) -> pd.DataFrame:
        """The aggregated qrels (``qid``, ``pid``, ``grade``, provenance …) under ``policy``
        (adjudicated, majority, annotator:NAME, source:NAME) or a frozen ``version``;
        no-answer questions left out unless asked (as the export)."""
        return self._frame("qrels", policy=policy, version=version, include_no_answer=include_no_answer)

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
        return self._frame(
            "evaluate",
            measures=list(measures) if measures else None,
            policy=policy,
            version=version,
            per_query=per_query,
        )


def open_campaign(
    path_or_url, read_only: bool = True, campaign: str | None = None, token: str | None = None
) -> Campaign:
    """Open a campaign: a DuckDB file (which must exist: a mistyped path is refused, not
    created empty), a ``postgresql://`` URL, or a reljudge server's ``https://HOST[/BASE]``
    (``token``: an API token, default ``$RELJUDGE_TOKEN``; ``http://`` only to this
    machine). Read-only by default; DuckDB lets one process write a file, so a notebook
    that only reads does not stop the app from starting afterwards. A file the running
    app holds is read through the app (its runtime file, docs/served.md). The same
    DataFrames whichever way (sent as Arrow IPC through a server). ``campaign``: which
    campaign of the database (``reljudge --campaign``; default ``$RELJUDGE_CAMPAIGN``,
    else the default campaign; through a token, the token's)."""
    from reljudge.errors import DatabaseLockedError
    from reljudge.storage import open_database

    if path_or_url is None or (isinstance(path_or_url, str) and not path_or_url.strip()):
        raise ReljudgeError(CODES("error_open_campaign_target"))
    from reljudge.cli import remote

    if remote.is_remote(path_or_url):
        info = remote.parse(path_or_url)
        if not isinstance(info, remote.RemoteInfo):
            raise ReljudgeError(info)
        token = token or os.environ.get(remote.TOKEN_ENV, "").strip()
        if not token:
            raise ReljudgeError(remote.CODES("error_remote_no_token", var=remote.TOKEN_ENV))
        info = remote.RemoteInfo(info.host, info.port, info.base_path, info.url, info.tls, secret=token)
        return Campaign(None, ServedFrames(info, campaign))
    try:
        return Campaign(open_database(path_or_url, read_only=read_only, must_exist=True, campaign=campaign))
    except DatabaseLockedError:
        from reljudge.cli import forward
        from reljudge.storage.db import campaign_name

        info = forward.held_by_app(path_or_url) if read_only else None
        if info is None:
            raise
        return Campaign(None, ServedFrames(info, campaign_name(campaign)))


ARROW_STREAM = "application/vnd.apache.arrow.stream"
FRAME_ROUTE = "/api/v1/frame"


class ServedFrames:
    """A campaign's frames from the app that holds its file (``info``: its runtime file)
    or a remote server (reljudge.cli.remote.RemoteInfo with a token): ``POST
    /api/v1/frame``, answered as an Arrow IPC stream (not JSON rows), read back into the
    DataFrame the file would give."""

    def __init__(self, info, campaign: str | None):
        self.info, self.campaign = info, campaign

    def frame(self, name: str, kwargs: dict) -> pd.DataFrame:
        import json

        import pyarrow as pa

        from reljudge.cli import forward, remote
        from reljudge.codes import Message

        body = {"frame": name, "kwargs": kwargs, "campaign": self.campaign, "db": self.info.db}
        try:
            status, raw, kind = forward.send(self.info, json.dumps(body).encode("utf-8"), FRAME_ROUTE)
        except (OSError, forward._Lost):
            raise ReljudgeError(remote.CODES("error_remote_unreachable", url=self.info.url)) from None
        if status == 200 and kind.startswith(ARROW_STREAM):
            table = pa.ipc.open_stream(raw).read_all()
            frame = table.to_pandas()
            for column in json.loads((table.schema.metadata or {}).get(b"reljudge.na_columns", b"[]")):
                frame[column] = frame[column].where(frame[column].notna(), pd.NA)  # as the file gives them
            return frame
        try:
            answer = json.loads(raw or b"null")
        except ValueError:
            answer = None
        answer = answer if isinstance(answer, dict) else {}
        refused = answer.get("refused")
        if isinstance(refused, dict) and "code" in refused:  # the library's own refusal, as on the file
            raise ReljudgeError(Message.from_dict(refused))
        raise ReljudgeError(
            remote.CODES(
                "error_remote_refused",
                url=self.info.url,
                reason=str(answer.get("error") or f"HTTP {status}"),
                detail=str(answer.get("message") or ""),
            )
        )
