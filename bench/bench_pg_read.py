"""Reading PostgreSQL tables into DuckDB: the postgres extension beside ADBC and psycopg.

    python bench/bench_pg_read.py [--repeat 5] [--big-rows 1000000] [--no-write]

The issue that brought PostgreSQL asked that metrics stay computed by DuckDB in-process,
reading what they need from PostgreSQL in columnar form — "ADBC's PostgreSQL driver or
psycopg's COPY into Arrow — measure and choose". The app uses DuckDB's postgres extension
(reljudge.storage.postgres). This measures the three side by side, on what a dashboard
refresh reads: judgment_events (all columns), run_entries (system, qid, pid, score, rank)
and paragraphs (pid, text) of the campaign of the other benchmarks (benchlib: 1,000
questions × 4 systems × depth 20, 50,000 events, moved to PostgreSQL with `reljudge
copy-db`), and judgment_events grown inside PostgreSQL to --big-rows rows (a copy of the
database; INSERT ... SELECT with gen_random_uuid()).

Every read ends as a DuckDB table ready for SQL (``CREATE TABLE t AS ...``) in the reading
process:

* ``duckdb postgres ext``: reljudge.storage.postgres.connect(url) — the app's own LOAD and
  ATTACH as ``pg`` — then ``CREATE TABLE t AS SELECT cols FROM pg.public.TABLE`` (the
  extension's binary COPY, split over DuckDB's threads);
* ``ADBC``: adbc_driver_postgresql's DB-API cursor, ``execute(SELECT cols FROM TABLE)``,
  ``fetch_arrow_table()`` (the driver's binary COPY into Arrow), then the Arrow table
  registered in DuckDB and copied into a table;
* ``psycopg CSV→pyarrow``: psycopg 3 ``COPY (SELECT cols FROM TABLE) TO STDOUT (FORMAT csv)``
  into one buffer, parsed by pyarrow.csv with the column types known in advance (NULL vs
  empty string kept apart, newlines allowed in values), then into DuckDB;
* ``psycopg CSV→duckdb``: the same COPY buffer parsed by DuckDB's read_csv.

Each read is one fresh process started by a small launcher (the pattern of
bench_evaluate.py: Linux carries a parent's memory high-water mark into a child it starts,
so the child must come from a small process). In it: imports, connect, one warm-up read of
the same query with LIMIT 1 (catalog, connection, lazy imports), then the timed read; the
process reports the read's time (and its phases), its peak RSS (ru_maxrss) before and after
the read, and a fingerprint of the table read (row count, types, a hash of every value),
which must be the same for all contenders. Per table: one warm-up round, then --repeat
rounds, the contenders' order rotating each round; the median is reported.
Writes bench/RESULTS.md between ``<!-- pg-read:begin -->`` and ``<!-- pg-read:end -->``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.metadata as md
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
REPO = HERE.parent

CONTENDERS = ("duckdb postgres ext", "ADBC", "psycopg CSV→pyarrow", "psycopg CSV→duckdb")
BASE = CONTENDERS[0]


# -- the readers (each runs in its own process) ---------------------------------------------


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _arrow_type(pg_type: str):
    import pyarrow as pa

    return {
        "character varying": pa.string(),
        "text": pa.string(),
        "bigint": pa.int64(),
        "integer": pa.int32(),
        "smallint": pa.int16(),
        "boolean": pa.bool_(),
        "double precision": pa.float64(),
        "timestamp without time zone": pa.timestamp("us"),
    }[pg_type]


def _duck_type(pg_type: str) -> str:
    return {
        "character varying": "VARCHAR",
        "text": "VARCHAR",
        "bigint": "BIGINT",
        "integer": "INTEGER",
        "smallint": "SMALLINT",
        "boolean": "BOOLEAN",
        "double precision": "DOUBLE",
        "timestamp without time zone": "TIMESTAMP",
    }[pg_type]


class Extension:
    """The app's path: DuckDB's postgres extension, attached as reljudge attaches it."""

    def __init__(self, url: str):
        from reljudge.storage import postgres

        self.con = postgres.connect(url)
        self.con.execute("SET GLOBAL TimeZone = 'UTC'")

    def read(self, table: str, cols: list[tuple[str, str]], limit: str = "") -> dict:
        names = ", ".join(c for c, _ in cols)
        self.con.execute(f"CREATE OR REPLACE TABLE t AS SELECT {names} FROM pg.public.{table}{limit}")
        return {}


class Adbc:
    def __init__(self, url: str):
        import adbc_driver_postgresql.dbapi as dbapi
        import duckdb

        self.pg = dbapi.connect(url)
        self.con = duckdb.connect()
        self.con.execute("SET GLOBAL TimeZone = 'UTC'")

    def read(self, table: str, cols: list[tuple[str, str]], limit: str = "") -> dict:
        names = ", ".join(c for c, _ in cols)
        t0 = time.perf_counter()
        with self.pg.cursor() as cur:
            cur.execute(f"SELECT {names} FROM {table}{limit}")
            arrow = cur.fetch_arrow_table()
        t1 = time.perf_counter()
        self.con.register("staged", arrow)
        self.con.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM staged")
        self.con.unregister("staged")
        del arrow
        return {"fetch into Arrow": t1 - t0, "Arrow → DuckDB table": time.perf_counter() - t1}


class PsycopgCsv:
    """psycopg 3's COPY TO STDOUT in CSV into one buffer; parsed by pyarrow or DuckDB."""

    def __init__(self, url: str, parser: str):
        import duckdb
        import psycopg

        self.pg = psycopg.connect(url, autocommit=True)
        self.con = duckdb.connect()
        self.con.execute("SET GLOBAL TimeZone = 'UTC'")
        self.parser = parser

    def _copy(self, table: str, names: str, limit: str) -> bytearray:
        buf = bytearray()
        with self.pg.cursor() as cur:
            with cur.copy(f"COPY (SELECT {names} FROM {table}{limit}) TO STDOUT (FORMAT csv)") as copy:
                for chunk in copy:
                    buf += chunk
        return buf

    def read(self, table: str, cols: list[tuple[str, str]], limit: str = "") -> dict:
        import io

        names = ", ".join(c for c, _ in cols)
        t0 = time.perf_counter()
        buf = self._copy(table, names, limit)
        t1 = time.perf_counter()
        if self.parser == "pyarrow":
            import pyarrow as pa
            import pyarrow.csv as pcsv

            arrow = pcsv.read_csv(
                pa.py_buffer(buf),
                read_options=pcsv.ReadOptions(column_names=[c for c, _ in cols]),
                parse_options=pcsv.ParseOptions(newlines_in_values=True),
                convert_options=pcsv.ConvertOptions(
                    column_types={c: _arrow_type(t) for c, t in cols},
                    null_values=[""],
                    strings_can_be_null=True,
                    quoted_strings_can_be_null=False,
                    true_values=["t"],
                    false_values=["f"],
                ),
            )
            del buf
            t2 = time.perf_counter()
            self.con.register("staged", arrow)
            self.con.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM staged")
            self.con.unregister("staged")
            del arrow
            return {
                "COPY into buffer": t1 - t0,
                "pyarrow.csv parse": t2 - t1,
                "Arrow → DuckDB table": time.perf_counter() - t2,
            }
        # PostgreSQL's CSV: NULL is an unquoted empty field, "" an empty string.
        rel = self.con.read_csv(
            io.BytesIO(buf),
            header=False,
            names=[c for c, _ in cols],
            dtype={c: _duck_type(t) for c, t in cols},
            sep=",",
            quotechar='"',
            escapechar='"',
            na_values=[""],
            allow_quoted_nulls=False,
            auto_detect=False,
        )
        self.con.register("staged", rel)
        self.con.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM staged")
        self.con.unregister("staged")
        del rel, buf
        return {"COPY into buffer": t1 - t0, "read_csv into DuckDB table": time.perf_counter() - t1}


