"""The whole memory as the cache holds it, for the rules that look at everything at once
(`memrepo triage`): every note with its links, every event grouped by key; every note's
description by category (`memrepo doctor`'s INDEX.md check)."""

from __future__ import annotations

import sqlite3

import orjson

from memrepo.cache.columns import EVENT_COLUMNS, event_from_row
from memrepo.cache.rows import group_by_key, keys_of
from memrepo.core.duplicates.triage import LinkRecord, NoteRecord, title_of
from memrepo.core.facts.events import Event, Key


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
    events = [event_from_row(row) for row in
              conn.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY rowid")]
    return group_by_key(events, keys_of(events))


def note_descriptions(conn: sqlite3.Connection) -> dict[str, dict[str, str]]:
    """category → note file name → the description the cache read from it ('' when the
    header has none or not as text)."""
    found: dict[str, dict[str, str]] = {}
    for path, category, description in conn.execute(
            "SELECT path, category, description FROM notes"):
        found.setdefault(category, {})[path.rpartition("/")[2]] = description
    return found
