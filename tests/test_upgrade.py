"""A database made by the previous release opens with today's code on both backends: the
new migration steps are applied, nothing is lost, and every figure that release computed
from it comes out the same (tests/data/upgrade/<release>/, made by
scripts/make_upgrade_fixture.py under that release's code)."""

from __future__ import annotations

import gzip
import json
import math
import shutil
import subprocess
from pathlib import Path

import pytest

from reljudge.campaign import adjudication, evaluation, judging, plan
from reljudge.storage import open_database
from reljudge.storage.migrations import MIGRATIONS

RELEASES = sorted((Path(__file__).parent / "data" / "upgrade").iterdir())
MEANS = ["system", "qtype", "measure", "n", "mean"]
PER_QUERY = ["system", "qid", "measure", "value"]


def _duckdb_copy(release: Path, tmp_path: Path) -> Path:
    path = tmp_path / "judgments" / "campaign.duckdb"
    path.parent.mkdir(parents=True)
    with gzip.open(release / "campaign.duckdb.gz", "rb") as src, open(path, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return path


def _postgres_copy(release: Path, pg_server, tmp_path: Path) -> str:
    name = pg_server.new_database()
    dump = tmp_path / "campaign.pgsql"
    with gzip.open(release / "campaign.pgsql.gz", "rb") as src, open(dump, "wb") as dst:
        shutil.copyfileobj(src, dst)
    dump.chmod(0o644)
    tmp_path.chmod(0o755)
    cmd = [str(pg_server.bin / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", str(pg_server.root)]
    cmd += ["-p", str(pg_server.port), "-U", "postgres", "-d", name, "-f", str(dump)]
    subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300)
    return pg_server.url(name)


def _close(a, b) -> bool:
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return a is None or b is None or (isinstance(b, float) and math.isnan(b))
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)
    return a == b


def _same_records(now: list[dict], then: list[dict], keys: list[str]) -> None:
    assert len(now) == len(then)
    for a, b in zip(now, then):
        for k in keys:
            assert _close(a[k], b[k]), (k, a, b)


@pytest.mark.parametrize("release", RELEASES, ids=[r.name for r in RELEASES])
@pytest.mark.parametrize("store", ["duckdb", "postgresql"])
def test_a_database_of_the_previous_release_opens_with_everything_and_the_same_figures(
    release, store, tmp_path, request
):
    expected = json.loads((release / "expected.json").read_text(encoding="utf-8"))
    if store == "duckdb":
        target = _duckdb_copy(release, tmp_path)
    else:
        target = _postgres_copy(release, request.getfixturevalue("pg_server"), tmp_path)
    db = open_database(target, must_exist=True)
    try:
        applied = [name for _, name in db.applied_migrations()]
        assert applied[: len(expected["migrations"])] == expected["migrations"]
        assert applied == [name for _, name, _ in MIGRATIONS]  # the new steps ran
        cur = db.cursor()
        for table, n in expected["counts"].items():
            assert cur.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0] == n, table  # noqa: S608
        qrels = adjudication.qrels(db).sort_values(["qid", "pid"])
        assert qrels[["qid", "pid", "grade"]].astype({"grade": int}).values.tolist() == expected["qrels"]
        assert plan.current(db).describe() == expected["plan"]
        ev = evaluation.evaluate_campaign(db, n_boot=50, n_perm=50)
        _same_records(json.loads(ev.result.means[MEANS].to_json(orient="records")), expected["means"], MEANS)
        per_query = ev.result.per_query.dropna(subset=["value"])
        _same_records(json.loads(per_query[PER_QUERY].to_json(orient="records")), expected["per_query"], PER_QUERY)
        # and the campaign goes on: a new judgment is stored and read back
        qid, pid = cur.execute("SELECT qid, pid FROM pool ORDER BY qid DESC, pid LIMIT 1").fetchall()[0]
        judging.grade(db, "ann", qid, pid, 2)
        assert judging.history(db, qid, pid).grade.iloc[-1] == 2
    finally:
        db.close()
