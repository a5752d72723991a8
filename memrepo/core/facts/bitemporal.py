"""The bitemporal fold (SPEC §5): events of one key → what held when, as known when.

Vocabulary:
- *known at T*: recorded_at ≤ T; *live at T*: known at T and no retract of it known at T.
- a *holding* is one assert holding the key on a half-open valid interval [start, end);
- a *version* is a continuous value: consecutive holdings with the same object, merged.

Line order never matters: every ordering is by (time, recorded_at, id).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

from memrepo.core.facts.events import Event
from memrepo.core.facts.times import Instant
from memrepo.core.record_base import Record, init_field

FOREVER: Instant = 2**62
"""Greater than any real instant: the open end of an interval."""


class Holding(Record):
    """`event` (an assert) held the key on [start, end); the continuous value spans
    [value_start, value_end) — wider when neighbouring holdings carry the same object."""

    __slots__ = ("end", "event", "start", "value_end", "value_start")
    event: Event
    start: Instant
    end: Instant
    value_start: Instant
    value_end: Instant

    def __init__(self, event: Event, start: Instant, end: Instant, value_start: Instant,
                 value_end: Instant) -> None:
        init_field(self, "event", event)
        init_field(self, "start", start)
        init_field(self, "end", end)
        init_field(self, "value_start", value_start)
        init_field(self, "value_end", value_end)

    @property
    def object(self) -> str:
        return self.event.object or ""

    def holds_at(self, t: Instant) -> bool:
        return self.start <= t < self.end


class KnownHolding(Record):
    """A holding that the fold produced for every system time T in [known_from, known_to)."""

    __slots__ = ("holding", "known_from", "known_to")
    holding: Holding
    known_from: Instant
    known_to: Instant

    def __init__(self, holding: Holding, known_from: Instant, known_to: Instant) -> None:
        init_field(self, "holding", holding)
        init_field(self, "known_from", known_from)
        init_field(self, "known_to", known_to)


def live_events(events: Iterable[Event], known_at: Instant) -> list[Event]:
    """Asserts and ends known at `known_at` that no retract known then withdraws."""
    known = [e for e in events if e.recorded_at <= known_at]
    retracted = {e.target for e in known if e.op == "retract"}
    return [e for e in known if e.op != "retract" and e.id not in retracted]


def fold(events: Iterable[Event], known_at: Instant, many: bool) -> list[Holding]:
    """Every holding of one key under the knowledge of `known_at`, ordered by start."""
    return fold_live(live_events(events, known_at), many)


def fold_live(live: Sequence[Event], many: bool) -> list[Holding]:
    """`fold` of the events `live_events` gave (a caller that needs them too reads them
    once)."""
    spans = _many_spans(live) if many else _single_spans(_steps(live))
    return [Holding(*span) for span in spans]


def standing(events: Iterable[Event], known_at: Instant, many: bool) -> list[Holding]:
    """The holdings whose value still runs to the end its assert gave it (its valid_to,
    else forever) under the knowledge of `known_at`: no later end or other value cut it
    short (a re-assert of the same value continues it); a retracted assert has none."""
    return [h for h in fold(events, known_at, many) if h.value_end == own_end(h.event)]


def replaced_by(events: Iterable[Event], new: Event, many: bool) -> list[Holding]:
    """The different values that an assert `new` of a single-valued key takes over from
    at its valid_from, under current knowledge (a many-valued key replaces nothing)."""
    at = new.valid_from
    if many or new.op != "assert" or at is None:
        return []
    return [h for h in fold(events, FOREVER, many) if h.holds_at(at) and h.object != new.object]


def own_end(event: Event) -> Instant:
    """The end an assert gives itself: its valid_to, else forever."""
    return FOREVER if event.valid_to is None else event.valid_to


def recall(events: Iterable[Event], t: Instant, known_at: Instant, many: bool) -> list[Holding]:
    """What holds at valid time t under knowledge T — empty means "not recorded"."""
    return [h for h in fold(events, known_at, many) if h.holds_at(t)]


def timeline(events: Sequence[Event], many: bool) -> list[KnownHolding]:
    """Materialise the fold across system time: each holding with the span of T
    for which it is the answer. recall(t, T) is then a lookup, not a replay.

    Keys of plain asserts (most keys) take a shortcut that gives the same rows."""
    if len(events) == 1 and _holds_alone(events[0]):  # `plain_asserts_timeline`'s one row
        return [_lone_assert_row(events[0])]
    plain = plain_asserts_timeline(events, many)
    return folded_timeline(events, many) if plain is None else plain


def folded_timeline(events: Sequence[Event], many: bool) -> list[KnownHolding]:
    """The timeline of any events: the fold at each recorded instant, from the steps of
    every event sorted once: an instant only filters them by what is known and not
    retracted then."""
    unique = _distinct(events)
    asserted = [e for e in unique if e.op != "retract"]
    retracts = sorted((e for e in unique if e.op == "retract"), key=_recorded)
    all_steps = [] if many else _steps(asserted)
    open_rows: dict[_HoldingKey, tuple[_Span, Instant]] = {}
    rows: list[KnownHolding] = []
    retracted: set[str | None] = set()
    known_retracts = 0
    for known_at in sorted({e.recorded_at for e in unique}):
        while known_retracts < len(retracts) and \
                retracts[known_retracts].recorded_at <= known_at:
            retracted.add(retracts[known_retracts].target)
            known_retracts += 1
        if many:
            spans = _many_spans([e for e in asserted if e.recorded_at <= known_at
                                 and e.id not in retracted])
        else:
            spans = _single_spans([step for step in all_steps
                                   if step[2].recorded_at <= known_at
                                   and step[2].id not in retracted])
        current = {(id(span[0]), *span[1:]): span for span in spans}
        for key in [k for k in open_rows if k not in current]:
            span, since = open_rows.pop(key)
            rows.append(KnownHolding(Holding(*span), since, known_at))
        for key in current.keys() - open_rows.keys():
            open_rows[key] = (current[key], known_at)
    rows.extend(KnownHolding(Holding(*span), since, FOREVER)
                for span, since in open_rows.values())
    return sorted(rows, key=_row_order)


def plain_asserts_timeline(events: Sequence[Event], many: bool) -> list[KnownHolding] | None:
    """The timeline without folding, when no event can change another's value: asserts
    only, each with a non-empty interval, and
    - many-valued: each of a different object (none merges with another): each holds its
      own interval from the moment it is recorded on;
    - single-valued: each recorded later and starting later than the one before, of
      another object than it: each holds its own interval until the next is recorded,
      then up to where the next starts (if that is sooner).
    None when the key needs the fold."""
    if not all(map(_holds_alone, events)):
        return None
    if many:
        if len({e.object for e in events}) < len(events):
            return None
        return sorted(map(_lone_assert_row, events), key=_row_order)
    ordered = sorted(events, key=_recorded)
    rows = []
    for event, after in pairwise(ordered):
        assert event.valid_from is not None and after.valid_from is not None
        if not (event.recorded_at < after.recorded_at and event.valid_from < after.valid_from
                and event.object != after.object):
            return None
        if after.valid_from < own_end(event):
            rows.append(KnownHolding(_alone(event, own_end(event)), event.recorded_at,
                                     after.recorded_at))
            rows.append(KnownHolding(_alone(event, after.valid_from), after.recorded_at,
                                     FOREVER))
        else:
            rows.append(_lone_assert_row(event))
    rows.append(_lone_assert_row(ordered[-1]))
    return sorted(rows, key=_row_order)


def _row_order(row: KnownHolding) -> tuple[Instant, Instant, str]:
    return (row.known_from, row.holding.start, row.holding.event.id)


_Span = tuple[Event, Instant, Instant, Instant, Instant]
"""A holding's fields (event, start, end, value_start, value_end): the fold works on these
and makes Holdings only of what it returns."""
_HoldingKey = tuple[int, Instant, Instant, Instant, Instant]
"""A span compared without hashing its event field by field: the events are deduplicated
first, so the same event is the same object."""


def _recorded(event: Event) -> Instant:
    return event.recorded_at


def _distinct(events: Sequence[Event]) -> Sequence[Event]:
    """One of each equal event (they fold alike); events with distinct ids — every key of
    a cache build — are distinct without hashing them field by field."""
    if len({e.id for e in events}) == len(events):
        return events
    return list(dict.fromkeys(events))


def _holds_alone(event: Event) -> bool:
    return (event.op == "assert" and event.valid_from is not None
            and (event.valid_to is None or event.valid_to > event.valid_from))


def _lone_assert_row(event: Event) -> KnownHolding:
    """An assert that nothing cuts short: it holds its own interval from the moment it is
    recorded on."""
    return KnownHolding(_alone(event, own_end(event)), event.recorded_at, FOREVER)


def _alone(event: Event, end: Instant) -> Holding:
    """An assert holding from its valid_from to `end`, a value of its own."""
    assert event.valid_from is not None
    return Holding(event, event.valid_from, end, event.valid_from, end)


def _order(event: Event, at: Instant) -> tuple[Instant, Instant, str]:
    return (at, event.recorded_at, event.id)


# --- single-valued keys: a step function of valid time -------------------------------

_SET, _CLEAR, _OWN_END = 0, 1, 2


_Step = tuple[tuple[Instant, Instant, str], int, Event]


def _steps(live: Sequence[Event]) -> list[_Step]:
    steps = []
    for event in live:
        if event.op == "assert" and event.valid_from is not None:
            steps.append((_order(event, event.valid_from), _SET, event))
            if event.valid_to is not None:
                steps.append((_order(event, event.valid_to), _OWN_END, event))
        elif event.op == "end" and event.valid_to is not None:
            steps.append((_order(event, event.valid_to), _CLEAR, event))
    steps.sort(key=lambda step: (step[0], step[1]))
    return steps


def _single_spans(steps: Iterable[_Step]) -> list[_Span]:
    """The holdings of the sorted steps of the live events."""
    spans: list[tuple[Event, Instant, Instant]] = []
    holder: Event | None = None
    since: Instant = 0
    for (at, _, _), kind, event in steps:
        if kind == _SET:
            new_holder: Event | None = event
        elif kind == _OWN_END:
            new_holder = None if holder is event else holder
        elif holder is None or (event.object is not None and event.object != holder.object):
            continue  # an end naming another object leaves this value alone
        else:
            new_holder = None
        if new_holder is holder:
            continue
        if holder is not None and at > since:
            spans.append((holder, since, at))
        holder, since = new_holder, at
    if holder is not None:
        spans.append((holder, since, FOREVER))
    return _with_value_spans(spans)


def _with_value_spans(spans: Sequence[tuple[Event, Instant, Instant]]) -> list[_Span]:
    """Widen each holding to the continuous value it is part of (same object, touching)."""
    holdings: list[_Span] = []
    group: list[tuple[Event, Instant, Instant]] = []
    for span in spans:
        if group and (group[-1][2] != span[1] or group[-1][0].object != span[0].object):
            holdings.extend(_close_group(group))
            group = []
        group.append(span)
    holdings.extend(_close_group(group))
    return holdings


def _close_group(group: Sequence[tuple[Event, Instant, Instant]]) -> list[_Span]:
    if not group:
        return []
    value_start, value_end = group[0][1], group[-1][2]
    return [(e, start, end, value_start, value_end) for e, start, end in group]


# --- many-valued keys: each assert holds its own interval ------------------------------


def _many_spans(live: Sequence[Event]) -> list[_Span]:
    ends = [e for e in live if e.op == "end" and e.valid_to is not None]
    spans = []
    for event in live:
        if event.op != "assert" or event.valid_from is None:
            continue
        stop = _many_stop(event, ends)
        if stop > event.valid_from:
            spans.append((event, event.valid_from, stop))
    return _with_overlap_spans(spans)


def _many_stop(event: Event, ends: Sequence[Event]) -> Instant:
    stop = FOREVER if event.valid_to is None else event.valid_to
    for end in ends:
        assert end.valid_to is not None
        same_object = end.object is None or end.object == event.object
        if same_object and end.valid_to >= (event.valid_from or 0):
            stop = min(stop, end.valid_to)
    return stop


def _with_overlap_spans(spans: Sequence[tuple[Event, Instant, Instant]]) -> list[_Span]:
    """For many-valued keys a value is continuous over overlapping or touching holdings
    of the same object."""
    by_object: dict[str | None, list[tuple[Event, Instant, Instant]]] = {}
    for span in sorted(spans, key=lambda s: (s[1], s[0].recorded_at, s[0].id)):
        by_object.setdefault(span[0].object, []).append(span)
    holdings: list[_Span] = []
    for group in by_object.values():
        holdings.extend(_merge_overlapping(group))
    return sorted(holdings, key=lambda h: (h[1], h[0].recorded_at, h[0].id))


def _merge_overlapping(group: Sequence[tuple[Event, Instant, Instant]]) -> list[_Span]:
    holdings: list[_Span] = []
    cluster: list[tuple[Event, Instant, Instant]] = []
    reach: Instant = -FOREVER
    for span in group:
        if cluster and span[1] > reach:
            holdings.extend(_cluster_holdings(cluster, reach))
            cluster = []
        cluster.append(span)
        reach = max(reach, span[2]) if len(cluster) > 1 else span[2]
    if cluster:
        holdings.extend(_cluster_holdings(cluster, reach))
    return holdings


def _cluster_holdings(cluster: Sequence[tuple[Event, Instant, Instant]], reach: Instant,
                      ) -> list[_Span]:
    value_start = cluster[0][1]
    return [(e, start, end, value_start, reach) for e, start, end in cluster]
