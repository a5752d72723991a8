"""The notes and log lines the cache left out (its `skipped` table: a line the checks
refuse, a note that does not parse), as a sync reports what it has just left out and
doctor lists them all. Light to import: a query's sync reads them without doctor's audit.
"""

from __future__ import annotations

import sqlite3

from memrepo.core.record_base import Record, init_field


class SkippedLine(Record):
    __slots__ = ("line", "path", "reason")
    path: str
    line: int
    reason: str

    def __init__(self, path: str, line: int, reason: str) -> None:
        init_field(self, "path", path)
        init_field(self, "line", line)
        init_field(self, "reason", reason)


def skipped_lines(conn: sqlite3.Connection) -> list[SkippedLine]:
    return [SkippedLine(path, line, reason) for path, line, reason in conn.execute(
        "SELECT path, line, reason FROM skipped ORDER BY path, line")]


def last_skipped(conn: sqlite3.Connection) -> int:
    """The rowid of the last note or line listed as skipped (0: none)."""
    return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM skipped").fetchone()[0])


def skipped_after(conn: sqlite3.Connection, rowid: int, limit: int) -> list[SkippedLine]:
    """At most `limit` of the notes and lines listed as skipped after `rowid` (0: any)."""
    return [SkippedLine(path, line, reason) for path, line, reason in conn.execute(
        "SELECT path, line, reason FROM skipped WHERE rowid > ? ORDER BY path, line "
        "LIMIT ?", (rowid, limit))]
