"""The reproducibility bundle reproduces every sampling estimate from its files (issue 36
§2; docs/sampling.md, "In the bundle"): under a sampling plan the bundle's ``sampling/``
folder holds the estimator's inputs and the estimates ``reljudge evaluate --format json``
prints, and its ``reproduce_estimates.py`` recomputes them — run as a user would, in a
subprocess from the bundle directory; a tampered grade makes it fail, naming the entry.
Without a sampling plan there is no ``sampling/``. The demo campaign, real DuckDB files."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import reljudge
from reljudge.campaign import bundle, plan
from reljudge.cli import main as cli
from reljudge.storage import open_database
from test_estimates_shown import _judged_template  # the one judged demo of the estimates tests

SRC = str(Path(reljudge.__file__).resolve().parents[1])
SAMPLING_FILES = {
    "sampling/draws.json",
    "sampling/grades.tsv",
    "sampling/certain.tsv",
    "sampling/bounds.tsv",
    "sampling/estimates.tsv",
    "sampling/estimate_means.tsv",
    "sampling/reproduce_estimates.py",
}


def _judged_file(demo_template, tmp_path_factory, label: str, name: str, **kw) -> Path:
    return _judged_template(demo_template, tmp_path_factory.mktemp(f"judged-{label}"), name, **kw)


@pytest.fixture(scope="module")
def sampled_file(demo_template, tmp_path_factory):
    """The demo judged under rr-first --then-sample 0.3 (seed 2), once per module."""
    return _judged_file(demo_template, tmp_path_factory, "sampled", "rr-first", sample=0.3, seed=2)


@pytest.fixture
def sampled(sampled_file, tmp_path):
    """A test's own copy of the sampled campaign: its path."""
    path = tmp_path / "sampled.duckdb"
    shutil.copy(sampled_file, path)
    return str(path)


