"""Import synthetic corpora (JSONL) and report time and peak memory per size.

What it measures: the peak RSS (ru_maxrss) of a fresh process that opens a new
database and imports the corpus, for each size given, once with DuckDB's default
memory limit (80 % of RAM) and once with RELJUDGE_MEMORY_LIMIT (default 256MB).
Python holds one chunk of 20,000 rows at a time; DuckDB holds the staged rows and the
insert's working set in its buffer pool, up to its memory limit, and spills to disk
beyond it. So the peak grows with the file under the default limit and levels off
under a set one: the table shows both.
Usage: python bench/bench_import.py [N ...] [--limit 256MB]
       (default N: 50000 200000 1000000; writes the section <!-- import:begin/end --> of
       bench/RESULTS.md)
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

from benchlib import cpu_model, write_section

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

CHILD = """
import resource, sys, time
from reljudge.campaign import setup as campaign
from reljudge.storage import open_database
t = time.perf_counter()
db = open_database(sys.argv[2])
s = campaign.import_file(db, "corpus", sys.argv[1])
db.close()
print(s.inserted, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def duckdb_version() -> str:
    return subprocess.run(
        [sys.executable, "-c", "import duckdb; print(duckdb.__version__)"], capture_output=True, text=True, check=True
    ).stdout.strip()


def make_corpus(n: int) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"corpus_{n}.jsonl"
    if path.exists():
        return path
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(
                json.dumps(
                    {
                        "pid": f"p{i:07d}",
                        "doc_id": f"d{i // 50:06d}",
                        "title": f"[예시] 말씀선집 제{i // 5000 + 1}권",
                        "date": f"{1960 + i % 50}-01-01",
                        "volume": str(i // 5000 + 1),
                        "page": str(i % 400 + 1),
                        "position": i % 50,
                        "text": f"이 문단은 벤치마크용 합성 문단 {i}번입니다. 감사와 사랑과 평화에 대하여 말합니다. "
                        * 3,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    return path


def run_once(corpus: Path, limit: str | None) -> tuple[int, float, int]:
    """(paragraphs imported, seconds, peak RSS in KB) of one import in a fresh process."""
    db = DATA / "import_bench.duckdb"
    for suffix in ("", ".wal", ".tmp"):
        target = Path(str(db) + suffix)
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink(missing_ok=True)
    env = dict(os.environ)
    env.pop("RELJUDGE_MEMORY_LIMIT", None)
    if limit:
        env["RELJUDGE_MEMORY_LIMIT"] = limit
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(corpus), str(db)], capture_output=True, text=True, check=True, env=env
    ).stdout.split()
    return int(out[0]), float(out[1]), int(out[2])


def main() -> int:
    args = sys.argv[1:]
    limit = "256MB"
    if "--limit" in args:
        i = args.index("--limit")
        limit = args[i + 1]
        del args[i : i + 2]
    sizes = [int(a) for a in args] or [50_000, 200_000, 1_000_000]
    rows = []
    for n in sizes:
        corpus = make_corpus(n)
        inserted, seconds, rss_default = run_once(corpus, None)
        _, seconds_limited, rss_limited = run_once(corpus, limit)
        rows.append(
            f"| {inserted:,} | {corpus.stat().st_size / 1e6:,.0f} MB | {seconds:.1f} s "
            f"({inserted / seconds:,.0f}/s) | {rss_default / 1024:,.0f} MB | {seconds_limited:.1f} s "
            f"| {rss_limited / 1024:,.0f} MB |"
        )
    section = (
        f"## Import: {', '.join(f'{n:,}' for n in sizes)} paragraphs (JSONL)\n\n"
        f"Measured {dt.date.today()} on {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()}, "
        f"DuckDB {duckdb_version()}.\n"
        "Each import runs in a fresh process (new database: parse, validate, duplicate keys, insert, commit);\n"
        "peak RSS = ru_maxrss of that process.\n\n"
        f"| paragraphs | file | time, DuckDB default limit | peak RSS, default limit | time, limit {limit} "
        f"| peak RSS, limit {limit} |\n|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n\n"
        "Python holds one chunk of 20,000 parsed rows at a time (a chunk is released before the next is\n"
        "read). DuckDB keeps the staged rows and the insert's working set in its buffer pool, which grows\n"
        "with the file up to DuckDB's memory limit (default 80 % of RAM) and spills to disk beyond it: with\n"
        f"`RELJUDGE_MEMORY_LIMIT={limit}` the peak levels off at about Python's own share plus that limit.\n"
    )
    write_section("import", section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
