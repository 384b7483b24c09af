"""The reproducibility bundle reproduces every per-query value and mean with trec_eval
(pytrec-eval-terrier), under both duplicate policies, on a real DuckDB campaign with
duplicate paragraphs, tied scores, no-answer questions and abstentions."""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import pytrec_eval

from conftest import write_campaign_files
from reljudge.campaign import adjudication
from reljudge.campaign import auth
from reljudge.campaign import bundle
from reljudge.campaign import setup as campaign
from reljudge.campaign import evaluation
from reljudge.campaign import judging
from reljudge.reporting import report
from reljudge.errors import ReljudgeError
from reljudge.storage import catalog

# hybrid: float32 ties (0.5 and 0.500000001 tie, then pid descending), exact ties, copies
# of one duplicate group (p01 / p06 / p07 have the same normalised text), abstentions
# with and without ranking rows, and no rows at all for q2 (missing: scores 0)
HYBRID = [
    {"qid": "q1", "pid": "p02", "score": 0.500000001},
    {"qid": "q1", "pid": "p03", "score": 0.5},
    {"qid": "q1", "pid": "p06", "score": 0.5},
    {"qid": "q1", "pid": "p01", "score": 0.4},
    {"qid": "q1", "pid": "p05", "score": 0.4},
    {"qid": "q1", "pid": "p07", "score": 0.3},
    {"qid": "q2", "abstained": True},
    {"qid": "q3", "abstained": True, "pid": "p08", "score": 1.0},
    {"qid": "q4", "pid": "p04", "score": 2.0},
    {"qid": "q4", "pid": "p05", "score": 2.0},
    {"qid": "q4", "abstained": True},
]
Q4 = {"qid": "q4", "text": "용서는 누구를 위한 것인가?", "type": "사실 확인", "criteria": "용서의 목적"}


@pytest.fixture
def bundled(db, tmp_path):
    files = write_campaign_files(tmp_path / "in")
    with open(files["questions"], "a", encoding="utf-8") as fh:
        fh.write(json.dumps(Q4, ensure_ascii=False) + "\n")
    hybrid = tmp_path / "in" / "hybrid.jsonl"
    hybrid.write_text("".join(json.dumps({**r, "system": "hybrid"}) + "\n" for r in HYBRID), encoding="utf-8")
    for kind, path in [
        ("corpus", files["corpus"]),
        ("questions", files["questions"]),
        ("run", files["run_a"]),
        ("run", files["run_b"]),
        ("run", hybrid),
    ]:
        campaign.import_file(db, kind, path)
    campaign.pool(db, 10)
    auth.add_user(db, "ann", "password-ann", "annotator")
    auth.add_user(db, "bob", "password-bob", "annotator")
    for user, qid, pid, grade in [
        ("ann", "q1", "p02", 2),
        ("bob", "q1", "p02", 2),
        ("ann", "q1", "p01", 2),
        ("bob", "q1", "p01", 2),
        ("ann", "q1", "p03", 0),
        ("ann", "q1", "p08", 1),
        ("ann", "q2", "p04", 1),
        ("ann", "q2", "p05", 2),
        ("ann", "q4", "p04", 2),
        ("ann", "q4", "p05", 1),
    ]:
        judging.grade(db, user, qid, pid, grade)
    judging.mark_no_answer(db, "ann", "q3", True)
    judging.mark_no_answer(db, "bob", "q3", True)
    # a lead rules q4 has no answer although a paragraph was graded citable: a no-answer
    # question with non-zero values, which the bundle must still reproduce
    adjudication.adjudicate_verdict(db, "lee", "q4", True, "p04는 질문의 전제를 다룰 뿐")
    return db


def _read_qrels(path: Path) -> dict:
    qrels: dict = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, zero, docid, grade = line.split()
        assert zero == "0"
        qrels.setdefault(qid, {})[docid] = int(grade)
    return qrels


