"""Merging two keys of one scope (SPEC §9: `triage --apply` on near-duplicate keys).

The duplicate key is *ended* — under any knowledge from the merge on it holds nothing at
any valid time — and what it held is *re-asserted* on the kept key with its provenance
(the original assert's source, quote, confidence and trust).

Contract (T_m = the merge's recorded_at, later than every event of both keys; K, D = what
the kept and the duplicate key hold under the knowledge before the merge):
- T < T_m: nothing changes (the new events are not known yet).
- T ≥ T_m, single-valued: kept(t) = K(t) if K holds a value at t, else D(t);
  duplicate(t) = not recorded. Where K and D both hold values and they differ, the plan
  reports a `Conflict` (a contradiction for a person to settle) and K stands there.
- T ≥ T_m, many-valued: kept(t) = K(t) ∪ D(t); duplicate(t) = not recorded. Where the fold
  of the kept key cannot carry a duplicate's value (the kept key ended that same value
  inside the duplicate's interval), the plan reports a `Conflict` too.
Conflicts are the only places where recall on the kept key differs from the above; a
plan with conflicts is for a person (`triage` reports it, `--apply` leaves it alone).

Pure: events in, a plan out; `plan_events` turns a plan into events given ids and a time,
which the adapter writes through the normal write path (one commit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from memrepo.core.facts.bitemporal import FOREVER, Holding, fold, live_events
from memrepo.core.facts.events import Event
from memrepo.core.facts.times import Instant


@dataclass(frozen=True, slots=True)
class Reassert:
    """Re-assert `source.object` on the kept key over [valid_from, valid_to)."""

    source: Event  # the duplicate key's assert whose value and provenance are carried
    valid_from: Instant
    valid_to: Instant | None  # None: open


@dataclass(frozen=True, slots=True)
class EndDuplicate:
    valid_to: Instant
    object: str | None  # many-valued keys end each value by name


@dataclass(frozen=True, slots=True)
class Conflict:
    """On [start, end) the kept key holds `kept` while the duplicate held `duplicate`."""

    start: Instant
    end: Instant
    kept: tuple[str, ...]
    duplicate: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KeyMergePlan:
    reasserts: tuple[Reassert, ...]
    ends: tuple[EndDuplicate, ...]
    conflicts: tuple[Conflict, ...]

    @property
    def changes_nothing(self) -> bool:
        return not self.reasserts and not self.ends


def plan_key_merge(kept: Sequence[Event], duplicate: Sequence[Event], many: bool,
                   ) -> KeyMergePlan:
    """The events that merge `duplicate` (its events plus the retracts of them) into
    `kept`, under current knowledge of both."""
    kept_holdings = fold(kept, FOREVER, many)
    dup_holdings = fold(duplicate, FOREVER, many)
    if not dup_holdings:
        return KeyMergePlan((), (), ())
    cuts = _cuts(kept, kept_holdings, dup_holdings)
    if many:
        reasserts = _many_reasserts(kept_holdings, dup_holdings, cuts)
    else:
        reasserts = _single_reasserts(kept_holdings, dup_holdings, cuts, _steps(kept))
    plan = KeyMergePlan(tuple(reasserts), tuple(_ends(duplicate, many)), ())
    conflicts = _conflicts(kept, kept_holdings, dup_holdings, plan, many)
    return KeyMergePlan(plan.reasserts, plan.ends, tuple(conflicts))


def _cuts(kept: Sequence[Event], kept_holdings: Sequence[Holding],
          dup_holdings: Sequence[Holding]) -> list[Instant]:
    """Every instant where something may change: holding bounds of both keys and every
    step of the kept key (an `end` of the kept key inside a gap it leaves would otherwise
    clear a re-asserted value; a re-assert starting at that step comes after it)."""
    points = {0, *_steps(kept)}
    for h in (*kept_holdings, *dup_holdings):
        points.update((h.start, h.end))
    return sorted(p for p in points if p < FOREVER)


def _steps(events: Sequence[Event]) -> set[Instant]:
    """The valid times at which live events of a key set or clear it."""
    return {t for e in live_events(events, FOREVER) for t in (e.valid_from, e.valid_to)
            if t is not None}


def _pieces(cuts: Sequence[Instant]) -> Iterable[tuple[Instant, Instant]]:
    bounds = [*cuts, FOREVER]
    return pairwise(bounds)


def _at(holdings: Sequence[Holding], t: Instant) -> list[Holding]:
    return [h for h in holdings if h.holds_at(t)]


def _single_reasserts(kept: Sequence[Holding], dup: Sequence[Holding],
                      cuts: Sequence[Instant], kept_steps: set[Instant]) -> list[Reassert]:
    """Each piece where only the duplicate holds a value, joined with the previous piece
    when the same duplicate assert holds both and the kept key has no step between."""
    reasserts: list[Reassert] = []
    for start, end in _pieces(cuts):
        if _at(kept, start):
            continue
        holders = _at(dup, start)
        if not holders:
            continue
        source = holders[0].event
        last = reasserts[-1] if reasserts else None
        if (last is not None and last.source is source and last.valid_to == start
                and start not in kept_steps):
            reasserts[-1] = Reassert(source, last.valid_from, _open(end))
        else:
            reasserts.append(Reassert(source, start, _open(end)))
    return reasserts


def _many_reasserts(kept: Sequence[Holding], dup: Sequence[Holding],
                    cuts: Sequence[Instant]) -> list[Reassert]:
    """Per duplicate value: each piece where the kept key lacks that value."""
    reasserts: list[Reassert] = []
    for start, end in _pieces(cuts):
        present = {h.object for h in _at(kept, start)}
        for holding in _at(dup, start):
            if holding.object not in present:
                present.add(holding.object)
                reasserts.append(Reassert(holding.event, start, _open(end)))
    return reasserts


def _open(end: Instant) -> Instant | None:
    return None if end >= FOREVER else end


def _ends(duplicate: Sequence[Event], many: bool) -> list[EndDuplicate]:
    """An end at every instant a live assert of the duplicate sets a value (recorded
    later, so it clears right after): the duplicate then holds nothing anywhere."""
    live = [e for e in live_events(duplicate, FOREVER) if e.op == "assert"]
    wanted = {(e.valid_from or 0, e.object if many else None) for e in live}
    return [EndDuplicate(at, obj) for at, obj in sorted(wanted, key=lambda w: (w[0], w[1] or ""))]


def _conflicts(kept: Sequence[Event], kept_holdings: Sequence[Holding],
               dup_holdings: Sequence[Holding], plan: KeyMergePlan, many: bool,
               ) -> list[Conflict]:
    """Pieces where the merged kept key would not hold the contract's value."""
    reasserts = [e for e in plan_events(plan, ("", ""), ("", ""), FOREVER - 1, _counter(),
                                        "", "") if e.op == "assert"]
    merged = fold([*kept, *reasserts], FOREVER, many)
    cuts = sorted({*_cuts(kept, kept_holdings, dup_holdings),
                   *(h.start for h in merged), *(h.end for h in merged if h.end < FOREVER)})
    conflicts: list[Conflict] = []
    for start, end in _pieces(cuts):
        k = sorted({h.object for h in _at(kept_holdings, start)})
        d = sorted({h.object for h in _at(dup_holdings, start)})
        got = sorted({h.object for h in _at(merged, start)})
        want = sorted({*k, *d}) if many else (k or d)
        if got != want or (not many and k and d and k != d):
            _extend(conflicts, Conflict(start, end, tuple(k), tuple(d)))
    return conflicts


