"""The recorded keys of a scope, as the write path needs them (SPEC §4).

Keys are compared folded (`key_slug`): a write goes to the recorded key in the form first
recorded, whatever its spelling; a NEW key that looks like recorded ones is the write
gate's business (`ScopeKeys.resolve`). A key written before in the same spelling is found
in the logs alone (`locate_key`); otherwise the keys come from the cache, brought up to
date with the commits first (every write commits, so the keys of earlier writes are
there). The logs stay the truth for a key's events (`segments.read_key`), found by every
spelling of the subject the cache knows.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cache import cache_path, open_fresh
from memrepo.cache.db import open_trusted
from memrepo.cache.query import (
    keys_after,
    scope_key_rows,
    scope_keys,
    scope_relations,
    scope_subjects,
    subject_spellings,
    subjects_keys,
)
from memrepo.core.duplicates.scope_keys import RecordedKey, ScopeKeys
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.events import Event, first_recorded
from memrepo.core.facts.times import TimeFormatError, parse_instant
from memrepo.core.records import SimilarKey
from memrepo.core.text import key_slug
from memrepo.facts.key_events import key_events
from memrepo.facts.segments import read_key, scope_keys_in_logs

if TYPE_CHECKING:
    from memrepo.cache import Connection


@dataclass(frozen=True, slots=True)
class RecordedKeys:
    """One scope's keys (`keys`) and the spellings its logs hold of some subjects."""

    keys: ScopeKeys
    spellings: dict[str, list[str]]  # folded subject → every spelling recorded

    def spellings_of(self, subject: str) -> list[str]:
        return self.spellings.get(key_slug(subject), [])


def recorded_keys(root: Path, scope: str, subjects: Iterable[str]) -> RecordedKeys:
    """The keys of `scope` and the recorded spellings of `subjects`: from the cache (synced
    with the commits first), or — when there is none yet, rather than building it inside
    a write — from the scope's logs."""

    existing = open_trusted(cache_path(root))
    if existing is None:
        return _from_logs(root, scope, subjects)
    existing.close()
    conn = open_fresh(root, hook=True)
    try:
        keys = ScopeKeys.from_folded(scope_keys(conn, scope))
        spellings = {key_slug(s): subject_spellings(conn, scope, s) for s in set(subjects)
                     if keys.shown_subject(s) is not None}  # a new subject has none
    finally:
        conn.close()
    return RecordedKeys(keys, spellings)


def _one_key(root: Path, scope: str, subject: str, relation: str) -> Located | None:
    """Where a write of one key goes, from the cache (None when there is none yet): the
    cache's keys loaded only as far as the write gate needs them for (subject, relation) —
    every subject, and the keys of the few it compares them with — not every key of the
    scope, and the key's events from the cache's rows (`key_events`: a scan only of the
    logs the cache does not hold as they are). Kept by this process between writes (an
    MCP server, an API user): the next write reads only the keys the cache gained since
    (`_KeptKeys`), and the gate's index of the subjects is built once."""
    existing = open_trusted(cache_path(root))
    if existing is None:
        return None
    existing.close()
    conn = open_fresh(root, hook=True)
    try:
        kept = _KEPT.get((str(root), scope))
        if kept is None or not kept.catch_up(conn):
            kept = _KEPT[(str(root), scope)] = _KeptKeys(root, scope, conn)
        where, similar = kept.keys.resolve(subject, relation)
        events = key_events(root, conn, scope, where, lambda: sorted(
            {subject, *subject_spellings(conn, scope, subject)}))
    finally:
        conn.close()
    first = first_recorded(events)  # a spelling the cache has not seen yet
    if first is not None:
        return Located((first.subject, first.relation), events, [])
    return Located(where, events, similar)


