"""The structural limits every event obeys (memrepo.core.facts.events.check_structure): shared by
the checks, the writers and the cache, so none of them serves what another refuses."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from memrepo.core.facts.events import EventError, parse_event
from memrepo.core.record_base import replace
from tests.support import event, retract


@pytest.mark.parametrize("change, reason", [
    ({"confidence": 50}, "confidence must be a number between 0 and 1"),
    ({"confidence": True}, "confidence"),
    ({"confidence": "1"}, "confidence"),
    ({"trust": "root"}, "trust must be"),
    ({"op": "delete"}, "op must be"),
    ({"object": "A" * 10_001}, "object is longer than 10000 characters"),
    ({"subject": "s" * 501}, "subject is longer than 500"),
    ({"object": None}, "object must be a string"),
    ({"object": "red\x1b[31m"}, r"control character \(U\+001B\)"),
    ({"relation": "a\tb"}, r"\(U\+0009\)"),
    ({"quote": "\u202eevil"}, r"\(U\+202E\)"),
])
def test_an_event_outside_the_limits_is_refused(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(EventError, match=reason) as refused:
        parse_event(event(**change), "michal")
    assert "AAAA" not in str(refused.value)


def test_text_layout_is_allowed_where_values_span_lines() -> None:
    parsed = parse_event(event(object="two\nlines", quote="a\tquote\non lines"), "michal")
    assert parsed.object == "two\nlines"
    assert parse_event(retract("r1", "e1"), "michal").target == "e1"


def test_events_are_equal_and_hash_alike_by_every_field() -> None:
    """Events are values (compared and hashed field by field), whatever their record is at
    run time: the fold keeps one of equal events and tells apart events that differ."""
    first = parse_event(event(), "michal")
    again = parse_event(event(), "michal")
    other = parse_event(event(confidence=0.5), "michal")
    assert first == again and hash(first) == hash(again) and first is not again
    assert first != other
    assert len({first, again, other}) == 2
    assert replace(first, confidence=0.5) == other


def test_an_event_pickled_and_copied_is_the_same_event() -> None:
    """A large sync's second process sends its events back pickled (as their fields)."""
    first = parse_event(event(quote="Oleh – with us since April"), "michal")
    assert pickle.loads(pickle.dumps(first, pickle.HIGHEST_PROTOCOL)) == first
    assert copy.deepcopy(first) == first == copy.copy(first)
    retracting = parse_event(retract("r1", "e1"), "michal")
    assert pickle.loads(pickle.dumps(retracting)) == retracting
