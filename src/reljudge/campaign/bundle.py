"""The reproducibility bundle: qrels and runs exactly as evaluated, with the
``trec_eval`` command lines that give every number (docs/trec-eval.md#재현-번들--reproducibility-bundle).

Layout of ``DIR`` (``reljudge export bundle -o DIR``; a zip of it on the export page)::

    qrels.txt                  the answerable questions' qrels as evaluated (qid 0 docid grade)
    qrels_judged.txt           the same rows with grade 1 (Judged@K is P@K on it)
    runs/NAME.txt              one TREC run per system: its rankings of those questions as evaluated
    no_answer.txt              the no-answer questions, one qid a line
    no_answer/qrels.txt        their judged rows (a lead may rule "no answer" over a citable grade)
    no_answer/qrels_judged.txt the same rows with grade 1
    no_answer/runs/NAME.txt    the systems' rankings of them
    abstentions.tsv            system, qid, no_answer: every abstention the rates count
    per_query.tsv              system, qid, qtype, no_answer, measure, value: every value reljudge computed
    means.tsv                  system, qtype, questions (answerable | no_answer), measure, n, mean
    REPRODUCE.md               the trec_eval command lines (and pytrec_eval lines) for each number
    sampling/                  under a sampling plan only: the estimator's inputs and the estimates
                               (draws.json, grades.tsv, certain.tsv, bounds.tsv, estimates.tsv,
                               estimate_means.tsv; groups.tsv under dedup=keep) and
                               reproduce_estimates.py, which recomputes every estimate from them
    manifest.json              versions, policies, creation time, sha256 of every file, bundle_sha256

"Exactly as evaluated" means the files hold what the metric engine reads, staged by
the same functions (:func:`reljudge.campaign.evaluation.stage_inputs`) and ranked by the one
ranking rule (:mod:`reljudge.eval.ranking`):

* items: under ``dedup=first`` a ranking's items are duplicate groups, so qrels and
  runs name each group by its first paragraph (the canonical id) and a run holds
  each group once, later copies removed and ranks closed up; under ``keep`` they
  are the ids the systems returned, every copy at its own rank, and the qrels name
  every copy of a judged group with the group's grade;
* each ranking is cut at the depth the engine reads (the largest K, at least 3)
  in the order of the campaign's tie rule, and its scores are rewritten as
  ``depth + 1 - rank``: strictly decreasing whole numbers, so trec_eval's own order
  (score descending, then docid) is the evaluated order and every tool agrees;
* the answerable questions and the no-answer questions are in separate files, so
  that plain ``trec_eval -c`` on ``qrels.txt`` averages over exactly the questions
  the report's means use.

The bundle's hash (``bundle_sha256``) is the sha256 of the ``sha256sum`` listing
(``<sha256>  <path>``, one line per file, sorted by path) of every file except
``manifest.json``.  Those files depend only on the data and the policies — no
time, no versions — so the report, built from the same data under the same
policies, names the same hash (:func:`content_hash`).  Check a bundle with::

    cd DIR && find . -type f ! -name manifest.json -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum
"""

from __future__ import annotations

import hashlib
import io
import json
import platform
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from reljudge import __version__, times
from reljudge.policy import Policy
from reljudge.storage import quality as quality_store
from reljudge.campaign import adjudication
from reljudge.campaign import evaluation
from reljudge.campaign import plan
from reljudge.eval import ranking, trec_io
from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.eval.measures import REGISTRY, Measure
from reljudge.eval.metrics import ranking_depth
from reljudge.storage import catalog, evaluation_inputs
from reljudge.storage.db import Database

MANIFEST = "manifest.json"
QRELS = "qrels.txt"
QRELS_JUDGED = "qrels_judged.txt"
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


@dataclass
class Bundle:
    files: dict[str, bytes]  # path inside the bundle -> content; every file but the manifest
    manifest: dict
    bundle_sha256: str

    def all_files(self) -> dict[str, bytes]:
        return {**self.files, MANIFEST: _json_bytes(self.manifest)}


# -- trec_eval equivalents --------------------------------------------------------------


#: the measure families the bundle reproduces with trec_eval (with Judged, on qrels_judged.txt)
BUNDLED_FAMILIES = ("RR", "P", "R", "nDCG")


def trec_eval_measure(m: Measure) -> tuple[str, str, str]:
    """(qrels file, trec_eval options, trec_eval measure) giving ``m`` per question on
    the bundle's files; the measure is written as ``-m`` takes it (``P.10``), and
    trec_eval prints it with ``_`` (``P_10``).  RR@K is ``recip_rank`` on the run cut
    at K (``-M K``); Judged@K is ``P_K`` on ``qrels_judged.txt``, where every judged
    paragraph has grade 1 (pytrec_eval refuses ``-l 0``)."""
    k = int(m.k)
    if m.name == "Judged":
        return QRELS_JUDGED, "-l 1", f"P.{k}"
    family = REGISTRY.get(m.name)
    # only the families whose per-question value trec_eval gives at a cutoff K (the
    # registry's trec_eval name); the bundle's tests check each against pytrec_eval
    if family is not None and family.name in BUNDLED_FAMILIES and family.trec:
        level = [f"-l {m.rel}"] if family.takes_rel else []
        if family.trec_name(m) is None:  # no cutoff of its own in trec_eval (recip_rank): cut the run
            return QRELS, " ".join([*level, f"-M {k}"]), family.trec
        return QRELS, " ".join(level), f"{family.trec}.{k}"
    raise ReljudgeError(CODES("error_bundle_no_equivalent", measure=str(m)))


