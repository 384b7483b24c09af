"""The e5-small model judge on this machine: pairs per second, memory, and its calibration
against the people on a KorQuAD-style campaign, so a lab knows what to expect.

    python bench/bench_auto_judge.py CAMPAIGN_DIR [--threads N] [--no-write]

CAMPAIGN_DIR is what bench/make_korquad_campaign.py writes (corpus.jsonl, questions.jsonl,
runs/*.trec, qrels.txt). The campaign is loaded into a fresh DuckDB file and pooled at
depth 10; "the people" are a simulated annotator who grades every pooled pair as the
KorQuAD oracle does (2 for the question's own context paragraph, 0 for every other), so
exact agreement and kappa here measure how well e5's cosine finds the one paragraph that
holds the answer. Then:

1. ``auto-judge --model e5-small`` with the thresholds cross-fitted by question on those
   grades (the library's path: E5Judge + runner.run), timed; peak RSS of this process;
2. ``calibrate`` against the people (adjudicated): n, exact agreement, linear kappa,
   confusion, and MRR@10 / nDCG@10 per system under both qrels with Kendall's tau;
3. the same with the documented default thresholds (no calibration).

Writes its section of bench/RESULTS.md (benchlib.write_section).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def subset(folder: Path, n: int, out: Path) -> Path:
    """The campaign with its first ``n`` questions only (runs cut to them)."""
    (out / "runs").mkdir(parents=True)
    lines = (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()[:n]
    (out / "questions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    keep = {json.loads(line)["qid"] for line in lines}
    (out / "corpus.jsonl").symlink_to(folder / "corpus.jsonl")
    for name in ["qrels.txt"] + [f"runs/{r.name}" for r in (folder / "runs").glob("*.trec")]:
        kept = [x for x in (folder / name).read_text(encoding="utf-8").splitlines() if x.split()[0] in keep]
        (out / name).write_text("\n".join(kept) + "\n", encoding="utf-8")
    return out


def say(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


def load(folder: Path, path: Path):
    from reljudge.campaign import auth
    from reljudge.campaign import setup as campaign
    from reljudge.campaign import judging
    from reljudge.storage import judge_sources, open_database

    db = open_database(path)
    campaign.import_file(db, "corpus", folder / "corpus.jsonl")
    campaign.import_file(db, "questions", folder / "questions.jsonl")
    for run in sorted((folder / "runs").glob("*.trec")):
        campaign.import_file(db, "run", run)
    campaign.pool(db, 10)
    auth.add_user(db, "oracle", "bench-password", "annotator")
    relevant = set()
    for line in (folder / "qrels.txt").read_text(encoding="utf-8").splitlines():
        qid, _, pid, grade = line.split()
        if int(grade) > 0:
            relevant.add((qid, pid))
    pooled = judge_sources.pooled_pairs(db)
    events = [
        {"qid": q, "pid": p, "grade": 2 if (q, p) in relevant else 0, "id": f"o{i}"}
        for i, (q, p) in enumerate(zip(pooled.qid, pooled.pid))
    ]
    for start in range(0, len(events), 500):
        judging.record(db, "oracle", events[start : start + 500])
    return db, len(pooled)


def figures_line(result: dict) -> str:
    return (
        f"n {result['n']:,}, exact agreement {result['exact_agreement']:.3f}, "
        f"linear κ {result['kappa_linear'] if result['kappa_linear'] is None else round(result['kappa_linear'], 3)}"
    )


def outcome_rows(result: dict) -> list[str]:
    rows = []
    for measure, o in result["outcome"].items():
        tau = "—" if o["kendall_tau"] is None else f"{o['kendall_tau']:.3f}"
        systems = ", ".join(
            f"{s} {v['against']:.3f} / {v['source']:.3f}" for s, v in o["systems"].items() if v["against"] is not None
        )
        rows.append(f"| {measure} | {tau} | {systems} |")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("campaign", type=Path)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--questions", type=int, default=None, help="the first N questions only")
    args = parser.parse_args()

    from reljudge.judges import calibration, e5, runner
    from reljudge.storage import judge_sources

    with tempfile.TemporaryDirectory() as tmp:
        folder = args.campaign if not args.questions else subset(args.campaign, args.questions, Path(tmp) / "c")
        load_avg = os.getloadavg()
        t0 = time.perf_counter()
        db, n_pooled = load(folder, Path(tmp) / "bench.duckdb")
        say(f"loaded: {n_pooled} pooled pairs")
        load_s = time.perf_counter() - t0
        rss_before = peak_rss_mb()
        t0 = time.perf_counter()
        judge = e5.E5Judge(threads=args.threads)
        load_model_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        pooled = judge_sources.pooled_pairs(db)
        scores = judge.scorer.scores(pooled, progress=lambda d, t: say(f"embedded {d}/{t} paragraphs"))
        score_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        summary = runner.run(db, "e5", judge)  # calibration + grading + storing (warm cache)
        run_s = time.perf_counter() - t0
        say("judged")
        load_avg = max(load_avg, os.getloadavg())
        rss_after = peak_rss_mb()
        cal = calibration.calibrate(db, "e5", "adjudicated")
        # the documented defaults, for comparison: grades from the same scores
        import pandas as pd

        default = pd.DataFrame(
            {
                "qid": pooled.qid,
                "pid": pooled.pid,
                "grade": [e5.grade_of(s, e5.DEFAULT_THRESHOLDS) for s in scores],
            }
        )
        judge_sources.record_source(db, "e5_defaults", "e5", "e5-small", e5.model_version(), e5.PROMPT, "-", "{}")
        judge_sources.store_results(
            db, "e5_defaults", default, pd.DataFrame(columns=["qid", "pid", "kind", "detail", "answer"])
        )
        cal_default = calibration.calibrate(db, "e5_defaults", "adjudicated")
        db.close()

    settings = cal["settings"]
    folds = settings.get("folds", {})
    lines = [
        f"### e5-small model judge ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})",
        "",
        f"Machine: {benchlib.cpu_model()}, {os.cpu_count()} cores, Python {sys.version.split()[0]}; load average "
        f"{load_avg[0]:.1f} during the run (other processes on the machine share its 2 cores); "
        f"{cal['model_version']}. Campaign: {args.campaign.name}"
        f"{f' (first {args.questions} questions)' if args.questions else ''} ({n_pooled:,} pooled pairs at depth 10; "
        "loaded in {:.0f} s). People: the KorQuAD oracle as one simulated annotator "
        "(2 for the question's own context paragraph, 0 otherwise; no grade 1).".format(load_s),
        "",
        "| what | figure |",
        "|---|---|",
        f"| model load | {load_model_s:.2f} s |",
        f"| scoring every pooled pair (cold: {pooled.question.nunique()} questions and "
        f"{pooled.paragraph.nunique()} distinct paragraphs embedded once each, {args.threads or 'all'} threads; "
        f"paragraphs {pooled.paragraph.str.len().mean():.0f} characters on average) | {score_s:.1f} s = "
        f"**{n_pooled / score_s:.1f} pairs/s** |",
        f"| `auto-judge` run (calibration, grading, storing; embeddings cached) | {run_s:.1f} s "
        f"({summary.graded:,} graded, {summary.errors} errors) |",
        f"| peak RSS of the process | {rss_before:.0f} MB before the model, {rss_after:.0f} MB after |",
        "",
        "Calibration against the people (`reljudge calibrate e5 --against adjudicated`):",
        "",
        f"- cross-fitted thresholds ({settings.get('thresholds')}): {figures_line(cal)}; confusion {cal['confusion']}",
        "- fold thresholds (t1, t2): " + ", ".join(f"{f}: ({v['t1']:.3f}, {v['t2']:.3f})" for f, v in folds.items()),
        f"- documented defaults {e5.DEFAULT_THRESHOLDS}: {figures_line(cal_default)}; confusion {cal_default['confusion']}",
        "",
        "System rankings under the people's qrels vs the model's (cross-fitted), value people / model:",
        "",
        "| measure | Kendall τ | systems |",
        "|---|---|---|",
        *outcome_rows(cal),
        "",
        "System rankings with the default thresholds:",
        "",
        "| measure | Kendall τ | systems |",
        "|---|---|---|",
        *outcome_rows(cal_default),
    ]
    body = "\n".join(lines)
    print(body)
    print(json.dumps({"pairs_per_s": n_pooled / score_s, "peak_rss_mb": rss_after}), file=sys.stderr)
    if not args.no_write:
        benchlib.write_section("auto_judge", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
