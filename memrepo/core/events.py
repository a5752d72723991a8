"""Fact events (SPEC §4) as small typed records, parsed from already schema-checked JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from memrepo.core.text import key_slug
from memrepo.core.times import Instant, TimeFormatError, is_utc_timestamp, parse_instant

Op = Literal["assert", "end", "retract"]
Key = tuple[str, str, str]
"""(scope, subject, relation); as compared, subject and relation are folded (`folded_key`)."""


class EventError(ValueError):
    """An event that is well-formed JSON but breaks a §4 rule."""


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    op: Op
    recorded_at: Instant
    scope: str
    subject: str = ""
    relation: str = ""
    object: str | None = None
    valid_from: Instant | None = None
    valid_to: Instant | None = None
    target: str | None = None
    confidence: float = 1.0
    source: str = ""
    session: str = ""
    quote: str | None = None
    trust: str = "host"
    reason: str | None = None

    @property
    def key(self) -> Key:
        return (self.scope, self.subject, self.relation)

    @property
    def folded_key(self) -> Key:
        return folded_key(self.key)


def folded_key(key: Key) -> Key:
    """A key as compared (SPEC §4): "Electricity Bill", "electricity-bill" and
    "electricity_bill" are one subject."""
    return (key[0], key_slug(key[1]), key_slug(key[2]))


def first_recorded(events: Iterable[Event]) -> Event | None:
    """The assert or end with the smallest (recorded_at, id): its subject and relation are
    the form a key is shown in (the form first recorded, the same on every clone)."""
    return min((e for e in events if e.op != "retract"),
               key=lambda e: (e.recorded_at, e.id), default=None)


def parse_event(raw: Mapping[str, Any], scope: str) -> Event:
    """Turn one decoded JSON line of `memory/facts/<scope>/…` into an Event.

    The JSON Schema has already checked field types; this checks what a schema cannot:
    time formats, interval order, the scope matching its folder, the quote rule.
    """
    op = raw["op"]
    recorded_at = _recorded_at(raw["recorded_at"])
    if op == "retract":
        return Event(
            id=raw["id"], op="retract", recorded_at=recorded_at, scope=scope,
            target=raw["target"], reason=raw["reason"],
            source=raw["source"], session=raw["session"],
        )
    if raw["scope"] != scope:
        raise EventError(f"scope {raw['scope']!r} does not match its folder {scope!r}")
    valid_from = _optional_time(raw, "valid_from")
    valid_to = _optional_time(raw, "valid_to")
    if valid_from is not None and valid_to is not None and valid_to <= valid_from:
        raise EventError("valid_to must be after valid_from")
    if op == "assert":
        _require_quote(raw)
    return Event(
        id=raw["id"], op=op, recorded_at=recorded_at, scope=scope,
        subject=raw["subject"], relation=raw["relation"], object=raw.get("object"),
        valid_from=valid_from, valid_to=valid_to,
        confidence=float(raw.get("confidence", 1.0)), source=raw["source"],
        session=raw["session"], quote=raw.get("quote"), trust=raw.get("trust", "host"),
        reason=raw.get("reason"),
    )


def _recorded_at(value: str) -> Instant:
    if not is_utc_timestamp(value):
        raise EventError(f"recorded_at {value!r} must be RFC 3339 UTC ending in Z")
    return _parse(value, "recorded_at")


def _optional_time(raw: Mapping[str, Any], field: str) -> Instant | None:
    value = raw.get(field)
    return None if value is None else _parse(value, field)


def _parse(value: str, field: str) -> Instant:
    try:
        return parse_instant(value)
    except TimeFormatError as err:
        raise EventError(f"{field}: {err}") from None


def _require_quote(raw: Mapping[str, Any]) -> None:
    if raw["source"] != "manual" and not (raw.get("quote") or "").strip():
        raise EventError("quote (the verbatim text the fact comes from) is required "
                         "unless source is 'manual'")


def millis_of(event_id: str) -> int | None:
    """The millisecond a ULID event id was made for, or None for ids that are not ULIDs."""
    from ulid import ULID  # ≈70 ms to import: only where an id's time is asked for

    try:
        return int(ULID.from_str(event_id).milliseconds)
    except ValueError:
        return None