def fingerprint(con, cols: list[tuple[str, str]]) -> dict:
    """Row count, DuckDB types and a hash of every value of table t (order-free)."""
    types = [
        r[1]
        for r in con.execute(
            "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 't' ORDER BY column_index"
        ).fetchall()
    ]
    row = ", ".join(f"{c}::VARCHAR" for c, _ in cols)  # a list keeps NULL apart from ''
    n, h = con.execute(f"SELECT count(*), bit_xor(hash([{row}])) FROM t").fetchone()
    return {"rows": n, "types": types, "hash": str(h)}


def reader_main(contender: str, url: str, table: str, cols_json: str) -> None:
    cols = [tuple(c) for c in json.loads(cols_json)]
    sys.path.insert(0, str(REPO / "src"))
    if contender == "duckdb postgres ext":
        r = Extension(url)
    elif contender == "ADBC":
        r = Adbc(url)
    elif contender == "psycopg CSV→pyarrow":
        r = PsycopgCsv(url, "pyarrow")
    elif contender == "psycopg CSV→duckdb":
        r = PsycopgCsv(url, "duckdb")
    else:
        raise SystemExit(f"unknown contender {contender}")
    r.read(table, cols, " LIMIT 1")  # warm-up: connection, catalog, code paths
    before = _maxrss_mb()
    t0 = time.perf_counter()
    phases = r.read(table, cols)
    seconds = time.perf_counter() - t0
    after = _maxrss_mb()
    print(
        json.dumps(
            {"s": seconds, "phases": phases, "rss_before_mb": before, "rss_after_mb": after, **fingerprint(r.con, cols)}
        )
    )