def _command_groups(measures: list[Measure]) -> list[tuple[str, str, list[str], list[str]]]:
    """(qrels file, options, -m arguments, reljudge measures) — one trec_eval call each."""
    groups: dict[tuple[str, str], dict[str, list]] = {}
    for m in measures:
        qrels, opts, name = trec_eval_measure(m)
        fam, _, k = name.partition(".")
        g = groups.setdefault((qrels, opts), {})
        g.setdefault(fam, []).append((k, str(m)))
    out = []
    for (qrels, opts), fams in groups.items():
        args, names = [], []
        for fam, items in fams.items():
            ks = [k for k, _ in items if k]
            args.append(f"{fam}.{','.join(ks)}" if ks else fam)
            names += [n for _, n in items]
        out.append((qrels, opts, args, names))
    return out


# -- building ----------------------------------------------------------------------------


def _system_files(systems: list[str]) -> dict[str, str]:
    """system -> file stem: the name itself when it is a safe ASCII file name, unique
    also on case-insensitive file systems; otherwise ``systemN``."""
    taken: set[str] = set()
    out = {}
    for i, s in enumerate(systems, 1):
        stem = s if _SAFE.fullmatch(s) and s.lower() not in taken else f"system{i}"
        while stem.lower() in taken:
            stem += "_"
        taken.add(stem.lower())
        out[s] = stem
    return out


def _tsv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(sep="\t", index=False, lineterminator="\n").encode("utf-8")


def _value(v: float) -> str:
    # 12 significant digits: every digit the engine's doubles carry for these ratios,
    # and no last-bit noise of a summation order to change the bundle's hash
    return "" if pd.isna(v) else f"{float(v):.12g}"


def _qrels_text(rows: pd.DataFrame) -> bytes:
    return trec_io.qrels_text(zip(rows.qid, rows.pid, rows.grade)).encode("utf-8")


CODES = Codes(
    error_id_has_space=("column", "value"),
    error_bundle_no_equivalent=("measure",),
    error_not_a_directory=("path",),
    error_bundle_stray_files=("path", "files", "more"),
)
"""The error a bundle of the export page can meet (worded by the page)."""


def _run_text(rows: pd.DataFrame, tag: str, depth: int) -> bytes:
    return trec_io.run_text(zip(rows.qid, rows.docid, rows["rank"]), tag, depth).encode("utf-8")


def _check_ids(*frames_cols) -> None:
    for frame, cols in frames_cols:
        for c in cols:
            bad = frame[c][frame[c].astype(str).str.contains(r"\s", regex=True)]
            if len(bad):
                raise ReljudgeError(CODES("error_id_has_space", column=c, value=str(bad.iloc[0])))


