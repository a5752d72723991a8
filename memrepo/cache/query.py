"""recall (§5.4) and history (§5.5) as lookups in the materialised holdings, and the
look-ups of notes and keys the API and the context block make."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from memrepo.cache.columns import EVENT_COLUMNS, event_from_row
from memrepo.core.bitemporal import FOREVER
from memrepo.core.events import Event
from memrepo.core.records import Fact, HistoryEntry
from memrepo.core.text import fold, fts_query, key_slug, slug
from memrepo.core.times import Instant, format_instant, format_valid_time

MAX_KEYS = 200

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


def recall_facts(conn: sqlite3.Connection, scope: str, query: str | None,
                 subject: str | None, relation: str | None, t: Instant, known: Instant,
                 ) -> list[Fact]:
    """By key, by subject, or by the keys free text matches."""
    if subject is not None and relation is not None:
        return recall_key(conn, scope, subject, relation, t, known)
    if subject is not None:
        return recall_subject(conn, scope, subject, t, known)
    return [fact for key in matching_keys(conn, scope, query or "")
            for fact in recall_key(conn, scope, *key, t, known)]


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


def matching_keys(conn: sqlite3.Connection, scope: str, text: str) -> list[tuple[str, str]]:
    """Keys (folded) of `scope` whose facts match the text, plus keys whose subject is an
    entity the text names (by name or alias: "Lodz Packaging" → lodz-packaging, which is
    the subject `Lodz Packaging` folded)."""
    keys: dict[tuple[str, str], None] = {}
    match = fts_query(text)
    if match:
        rows = conn.execute(
            "SELECT DISTINCT e.subject_key, e.relation_key FROM facts_fts JOIN events e "
            "ON e.rowid = facts_fts.rowid WHERE facts_fts MATCH ? AND e.scope = ? LIMIT ?",
            (match, scope, MAX_KEYS))
        keys.update(dict.fromkeys((subject, relation) for subject, relation in rows))
    for name in entity_names(conn, text):
        subject = key_slug(name)
        rows = conn.execute("SELECT DISTINCT relation_key FROM events WHERE scope = ? AND "
                            "subject_key = ? AND op != 'retract'", (scope, subject))
        keys.update(dict.fromkeys((subject, relation) for (relation,) in rows))
    return sorted(keys)[:MAX_KEYS]


def entity_names(conn: sqlite3.Connection, text: str) -> list[str]:
    """Entity notes the text names: by slug, by a folded alias, or by the words of the
    name or aliases (all of them present)."""
    folded = fold(text).strip()
    names = {row[0] for row in conn.execute(
        "SELECT name FROM notes WHERE category = 'entities' AND name = ?", (slug(text),))}
    names.update(row[0] for row in conn.execute(
        "SELECT a.name FROM aliases a JOIN notes n ON n.path = a.path "
        "WHERE a.folded = ? AND n.category = 'entities'", (folded,)))
    match = fts_query(text)
    if match:
        names.update(row[0] for row in conn.execute(
            "SELECT n.name FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid "
            "WHERE notes_fts MATCH ? AND n.category = 'entities' LIMIT ?",
            (f"{{name aliases}} : ({match})", MAX_KEYS)))
    return sorted(names)


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


def keys_with_words(conn: sqlite3.Connection, scope: str, terms: Sequence[str], limit: int,
                    ) -> list[tuple[str, str]]:
    """Keys (folded) of `scope` whose subject or relation holds any of the folded `terms`,
    best first (BM25), each once, from at most `limit` matching events."""
    match = "{subject relation} : (" + " OR ".join(fts_query(w) for w in terms) + ")"
    rows = conn.execute(
        "SELECT e.subject_key, e.relation_key FROM facts_fts JOIN events e "
        "ON e.rowid = facts_fts.rowid WHERE facts_fts MATCH ? AND e.scope = ? "
        "ORDER BY bm25(facts_fts) LIMIT ?",
        (match, scope, limit))
    return list(dict.fromkeys((s, r) for s, r in rows))
