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
    return Event(id=id_, op=op, recorded_at=recorded_at, scope=scope,
                 subject=subject or "", relation=relation or "", object=object_,
                 valid_from=valid_from, valid_to=valid_to, target=target,
                 confidence=confidence, source=source, session=session, quote=quote,
                 trust=trust, reason=reason)
