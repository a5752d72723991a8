"""The SQLite cache (SPEC §7): derived from the work tree, disposable, refreshed cheaply.

- `rebuild(root)`: full build into a new file, swapped in atomically;
- `sync(root)`: incremental refresh (what the post-checkout/merge/rewrite hooks run);
- `open_fresh(root)`: a connection for queries, synced first when the cache is stale;
- `status(root)`: what the cache holds and whether it is current;
- `memory_config(conn, root)`: the config, as the cache was built with it.

A cache that cannot be written (a read-only `.memrepo`, an immutable file, a read-only
file system) never turns a query into a crash: when the live cache is current it answers
as it is; otherwise the answer comes from the files, through a private cache built in the
temporary folder, with a one-line warning. A cache path that is not a file (a folder left
there) is refused clearly: memrepo never deletes what it did not make.

Importing this package (db, staleness, gitstate, edits) is kept light — hashlib, orjson,
the config and the temporary-folder modules are imported where they are used — because a
query command imports it first of all, to start git's scan for files saved in place
(memrepo.cache.edits.query_root): whatever is imported before the scan starts delays the
whole answer, which waits for the scan.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cache.db import (
    CacheUnwritable,
    cache_path,
    memory_config,
    open_trusted,
    read_meta,
    require_cache_file,
    require_fts5,
)
from memrepo.cache.edits import saved_in_place, take_scan
from memrepo.cache.gitstate import ChangedQuery, head_commit
from memrepo.cache.staleness import Lookup, is_stale
from memrepo.core.problems import split_fix
from memrepo.core.record_base import Record, init_field

if TYPE_CHECKING:
    from memrepo.cache.build import BuildReport
    from memrepo.cache.incremental import SyncReport
    from memrepo.cache.skipped import SkippedLine

__all__ = ["CacheStatus", "Connection", "cache_path", "memory_config", "open_fresh", "rebuild",
           "status", "sync"]

Connection = sqlite3.Connection
"""What `open_fresh` hands out. Outside cache/ a connection is only passed on to the
functions of cache/: every SQL statement of memrepo lives in this package."""


def rebuild(root: Path, workers: int | None = None, *, announce: bool = True) -> BuildReport:
    """Build the whole cache anew and swap it in (memrepo.cache.build, imported only when
    a build runs: a query on a current cache needs none of its parsers). `announce`: name
    on stderr what it leaves out (`say_left_out`)."""
    from memrepo.cache.build import rebuild as build
    from memrepo.cache.incremental import left_out_of

    report = build(root, workers)
    if announce:
        say_left_out(left_out_of(root))
    return report


def sync(root: Path, conn: sqlite3.Connection | None = None, *, force: bool = False,
         hook: bool = False, edited: Sequence[str] = (), announce: bool = True,
         lookup: Lookup | None = None) -> SyncReport:
    """Re-index what changed (memrepo.cache.incremental, imported only when a sync runs).
    `hook` (after a checkout, merge or rewrite): git starts comparing the commit the cache
    was built from with HEAD before the indexing code is even imported. `edited`: files
    saved in place (memrepo.cache.edits). `announce`: name on stderr the notes and lines
    it has just left out (`say_left_out`). `lookup`: what the caller reads when it only
    looks keys up — a large sync then leaves the rows of the other keys it touched to a
    sync started in the background (memrepo.cache.deferred)."""
    changed = None if force or not hook else _changes_since_build(root, conn)
    from memrepo.cache import incremental

    try:
        report = incremental.sync(root, conn, force=force, hook=hook, edited=edited,
                                  changed=changed, lookup=lookup)
        if report is not None and report.deferred:
            from memrepo.cache.deferred import finish_later

            finish_later(root)
        if report is None:  # no trusted cache, a changed config, a rewritten log
            report = incremental.rebuilt(root, rebuild(root, announce=False))
    finally:
        if changed is not None:
            changed.paths()  # reap git when the answer was not needed
    if announce:
        say_left_out(report.left_out)
    return report


def say_left_out(left_out: Sequence[SkippedLine]) -> None:
    """One line on stderr for each note or log line a build or sync has just left out (it
    does not parse, or the checks refuse it), a few at most: a person who saved a broken
    file learns it at the next query or checkout, not only at the next commit."""
    from memrepo.cache.incremental import LEFT_OUT_SHOWN

    for line in left_out[:LEFT_OUT_SHOWN]:
        said = line.reason if split_fix(line.reason)[1] else (
            f"{line.reason} (`memrepo doctor` says what to do)")
        print(f"memrepo: {line.path}:{line.line}: left out of every answer: {said}",
              file=sys.stderr)
    if len(left_out) > LEFT_OUT_SHOWN:
        print("memrepo: … and more: `memrepo doctor` lists every one", file=sys.stderr)


def _changes_since_build(root: Path, conn: sqlite3.Connection | None) -> ChangedQuery | None:
    """What differs between the cache's commit and HEAD, asked in the background."""
    own = conn is None
    conn = conn or open_trusted(cache_path(root))
    if conn is None:
        return None
    try:
        built = read_meta(conn).get("commit")
    finally:
        if own:
            conn.close()
    head = head_commit(root)
    if not built or head is None or built == head:
        return None
    return ChangedQuery(root, built, head)


