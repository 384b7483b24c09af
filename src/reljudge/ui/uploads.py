"""Turning a browser upload into an import (the library reads files from disk)."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from reljudge import campaign, export


@contextmanager
def saved_upload(upload) -> Iterator[str]:
    """The uploaded bytes in a temporary file (same extension), removed afterwards."""
    fd, tmp = tempfile.mkstemp(suffix=Path(upload.name).suffix, prefix="reljudge-upload-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(upload.getbuffer())
        yield tmp
    finally:
        os.unlink(tmp)


def import_upload(db, kind: str, upload, fmt: str | None, system: str | None):
    """Import an ``st.file_uploader`` file; messages name the uploaded file."""
    with saved_upload(upload) as tmp:
        return campaign.import_file(db, kind, tmp, fmt=fmt or None, system=system or None,
                                    display=upload.name, repool=True)


def import_qrels_upload(db, upload, source: str) -> int:
    """Import an uploaded TREC/BEIR qrels file as a named source."""
    with saved_upload(upload) as tmp:
        return export.import_qrels(db, tmp, source, display=upload.name)
