"""A long-lived reader of one repository's cache (the API, the MCP server).

One connection per thread (sqlite3 connections stay in their thread), kept open between
queries; before each query the cheap staleness fingerprint (memrepo.cache.staleness) is
compared and the cache synced when it moved. Files saved in place (memrepo.cache.edits):
every query applies a scan started at most SCAN_EVERY seconds before it. While queries keep
coming, the next scan is started in the background half that time after the last one, so a
query waits for git's scan (≈0.13 s at 100k notes) only after an idle spell. Values derived
from the cache (`memo`) are kept until it next changes.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from memrepo.cache import UNWRITABLE, from_the_files, open_fresh, sync
from memrepo.cache.db import cache_path
from memrepo.cache.edits import SCAN_EVERY, EditScan, saved_in_place
from memrepo.cache.staleness import Lookup, is_stale

T = TypeVar("T")


class CacheSession:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._local = threading.local()
        self._lock = threading.Lock()
        self._applied_at = -SCAN_EVERY  # when the newest scan applied to the cache started
        self._ahead: tuple[float, EditScan] | None = None  # a scan started in the background

    def connection(self, lookup: Lookup | None = None) -> sqlite3.Connection:
        """A connection to a cache that is current now (saves made in place: as of the
        last scan, at most SCAN_EVERY seconds ago). `lookup`: what the caller reads when
        it only looks keys up (memrepo.cache.deferred: the rows of other keys may still be
        made)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or _file_id(self.root) != self._local.file_id:
            return self._reopen(conn, lookup)  # none yet, or a rebuild swapped the file
        edited = self._saved_in_place(conn)
        if edited or is_stale(conn, self.root, lookup):
            try:
                rebuilt = sync(self.root, conn, edited=edited, announce=False,
                               lookup=lookup).mode == "rebuilt"
            except UNWRITABLE as err:  # answer from the files: a private cache
                self._retire(conn)
                conn = from_the_files(self.root, err)
                self._local.conn, self._local.memo = conn, {}
                return conn
            if rebuilt:
                return self._reopen(conn, lookup)
            self._local.memo = {}
        return conn

    def _saved_in_place(self, conn: sqlite3.Connection) -> list[str]:
        """Files saved in place, by a scan started at most SCAN_EVERY seconds ago: the one
        started ahead once it has answered (or is the only fresh enough one), else one
        started now and waited for."""
        with self._lock:
            now = time.monotonic()
            if self._ahead is not None and now - self._ahead[0] >= SCAN_EVERY:
                self._ahead = None  # too old to stand for now (subprocess reaps git later)
            due = now - self._applied_at >= SCAN_EVERY
            scan = None
            if self._ahead is not None and (due or self._ahead[1].finished()):
                (self._applied_at, scan), self._ahead = self._ahead, None
            elif due:
                self._applied_at, scan = now, EditScan(self.root)
        edited = [] if scan is None else saved_in_place(conn, self.root, scan)
        with self._lock:
            now = time.monotonic()
            if self._ahead is None and now - self._applied_at >= SCAN_EVERY / 2:
                self._ahead = (now, EditScan(self.root, beside_queries=True))
        return edited

    def memo(self, key: str, compute: Callable[[sqlite3.Connection], T]) -> T:
        """A value derived from the cache, kept until the cache next changes."""
        conn = self.connection()
        memo: dict[str, Any] = self._local.memo
        if key not in memo:
            memo[key] = compute(conn)
        return memo[key]  # type: ignore[no-any-return]

    def _reopen(self, old: sqlite3.Connection | None, lookup: Lookup | None = None,
                ) -> sqlite3.Connection:
        if old is not None:
            self._retire(old)
        self._applied_at = time.monotonic()
        conn = open_fresh(self.root, lookup=lookup)  # scans for in-place saves itself
        self._local.conn, self._local.file_id, self._local.memo = conn, _file_id(self.root), {}
        return conn


    def _retire(self, old: sqlite3.Connection) -> None:
        """Close this thread's connection retired before, and keep `old` open until the next
        one is: a caller may still read through `old` (a question's answer asks for the
        config after its connection; a rebuild in between swapped the file)."""
        retired: sqlite3.Connection | None = getattr(self._local, "retired", None)
        if retired is not None and retired is not old:
            retired.close()
        self._local.retired = old


def _file_id(root: Path) -> tuple[int, int] | None:
    """Which file the cache path names now: a rebuild elsewhere swaps in a new one."""
    try:
        info = cache_path(root).stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino)
