"""Is the cache stale? A cheap fingerprint of what the cache was built from.

Compared before every query; when it differs, the query runs an incremental sync first.

Noticed (part of the fingerprint):
- a new HEAD commit (commit, checkout, merge, rebase, reset, pull) — read from .git;
- staging (`git add`/`rm`): the mtime and size of .git/index;
- notes added, deleted or renamed, and edits saved the usual editor way (write a new
  file, rename it over the old one): the mtimes of memory/, memory/<category>/ and
  memory/facts/ (a new scope) and of each scope's folder (a new log);
- any change to memory/config.yaml: its size, mtime, ctime and inode;
- further edits of files that were already dirty at the last sync: their size, mtime,
  ctime and inode.

An edit written in place (same inode, e.g. `echo >> note.md`, or an editor that
overwrites) into a note or fact log that was clean at the last sync moves none of these:
memrepo.cache.edits asks git for those (`git diff-files`, once per query process, at most
once a second in a long-lived one). Files in the archive are never indexed. memrepo's own
writes commit, which moves HEAD. The fingerprint costs a dozen stat calls whatever the
size of the memory (≈0.1 ms), so every query makes it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from memrepo.cache.db import read_meta
from memrepo.cache.gitstate import head_commit, index_file


def fingerprint(root: Path, dirty: Iterable[str]) -> str:
    """One hash over HEAD and the stats listed in the module docstring."""
    import hashlib  # here: importing memrepo.cache stays light (see there)

    from memrepo.core.config import CATEGORIES, CONFIG_PATH

    parts = [head_commit(root) or "-", _stat(index_file(root)), _stat(root / CONFIG_PATH)]
    memory = root / "memory"
    parts.extend(_stat(memory / sub) for sub in ("", *CATEGORIES, "facts"))
    parts.extend(_stat(scope) for scope in _scope_folders(memory / "facts"))
    parts.extend(f"{path}:{_stat(root / path)}" for path in sorted(dirty))
    return hashlib.sha1("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _scope_folders(facts: Path) -> list[Path]:
    """Each scope's folder of fact logs: a log created there (a new month's, by hand)
    moves its mtime."""
    try:
        with os.scandir(facts) as entries:
            return sorted(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def _stat(path: Path | None) -> str:
    if path is None:
        return "-"
    try:
        info = path.stat()
    except OSError:
        return "-"
    # ctime too: a tool that rewrites a file in place and puts its mtime back (`touch -d`,
    # `cp -p`, `rsync -t`) cannot set it
    return f"{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}:{info.st_size}"


def is_stale(conn: sqlite3.Connection, root: Path, lookup: Lookup | None = None) -> bool:
    """Does the work tree's fingerprint differ from the one the cache was built for — or
    are rows the reader may read still to be made (`keys_left`)? `lookup`: what a reader
    that only looks keys up reads (None: anything)."""
    if keys_left(conn, lookup):
        return True
    meta = read_meta(conn)
    return fingerprint(root, dirty_at_last_sync(meta)) != meta.get("fingerprint")


Lookup = tuple[str, str | None]
"""What a reader that only looks keys up reads: the keys of a subject with a relation, or
with any relation (None), folded (memrepo.core.text.key_slug), in any scope."""


def keys_left(conn: sqlite3.Connection, lookup: Lookup | None) -> bool:
    """Whether a sync left the rows of keys the reader may read for later
    (memrepo.cache.deferred): of any key, for a reader that may read anything. The table
    that lists them exists only while it lists some."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                    "'pending_keys'").fetchone() is None:
        return False
    if lookup is None:
        row = conn.execute("SELECT 1 FROM pending_keys LIMIT 1").fetchone()
    elif lookup[1] is None:
        row = conn.execute("SELECT 1 FROM pending_keys WHERE subject_key = ? LIMIT 1",
                           (lookup[0],)).fetchone()
    else:
        row = conn.execute("SELECT 1 FROM pending_keys WHERE subject_key = ? AND "
                           "relation_key = ? LIMIT 1", lookup).fetchone()
    return row is not None


def dirty_at_last_sync(meta: dict[str, str]) -> list[str]:
    """The files that were dirty when the cache last synced (kept in its meta table; a
    small document, read with the standard json module: no orjson import for a query)."""
    try:
        dirty = json.loads(meta.get("dirty", "[]"))
    except ValueError:
        return []
    return [p for p in dirty if isinstance(p, str)] if isinstance(dirty, list) else []
