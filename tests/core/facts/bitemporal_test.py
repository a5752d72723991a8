"""The bitemporal fold (SPEC §5): the worked example, scenarios, and property tests
against a brute-force reference."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core.facts.bitemporal import (
    FOREVER,
    Holding,
    fold,
    folded_timeline,
    plain_asserts_timeline,
    recall,
    timeline,
)
from memrepo.core.facts.events import Event
from memrepo.core.facts.times import parse_instant

DAY = 86_400_000_000


def at(text: str) -> int:
    return parse_instant(text)


def assert_(eid: str, recorded: str, obj: str, valid_from: str, valid_to: str | None = None,
            relation: str = "amount") -> Event:
    return Event(id=eid, op="assert", recorded_at=at(recorded), scope="michal",
                 subject="electricity_bill", relation=relation, object=obj,
                 valid_from=at(valid_from), valid_to=at(valid_to) if valid_to else None)


def end(eid: str, recorded: str, valid_to: str, obj: str | None = None) -> Event:
    return Event(id=eid, op="end", recorded_at=at(recorded), scope="michal",
                 subject="electricity_bill", relation="amount", object=obj,
                 valid_to=at(valid_to), reason="r")


def retract(eid: str, recorded: str, target: str) -> Event:
    return Event(id=eid, op="retract", recorded_at=at(recorded), scope="michal",
                 target=target, reason="r")


WORKED = [
    assert_("e1", "2026-01-12T00:00:00Z", "210 zł", "2026-01-10"),
    assert_("e2", "2026-03-05T00:00:00Z", "280 zł", "2026-03-01"),
    assert_("e3", "2026-07-02T00:00:00Z", "245 zł", "2026-07-01"),
    assert_("e4", "2026-08-01T00:00:00Z", "200 zł", "2025-10-01"),
    assert_("e5", "2026-08-05T00:00:00Z", "250 zł", "2026-07-01"),
]
CONTINUED = [
    *WORKED,
    end("e6", "2026-10-02T00:00:00Z", "2026-10-01"),
    retract("e7", "2026-10-03T00:00:00Z", "e5"),
]
NOW = "2026-11-30"


def answer(events: list[Event], t: str, known_at: str, many: bool = False) -> list[str]:
    return [h.object for h in recall(events, at(t), at(known_at), many)]


def test_worked_example_table() -> None:
    assert answer(WORKED, NOW, NOW) == ["250 zł"]
    assert answer(WORKED, "2026-04-15", NOW) == ["280 zł"]
    assert answer(WORKED, "2025-11-01", NOW) == ["200 zł"]
    assert answer(WORKED, "2025-11-01", "2026-07-15") == []
    assert answer(WORKED, "2026-05-01", "2026-05-01") == ["280 zł"]
    assert answer(WORKED, "2026-08-01", "2026-05-01") == ["280 zł"]
    assert answer(WORKED, "2026-07-15", "2026-08-03") == ["245 zł"]


def test_worked_example_current_value_starts_in_july() -> None:
    (holding,) = recall(WORKED, at(NOW), at(NOW), many=False)
    assert holding.event.id == "e5"
    assert holding.value_start == at("2026-07-01")
    assert holding.value_end == FOREVER


def test_worked_example_forget_and_retract() -> None:
    assert answer(CONTINUED, "2026-07-15", NOW) == ["245 zł"]
    assert answer(CONTINUED, "2026-10-15", NOW) == []
    assert answer(CONTINUED, "2026-07-15", "2026-10-02") == ["250 zł"]
    assert answer(CONTINUED, "2026-09-15", "2026-10-02") == ["250 zł"]


def test_backfill_before_the_first_value() -> None:
    events = [assert_("a", "2026-05-01T00:00:00Z", "x", "2026-05-01"),
              assert_("b", "2026-06-01T00:00:00Z", "w", "2025-01-01")]
    assert answer(events, "2025-06-01", NOW) == ["w"]
    assert answer(events, "2026-05-02", NOW) == ["x"]
    assert answer(events, "2025-06-01", "2026-05-15") == []


def test_correction_at_equal_valid_time_is_won_by_the_later_record() -> None:
    events = [assert_("b", "2026-02-01T00:00:00Z", "second", "2026-01-01"),
              assert_("a", "2026-01-01T00:00:00Z", "first", "2026-01-01")]
    assert answer(events, "2026-03-01", NOW) == ["second"]
    assert answer(events, "2026-03-01", "2026-01-15") == ["first"]


def test_equal_recorded_at_is_broken_by_id() -> None:
    events = [assert_("B", "2026-01-01T00:00:00Z", "b", "2026-01-01"),
              assert_("A", "2026-01-01T00:00:00Z", "a", "2026-01-01")]
    assert answer(events, NOW, NOW) == ["b"]


def test_end_then_new_assert() -> None:
    events = [assert_("a", "2026-01-01T00:00:00Z", "x", "2026-01-01"),
              end("e", "2026-02-01T00:00:00Z", "2026-02-01"),
              assert_("b", "2026-03-01T00:00:00Z", "y", "2026-03-01")]
    assert answer(events, "2026-01-15", NOW) == ["x"]
    assert answer(events, "2026-02-15", NOW) == []
    assert answer(events, "2026-03-15", NOW) == ["y"]


def test_retract_of_an_end_restores_the_value() -> None:
    events = [assert_("a", "2026-01-01T00:00:00Z", "x", "2026-01-01"),
              end("e", "2026-02-01T00:00:00Z", "2026-02-01"),
              retract("r", "2026-03-01T00:00:00Z", "e")]
    assert answer(events, "2026-02-15", NOW) == ["x"]
    assert answer(events, "2026-02-15", "2026-02-15") == []


def test_own_valid_to_ends_only_that_assert() -> None:
    events = [assert_("a", "2026-01-01T00:00:00Z", "x", "2026-01-01", "2026-03-01"),
              assert_("b", "2026-01-02T00:00:00Z", "y", "2026-02-01")]
    assert answer(events, "2026-03-15", NOW) == ["y"]
    assert answer(events, "2026-01-15", NOW) == ["x"]
    lone = events[:1]
    assert answer(lone, "2026-03-15", NOW) == []


def test_consecutive_equal_objects_form_one_value() -> None:
    events = [assert_("a", "2026-01-01T00:00:00Z", "x", "2026-01-01"),
              assert_("b", "2026-02-01T00:00:00Z", "x", "2026-02-01")]
    (holding,) = recall(events, at("2026-03-01"), at(NOW), many=False)
    assert holding.event.id == "b"
    assert holding.value_start == at("2026-01-01")


def test_end_naming_another_object_leaves_a_single_value_alone() -> None:
    events = [assert_("a", "2026-01-01T00:00:00Z", "x", "2026-01-01"),
              end("e", "2026-02-01T00:00:00Z", "2026-02-01", obj="y")]
    assert answer(events, "2026-03-01", NOW) == ["x"]


def test_many_valued_keys_hold_several_objects() -> None:
    events = [assert_("a", "2026-01-01T00:00:00Z", "en", "2026-01-01", relation="speaks"),
              assert_("b", "2026-01-02T00:00:00Z", "pl", "2026-01-01", relation="speaks"),
              end("e", "2026-03-01T00:00:00Z", "2026-03-01", obj="en")]
    assert sorted(answer(events, "2026-02-01", NOW, many=True)) == ["en", "pl"]
    assert answer(events, "2026-04-01", NOW, many=True) == ["pl"]


def test_many_valued_end_before_the_assert_does_not_apply() -> None:
    events = [end("e", "2026-01-01T00:00:00Z", "2026-01-01", obj="en"),
              assert_("a", "2026-02-01T00:00:00Z", "en", "2026-02-01")]
    assert answer(events, "2026-03-01", NOW, many=True) == ["en"]


def test_dates_and_date_times_with_offsets_compare_as_instants() -> None:
    events = [assert_("a", "2026-01-01T00:00:00Z", "x", "2026-01-10T01:00:00+02:00")]
    assert answer(events, "2026-01-09T23:00:00Z", NOW) == ["x"]
    assert answer(events, "2026-01-09T22:59:59Z", NOW) == []


# --- property tests --------------------------------------------------------------------

OBJECTS = ["a", "b", "c"]


@st.composite
def event_sets(draw: st.DrawFn) -> list[Event]:
    count = draw(st.integers(min_value=1, max_value=9))
    events: list[Event] = []
    for index in range(count):
        eid = f"id{draw(st.integers(0, 99)):02d}-{index}"
        recorded = draw(st.integers(0, 6)) * DAY
        kind = draw(st.sampled_from(["assert", "assert", "assert", "end", "retract"]))
        if kind == "retract" and events:
            target = draw(st.sampled_from(events)).id
            events.append(Event(id=eid, op="retract", recorded_at=recorded, scope="s",
                                target=target))
            continue
        obj = draw(st.sampled_from(OBJECTS))
        start = draw(st.integers(0, 8)) * DAY
        if kind == "end":
            named = draw(st.booleans())
            events.append(Event(id=eid, op="end", recorded_at=recorded, scope="s",
                                subject="k", relation="r", object=obj if named else None,
                                valid_to=start))
            continue
        length = draw(st.one_of(st.none(), st.integers(1, 4)))
        events.append(Event(id=eid, op="assert", recorded_at=recorded, scope="s",
                            subject="k", relation="r", object=obj, valid_from=start,
                            valid_to=None if length is None else start + length * DAY))
    return events


def _live(events: list[Event], known_at: int) -> list[Event]:
    known = [e for e in events if e.recorded_at <= known_at]
    withdrawn = {e.target for e in known if e.op == "retract"}
    return [e for e in known if e.op != "retract" and e.id not in withdrawn]


def reference_single(events: list[Event], t: int, known_at: int) -> list[str]:
    """§5.2 read literally: replay every step at or before t, in order, and look."""
    steps = []
    for e in _live(events, known_at):
        if e.op == "assert":
            assert e.valid_from is not None
            steps.append(((e.valid_from, e.recorded_at, e.id, 0), "set", e))
            if e.valid_to is not None:
                steps.append(((e.valid_to, e.recorded_at, e.id, 2), "own_end", e))
        else:
            assert e.valid_to is not None
            steps.append(((e.valid_to, e.recorded_at, e.id, 1), "end", e))
    holder: Event | None = None
    for order, kind, e in sorted(steps, key=lambda s: s[0]):
        if order[0] > t:
            break
        if kind == "set":
            holder = e
        elif kind == "own_end" and holder is e:
            holder = None
        elif kind == "end" and holder is not None and e.object in (None, holder.object):
            holder = None
    return [] if holder is None else [holder.object or ""]


def reference_many(events: list[Event], t: int, known_at: int) -> list[str]:
    """§5.3 read literally, point by point."""
    live = _live(events, known_at)
    held = set()
    for a in (e for e in live if e.op == "assert"):
        assert a.valid_from is not None
        if not a.valid_from <= t or (a.valid_to is not None and t >= a.valid_to):
            continue
        ended = any(e.op == "end" and e.object in (None, a.object)
                    and e.valid_to is not None and a.valid_from <= e.valid_to <= t
                    for e in live)
        if not ended:
            held.add(a.object or "")
    return sorted(held)


GRID = [day * DAY for day in range(-1, 11)] + [3 * DAY + 1, 5 * DAY - 1]


@settings(max_examples=300, deadline=None)
@given(event_sets())
def test_single_valued_recall_agrees_with_the_reference(events: list[Event]) -> None:
    for known_at in GRID:
        for t in GRID:
            got = [h.object for h in recall(events, t, known_at, many=False)]
            assert got == reference_single(events, t, known_at), (t, known_at)


@settings(max_examples=300, deadline=None)
@given(event_sets())
def test_many_valued_recall_agrees_with_the_reference(events: list[Event]) -> None:
    for known_at in GRID:
        for t in GRID:
            got = sorted({h.object for h in recall(events, t, known_at, many=True)})
            assert got == reference_many(events, t, known_at), (t, known_at)


@settings(max_examples=200, deadline=None)
@given(event_sets(), st.randoms(use_true_random=False), st.booleans())
def test_fold_does_not_depend_on_line_order(events: list[Event], rnd: random.Random,
                                            many: bool) -> None:
    shuffled = list(events)
    rnd.shuffle(shuffled)
    for known_at in GRID:
        assert fold(shuffled, known_at, many) == fold(events, known_at, many)


@settings(max_examples=200, deadline=None)
@given(event_sets(), st.booleans())
def test_timeline_materialises_the_fold_for_every_system_time(events: list[Event],
                                                              many: bool) -> None:
    rows = timeline(events, many)
    for known_at in GRID:
        materialised = {r.holding for r in rows if r.known_from <= known_at < r.known_to}
        assert materialised == set(fold(events, known_at, many))


def timeline_by_folds(events: list[Event], many: bool) -> list[tuple[Holding, int, int]]:
    """The timeline by its definition: the fold at every recorded instant, each holding
    known from the instant it appears to the one it is gone at."""
    open_rows: dict[Holding, int] = {}
    rows: list[tuple[Holding, int, int]] = []
    for known_at in sorted({e.recorded_at for e in events}):
        current = fold(events, known_at, many)
        for holding in [h for h in open_rows if h not in current]:
            rows.append((holding, open_rows.pop(holding), known_at))
        for holding in current:
            open_rows.setdefault(holding, known_at)
    rows.extend((holding, since, FOREVER) for holding, since in open_rows.items())
    return sorted(rows, key=lambda r: (r[1], r[0].start, r[0].event.id))


@settings(max_examples=300, deadline=None)
@given(event_sets(), st.booleans(), st.randoms(use_true_random=False))
def test_timeline_is_the_fold_at_every_recorded_instant(events: list[Event], many: bool,
                                                        rnd: random.Random) -> None:
    """Built once from sorted steps, the timeline gives the rows that folding at every
    recorded instant gives, in the same order; repeated (equal) events change nothing."""
    expected = timeline_by_folds(events, many)
    repeated = events + rnd.sample(events, rnd.randint(0, len(events)))
    for given_events in (events, repeated):
        got = [(r.holding, r.known_from, r.known_to) for r in timeline(given_events, many)]
        assert got == expected


FLAWS = ["same recorded", "same start", "earlier start", "same object", "same id", "empty"]


@st.composite
def plain_assert_sets(draw: st.DrawFn) -> list[Event]:
    """Asserts, each recorded and starting after the one before, of another object than
    it (the shortcut's single-valued case), or of no object twice (its many-valued case);
    or with one flaw that the shortcut must decline (or agree on). Lines in any order."""
    distinct = draw(st.booleans())
    count = draw(st.integers(min_value=1, max_value=7))
    flaw = draw(st.sampled_from([None, None, *FLAWS]))
    flawed = draw(st.integers(1, count - 1)) if count > 1 else 0
    objects = draw(st.permutations("abcdefg"))
    events: list[Event] = []
    recorded, start = draw(st.integers(0, 3)) * DAY, draw(st.integers(-2, 3)) * DAY
    for index in range(count):
        this = flaw if index == flawed else None
        recorded += 0 if this == "same recorded" else draw(st.integers(1, 2)) * DAY
        gap = {"same start": 0, "earlier start": -1}.get(this or "", draw(st.integers(1, 3)))
        start += gap * DAY
        length = 0 if this == "empty" else draw(st.one_of(st.none(), st.integers(1, 4)))
        previous = events[-1] if events else None
        eid = previous.id if previous and this == "same id" else f"id{index}"
        if previous and this == "same object":
            obj = previous.object
        elif distinct:
            obj = objects[index]
        else:
            obj = draw(st.sampled_from([o for o in OBJECTS if not previous
                                        or o != previous.object]))
        events.append(Event(id=eid, op="assert", recorded_at=recorded, scope="s",
                            subject="k", relation="r", object=obj, valid_from=start,
                            valid_to=None if length is None else start + length * DAY))
    return draw(st.permutations(events))


@settings(max_examples=500, deadline=None)
@given(plain_assert_sets(), st.booleans())
def test_plain_asserts_shortcut_gives_the_rows_of_the_fold(events: list[Event],
                                                           many: bool) -> None:
    plain = plain_asserts_timeline(events, many)
    if plain is not None:
        assert plain == folded_timeline(events, many)
        got = [(r.holding, r.known_from, r.known_to) for r in plain]
        assert got == timeline_by_folds(events, many)


def test_plain_asserts_shortcut_takes_keys_of_successive_values() -> None:
    """The worked example (values recorded in order of start) and distinct objects of a
    many-valued key take the shortcut; a backfill or a repeated many-valued object does
    not."""
    in_order = WORKED[:3]
    assert plain_asserts_timeline(in_order, many=False) == folded_timeline(in_order, False)
    assert plain_asserts_timeline(WORKED, many=False) is None
    assert plain_asserts_timeline(WORKED, many=True) == folded_timeline(WORKED, True)
    again = [*WORKED, assert_("e9", "2026-09-01T00:00:00Z", "210 zł", "2026-09-01")]
    assert plain_asserts_timeline(again, many=True) is None
    assert plain_asserts_timeline(CONTINUED, many=True) is None
