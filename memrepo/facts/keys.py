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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.duplicates.scope_keys import RecordedKey, ScopeKeys
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.events import Event, first_recorded
from memrepo.core.facts.times import TimeFormatError, parse_instant
from memrepo.core.records import SimilarKey
from memrepo.core.text import key_slug
from memrepo.facts.segments import read_key, scope_keys_in_logs

if TYPE_CHECKING:
    from memrepo.cache import Connection


Resolved = tuple[tuple[str, str], list[SimilarKey]]
"""`ScopeKeys.resolve`'s answer: where a write goes, the recorded keys it looks like."""


@dataclass(frozen=True, slots=True)
class RecordedKeys:
    """One scope's keys (`keys`) and the spellings its logs hold of some subjects."""

    keys: ScopeKeys
    spellings: dict[str, list[str]]  # folded subject → every spelling recorded
    resolved: Resolved | None = None  # where the one key asked about goes (`_one_key`)

    def spellings_of(self, subject: str) -> list[str]:
        return self.spellings.get(key_slug(subject), [])


def recorded_keys(root: Path, scope: str, subjects: Iterable[str]) -> RecordedKeys:
    """The keys of `scope` and the recorded spellings of `subjects`: from the cache (synced
    with the commits first), or — when there is none yet, rather than building it inside
    a write — from the scope's logs."""
    from memrepo.cache.query import scope_keys

    return _recorded(root, scope, subjects,
                     lambda conn: ScopeKeys.from_folded(scope_keys(conn, scope)))


def _recorded(root: Path, scope: str, subjects: Iterable[str],
              keys_of: Callable[[Connection], ScopeKeys],
              question: tuple[str, str] | None = None) -> RecordedKeys:
    """`recorded_keys` with the cache's keys made by `keys_of`; `question`: a key whose
    resolution is worked out while the cache is open (for keys loaded on demand)."""
    from memrepo.cache import cache_path, open_fresh
    from memrepo.cache.db import open_trusted
    from memrepo.cache.query import subject_spellings

    existing = open_trusted(cache_path(root))
    if existing is None:
        return _from_logs(root, scope, subjects)
    existing.close()
    conn = open_fresh(root, hook=True)
    try:
        keys = keys_of(conn)
        resolved = None if question is None else keys.resolve(*question)
        spellings = {key_slug(s): subject_spellings(conn, scope, s) for s in set(subjects)
                     if keys.shown_subject(s) is not None}  # a new subject has none
    finally:
        conn.close()
    return RecordedKeys(keys, spellings, resolved)


def _one_key(root: Path, scope: str, subject: str, relation: str) -> RecordedKeys:
    """`recorded_keys` for a write of one key, and where it goes (`resolved`): the cache's
    keys loaded only as far as the write gate needs them for (subject, relation) — every
    subject, and the keys of the few it compares them with — not every key of the scope.
    Kept by this process between writes (an MCP server, an API user): the next write
    reads only the keys the cache gained since (`_KeptKeys`), and the gate's index of the
    subjects is built once. Its `keys` answer no other question."""
    def on_demand(conn: Connection) -> ScopeKeys:
        kept = _KEPT.get((str(root), scope))
        if kept is None or not kept.catch_up(conn):
            kept = _KEPT[(str(root), scope)] = _KeptKeys(root, scope, conn)
        return kept.keys
    return _recorded(root, scope, [subject], on_demand, (subject, relation))


class _KeptKeys:
    """One scope's `ScopeKeys` (on demand) as of a state of the cache's `keys` table: the
    cache file (a rebuild swaps in a new one) and the scope's row count and largest rowid.
    Logs are append-only, so a sync never loses a key: it adds rows, or deletes a key's
    row and adds it again (its events changed) — the rows after the largest rowid known
    are all there is to add, as long as the new ones among them account for the rows the
    scope gained; anything else (another cache file, a count that does not add up) builds
    the keys again."""

    def __init__(self, root: Path, scope: str, conn: Connection) -> None:
        from memrepo.cache.query import scope_subjects

        self.root, self.scope, self.conn = root, scope, conn
        self.state = self._state(conn)
        self.keys = ScopeKeys.on_demand(scope_subjects(conn, scope), self._load,
                                        self._relations)

    def catch_up(self, conn: Connection) -> bool:
        """Bring the keys up to the cache behind `conn` (False: build them again)."""
        from memrepo.cache.query import keys_after

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
        from memrepo.cache import cache_path
        from memrepo.cache.query import scope_key_rows

        try:
            identity = os.stat(cache_path(self.root)).st_ino
        except OSError:
            identity = -1
        return (identity, *scope_key_rows(conn, self.scope))

    def _load(self, subjects: Sequence[str]) -> list[RecordedKey]:
        from memrepo.cache.query import subjects_keys

        return subjects_keys(self.conn, self.scope, subjects)

    def _relations(self) -> list[str]:
        from memrepo.cache.query import scope_relations

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
    """The key a write of (subject, relation) goes to. A key the logs hold in this very
    spelling is found there (no cache: the common case of a key written before); any other
    — another spelling, or a new key — is looked up in the cache's keys of the scope."""
    events = read_key(root, scope, subject, relation)
    first = first_recorded(events)
    if first is not None:
        return Located((first.subject, first.relation), events, [])
    recorded = _one_key(root, scope, subject, relation)
    where, similar = recorded.resolved or recorded.keys.resolve(subject, relation)
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
