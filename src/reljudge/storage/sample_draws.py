"""SQL of the sampling plans' draws (table ``sample_draws``, migration ``sample_draws``;
:mod:`reljudge.campaign.plan`, docs/sampling.md): what a draw is made from, storing it,
reading it back."""

from __future__ import annotations

from reljudge.storage.catalog import ranked_runs_sql
from reljudge.storage.database import Database


def draw_inputs(db: Database, ties: str, dedup: str, depth: int) -> tuple[list[tuple], list[tuple]]:
    """What a draw is made from, no grade among it: (qid, system, item, r) — every system's
    ranking down to ``depth`` as the metrics rank it (the one ranking rule), items named as
    the pool names them (duplicate groups) — and the pool's (qid, pid)."""
    cur = db.cursor()
    rankings = cur.execute(
        f"SELECT qid, system, dkey, r FROM ({ranked_runs_sql(ties, dedup, depth)}) ORDER BY qid, system, r"
    ).fetchall()
    pool = cur.execute("SELECT qid, pid FROM pool ORDER BY qid, pid").fetchall()
    return rankings, pool


def stored_design(db: Database) -> tuple[float, int] | None:
    """(rate, seed) of the stored draws; None when there are none."""
    row = db.cursor().execute("SELECT min(rate), min(seed), count(*) FROM sample_draws").fetchone()
    return None if not row or not row[2] else (float(row[0]), int(row[1]))


def draw_rows(db: Database, qids: list[str] | None = None) -> list[tuple]:
    """(qid, pid, best_rank, stratum, pi, drawn, rate, seed) of the stored draws (of
    ``qids``), in qid, pid order."""
    where = "" if qids is None else "WHERE list_contains($qids::VARCHAR[], qid)"
    params = {} if qids is None else {"qids": list(qids)}
    return (
        db.cursor()
        .execute(
            f"SELECT qid, pid, best_rank, stratum, pi, drawn, rate, seed FROM sample_draws {where} ORDER BY qid, pid",
            params,
        )
        .fetchall()
    )


def replace_draws(db: Database, rows: list[tuple]) -> None:
    """Store ``rows`` (qid, pid, best_rank, stratum, pi, drawn, rate, seed) in place of
    every stored draw, in one transaction."""
    cols = list(zip(*rows)) if rows else [[]] * 8
    with db.transaction() as cur:
        cur.execute("DELETE FROM sample_draws")
        if rows:
            cur.execute(
                """INSERT INTO sample_draws (qid, pid, best_rank, stratum, pi, drawn, rate, seed)
                   SELECT unnest($q::VARCHAR[]), unnest($p::VARCHAR[]), unnest($b::INTEGER[]),
                          unnest($s::INTEGER[]), unnest($pi::DOUBLE[]), unnest($d::BOOLEAN[]),
                          unnest($r::DOUBLE[]), unnest($seed::BIGINT[])""",
                {
                    "q": list(cols[0]),
                    "p": list(cols[1]),
                    "b": list(cols[2]),
                    "s": list(cols[3]),
                    "pi": [float(x) for x in cols[4]],
                    "d": [bool(x) for x in cols[5]],
                    "r": [float(x) for x in cols[6]],
                    "seed": [int(x) for x in cols[7]],
                },
            )


def judging_begun(db: Database) -> bool:
    """Whether any paragraph has been graded in the campaign (by anyone)."""
    return db.cursor().execute("SELECT count(*) FROM judgment_events WHERE pid IS NOT NULL").fetchone()[0] > 0
