"""The fact rules of triage (SPEC §9): contradictions, facts not re-confirmed for
`stale_after_days`, quarantined facts awaiting review — and where they read the facts.

The rules ask a `FactSource` for what they need, not for every event: the values that hold
now and were last confirmed before a day (stale facts), the keys that may hold two values
at one valid time (read as events and judged here), the quarantined keys and their hosts.
`EventFacts` answers from events in memory (the fold itself: the reference); the cache
answers from its materialised holdings (memrepo.cache.listing.CachedFacts), reading only
the keys that have a finding as events.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple, Protocol

from memrepo.core.config import QUARANTINE_PREFIX, Config
from memrepo.core.duplicates.findings import KINDS, Finding, FindingKind
from memrepo.core.facts.bitemporal import (
    FOREVER,
    Holding,
    fold,
    fold_live,
    live_events,
    standing,
)
from memrepo.core.facts.events import Event, Key, first_recorded
from memrepo.core.facts.times import Instant, format_instant, format_valid_time

PROMOTED_SOURCE = "promoted:"  # memrepo.agent.promote writes source "promoted:<quarantined id>"
DAY: Instant = 86_400 * 1_000_000


class Unconfirmed(NamedTuple):
    """A value of `key` (folded) that holds now, by the assert `event_id`, last asserted
    (live) at `last`."""

    key: Key
    object: str
    event_id: str
    last: Instant


class FactSource(Protocol):
    """The facts of a memory as the triage rules ask for them. Keys are folded keys."""

    def shown(self) -> Mapping[Key, Key]:
        """Every key → the key as first recorded (itself when it has only retracts)."""

    def events(self, keys: Collection[Key]) -> dict[Key, list[Event]]:
        """The events of these keys, each with the retracts of them (a key without
        events is left out)."""

    def unconfirmed(self, now: Instant, before: Instant,
                    is_many: Callable[[str], bool]) -> list[Unconfirmed]:
        """Every value of a key outside quarantine that holds at valid time `now` as known
        at `now`, whose value's last live assert was recorded before `before`; by key,
        then in the order the fold gives its holdings."""

    def clashing(self, now: Instant) -> Collection[Key]:
        """Keys outside quarantine that may have live asserts of different values from
        different sources for one valid time (at least every key that has)."""

    def promoted(self) -> set[str]:
        """The quarantined event ids that were promoted (sources "promoted:<id>")."""


class EventFacts:
    """A FactSource over events in memory, by folded key (each key's events plus the
    retracts of them)."""

    def __init__(self, facts: Mapping[Key, Sequence[Event]]) -> None:
        self._facts = facts

    def shown(self) -> dict[Key, Key]:
        return {key: shown_key(key, events) for key, events in self._facts.items()}

    def events(self, keys: Collection[Key]) -> dict[Key, list[Event]]:
        return {key: list(self._facts[key]) for key in keys if key in self._facts}

    def unconfirmed(self, now: Instant, before: Instant,
                    is_many: Callable[[str], bool]) -> list[Unconfirmed]:
        found = []
        for key, events in sorted(self._facts.items()):
            if key[0].startswith(QUARANTINE_PREFIX):
                continue
            live = live_events(events, now)
            confirmed: dict[str | None, Instant] = {}
            for event in live:
                if event.op == "assert":
                    confirmed[event.object] = max(confirmed.get(event.object, 0),
                                                  event.recorded_at)
            for holding in fold_live(live, is_many(key[2])):
                last = confirmed.get(holding.event.object, holding.event.recorded_at)
                if holding.holds_at(now) and last < before:
                    found.append(Unconfirmed(key, holding.object, holding.event.id, last))
        return found

    def clashing(self, now: Instant) -> list[Key]:
        return [key for key in self._facts if not key[0].startswith(QUARANTINE_PREFIX)]

    def promoted(self) -> set[str]:
        return {e.source[len(PROMOTED_SOURCE):] for events in self._facts.values()
                for e in events if e.source.startswith(PROMOTED_SOURCE)}


Facts = Mapping[Key, Sequence[Event]] | FactSource
"""Events by folded key, or a source that answers the rules' questions."""


def fact_source(facts: Facts) -> FactSource:
    return EventFacts(facts) if isinstance(facts, Mapping) else facts


def shown_key(key: Key, events: Iterable[Event]) -> Key:
    """The key as first recorded (SPEC §4), the folded key when it has no assert or end."""
    first = first_recorded(events)
    return key if first is None else first.key


def fact_findings(facts: Facts, config: Config, now: Instant) -> list[Finding]:
    """Contradictions, stale facts and quarantined facts, by kind (KINDS order), then by
    key (the source gives stale facts by key); each key shown in the form first
    recorded."""
    source = fact_source(facts)
    shown = source.shown()
    is_many = lru_cache(maxsize=None)(config.is_many)  # a relation folded once
    found: dict[FindingKind, list[tuple[Key, Finding]]] = {kind: [] for kind in KINDS}
    clashing = [key for key in source.clashing(now) if not is_many(key[2])]
    for key, events in source.events(clashing).items():
        asserts = [e for e in live_events(events, now) if e.op == "assert"]
        found["contradiction"] += [(key, f) for f in _same_time_asserts(shown[key], asserts)]
    before = now - config.stale_after_days * DAY
    found["stale-fact"] = [(value.key, _stale_finding(shown[value.key], value,
                                                      is_many(value.key[2])))
                           for value in source.unconfirmed(now, before, is_many)]
    for key, finding in _quarantined(source, shown, config, now):
        found[finding.kind].append((key, finding))
    for kind in ("contradiction", "quarantine"):
        found[kind].sort(key=lambda keyed: keyed[0])  # stable: a key's in the order found
    return [finding for kind in KINDS for _, finding in found[kind]]


