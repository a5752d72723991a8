"""recall (§5.4) and history (§5.5) as lookups in the materialised holdings, and the
look-ups of notes and keys the API and the context block make."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from memrepo.cache.columns import EVENT_COLUMNS, event_from_row
from memrepo.cache.staleness import keys_left
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.events import Event
from memrepo.core.facts.times import Instant, format_instant, format_valid_time
from memrepo.core.record_base import replace
from memrepo.core.records import Fact, HistoryEntry
from memrepo.core.text import fts_query, key_slug

HOLDING_COLUMNS = ("h.event_id, h.scope, h.subject, h.relation, h.object, h.value_from, "
                   "h.value_to, e.recorded_at, e.confidence, e.source, e.quote, e.session, "
                   "e.trust")
WITH_PROVENANCE = "holdings h JOIN events e ON e.id = h.event_id AND e.scope = h.scope"
"""A holding row carries its event's id; quote, source and the rest come from `events`
(kept once: copying them into 1.3M holding rows made the rebuild write 200 MB more)."""
_AT = ("h.known_from <= :known_at AND :known_at < h.known_to "
       "AND h.held_from <= :valid_at AND :valid_at < h.held_to")


def fact_from_row(row: Sequence[Any]) -> Fact:
    """A Fact from the HOLDING_COLUMNS of a holdings row (valid time = the whole value)."""
    (event_id, scope, subject, relation, object_, value_from, value_to, recorded_at,
     confidence, source, quote, session, trust) = row
    return Fact(id=event_id, scope=scope, subject=subject, relation=relation, object=object_,
                valid_from=format_valid_time(value_from), valid_to=_open_end(value_to),
                recorded_at=format_instant(recorded_at), confidence=confidence,
                source=source, quote=quote, session=session, trust=trust)


def _open_end(instant: Instant | None) -> str | None:
    return None if instant is None or instant >= FOREVER else format_valid_time(instant)


def recall_facts(conn: sqlite3.Connection, scope: str, subject: str,
                 relation: str | None, t: Instant, known: Instant) -> list[Fact]:
    """By key, or every relation of a subject."""
    if relation is not None:
        return recall_key(conn, scope, subject, relation, t, known)
    return recall_subject(conn, scope, subject, t, known)


def has_subject(conn: sqlite3.Connection, scope: str, subject: str) -> bool:
    """Whether any event of `scope` is about `subject` (compared folded)."""
    return conn.execute("SELECT 1 FROM events WHERE scope = ? AND subject_key = ? LIMIT 1",
                        (scope, key_slug(subject))).fetchone() is not None


def recall_key(conn: sqlite3.Connection, scope: str, subject: str, relation: str,
               t: Instant, known_at: Instant) -> list[Fact]:
    """What holds for one key (any spelling: compared folded) at t as known at T: one
    indexed lookup."""
    rows = conn.execute(
        f"SELECT {HOLDING_COLUMNS} FROM {WITH_PROVENANCE} WHERE h.scope = :scope "
        f"AND h.subject_key = :subject AND h.relation_key = :relation AND {_AT} "
        "ORDER BY h.held_from, h.event_id",
        {"scope": scope, "subject": key_slug(subject), "relation": key_slug(relation),
         "valid_at": t, "known_at": known_at})
    return [fact_from_row(row) for row in rows]


def recall_subject(conn: sqlite3.Connection, scope: str, subject: str, t: Instant,
                   known_at: Instant) -> list[Fact]:
    """Every relation of a subject that holds at t as known at T."""
    rows = conn.execute(
        f"SELECT {HOLDING_COLUMNS} FROM {WITH_PROVENANCE} WHERE h.scope = :scope "
        f"AND h.subject_key = :subject AND {_AT} "
        "ORDER BY h.relation_key, h.held_from, h.event_id",
        {"scope": scope, "subject": key_slug(subject), "valid_at": t, "known_at": known_at})
    return [fact_from_row(row) for row in rows]


def recall_during(conn: sqlite3.Connection, scope: str, subject: str, relation: str,
                  start: Instant, end: Instant, known_at: Instant) -> list[Fact]:
    """Every value of one key that held at some time in [start, end) as known at T, each
    with its whole valid interval, in valid-time order."""
    rows = conn.execute(
        f"SELECT {HOLDING_COLUMNS} FROM {WITH_PROVENANCE} WHERE h.scope = :scope "
        "AND h.subject_key = :subject AND h.relation_key = :relation "
        "AND h.known_from <= :known_at AND :known_at < h.known_to "
        "AND h.held_from < :end AND :start < h.held_to ORDER BY h.held_from, h.event_id",
        {"scope": scope, "subject": key_slug(subject), "relation": key_slug(relation),
         "start": start,
         "end": end, "known_at": known_at})
    facts = [fact_from_row(row) for row in rows]
    return list({(f.id, f.valid_from): f for f in facts}.values())


def history(conn: sqlite3.Connection, scope: str, subject: str, relation: str,
            now: Instant) -> list[HistoryEntry]:
    """Every event of the key with both time axes (retracted and superseded ones too),
    each assert with the valid intervals it holds under the knowledge of `now`. The key
    is compared folded: events written in any spelling of it are its events."""
    key = (scope, key_slug(subject), key_slug(relation))
    events = [event_from_row(row) for row in conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM events WHERE scope = ? AND subject_key = ? "
        "AND relation_key = ? ORDER BY recorded_at, id", key)]
    held: dict[str, list[tuple[str, str | None]]] = {}
    for event_id, start, end in conn.execute(
            "SELECT event_id, held_from, held_to FROM holdings WHERE scope = ? AND "
            "subject_key = ? AND relation_key = ? AND known_from <= ? AND ? < known_to "
            "ORDER BY held_from", (*key, now, now)):
        held.setdefault(event_id, []).append((format_valid_time(start), _open_end(end)))
    retracted_by = {e.target: e.id for e in events
                    if e.op == "retract" and e.recorded_at <= now and e.target}
    return [_entry(e, held.get(e.id, []), retracted_by.get(e.id)) for e in events]


def _entry(event: Event, held: list[tuple[str, str | None]], retracted_by: str | None,
           ) -> HistoryEntry:
    is_assert = event.op == "assert"
    return HistoryEntry(
        id=event.id, op=event.op, recorded_at=format_instant(event.recorded_at),
        object=event.object, valid_from=_time(event.valid_from), valid_to=_time(event.valid_to),
        source=event.source, session=event.session,
        confidence=event.confidence if is_assert else None, quote=event.quote,
        reason=event.reason, target=event.target, retracted_by=retracted_by, held=held)


def _time(instant: Instant | None) -> str | None:
    return None if instant is None else format_valid_time(instant)


def entity_candidates(conn: sqlite3.Connection, terms: Sequence[str], limit: int,
                      ) -> list[tuple[str, list[str]]]:
    """(name, aliases) of entity notes whose name or aliases hold any of the folded
    `terms`, at most `limit`."""
    match = "{name aliases} : (" + " OR ".join(fts_query(w) for w in terms) + ")"
    rows = conn.execute(
        "SELECT n.name, n.aliases FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid "
        "WHERE notes_fts MATCH ? AND n.category = 'entities' LIMIT ?", (match, limit))
    return [(name, _aliases(aliases_json)) for name, aliases_json in rows]


def _aliases(aliases_json: str) -> list[str]:
    value = json.loads(aliases_json or "[]")
    return [a for a in value if isinstance(a, str)] if isinstance(value, list) else []


def note_location(conn: sqlite3.Connection, name: str) -> tuple[str, str] | None:
    """(path, category) of the note called `name`."""
    row = conn.execute("SELECT path, category FROM notes WHERE name = ?", (name,)).fetchone()
    return None if row is None else (row[0], row[1])


def note_content(conn: sqlite3.Connection, name: str,
                 ) -> tuple[str, str, str, str | None] | None:
    """(category, description, body, updated) of the note called `name`, as indexed from
    its file (the note as it is in the work tree once the cache is fresh)."""
    row = conn.execute("SELECT category, description, body, updated FROM notes WHERE name = ?",
                       (name,)).fetchone()
    return None if row is None else (row[0], row[1], row[2], row[3])


def notes_held(conn: sqlite3.Connection) -> int:
    """How many notes the cache holds."""
    return int(conn.execute("SELECT count(*) FROM notes").fetchone()[0])


def note_descriptions_by_rowid(conn: sqlite3.Connection) -> dict[int, str]:
    """rowid → description of every note."""
    return dict(conn.execute("SELECT rowid, description FROM notes"))


def notes_by_rowid(conn: sqlite3.Connection, rowids: Sequence[int],
                   ) -> dict[int, tuple[str, str, str, str, str]]:
    """rowid → (path, name, category, description, body) of those notes."""
    if not rowids:
        return {}
    marks = ", ".join("?" * len(rowids))
    return {rowid: (path, name, category, description, body)
            for rowid, path, name, category, description, body in conn.execute(
                f"SELECT rowid, path, name, category, description, body FROM notes "
                f"WHERE rowid IN ({marks})", list(rowids))}


def notes_by_name(conn: sqlite3.Connection, names: Sequence[str], category: str,
                  ) -> list[tuple[str, str, str, str, str]]:
    """(path, name, category, description, body) of the notes of `category` among
    `names`, in their order."""
    if not names:
        return []
    marks = ", ".join("?" * len(names))
    found = {row[1]: row for row in conn.execute(
        f"SELECT path, name, category, description, body FROM notes "
        f"WHERE category = ? AND name IN ({marks})", [category, *names])}
    return [found[name] for name in names if name in found]


def scope_keys(conn: sqlite3.Connection, scope: str) -> list[tuple[str, str, str, str]]:
    """Every key of `scope`, (subject_key, relation_key, subject, relation): folded and in
    the form first recorded, in the order first recorded."""
    return conn.execute("SELECT subject_key, relation_key, subject, relation FROM keys "
                        "WHERE scope = ? ORDER BY first_at, first_id", (scope,)).fetchall()


def holds_facts(conn: sqlite3.Connection, scope: str) -> bool:
    """Whether `scope` holds a key (its rows made, or left for later by a sync:
    memrepo.cache.deferred)."""
    if conn.execute("SELECT 1 FROM keys WHERE scope = ? LIMIT 1", (scope,)).fetchone():
        return True
    return keys_left(conn, None) and conn.execute(
        "SELECT 1 FROM pending_keys WHERE scope = ? LIMIT 1", (scope,)).fetchone() is not None


def recorded_scopes(conn: sqlite3.Connection, limit: int = 12) -> list[str]:
    """The first `limit` scopes that hold a key, in order (each one look-up in the keys'
    index, not a scan of it)."""
    found: list[str] = []
    while len(found) < limit:
        (scope,) = conn.execute("SELECT min(scope) FROM keys WHERE scope > ?",
                                (found[-1] if found else "",)).fetchone()
        if scope is None:
            break
        found.append(scope)
    return found


def scope_subjects(conn: sqlite3.Connection, scope: str) -> list[str]:
    """Every folded subject of `scope` (read from the keys' index alone)."""
    return [subject for (subject,) in conn.execute(
        "SELECT DISTINCT subject_key FROM keys WHERE scope = ?", (scope,))]


def subjects_keys(conn: sqlite3.Connection, scope: str, subjects: Sequence[str],
                  ) -> list[tuple[int, str, str, str, str, str]]:
    """The keys of those folded subjects of `scope`, (first_at, first_id, subject_key,
    relation_key, subject, relation), in the order first recorded."""
    marks = ", ".join("?" * len(subjects))
    return conn.execute(
        "SELECT first_at, first_id, subject_key, relation_key, subject, relation FROM keys "
        f"WHERE scope = ? AND subject_key IN ({marks}) ORDER BY first_at, first_id",
        (scope, *subjects)).fetchall()


def scope_key_rows(conn: sqlite3.Connection, scope: str) -> tuple[int, int]:
    """(how many key rows `scope` has, the largest of their rowids), from the keys' index."""
    count, largest = conn.execute("SELECT count(*), coalesce(max(rowid), 0) FROM keys "
                                  "WHERE scope = ?", (scope,)).fetchone()
    return int(count), int(largest)


def keys_after(conn: sqlite3.Connection, scope: str, rowid: int) -> list[tuple[str, str]]:
    """(subject, relation) of the key rows of `scope` added after `rowid`, in order (by
    the rowid's range: `+scope` keeps SQLite off the scope's index, all of whose rows it
    would read)."""
    return [(str(s), str(r)) for s, r in conn.execute(
        "SELECT subject, relation FROM keys WHERE rowid > ? AND +scope = ? ORDER BY rowid",
        (rowid, scope))]


def scope_relations(conn: sqlite3.Connection, scope: str) -> list[str]:
    """Every folded relation of `scope`."""
    return [relation for (relation,) in conn.execute(
        "SELECT DISTINCT relation_key FROM keys WHERE scope = ?", (scope,))]


def subject_spellings(conn: sqlite3.Connection, scope: str, subject: str) -> list[str]:
    """Every spelling the logs of `scope` hold of `subject` (compared folded)."""
    rows = conn.execute("SELECT DISTINCT subject FROM events WHERE scope = ? AND "
                        "subject_key = ? AND op != 'retract'", (scope, key_slug(subject)))
    return sorted(row[0] for row in rows)


def event_location(conn: sqlite3.Connection, event_id: str) -> tuple[str, int] | None:
    """The log (repository path) and line (1-based) of an event."""
    row = conn.execute("SELECT path, line FROM events WHERE id = ? LIMIT 1",
                       (event_id,)).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


def event_path(conn: sqlite3.Connection, event_id: str, scope: str) -> str:
    """The fact log that holds the event ("" when the cache has none)."""
    row = conn.execute("SELECT path FROM events WHERE id = ? AND scope = ?",
                       (event_id, scope)).fetchone()
    return "" if row is None else str(row[0])


# --- a key's events for the write path (memrepo.facts.key_events) -------------------------

Located = tuple[str, int, Event]
"""An event with the log (repository path) and line it was indexed from."""


def indexed_logs(conn: sqlite3.Connection, scope: str) -> dict[str, tuple[str, int]]:
    """(blob id, size) of the content the cache indexed of each log of `scope`, by path
    (one range of the files table's key)."""
    folder = f"memory/facts/{scope}/"
    return {str(path): (str(blob), int(size)) for path, blob, size in conn.execute(
        "SELECT path, blob, size FROM files WHERE path >= ? AND path < ? AND kind = 'log'",
        (folder, folder[:-1] + "0"))}  # '0' follows '/'


def key_event_rows(conn: sqlite3.Connection, scope: str, subject: str, relation: str,
                   ) -> list[Located]:
    """Every event of the key (compared folded) with the retracts the cache resolved to
    it, a retract as its line reads (no key of its own)."""
    return _located(conn.execute(
        f"SELECT path, line, {EVENT_COLUMNS} FROM events WHERE scope = ? AND subject_key = ? "
        "AND relation_key = ?", (scope, key_slug(subject), key_slug(relation))))


def retracts_of(conn: sqlite3.Connection, scope: str, ids: Sequence[str]) -> list[Located]:
    """The retracts of `scope` whose target is one of `ids`."""
    marks = ", ".join("?" * len(ids))
    return _located(conn.execute(
        f"SELECT path, line, {EVENT_COLUMNS} FROM events WHERE op = 'retract' AND target "
        f"IN ({marks}) AND scope = ?", (*ids, scope)))


def _located(rows: Any) -> list[Located]:
    found = []
    for path, line, *columns in rows:
        event = event_from_row(columns)
        if event.op == "retract":
            event = replace(event, subject="", relation="")
        found.append((str(path), int(line), event))
    return found
