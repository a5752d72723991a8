"""The whole memory as the cache holds it, for the rules that look at everything at once
(`memrepo triage`): every note with its links, every event grouped by key; every note's
description by category (`memrepo doctor`'s INDEX.md check)."""

from __future__ import annotations

import sqlite3

import orjson

from memrepo.cache.columns import EVENT_COLUMNS
from memrepo.core.duplicates.triage import LinkRecord, NoteRecord, title_of
from memrepo.core.facts.events import OPS, Event, Key, Op


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
    groups: dict[Key, list[Event]] = {}
    shared: dict[str, str] = {}
    once = shared.setdefault
    for row in conn.execute(f"SELECT subject_key, relation_key, {EVENT_COLUMNS} FROM events "
                            "WHERE subject_key IS NOT NULL ORDER BY rowid"):
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


_OPS: dict[str, Op] = {op: op for op in OPS}


def note_descriptions(conn: sqlite3.Connection) -> dict[str, dict[str, str]]:
    """category → note file name → the description the cache read from it ('' when the
    header has none or not as text)."""
    found: dict[str, dict[str, str]] = {}
    for path, category, description in conn.execute(
            "SELECT path, category, description FROM notes"):
        found.setdefault(category, {})[path.rpartition("/")[2]] = description
    return found