def _quarantined(source: FactSource, shown: Mapping[Key, Key], config: Config,
                 now: Instant) -> list[tuple[Key, Finding]]:
    keys = [key for key in shown if key[0].startswith(QUARANTINE_PREFIX)]
    if not keys:
        return []
    hosts = {key: (key[0][len(QUARANTINE_PREFIX):], key[1], key[2]) for key in keys}
    events = source.events([*keys, *hosts.values()])
    promoted = source.promoted()
    found: list[tuple[Key, Finding]] = []
    for key in sorted(keys):
        many = config.is_many(shown[key][2])
        found += [(key, f) for f in _quarantine(shown[key], events.get(key, []),
                                                events.get(hosts[key], ()), promoted, many,
                                                now)]
    return found


def key_text(key: Key) -> str:
    return f"{key[0]}: {key[1]}.{key[2]}"


def span(start: Instant, end: Instant) -> str:
    if end >= FOREVER:
        return f"from {format_valid_time(start)}"
    return f"from {format_valid_time(start)} to {format_valid_time(end)}"


def _same_time_asserts(key: Key, live: Sequence[Event]) -> list[Finding]:
    """`live`: the key's live asserts."""
    by_time: dict[Instant, list[Event]] = {}
    for event in live:
        by_time.setdefault(event.valid_from or 0, []).append(event)
    findings = []
    for valid_from, group in sorted(by_time.items()):
        if len({e.object for e in group}) > 1 and len({e.source for e in group}) > 1:
            findings.append(_conflict(key, valid_from, group))
    return findings


def _conflict(key: Key, valid_from: Instant, group: Sequence[Event]) -> Finding:
    ordered = sorted(group, key=lambda e: (e.recorded_at, e.id))
    values = "; ".join(f"{e.object!r} from {e.source} ({e.id})" for e in ordered)
    wrong = " ".join(shlex.quote(x) for x in ("--scope", key[0]))
    return Finding("contradiction", key_text(key), f"different values from different "
                   f"sources for {format_valid_time(valid_from)}: {values}; the later-recorded "
                   f"{ordered[-1].object!r} wins", f"find out which is right and withdraw "
                   f"the other: `memrepo retract {wrong} <id> --reason '...'`",
                   related=tuple(e.id for e in ordered))


def _stale_finding(key: Key, value: Unconfirmed, many: bool) -> Finding:
    command = (f"memrepo forget --scope {_quoted(key[0])} {_quoted(key[1])} "
               f"{_quoted(key[2])} --reason ...")  # the other words need no quotes
    if many:
        command += f" --object {_quoted(value.object)}"
    return Finding("stale-fact", key_text(key), f"{value.object!r} was last confirmed "
                   f"{_date(value.last // DAY)} and never re-asserted since",
                   f"ask whether it still holds; if not: `{command}`",
                   related=(value.event_id,))


@lru_cache(maxsize=1 << 14)
def _date(day: int) -> str:
    """The date (UTC) of the day `day` days after the epoch: tens of thousands of stale
    facts were confirmed on a few thousand days."""
    return format_instant(day * DAY)[:10]


_quoted = lru_cache(maxsize=1 << 16)(shlex.quote)
"""`shlex.join` is its words quoted and joined: scopes, subjects and relations repeat over
a memory's tens of thousands of stale facts."""


def _quarantine(key: Key, events: Sequence[Event], host_events: Sequence[Event],
                promoted: set[str], many: bool, now: Instant) -> list[Finding]:
    """A finding per quarantined value that still holds there (not ended, superseded or
    retracted in the quarantine), not promoted, and not already held by the host; a
    contradiction per host value held over the same valid time."""
    host_scope = key[0][len(QUARANTINE_PREFIX):]
    host = fold(host_events, now, many)
    findings = []
    for held in standing(events, now, many):
        event = held.event
        if held.end != held.value_end or event.id in promoted or _held_throughout(held, host):
            continue  # continued by a re-assert, promoted, or the host holds it
        promote = (f"`memrepo promote --scope {shlex.quote(host_scope)} {event.id} --by "
                   f"'Name <email>' --reason '...'` if it is right, else `memrepo retract "
                   f"--scope {shlex.quote(key[0])} {event.id} --reason '...'`")
        findings.append(Finding("quarantine", key_text(key), f"{event.object!r} from "
                                f"{event.source} (session {event.session}) awaits review",
                                promote, related=(event.id,)))
        findings += [Finding("contradiction", key_text(key), f"quarantined {event.object!r}"
                             f" ({event.id}) contradicts {h.object!r} in {host_scope} "
                             f"({h.event.id}, {span(h.start, h.end)}); the host fact "
                             "stands", promote, related=(event.id, h.event.id))
                     for h in ([] if many else _overlapping(held, host))
                     if h.object != event.object]
    return findings


def _held_throughout(held: Holding, holdings: Sequence[Holding]) -> bool:
    """Whether holdings of `held`'s object cover its whole valid interval."""
    reached = held.start
    for holding in sorted((h for h in holdings if h.object == held.object),
                          key=lambda h: h.start):
        if holding.start > reached:
            break
        reached = max(reached, holding.end)
    return reached >= held.end


def _overlapping(held: Holding, holdings: Sequence[Holding]) -> list[Holding]:
    return [h for h in holdings if h.start < held.end and held.start < h.end]
