"""What every benchmark here shares: the machine's description and writing its own
section of bench/RESULTS.md (between `<!-- NAME:begin -->` and `<!-- NAME:end -->`,
leaving the other benchmarks' sections alone)."""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

from reljudge.question_types import DEFAULT_TYPES

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "RESULTS.md"

# The campaign-sized database of the dashboard and load benchmarks.
N_Q, SYSTEMS, DEPTH, N_EVENTS, N_ANNOT = 1000, ("bm25", "vector", "hybrid", "graphrag"), 20, 50_000, 5
TYPES = DEFAULT_TYPES  # the methodology's four (reljudge.question_types), declared in every campaign
PASSWORD = "bench-password"


def build_large_campaign(path: Path, n_annotators: int = N_ANNOT) -> None:
    """1,000 questions × 4 systems × depth 20 (pooled), annotators a0…a{n-1} (password
    PASSWORD) and 50,000 judgment events spread over the first N_ANNOT of them, stored
    through the same save path the app uses (batches of 500)."""
    import numpy as np

    from reljudge.campaign import auth
    from reljudge.campaign import setup as campaign
    from reljudge.storage import judgments as store
    from reljudge.storage import open_database

    rng = np.random.default_rng(7)
    data = HERE / "data" / "dashboard"
    data.mkdir(parents=True, exist_ok=True)
    per_q = 40
    with open(data / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for q in range(N_Q):
            for j in range(per_q):
                fh.write(
                    json.dumps(
                        {
                            "pid": f"p{q:04d}_{j:02d}",
                            "doc_id": f"d{q:04d}",
                            "position": j,
                            "text": f"질문 {q}의 후보 문단 {j}: 합성 자료입니다.",
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
    with open(data / "questions.jsonl", "w", encoding="utf-8") as fh:
        for q in range(N_Q):
            fh.write(
                json.dumps(
                    {
                        "qid": f"q{q:04d}",
                        "text": f"합성 질문 {q}",
                        "type": TYPES[q % 4],
                        "no_answer_expected": q % 50 == 0,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    for s in SYSTEMS:
        with open(data / f"{s}.trec", "w", encoding="utf-8") as fh:
            for q in range(N_Q):
                picks = rng.choice(per_q, DEPTH, replace=False)
                scores = np.round(np.sort(rng.random(DEPTH))[::-1], 2)  # 2 decimals: ties
                for r, (j, sc) in enumerate(zip(picks, scores), 1):
                    fh.write(f"q{q:04d} Q0 p{q:04d}_{j:02d} {r} {sc} {s}\n")
    if not is_url(path):
        for suffix in ("", ".wal"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    db = open_database(str(path) if is_url(path) else path)
    campaign.import_file(db, "corpus", data / "corpus.jsonl")
    campaign.import_file(db, "questions", data / "questions.jsonl")
    for s in SYSTEMS:
        campaign.import_file(db, "run", data / f"{s}.trec")
    campaign.pool(db, DEPTH)
    pool = db.cursor().execute("SELECT qid, pid FROM pool").df()
    for a in range(max(n_annotators, N_ANNOT)):
        auth.add_user(db, f"a{a}", PASSWORD, "annotator")
    # 50,000 events: each annotator judges a share of the pool, some paragraphs twice.
    idx = rng.integers(0, len(pool), N_EVENTS)
    events = pool.iloc[idx].reset_index(drop=True)
    events["grade"] = rng.choice([0, 0, 0, 1, 2], N_EVENTS)
    events["ms"] = rng.integers(500, 20_000, N_EVENTS)
    users = rng.integers(0, N_ANNOT, N_EVENTS)
    for a in range(N_ANNOT):
        part = events[users == a]
        rows = [
            {
                "client_event_id": str(uuid.uuid4()),
                "qid": r.qid,
                "pid": r.pid,
                "grade": int(r.grade),
                "no_answer": None,
                "note": None,
                "evidence": None,
                "time_spent_ms": int(r.ms),
                "client_id": None,
                "base_event_id": None,
            }
            for r in part.itertuples()
        ]
        for i in range(0, len(rows), 500):
            store.append_event_batches(db, [(f"a{a}", rows[i : i + 500], True)])
    db.close()


def is_url(target) -> bool:
    return str(target).lower().startswith(("postgresql://", "postgres://"))


# -- PostgreSQL for the benchmarks -----------------------------------------------------------
def bench_postgres():
    """A PostgreSQL server in a temporary directory, started by the test suite's own helper
    (tests/postgres_support.py: Debian's binaries, unix socket only, run as the ``postgres``
    user when we are root) but with durable settings: fsync, synchronous_commit and
    full_page_writes on, as a team server runs (the tests turn them off for speed), so an
    acknowledgment waits for the WAL flush as it would in production. Call ``destroy()``."""
    sys.path.insert(0, str(REPO / "tests"))
    import postgres_support as ps

    class DurablePostgres(ps.PostgresServer):
        def start(self) -> None:
            options = (
                f"-c listen_addresses='' -k {self.root} -p {self.port} -c fsync=on "
                "-c synchronous_commit=on -c full_page_writes=on -c max_connections=300"
            )
            self._run(
                "pg_ctl",
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.root / "server.log"),
                "-w",
                "-t",
                "60",
                "start",
            )

    return DurablePostgres(durable=True)


def pg_version(server) -> str:
    out = server._run("postgres", "--version", check=False).stdout.strip()
    return out or "PostgreSQL"


def copy_db(source, target: str) -> float:
    """``reljudge copy-db SOURCE TARGET`` as a user runs it (its own process, this checkout's
    code first on PYTHONPATH); returns the wall time in seconds."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(
            [str(REPO / "src")] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
        ),
    )
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "reljudge", "copy-db", str(source), target], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"copy-db failed ({done.returncode}): {done.stderr[-2000:]}")
    return time.perf_counter() - t0


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def write_section(name: str, body: str, path: Path = RESULTS) -> None:
    """Replace the text between NAME's markers with ``body`` (appended if missing)."""
    begin, end = markers(name)
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def reads_whole_table(statement: str) -> bool:
    """A COPY the postgres extension sent (as PostgreSQL's statement log shows it) that has
    no condition of its own: a ``ctid BETWEEN …`` range is the extension splitting a scan
    into parallel parts, not a filter."""
    rest = re.sub(r"ctid BETWEEN '[^']*'::tid AND '[^']*'::tid( AND)?", "", statement)
    return not re.search(r"WHERE\s+\S", rest.split(") TO STDOUT")[0])


def statement_shape(statement: str) -> str:
    """A statement from PostgreSQL's log with its values elided (``'…'``; an IN list of
    them as ``IN ('…', …)``), so that reads of the same shape are counted together."""
    shape = re.sub(r"'[^']*'", "'…'", re.sub(r"\s+", " ", statement))
    return re.sub(r"IN \('…'(, '…')+\)", "IN ('…', …)", shape)
