"""Benchmark: `reljudge evaluate --qrels` against NIST's trec_eval, whole processes.

    python bench/bench_evaluate.py --trec-eval /path/to/trec_eval [--sizes small,1m,10m]
                                   [--repeat 3] [--with-pytrec] [--with-ranx] [--no-write]

What a user waits for is the whole command: starting Python, importing, reading the
files, computing, printing.  So every contender is one process started by a fresh,
small launcher (``--spawn``) that takes the wall time, the CPU time (user + system)
and the peak resident memory of that process alone from ``wait4``.  Linux carries a
parent's memory high-water mark into a child it spawns (``execve`` keeps
``signal->maxrss``), so a child started straight from this benchmark -- which holds the
generated data -- would report this benchmark's own peak; the launcher holds ~10 MB,
and its floor is measured (``/bin/true`` through the same launcher) and printed.

Contenders, on the same files, with the same measures:

* reljudge: ``python -m reljudge evaluate --qrels Q RUN... -m ... --format trec_eval``
  (one command for all runs of a scenario);
* trec_eval: the C binary given by ``--trec-eval`` (NIST, github.com/usnistgov/trec_eval,
  built outside the project); one process per run, as it takes one run; its times are
  summed over the runs.  Absent: the table says so.
* pytrec-eval-terrier and ranx (``--with-pytrec``, ``--with-ranx``): a Python process
  that parses the files and evaluates;
* duckdb read (floor): a Python process that only reads the run into a DuckDB table.

Scenarios: ``small`` (50 queries × 100 documents, 4 runs: what most users evaluate),
``1m`` (1,000 × 1,000) and ``10m`` (10,000 × 1,000), each at the usual cut
(``recip_rank ndcg_cut.10 recall.100``) and ``1m``/``10m`` also at full depth
(``ndcg_cut.1000 recall.1000 P.1000``).  The ``all`` lines of reljudge and trec_eval are
compared value by value.  Writes bench/RESULTS.md between the ``evaluate`` markers.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchlib import cpu_model, write_section

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
OUT = DATA / "evaluate_out"

SIZES = {"small": (50, 100, 4), "1m": (1_000, 1_000, 1), "10m": (10_000, 1_000, 1)}
#: cut -> (reljudge's measures, trec_eval's).  The usual cut asks reljudge for RR@10;
#: trec_eval has no cutoff for recip_rank (it ranks every document whatever it is asked),
#: so it computes recip_rank there, and only the measures both print are compared.
CUTS = {
    "usual": (["RR@10", "ndcg_cut.10", "recall.100"], ["recip_rank", "ndcg_cut.10", "recall.100"]),
    "full depth": (["ndcg_cut.1000", "recall.1000", "P.1000"], ["ndcg_cut.1000", "recall.1000", "P.1000"]),
}


def generate(nq: int, nd: int, n_runs: int) -> tuple[list[Path], Path]:
    """Runs of nq × nd lines (scores on a 1e-4 grid: ~5 % tie with a neighbour) and qrels
    with ~23 judged documents per query (grades 0–2, 3 never retrieved); made once."""
    import duckdb

    DATA.mkdir(exist_ok=True)
    runs = [DATA / f"run_{nq}x{nd}_{s}.trec" for s in range(n_runs)]
    qrels = DATA / f"qrels_{nq}x{nd}.trec"
    if qrels.exists() and all(r.exists() for r in runs):
        return runs, qrels
    con = duckdb.connect()
    for s, run in enumerate(runs):
        # doc ids: an odd multiplier mod 2^32 is a bijection, so ids are unique per query
        con.execute(
            """
            CREATE OR REPLACE TABLE r AS
            SELECT 'q' || lpad(q::VARCHAR, 5, '0') AS qid,
                   'd' || (((q * 1000 + i) * 2654435761) % 4294967296)::VARCHAR AS docid,
                   round(hash(q, i, ?) % 100000 / 100000.0, 4) AS score, i
            FROM range(?) t(q), range(?) u(i)""",
            [s, nq, nd],
        )
        con.execute(f"""COPY (SELECT qid, 'Q0', docid,
                            row_number() OVER (PARTITION BY qid ORDER BY score DESC, docid DESC) AS rank,
                            score, 'sys{s}'
                            FROM r ORDER BY qid, rank)
                      TO '{run}' (DELIMITER ' ', HEADER false, QUOTE '')""")
    con.execute(
        f"""COPY (SELECT qid, 0, docid, (hash(docid) % 3)::INTEGER FROM r
                          WHERE i % 100 = 7 OR hash(docid, 'j') % 100 = 0
                          UNION ALL
                          SELECT 'q' || lpad(q::VARCHAR, 5, '0'), 0, 'unretrieved' || j, 2
                          FROM range(?) t(q), range(3) u(j))
                  TO '{qrels}' (DELIMITER ' ', HEADER false, QUOTE '')""",
        [nq],
    )
    return runs, qrels


# -- the launcher: one process, measured alone ---------------------------------------------


def spawn_main(out_path: str, argv: list[str]) -> None:
    """Run argv with stdout to out_path; print wall, CPU and peak RSS of that process."""
    with open(out_path, "wb") as out:
        t = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu": usage.ru_utime + usage.ru_stime,
                "maxrss_mb": usage.ru_maxrss / 1024,
                "code": proc.returncode,
                "stderr": err[-2000:],
            }
        )
    )


def measure(argv: list[str], out_path: Path) -> dict:
    p = subprocess.run(
        [sys.executable, __file__, "--spawn", str(out_path), *argv], capture_output=True, text=True, check=True
    )
    r = json.loads(p.stdout.strip().splitlines()[-1])
    if r["code"] != 0:
        raise SystemExit(f"{argv[0]} exited {r['code']}:\n{r['stderr']}")
    return r


# -- the Python peers, each run as its own process -----------------------------------------

TREC_TO_PYTREC = {
    "recip_rank": "recip_rank",
    "ndcg_cut.10": "ndcg_cut_10",
    "recall.100": "recall_100",
    "ndcg_cut.1000": "ndcg_cut_1000",
    "recall.1000": "recall_1000",
    "P.1000": "P_1000",
}


def pytrec_main(qrels: str, runs: list[str], measures: list[str]) -> None:
    import pytrec_eval

    qd: dict = {}
    with open(qrels) as f:
        for line in f:
            q, _, d, r = line.split()
            qd.setdefault(q, {})[d] = int(r)
    families = {m.split(".")[0] + ("." + m.split(".")[1] if "." in m else "") for m in measures}
    ev = pytrec_eval.RelevanceEvaluator(qd, families)
    for run in runs:
        rd: dict = {}
        with open(run) as f:
            for line in f:
                q, _, d, _, s, _ = line.split()
                rd.setdefault(q, {})[d] = float(s)
        res = ev.evaluate(rd)
        for m in measures:
            key = TREC_TO_PYTREC[m]
            print(f"{m.replace('.', '_')}\tall\t{sum(v[key] for v in res.values()) / len(res):.4f}")


def ranx_main(qrels: str, runs: list[str], measures: list[str]) -> None:
    from ranx import Qrels, Run, evaluate

    names = {
        "recip_rank": "mrr",
        "ndcg_cut.10": "ndcg@10",
        "recall.100": "recall@100",
        "ndcg_cut.1000": "ndcg@1000",
        "recall.1000": "recall@1000",
        "P.1000": "precision@1000",
    }
    q = Qrels.from_file(qrels, kind="trec")
    for run in runs:
        res = evaluate(q, Run.from_file(run, kind="trec"), [names[m] for m in measures])
        for m in measures:
            print(f"{m.replace('.', '_')}\tall\t{float(res[names[m]]):.4f}")


def duckdb_read_main(runs: list[str]) -> None:
    import duckdb

    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = false")
    for run in runs:
        con.execute(f"""CREATE OR REPLACE TABLE run AS SELECT * FROM read_csv('{run}', delim=' ', header=false,
                        quote='', escape='', auto_detect=false, columns={{'qid': 'VARCHAR', 'q0': 'VARCHAR',
                        'docid': 'VARCHAR', 'rank': 'BIGINT', 'score': 'DOUBLE', 'tag': 'VARCHAR'}})""")


# -- one scenario --------------------------------------------------------------------------


def all_lines(path: Path) -> dict[tuple[str, str], str]:
    """(measure, run index) -> value of trec_eval's `all` lines, in file order per run."""
    values: dict = {}
    seen: dict[str, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "all" and parts[0] not in ("runid", "num_q"):
            n = seen.get(parts[0], 0)
            seen[parts[0]] = n + 1
            values[(parts[0], n)] = parts[2]
    return values


def contenders(a, runs: list[Path], qrels: Path, cut: str) -> dict[str, list[list[str]]]:
    """name -> the processes it takes (trec_eval: one per run)."""
    py = sys.executable
    ours, measures = CUTS[cut]
    out: dict[str, list[list[str]]] = {
        "reljudge": [
            [
                py,
                "-m",
                "reljudge",
                "evaluate",
                "--qrels",
                str(qrels),
                *map(str, runs),
                "-m",
                *ours,
                "--format",
                "trec_eval",
            ]
        ],
    }
    if a.trec_eval:
        out["trec_eval (C)"] = [
            [a.trec_eval, *sum((["-m", m] for m in measures), []), str(qrels), str(r)] for r in runs
        ]
    peer = [py, __file__]
    if a.with_pytrec:
        out["pytrec-eval-terrier"] = [peer + ["--pytrec", str(qrels), ",".join(measures), *map(str, runs)]]
    if a.with_ranx:
        out["ranx"] = [peer + ["--ranx", str(qrels), ",".join(measures), *map(str, runs)]]
    out["duckdb read (floor)"] = [peer + ["--duckdb-read", *map(str, runs)]]
    return out


def run_scenario(a, size: str, cut: str) -> dict:
    nq, nd, n_runs = SIZES[size]
    runs, qrels = generate(nq, nd, n_runs)
    ours, measures = CUTS[cut]
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for name, procs in contenders(a, runs, qrels, cut).items():
        trials = []
        for trial in range(a.repeat):
            parts = []
            outs = []
            for i, argv in enumerate(procs):
                out = OUT / f"{size}_{cut.replace(' ', '_')}_{name.split()[0]}_{i}.txt"
                parts.append(measure(argv, out))
                outs.append(out)
            trials.append(
                {
                    "wall": sum(p["wall"] for p in parts),
                    "cpu": sum(p["cpu"] for p in parts),
                    "maxrss_mb": max(p["maxrss_mb"] for p in parts),
                    "outs": outs,
                }
            )
        trials.sort(key=lambda t: t["wall"])
        best = trials[(len(trials) - 1) // 2]  # the (lower) median
        best["walls"] = [t["wall"] for t in trials]
        results[name] = best
        print(
            f"  {size:5s} {cut:10s} {name:22s} {best['wall']:7.3f} s wall {best['cpu']:7.3f} s CPU "
            f"{best['maxrss_mb']:7.0f} MB",
            flush=True,
        )
    return {
        "size": size,
        "cut": cut,
        "lines": nq * nd * n_runs,
        "runs": n_runs,
        "measures": ours if ours == measures else [f"{o} ({t})" if o != t else o for o, t in zip(ours, measures)],
        "results": results,
        "agreement": agreement(results),
    }


def agreement(results: dict) -> str:
    """Compare reljudge's `all` values with trec_eval's (and the peers') value by value."""
    ours: dict = {}
    for out in results["reljudge"]["outs"]:
        ours.update(all_lines(out))
    notes = []
    for name, r in results.items():
        if name in ("reljudge", "duckdb read (floor)"):
            continue
        theirs: dict = {}
        for i, out in enumerate(r["outs"]):
            for (m, n), v in all_lines(out).items():
                theirs[(m, n + i)] = v  # trec_eval: one file per run
        common = [k for k in theirs if k in ours]  # RR@10 vs recip_rank: not compared
        same = sum(1 for k in common if ours[k] == theirs[k])
        notes.append(f"{name}: {same}/{len(common)} `all` values of the measures both print are equal")
    return "; ".join(notes)


# -- report --------------------------------------------------------------------------------


def machine() -> str:
    return (
        f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {cpu_model()}, "
        f"Python {platform.python_version()}"
    )


def table(scenarios: list[dict], floor: dict) -> list[str]:
    rows = [
        "| data | measures | tool | wall s | CPU s | peak RSS MB | reljudge faster by | reljudge memory ÷ theirs | runs (wall s) |",
        "|---|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for sc in scenarios:
        ours = sc["results"]["reljudge"]
        data = f"{sc['size']}: {sc['lines']:,} lines" + (f" in {sc['runs']} runs" if sc["runs"] > 1 else "")
        for name, r in sc["results"].items():
            ratio = mem = ""
            if name != "reljudge":
                ratio = f"{r['wall'] / ours['wall']:.2f}×"
                mem = f"{ours['maxrss_mb'] / r['maxrss_mb']:.2f}"
            rows.append(
                f"| {data} | {' '.join(sc['measures'])} | {name} | {r['wall']:.3f} | {r['cpu']:.3f} | "
                f"{r['maxrss_mb']:.0f} | {ratio} | {mem} | {', '.join(f'{w:.3f}' for w in r['walls'])} |"
            )
    rows.append("")
    rows.append(
        f"Launcher floor (`/bin/true` through the same launcher): {floor['wall'] * 1000:.1f} ms wall, "
        f"{floor['maxrss_mb']:.0f} MB peak RSS — a child reports at least this much memory."
    )
    rows.append("")
    for sc in scenarios:
        if sc["agreement"]:
            rows.append(f"- {sc['size']}, {' '.join(sc['measures'])}: {sc['agreement']}")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trec-eval", help="path of NIST's trec_eval binary (a contender when given)")
    ap.add_argument("--sizes", default="small,1m,10m", help="comma-separated: " + ", ".join(SIZES))
    ap.add_argument("--repeat", type=int, default=3, help="runs per contender; the (lower) median is reported")
    ap.add_argument("--with-pytrec", action="store_true", help="add pytrec-eval-terrier (slow at 10m)")
    ap.add_argument("--with-ranx", action="store_true", help="add ranx (minutes at 10m; numba compiles on first use)")
    ap.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    ap.add_argument("--spawn", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    ap.add_argument("--pytrec", nargs="+", help=argparse.SUPPRESS)
    ap.add_argument("--ranx", nargs="+", help=argparse.SUPPRESS)
    ap.add_argument("--duckdb-read", nargs="+", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.spawn:
        spawn_main(a.spawn[0], a.spawn[1:])
        return
    if a.pytrec:
        pytrec_main(a.pytrec[0], a.pytrec[2:], a.pytrec[1].split(","))
        return
    if a.ranx:
        ranx_main(a.ranx[0], a.ranx[2:], a.ranx[1].split(","))
        return
    if a.duckdb_read:
        duckdb_read_main(a.duckdb_read)
        return

    trec_note = ""
    if a.trec_eval and not (Path(a.trec_eval).is_file() and os.access(a.trec_eval, os.X_OK)):
        found = shutil.which(a.trec_eval)
        if not found:
            raise SystemExit(f"--trec-eval {a.trec_eval}: no such executable")
        a.trec_eval = found
    if not a.trec_eval:
        trec_note = (
            "trec_eval (C) is absent from this run: pass `--trec-eval PATH` "
            "(build it from github.com/usnistgov/trec_eval, outside the project)."
        )
        print(trec_note, flush=True)
    else:
        v = subprocess.run([a.trec_eval, "-v"], capture_output=True, text=True)
        trec_note = f"trec_eval: `{(v.stdout + v.stderr).strip().splitlines()[0]}`."

    load_before = os.getloadavg()
    DATA.mkdir(exist_ok=True)
    floor = measure(["/bin/true"], DATA / "true.out")
    scenarios = []
    for size in a.sizes.split(","):
        for cut in CUTS:
            if size == "small" and cut != "usual":
                continue
            scenarios.append(run_scenario(a, size, cut))
    load_after = os.getloadavg()
    cmd = (
        "python bench/bench_evaluate.py"
        + (" --trec-eval PATH" if a.trec_eval else "")
        + (f" --sizes {a.sizes}" if a.sizes != "small,1m,10m" else "")
        + f" --repeat {a.repeat}"
        + (" --with-pytrec" if a.with_pytrec else "")
        + (" --with-ranx" if a.with_ranx else "")
    )
    text = "\n".join(
        [
            "## evaluate: `reljudge evaluate --qrels` beside trec_eval, whole processes",
            "",
            f"{dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()}; `{cmd}`; "
            f"1-min load average {load_before[0]:.1f} before, {load_after[0]:.1f} after. {trec_note}",
            "Each contender is a whole process (start, imports, reading, computing, printing), started by a small "
            "launcher that reads wall time, CPU time (user + system) and peak RSS of that process alone from `wait4`; "
            "the median of the runs is shown. trec_eval takes one run per process: its figures are summed over the runs "
            "(peak RSS: the largest). Runs: scores on a 1e-4 grid (ties), ~23 judged documents per query, grades 0–2; "
            "`small` = 50 queries × 100 documents × 4 runs.",
            "",
            *table(scenarios, floor),
            "",
            "Goals (issues 10 and 11): small inputs well under 0.5 s; ≥ 3× faster than trec_eval at 1M and 10M lines; "
            "peak memory at or below trec_eval's at every K.",
        ]
    )
    if not a.no_write:
        write_section("evaluate", text)
    print("\n" + text)


if __name__ == "__main__":
    main()