def build(
    db: Database,
    policy: str = "adjudicated",
    version: int | None = None,
    dedup: str | None = None,
    ev: evaluation.CampaignEvaluation | None = None,
) -> Bundle:
    """The bundle of the campaign evaluated under ``policy``/``version``/``dedup``
    (default: the campaign's settings), or of the evaluation ``ev`` (the report passes
    its own, so that it names the hash of the bundle of its figures)."""
    if ev is None:
        ev = evaluation.evaluate_campaign(db, policy=policy, version=version, dedup=dedup, n_boot=0, n_perm=0)
    r = ev.result
    ties, dedup = r.policies["ties"], r.policies["dedup"]
    measures = list(r.measures)
    groups = _command_groups(measures)  # refuses a measure trec_eval cannot give
    depth = ranking_depth(measures)

    cur = db.cursor()
    staged = evaluation.stage_inputs(cur, ev.policy, ev.threshold, ev.version, dedup)
    qrels = evaluation_inputs.evaluated_qrels(cur, staged.items)
    no_answer = sorted(set(ev.no_answer_qids))
    evaluated = sorted(set(qrels.qid) | set(no_answer))
    runs = evaluation_inputs.evaluated_rankings(cur, staged.run, ties, dedup, depth, evaluated)
    abst = evaluation_inputs.abstentions(db)
    _check_ids((qrels, ["qid", "pid"]), (runs, ["qid", "docid"]))

    systems = list(r.systems)
    stems = _system_files(systems)
    na = set(no_answer)
    files: dict[str, bytes] = {}
    judged = qrels.assign(grade=1)
    files[QRELS] = _qrels_text(qrels[~qrels.qid.isin(na)])
    files[QRELS_JUDGED] = _qrels_text(judged[~judged.qid.isin(na)])
    files[f"no_answer/{QRELS}"] = _qrels_text(qrels[qrels.qid.isin(na)])
    files[f"no_answer/{QRELS_JUDGED}"] = _qrels_text(judged[judged.qid.isin(na)])
    files["no_answer.txt"] = "".join(f"{q}\n" for q in no_answer).encode("utf-8")
    for s in systems:
        rows = runs[runs.system == s]
        tag = s if not re.search(r"\s", s) else stems[s]
        files[f"runs/{stems[s]}.txt"] = _run_text(rows[~rows.qid.isin(na)], tag, depth)
        files[f"no_answer/runs/{stems[s]}.txt"] = _run_text(rows[rows.qid.isin(na)], tag, depth)

    # the abstentions the rates count: of the evaluated systems, on evaluated questions
    abst = abst[abst.system.isin(systems) & abst.qid.isin(evaluated)].drop_duplicates()
    abst = abst.assign(no_answer=abst.qid.isin(na).astype(int)).sort_values(["system", "qid"])
    files["abstentions.tsv"] = _tsv(abst[["system", "qid", "no_answer"]])

    pq = r.per_query.assign(no_answer=r.per_query.no_answer.astype(int), value=r.per_query.value.map(_value))
    files["per_query.tsv"] = _tsv(pq[["system", "qid", "qtype", "no_answer", "measure", "value"]])
    means = pd.concat(
        [
            r.means.assign(questions="answerable")[["system", "qtype", "questions", "measure", "n", "mean"]],
            r.means_no_answer.assign(questions="no_answer")[["system", "qtype", "questions", "measure", "n", "mean"]],
        ],
        ignore_index=True,
    )
    files["means.tsv"] = _tsv(means.assign(mean=means["mean"].map(_value)))
    if r.bounds is not None:
        # how far the unjudged pooled paragraphs could still move each figure (reljudge.eval.bounds);
        # questions nobody has judged yet are here too (they are in no qrels file)
        b = r.bounds.assign(
            no_answer=r.bounds.no_answer.astype(int),
            judged=r.bounds.judged.astype(int),
            settled=r.bounds.settled.astype(int),
            bound_low=r.bounds.bound_low.map(_value),
            bound_high=r.bounds.bound_high.map(_value),
        )
        files["bounds.tsv"] = _tsv(
            b[
                [
                    "system",
                    "qid",
                    "qtype",
                    "no_answer",
                    "judged",
                    "measure",
                    "bound_low",
                    "bound_high",
                    "settled",
                    "n_open",
                ]
            ]
        )
        bm = r.means[["system", "qtype", "measure", "n_bounded", "bound_low", "bound_high", "settled", "n_open"]]
        files["bounds_means.tsv"] = _tsv(
            bm.assign(
                bound_low=bm.bound_low.map(_value),
                bound_high=bm.bound_high.map(_value),
                settled=bm.settled.astype(bool).astype(int),
            )
        )

    inputs = getattr(r, "estimate_inputs", None)
    chosen = plan.current(db)
    if inputs is not None:
        files.update(_sampling_files(r, inputs, chosen, runs, dedup))

    n_answerable = int(r.n_questions["answerable"])
    policies = {
        "ties": ties,
        "ties_rule": ranking.TIES[ties],
        "dedup": dedup,
        "dedup_rule": ranking.DEDUP[dedup],
        "relevance_threshold": ev.threshold,
        "ks": list(ev.ks),
        "measures": [str(m) for m in measures],
        "qrels_policy": ev.policy,
        "qrels_policy_text": adjudication.describe_policy(ev.policy),
        "qrels_version": ev.version,
        "run_depth": depth,
        "no_answer": "no-answer questions are left out of the means: they are in no_answer/, not in "
        "qrels.txt and runs/",
        "missing_from_run": "scores 0 (trec_eval -c)",
        "unjudged": "not relevant",
    }
    left_out = _left_out(db, cur, ev)
    if left_out is not None:
        policies["excluded_annotators"], policies["exclusion_thresholds"] = left_out
    # the judging plan decides which paragraphs were judged, so how far the bounds still are
    policies["judging_plan"] = chosen.describe()
    if "bounds" in r.policies:
        policies["bounds"] = {**r.policies["bounds"], "files": "bounds.tsv (per question), bounds_means.tsv"}
    if inputs is not None:
        policies["estimates"] = {
            **r.policies.get("estimates", {}),
            "files": "sampling/ (reproduce: python sampling/reproduce_estimates.py)",
        }
    text = _reproduce_md(policies, groups, stems, n_answerable, len(no_answer), measures)
    if inputs is not None:
        text += _reproduce_estimates_md(inputs, chosen, dedup)
    files["REPRODUCE.md"] = text.encode("utf-8")
    files = dict(sorted(files.items()))
    digest = content_hash(files)
    manifest = {
        "reljudge": __version__,
        "duckdb": _duckdb_version(),
        "python": platform.python_version(),
        "created": times.now_iso(catalog.campaign_zone(db)),
        "policies": policies,
        "trec_eval": {str(m): dict(zip(("qrels", "options", "measure"), trec_eval_measure(m))) for m in measures},
        "systems": {s: f"runs/{stems[s]}.txt" for s in systems},
        "questions": {
            "evaluated": int(r.n_questions["all"]),
            "answerable": n_answerable,
            "no_answer": int(r.n_questions["no_answer"]),
        },
        "sha256": {p: hashlib.sha256(b).hexdigest() for p, b in files.items()},
        "bundle_sha256": digest,
        "bundle_sha256_rule": "sha256 of the sha256sum listing ('<sha256>  <path>' per line, sorted by "
        "path) of every file except manifest.json",
    }
    return Bundle(files, manifest, digest)


