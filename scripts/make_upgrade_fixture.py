"""Make the upgrade fixture: a campaign database written by a reljudge *release*, on both
backends, with the figures that release computed from it (tests/test_upgrade.py opens it
with today's code and checks that nothing is lost and every figure is unchanged).

It runs under the release's code, not today's: check the release out beside the project
and put its ``src`` and ``tests`` first on the path. The imports below are that release's
module names (the flat layout before the packages by capability).

    git worktree add /tmp/release 069c6b3
    PYTHONPATH=/tmp/release/src:/tmp/release/tests \\
        python scripts/make_upgrade_fixture.py tests/data/upgrade/069c6b3

Writes campaign.duckdb.gz (the DuckDB file, checkpointed and closed), campaign.pgsql.gz
(pg_dump of the same campaign made on PostgreSQL) and expected.json (counts, qrels and
the evaluation's means as that release computed them).
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from postgres_support import PostgresServer  # the release's tests/

from reljudge import adjudication, auth, campaign, evaluation, export, judging, plan  # the release's modules
from reljudge.storage import open_database


#: the columns of the evaluation compared across releases (intervals and tests depend on
#: resampling and are left out)
MEANS = ["system", "qtype", "measure", "n", "mean"]
PER_QUERY = ["system", "qid", "measure", "value"]


def build(db, work: Path) -> dict:
    """The demo campaign, judged by two annotators with overlap, a no-answer verdict, an
    adjudication, an imported qrels source, a frozen qrels version and the rr-first plan."""
    campaign.load_demo(db, with_accounts=False)
    auth.add_user(db, "ann", "password-ann", "annotator")
    auth.add_user(db, "bob", "password-bob", "annotator")
    auth.add_user(db, "lee", "password-lee", "lead")
    rng = random.Random(20261204)
    pool = db.cursor().execute("SELECT qid, pid FROM pool ORDER BY qid, pid").fetchall()
    qids = sorted({q for q, _ in pool})
    judged = {q for i, q in enumerate(qids) if i % 4 != 3}  # a quarter of the questions stay unjudged
    for qid, pid in pool:
        if qid not in judged:
            continue
        g = rng.choice([0, 0, 0, 1, 2])
        judging.grade(db, "ann", qid, pid, g, ms=1500 + rng.randrange(3000))
        if rng.random() < 0.6:
            judging.grade(db, "bob", qid, pid, g if rng.random() < 0.8 else (g + 1) % 3, ms=2000)
    judging.mark_no_answer(db, "ann", sorted(judged)[0], True, note="없음")
    queue = adjudication.queue(db)
    if not queue.empty:
        first = queue.iloc[0]
        adjudication.adjudicate(db, "lee", first.qid, first.pid, 2, "직접 인용 가능")
    ext = work / "ext.qrels"
    ext.write_text("".join(f"{q} 0 {p} {rng.choice([0, 1, 2])}\n" for q, p in pool[:40]), encoding="utf-8")
    export.import_qrels(db, ext, "ext")
    adjudication.freeze(db, "lee", note="release fixture")
    plan.set_plan(db, "rr-first", True)
    ev = evaluation.evaluate_campaign(db, n_boot=50, n_perm=50)
    cur = db.cursor()
    counts = {
        table: cur.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]  # noqa: S608 — fixed names
        for table in (
            "paragraphs",
            "questions",
            "run_entries",
            "pool",
            "judgment_events",
            "users",
            "adjudications",
            "answer_sentences",
            "qrels_version_rows",
            "external_qrels",
            "qrels_versions",
            "answers",
        )
    }
    qrels = adjudication.qrels(db).sort_values(["qid", "pid"])
    return {
        "migrations": [name for _, name in db.applied_migrations()],
        "counts": counts,
        "qrels": qrels[["qid", "pid", "grade"]].astype({"grade": int}).values.tolist(),
        "means": json.loads(ev.result.means[MEANS].to_json(orient="records")),
        "per_query": json.loads(ev.result.per_query[PER_QUERY].to_json(orient="records")),
        "plan": plan.current(db).describe(),
    }


def main() -> int:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        path = work / "campaign.duckdb"
        db = open_database(path)
        expected = build(db, work)
        db.close()
        with open(path, "rb") as src, gzip.open(out / "campaign.duckdb.gz", "wb") as dst:
            shutil.copyfileobj(src, dst)
        server = PostgresServer()
        try:
            name = server.new_database()
            db = open_database(server.url(name))
            pg_expected = build(db, work)
            db.close()
            assert pg_expected == expected, "the release gave different figures on PostgreSQL"
            dump = subprocess.run(
                [str(server.bin / "pg_dump"), "--no-owner", "--no-privileges", "-h", str(server.root)]
                + ["-p", str(server.port), "-U", "postgres", name],
                capture_output=True,
                check=True,
            ).stdout
            with gzip.open(out / "campaign.pgsql.gz", "wb") as dst:
                dst.write(dump)
        finally:
            server.destroy()
    (out / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}: {expected['counts']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
