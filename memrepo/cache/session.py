"""A long-lived reader of one repository's cache (the API, the MCP server).

One connection per thread (sqlite3 connections stay in their thread), kept open between
queries; before each query the cheap staleness fingerprint (memrepo.cache.staleness) is
compared and the cache synced when it moved. Values derived from the cache (`memo`) are
kept until it next changes.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from memrepo.cache import open_fresh
from memrepo.cache.db import cache_path
from memrepo.cache.staleness import is_stale

T = TypeVar("T")


class CacheSession:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        """A connection to a cache that is current now."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or _file_id(self.root) != self._local.file_id:
            return self._reopen(conn)  # none yet, or a rebuild elsewhere swapped the file
        if is_stale(conn, self.root):
            from memrepo.cache.incremental import sync

            if sync(self.root, conn).mode == "rebuilt":
                return self._reopen(conn)
            self._local.memo = {}
        return conn

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
        conn = open_fresh(self.root)
        self._local.conn, self._local.file_id, self._local.memo = conn, _file_id(self.root), {}
        return conn


def _file_id(root: Path) -> tuple[int, int] | None:
    """Which file the cache path names now: a rebuild elsewhere swaps in a new one."""
    try:
        info = cache_path(root).stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino)
