"""The bundled demo campaign (src/reljudge/demo/) as TREC files, with an oracle, for
bench/bench_judging_cost.py.

    python bench/make_demo_campaign.py OUT_DIR

The demo ships no judgments (judging is what it is for). Its generator,
scripts/make_demo_data.py, holds the *intended* grades (0/1/2 per question and
paragraph) from which the simulated runs were made, and never writes them out; this
script takes them from ``build_corpus()`` (a pure function of that file, checked here
against the shipped corpus.jsonl text by text) and writes them as the oracle qrels:
every paragraph any run retrieves gets a line (its intended grade, 0 when it has
none), so every question, the three no-answer ones included, is in the qrels.

Writes OUT_DIR/qrels.txt, OUT_DIR/runs/{bm25,vector,hybrid,graphrag}.trec (the shipped
runs, depth 20; GraphRAG's abstentions are left out, as an empty ranking),
OUT_DIR/corpus.jsonl, OUT_DIR/questions.jsonl and OUT_DIR/SOURCE.txt. Reads only files
of this checkout; downloads nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "src" / "reljudge" / "demo"


def load_generator():
    spec = importlib.util.spec_from_file_location("make_demo_data", REPO / "scripts" / "make_demo_data.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_demo_data"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def read_runs() -> dict[str, list[tuple[str, str, int, float]]]:
    """system -> (qid, pid, rank, score) rows, as the demo ships them."""
    runs: dict[str, list[tuple[str, str, int, float]]] = {}
    for path in sorted((DEMO / "runs").iterdir()):
        system = path.stem
        rows = []
        if path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                if row.get("abstained"):
                    continue
                rows.append((row["qid"], row["pid"], int(row["rank"]), float(row["score"])))
        else:
            for line in path.read_text(encoding="utf-8").splitlines():
                qid, _, pid, rank, score, _tag = line.split()
                rows.append((qid, pid, int(rank), float(score)))
        runs[system] = rows
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    gen = load_generator()
    corpus = gen.build_corpus()
    shipped = [json.loads(line) for line in (DEMO / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    if [(p.pid, p.text) for p in corpus] != [(r["pid"], r["text"]) for r in shipped]:
        raise SystemExit("scripts/make_demo_data.py no longer builds the shipped corpus: its labels would not fit")
    gold = {(qid, p.pid): grade for p in corpus for qid, grade in p.gold}
    runs = read_runs()
    out: Path = args.out
    (out / "runs").mkdir(parents=True, exist_ok=True)
    retrieved: set[tuple[str, str]] = set()
    for system, rows in runs.items():
        with open(out / "runs" / f"{system}.trec", "w", encoding="utf-8") as fh:
            for qid, pid, rank, score in rows:
                fh.write(f"{qid} Q0 {pid} {rank} {score} {system}\n")
                retrieved.add((qid, pid))
    with open(out / "qrels.txt", "w", encoding="utf-8") as fh:
        for qid, pid in sorted(retrieved | set(gold)):
            fh.write(f"{qid} 0 {pid} {gold.get((qid, pid), 0)}\n")
    for name in ("corpus.jsonl", "questions.jsonl"):
        shutil.copyfile(DEMO / name, out / name)
    n2 = sum(g == 2 for g in gold.values())
    n1 = sum(g == 1 for g in gold.values())
    (out / "SOURCE.txt").write_text(
        "reljudge's bundled demo campaign (src/reljudge/demo/: invented Korean sample data, 24 questions, "
        "4 simulated runs at depth 20); oracle = the intended grades held by scripts/make_demo_data.py "
        f"({n2} grade-2 and {n1} grade-1 labels; every other retrieved paragraph 0), "
        "written by bench/make_demo_campaign.py.\n",
        encoding="utf-8",
    )
    print(f"wrote {out}: {len(runs)} runs, {len(retrieved | set(gold))} qrels lines ({n2} grade 2, {n1} grade 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