# -- sampling estimates ----------------------------------------------------------------------

SAMPLING = "sampling"
#: the script a bundle under a sampling plan carries (REPRODUCE.md, "Sampling estimates")
REPRODUCE_ESTIMATES = f"{SAMPLING}/reproduce_estimates.py"


def _flag(v) -> str:
    return "" if v is None or (isinstance(v, float) and v != v) else str(int(bool(v)))


def _sampling_files(r, inputs: evaluation.EstimatorInputs, chosen, runs: pd.DataFrame, dedup: str) -> dict[str, bytes]:
    """The ``sampling/`` folder: what :func:`reljudge.campaign.evaluation.attach_estimates`
    handed the estimator (``r.estimate_inputs``) and the estimates it gave (``r.estimates``,
    the estimate columns of ``r.means``), with the script that recomputes the one from the
    other. No time in any of it: the bundle's hash stays a function of the data."""
    from reljudge.eval import sampling

    names = [str(m) for m in inputs.measures]
    qids = inputs.qids
    out: dict[str, bytes] = {}
    design = {
        "plan": chosen.name,
        "plan_text": chosen.describe(),
        "rate": chosen.sample_rate,
        "seed": chosen.sample_seed,
        "allocation": sampling.DEFAULT_ALLOCATION,
        "edges": list(sampling.DEFAULT_EDGES),
        "min_per_stratum": sampling.MIN_PER_STRATUM,
        "known_stratum": sampling.KNOWN_STRATUM,
        "measures": names,
        "systems": list(inputs.systems),
        "draw_out_of_date": list(r.policies.get("estimates", {}).get("draw_out_of_date", [])),
        "draws": [d.to_dict() for d in inputs.draws],
    }
    out[f"{SAMPLING}/draws.json"] = _json_bytes(design)
    grades = sorted((q, p, g) for q, items in inputs.grades.items() for p, g in items.items())
    out[f"{SAMPLING}/grades.tsv"] = _tsv(pd.DataFrame(grades, columns=["qid", "item", "grade"]))
    certain = sorted((q, p) for q, items in inputs.certain.items() for p in items)
    out[f"{SAMPLING}/certain.tsv"] = _tsv(pd.DataFrame(certain, columns=["qid", "item"]))
    rows = [
        (system, q, name, _value(inputs.low[s, i, m]), _value(inputs.high[s, i, m]))
        for s, system in enumerate(inputs.systems)
        for i, q in enumerate(qids)
        for m, name in enumerate(names)
    ]
    out[f"{SAMPLING}/bounds.tsv"] = _tsv(
        pd.DataFrame(rows, columns=["system", "qid", "measure", "bound_low", "bound_high"])
    )
    est = r.estimates
    out[f"{SAMPLING}/estimates.tsv"] = _tsv(
        pd.DataFrame(
            {
                "system": est.system,
                "qid": est.qid,
                "measure": est.measure,
                **{c: est[c].map(_value) for c in ("estimate", "estimate_low", "estimate_high")},
                "estimated": est.estimated.map(_flag),
            }
        )
    )
    means = r.means[r.means.measure.isin(names)]
    out[f"{SAMPLING}/estimate_means.tsv"] = _tsv(
        pd.DataFrame(
            {
                "system": means.system,
                "qtype": means.qtype,
                "measure": means.measure,
                **{c: means[c].map(_value) for c in ("estimate", "estimate_low", "estimate_high")},
            }
        )
    )
    if dedup != "first":
        # under "keep" the runs name the returned ids and the estimator their duplicate
        # groups: the map between them, row by row of the same ranking
        pairs = set()
        for (system, q), rows_ in runs.groupby(["system", "qid"], sort=False):
            ranked = inputs.rankings.get(str(q), {}).get(str(system), [])
            for item, group in zip(rows_.sort_values("rank").docid, ranked):
                if str(item) != group:
                    pairs.add((str(q), str(item), group))
        out[f"{SAMPLING}/groups.tsv"] = _tsv(pd.DataFrame(sorted(pairs), columns=["qid", "item", "group"]))
    out[REPRODUCE_ESTIMATES] = _REPRODUCE_ESTIMATES_PY.encode("utf-8")
    return out


