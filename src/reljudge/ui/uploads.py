"""Turning a browser upload into an import (the library reads files from disk).

The Import page offers every kind of file ``reljudge import KIND FILE`` reads, with the
same options (:data:`FORMS`), through the same library functions: so a lead never has to
stop the app to import (on the DuckDB file the CLI cannot open the file the app holds).
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import streamlit as st

from reljudge import i18n
from reljudge.campaign import setup as campaign
from reljudge.campaign import export
from reljudge.review import ingest
from reljudge.errors import ReljudgeError


@dataclass(frozen=True)
class Form:
    """What the Import page's form asks for one kind of file: the options of
    ``reljudge import KIND FILE``. ``system`` and ``replace`` are the i18n keys of their
    labels (None: the kind has no such option)."""

    suffixes: tuple[str, ...]  # what the file picker offers
    formats: tuple[str, ...] = ()  # --format choices besides "auto" (none: one format)
    system: str | None = None  # --system
    source: bool = False  # --source NAME (needed)
    replace: str | None = None  # --replace
    update_questions: bool = False  # --update-questions


_CAMPAIGN_FILES = ("jsonl", "json", "csv", "tsv", "txt", "trec", "run")
FORMS: dict[str, Form] = {
    "corpus": Form(_CAMPAIGN_FILES, ("jsonl", "csv", "beir")),
    "questions": Form(_CAMPAIGN_FILES, ("jsonl", "csv", "beir"), update_questions=True),
    "run": Form(_CAMPAIGN_FILES, ("trec", "jsonl", "csv"), system="system_name", replace="replace_run"),
    "answers": Form(
        ("jsonl", "json", "csv"), ("jsonl", "csv"), system="system_name_answers", replace="replace_answers"
    ),
    "reviews": Form(("jsonl", "json"), source=True),
    "qrels": Form(("txt", "qrels", "tsv", "trec"), ("trec", "beir"), source=True),
}
KINDS = tuple(FORMS)
"""Every kind of file the Import page imports (campaign.KINDS first)."""


@dataclass(frozen=True)
class Imported:
    """What an upload did, worded in the page's language; ``warning``: say it as a
    warning (questions without a type or criteria)."""

    text: str
    warning: bool = False


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


def import_any(
    db,
    kind: str,
    upload,
    *,
    fmt: str = "",
    system: str = "",
    source: str = "",
    replace: bool = False,
    update_questions: bool = False,
    lang: str = "ko",
) -> Imported:
    """Import an uploaded file of any kind in :data:`FORMS`, all or nothing, as
    ``reljudge import`` does; a refusal is a ``ReljudgeError`` naming the uploaded file
    (and the line)."""
    if kind in campaign.KINDS:
        summary = import_upload(db, kind, upload, fmt, system, lang, replace=replace, update_questions=update_questions)
        return Imported(i18n.message(summary.messages(), lang, sep=summary.SEP), warning=bool(summary.incomplete))
    if kind not in FORMS:
        raise ReljudgeError(campaign.CODES("error_unknown_import_kind", kind=repr(kind), choices=", ".join(KINDS)))
    with st.spinner(i18n.t("importing", lang, name=upload.name)):
        if kind == "answers":
            versions = import_answers_upload(db, upload, fmt, system, replace)
            return Imported(
                i18n.t(
                    "answers_imported",
                    lang,
                    name=upload.name,
                    versions=", ".join(i18n.t("answers_version", lang, system=s, v=v) for s, v in versions.items()),
                )
            )
        if kind == "reviews":
            n = import_reviews_upload(db, upload, source)
            return Imported(i18n.t("reviews_imported", lang, name=upload.name, n=n, source=source.strip()))
        done = import_qrels_upload(db, upload, source, fmt)
        text = i18n.t("qrels_source_imported", lang, name=upload.name, n=done.rows, source=source.strip())
        return Imported(
            " ".join([text, *(i18n.message(m, lang) for m in done.notices())]), warning=bool(done.duplicates)
        )


def import_upload(
    db,
    kind: str,
    upload,
    fmt: str | None,
    system: str | None,
    lang: str = "ko",
    replace: bool = False,
    update_questions: bool = False,
):
    """Import a corpus, questions or a run from an ``st.file_uploader`` file with a
    progress bar; messages name the uploaded file."""
    bar = st.progress(0.0, text=i18n.t("importing", lang, name=upload.name))

    def show(done: int, total: int) -> None:
        if done < total:
            bar.progress(done / total, text=i18n.t("import_progress", lang, name=upload.name, done=done, total=total))
        else:
            bar.progress(1.0, text=i18n.t("import_writing", lang, name=upload.name))

    try:
        with saved_upload(upload) as tmp:
            return campaign.import_file(
                db,
                kind,
                tmp,
                fmt=fmt or None,
                system=system or None,
                display=upload.name,
                repool=True,
                progress=show,
                replace=replace,
                update_questions=update_questions,
            )
    finally:
        bar.empty()


def import_answers_upload(
    db, upload, fmt: str | None = None, system: str | None = None, replace: bool = False
) -> dict[str, int]:
    """Import uploaded generated answers (``reljudge import answers``): {system: version}."""
    with saved_upload(upload) as tmp:
        return ingest.import_answers(
            db, tmp, system=system or None, fmt=fmt or None, replace=replace, display=upload.name
        )


def import_reviews_upload(db, upload, source: str) -> int:
    """Import uploaded review records as the named source (``reljudge import reviews
    FILE --source NAME``): the number of reviewer × answer records."""
    with saved_upload(upload) as tmp:
        return ingest.import_reviews(db, tmp, source, display=upload.name)


def import_qrels_upload(db, upload, source: str, fmt: str | None = None) -> export.QrelsImport:
    """Import an uploaded TREC/BEIR qrels file as a named source (``reljudge import qrels
    FILE --source NAME``): the rows stored and the identical duplicate rows skipped."""
    with saved_upload(upload) as tmp:
        return export.import_qrels(db, tmp, source, fmt or None, display=upload.name)


def import_gold_upload(db, upload, lead: str) -> export.QrelsImport:
    """Import uploaded gold items (TREC qrels lines, ``reljudge gold import FILE``): the
    gold items stored and the identical duplicate rows skipped."""
    from reljudge.campaign import quality

    with saved_upload(upload) as tmp:
        return quality.import_gold(db, tmp, lead, display=upload.name)
