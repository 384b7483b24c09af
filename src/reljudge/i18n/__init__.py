"""Every visible UI string, Korean first, English second, and the words for what tables hold.

The texts are kept by job: the screens' (:mod:`reljudge.i18n.ui`), the library's message
codes' (:mod:`reljudge.i18n.messages`), the report's (:mod:`reljudge.i18n.report`); one
catalog and the lookup (:mod:`reljudge.i18n.lookup`); column headers and value formatting
(:mod:`reljudge.i18n.columns`). Callers import from here."""

from __future__ import annotations

from reljudge.i18n.columns import (
    COLUMNS,
    column_label,
    figure_name,
    localized_values,
    not_computed_text,
    p_text,
    test_procedure,
    verdict_text,
)
from reljudge.i18n.lookup import LANGS, STRINGS, bundle, message, t

__all__ = [
    "COLUMNS",
    "LANGS",
    "STRINGS",
    "bundle",
    "column_label",
    "figure_name",
    "localized_values",
    "message",
    "not_computed_text",
    "p_text",
    "t",
    "test_procedure",
    "verdict_text",
]