def _reproduce_estimates_md(inputs: evaluation.EstimatorInputs, chosen, dedup: str) -> str:
    from reljudge.eval import sampling

    names = ", ".join(f"`{m}`" for m in inputs.measures)
    edges = ", ".join(f"≤ {e}" for e in sampling.DEFAULT_EDGES)
    lines = [
        "",
        "## Sampling estimates / 표본 추정",
        "",
        "이 캠페인은 표본 판정 계획으로 판정되었습니다: 아래 수치는 판정된 표본에서 나온 설계 기반 추정입니다.",
        f"The campaign was judged under a sampling plan ({chosen.describe()}). Besides the values above "
        f"(unjudged = not relevant), reljudge estimates {names} for every question drawn and their means "
        "over the judged answerable questions, with a 95 % judging-sample interval, clipped into the "
        "hard bounds (docs/sampling.md). These are design-based estimates (Horvitz–Thompson and ratio "
        "estimators) of the values the complete judgments would give; trec_eval does not compute them.",
        "",
        f"- design: rate {chosen.sample_rate:g} of each pool's not-known items, seed {chosen.sample_seed}, "
        f"`{sampling.DEFAULT_ALLOCATION}` allocation; strata by an item's best rank over the systems "
        f"({edges}, deeper, unranked), at least {sampling.MIN_PER_STRATUM} drawn per stratum; known items "
        f"(stratum {sampling.KNOWN_STRATUM}) have inclusion probability 1",
        "- `sampling/draws.json`: every question's draw — each pooled item with its best rank, stratum, "
        "inclusion probability π, drawn, known — and the strata",
        "- `sampling/grades.tsv`: the grades the estimator read (items named by duplicate group, as in "
        "`qrels.txt`); `sampling/certain.tsv`: the items taken as known with certainty; "
        "`sampling/bounds.tsv`: the bounds each estimate is clipped into"
        + ("; `sampling/groups.tsv`: the runs' ids and their duplicate groups" if dedup != "first" else ""),
        "- `sampling/estimates.tsv`: every question's estimate and interval (`estimated` = 1: the sample, "
        "not the judging, decides it; empty: nobody has judged the question); "
        "`sampling/estimate_means.tsv`: the means, overall (`all`) and per question type",
        "",
        "Recompute every estimate from these files and the runs, with reljudge's estimator "
        "(`reljudge.eval.sampling.estimate`); it prints the largest absolute difference and exits 1 "
        "if any estimate differs by more than 1e-9:",
        "",
        "```sh",
        "pip install reljudge==VERSION        # the version in manifest.json",
        "python sampling/reproduce_estimates.py",
        "```",
        "",
        "TREC's `sample_eval.pl` evaluates the same sample (infAP, infNDCG, …) from the draw with its "
        "strata and inclusion probabilities, exported in its format by reljudge:",
        "",
        "```sh",
        "reljudge export qrels --format trec-sampled -o sampled.txt",
        "perl sample_eval.pl sampled.txt runs/NAME.txt",
        "```",
        "",
    ]
    return "\n".join(lines)


