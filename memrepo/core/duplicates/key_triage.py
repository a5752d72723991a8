"""Near-duplicate fact keys (SPEC §9): keys of one scope that are spellings of one key
("electricty_bill.amount" beside "electricity_bill.amount"), and the merge `triage
--apply` makes of them.

Keys are judged by the write gate's rule (memrepo.core.duplicates.near_duplicates, over the whole
scope by memrepo.core.duplicates.variant_pairs). A group of near-duplicate keys keeps its strongest
key — one that holds a value, with the most live asserts, then the one first recorded —
and every other key of the group is merged into it (memrepo.core.duplicates.key_merge): ended, its
values re-asserted on the kept key with their provenance. Where both keys held different
values at once the plan has conflicts: a contradiction for a person, never merged
automatically.

Pure: events in, merges out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memrepo.core.config import QUARANTINE_PREFIX, Config
from memrepo.core.duplicates.key_merge import KeyMergePlan, plan_key_merge
from memrepo.core.duplicates.variant_pairs import Label, key_judge, variant_pairs
from memrepo.core.facts.bitemporal import FOREVER, fold, live_events
from memrepo.core.facts.events import Event, Key, first_recorded
from memrepo.core.text import key_slug


@dataclass(frozen=True, slots=True)
class KeyMerge:
    """Merge `duplicate` into `kept` (folded keys of one scope); `shown`: each as first
    recorded, (kept, duplicate)."""

    kept: Key
    duplicate: Key
    shown: tuple[Key, Key]
    how: str
    plan: KeyMergePlan


def key_merges(facts: Mapping[Key, Sequence[Event]], config: Config,
               distinct: frozenset[frozenset[str]] = frozenset()) -> list[KeyMerge]:
    """Every near-duplicate key with the key it merges into, by scope and key (quarantine
    scopes are left alone: their facts await review as they are). `distinct`: pairs of
    `distinct_label`s someone said are different keys (a write with `new_key`)."""
    keys = sorted(k for k in facts if not k[0].startswith(QUARANTINE_PREFIX))
    shown = {key: _shown(key, facts[key]) for key in keys}
    labels = [Label(number, f"{shown[key][1]}.{shown[key][2]}")
              for number, key in enumerate(keys)]
    pairs = [p for p in variant_pairs(labels, key_judge) if keys[p.first][0] == keys[p.second][0]
             and frozenset(distinct_label(keys[n]) for n in (p.first, p.second)) not in distinct]
    merges: list[KeyMerge] = []
    for group in _groups([(keys[p.first], keys[p.second]) for p in pairs]):
        kept = max(group, key=lambda key: _strength(facts[key], config.is_many(key[2])))
        how = {key: p.how for p in pairs for key in (keys[p.first], keys[p.second])}
        for duplicate in sorted(k for k in group if k != kept):
            plan = plan_key_merge(facts[kept], facts[duplicate], config.is_many(kept[2]))
            if plan.changes_nothing and not plan.conflicts:
                continue  # the duplicate holds nothing (merged before, or all ended)
            merges.append(KeyMerge(kept, duplicate, (shown[kept], shown[duplicate]),
                                   how[duplicate], plan))
    return merges


def distinct_label(key: Key) -> str:
    """A key as the `New-key:`/`Not-a-duplicate-of:` trailers name it, folded:
    "michal: car.colour" → "michal: car_colour"."""
    return f"{key[0]}: {key_slug(key[1] + '.' + key[2])}"


def key_text(key: Key) -> str:
    return f"{key[0]}: {key[1]}.{key[2]}"


def _shown(key: Key, events: Sequence[Event]) -> Key:
    first = first_recorded(events)
    return key if first is None else first.key


def _strength(events: Sequence[Event], many: bool) -> tuple[bool, int, int, str]:
    """A key that holds something, then the most live asserts, then the first recorded."""
    live = [e for e in live_events(events, FOREVER) if e.op == "assert"]
    first = first_recorded(events)
    earliest = (first.recorded_at, first.id) if first is not None else (FOREVER, "")
    return (bool(fold(events, FOREVER, many)), len(live), -earliest[0],
            "".join(chr(0x10FFFF - ord(c)) for c in earliest[1]))


def _groups(edges: Sequence[tuple[Key, Key]]) -> list[list[Key]]:
    """Connected groups of keys, each sorted, in order of their first key."""
    parent: dict[Key, Key] = {}

    def root(key: Key) -> Key:
        while parent.get(key, key) != key:
            key = parent[key]
        return key

    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[Key, list[Key]] = {}
    for key in sorted({k for edge in edges for k in edge}):
        groups.setdefault(root(key), []).append(key)
    return [groups[key] for key in sorted(groups)]
