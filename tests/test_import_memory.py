"""An import holds one chunk of the file in Python at a time (bench/bench_import.py)."""

from __future__ import annotations

import gc
import json
import weakref

import pytest

from reljudge.campaign import setup as campaign
from reljudge.campaign import importers
from reljudge.errors import ReljudgeError
from reljudge.storage import open_database


def test_import_releases_each_chunk_before_reading_the_next(db, tmp_path, monkeypatch):
    monkeypatch.setattr(importers, "CHUNK_ROWS", 50)
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"pid": f"p{i:04d}", "text": f"문단 {i}번의 본문입니다."}, ensure_ascii=False) + "\n"
            for i in range(500)
        ),
        encoding="utf-8",
    )
    refs: list[weakref.ref] = []
    alive_before: list[int] = []
    read = importers.corpus_chunks

    def watched(*args, **kwargs):
        for chunk in read(*args, **kwargs):
            gc.collect()
            # every chunk handed to the database earlier must be gone by now (the transaction
            # is still open: before the fix DuckDB kept each registered chunk until the commit)
            alive_before.append(sum(r() is not None for r in refs))
            refs.append(weakref.ref(chunk))
            yield chunk
            del chunk

    monkeypatch.setattr(importers, "corpus_chunks", watched)
    summary = campaign.import_file(db, "corpus", corpus)
    assert summary.inserted == 500 and len(refs) == 10
    assert max(alive_before) <= 1, alive_before


def test_memory_limit_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("RELJUDGE_MEMORY_LIMIT", "300MB")
    db = open_database(tmp_path / "m.duckdb")
    try:
        limit = db.cursor().execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
        assert limit.startswith("286") and "MiB" in limit  # 300 MB = 286.1 MiB
    finally:
        db.close()
    monkeypatch.setenv("RELJUDGE_MEMORY_LIMIT", "lots")
    with pytest.raises(ReljudgeError, match="RELJUDGE_MEMORY_LIMIT"):
        open_database(tmp_path / "n.duckdb")
