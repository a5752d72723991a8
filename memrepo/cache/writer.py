"""Inserting rows: batched `executemany` per table, shared by build and sync."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from memrepo.cache.rows import Row

INSERT: dict[str, str] = {
    "notes": "INSERT INTO notes(rowid, path, name, category, description, aliases, body, "
             "updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "notes_fts": "INSERT INTO notes_fts(rowid, name, description, aliases, body, name_s, "
                 "description_s, aliases_s, body_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "passages_fts": "INSERT INTO passages_fts(rowid, head, text, head_s, text_s) "
                    "VALUES (?, ?, ?, ?, ?)",
    "aliases": "INSERT INTO aliases(folded, alias, name, path) VALUES (?, ?, ?, ?)",
    "links": "INSERT INTO links(source, source_name, target, line) VALUES (?, ?, ?, ?)",
    "events": "INSERT INTO events(rowid, id, op, scope, subject, relation, subject_key, "
              "relation_key, object, valid_from, valid_to, recorded_at, target, confidence, "
              "source, session, quote, trust, reason, path, line) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "holdings": "INSERT INTO holdings(scope, subject_key, relation_key, subject, relation, "
                "object, held_from, held_to, value_from, value_to, known_from, known_to, "
                "event_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "keys": "INSERT INTO keys(rowid, scope, subject_key, relation_key, subject, relation, "
            "first_at, first_id, numeric) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "keys_fts": "INSERT INTO keys_fts(rowid, subject, relation, object, quote, subject_s, "
                "relation_s, object_s, quote_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "files": "INSERT OR REPLACE INTO files(path, kind, blob, size) VALUES (?, ?, ?, ?)",
    "skipped": "INSERT INTO skipped(path, line, reason, id) VALUES (?, ?, ?, ?)",
    "log_digests": "INSERT OR REPLACE INTO log_digests(path, digest, state, tail) "
                   "VALUES (?, ?, ?, ?)",
}

BATCH_ROWS = 20_000


class Batch:
    """Rows waiting to be inserted; flushed per table when a batch is full and at the end."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.pending: dict[str, list[Row]] = {table: [] for table in INSERT}
        self.counts: dict[str, int] = dict.fromkeys(INSERT, 0)

    def add(self, table: str, row: Row) -> None:
        rows = self.pending[table]
        rows.append(row)
        if len(rows) >= BATCH_ROWS:
            self._flush(table)

    def extend(self, table: str, rows: Iterable[Row]) -> None:
        pending = self.pending[table]
        pending.extend(rows)
        if len(pending) >= BATCH_ROWS:
            self._flush(table)

    def flush(self) -> None:
        for table in INSERT:
            self._flush(table)

    def _flush(self, table: str) -> None:
        rows = self.pending[table]
        if rows:
            self.conn.executemany(INSERT[table], rows)
            self.counts[table] += len(rows)
            rows.clear()


def next_rowid(conn: sqlite3.Connection, table: str) -> int:
    row = conn.execute(f"SELECT coalesce(max(rowid), 0) + 1 FROM {table}").fetchone()
    return int(row[0])
