"""The rows made from all of a folded key's events — its keys row, holdings and search
document — made again for the keys a sync touched (or left for later:
memrepo.cache.deferred)."""

from __future__ import annotations

import heapq
import sqlite3
from collections.abc import Mapping, Sequence
from itertools import groupby, islice
from operator import itemgetter

from memrepo.cache.columns import EVENT_COLUMNS, event_from_row
from memrepo.cache.halves import in_halves
from memrepo.cache.indexer import Indexer
from memrepo.cache.rows import FoldedKey, folded_key_rows
from memrepo.cache.terms import TermDeltas
from memrepo.core.facts.events import Event, Key


def recompute(conn: sqlite3.Connection, indexer: Indexer, terms: TermDeltas,
              keys: set[Key], added: Added | None = None) -> None:
    """The keys row, holdings and search document of each folded key, from all its events
    (its shown form may change: an earlier-recorded spelling can arrive by a merge). The
    keys go to a temporary table, so their old rows are deleted and their events read in
    a few statements, not three per key (a log of 100k new keys).

    `added`: the asserts and ends this sync has just stored, by folded key in row order,
    and the first rowid it gave (memrepo.cache.logsync.NewEvents). A key whose events all
    have that rowid or a later one, and none of them a retract (a retract's key is resolved
    in SQL: the caller leaves such keys out of `added`), is made from those events as they
    were parsed rather than read back from SQLite — the same events, so the same rows (a
    hand-appended log of 100k new keys: most of them)."""
    if not keys:
        indexer.flush()
        return
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS touched (scope TEXT, subject_key TEXT, "
                 "relation_key TEXT, PRIMARY KEY (scope, subject_key, relation_key)) "
                 "WITHOUT ROWID")
    conn.execute("DELETE FROM temp.touched")
    conn.executemany("INSERT INTO temp.touched VALUES (?, ?, ?)", sorted(keys))
    made_here = _only_added(conn, keys, added)
    conn.execute(f"DELETE FROM holdings WHERE {_TOUCHED}")
    old = [rowid for (rowid,) in conn.execute(f"DELETE FROM keys WHERE {_TOUCHED} "
                                              "RETURNING rowid")]
    terms.remove_rows(conn, "keys_fts", sorted(old))
    if made_here:  # the others' events are read back
        conn.execute("DELETE FROM temp.touched")
        conn.executemany("INSERT INTO temp.touched VALUES (?, ?, ?)",
                         sorted(keys.difference(made_here)))
    rows = conn.execute(
        f"SELECT e.scope, e.subject_key, e.relation_key, {_EVENT_COLUMNS_OF_E} "
        "FROM temp.touched t JOIN events e ON e.scope = t.scope AND "
        "e.subject_key = t.subject_key AND e.relation_key = t.relation_key "
        "ORDER BY t.scope, t.subject_key, t.relation_key, e.rowid")
    is_many = indexer.config.is_many

    def fold(groups: Sequence[tuple[Key, Sequence[Event]]]) -> list[FoldedKey]:
        return [folded_key_rows(key, events, is_many) for key, events in groups]

    read = ((key, [event_from_row(row[3:]) for row in group])
            for key, group in groupby(rows, _KEY_OF_ROW))
    # every key in the order of (scope, subject_key, relation_key), as before
    groups = heapq.merge(read, ((key, added[0][key]) for key in made_here),
                         key=itemgetter(0)) if added is not None else read
    for chunk in iter(lambda: list(islice(groups, FOLDED_AT_ONCE)), []):
        # 100k new keys: half on a second process
        indexer.add_folded_keys(in_halves(fold, chunk))
    indexer.flush()


Added = tuple[Mapping[Key, Sequence[Event]], int]
"""The asserts and ends a sync stored, by folded key in row order, and the first rowid it
gave (`recompute`)."""


def _only_added(conn: sqlite3.Connection, keys: set[Key], added: Added | None,
                ) -> list[Key]:
    """The keys of `keys` (in temp.touched) whose events are exactly `added`'s: no row of
    theirs is older than its first rowid; sorted."""
    if added is None:
        return []
    events, first = added
    candidates = keys & events.keys()
    if not candidates:
        return []
    older = set(conn.execute(
        "SELECT t.scope, t.subject_key, t.relation_key FROM temp.touched t WHERE EXISTS "
        "(SELECT 1 FROM events e WHERE e.scope = t.scope AND e.subject_key = t.subject_key "
        "AND e.relation_key = t.relation_key AND e.rowid < ?)", (first,)))
    return sorted(candidates - older)


def resolve_retracts(conn: sqlite3.Connection) -> set[Key]:
    """Give every retract whose target is now known the key of that target; the folded
    keys touched."""
    rows = conn.execute(
        "UPDATE events SET (subject, relation, subject_key, relation_key) = "
        "  (SELECT t.subject, t.relation, t.subject_key, t.relation_key FROM events t "
        "  WHERE t.id = events.target AND t.scope = events.scope AND t.op != 'retract' "
        "  ORDER BY t.rowid LIMIT 1) "
        "WHERE op = 'retract' AND subject_key IS NULL "
        "RETURNING scope, subject_key, relation_key").fetchall()
    return {(scope, subject, relation) for scope, subject, relation in rows
            if subject is not None}


FOLDED_AT_ONCE = 50_000
"""Keys whose events are held at once while their rows are made (memory stays bounded)."""


_TOUCHED = ("(scope, subject_key, relation_key) IN (SELECT scope, subject_key, relation_key "
            "FROM temp.touched)")
_EVENT_COLUMNS_OF_E = ", ".join(f"e.{column.strip()}" for column in EVENT_COLUMNS.split(","))
_KEY_OF_ROW = itemgetter(0, 1, 2)
