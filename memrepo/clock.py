"""The one clock of memrepo. `MEMREPO_NOW` (a §4 time) pins it for tests and benchmarks."""

from __future__ import annotations

import os
import time

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


def parse_user_time(text: str | None, what: str) -> Instant:
    """A time given on the command line or through the API: a §4 time or `now`."""
    if text is None or text.strip().lower() == "now":
        return now()
    try:
        return parse_instant(text)
    except TimeFormatError as err:
        raise InputError(Problem(what, str(err),
                                 "give a date (2026-04-15), an RFC 3339 time with offset "
                                 "(2026-04-15T09:00:00+02:00) or 'now'")) from None