def _extend(conflicts: list[Conflict], conflict: Conflict) -> None:
    last = conflicts[-1] if conflicts else None
    if (last is not None and last.end == conflict.start and last.kept == conflict.kept
            and last.duplicate == conflict.duplicate):
        conflicts[-1] = Conflict(last.start, conflict.end, last.kept, last.duplicate)
    else:
        conflicts.append(conflict)


def _counter() -> Callable[[], str]:
    count = iter(range(10**9))
    return lambda: f"plan-{next(count):09d}"


# --- the plan as events ------------------------------------------------------------------

def plan_events(plan: KeyMergePlan, kept_key: tuple[str, str], dup_key: tuple[str, str],
                recorded_at: Instant, new_id: Callable[[], str], scope: str,
                session: str) -> list[Event]:
    """The plan's events, all recorded at `recorded_at` (after every event of both keys),
    with increasing ids from `new_id`: re-asserts first (the i-th carries
    `plan.reasserts[i].source`: its object, source, quote, confidence and trust), then the
    duplicate's ends. An assert has no `reason` field (the event schema of existing
    memories refuses one), so which event a re-assert carries is said by the commit."""
    kept_text = ".".join(kept_key)
    events = [Event(
        id=new_id(), op="assert", recorded_at=recorded_at, scope=scope,
        subject=kept_key[0], relation=kept_key[1], object=r.source.object,
        valid_from=r.valid_from, valid_to=r.valid_to, confidence=r.source.confidence,
        source=r.source.source, session=session, quote=r.source.quote,
        trust=r.source.trust)
        for r in plan.reasserts]
    events += [Event(
        id=new_id(), op="end", recorded_at=recorded_at, scope=scope, subject=dup_key[0],
        relation=dup_key[1], object=e.object, valid_to=e.valid_to, session=session,
        source="triage", reason=f"key merge: merged into {kept_text}")
        for e in plan.ends]
    return events
