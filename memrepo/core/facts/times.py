"""Instants on both time axes, normalised to integer microseconds since the epoch (UTC).

SPEC §4: a valid time is a date `YYYY-MM-DD` (00:00 UTC that day) or an RFC 3339
date-time with an offset; `recorded_at` is RFC 3339 UTC with `Z`. Times are compared as
instants, never as strings, so everything is parsed into one integer here.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_FIRST = (datetime(1, 1, 1, tzinfo=UTC) - _EPOCH) // _MICROSECOND
_LAST = (datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC) - _EPOCH) // _MICROSECOND
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_DATETIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
_UTC_Z = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z", re.ASCII)

Instant = int
"""Microseconds since 1970-01-01T00:00:00Z."""


class TimeFormatError(ValueError):
    """A time string that is neither a date nor an RFC 3339 date-time with offset."""


def parse_instant(text: str) -> Instant:
    """Parse a §4 date or date-time into an instant; raise TimeFormatError otherwise."""
    if _is_plain_utc(text):  # the form memrepo writes: a cache build parses millions
        try:
            return (datetime.fromisoformat(text) - _EPOCH) // _MICROSECOND
        except ValueError:
            pass  # the general path below explains what is wrong
    if len(text) == 10:
        return _parse_date(text)
    return _parse_general(text)


def _is_plain_utc(text: str) -> bool:
    """`YYYY-MM-DDTHH:MM:SSZ`, checked by position (digits are checked by the parser)."""
    return (len(text) == 20 and text[19] == "Z" and text[10] == "T" and text[4] == "-"
            and text[7] == "-" and text[13] == ":" and text[16] == ":")


@lru_cache(maxsize=8192)
def _parse_date(text: str) -> Instant:
    return _parse_general(text)  # dates repeat across events: parse each one once


def _parse_general(text: str) -> Instant:
    value = text.strip()
    if _DATE.fullmatch(value):
        return _to_instant(_fromiso(value).replace(tzinfo=UTC))
    if _DATETIME.fullmatch(value):
        instant = _to_instant(_fromiso(_trim_fraction(value)))
        if not _FIRST <= instant <= _LAST:  # an offset can push year 1 or 9999 out of range
            raise TimeFormatError(f"{text!r} is outside the years 0001 to 9999 in UTC")
        return instant
    raise TimeFormatError(
        f"{text!r} is not a date (YYYY-MM-DD) or an RFC 3339 date-time with offset"
    )


def is_utc_timestamp(text: str) -> bool:
    """True for the `recorded_at` form: RFC 3339 in UTC, ending in `Z`."""
    return bool(_UTC_Z.fullmatch(text))


def format_instant(instant: Instant) -> str:
    """Render an instant as RFC 3339 UTC with `Z`, dropping a zero fraction."""
    moment = _moment(instant).replace(tzinfo=None)
    return moment.isoformat(timespec="microseconds" if moment.microsecond else "seconds") + "Z"


def format_valid_time(instant: Instant) -> str:
    """Render a valid time: a bare date when it falls on midnight UTC."""
    if instant % 86_400_000_000 == 0:
        return _moment(instant).date().isoformat()
    return format_instant(instant)


def month_of(instant: Instant) -> str:
    """The `YYYY-MM` segment name for an instant of system time."""
    return _moment(instant).date().isoformat()[:7]


def _moment(instant: Instant) -> datetime:
    """(isoformat pads the year to four digits; strftime("%Y") does not below 1000.)"""
    return _EPOCH + timedelta(microseconds=instant)


def _to_instant(moment: datetime) -> Instant:
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _trim_fraction(value: str) -> str:
    """datetime.fromisoformat accepts at most 6 fractional digits; drop the rest."""
    return re.sub(r"(\.\d{6})\d+", r"\1", value.replace("z", "Z").replace("t", "T"))


def _fromiso(value: str) -> datetime:
    try:
        return datetime.fromisoformat(value)
    except ValueError as err:  # e.g. 2026-02-30
        raise TimeFormatError(f"{value!r} is not a real calendar time: {err}") from None
