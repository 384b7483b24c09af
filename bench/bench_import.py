"""Import a 1,000,000-paragraph corpus (JSONL) and report time and peak memory.

Shows that imports stream: peak RSS stays bounded by the chunk size, not the file.
Usage: python bench/bench_import.py [N]   (writes the section <!-- import:begin/end --> of bench/RESULTS.md)
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

from benchlib import cpu_model, write_section

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

CHILD = """
import resource, sys, time
from reljudge import campaign
from reljudge.storage import open_database
t = time.perf_counter()
db = open_database(sys.argv[2])
s = campaign.import_file(db, "corpus", sys.argv[1])
db.close()
print(s.inserted, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def make_corpus(n: int) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"corpus_{n}.jsonl"
    if path.exists():
        return path
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({
                "pid": f"p{i:07d}", "doc_id": f"d{i // 50:06d}", "title": f"[예시] 말씀선집 제{i // 5000 + 1}권",
                "date": f"{1960 + i % 50}-01-01", "volume": str(i // 5000 + 1), "page": str(i % 400 + 1),
                "position": i % 50,
                "text": f"이 문단은 벤치마크용 합성 문단 {i}번입니다. 감사와 사랑과 평화에 대하여 말합니다. " * 3,
            }, ensure_ascii=False) + "\n")
    return path


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    corpus = make_corpus(n)
    db = DATA / "import_bench.duckdb"
    for suffix in ("", ".wal"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    out = subprocess.run([sys.executable, "-c", CHILD, str(corpus), str(db)], capture_output=True,
                         text=True, check=True).stdout.split()
    inserted, seconds, rss_kb = int(out[0]), float(out[1]), int(out[2])
    size_mb = corpus.stat().st_size / 1e6
    section = (
        f"## Import: {n:,} paragraphs (JSONL, {size_mb:,.0f} MB)\n\n"
        f"Measured {dt.date.today()} on {os.cpu_count()} cores, {cpu_model()}, Python {platform.python_version()}.\n\n"
        f"| figure | value |\n|---|---|\n"
        f"| paragraphs imported | {inserted:,} |\n"
        f"| wall time (parse, validate, duplicate keys, insert, commit) | {seconds:.1f} s |\n"
        f"| throughput | {inserted / seconds:,.0f} paragraphs/s |\n"
        f"| peak RSS of the importing process | {rss_kb / 1024:,.0f} MB |\n"
        f"| file size | {size_mb:,.0f} MB |\n\n"
        "Rows are parsed in a stream and handed to DuckDB in chunks of 20,000, so the Python side holds\n"
        "one chunk at a time; the rest of the peak is DuckDB's own buffer for the staged table.\n"
    )
    write_section("import", section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
