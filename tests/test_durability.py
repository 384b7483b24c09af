"""Nothing acknowledged is ever lost: concurrent sessions, and a process killed mid-save."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading

from reljudge.campaign import judging
from reljudge.storage import open_database

POOL = {"q1": ["p02", "p01", "p03", "p08"], "q2": ["p04", "p05", "p03"]}


def test_twenty_concurrent_sessions_lose_no_judgment(campaign_db):
    db = campaign_db
    n_threads, per_thread = 24, 40
    acked: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(n_threads)

    def session(k: int):
        try:
            start.wait()
            for i in range(per_thread):
                qid = "q1" if (k + i) % 2 else "q2"
                pid = POOL[qid][i % len(POOL[qid])]
                events = [{"id": f"t{k}-{i}", "kind": "grade", "qid": qid, "pid": pid, "grade": (k + i) % 3, "ms": 10}]
                if i % 7 == 0:
                    events.append({"id": f"t{k}-{i}-v", "kind": "verdict", "qid": qid, "no_answer": bool(i % 2)})
                got = judging.record(db, f"user{k}", events)
                with lock:
                    acked.extend(got)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=session, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    stored = {r[0] for r in db.cursor().execute("SELECT client_event_id FROM judgment_events").fetchall()}
    expected_verdicts = n_threads * len(range(0, per_thread, 7))
    assert len(acked) == n_threads * per_thread + expected_verdicts
    assert set(acked) == stored
    # the latest grade per (user, question, paragraph) is the last one each session sent
    latest = dict(
        ((u, q, p), g)
        for u, q, p, g in db.cursor().execute("SELECT username, qid, pid, grade FROM current_judgments").fetchall()
    )
    for k in range(n_threads):
        last = {}
        for i in range(per_thread):
            qid = "q1" if (k + i) % 2 else "q2"
            last[(f"user{k}", qid, POOL[qid][i % len(POOL[qid])])] = (k + i) % 3
        for key, grade in last.items():
            assert latest[key] == grade


WRITER = textwrap.dedent("""
    import sys, uuid
    from reljudge.campaign import judging
    from reljudge.storage import open_database
    db = open_database(sys.argv[1])
    pids = {"q1": ["p02", "p01", "p03", "p08"], "q2": ["p04", "p05", "p03"]}
    i = 0
    while True:
        qid = "q1" if i % 2 else "q2"
        cid = f"k-{i}-{uuid.uuid4().hex[:8]}"
        judging.record(db, "ann", [{"id": cid, "kind": "grade", "qid": qid,
                                    "pid": pids[qid][i % len(pids[qid])], "grade": i % 3}])
        print(cid, flush=True)   # the acknowledgment: only after the commit returned
        i += 1
""")


def test_sigkill_mid_save_keeps_every_acknowledged_judgment(campaign_db, db_path, tmp_path):
    campaign_db.close()
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    for round_ in range(3):
        proc = subprocess.Popen(
            [sys.executable, str(script), str(db_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        acked = []
        for line in proc.stdout:
            acked.append(line.strip())
            if len(acked) >= 150 + 50 * round_:
                break
        os.kill(proc.pid, signal.SIGKILL)  # while it is in the middle of further saves
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        db = open_database(db_path)  # restart: WAL replay
        stored = {
            r[0]
            for r in db.cursor()
            .execute("SELECT client_event_id FROM judgment_events WHERE username = 'ann'")
            .fetchall()
        }
        db.close()
        missing = [c for c in acked if c not in stored]
        assert not missing, f"round {round_}: {len(missing)} acknowledged judgments lost"
