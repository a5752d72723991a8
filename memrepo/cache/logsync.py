"""Re-indexing one changed fact log with as little work as possible.

A log that only grew (its old bytes are a prefix of the new) is parsed from the old end
on, and its rows' digest is extended over the new rows alone. Any other change (a
checkout to an older branch, a merge that interleaved lines, an edit) parses the whole
file but replaces only the event rows that differ, so timelines are recomputed only for
the keys of those events.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

import orjson

from memrepo.cache.digests import SIGNATURE_COLUMNS, LogDigest, rows_digest, table_signatures
from memrepo.cache.indexer import Indexer
from memrepo.cache.rows import (
    SIGNED_OP,
    UNFINISHED,
    ParsedLog,
    Row,
    Skipped,
    event_signature,
    parse_events,
    repeated,
    signed_key,
)
from memrepo.core.facts.events import Event, Key
from memrepo.core.facts.line_rules import LineRules
from memrepo.core.facts.log_lines import scope_of
from memrepo.files import prefix_blob_digest

Stored = tuple[str, int]
"""(blob id, size) of the content the cache indexed."""
NewEvents = dict[Key, list[Event]]
"""The asserts and ends a sync added, by folded key, in the order of their rows
(memrepo.cache.recompute makes a key's rows from them when it had no events before)."""


class NeedsRebuild(Exception):
    """What changed cannot be applied incrementally so that a full build gives the same
    cache (e.g. which line of a repeated id comes first has changed): roll back, rebuild."""


class Synced(NamedTuple):
    keys: set[Key]  # the (folded) keys to recompute
    digested: bool  # its digest is stored already (else `store_digest` once rows are in)
    added: NewEvents  # the asserts and ends it added, by folded key, in line order


def sync_log(conn: sqlite3.Connection, indexer: Indexer, path: str, data: bytes | None,
             stored: Stored | None, rules: LineRules) -> Synced:
    """Index the log's new content (None: the file is gone), its lines judged by
    `rules`."""
    scope = scope_of(path)
    if scope is None:  # callers pass only paths that file_kind() called logs
        raise ValueError(f"not a fact log path: {path}")
    indexer.flush()  # the rows of logs synced before this one count for repeated ids
    if data is not None and stored is not None and _only_grew(data, stored):
        old_size = stored[1]
        first_line = data.count(b"\n", 0, old_size) + 1
        parsed = _first_ids(conn, scope, path, None,
                            parse_events(data[old_size:], path, rules, first_line,
                                         split=True))
        indexer.add_skipped(path, parsed.skipped)
        appended = [event_signature(event, path, line) for line, event in parsed.events]
        digested = _extend_digest(conn, path, appended)
        return Synced(_add(indexer, path, data, appended), digested,
                      _by_key(appended, [event for _, event in parsed.events]))
    if data is None:
        conn.execute("DELETE FROM skipped WHERE path = ?", (path,))
        conn.execute("DELETE FROM files WHERE path = ?", (path,))
        conn.execute("DELETE FROM log_digests WHERE path = ?", (path,))
        return Synced(_delete_rows(conn, _unrepeated(conn, _old_rows(conn, path))), True, {})
    old = _old_rows(conn, path)
    parsed = _first_ids(conn, scope, path, path, parse_events(data, path, rules,
                                                                 split=True))
    _replace_skipped(conn, indexer, path, parsed.skipped)
    added: list[Row] = []
    added_events: list[Event] = []
    signatures: list[Row] = []  # the log's rows once synced, in line order
    for line, event in parsed.events:
        signature = event_signature(event, path, line)
        signatures.append(signature)
        rowids = old.get(signature)
        if rowids:
            rowids.pop()
        else:
            added.append(signature)
            added_events.append(event)
    keys = _delete_rows(conn, _unrepeated(conn, old)) | _add(indexer, path, data, added)
    _record_digest(conn, path, rows_digest(signatures))  # not read back from the table
    return Synced(keys, True, _by_key(added, added_events))


def _replace_skipped(conn: sqlite3.Connection, indexer: Indexer, path: str,
                     skipped: Sequence[Skipped]) -> None:
    """The log's skipped lines are now `skipped` (its unfinished last line aside: the
    caller keeps that one). A line listed already keeps its row, so the query that listed
    it has said so and no later one says it again."""
    listed = {(line, reason, event_id): rowid for rowid, line, reason, event_id in
              conn.execute("SELECT rowid, line, reason, id FROM skipped WHERE path = ? AND "
                           "reason != ?", (path, UNFINISHED))}
    now = set(skipped)
    conn.executemany("DELETE FROM skipped WHERE rowid = ?",
                     [(rowid,) for one, rowid in listed.items() if one not in now])
    indexer.add_skipped(path, [one for one in skipped if one not in listed])


def _first_ids(conn: sqlite3.Connection, scope: str, path: str, rewritten: str | None,
               parsed: ParsedLog) -> ParsedLog:
    """`parsed` without the events whose id an earlier line of the scope (by path, then
    line: the order of a full build) already has in the cache, those moved to the skipped
    lines. Lines of the `rewritten` log are re-read, so they do not count. An id whose
    indexed line comes after the new one needs a rebuild (NeedsRebuild)."""
    kept: list[tuple[int, Event]] = []
    skipped = list(parsed.skipped)
    indexed = _indexed_ids(conn, scope, rewritten, [event.id for _, event in parsed.events])
    for line, event in parsed.events:
        first = indexed.get(event.id)
        if first is None:
            kept.append((line, event))
        elif tuple(first) < (path, line):
            skipped.append(repeated(line, event.id))
        else:
            raise NeedsRebuild
    return ParsedLog(kept, sorted(skipped, key=lambda one: one[0]))


def _indexed_ids(conn: sqlite3.Connection, scope: str, rewritten: str | None,
                 ids: Sequence[str]) -> dict[str, tuple[str, int]]:
    """Of `ids`, those the cache holds in `scope` outside the `rewritten` log, each with
    its first (path, line): one statement over the ids sent as one JSON array, not one per
    line (a log of 100k new lines)."""
    if not ids:
        return {}
    first: dict[str, tuple[str, int]] = {}
    for id_, path, line in conn.execute(
            "SELECT e.id, e.path, e.line FROM json_each(?) n CROSS JOIN events e ON e.id = n.value "
            "WHERE e.scope = ? AND e.path IS NOT ?", (orjson.dumps(ids), scope, rewritten)):
        if id_ not in first or (path, line) < first[id_]:
            first[id_] = (path, line)
    return first


def _unrepeated(conn: sqlite3.Connection, gone: dict[Row, list[int]]) -> dict[Row, list[int]]:
    """`gone` (rows about to be deleted), after making sure none of them was the first of
    a repeated id: then a skipped line becomes the first, which a rebuild works out."""
    for signature, rowids in gone.items():
        if rowids and conn.execute("SELECT 1 FROM skipped WHERE id = ? LIMIT 1",
                                   (signature[0],)).fetchone():
            raise NeedsRebuild
    return gone


def _only_grew(data: bytes, stored: Stored) -> bool:
    blob, size = stored
    return len(data) > size and prefix_blob_digest(data, size).hex() == blob


def _add(indexer: Indexer, path: str, data: bytes, signatures: Sequence[Row]) -> set[Key]:
    """Index the log's content and the events of `signatures` (its new rows, in line
    order: a retract's key is resolved in SQL afterwards); their folded keys."""
    indexer.add_file(path, "log", data)
    return indexer.add_event_rows(signatures)


def _by_key(signatures: Sequence[Row], events: Sequence[Event]) -> NewEvents:
    """The asserts and ends among `events` (whose rows' signatures are `signatures`), by
    folded key, in order (a retract's key is resolved in SQL: not among them)."""
    added: NewEvents = {}
    for signature, event in zip(signatures, events, strict=True):
        if signature[SIGNED_OP] != "retract":
            added.setdefault(signed_key(signature), []).append(event)
    return added


def _old_rows(conn: sqlite3.Connection, path: str) -> dict[Row, list[int]]:
    old: dict[Row, list[int]] = {}
    for rowid, *signature in conn.execute(
            f"SELECT rowid, {SIGNATURE_COLUMNS} FROM events WHERE path = ?", (path,)):
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


def _extend_digest(conn: sqlite3.Connection, path: str, appended: Sequence[Row]) -> bool:
    """Extend the log's stored digest over the rows (signatures) of its appended lines
    (they follow every indexed row: the same chain a build computes); False when none is
    stored."""
    row = conn.execute("SELECT digest, state, tail FROM log_digests WHERE path = ?",
                       (path,)).fetchone()
    if row is None:
        return False
    _record_digest(conn, path, rows_digest(appended, LogDigest(*row)))
    return True


def store_digest(conn: sqlite3.Connection, path: str) -> None:
    """Record the digest of the log's rows as they are now (after a sync changed them)."""
    _record_digest(conn, path, rows_digest(table_signatures(conn, path)))


def _record_digest(conn: sqlite3.Connection, path: str, digest: LogDigest) -> None:
    conn.execute("INSERT OR REPLACE INTO log_digests(path, digest, state, tail) "
                 "VALUES (?, ?, ?, ?)", (path, *digest))
