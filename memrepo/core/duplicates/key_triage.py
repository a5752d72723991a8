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

from collections.abc import Sequence
from dataclasses import dataclass

from memrepo.core.config import QUARANTINE_PREFIX, Config
from memrepo.core.duplicates.fact_triage import Facts, fact_source
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


def key_merges(facts: Facts, config: Config,
               distinct: frozenset[frozenset[str]] = frozenset()) -> list[KeyMerge]:
    """Every near-duplicate key with the key it merges into, by scope and key (quarantine
    scopes are left alone: their facts await review as they are). `distinct`: pairs of
    `distinct_label`s someone said are different keys (a write with `new_key`). Only the
    keys of a near-duplicate group are read as events."""
    source = fact_source(facts)
    shown = source.shown()
    keys = sorted(k for k in shown if not k[0].startswith(QUARANTINE_PREFIX))
    words = _Words()
    labels = [Label(number, f"{shown[key][1]}.{shown[key][2]}", key[0], words.of(key))
              for number, key in enumerate(keys)]
    pairs = [p for p in variant_pairs(labels, key_judge)
             if frozenset(distinct_label(keys[n]) for n in (p.first, p.second)) not in distinct]
    groups = _groups([(keys[p.first], keys[p.second]) for p in pairs])
    events = source.events([key for group in groups for key in group])
    merges: list[KeyMerge] = []
    for group in groups:
        kept = max(group, key=lambda key: _strength(events[key], config.is_many(key[2])))
        how = {key: p.how for p in pairs for key in (keys[p.first], keys[p.second])}
        for duplicate in sorted(k for k in group if k != kept):
            plan = plan_key_merge(events[kept], events[duplicate], config.is_many(kept[2]))
            if plan.changes_nothing and not plan.conflicts:
                continue  # the duplicate holds nothing (merged before, or all ended)
            merges.append(KeyMerge(kept, duplicate, (shown[kept], shown[duplicate]),
                                   how[duplicate], plan))
    return merges


class _Words:
    """`label_words` of a key's label "subject.relation" in any spelling, from its folded
    parts (`key_slug` folds each part alike, and "." is a word break); each subject's and
    relation's words split once, each word held once."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[str, ...]] = {}
        self._held: dict[str, str] = {}

    def of(self, key: Key) -> tuple[str, ...]:
        return self._part(key[1]) + self._part(key[2])

    def _part(self, folded: str) -> tuple[str, ...]:
        words = self._parts.get(folded)
        if words is None:
            once = self._held.setdefault
            words = self._parts[folded] = tuple(once(word, word) for word in folded.split("_"))
        return words


def distinct_label(key: Key) -> str:
    """A key as the `New-key:`/`Not-a-duplicate-of:` trailers name it, folded:
    "michal: car.colour" → "michal: car_colour"."""
    return f"{key[0]}: {key_slug(key[1] + '.' + key[2])}"


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
