"""Setting up a campaign: importing files, pooling, loading the bundled demo.

The same functions serve the CLI and the lead's import page.
"""

from __future__ import annotations

from importlib import resources
from functools import partial
from typing import Callable

import duckdb
import pandas as pd
from pathlib import Path

from reljudge import display
from reljudge.campaign import auth
from reljudge.campaign import importers
from reljudge import question_types
from reljudge.codes import Codes
from reljudge.errors import ReljudgeError
from reljudge.storage import catalog
from reljudge.storage.catalog import ImportSummary
from reljudge.storage.db import Database

KINDS = ("corpus", "questions", "run")

DEMO_ACCOUNTS = (
    # (username, password, role) — printed in README and on the login page.
    ("lead", "demo-lead", "lead"),
    ("annotator1", "demo-pass1", "annotator"),
    ("annotator2", "demo-pass2", "annotator"),
)
DEMO_RUNS = (("bm25.tsv", None), ("vector.tsv", None), ("hybrid.tsv", None), ("graphrag.jsonl", "graphrag"))


Progress = Callable[[int, int], None]
"""Called as ``progress(lines_read, total_lines)`` while a file is read; once
``lines_read == total_lines`` the import is validating and writing."""


def import_file(
    db: Database,
    kind: str,
    path,
    *,
    fmt: str | None = None,
    system: str | None = None,
    display: str | None = None,
    repool: bool = False,
    progress: Progress | None = None,
    replace: bool = False,
    update_questions: bool = False,
) -> ImportSummary:
    """Import one file, all or nothing. ``display`` names the file in messages (uploads).
    ``replace``: a run may replace the run of a system already imported (the old one is
    kept as a version); ``update_questions``: questions that already have judgments may
    change (every earlier wording is kept)."""
    src = importers.Source.of(path, display)
    try:
        return _import(db, kind, src, fmt, system, repool, progress, replace, update_questions)
    except duckdb.Error as exc:
        # Validation should have caught it; never let a database message become a traceback.
        raise ReljudgeError(
            CODES("error_import_database", file=str(src.display), detail=str(exc).splitlines()[0])
        ) from None


CODES = Codes(
    error_unknown_import_kind=("kind", "choices"),
    error_import_database=("file", "detail"),
    error_pool_below_k=("depth", "k"),
    error_type_empty=(),
    error_type_too_long=("n", "limit"),
    error_type_hidden=("qtype", "char"),
)
"""The errors of imports, pooling and type declarations this module raises as codes
(worded by the pages)."""


def _import(
    db: Database, kind: str, src, fmt, system, repool, progress, replace=False, update_questions=False
) -> ImportSummary:
    if kind == "corpus":
        chunks, store = importers.corpus_chunks(src, fmt), catalog.import_corpus
    elif kind == "questions":
        chunks = importers.question_chunks(src, fmt)
        store = partial(catalog.import_questions, update_questions=update_questions)
    elif kind == "run":
        chunks = importers.run_chunks(src, fmt, system)
        store = partial(catalog.import_run, replace=replace)
    else:
        raise ReljudgeError(CODES("error_unknown_import_kind", kind=repr(kind), choices=", ".join(KINDS)))
    if progress is not None:
        chunks = _reporting(chunks, src.path, progress)
    summary = store(db, chunks, src.display)
    if repool:
        summary.pool_change = repool_change(db)
        summary.pooled = summary.pool_change.size
    return summary


def _reporting(chunks, path: Path, progress: Progress):
    total, done = None, None
    for chunk in chunks:
        if total is None:  # counted only once the reader has checked that the file exists
            total = importers.count_lines(path)
        done = min(int(chunk["line"].iloc[-1]), total)
        progress(done, total)
        yield chunk
    if total is not None and done != total:  # trailing blank lines
        progress(total, total)


def pool(db: Database, depth: int | None = None) -> int:
    """(Re)build the pool at ``depth`` (default: the campaign's setting)."""
    return repool_change(db, depth).size


def repool_change(db: Database, depth: int | None = None) -> catalog.PoolChange:
    """:func:`pool`, saying what joined and left the pool (and what of that was judged)."""
    settings = catalog.get_settings(db)
    depth = int(depth if depth is not None else settings["pool_depth"])
    largest_k = max(int(k) for k in settings["ks"].split(",") if k.strip())
    if depth < largest_k:
        raise ReljudgeError(CODES("error_pool_below_k", depth=depth, k=largest_k))
    change = catalog.rebuild_pool(db, depth, settings["ties"])
    _redraw_if_unjudged(db)
    return change