def _export(path: str, out: Path, capsys) -> Path:
    code = cli.main(["--db", path, "export", "bundle", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    return out


def _reproduce(bundle_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "sampling/reproduce_estimates.py"],
        cwd=bundle_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _tsv(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _num(text: str):
    return None if text == "" else float(text)


@pytest.fixture
def exported(sampled, tmp_path, capsys):
    return _export(sampled, tmp_path / "bundle", capsys)


def test_the_script_reproduces_every_estimate(exported):
    files = {p.relative_to(exported).as_posix() for p in exported.rglob("*") if p.is_file()}
    assert SAMPLING_FILES <= files
    done = _reproduce(exported)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "largest absolute difference" in done.stdout
    assert "every estimate is reproduced" in done.stdout
    # it recomputed something: the estimates of every system × question × measure drawn
    n = len(_tsv(exported / "sampling" / "estimates.tsv"))
    assert n > 0 and f"({n} estimates" in done.stdout


def test_the_bundles_estimates_are_evaluates(sampled, exported, capsys):
    code = cli.main(["--db", sampled, "evaluate", "--format", "json", "-q"])
    out = capsys.readouterr()
    assert code == 0, out.err
    shown = json.loads(out.out)
    measures = json.loads((exported / "sampling" / "draws.json").read_text(encoding="utf-8"))["measures"]
    assert measures  # P, R, nDCG at the campaign's K
    from_json = {
        (e["system"], e["qid"], e["measure"]): e
        for e in shown["per_query"]
        if e["measure"] in measures and e.get("estimate") is not None
    }
    rows = _tsv(exported / "sampling" / "estimates.tsv")
    written = {(r["system"], r["qid"], r["measure"]): r for r in rows if r["estimate"] != ""}
    assert written and set(written) == set(from_json)
    for key, e in from_json.items():
        r = written[key]
        for c in ("estimate", "estimate_low", "estimate_high"):
            assert _num(r[c]) == pytest.approx(e[c], abs=1e-11), (key, c)
        assert bool(int(r["estimated"])) == e["estimated"]
    # some estimate is decided by the sample (else nothing here would be tested)
    assert any(r["estimated"] == "1" for r in written.values())
    # the means, overall and per question type
    means = {(m["system"], m["qtype"], m["measure"]): m for m in shown["means"] if m["measure"] in measures}
    mrows = _tsv(exported / "sampling" / "estimate_means.tsv")
    assert {(r["system"], r["qtype"], r["measure"]) for r in mrows} == set(means)
    for r in mrows:
        m = means[(r["system"], r["qtype"], r["measure"])]
        for c in ("estimate", "estimate_low", "estimate_high"):
            if m[c] is None:
                assert r[c] == ""
            else:
                assert _num(r[c]) == pytest.approx(m[c], abs=1e-11)
    assert any(r["qtype"] == "all" and r["estimate"] != "" for r in mrows)


def test_the_draws_and_grades_are_the_campaigns(sampled, exported):
    design = json.loads((exported / "sampling" / "draws.json").read_text(encoding="utf-8"))
    assert (design["rate"], design["seed"], design["allocation"]) == (0.3, 2, "proportional")
    db = open_database(sampled)
    try:
        stored = {d.qid: d.to_dict() for d in plan.draws_of(db)}
    finally:
        db.close()
    assert {d["qid"]: d for d in design["draws"]} == stored
    # every drawn item carries its inclusion probability, known ones 1
    for d in design["draws"]:
        for item, _, stratum, pi, _, known in d["items"]:
            assert 0 < pi <= 1 and (not known or (pi == 1 and stratum == 0)), (d["qid"], item)
    # the grades are qrels.txt's rows (items named as there), for the questions drawn
    qrels = {}
    for line in (exported / "qrels.txt").read_text(encoding="utf-8").splitlines():
        q, _, item, g = line.split()
        qrels[(q, item)] = int(g)
    grades = {(r["qid"], r["item"]): int(r["grade"]) for r in _tsv(exported / "sampling" / "grades.tsv")}
    answerable = {k: v for k, v in grades.items() if k[0] in {q for q, _ in qrels}}
    assert answerable and answerable == {k: v for k, v in qrels.items() if k[0] in {q for q, _ in answerable}}
    # every item taken as certain is graded (a function of the grades)
    certain = {(r["qid"], r["item"]) for r in _tsv(exported / "sampling" / "certain.tsv")}
    assert certain and certain <= set(grades)


def test_a_tampered_grade_makes_the_script_fail_naming_the_entry(exported):
    # the bundle as delivered reproduces; then one grade of a question that is estimated changes
    path = exported / "sampling" / "grades.tsv"
    rows = _tsv(path)
    estimated = {r["qid"] for r in _tsv(exported / "sampling" / "estimates.tsv") if r["estimated"] == "1"}
    certain = {(r["qid"], r["item"]) for r in _tsv(exported / "sampling" / "certain.tsv")}
    target = next(r for r in rows if r["qid"] in estimated and (r["qid"], r["item"]) not in certain)
    target["grade"] = "2" if target["grade"] == "0" else "0"
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["qid", "item", "grade"], delimiter="\t", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    done = _reproduce(exported)
    assert done.returncode != 0
    assert f"qid={target['qid']}" in done.stdout
    assert "differs: estimates.tsv" in done.stdout


def test_the_hash_listing_covers_the_sampling_files(exported):
    manifest = json.loads((exported / "manifest.json").read_text(encoding="utf-8"))
    assert SAMPLING_FILES <= set(manifest["sha256"])
    for rel in SAMPLING_FILES:
        assert manifest["sha256"][rel] == hashlib.sha256((exported / rel).read_bytes()).hexdigest()
    files = {p.relative_to(exported).as_posix(): p.read_bytes() for p in exported.rglob("*") if p.is_file()}
    assert bundle.content_hash(files) == manifest["bundle_sha256"]
    assert manifest["policies"]["estimates"]["files"].startswith("sampling/")


def test_the_bundle_is_the_same_built_twice(sampled):
    # no time in the new files: the hash is a function of the data
    db = open_database(sampled)
    try:
        a, b = bundle.build(db), bundle.build(db)
    finally:
        db.close()
    assert SAMPLING_FILES <= set(a.files)
    assert a.bundle_sha256 == b.bundle_sha256


def test_reproduce_md_says_what_is_estimated_and_how(exported):
    text = (exported / "REPRODUCE.md").read_text(encoding="utf-8")
    assert "```\n\n## Sampling estimates" in text  # a section of its own, after the others
    section = text[text.index("## Sampling estimates") :]
    assert "rate 0.3" in section and "seed 2" in section
    assert "python sampling/reproduce_estimates.py" in section
    assert "reljudge export qrels --format trec-sampled" in section and "sample_eval.pl" in section
    for m in json.loads((exported / "sampling" / "draws.json").read_text(encoding="utf-8"))["measures"]:
        assert f"`{m}`" in section


def test_without_a_sampling_plan_there_is_no_sampling_folder(demo_template, tmp_path_factory, tmp_path, capsys):
    path = _judged_file(demo_template, tmp_path_factory, "plain", "rr-first")
    out = _export(str(path), tmp_path / "bundle", capsys)
    assert not (out / "sampling").exists()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert not any(p.startswith("sampling/") for p in manifest["sha256"])
    assert "estimates" not in manifest["policies"]
    assert "Sampling estimates" not in (out / "REPRODUCE.md").read_text(encoding="utf-8")


def test_the_script_reproduces_under_dedup_keep(sampled, tmp_path):
    # under keep the runs name the returned ids; groups.tsv maps them to the estimator's groups
    db = open_database(sampled)
    try:
        built = bundle.build(db, dedup="keep")
    finally:
        db.close()
    assert "sampling/groups.tsv" in built.files and "sampling/groups.tsv" in built.manifest["sha256"]
    # the demo has copies: some returned id is not its group's (else the map would test nothing)
    assert len(built.files["sampling/groups.tsv"].decode().splitlines()) > 1
    out = tmp_path / "keep"
    bundle.write(built, out)
    done = _reproduce(out)
    assert done.returncode == 0, done.stdout + done.stderr