def _read_run(path: Path) -> dict:
    """{qid: [(docid, score)]} — the rank column is not read: the scores alone must order it."""
    run: dict = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, q0, docid, _rank, score, _tag = line.split()
        assert q0 == "Q0"
        run.setdefault(qid, []).append((docid, float(score)))
    return run


def _cut(run: dict, k: int) -> dict:
    # what trec_eval -M K does: keep each ranking's K best by score
    return {q: dict(sorted(rows, key=lambda r: -r[1])[:k]) for q, rows in run.items()}


def run_scores(run: dict) -> dict:
    return {q: dict(rows) for q, rows in run.items()}


def _trec_eval(qrels: dict, judged: dict, run: dict, name: str, k: int, rel: int) -> dict[str, float]:
    """trec_eval -c -q of one reljudge measure (the mapping the bundle documents)."""
    if name == "RR":
        measure, level, r, key = "recip_rank", rel, _cut(run, k), "recip_rank"
    elif name == "nDCG":
        measure, level, r, key = f"ndcg_cut.{k}", rel, _cut(run, 10**6), f"ndcg_cut_{k}"
    elif name == "Judged":
        # P@K on qrels_judged.txt (every judged paragraph relevant), as REPRODUCE.md says
        res = pytrec_eval.RelevanceEvaluator(judged, {f"P.{k}"}, relevance_level=1).evaluate(run_scores(run))
        return {q: res.get(q, {}).get(f"P_{k}", 0.0) for q in qrels}
    else:
        fam = {"P": "P", "R": "recall"}[name]
        measure, level, r, key = f"{fam}.{k}", rel, _cut(run, 10**6), f"{fam}_{k}"
    res = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=level).evaluate(r)
    return {q: res.get(q, {}).get(key, 0.0) for q in qrels}  # -c: missing = 0


def _parse(measure: str) -> tuple[str, int]:
    m = re.fullmatch(r"(\w+)(?:\(rel=\d+\))?@(\d+)", measure)
    return m.group(1), int(m.group(2))


