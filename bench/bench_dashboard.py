"""Dashboard recompute time: 1,000 questions × 4 systems × depth 20, 50,000 judgment events.

Times what the dashboard page computes on every refresh — aggregating the judgments
into qrels and no-answer verdicts, evaluating every system at one K with 95% bootstrap
intervals (B = 1000) and randomization tests, and shaping the summary and failure
tables — over repeated runs, and reports the median.
Usage: python bench/bench_dashboard.py [--repeat N]   (writes <!-- dashboard:begin/end --> in RESULTS.md)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from benchlib import cpu_model, write_section  # noqa: E402

from reljudge import auth, campaign, dashboard  # noqa: E402
from reljudge.storage import judgments as store  # noqa: E402
from reljudge.storage import open_database  # noqa: E402

N_Q, SYSTEMS, DEPTH, N_EVENTS, N_ANNOT = 1000, ("bm25", "vector", "hybrid", "graphrag"), 20, 50_000, 5
TYPES = ("사실 확인", "개념 관계", "시대 변화", "전역 주제")


def build(path: Path) -> None:
    rng = np.random.default_rng(7)
    data = HERE / "data" / "dashboard"
    data.mkdir(parents=True, exist_ok=True)
    per_q = 40
    with open(data / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for q in range(N_Q):
            for j in range(per_q):
                fh.write(json.dumps({"pid": f"p{q:04d}_{j:02d}", "doc_id": f"d{q:04d}", "position": j,
                                     "text": f"질문 {q}의 후보 문단 {j}: 합성 자료입니다."}, ensure_ascii=False) + "\n")
    with open(data / "questions.jsonl", "w", encoding="utf-8") as fh:
        for q in range(N_Q):
            fh.write(json.dumps({"qid": f"q{q:04d}", "text": f"합성 질문 {q}", "type": TYPES[q % 4],
                                 "no_answer_expected": q % 50 == 0}, ensure_ascii=False) + "\n")
    for s in SYSTEMS:
        with open(data / f"{s}.trec", "w", encoding="utf-8") as fh:
            for q in range(N_Q):
                picks = rng.choice(per_q, DEPTH, replace=False)
                scores = np.round(np.sort(rng.random(DEPTH))[::-1], 2)   # 2 decimals: ties
                for r, (j, sc) in enumerate(zip(picks, scores), 1):
                    fh.write(f"q{q:04d} Q0 p{q:04d}_{j:02d} {r} {sc} {s}\n")
    for suffix in ("", ".wal"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    db = open_database(path)
    campaign.import_file(db, "corpus", data / "corpus.jsonl")
    campaign.import_file(db, "questions", data / "questions.jsonl")
    for s in SYSTEMS:
        campaign.import_file(db, "run", data / f"{s}.trec")
    campaign.pool(db, DEPTH)
    pool = db.cursor().execute("SELECT qid, pid FROM pool").df()
    for a in range(N_ANNOT):
        auth.add_user(db, f"a{a}", "bench-password", "annotator")
    # 50,000 events: each annotator judges a share of the pool, some paragraphs twice.
    idx = rng.integers(0, len(pool), N_EVENTS)
    events = pool.iloc[idx].reset_index(drop=True)
    events["grade"] = rng.choice([0, 0, 0, 1, 2], N_EVENTS)
    users = rng.integers(0, N_ANNOT, N_EVENTS)
    for a in range(N_ANNOT):
        part = events[users == a]
        frame = pd.DataFrame({"client_event_id": [str(uuid.uuid4()) for _ in range(len(part))],
                              "qid": part.qid.values, "pid": part.pid.values, "grade": part.grade.values,
                              "no_answer": pd.array([None] * len(part), dtype="boolean"),
                              "note": None, "evidence": None,
                              "time_spent_ms": rng.integers(500, 20_000, len(part)),
                              "client_id": None,
                              "base_event_id": pd.array([None] * len(part), dtype="Int64")})
        store.append_events(db, f"a{a}", frame.astype({"grade": "Int8"}))
    db.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    path = HERE / "data" / "dashboard.duckdb"
    t0 = time.perf_counter()
    build(path)
    build_s = time.perf_counter() - t0
    db = open_database(path)
    n_events = db.cursor().execute("SELECT count(*) FROM judgment_events").fetchall()[0][0]
    times = []
    for i in range(args.repeat + 2):
        t = time.perf_counter()
        ev = dashboard.evaluate_for_dashboard(db, 10, 2)
        dashboard.summary_table(ev, 10)
        dashboard.failure_cases(db, ev, 10)
        dashboard.abstention_table(ev)
        dashboard.contested_no_answer(db, "adjudicated", None, 2)
        dashboard.questions_used(db, ev)
        dashboard.tests_table(ev)
        if i >= 2:                                    # two warm-up runs
            times.append((time.perf_counter() - t) * 1000)
    med = statistics.median(times)
    section = (
        f"## Dashboard recompute: {N_Q:,} questions × {len(SYSTEMS)} systems × depth {DEPTH}, "
        f"{n_events:,} judgment events\n\n"
        f"Measured {dt.date.today()} on {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()} "
        f"(`python bench/bench_dashboard.py --repeat {args.repeat}`; data built in {build_s:.0f} s).\n\n"
        "One refresh = aggregate the events into qrels and no-answer verdicts (adjudicated policy), "
        "evaluate RR, R, nDCG, P, Judged at K=10 for every system with 95% bootstrap intervals "
        "(B=1000) and paired randomization tests (1000 permutations, Holm), shape the summary, "
        "abstention, test and failure tables, count the questions used, find the overruled 'no answer' marks.\n\n"
        f"| figure | value |\n|---|---|\n"
        f"| median | {med:.0f} ms |\n"
        f"| p90 | {np.percentile(times, 90):.0f} ms |\n"
        f"| min – max | {min(times):.0f} – {max(times):.0f} ms |\n"
        f"| target (issue 3) | ≤ 300 ms median — {'met' if med <= 300 else 'NOT met'} |\n"
    )
    write_section("dashboard", section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
