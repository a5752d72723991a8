"""A folded key's rows (`memrepo.cache.rows.key_rows`): a key with one event — most keys
of a hand-appended log — gets the rows the general path gives (here: the same event
twice, which orders, folds and merges them)."""

from __future__ import annotations

import pytest

from memrepo.cache.rows import key_rows
from memrepo.core.facts.events import Event

DAY = 86_400_000_000


@pytest.mark.parametrize("event", [
    Event("e1", "assert", 5 * DAY, "s", "Hand-1", "status", "hand 1", 2 * DAY),
    Event("e2", "assert", 5 * DAY, "s", "hand_1", "Status", "", 2 * DAY, 4 * DAY,
          quote="said so", source="chat"),
    Event("e3", "assert", 5 * DAY, "s", "hand", "status", None, 2 * DAY, 2 * DAY),
    Event("e4", "end", 5 * DAY, "s", "hand", "status", "x", None, 3 * DAY),
    Event("e5", "retract", 5 * DAY, "s", target="e1"),
])
@pytest.mark.parametrize("many", [False, True])
def test_a_key_of_one_event_has_the_rows_of_the_general_path(event: Event,
                                                             many: bool) -> None:
    key = ("s", "hand_1", "status")
    assert key_rows(key, [event], lambda _: many) == key_rows(key, [event, event],
                                                              lambda _: many)
