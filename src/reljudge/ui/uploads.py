"""Turning a browser upload into an import (the library reads files from disk)."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import streamlit as st

from reljudge import campaign, export, i18n


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


def import_upload(db, kind: str, upload, fmt: str | None, system: str | None, lang: str = "ko",
                  replace: bool = False, update_questions: bool = False):
    """Import an ``st.file_uploader`` file with a progress bar; messages name the uploaded file."""
    bar = st.progress(0.0, text=i18n.t("importing", lang, name=upload.name))

    def show(done: int, total: int) -> None:
        if done < total:
            bar.progress(done / total, text=i18n.t("import_progress", lang, name=upload.name,
                                                    done=done, total=total))
        else:
            bar.progress(1.0, text=i18n.t("import_writing", lang, name=upload.name))

    try:
        with saved_upload(upload) as tmp:
            return campaign.import_file(db, kind, tmp, fmt=fmt or None, system=system or None,
                                        display=upload.name, repool=True, progress=show,
                                        replace=replace, update_questions=update_questions)
    finally:
        bar.empty()


def import_qrels_upload(db, upload, source: str) -> int:
    """Import an uploaded TREC/BEIR qrels file as a named source."""
    with saved_upload(upload) as tmp:
        return export.import_qrels(db, tmp, source, display=upload.name)
