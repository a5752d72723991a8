"""A key's events for a write (SPEC §4, §10), from the cache's indexed rows wherever the
cache holds a log as it is now, from a byte scan (`segments.read_key_in`) of the others:
the cost of a write does not grow with the month it writes to (a scan of every segment of
the scope cost 15 ms at 20k lines).

A log's rows are trusted when the working file is a regular file exactly as long as the
content the cache indexed, and that content is HEAD's blob — or the log was dirty at the
cache's last sync (the cache's fingerprint watches such a file's size, times and inode,
and `open_fresh` re-indexed it if they moved). Every other log of the scope — lines
appended by hand, a segment the cache has not indexed, a symbolic link — is scanned and
judged line by line as before: a bad line there refuses the write.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cache.db import read_meta
from memrepo.cache.query import indexed_logs, key_event_rows, retracts_of
from memrepo.cache.staleness import dirty_at_last_sync
from memrepo.core.facts.events import Event
from memrepo.facts.segments import Found, read_key_in, segment_paths
from memrepo.git import write as gitw

if TYPE_CHECKING:
    from memrepo.cache import Connection


def key_events(root: Path, conn: Connection, scope: str, key: tuple[str, str],
               spellings: Callable[[], Sequence[str]]) -> list[Event]:
    """The events of `key` (compared folded) in the scope's working logs, with the
    retracts that target them: its asserts and ends first, then the retracts, each group
    in the order of the logs and their lines (what `segments.read_key` gives). `conn`: a
    cache synced with HEAD (`open_fresh`); `spellings`: the subject's spellings to scan
    the untrusted logs for, asked only when there are some."""
    paths = segment_paths(root, scope)
    trusted = _trusted(root, conn, scope, paths)
    cached = [row for row in key_event_rows(conn, scope, *key) if row[0] in trusted]
    scanned: list[Found] = []
    untrusted = [path for path in paths if path not in trusted]
    if untrusted:
        own = [event.id for _, _, event in cached if event.op != "retract"]
        scanned = read_key_in(root, scope, untrusted, *key, spellings(), own)
        found = [event.id for _, _, event in scanned if event.op != "retract"]
        seen = {(path, line) for path, line, _ in cached}
        cached += [row for row in (retracts_of(conn, scope, found) if found else [])
                   if row[0] in trusted and (row[0], row[1]) not in seen]
    order = {path: number for number, path in enumerate(paths)}
    ordered = sorted([*cached, *scanned],
                     key=lambda row: (row[2].op == "retract", order[row[0]], row[1]))
    return [event for _, _, event in ordered]


def _trusted(root: Path, conn: Connection, scope: str, paths: Sequence[str]) -> set[str]:
    """The logs at `paths` whose rows in the cache are the working file's lines."""
    indexed = indexed_logs(conn, scope)
    dirty = set(dirty_at_last_sync(read_meta(conn)))
    base = gitw.head_base(gitw.open_repo(root))
    trusted = set()
    for path in paths:
        row = indexed.get(path)
        if row is None:
            continue
        try:
            info = os.lstat(root / path)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_size != row[1]:
            continue
        head = gitw.blob_id_at(base, path)
        if path in dirty or (head is not None and head.hex() == row[0]):
            trusted.add(path)
    return trusted