def _redraw_if_unjudged(db: Database) -> None:
    """Under a sampling plan, a rebuilt pool is drawn again while nobody has judged (the
    same rate and seed); once judging has begun the old draw stays (its questions whose pool
    changed get no estimate: reljudge.campaign.evaluation.attach_estimates)."""
    from reljudge.campaign import plan

    chosen = plan.current(db)
    if chosen.samples:
        try:
            plan.make_draws(db, chosen.sample_rate, chosen.sample_seed)
        except ReljudgeError:
            pass  # judging has begun: the draw is kept as it was made


def is_empty(db: Database) -> bool:
    c = catalog.counts(db)
    return c["paragraphs"] == 0 and c["questions"] == 0


def is_brand_new(db: Database) -> bool:
    """Nothing was ever imported and no account exists: the only database the demo may
    fill on its own (its accounts have published passwords)."""
    c = catalog.counts(db)
    return c["paragraphs"] == 0 and c["questions"] == 0 and c["users"] == 0 and catalog.import_count(db) == 0


def demo_dir() -> Path:
    return Path(str(resources.files("reljudge") / "demo"))


def load_demo(db: Database, with_accounts: bool = True) -> list[ImportSummary]:
    """Load the bundled synthetic sample campaign (and demo accounts)."""
    d = demo_dir()
    out = [import_file(db, "corpus", d / "corpus.jsonl"), import_file(db, "questions", d / "questions.jsonl")]
    for name, system in DEMO_RUNS:
        out.append(import_file(db, "run", d / "runs" / name, system=system))
    pool(db, 20)
    from reljudge.review import ingest

    ingest.import_answers(db, d / "answers.jsonl")
    catalog.set_setting(db, "demo", "1")
    if with_accounts:
        for username, password, role in DEMO_ACCOUNTS:
            if not auth.accounts.account_exists(db, username):
                auth.add_user(db, username, password, role)
    return out


def is_demo(db: Database) -> bool:
    """True when the campaign is the bundled synthetic sample."""
    return catalog.get_settings(db).get("demo") == "1"


def ensure_demo(db: Database) -> bool:
    """On first start with a brand-new database, load the demo. True if it did."""
    if not is_brand_new(db):
        return False
    load_demo(db)
    return True


def set_highlight(db: Database, on: bool) -> None:
    """Switch the marking of the question's content words in the judging widget
    (reljudge.campaign.highlight; off by default, stated in the report)."""
    catalog.set_setting(db, "highlight", "on" if on else "off")


# -- question types (reljudge.question_types) ------------------------------------------

DEFAULT_TYPES = question_types.DEFAULT_TYPES


def _type_name(name: str) -> str:
    """A type name as declared: without surrounding spaces, not empty, no longer than
    question_types.MAX_LENGTH, no invisible or control character (it could not be told
    from another type on any page)."""
    name = (name or "").strip()
    if not name:
        raise ReljudgeError(CODES("error_type_empty"))
    if len(name) > question_types.MAX_LENGTH:
        raise ReljudgeError(CODES("error_type_too_long", n=len(name), limit=question_types.MAX_LENGTH))
    hidden = next((ch for ch in name if display.is_hidden(ch)), None)
    if hidden is not None:
        raise ReljudgeError(CODES("error_type_hidden", qtype=display.visible(name), char=f"U+{ord(hidden):04X}"))
    return name


def declare_types(db: Database, names, lead: str | None = None) -> list[str]:
    """Declare question types (all or none: every name is checked first); returns the
    ones not declared before. ``lead`` is recorded as who declared them."""
    return catalog.declare_question_types(db, [_type_name(n) for n in names], lead)


def withdraw_type(db: Database, name: str, lead: str | None = None) -> None:
    """Withdraw a declared type (refused while any question has it)."""
    catalog.withdraw_question_type(db, (name or "").strip(), lead)


def question_types_table(db: Database) -> pd.DataFrame:
    """The declared types in order, with how many questions have each (qtype, questions)."""
    used = catalog.question_type_counts(db)
    names = catalog.declared_types(db)
    return pd.DataFrame({"qtype": names, "questions": [int(used.get(n, 0)) for n in names]})


def untyped_questions(db: Database) -> int:
    """Questions without a type (allowed; an import says that they lack one)."""
    return int(catalog.question_type_counts(db).get("", 0))


declared_types = catalog.declared_types


def set_time_zone(db: Database, zone: str) -> None:
    """The zone in which pages and exports show time stamps (an IANA name; stored times
    stay UTC: reljudge.times)."""
    from reljudge import times

    catalog.set_setting(db, "time_zone", times.check_zone(zone))


counts = catalog.counts
settings = catalog.get_settings
list_runs = catalog.list_runs
run_versions = catalog.run_versions
question_versions = catalog.question_versions