_REPRODUCE_ESTIMATES_PY = '''"""Recompute every sampling estimate of this bundle from its files (REPRODUCE.md,
"Sampling estimates"; reljudge's docs/sampling.md).

Run from the bundle directory, with reljudge of the version in manifest.json installed
(``pip install reljudge==VERSION``)::

    python sampling/reproduce_estimates.py

It reads sampling/draws.json (every question's draw: each pooled item's stratum and
inclusion probability), sampling/grades.tsv, sampling/certain.tsv, sampling/bounds.tsv,
the runs (runs/, no_answer/runs/ as manifest.json names them; sampling/groups.tsv maps a
run's ids to duplicate groups under dedup=keep), no_answer.txt and per_query.tsv (the
question types), hands them to reljudge's estimator — reljudge.campaign.evaluation.
estimate_frames, which calls reljudge.eval.sampling.estimate and takes the means as the
report does — and compares what it gives with sampling/estimates.tsv and
sampling/estimate_means.tsv. It prints the largest absolute difference and every entry
that differs by more than 1e-9 (or is empty on one side only), and then exits 1.
"""

import csv
import json
import sys
from pathlib import Path

import numpy as np

from reljudge.campaign.evaluation import EstimatorInputs, estimate_frames
from reljudge.eval.measures import parse_measures
from reljudge.eval.sampling import Draw

TOLERANCE = 1e-9
COLUMNS = ("estimate", "estimate_low", "estimate_high")


def rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\\t"))


def number(text):
    return None if text == "" else float(text)


def read_inputs(root):
    design = json.loads((root / "sampling" / "draws.json").read_text(encoding="utf-8"))
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    threshold = manifest["policies"]["relevance_threshold"]
    draws = [Draw.from_dict(d) for d in design["draws"]]
    qids, systems = [d.qid for d in draws], design["systems"]
    measures = parse_measures(design["measures"], default_rel=threshold)
    grades, certain = {}, {}
    for r in rows(root / "sampling" / "grades.tsv"):
        grades.setdefault(r["qid"], {})[r["item"]] = int(r["grade"])
    for r in rows(root / "sampling" / "certain.tsv"):
        certain.setdefault(r["qid"], set()).add(r["item"])
    group = {}
    if (root / "sampling" / "groups.tsv").exists():
        group = {(r["qid"], r["item"]): r["group"] for r in rows(root / "sampling" / "groups.tsv")}
    rankings = {}
    for system in systems:
        run = manifest["systems"][system]
        for path in (root / run, root / "no_answer" / run):
            ranked = []
            for line in path.read_text(encoding="utf-8").splitlines():
                qid, _, docid, rank, _, _ = line.split()
                ranked.append((qid, int(rank), group.get((qid, docid), docid)))
            for qid, _, item in sorted(ranked):
                rankings.setdefault(qid, {}).setdefault(system, []).append(item)
    shape = (len(systems), len(qids), len(measures))
    low, high = np.zeros(shape), np.ones(shape)
    si = {s: i for i, s in enumerate(systems)}
    qi = {q: i for i, q in enumerate(qids)}
    mi = {str(m): i for i, m in enumerate(measures)}
    for r in rows(root / "sampling" / "bounds.tsv"):
        at = si[r["system"]], qi[r["qid"]], mi[r["measure"]]
        low[at], high[at] = float(r["bound_low"]), float(r["bound_high"])
    no_answer = set((root / "no_answer.txt").read_text(encoding="utf-8").split())
    qtype_of = {r["qid"]: r["qtype"] for r in rows(root / "per_query.tsv")}
    return EstimatorInputs(draws, grades, rankings, measures, systems, certain, low, high, no_answer), qtype_of


def compare(name, written, computed, keys, columns, worst, bad):
    """Each entry of the file ``name`` against the recomputed one (same key); a key on one
    side only differs."""
    for key in sorted(set(written) | set(computed)):
        a, b = written.get(key), computed.get(key)
        for c in columns:
            x = None if a is None else a[c]
            y = None if b is None else b[c]
            if x is None and y is None:
                continue
            d = float("inf") if x is None or y is None else abs(x - y)
            worst[0] = max(worst[0], d)
            if d > TOLERANCE:
                where = ", ".join(f"{k}={v}" for k, v in zip(keys, key))
                bad.append(f"{name}: {where}: {c} is {x} in the file, recomputed {y}")


def main():
    root = Path.cwd()
    inputs, qtype_of = read_inputs(root)
    per_query, means, _ = estimate_frames(inputs, qtype_of)
    worst, bad = [0.0], []

    def value(v):
        return None if v is None or v != v else float(v)

    keys = ("system", "qid", "measure")
    written = {
        tuple(r[k] for k in keys): {**{c: number(r[c]) for c in COLUMNS}, "estimated": number(r["estimated"])}
        for r in rows(root / "sampling" / "estimates.tsv")
    }
    computed = {
        (r.system, r.qid, r.measure): {**{c: value(getattr(r, c)) for c in COLUMNS}, "estimated": float(r.estimated)}
        for r in per_query.itertuples()
    }
    compare("estimates.tsv", written, computed, keys, (*COLUMNS, "estimated"), worst, bad)
    keys = ("system", "qtype", "measure")
    written = {
        tuple(r[k] for k in keys): {c: number(r[c]) for c in COLUMNS}
        for r in rows(root / "sampling" / "estimate_means.tsv")
    }
    computed = {(r.system, r.qtype, r.measure): {c: value(getattr(r, c)) for c in COLUMNS} for r in means.itertuples()}
    compare("estimate_means.tsv", written, computed, keys, COLUMNS, worst, bad)
    print(f"largest absolute difference: {worst[0]:.3g} ({len(per_query)} estimates, {len(means)} means)")
    for line in bad:
        print("differs:", line)
    if bad:
        print(f"{len(bad)} entries differ by more than {TOLERANCE:g}")
        return 1
    print(f"every estimate is reproduced within {TOLERANCE:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


def _left_out(db: Database, cur, ev: evaluation.CampaignEvaluation) -> tuple[list[dict], dict | None] | None:
    """Whom the figures leave out, with the reasons and the thresholds: a frozen version's
    record, or a ``+exclude-flagged`` policy's decision now; None for any other policy (its
    bundle is unchanged)."""
    if ev.version is not None:
        rows = adjudication.version_exclusions(db, ev.version)
        if rows.empty:
            return None
        first = rows.iloc[0]
        thresholds = {
            "min_gold": int(first.min_gold),
            "min_accuracy": float(first.min_accuracy),
            "max_failed_decoys": int(first.max_failed_decoys),
        }
        return [{"annotator": r.annotator, "reasons": list(r.reasons)} for r in rows.itertuples()], thresholds
    if not Policy.parse(ev.policy).excludes_flagged:
        return None
    flagged, thresholds = quality_store.flagged(cur)
    return [{"annotator": n, "reasons": flagged[n]} for n in sorted(flagged)], thresholds


def _left_out_text(policies: dict) -> str:
    """The REPRODUCE line's tail naming whom the qrels leave out (nothing for other policies)."""
    if "excluded_annotators" not in policies:
        return ""
    who = ", ".join(f"{e['annotator']} ({', '.join(e['reasons'])})" for e in policies["excluded_annotators"])
    limits = policies["exclusion_thresholds"] or {}
    return (
        f"; left out: {who or 'nobody was flagged'}"
        f" (thresholds: at least {limits.get('min_gold')} gold items and accuracy below {limits.get('min_accuracy')},"
        f" or at least {limits.get('max_failed_decoys')} failed decoys)"
    )


def content_hash(files: dict[str, bytes]) -> str:
    """sha256 of ``sha256sum``'s listing of ``files`` (manifest excluded), sorted by path."""
    listing = "".join(f"{hashlib.sha256(files[p]).hexdigest()}  {p}\n" for p in sorted(files) if p != MANIFEST)
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def _duckdb_version() -> str:
    import duckdb

    return duckdb.__version__


def _json_bytes(obj) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


# -- writing -----------------------------------------------------------------------------


def write(bundle: Bundle, out_dir) -> list[Path]:
    """Write the bundle into ``out_dir`` (created; files of an earlier bundle there are
    replaced, other files refused so that the directory holds exactly one bundle)."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ReljudgeError(CODES("error_not_a_directory", path=str(out)))
    files = bundle.all_files()
    if out.exists():
        stray = sorted(
            str(p.relative_to(out))
            for p in out.rglob("*")
            if p.is_file() and p.relative_to(out).as_posix() not in files
        )
        if stray:
            raise ReljudgeError(
                CODES(
                    "error_bundle_stray_files",
                    path=str(out),
                    files=", ".join(stray[:3]),
                    more=", …" if len(stray) > 3 else "",
                )
            )
    paths = []
    for rel, data in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        paths.append(path)
    return paths


def zip_bytes(bundle: Bundle, folder: str = "bundle") -> bytes:
    """The bundle as a zip whose entries sit under ``folder/`` (for a download)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for rel, data in bundle.all_files().items():
            z.writestr(f"{folder}/{rel}", data)
    return buf.getvalue()


# -- REPRODUCE.md --------------------------------------------------------------------------

_PYTREC = '''import pytrec_eval

