"""Shipped migration steps never change: a database made by an earlier release recorded
them by number in schema_migrations and will not run them again, so an edit would leave
old and new databases with different schemas. A change is a new step at the end. Each
shipped step's SQL (and its PostgreSQL-only native statements) is pinned here by SHA-256;
a release adds its new steps to this list."""

from __future__ import annotations

import hashlib
import json

from reljudge.storage import postgres
from reljudge.storage.migrations import MIGRATIONS


SHIPPED = [
    (1, "initial_schema", "dba1c53fabad31700e13833fe85a2de990356779e9ffb81cb526cdc4df003280"),
    (
        2,
        "team_assignments_adjudication_qrels_versions",
        "e8c8317e70de2570834b7813bb788358a8fad107dc3427018ef9d6e272eda637",
    ),
    (3, "external_qrels_sources", "f969bf71c3b7dbfbb2778599f6861a78461056a153705d472809decc0e4d9191"),
    (4, "judgment_event_client", "fd55bce58c05549ff2a028d8e2fb5854569fe828c0e221c190e308159d0c15e0"),
    (5, "effective_verdicts", "e7bb1bd9b8cb7621a59cd2e6d2f8590ff9534cb31c9a0917f75f3c24576136eb"),
    (6, "login_throttling", "f952b4c15315320cf90e45e2308728df17ad24762d41d0ed98de7e0467492000"),
    (7, "tie_rule_version", "02e4dff87b4a087944a42c7ebff50a1d42735feb13121fd93ef5c1a86254f619"),
    (8, "answer_review", "ba8e43bd9191517dbfac3f3136bdbd717ea1ed01c9f05613138ff470e7fd59f4"),
    (9, "question_and_run_versions", "c6ad21958a7cd5f3e61ea555596a152168d9ba2ebe348d9d6a1f4ebc4c47c990"),
    (10, "timestamps_in_utc", "22adc598aa47049fda6f028b687d7e0c1d871056d7143f004e430882a4fcb4c5"),
    (11, "postgres_lookup_indexes", "096b01588c5056dec2bdd514b67a3a2f233bfcfd79c9b1a9b0cbfe79f3336ceb"),
    (12, "event_ids_per_author", "e63a4a1bdbd36866a90aba7eeffd758c82c19299d4f2dc491d348f7080998b12"),
    (13, "question_types", "d6220350d992e1b0314e9eae242c81aa07432ea480de32b9ee6a0a1d4964e11b"),
    (14, "model_judge_sources", "ebd04f9ee34bb46970a3380c58e56e61967a7a28a43665a2fe65cde2fe34fdd7"),
    (15, "quality_control", "48ee1de0991cdbf9b4abf3cfd69d0948deb7b2868b130af88ebcb5ca321765bd"),
    (16, "organisation_login", "c4c7fcbd83b830d98fdb01452222c627e3ae1819246c2ccf60580b17894aeba1"),
    (17, "campaigns", "ae1353f452fb55b0733315cc92fc285f972120c59615f1774674171c7fb01393"),
]


def _digest(version: int, sql: str) -> str:
    native = json.dumps(postgres.NATIVE_STEPS.get(version, []), ensure_ascii=False)
    return hashlib.sha256((sql + native).encode()).hexdigest()


def test_shipped_steps_are_unchanged_and_new_ones_come_after():
    steps = [(v, n, _digest(v, sql)) for v, n, sql in MIGRATIONS]
    assert steps[: len(SHIPPED)] == SHIPPED, "a shipped migration step was edited: add a new step instead"
    numbers = [v for v, _, _ in MIGRATIONS]
    assert numbers == list(range(1, len(numbers) + 1)), "steps are numbered 1, 2, … in order"
    assert len({n for _, n, _ in MIGRATIONS}) == len(MIGRATIONS), "step names are unique"