# -- the launcher: one process, measured alone ----------------------------------------------


def spawn_main(argv: list[str]) -> None:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    # communicate() reaps the child; its rusage is in RUSAGE_CHILDREN (the only child).
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        json.dumps(
            {
                "code": proc.returncode,
                "out": out.decode(errors="replace"),
                "stderr": err.decode(errors="replace")[-3000:],
                "maxrss_mb": usage.ru_maxrss / 1024,
            }
        )
    )


def measure(contender: str, url: str, table: str, cols: list) -> dict:
    argv = [sys.executable, __file__, "--read", contender, url, table, json.dumps(cols)]
    p = subprocess.run(
        [sys.executable, __file__, "--spawn", *argv],
        capture_output=True,
        text=True,
        check=True,
        env=dict(
            os.environ,
            PYTHONPATH=os.pathsep.join(
                [str(REPO / "src")] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
            ),
        ),
    )
    r = json.loads(p.stdout.strip().splitlines()[-1])
    if r["code"] != 0:
        raise SystemExit(f"{contender} on {table} exited {r['code']}:\n{r['stderr']}")
    out = json.loads(r["out"].strip().splitlines()[-1])
    out["process_maxrss_mb"] = r["maxrss_mb"]
    return out


# -- PostgreSQL set-up ----------------------------------------------------------------------


def columns(url: str, table: str) -> list[tuple[str, str]]:
    import psycopg

    with psycopg.connect(url) as con:
        return [
            tuple(r)
            for r in con.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'public' AND table_name = %s ORDER BY ordinal_position",
                (table,),
            ).fetchall()
        ]