@pytest.mark.parametrize(
    "ties,dedup",
    [
        ("trec10", "first"),
        ("trec9", "keep"),
        ("trec9", "first"),
        ("trec10", "keep"),
        ("ranked", "first"),
        ("ranked", "keep"),
    ],
)
def test_bundle_reproduces_every_value_with_trec_eval(bundled, tmp_path, ties, dedup):
    db = bundled
    catalog.set_setting(db, "ties", ties)
    ev = evaluation.evaluate_campaign(db, dedup=dedup, n_boot=0, n_perm=0)
    out = tmp_path / f"bundle-{dedup}"
    built = bundle.build(db, dedup=dedup)
    bundle.write(built, out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["policies"]["dedup"] == dedup and manifest["policies"]["ties"] == ties
    threshold = manifest["policies"]["relevance_threshold"]
    assert threshold == ev.threshold == 2

    no_answer = (out / "no_answer.txt").read_text(encoding="utf-8").split()
    assert no_answer == ["q3", "q4"] == sorted(ev.no_answer_qids)
    pq = ev.result.per_query
    checked = nonzero_na = 0
    for system, stem in ((s, Path(f).stem) for s, f in manifest["systems"].items()):
        for part, qrels_path, run_path, qids in [
            ("answerable", out / "qrels.txt", out / "runs" / f"{stem}.txt", None),
            ("no_answer", out / "no_answer" / "qrels.txt", out / "no_answer" / "runs" / f"{stem}.txt", no_answer),
        ]:
            qrels = _read_qrels(qrels_path)
            judged = _read_qrels(qrels_path.with_name("qrels_judged.txt"))
            assert judged == {q: {d: 1 for d in docs} for q, docs in qrels.items()}
            run = _read_run(run_path)
            # any tool ranks the rows the same: the scores strictly decrease within a ranking
            for rows in run.values():
                scores = [s for _, s in rows]
                assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
                assert len({d for d, _ in rows}) == len(rows)
            for measure in ev.result.measures:
                name, k = _parse(str(measure))
                ref = _trec_eval(qrels, judged, run, name, k, threshold)
                ours = pq[
                    (pq.system == system) & (pq.measure == str(measure)) & (pq.no_answer == (part == "no_answer"))
                ].set_index("qid")["value"]
                if part == "answerable":
                    # plain trec_eval -c over the files gives every answerable question, and the mean
                    assert set(ours.index) == set(ref)
                    assert ev.result.mean(system, measure) == pytest.approx(np.mean(list(ref.values())), abs=1e-12)
                else:
                    # a no-answer question without judged rows is not in the qrels file: it scores 0
                    assert set(ours.index) == set(qids)
                    nonzero_na += sum(v > 0 for v in ref.values())
                    ref = {q: ref.get(q, 0.0) for q in qids}
                    na_mean = ev.result.means_no_answer
                    hit = na_mean[
                        (na_mean.system == system) & (na_mean.measure == str(measure)) & (na_mean.qtype == "all")
                    ]["mean"].iloc[0]
                    assert hit == pytest.approx(sum(ref.values()) / len(no_answer), abs=1e-12)
                for q, v in ref.items():
                    assert ours[q] == pytest.approx(v, abs=1e-12), (system, q, str(measure), dedup)
                    checked += 1
    assert checked == len(pq)  # every per-query value was reproduced
    assert nonzero_na > 0  # q4: the no-answer part is not vacuous

    # the bundle's own tables hold the same values as reljudge's evaluation result
    table = pd.read_csv(out / "per_query.tsv", sep="\t", dtype={"qid": str})
    merged = table.merge(
        pq.assign(no_answer=pq.no_answer.astype(int)),
        on=["system", "qid", "measure", "qtype", "no_answer"],
        suffixes=("", "_ev"),
    )
    assert len(merged) == len(table) == len(pq)
    np.testing.assert_allclose(merged.value, merged.value_ev, rtol=1e-11, atol=1e-12)
    means = pd.read_csv(out / "means.tsv", sep="\t")
    answerable = means[means.questions == "answerable"].merge(ev.result.means, on=["system", "qtype", "measure", "n"])
    assert len(answerable) == len(ev.result.means)
    np.testing.assert_allclose(answerable["mean_x"], answerable["mean_y"], rtol=1e-11, atol=1e-12)

    # the report's shares follow from the per-query values as REPRODUCE.md says
    k = max(manifest["policies"]["ks"])
    shares = ev.result.shares.set_index(["system", "qtype", "k"])
    answerable_pq = pq[~pq.no_answer]
    for system in ev.result.systems:
        row = shares.loc[(system, "all", k)]
        rr = {
            kk: answerable_pq[(answerable_pq.system == system) & (answerable_pq.measure == f"RR(rel=2)@{kk}")].value
            for kk in (1, 3, k)
        }
        assert row.rank1 == pytest.approx((rr[1] == 1).mean())
        assert row.top3 == pytest.approx((rr[3] >= 1 / 3 - 1e-12).mean())
        assert row.not_found == pytest.approx((rr[k] == 0).mean())

    # abstentions: every one the rates count, and the rates follow from the files
    abst = pd.read_csv(out / "abstentions.tsv", sep="\t")
    assert sorted(map(tuple, abst[["system", "qid", "no_answer"]].values.tolist())) == [
        ("hybrid", "q2", 0),
        ("hybrid", "q3", 1),
        ("hybrid", "q4", 1),
    ]
    rates = ev.result.abstention.set_index(["system", "qtype"]).loc[("hybrid", "all")]
    n_answerable = len(set(_read_qrels(out / "qrels.txt")))
    assert rates.appropriate_rate == pytest.approx(abst.no_answer.sum() / len(no_answer))
    assert rates.false_rate == pytest.approx((abst.no_answer == 0).sum() / n_answerable)

    # every file's sha256 is in the manifest, and the bundle hash is the documented listing
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert sorted(manifest["sha256"]) == [f for f in files if f != "manifest.json"]
    for f, digest in manifest["sha256"].items():
        assert hashlib.sha256((out / f).read_bytes()).hexdigest() == digest
    check = subprocess.run(
        "find . -type f ! -name manifest.json -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum",
        shell=True,
        cwd=out,
        capture_output=True,
        text=True,
        check=True,
    )
    assert check.stdout.split()[0] == manifest["bundle_sha256"] == built.bundle_sha256
    for key in ("reljudge", "duckdb", "python", "created"):
        assert manifest[key]
    assert manifest["policies"]["ks"] == [1, 3, 5, 10] and manifest["policies"]["qrels_policy"] == "adjudicated"


def test_bundle_files_follow_the_duplicate_policy_and_tie_rule(bundled, tmp_path):
    catalog.set_setting(bundled, "ties", "trec9")  # scores compared as float32
    first, keep = bundle.build(bundled, dedup="first"), bundle.build(bundled, dedup="keep")
    hybrid_first = first.files["runs/hybrid.txt"].decode().splitlines()
    hybrid_keep = keep.files["runs/hybrid.txt"].decode().splitlines()
    # float32: 0.500000001 ties 0.5, so id descending decides: p06, p03, p02; then p05, p01 (0.4), p07
    assert [line.split()[2] for line in hybrid_keep if line.startswith("q1 ")] == [
        "p06",
        "p03",
        "p02",
        "p05",
        "p01",
        "p07",
    ]
    # first: p06's group is named by its first paragraph p01; later copies removed, ranks closed up
    assert [line.split()[2:4] for line in hybrid_first if line.startswith("q1 ")] == [
        ["p01", "1"],
        ["p03", "2"],
        ["p02", "3"],
        ["p05", "4"],
    ]
    assert hybrid_first[0].split()[4] == "10"  # score = depth + 1 - rank
    # bm25 ranks p01 2nd and p06 3rd at equal scores: the trec rule ignores the rank column
    bm25_keep = keep.files["runs/bm25.txt"].decode().splitlines()
    assert [line.split()[2] for line in bm25_keep if line.startswith("q1 ")] == ["p02", "p06", "p01", "p03"]
    q_first = set(first.files["qrels.txt"].decode().splitlines())
    q_keep = set(keep.files["qrels.txt"].decode().splitlines())
    assert "q1 0 p01 2" in q_first and not {"q1 0 p06 2", "q1 0 p07 2"} & q_first
    assert {"q1 0 p01 2", "q1 0 p06 2", "q1 0 p07 2"} <= q_keep
    assert not any(line.startswith(("q3 ", "q4 ")) for line in q_first | q_keep)
    assert keep.files["no_answer/qrels.txt"].decode().splitlines() == ["q4 0 p04 2", "q4 0 p05 1"]
    assert "dedup=keep" not in first.files["REPRODUCE.md"].decode()
    assert first.bundle_sha256 != keep.bundle_sha256
    # the download is a zip of the same files
    with zipfile.ZipFile(io.BytesIO(bundle.zip_bytes(first))) as z:
        assert sorted(z.namelist()) == sorted(f"bundle/{p}" for p in first.all_files())
        assert z.read("bundle/runs/hybrid.txt") == first.files["runs/hybrid.txt"]
    # the same data and policies give the same bundle hash
    assert bundle.build(bundled, dedup="first").bundle_sha256 == first.bundle_sha256
    # under ties=ranked the rank column orders them
    catalog.set_setting(bundled, "ties", "ranked")
    bm25_ranked = bundle.build(bundled, dedup="keep").files["runs/bm25.txt"].decode().splitlines()
    assert [line.split()[2] for line in bm25_ranked if line.startswith("q1 ")] == ["p02", "p01", "p06", "p03"]


def test_reproduce_md_pytrec_eval_lines_give_the_numbers(bundled, tmp_path):
    out = tmp_path / "b"
    built = bundle.build(bundled)
    bundle.write(built, out)
    text = (out / "REPRODUCE.md").read_text(encoding="utf-8")
    assert "trec_eval -c -l 2 -M 10 -m recip_rank qrels.txt runs/bm25.txt" in text
    assert "trec_eval -c -l 1 -m P.1,3,5,10 qrels_judged.txt runs/hybrid.txt" in text
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    result = subprocess.run([sys.executable, "-c", code], cwd=out, capture_output=True, text=True, check=True)
    mean = float(result.stdout.split()[-1])
    ev = evaluation.evaluate_campaign(bundled, n_boot=0, n_perm=0)
    assert mean == pytest.approx(ev.result.mean("bm25", "RR(rel=2)@10"), abs=1e-12)


def test_report_names_the_bundle_hash_of_its_data(bundled, tmp_path):
    data = report.build(bundled, n_boot=50)
    built = bundle.build(bundled)
    assert data.bundle_sha256 == built.bundle_sha256
    md = report.render(data, "md")
    assert built.bundle_sha256 in md and "reljudge export bundle" in md
    judging.grade(bundled, "bob", "q2", "p05", 0)  # new data, new hash
    assert report.build(bundled, n_boot=50).bundle_sha256 != built.bundle_sha256


def test_cli_export_bundle(bundled, db_path, tmp_path):
    bundled.close()
    out = tmp_path / "cli-bundle"

    def cli(*args):
        return subprocess.run(
            [sys.executable, "-m", "reljudge", "--db", str(db_path), "export", "bundle", *args],
            capture_output=True,
            text=True,
        )

    done = cli("-o", str(out), "--dedup", "keep")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["policies"]["dedup"] == "keep" and manifest["bundle_sha256"] in done.stdout
    assert (out / "runs" / "vector.txt").exists() and (out / "REPRODUCE.md").exists()
    assert cli("-o", str(out), "--dedup", "keep").returncode == 0  # same bundle again: replaced
    (out / "stray.txt").write_text("x")
    refused = cli("-o", str(out))
    assert refused.returncode == 2 and "stray.txt" in refused.stderr
    assert cli("-o", str(tmp_path / "x"), "--version", "7").stderr.strip() == "error: no qrels version 7"
    assert "--format" in cli("-o", str(tmp_path / "y"), "--format", "csv").stderr


def test_unsafe_system_names_get_safe_file_names():
    assert bundle._system_files(["bm25", "BM25", "벡터 RAG", "a/b", "ok-1.x"]) == {
        "bm25": "bm25",
        "BM25": "system2",
        "벡터 RAG": "system3",
        "a/b": "system4",
        "ok-1.x": "ok-1.x",
    }
    with pytest.raises(ReljudgeError):
        bundle.write(bundle.Bundle({}, {}, ""), Path(__file__))  # a file, not a directory


def test_bundle_of_a_frozen_version_is_that_version_and_the_report_names_it(bundled):
    version = adjudication.freeze(bundled, "lee", "adjudicated", "before the change")
    judging.grade(bundled, "bob", "q2", "p05", 0)  # the live judgments move on
    judging.grade(bundled, "ann", "q2", "p05", 0)
    frozen, live = bundle.build(bundled, version=version), bundle.build(bundled)
    assert frozen.manifest["policies"]["qrels_version"] == version
    assert "q2 0 p05 2" in frozen.files["qrels.txt"].decode().splitlines()
    assert "q2 0 p05 0" in live.files["qrels.txt"].decode().splitlines()
    ev = evaluation.evaluate_campaign(bundled, version=version, n_boot=0, n_perm=0)
    table = pd.read_csv(io.BytesIO(frozen.files["per_query.tsv"]), sep="\t", dtype={"qid": str})
    np.testing.assert_allclose(table.value, ev.result.per_query.value, rtol=1e-11, atol=1e-12)
    data = report.build(bundled, version=version, n_boot=20)
    assert data.bundle_sha256 == frozen.bundle_sha256 != live.bundle_sha256
    assert f"reljudge export bundle -o DIR --version {version}" in report.render(data, "md")
