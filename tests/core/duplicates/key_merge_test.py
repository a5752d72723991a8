"""Merging a duplicate key into the kept key (memrepo.core.duplicates.key_merge): scenarios and the
§5 property — after the merge, recall on the kept key at every (t, T ≥ merge) gives what
either key gave (the kept key's value where both held different values: a conflict)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import count

from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core.duplicates.key_merge import Conflict, plan_events, plan_key_merge
from memrepo.core.facts.bitemporal import FOREVER, recall
from memrepo.core.facts.events import Event

KEPT, DUP = ("electricity_bill", "amount"), ("electricty_bill", "amount")


def a(id_: str, rec: int, obj: str, vf: int, vt: int | None = None,
      key: tuple[str, str] = DUP, quote: str | None = None) -> Event:
    return Event(id=id_, op="assert", recorded_at=rec, scope="s", subject=key[0],
                 relation=key[1], object=obj, valid_from=vf, valid_to=vt,
                 source="chat", quote=quote or f"quote of {id_}", confidence=0.9)


def e(id_: str, rec: int, vt: int, obj: str | None = None,
      key: tuple[str, str] = DUP) -> Event:
    return Event(id=id_, op="end", recorded_at=rec, scope="s", subject=key[0],
                 relation=key[1], object=obj, valid_to=vt, reason="r", source="chat")


def r(id_: str, rec: int, target: str) -> Event:
    return Event(id=id_, op="retract", recorded_at=rec, scope="s", target=target,
                 reason="r", source="chat")


MERGED_AT = 1000


CARRIED: dict[str, str] = {}
"""A re-assert's id → the id of the duplicate's assert it carries (from the plan)."""


def merged(kept: list[Event], dup: list[Event], many: bool,
           ) -> tuple[list[Event], list[Event], list[Conflict]]:
    plan = plan_key_merge(kept, dup, many)
    ids = count()
    new = plan_events(plan, KEPT, DUP, MERGED_AT, lambda: f"z{next(ids):05d}", "s", "triage")
    CARRIED.update((event.id, r.source.id) for r, event in zip(plan.reasserts, new,
                                                                strict=False))
    return ([*kept, *(x for x in new if x.subject == KEPT[0])],
            [*dup, *(x for x in new if x.subject == DUP[0])], list(plan.conflicts))


def objects(events: Sequence[Event], t: int, known: int, many: bool) -> list[str]:
    return sorted({h.object for h in recall(events, t, known, many)})


def test_only_the_duplicate_held_values() -> None:
    kept, dup, conflicts = merged([], [a("d1", 5, "260 zł", 10, quote="It is 260")], False)
    assert conflicts == []
    [holding] = recall(kept, 50, MERGED_AT, False)
    assert (holding.object, holding.event.quote, holding.event.source) == ("260 zł",
                                                                         "It is 260", "chat")
    assert CARRIED[holding.event.id] == "d1" and holding.event.session == "triage"
    assert recall(dup, 50, MERGED_AT, False) == []
    assert recall(dup, 50, MERGED_AT - 1, False)  # before the merge nothing changed


def test_the_duplicate_fills_the_gaps_of_the_kept_key() -> None:
    kept = [a("k1", 1, "210 zł", 10, key=KEPT), e("k2", 2, 20, key=KEPT),
            a("k3", 3, "245 zł", 40, key=KEPT)]
    kept2, _, conflicts = merged(kept, [a("d1", 5, "230 zł", 25), a("d2", 6, "245 zł", 40)],
                                 False)
    assert conflicts == []
    assert [objects(kept2, t, MERGED_AT, False) for t in (5, 15, 22, 30, 45)] == [
        [], ["210 zł"], [], ["230 zł"], ["245 zł"]]


def test_different_values_at_the_same_time_are_a_conflict_and_the_kept_value_stands() -> None:
    kept = [a("k1", 1, "245 zł", 10, key=KEPT)]
    kept2, _, conflicts = merged(kept, [a("d1", 5, "260 zł", 30)], False)
    assert conflicts == [Conflict(30, FOREVER, ("245 zł",), ("260 zł",))]
    assert objects(kept2, 40, MERGED_AT, False) == ["245 zł"]


def test_many_valued_keys_hold_the_union() -> None:
    kept = [a("k1", 1, "Polish", 0, key=KEPT)]
    kept2, dup2, conflicts = merged(kept, [a("d1", 2, "English", 5), a("d2", 3, "Polish", 0)],
                                    True)
    assert conflicts == []
    assert objects(kept2, 10, MERGED_AT, True) == ["English", "Polish"]
    assert objects(dup2, 10, MERGED_AT, True) == []


def test_a_kept_end_of_the_same_value_inside_the_duplicate_is_a_conflict() -> None:
    kept = [a("k1", 1, "+48 600", 0, key=KEPT), e("k2", 2, 10, "+48 600", key=KEPT)]
    _, _, conflicts = merged(kept, [a("d1", 3, "+48 600", 5)], True)
    assert conflicts and conflicts[0].start == 10


def test_retracted_duplicate_values_are_not_carried() -> None:
    kept2, _, _ = merged([], [a("d1", 1, "x", 0), r("d2", 2, "d1")], False)
    assert objects(kept2, 5, MERGED_AT, False) == []


# --- the property ----------------------------------------------------------------------------

TIMES = st.integers(0, 12)


@st.composite
def key_events(draw: st.DrawFn, key: tuple[str, str], prefix: str, many: bool) -> list[Event]:
    events: list[Event] = []
    for n in range(draw(st.integers(0, 5))):
        rec = draw(st.integers(1, 50))
        kind = draw(st.sampled_from(["assert", "assert", "assert", "end", "retract"]))
        id_ = f"{prefix}{n}"
        if kind == "assert":
            vf = draw(TIMES)
            vt = draw(st.none() | st.integers(vf + 1, 14))
            events.append(a(id_, rec, draw(st.sampled_from("xyz")), vf, vt, key))
        elif kind == "end":
            obj = draw(st.sampled_from("xyz")) if many else draw(st.none() | st.sampled_from("xyz"))
            events.append(e(id_, rec, draw(TIMES), obj, key))
        elif events:
            events.append(r(id_, rec, draw(st.sampled_from(events)).id))
    return events


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[Event], list[Event], bool]:
    many = draw(st.booleans())
    return draw(key_events(KEPT, "k", many)), draw(key_events(DUP, "d", many)), many


def _in(conflicts: Sequence[Conflict], t: int) -> bool:
    return any(c.start <= t < c.end for c in conflicts)


@settings(max_examples=400, deadline=None)
@given(cases())
def test_recall_after_a_merge_gives_what_either_key_gave(case: tuple[list[Event], list[Event],
                                                                     bool]) -> None:
    kept, dup, many = case
    kept2, dup2, conflicts = merged(kept, dup, many)
    for t in range(-1, 16):
        k, d = objects(kept, t, FOREVER, many), objects(dup, t, FOREVER, many)
        for known in (MERGED_AT, FOREVER):
            assert objects(dup2, t, known, many) == []
            if not _in(conflicts, t):
                assert objects(kept2, t, known, many) == (sorted({*k, *d}) if many
                                                         else (k or d))
        for known in (0, 25, MERGED_AT - 1):  # before the merge nothing changes
            assert objects(kept2, t, known, many) == objects(kept, t, known, many)
            assert objects(dup2, t, known, many) == objects(dup, t, known, many)
        if not many and k and d and k != d:
            assert _in(conflicts, t)
        if not many and _in(conflicts, t):  # single-valued: only true contradictions
            assert k and d and k != d
            assert objects(kept2, t, MERGED_AT, many) == k


@settings(max_examples=200, deadline=None)
@given(cases())
def test_merging_again_changes_nothing(case: tuple[list[Event], list[Event], bool]) -> None:
    kept, dup, many = case
    kept2, dup2, _ = merged(kept, dup, many)
    assert plan_key_merge(kept2, dup2, many).changes_nothing


@settings(max_examples=200, deadline=None)
@given(cases())
def test_carried_values_keep_their_provenance(case: tuple[list[Event], list[Event],
                                                          bool]) -> None:
    kept, dup, many = case
    kept2, _, _ = merged(kept, dup, many)
    originals = {x.id: x for x in dup}
    for t in range(0, 15):
        for holding in recall(kept2, t, FOREVER, many):
            if holding.event.id.startswith("z"):
                source = originals[CARRIED[holding.event.id]]
                assert (holding.object, holding.event.quote, holding.event.confidence) == (
                    source.object, source.quote, source.confidence)
