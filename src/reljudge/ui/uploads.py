"""Turning a browser upload into an import (the library reads files from disk)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from reljudge import campaign


def import_upload(db, kind: str, upload, fmt: str | None, system: str | None):
    """Import an ``st.file_uploader`` file; messages name the uploaded file."""
    suffix = Path(upload.name).suffix
    fd, tmp = tempfile.mkstemp(suffix=suffix, prefix="reljudge-upload-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(upload.getbuffer())
        return campaign.import_file(db, kind, tmp, fmt=fmt or None, system=system or None,
                                    display=upload.name, repool=True)
    finally:
        os.unlink(tmp)


def import_qrels_upload(db, upload, source: str) -> int:
    """Import an uploaded TREC/BEIR qrels file as a named source."""
    from reljudge import export
    suffix = Path(upload.name).suffix
    fd, tmp = tempfile.mkstemp(suffix=suffix, prefix="reljudge-qrels-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(upload.getbuffer())
        return export.import_qrels(db, tmp, source, display=upload.name)
    finally:
        os.unlink(tmp)
