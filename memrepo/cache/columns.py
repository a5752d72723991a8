"""The events table's columns and their Event: what queries need, without the build's
parsers (the read path of a one-shot command should not import YAML or link parsing)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memrepo.core.facts.events import Event

EVENT_COLUMNS = ("id, op, scope, subject, relation, object, valid_from, valid_to, "
                 "recorded_at, target, confidence, source, session, quote, trust, reason")


def event_from_row(row: Sequence[Any]) -> Event:
    """Rebuild an Event from the EVENT_COLUMNS of an events row."""
    (id_, op, scope, subject, relation, object_, valid_from, valid_to, recorded_at, target,
     confidence, source, session, quote, trust, reason) = row
    # Positional, in Event's field order: a third of the cost of keywords (a sync or
    # triage makes one per row).
    return Event(id_, op, recorded_at, scope, subject or "", relation or "", object_,
                 valid_from, valid_to, target, confidence, source, session, quote, trust,
                 reason)
