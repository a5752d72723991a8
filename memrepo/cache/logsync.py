"""Re-indexing one changed fact log with as little work as possible.

A log that only grew (its old bytes are a prefix of the new) is parsed from the old end
on. Any other change (a checkout to an older branch, a merge that interleaved lines, an
edit) parses the whole file but replaces only the event rows that differ, so timelines
are recomputed only for the keys of those events.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memrepo.cache.indexer import Indexer
from memrepo.cache.rows import Row, blob_id, event_row, parse_events
from memrepo.core.events import Event, Key
from memrepo.core.log_lines import scope_of

Stored = tuple[str, int]
"""(blob id, size) of the content the cache indexed."""

_SIGNATURE = ("id, op, scope, " + ", ".join(
    f"CASE WHEN op = 'retract' THEN NULL ELSE {column} END"
    for column in ("subject", "relation", "subject_key", "relation_key"))
    + ", object, valid_from, valid_to, recorded_at, target, confidence, source, session, "
    "quote, trust, reason, path, line")


def sync_log(conn: sqlite3.Connection, indexer: Indexer, path: str, data: bytes | None,
             stored: Stored | None) -> set[Key]:
    """Index the log's new content (None: the file is gone); the (folded) keys to
    recompute."""
    scope = scope_of(path)
    if scope is None:  # callers pass only paths that file_kind() called logs
        raise ValueError(f"not a fact log path: {path}")
    if data is not None and stored is not None and _only_grew(data, stored):
        old_size = stored[1]
        first_line = data.count(b"\n", 0, old_size) + 1
        return _add(indexer, path, data, parse_events(data[old_size:], scope, first_line))
    if data is None:
        conn.execute("DELETE FROM files WHERE path = ?", (path,))
        return _delete_rows(conn, _old_rows(conn, path))
    old = _old_rows(conn, path)
    added: list[tuple[int, Event]] = []
    for line, event in parse_events(data, scope):
        rowids = old.get(_signature(event, path, line))
        if rowids:
            rowids.pop()
        else:
            added.append((line, event))
    return _delete_rows(conn, old) | _add(indexer, path, data, added)


def _only_grew(data: bytes, stored: Stored) -> bool:
    blob, size = stored
    return len(data) > size and blob_id(data[:size]) == blob


def _add(indexer: Indexer, path: str, data: bytes, events: Sequence[tuple[int, Event]],
         ) -> set[Key]:
    indexer.add_file(path, "log", data)
    indexer.add_events(path, events, {})  # retracts are resolved in SQL afterwards
    return {event.folded_key for _, event in events if event.op != "retract"}


def _signature(event: Event, path: str, line: int) -> Row:
    """The row as stored, minus the rowid and a retract's (resolved) key."""
    return event_row(0, event, path, line, None if event.op == "retract" else event.key)[1:]


def _old_rows(conn: sqlite3.Connection, path: str) -> dict[Row, list[int]]:
    old: dict[Row, list[int]] = {}
    for rowid, *signature in conn.execute(
            f"SELECT rowid, {_SIGNATURE} FROM events WHERE path = ?", (path,)):
        old.setdefault(tuple(signature), []).append(rowid)
    return old


def _delete_rows(conn: sqlite3.Connection, old: dict[Row, list[int]]) -> set[Key]:
    """Delete the event rows left in `old`; their folded keys (a retract's: its
    target's)."""
    gone = [(rowid,) for rowids in old.values() for rowid in rowids]
    if not gone:
        return set()
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS gone (rowid INTEGER PRIMARY KEY)")
    conn.execute("DELETE FROM temp.gone")
    conn.executemany("INSERT INTO temp.gone(rowid) VALUES (?)", gone)
    keys = conn.execute("SELECT DISTINCT scope, subject_key, relation_key FROM events WHERE "
                        "rowid IN (SELECT rowid FROM temp.gone) AND subject_key IS NOT NULL"
                        ).fetchall()
    conn.execute("UPDATE events SET subject = NULL, relation = NULL, subject_key = NULL, "
                 "relation_key = NULL WHERE op = 'retract' "
                 "AND rowid NOT IN (SELECT rowid FROM temp.gone) AND target IN "
                 "(SELECT id FROM events WHERE rowid IN (SELECT rowid FROM temp.gone) "
                 "AND op != 'retract')")
    conn.execute("DELETE FROM events WHERE rowid IN (SELECT rowid FROM temp.gone)")
    return {(scope, subject, relation) for scope, subject, relation in keys}
