"""Event ids: ULIDs whose time part is the event's `recorded_at` (SPEC §4).

Ties on equal `recorded_at` are broken by id (§5.6), so ids made in the same millisecond
must sort in creation order — also when MEMREPO_NOW pins the clock and every id of a
process shares one millisecond. Within a process the random part is therefore incremented
rather than redrawn; across processes the writer passes the largest id already in the log
(`after`), so a later write still sorts after an earlier one.
"""

from __future__ import annotations

import secrets
import threading

from memrepo.core.facts.events import millis_of
from memrepo.core.facts.times import Instant
from memrepo.core.facts.ulids import RANDOM_BITS, ulid_random, ulid_text

_RANDOM_MAX = (1 << RANDOM_BITS) - 1
# Leave headroom above a fresh random part so that increments never overflow in practice.
_FRESH_MAX = 1 << (RANDOM_BITS - 1)

_lock = threading.Lock()
_last: tuple[int, int] = (-1, 0)  # (milliseconds, random part) of the last id made here


def new_id(recorded_at: Instant, after: str | None = None) -> str:
    """A fresh ULID for an event recorded at `recorded_at` (µs), greater than `after`
    and than every id this process made before in the same millisecond."""
    global _last
    millis = recorded_at // 1000
    with _lock:
        floor = _floor_in(millis, after)
        if _last[0] == millis:
            floor = max(floor, _last[1])
        random_part = _next_random(floor)
        _last = (millis, random_part)
    return ulid_text(millis, random_part)


def _floor_in(millis: int, after: str | None) -> int:
    """The random part `after` has when it belongs to the same millisecond, else -1."""
    if after is None or millis_of(after) != millis:
        return -1
    return ulid_random(after)


def _next_random(floor: int) -> int:
    if floor < 0:
        return secrets.randbelow(_FRESH_MAX)
    if floor >= _RANDOM_MAX:
        raise OverflowError("more than 2^80 ids in one millisecond")
    return floor + 1
