"""Time stamps: stored in UTC, shown and exported in the campaign's zone.

Every TIMESTAMP column of the database holds UTC wall-clock time without a zone (the
connection's DuckDB time zone is UTC: reljudge.storage.db). Pages and exports write them
as ISO 8601 with the offset of the campaign's zone — the setting ``time_zone``, an IANA
name, default Asia/Seoul — through :func:`iso`, the one formatting function.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import pandas as pd

from reljudge.errors import ReljudgeError
from reljudge.codes import Codes

CODES = Codes(
    error_unknown_zone=("zone",),
)
"""What this module can tell people: codes worded by reljudge.i18n."""


def check_zone(zone: str) -> str:
    """``zone`` if it is an IANA time zone name, else a ReljudgeError."""
    zone = (zone or "").strip()
    try:
        if zone not in available_timezones() and zone != "UTC":
            raise ZoneInfoNotFoundError(zone)
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ReljudgeError(CODES("error_unknown_zone", zone=repr(zone))) from None
    return zone


def zone_names() -> list[str]:
    """Every IANA zone name, sorted (for the lead's choice)."""
    return sorted(available_timezones() | {"UTC"})


def iso(value, zone: str) -> str | None:
    """A stored time stamp (naive UTC ``datetime`` or ``pd.Timestamp``; an aware one is
    taken as it is) as ISO 8601 in ``zone``, to the second, with its offset:
    ``2026-03-01T18:00:00+09:00``. Missing values stay None."""
    if value is None or value is pd.NaT or (isinstance(value, float) and pd.isna(value)):
        return None
    stamp = pd.Timestamp(value)
    if stamp is pd.NaT:
        return None
    stamp = stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp
    return stamp.tz_convert(ZoneInfo(zone)).to_pydatetime().isoformat(timespec="seconds")


def localize_frame(frame: pd.DataFrame, zone: str) -> pd.DataFrame:
    """A copy of ``frame`` whose date-time columns are ISO 8601 text in ``zone`` (see :func:`iso`)."""
    columns = [c for c in frame.columns if pd.api.types.is_datetime64_any_dtype(frame[c])]
    if not columns:
        return frame
    frame = frame.copy()
    for c in columns:
        frame[c] = pd.Series([iso(v, zone) for v in frame[c]], index=frame.index, dtype=object)
    return frame


def now_iso(zone: str) -> str:
    """The present moment, formatted as :func:`iso` does."""
    return iso(dt.datetime.now(dt.timezone.utc), zone)
