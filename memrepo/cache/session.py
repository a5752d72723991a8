"""A long-lived reader of one repository's cache (the API, the MCP server).

One connection per thread (sqlite3 connections stay in their thread), kept open between
queries; before each query the cheap staleness fingerprint (memrepo.cache.staleness) is
compared and the cache synced when it moved; files saved in place (memrepo.cache.edits)
are looked for at most once per SCAN_EVERY seconds. Values derived from the cache (`memo`) are
kept until it next changes.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from memrepo.cache import UNWRITABLE, from_the_files, open_fresh
from memrepo.cache.db import cache_path
from memrepo.cache.edits import SCAN_EVERY, EditScan, saved_in_place
from memrepo.cache.staleness import is_stale

T = TypeVar("T")


class CacheSession:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._local = threading.local()
        self._scanned_at = -SCAN_EVERY  # when the last scan for in-place saves started

    def connection(self) -> sqlite3.Connection:
        """A connection to a cache that is current now (saves made in place: as of the
        last scan, at most SCAN_EVERY seconds ago)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or _file_id(self.root) != self._local.file_id:
            return self._reopen(conn)  # none yet, or a rebuild elsewhere swapped the file
        edited = self._saved_in_place(conn)
        if edited or is_stale(conn, self.root):
            from memrepo.cache.incremental import sync

            try:
                rebuilt = sync(self.root, conn, edited=edited).mode == "rebuilt"
            except UNWRITABLE as err:  # answer from the files: a private cache
                conn.close()
                conn = from_the_files(self.root, err)
                self._local.conn, self._local.memo = conn, {}
                return conn
            if rebuilt:
                return self._reopen(conn)
            self._local.memo = {}
        return conn

    def _saved_in_place(self, conn: sqlite3.Connection) -> list[str]:
        started = time.monotonic()
        if started - self._scanned_at < SCAN_EVERY:
            return []
        self._scanned_at = started
        return saved_in_place(conn, self.root, EditScan(self.root))

    def memo(self, key: str, compute: Callable[[sqlite3.Connection], T]) -> T:
        """A value derived from the cache, kept until the cache next changes."""
        conn = self.connection()
        memo: dict[str, Any] = self._local.memo
        if key not in memo:
            memo[key] = compute(conn)
        return memo[key]  # type: ignore[no-any-return]

    def _reopen(self, old: sqlite3.Connection | None) -> sqlite3.Connection:
        if old is not None:
            old.close()
        self._scanned_at = time.monotonic()
        conn = open_fresh(self.root)  # scans for in-place saves itself
        self._local.conn, self._local.file_id, self._local.memo = conn, _file_id(self.root), {}
        return conn


def _file_id(root: Path) -> tuple[int, int] | None:
    """Which file the cache path names now: a rebuild elsewhere swaps in a new one."""
    try:
        info = cache_path(root).stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino)
