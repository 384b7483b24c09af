"""Storage layer: the only place in reljudge that speaks SQL.

Every value reaches DuckDB as a bound parameter; the schema is created and
upgraded by the named, ordered migrations in :mod:`reljudge.storage.migrations`.
"""

from reljudge.storage.db import Database, default_db_path, open_database

__all__ = ["Database", "default_db_path", "open_database"]