def open_fresh(root: Path, *, hook: bool = False, lookup: Lookup | None = None,
               ) -> sqlite3.Connection:
    """A connection to an up-to-date cache: built when missing or untrusted, synced when
    stale (see memrepo.cache.staleness for what is noticed) or when a file was saved in
    place (memrepo.cache.edits); from the files through a private cache when the live one
    cannot be written. `hook`: synced as the git hooks do, from git's diff between commits
    (for the write path, whose every write commits), with no scan for saved files.
    `lookup`: what the caller reads when it only looks keys up (memrepo.cache.deferred:
    the rows of other keys may still be made)."""
    require_fts5()
    path = cache_path(root)
    require_cache_file(path)
    scan = None if hook else take_scan(root)
    conn = open_trusted(path)
    try:
        edited = [] if scan is None else saved_in_place(conn, root, scan)
        if conn is not None and not edited and not is_stale(conn, root, lookup):
            return conn
        report = sync(root, conn, hook=hook, edited=edited, lookup=lookup)
    except UNWRITABLE as err:
        if conn is not None:
            conn.close()
        return from_the_files(root, err)
    if conn is not None and report.mode != "rebuilt":
        return conn
    if conn is not None:
        conn.close()
    fresh = open_trusted(path)
    if fresh is None:
        raise RuntimeError(f"the cache at {path} could not be built")
    return fresh


UNWRITABLE = (sqlite3.OperationalError, PermissionError, OSError, CacheUnwritable)
"""What writing an unwritable cache raises (read-only file, folder or file system)."""


def from_the_files(root: Path, why: BaseException) -> sqlite3.Connection:
    """A private cache of the files, built in the temporary folder (removed when the
    process ends), for when the live cache cannot be written."""
    import atexit
    import shutil
    import tempfile

    from memrepo.cache.build import build_into

    print(f"memrepo: the cache at {cache_path(root)} cannot be written "
          f"({type(why).__name__}: {why}); answering from the files (slower). To fix: "
          "make .memrepo writable, or run `memrepo doctor`", file=sys.stderr)
    directory = Path(tempfile.mkdtemp(prefix="memrepo-cache-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    build_into(root, directory / "cache.sqlite")
    conn = open_trusted(directory / "cache.sqlite")
    if conn is None:
        raise RuntimeError("a private cache could not be built")
    return conn


class CacheStatus(Record):
    __slots__ = ("commit", "current", "events", "exists", "holdings", "notes", "path")
    path: str
    exists: bool
    current: bool
    commit: str | None
    notes: int
    events: int
    holdings: int

    def __init__(self, path: str, exists: bool, current: bool, commit: str | None, notes: int,
                 events: int, holdings: int) -> None:
        init_field(self, "path", path)
        init_field(self, "exists", exists)
        init_field(self, "current", current)
        init_field(self, "commit", commit)
        init_field(self, "notes", notes)
        init_field(self, "events", events)
        init_field(self, "holdings", holdings)

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
