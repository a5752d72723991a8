"""Event ids: ULIDs of recorded_at, ordered by creation within one millisecond."""

from __future__ import annotations

from ulid import ULID

from memrepo.core.facts.events import millis_of
from memrepo.core.facts.times import parse_instant
from memrepo.facts.ids import new_id

AT = parse_instant("2026-03-05T10:00:00.123456Z")


def test_the_time_part_is_recorded_at_in_milliseconds() -> None:
    made = new_id(AT)
    assert len(made) == 26 and millis_of(made) == AT // 1000
    assert ULID.from_str(made).milliseconds == AT // 1000


def test_many_ids_in_one_millisecond_sort_in_creation_order() -> None:
    made = [new_id(AT) for _ in range(1000)]
    assert made == sorted(made) and len(set(made)) == 1000


def test_an_id_sorts_after_the_largest_id_already_in_the_log() -> None:
    other_process = str(ULID.from_bytes((AT // 1000 + 7).to_bytes(6, "big") + b"\xff" * 9
                                        + b"\x00"))
    later = AT + 7000
    made = new_id(later, after=other_process)
    assert made > other_process and millis_of(made) == later // 1000


def test_an_earlier_pinned_clock_gives_ids_of_that_time() -> None:
    late = new_id(AT + 10_000_000)
    early = new_id(AT - 10_000_000)
    assert early < late and millis_of(early) == (AT - 10_000_000) // 1000


def test_non_ulid_ids_have_no_time() -> None:
    assert millis_of("e1") is None
    made = new_id(AT, after="e1")
    assert millis_of(made) == AT // 1000
