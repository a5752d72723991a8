"""The whole memory as the cache holds it, for the rules that look at everything at once
(`memrepo triage`): every note with its links; the facts as the triage rules ask for them
(`CachedFacts`), or every event grouped by key; every note's description by category
(`memrepo doctor`'s INDEX.md check)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

import orjson

from memrepo.cache.columns import EVENT_COLUMNS
from memrepo.cache.db import database_file, read_only
from memrepo.core.config import QUARANTINE_PREFIX
from memrepo.core.duplicates.fact_triage import PROMOTED_SOURCE, Unconfirmed
from memrepo.core.duplicates.triage import LinkRecord, NoteRecord, title_of
from memrepo.core.facts.events import OPS, Event, Key, Op
from memrepo.core.facts.times import Instant


def read_notes(conn: sqlite3.Connection) -> list[NoteRecord]:
    links: dict[str, list[LinkRecord]] = {}
    for source, target, line in conn.execute(
            "SELECT source, target, line FROM links ORDER BY source, line"):
        links.setdefault(source, []).append(LinkRecord(target, line))
    rows = conn.execute("SELECT path, name, category, description, aliases, body FROM notes "
                        "ORDER BY path")
    return [NoteRecord(path, category, name, title_of(body), description,
                       tuple(orjson.loads(aliases)), tuple(links.get(path, ())),
                       size=len(body))
            for path, name, category, description, aliases, body in rows]


def read_facts(conn: sqlite3.Connection) -> dict[Key, list[Event]]:
    """Every event by folded key, each retract with the events it withdraws (the key the
    cache resolved it to; one whose target no log holds is left out), in the order they
    were indexed — grouped by the folded columns the cache keeps, and the texts events
    share held once (200k events take a quarter less memory)."""
    return _grouped(conn.execute(f"SELECT subject_key, relation_key, {EVENT_COLUMNS} FROM "
                                 "events WHERE subject_key IS NOT NULL ORDER BY rowid"))


def _grouped(rows: Iterable[Sequence[Any]]) -> dict[Key, list[Event]]:
    groups: dict[Key, list[Event]] = {}
    shared: dict[str, str] = {}
    once = shared.setdefault
    for row in rows:
        (subject_key, relation_key, id_, op, scope, subject, relation, object_, valid_from,
         valid_to, recorded_at, target, confidence, source, session, quote, trust,
         reason) = row
        retract = op == "retract"
        # Positional, in Event's field order: a third of the cost of keywords, 200k times.
        event = Event(id_, _OPS.get(op, op), recorded_at, once(scope, scope),
                      "" if retract else once(subject, subject),
                      "" if retract else once(relation, relation), object_, valid_from,
                      valid_to, target, confidence, once(source, source),
                      once(session, session), quote, once(trust, trust), reason)
        key = (event.scope, subject_key, relation_key)
        group = groups.get(key)
        if group is None:
            groups[key] = [event]
        else:
            group.append(event)
    return groups


class CachedFacts:
    """The memory's facts as the triage rules ask for them (a FactSource of
    memrepo.core.duplicates.fact_triage), from the cache: the values that hold now from the
    materialised holdings (the fold `EventFacts` does, done when the cache was built; a
    change of config rebuilds them), the keys as first recorded from `keys`; only the keys
    asked for are read as events.

    The values not re-confirmed since `stale_before` and the keys that may clash at `now`
    are computed at once on a second thread with a connection of its own (SQLite works
    without Python's lock): on two cores they cost no wall time while the rules search
    for near-duplicates. The rows of the values are fetched here, when asked for
    (`_Pending`). `close` when done."""

    def __init__(self, conn: sqlite3.Connection, now: Instant, stale_before: Instant) -> None:
        self._conn = conn
        self._shown: dict[Key, Key] | None = None
        self._asked = (now, stale_before)
        database = None if conn.in_transaction else database_file(conn)
        self._pool = ThreadPoolExecutor(max_workers=1) if database is not None else None
        self._read: Future[_Pending] | None = None
        self._rows: _FactRows | None = None
        if self._pool is not None and database is not None:
            self._read = self._pool.submit(_Pending.start, database, now, stale_before)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        read = self._read  # after the shutdown: done or cancelled
        if read is not None and not read.cancelled() and read.exception() is None:
            read.result().close()  # its connection, when the rows were never asked for

    def shown(self) -> dict[Key, Key]:
        """In the table's order (read straight through, not through the key index): the
        rules sort the keys they list."""
        if self._shown is None:
            self._shown = {(scope, subject_key, relation_key): (scope, subject, relation)
                           for scope, subject_key, relation_key, subject, relation
                           in self._conn.execute("SELECT scope, subject_key, relation_key, "
                                                 "subject, relation FROM keys")}
        return self._shown

    def events(self, keys: Collection[Key]) -> dict[Key, list[Event]]:
        """Each key's in the order indexed, as `read_facts` gives them: one indexed look-up
        per key (a few hundred at most: near-duplicate groups, keys that may clash,
        quarantine), nothing written — not even a temporary table."""
        query = (f"SELECT subject_key, relation_key, {EVENT_COLUMNS} FROM events WHERE "
                 "scope = ? AND subject_key = ? AND relation_key = ? ORDER BY rowid")
        return _grouped(row for key in sorted(set(keys))
                        for row in self._conn.execute(query, key))

    def unconfirmed(self, now: Instant, before: Instant,
                    is_many: Callable[[str], bool]) -> list[Unconfirmed]:
        """The holdings rows of `now` on both time axes (holdings of a many-valued key in
        the fold's order: start, then the assert's recorded_at and id), whose object's
        last live assert (as known at `now`) is older than `before`."""
        rows = self._fact_rows(now, before).unconfirmed
        return [Unconfirmed((scope, subject_key, relation_key), object_, event_id, last)
                for scope, subject_key, relation_key, _, object_, event_id, last
                in _in_fold_order(self._conn, rows)]

    def clashing(self, now: Instant) -> list[Key]:
        """Keys with two asserts known at `now` for one valid time from different sources
        and of different values (retracted or not: the rule reads their events)."""
        return self._fact_rows(now, self._asked[1]).clashing

    def promoted(self) -> set[str]:
        prefix = len(PROMOTED_SOURCE)
        return {source[prefix:] for (source,) in self._conn.execute(
            "SELECT source FROM events WHERE subject_key IS NOT NULL AND substr(source, 1, "
            "?) = ?", (prefix, PROMOTED_SOURCE))}

    def _fact_rows(self, now: Instant, before: Instant) -> _FactRows:
        if self._read is None or (now, before) != self._asked:
            return _fact_rows(self._conn, now, before)
        if self._rows is None:
            pending = self._read.result()
            try:
                self._rows = pending.fetch()
            finally:
                pending.close()
        return self._rows


class _FactRows(NamedTuple):
    unconfirmed: list[tuple[str, str, str, int, str, str, int]]
    """scope, subject_key, relation_key, held_from, object, event_id, last — by key,
    start and event id"""
    clashing: list[Key]


def _fact_rows(conn: sqlite3.Connection, now: Instant, before: Instant) -> _FactRows:
    asked = _asked(now, before)
    return _FactRows(conn.execute(_UNCONFIRMED, asked).fetchall(), _clashing(conn, asked))


class _Pending:
    """`_fact_rows` begun on a connection of its own: the clashing keys read, the
    unconfirmed values' statement run to its first row — its first step sorts every row,
    which is all the work. Their rows are fetched by the thread that asks for them: a
    fetch on the second thread while the first runs the rules waits for Python's lock at
    every row (54k rows: 0.66 s where 0.06 s of work)."""

    def __init__(self, conn: sqlite3.Connection, unconfirmed: sqlite3.Cursor,
                 clashing: list[Key]) -> None:
        self._conn, self._unconfirmed, self._clashing = conn, unconfirmed, clashing
        self._open = True

    @classmethod
    def start(cls, database: str, now: Instant, before: Instant) -> _Pending:
        conn = read_only(database, any_thread=True)
        try:
            asked = _asked(now, before)
            clashing = _clashing(conn, asked)
            return cls(conn, conn.execute(_UNCONFIRMED, asked), clashing)
        except BaseException:
            conn.close()
            raise

    def fetch(self) -> _FactRows:
        return _FactRows(self._unconfirmed.fetchall(), self._clashing)

    def close(self) -> None:
        """Once, or again: nothing."""
        if self._open:
            self._open = False
            self._unconfirmed.close()  # else the connection outlives its close (its lock)
            self._conn.close()


def _asked(now: Instant, before: Instant) -> dict[str, object]:
    return {"now": now, "before": before, "quarantine": QUARANTINE_PREFIX}


def _clashing(conn: sqlite3.Connection, asked: dict[str, object]) -> list[Key]:
    return [(scope, subject_key, relation_key) for scope, subject_key, relation_key
            in conn.execute(_CLASHING, asked)]


def _in_fold_order(conn: sqlite3.Connection, rows: list[tuple[str, str, str, int, str, str, int]],
                   ) -> list[tuple[str, str, str, int, str, str, int]]:
    """`rows` (by key, start, event id) with holdings of one key and start — a
    many-valued key's — by their asserts' (recorded_at, id), as the fold orders them."""
    ordered: list[tuple[str, str, str, int, str, str, int]] = []
    for _, run in groupby(rows, key=itemgetter(0, 1, 2, 3)):
        tied = list(run)
        if len(tied) > 1:
            tied.sort(key=lambda row: (conn.execute(
                "SELECT recorded_at FROM events WHERE scope = ? AND id = ?", (row[0], row[5]),
            ).fetchone()[0], row[5]))
        ordered += tied
    return ordered


_OUTSIDE_QUARANTINE = "substr({scope}, 1, length(:quarantine)) != :quarantine"
_UNCONFIRMED = f"""
WITH now_ AS MATERIALIZED (
    SELECT scope, subject_key, relation_key, held_from, object, event_id FROM holdings
    WHERE known_from <= :now AND :now < known_to AND held_from <= :now AND :now < held_to
        AND {_OUTSIDE_QUARANTINE.format(scope="scope")}),
confirmed AS MATERIALIZED (
    SELECT n.*, (SELECT max(a.recorded_at) FROM events a
                 WHERE a.scope = n.scope AND a.subject_key = n.subject_key
                 AND a.relation_key = n.relation_key AND a.object = n.object
                 AND a.op = 'assert' AND a.recorded_at <= :now AND NOT EXISTS (
                     SELECT 1 FROM events r WHERE r.op = 'retract' AND r.target = a.id
                     AND +r.scope = a.scope AND r.recorded_at <= :now)) AS last
    FROM now_ n)
SELECT * FROM confirmed WHERE last < :before
ORDER BY scope, subject_key, relation_key, held_from, event_id"""
"""An assert's object is never empty (the schema), so a holding's object is its assert's;
an id is one event of its scope (the cache skips a repeated id), so a retract of it in the
scope is a retract of it in its key."""
_CLASHING = f"""
WITH shared AS MATERIALIZED (
    SELECT valid_from, scope, subject_key, relation_key FROM events NOT INDEXED
    WHERE subject_key IS NOT NULL AND op = 'assert' AND recorded_at <= :now
        AND {_OUTSIDE_QUARANTINE.format(scope="scope")}
    GROUP BY valid_from, scope, subject_key, relation_key HAVING count(*) > 1)
SELECT DISTINCT scope, subject_key, relation_key FROM shared s
WHERE (SELECT min(e.source) < max(e.source)
              AND (min(e.object) < max(e.object) OR count(e.object) < count(*))
       FROM events e WHERE e.scope = s.scope AND e.subject_key = s.subject_key
           AND e.relation_key = s.relation_key AND e.valid_from IS s.valid_from
           AND e.op = 'assert' AND e.recorded_at <= :now)
ORDER BY scope, subject_key, relation_key"""
"""Two steps: the valid times of a key with more than one assert (grouped by valid_from
first: the sorter compares a number before three texts, and carries no source or object,
which cost the sort twice as much), then each of those few groups read through the key's
index for sources and values."""


_OPS: dict[str, Op] = {op: op for op in OPS}


def note_descriptions(conn: sqlite3.Connection) -> dict[str, dict[str, str]]:
    """category → note file name → the description the cache read from it ('' when the
    header has none or not as text)."""
    found: dict[str, dict[str, str]] = {}
    for path, category, description in conn.execute(
            "SELECT path, category, description FROM notes"):
        found.setdefault(category, {})[path.rpartition("/")[2]] = description
    return found
