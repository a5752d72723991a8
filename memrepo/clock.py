"""The one clock of memrepo. `MEMREPO_NOW` (a §4 time) pins it for tests and benchmarks."""

from __future__ import annotations

import os
import time
from datetime import date, datetime

from memrepo.core.facts.times import Instant, TimeFormatError, parse_instant
from memrepo.core.problems import InputError, Problem


def now() -> Instant:
    """The current instant, or the one MEMREPO_NOW pins."""
    pinned = os.environ.get("MEMREPO_NOW")
    if not pinned:
        return time.time_ns() // 1000
    try:
        return parse_instant(pinned)
    except TimeFormatError as err:
        raise InputError(Problem("MEMREPO_NOW", str(err),
                                 "set it to a date (2026-05-01) or 2026-05-01T12:00:00Z")) from None


TimeInput = str | date | datetime
"""A time as the API takes it: text (a date `2026-04-15`, an RFC 3339 time with offset
`2026-04-15T09:00:00+02:00`, or `now`), a `datetime.date`, or a `datetime.datetime` that
carries its time zone."""


def time_text(value: TimeInput | None, what: str) -> str | None:
    """`value` as the text of a time; a naive datetime (no time zone: whose 9 o'clock?) and
    anything that is not a time are refused, naming `what`."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime):
        if value.utcoffset() is None:
            raise InputError(Problem(what, f"datetime {value.isoformat()} has no time zone",
                                     "give an aware datetime, e.g. datetime(2026, 4, 15, 9, "
                                     "tzinfo=timezone.utc), or a date"))
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise InputError(Problem(what, f"is a {type(value).__name__}, not a time",
                             "give a date, an aware datetime or text such as '2026-04-15'"))


def parse_user_time(value: TimeInput | None, what: str) -> Instant:
    """A time given on the command line or through the API: a §4 time, `now`, a date or an
    aware datetime."""
    text = time_text(value, what)
    if text is None or text.strip().lower() == "now":
        return now()
    try:
        return parse_instant(text)
    except TimeFormatError as err:
        raise InputError(Problem(what, str(err),
                                 "give a date (2026-04-15), an RFC 3339 time with offset "
                                 "(2026-04-15T09:00:00+02:00) or 'now'")) from None