class _KeptKeys:
    """One scope's `ScopeKeys` (on demand) as of a state of the cache's `keys` table: the
    cache file (a rebuild swaps in a new one) and the scope's row count and largest rowid.
    Logs are append-only, so a sync never loses a key: it adds rows, or deletes a key's
    row and adds it again (its events changed) — the rows after the largest rowid known
    are all there is to add, as long as the new ones among them account for the rows the
    scope gained; anything else (another cache file, a count that does not add up) builds
    the keys again."""

    def __init__(self, root: Path, scope: str, conn: Connection) -> None:
        self.root, self.scope, self.conn = root, scope, conn
        self.state = self._state(conn)
        self.keys = ScopeKeys.on_demand(scope_subjects(conn, scope), self._load,
                                        self._relations)

    def catch_up(self, conn: Connection) -> bool:
        """Bring the keys up to the cache behind `conn` (False: build them again)."""
        self.conn = conn
        state = self._state(conn)
        if state[0] != self.state[0] or state[1] < self.state[1]:
            return False
        if state != self.state:  # new keys, or known ones re-added (their events changed)
            new = 0
            for subject, relation in keys_after(conn, self.scope, self.state[2]):
                new += self.keys.shown(subject, relation) is None
                self.keys.add(subject, relation)  # a known key: changes nothing
            if new != state[1] - self.state[1]:
                return False  # a rowid reused, a subject loaded since: not worth sorting out
            self.state = state
        return True

    def _state(self, conn: Connection) -> tuple[int, int, int]:
        try:
            identity = os.stat(cache_path(self.root)).st_ino
        except OSError:
            identity = -1
        return (identity, *scope_key_rows(conn, self.scope))

    def _load(self, subjects: Sequence[str]) -> list[RecordedKey]:
        return subjects_keys(self.conn, self.scope, subjects)

    def _relations(self) -> list[str]:
        return scope_relations(self.conn, self.scope)


_KEPT: dict[tuple[str, str], _KeptKeys] = {}


@dataclass(frozen=True, slots=True)
class Located:
    """Where a write of one key goes: `key` (subject, relation) in the form first recorded
    (a new key: its subject as first recorded when known), its `events` (all spellings,
    with their retracts) and the recorded keys a NEW key looks like (`similar`)."""

    key: tuple[str, str]
    events: list[Event]
    similar: list[SimilarKey]


def locate_key(root: Path, scope: str, subject: str, relation: str) -> Located:
    """The key a write of (subject, relation) goes to, looked up in the cache's keys of
    the scope (synced with the commits first), with its events; without a cache (rather
    than building one inside a write), in the logs alone."""
    located = _one_key(root, scope, subject, relation)
    return _in_logs(root, scope, subject, relation) if located is None else located


def _in_logs(root: Path, scope: str, subject: str, relation: str) -> Located:
    """`locate_key` from a byte scan of the scope's logs."""
    events = read_key(root, scope, subject, relation)
    first = first_recorded(events)
    if first is not None:
        return Located((first.subject, first.relation), events, [])
    recorded = _from_logs(root, scope, [subject])
    where, similar = recorded.keys.resolve(subject, relation)
    spellings = recorded.spellings_of(subject)
    if where == (subject, relation) and set(spellings) <= {subject}:
        return Located(where, events, similar)  # the logs were searched for it above
    events = read_key(root, scope, *where, spellings)
    first = first_recorded(events)  # a spelling the cache has not seen yet
    if first is not None:
        where, similar = (first.subject, first.relation), []
    return Located(where, events, similar)


def _from_logs(root: Path, scope: str, subjects: Iterable[str]) -> RecordedKeys:
    rows = sorted(scope_keys_in_logs(root, scope), key=_first_recorded_order)
    keys = ScopeKeys((subject, relation) for _, _, subject, relation in rows)
    wanted = {key_slug(s) for s in subjects}
    spellings: dict[str, list[str]] = {}
    for _, _, subject, _ in rows:
        folded = key_slug(subject)
        if folded in wanted and subject not in spellings.setdefault(folded, []):
            spellings[folded].append(subject)
    return RecordedKeys(keys, spellings)


def _first_recorded_order(row: tuple[str, str, str, str]) -> tuple[int, str]:
    try:
        return parse_instant(row[0]), row[1]
    except TimeFormatError:  # the checks refuse such a line; it names no key first
        return FOREVER, row[1]


NEW_KEY = "New-key"
NOT_A_DUPLICATE = "Not-a-duplicate-of"


def insisted(scope: str, key: tuple[str, str], similar: Sequence[SimilarKey],
             ) -> list[tuple[str, str]]:
    """The trailers of a write that insisted a key is new although it looks like
    recorded ones: triage then knows a person or agent said they are different."""
    if not similar:
        return []
    return [(NEW_KEY, f"{scope}: {key[0]}.{key[1]}"),
            *((NOT_A_DUPLICATE, f"{scope}: {s.subject}.{s.relation}") for s in similar
              if s.recorded)]