def grow_events(url: str, rows: int) -> float:
    """judgment_events copied onto itself (fresh client_event_id, event_id from its sequence)
    until it holds ``rows`` rows; then VACUUM ANALYZE. Returns the seconds it took."""
    import psycopg

    t0 = time.perf_counter()
    cols = [c for c, _ in columns(url, "judgment_events") if c not in ("event_id", "client_event_id")]
    names = ", ".join(cols)
    picked = ", ".join(f"e.{c}" for c in cols)
    with psycopg.connect(url, autocommit=True) as con:
        have = con.execute("SELECT count(*) FROM judgment_events").fetchone()[0]
        if rows > have:
            copies = -(-rows // have) - 1
            con.execute(f"""INSERT INTO judgment_events (client_event_id, {names})
                            SELECT gen_random_uuid()::text, {picked}
                            FROM judgment_events e, generate_series(1, {copies}) g
                            LIMIT {rows - have}""")
        con.execute("VACUUM (ANALYZE) judgment_events")
    return time.perf_counter() - t0


def vacuum(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        con.execute("VACUUM (ANALYZE)")


def versions() -> dict[str, str]:
    import psycopg

    v = {
        name: md.version(name)
        for name in (
            "duckdb",
            "duckdb-extension-postgres-scanner",
            "adbc-driver-postgresql",
            "adbc-driver-manager",
            "pyarrow",
            "psycopg",
        )
    }
    v["psycopg"] += f" ({psycopg.pq.__impl__}, libpq {psycopg.pq.version()})"
    return v


# -- the run --------------------------------------------------------------------------------


def run(a) -> dict:
    from benchlib import bench_postgres, build_large_campaign, copy_db, pg_version

    path = HERE / "data" / "pg_read.duckdb"
    t0 = time.perf_counter()
    build_large_campaign(path)
    build_s = time.perf_counter() - t0
    pg = bench_postgres()
    try:
        name = pg.new_database()
        url = pg.url(name)
        copy_s = copy_db(path, url)
        vacuum(url)
        big_url = pg.url(pg.new_database(template=name))
        grow_s = grow_events(big_url, a.big_rows)
        ev_cols = columns(url, "judgment_events")
        run_cols = dict(columns(url, "run_entries"))
        par_cols = dict(columns(url, "paragraphs"))
        datasets = [
            ("judgment_events", "campaign", url, ev_cols),
            ("run_entries", "campaign", url, [(c, run_cols[c]) for c in ("system", "qid", "pid", "score", "rank")]),
            ("paragraphs", "campaign", url, [(c, par_cols[c]) for c in ("pid", "text")]),
            ("judgment_events", "grown", big_url, ev_cols),
        ]
        load_before = os.getloadavg()
        started = time.perf_counter()
        results = []
        for table, size, where, cols in datasets:
            trials = {c: [] for c in CONTENDERS}
            for rnd in range(a.repeat + 1):
                k = rnd % len(CONTENDERS)
                for contender in CONTENDERS[k:] + CONTENDERS[:k]:
                    r = measure(contender, where, table, cols)
                    if rnd > 0:  # round 0: warm-up
                        trials[contender].append(r)
                    print(
                        f"  {table:16s} {size:8s} round {rnd} {contender:22s} {r['s'] * 1000:8.1f} ms "
                        f"{r['rows']:>9,} rows  RSS {r['rss_before_mb']:.0f}→{r['rss_after_mb']:.0f} MB "
                        f"(whole process {r['process_maxrss_mb']:.0f} MB)",
                        flush=True,
                    )
            results.append({"table": table, "size": size, "cols": [c for c, _ in cols], "trials": trials})
        bench_s = time.perf_counter() - started
        load_after = os.getloadavg()
        return {
            "results": results,
            "build_s": build_s,
            "copy_s": copy_s,
            "grow_s": grow_s,
            "bench_s": bench_s,
            "load_before": load_before,
            "load_after": load_after,
            "pg": pg_version(pg),
        }
    finally:
        pg.destroy()


# -- report ---------------------------------------------------------------------------------


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def summarize(res: dict) -> dict:
    """contender -> figures of one table/size; the fingerprints checked alike."""
    out = {}
    for c, trials in res["trials"].items():
        secs = [t["s"] * 1000 for t in trials]
        phases = {}
        for t in trials:
            for k, v in t["phases"].items():
                phases.setdefault(k, []).append(v * 1000)
        out[c] = {
            "median": med(secs),
            "min": min(secs),
            "max": max(secs),
            "rows": trials[0]["rows"],
            "rss": med([t["rss_after_mb"] for t in trials]),
            "rss_read": med([t["rss_after_mb"] - t["rss_before_mb"] for t in trials]),
            "phases": {k: med(v) for k, v in phases.items()},
            "prints": {(t["rows"], tuple(t["types"]), t["hash"]) for t in trials},
        }
    return out


def report(a, r: dict) -> str:
    now = dt.datetime.now(dt.timezone.utc)
    lb, la = r["load_before"], r["load_after"]
    v = versions()
    lines = [
        "## PostgreSQL → DuckDB reads: the postgres extension beside ADBC and psycopg COPY",
        "",
        f"Measured {now:%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores (nproc {len(os.sched_getaffinity(0))}), "
        f"{__import__('benchlib').cpu_model()}, Python {platform.python_version()}, {r['pg']} "
        f"(`python bench/bench_pg_read.py --repeat {a.repeat} --big-rows {a.big_rows}`). **The machine was shared** "
        f"with other engineers' tests and benchmarks: load average (1/5/15 min) {lb[0]:.1f}/{lb[1]:.1f}/{lb[2]:.1f} "
        f"before the reads, {la[0]:.1f}/{la[1]:.1f}/{la[2]:.1f} after ({r['bench_s']:.0f} s of reads). "
        "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".",
        "",
        "PostgreSQL: a server in a temporary directory (`benchlib.bench_postgres()`: unix socket, durable "
        f"settings); the campaign of the other benchmarks moved there by `reljudge copy-db` ({r['copy_s']:.1f} s), "
        f"and a copy of that database whose judgment_events was grown to {a.big_rows:,} rows inside PostgreSQL "
        f"(INSERT ... SELECT gen_random_uuid()::text, ... ; {r['grow_s']:.0f} s with VACUUM ANALYZE). "
        "Each read ends as a DuckDB table ready for SQL (`CREATE TABLE t AS ...`) in a fresh process of its own, "
        "started by a small launcher; in it, after connecting and one warm-up read of the same query with LIMIT 1, "
        "the timed read. Contenders: **duckdb postgres ext** — `reljudge.storage.postgres.connect(url)` (the app's "
        "LOAD + ATTACH as `pg`), `CREATE TABLE t AS SELECT cols FROM pg.public.TABLE`; **ADBC** — "
        "adbc_driver_postgresql's DB-API cursor, `execute` + `fetch_arrow_table()`, the Arrow table registered in "
        "DuckDB and copied into a table; **psycopg CSV→pyarrow** — psycopg 3 `COPY (SELECT cols FROM TABLE) TO "
        "STDOUT (FORMAT csv)` into one buffer, parsed by `pyarrow.csv` with the column types given (NULL and '' kept "
        "apart, newlines allowed in values), then into DuckDB; **psycopg CSV→duckdb** — the same buffer parsed by "
        f"DuckDB's `read_csv`. One warm-up round, then {a.repeat} rounds, the contenders' order rotating each round. "
        "Peak RSS: the reading process's `ru_maxrss` at the end of the read (what the process holds: Python, "
        'DuckDB and the driver loaded, connected, and the table read); "+ read" is its rise during the read — '
        "compare that: the rest is mostly imports (the extension's process never imports pyarrow; the app does anyway). "
        'ADBC\'s "fetch into Arrow" phase alone is the time to an Arrow table DuckDB could query in place (registered, '
        "no copy). "
        "Every contender's table was checked to hold the same rows, column types and values (a hash of every value).",
        "",
    ]
    summaries = []
    for res in r["results"]:
        s = summarize(res)
        summaries.append((res, s))
        rows = s[BASE]["rows"]
        cols = "all columns" if res["table"] == "judgment_events" else ", ".join(res["cols"])
        prints = {c: f["prints"] for c, f in s.items()}
        same = len(set().union(*prints.values())) == 1
        lines += [
            f"### {res['table']} ({cols}), {rows:,} rows"
            + (" — the campaign" if res["size"] == "campaign" else " — grown inside PostgreSQL"),
            "",
            "| contender | median ms | min – max ms | rows | peak RSS MB (+ read) | time ÷ extension's | phases (median ms) |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        base = s[BASE]["median"]
        for c in CONTENDERS:
            f = s[c]
            ph = "; ".join(f"{k} {val:.0f}" for k, val in f["phases"].items()) or "one statement"
            lines.append(
                f"| {c} | {f['median']:.0f} | {f['min']:.0f} – {f['max']:.0f} | {f['rows']:,} | "
                f"{f['rss']:.0f} (+{f['rss_read']:.0f}) | {f['median'] / base:.2f}× | {ph} |"
            )
        lines += [
            "",
            "Same rows, types and values in all contenders: "
            + ("yes." if same else "**NO** — " + "; ".join(f"{c}: {sorted(p)}" for c, p in prints.items())),
            "",
        ]
    lines += conclusion(summaries)
    return "\n".join(lines)


def conclusion(summaries: list) -> list[str]:
    """The verdict, from the medians: which contender is fastest where, and whether the
    extension should stay. "Clearly faster" = a median below 0.8× the extension's and
    every one of its runs faster than every run of the extension."""
    fastest, clearly = [], []
    for res, s in summaries:
        label = f"{res['table']} ({s[BASE]['rows']:,} rows)"
        ranked = sorted(CONTENDERS, key=lambda c: s[c]["median"])
        first, second = ranked[0], ranked[1]
        fastest.append(
            f"{label}: {first} ({s[first]['median']:.0f} ms; next {second}, "
            f"{s[second]['median'] / s[first]['median']:.2f}× that)"
        )
        for c in CONTENDERS[1:]:
            if s[c]["median"] < 0.8 * s[BASE]["median"] and s[c]["max"] < s[BASE]["min"]:
                clearly.append(
                    f"{c} on {label}, {s[BASE]['median'] - s[c]['median']:.0f} ms less "
                    f"({(1 - s[c]['median'] / s[BASE]['median']) * 100:.0f}%)"
                )
    campaign = [s for res, s in summaries if res["size"] == "campaign"]
    totals = {c: sum(s[c]["median"] for s in campaign) for c in CONTENDERS}
    lines = [
        "Fastest per table (median): " + "; ".join(fastest) + ". "
        "The campaign's three reads together: " + ", ".join(f"{c} {t:.0f} ms" for c, t in totals.items()) + ". "
        "ADBC's fetch into Arrow alone, before any copy into DuckDB: "
        + " / ".join(f"{s['ADBC']['phases']['fetch into Arrow']:.0f}" for _, s in summaries)
        + " ms, against the extension's whole read into a DuckDB table: "
        + " / ".join(f"{s[BASE]['median']:.0f}" for _, s in summaries)
        + " ms (tables in the order above): "
        f"on {sum(s['ADBC']['phases']['fetch into Arrow'] < s[BASE]['median'] for _, s in summaries)} of "
        f"{len(summaries)} tables an Arrow table queried in place would have been ready sooner than the "
        "extension's DuckDB table.",
        "",
    ]
    always_first = all(min(CONTENDERS, key=lambda c: s[c]["median"]) == BASE for _, s in summaries)
    least_memory = all(min(CONTENDERS, key=lambda c: s[c]["rss_read"]) == BASE for _, s in summaries)
    gives = (
        "sends column conditions to PostgreSQL as filters (equality and IN lists of bound values: the "
        "save's lookups, answered by indexes; see the load-team section) and runs the same DuckDB SQL over the PostgreSQL "
        "tables, where ADBC or psycopg would need each query's reads staged by hand (which tables, columns and "
        "filters, and when a staged copy is stale)"
    )
    if not clearly:
        lines.append(
            "**Conclusion.** No contender is clearly faster than DuckDB's postgres extension (below 0.8× its median "
            "with every run faster) on any table — the extension "
            + ("is the fastest on every table" if always_first else "reads about as fast as ADBC and psycopg's COPY")
            + (" and its process grows the least during the read" if least_memory else "")
            + ", so **the current choice stays**: it also "
            + gives
            + "."
        )
    else:
        lines.append(
            "**Conclusion.** Clearly faster than the extension: " + "; ".join(clearly) + ". Switching would give up "
            "what the extension does besides reading: it " + gives + " — weigh that against the milliseconds above."
        )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="timed rounds per table (after one warm-up round)")
    ap.add_argument("--big-rows", type=int, default=1_000_000, help="rows of the grown judgment_events")
    ap.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    ap.add_argument("--spawn", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    ap.add_argument("--read", nargs=4, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.spawn:
        spawn_main(a.spawn)
        return
    if a.read:
        reader_main(*a.read)
        return
    r = run(a)
    text = report(a, r)
    if not a.no_write:
        from benchlib import write_section

        write_section("pg-read", text)
    print("\n" + text)


if __name__ == "__main__":
    main()
