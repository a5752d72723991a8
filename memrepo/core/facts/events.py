"""Fact events (SPEC §4) as small typed records, parsed from already schema-checked JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from memrepo.core.display import describe_character, unsafe_character
from memrepo.core.facts.times import Instant, TimeFormatError, is_utc_timestamp, parse_instant
from memrepo.core.facts.ulids import ulid_millis
from memrepo.core.problems import InputError, Problem
from memrepo.core.record_base import Record
from memrepo.core.text import key_slug

Op = Literal["assert", "end", "retract"]
Key = tuple[str, str, str]
"""(scope, subject, relation); as compared, subject and relation are folded (`folded_key`)."""


class EventError(ValueError):
    """An event that is well-formed JSON but breaks a §4 rule."""


class Event(Record):
    """One line of a fact log. Frozen as the type checker sees it; at run time its fields
    are set as plain attributes: a frozen record sets each through object.__setattr__, which
    made constructing an Event 5× slower (a cache build makes one per log line). Equality
    and hashing are a frozen record's."""

    __slots__ = ("confidence", "id", "object", "op", "quote", "reason", "recorded_at",
                 "relation", "scope", "session", "source", "subject", "target", "trust",
                 "valid_from", "valid_to")
    id: str
    op: Op
    recorded_at: Instant
    scope: str
    subject: str
    relation: str
    object: str | None
    valid_from: Instant | None
    valid_to: Instant | None
    target: str | None
    confidence: float
    source: str
    session: str
    quote: str | None
    trust: str
    reason: str | None

    if TYPE_CHECKING:
        def __init__(self, id: str, op: Op, recorded_at: Instant, scope: str, subject: str = "",
                     relation: str = "", object: str | None = None,
                     valid_from: Instant | None = None, valid_to: Instant | None = None,
                     target: str | None = None, confidence: float = 1.0, source: str = "",
                     session: str = "", quote: str | None = None, trust: str = "host",
                     reason: str | None = None) -> None: ...
    else:
        __setattr__ = object.__setattr__
        __delattr__ = object.__delattr__

        def __init__(self, id, op, recorded_at, scope, subject="", relation="", object=None,
                     valid_from=None, valid_to=None, target=None, confidence=1.0, source="",
                     session="", quote=None, trust="host", reason=None):
            self.id = id
            self.op = op
            self.recorded_at = recorded_at
            self.scope = scope
            self.subject = subject
            self.relation = relation
            self.object = object
            self.valid_from = valid_from
            self.valid_to = valid_to
            self.target = target
            self.confidence = confidence
            self.source = source
            self.session = session
            self.quote = quote
            self.trust = trust
            self.reason = reason

    @property
    def key(self) -> Key:
        return (self.scope, self.subject, self.relation)

    @property
    def folded_key(self) -> Key:
        return folded_key(self.key)

    def __reduce__(self) -> tuple[type[Event], tuple[Any, ...]]:
        """Pickled as its fields in order: a large sync's second process sends its events
        back, and a slotted record's default pickling takes three times as long."""
        return (Event, Event._values(self))


def folded_key(key: Key) -> Key:
    """A key as compared (SPEC §4): "Electricity Bill", "electricity-bill" and
    "electricity_bill" are one subject."""
    return (key[0], key_slug(key[1]), key_slug(key[2]))


def require_key(subject: str, relation: str) -> None:
    """A key must keep something after folding ("!!!" is no subject)."""
    for what, text in (("subject", subject), ("relation", relation)):
        if not key_slug(text):
            raise InputError(Problem(what, f"{what} {text!r} has no letters or digits",
                                     f"name the {what} with words, e.g. 'electricity_bill "
                                     "amount'"))


def first_recorded(events: Iterable[Event]) -> Event | None:
    """The assert or end with the smallest (recorded_at, id): its subject and relation are
    the form a key is shown in (the form first recorded, the same on every clone)."""
    return min((e for e in events if e.op != "retract"),
               key=lambda e: (e.recorded_at, e.id), default=None)


OPS: tuple[Op, ...] = ("assert", "end", "retract")
TRUST_VALUES = ("host", "untrusted")
FIELD_LIMITS: dict[str, int] = {
    "id": 64, "op": 10, "recorded_at": 40, "scope": 100, "subject": 500, "relation": 500,
    "object": 10_000, "valid_from": 40, "valid_to": 40, "target": 64, "trust": 10,
    "reason": 2_000, "source": 500, "session": 200, "quote": 10_000,
}
"""The most characters a field may hold: the limits of schema/fact-event.schema.json,
enforced here too so that every reader (the cache, which skips the schema for speed) and
every writer refuses what the checks refuse."""
MULTILINE_FIELDS = frozenset({"object", "quote", "reason"})
"""Fields where tab and newline are text; in every other field they are refused."""


def parse_event(raw: Mapping[str, Any], scope: str) -> Event:
    """Turn one decoded JSON line of `memory/facts/<scope>/…` into an Event: its structure
    (`check_structure`), then the rules a JSON Schema cannot express (`event_from`)."""
    check_structure(raw)
    return event_from(raw, scope)


def check_structure(raw: Mapping[str, Any]) -> None:
    """The limits every event obeys whatever a repository's schema says, checked without
    echoing a value: known `op` and `trust`, string fields within FIELD_LIMITS and free of
    control characters, a confidence between 0 and 1."""
    if raw.get("op") not in OPS:
        raise EventError("op must be one of assert, end, retract")
    for field, value in raw.items():  # the fields present: a dozen on the cache's hot path
        limit = FIELD_LIMITS.get(field)
        if limit is None:
            continue  # confidence below; unknown keys are the schema's to refuse
        if type(value) is not str:
            raise EventError(f"{field} must be a string")
        if len(value) > limit:
            raise EventError(f"{field} is longer than {limit} characters ({len(value)})")
        if not value.isprintable():
            _refuse_controls(field, value)
    if raw.get("trust", "host") not in TRUST_VALUES:
        raise EventError("trust must be 'host' or 'untrusted'")
    confidence = raw.get("confidence", 1.0)
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) \
            or not 0.0 <= confidence <= 1.0:
        raise EventError("confidence must be a number between 0 and 1")


def _refuse_controls(field: str, value: str) -> None:
    char = unsafe_character(value, multiline=field in MULTILINE_FIELDS)
    if char is not None:
        raise EventError(f"{field} contains a control character "
                         f"({describe_character(char)}); values are plain text")


def event_from(raw: Mapping[str, Any], scope: str) -> Event:
    """An Event from a structurally checked line: time formats, interval order, the scope
    matching its folder, the quote rule (what a JSON Schema cannot check)."""
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
    # Positional, in the field order (id … reason; no target): a third of the cost of
    # keywords, once per log line a cache build or sync reads.
    return Event(raw["id"], op, recorded_at, scope, raw["subject"], raw["relation"],
                 raw.get("object"), valid_from, valid_to, None,
                 float(raw.get("confidence", 1.0)), raw["source"], raw["session"],
                 raw.get("quote"), raw.get("trust", "host"), raw.get("reason"))


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
    try:
        return ulid_millis(event_id)
    except ValueError:
        return None
