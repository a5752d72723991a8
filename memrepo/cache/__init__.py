"""The SQLite cache (SPEC §7): derived from the work tree, disposable, refreshed cheaply.

- `rebuild(root)`: full build into a new file, swapped in atomically;
- `sync(root)`: incremental refresh (what the post-checkout/merge/rewrite hooks run);
- `open_fresh(root)`: a connection for queries, synced first when the cache is stale;
- `status(root)`: what the cache holds and whether it is current.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from memrepo.cache.build import BuildReport, rebuild
from memrepo.cache.db import cache_path, open_trusted, read_meta, require_fts5
from memrepo.cache.sync import SyncReport, is_stale, sync

__all__ = ["BuildReport", "CacheStatus", "SyncReport", "cache_path", "open_fresh", "rebuild",
           "status", "sync"]


def open_fresh(root: Path) -> sqlite3.Connection:
    """A connection to an up-to-date cache: built when missing or untrusted, synced when
    stale (see memrepo.cache.staleness for what is noticed)."""
    require_fts5()
    path = cache_path(root)
    conn = open_trusted(path)
    if conn is not None and not is_stale(conn, root):
        return conn
    report = sync(root, conn)
    if conn is not None and report.mode != "rebuilt":
        return conn
    if conn is not None:
        conn.close()
    fresh = open_trusted(path)
    if fresh is None:
        raise RuntimeError(f"the cache at {path} could not be built")
    return fresh


@dataclass(frozen=True, slots=True)
class CacheStatus:
    path: str
    exists: bool
    current: bool
    commit: str | None
    notes: int
    events: int
    holdings: int

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "exists": self.exists, "current": self.current,
                "commit": self.commit, "notes": self.notes, "events": self.events,
                "holdings": self.holdings}


def status(root: Path) -> CacheStatus:
    """What the cache holds, without changing it."""
    path = cache_path(root)
    conn = open_trusted(path)
    if conn is None:
        return CacheStatus(str(path), False, False, None, 0, 0, 0)
    try:
        meta = read_meta(conn)
        counts = [conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                  for table in ("notes", "events", "holdings")]
        return CacheStatus(str(path), True, not is_stale(conn, root),
                           meta.get("commit") or None, *counts)
    finally:
        conn.close()