def read_qrels(path):
    qrels = {}
    for line in open(path, encoding="utf-8"):
        qid, _, docid, grade = line.split()
        qrels.setdefault(qid, {})[docid] = int(grade)
    return qrels

def read_run(path, cut=None):                  # cut = K: the run truncated to K (trec_eval -M K)
    run = {}
    for line in open(path, encoding="utf-8"):
        qid, _, docid, rank, score, _ = line.split()
        if cut is None or int(rank) <= cut:
            run.setdefault(qid, {})[docid] = float(score)
    return run

def per_query(qrels_path, run_path, measure, level, cut=None):
    """{qid: value} for every question of the qrels; a question missing from the run scores 0 (-c)."""
    qrels = read_qrels(qrels_path)
    res = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=level).evaluate(
        read_run(run_path, cut))
    name = measure.replace(".", "_")
    return {q: res.get(q, {}).get(name, 0.0) for q in qrels}
'''


def _reproduce_md(
    policies: dict, groups, stems: dict[str, str], n_answerable: int, n_no_answer: int, measures: list[Measure]
) -> str:
    t = policies["relevance_threshold"]
    first = next(iter(stems.values()), "SYSTEM")
    k = max(policies["ks"])
    lines = [
        "# Reproducing every number / 모든 수치 재현하기",
        "",
        "이 번들에는 평가에 쓰인 그대로의 qrels와 run, 그리고 보고서의 각 수치를 내는 trec_eval 명령이 들어 있습니다.",
        "This bundle holds the qrels and runs exactly as reljudge evaluated them, and the trec_eval",
        "command lines that give each of its numbers (trec_eval 9.x; pytrec_eval gives the same).",
        "",
        "## Policies",
        "",
        f"- ties: `{policies['ties']}` — {policies['ties_rule']}",
        f"- duplicates: `{policies['dedup']}` — {policies['dedup_rule']}",
        f"- relevant: grade >= {t} (RR, P, R); nDCG gain = grade",
        f"- K: {', '.join(str(k) for k in policies['ks'])}",
        f"- qrels: {policies['qrels_policy_text']}"
        + (f", frozen version {policies['qrels_version']}" if policies["qrels_version"] is not None else "")
        + _left_out_text(policies),
        "- unjudged paragraphs count as not relevant; a question missing from a run scores 0 (`-c`)",
        "",
        "## How the files are what was evaluated",
        "",
        (
            "- Duplicates `first`: qrels and runs name each duplicate group by its first paragraph (the "
            "canonical id); a run holds each group once, later copies removed and ranks closed up."
            if policies["dedup"] == "first"
            else "- Duplicates `keep`: runs hold the ids the systems returned, every copy at its own rank; "
            "qrels.txt names every copy of a judged paragraph with its grade (also in the recall base "
            "and the ideal ranking)."
        ),
        f"- Each ranking is cut at rank {policies['run_depth']} (what the measures read) in the order "
        "of the tie rule above; the score column is rewritten as "
        f"`{policies['run_depth'] + 1} - rank`, strictly decreasing, so trec_eval (score descending, then "
        "docid) and any other tool rank the rows exactly as reljudge did.",
        f"- `qrels.txt` and `runs/` hold the {n_answerable} answerable questions only: the report's "
        "means leave no-answer questions out, so plain `trec_eval -c` over these files gives them.",
        f"- The {n_no_answer} no-answer questions (`no_answer.txt`) are evaluated separately from "
        "`no_answer/qrels.txt` and `no_answer/runs/`. A no-answer question with no judged paragraph "
        "cannot appear in a TREC qrels file: it scores 0 on every measure. Their mean in `means.tsv` "
        "(`questions = no_answer`) is the sum of the `-q` values divided by the number of lines of "
        "`no_answer.txt`.",
        "",
        "## Measures",
        "",
        "| reljudge | trec_eval | options | qrels |",
        "|---|---|---|---|",
    ]
    for m in measures:
        qrels, opts, name = trec_eval_measure(m)
        lines.append(f"| `{m}` | `{name.replace('.', '_')}` | {f'`{opts}`' if opts else ''} | `{qrels}` |")
    lines += [
        "",
        "`recip_rank` has no cutoff in trec_eval: `-M K` truncates the run to K, which is RR@K. "
        "Judged@K is P@K with every judged paragraph relevant: `qrels_judged.txt` holds the rows of "
        "`qrels.txt` with grade 1.",
        "",
        "## trec_eval",
        "",
        "Means over the answerable questions (the report's figures), for each system:",
        "",
        "```sh",
    ]
    for s, stem in stems.items():
        lines.append(f"# {s}")
        for qrels, opts, args, names in groups:
            margs = " ".join(f"-m {a}" for a in args)
            opt = f" {opts}" if opts else ""
            lines.append(f"trec_eval -c{opt} {margs} {qrels} runs/{stem}.txt    # {', '.join(names)}")
    lines += [
        "```",
        "",
        "trec_eval refuses an empty run file: a system whose file is empty scores 0 on every question. "
        "Add `-q` for the value of every question (`per_query.tsv`). For the no-answer questions use "
        "`no_answer/qrels.txt` (`no_answer/qrels_judged.txt`) and `no_answer/runs/NAME.txt` with `-q`. A mean per question type is "
        "the mean of the `-q` values over that type's questions (`qtype` in `per_query.tsv`).",
        "",
        "The report's shares come from the same values: rank 1 = share of questions with RR@1 = 1; "
        "top 3 = share with RR@3 >= 1/3; not found within K = share with RR@K = 0.",
        "",
        "Abstention rates (`abstentions.tsv`): appropriate = rows of the system with `no_answer` = 1 "
        "divided by the lines of `no_answer.txt`; false = rows with `no_answer` = 0 divided by the "
        "number of answerable questions:",
        "",
        "```sh",
        "cut -d' ' -f1 qrels.txt | sort -u | wc -l                      # answerable questions",
        f"awk -F'\\t' '$1 == \"{next(iter(stems), 'SYSTEM')}\" && $3 == 1' abstentions.tsv | wc -l   # appropriate abstentions",
        "```",
        "",
        "## pytrec_eval",
        "",
        "```python",
        _PYTREC.rstrip(),
        "",
        f'rr = per_query("qrels.txt", "runs/{first}.txt", "recip_rank", {t}, cut={k})   # RR@{k}',
        f'ndcg = per_query("qrels.txt", "runs/{first}.txt", "ndcg_cut.{k}", {t})      # nDCG@{k}',
        f'judged = per_query("qrels_judged.txt", "runs/{first}.txt", "P.{k}", 1)      # Judged@{k}',
        f"print(sum(rr.values()) / len(rr))                                        # MRR@{k}",
        "```",
        "",
        "## Checking the bundle",
        "",
        "`manifest.json` lists the sha256 of every file and `bundle_sha256`, the hash the report names. "
        "It covers every file but the manifest and depends only on the data and the policies:",
        "",
        "```sh",
        "find . -type f ! -name manifest.json -printf '%P\\n' | LC_ALL=C sort | xargs sha256sum | sha256sum",
        "```",
        "",
    ]
    return "\n".join(lines)
