"""Edits saved in any editor (issue 13 item 5): what git's own stat data says moved.

An editor that saves in place (same inode; the folder's mtime unchanged) or a line
appended to a log by hand changes only that file's stat, which the cheap fingerprint
(memrepo.cache.staleness) does not look at. `git diff-files` compares every tracked file's
stat with the one git's index keeps (racily clean entries by content), with git's own
speed-ups (threaded stat, `core.fsmonitor` where configured): ≈0.13 s at 100k notes, run in
the background while the query process imports and opens the cache.

A reported file counts as edited when its bytes differ from what the cache indexed (a
`touch` or a copy changes the stat, not the content). Files that were already dirty at the
last sync are left to the fingerprint, which watches their stat itself.

Query processes (the CLI's recall, search, context, history) start the scan right after
finding the repository (`query_root`); a long-lived reader (`CacheSession`: the API, the
MCP server) scans at most once per `SCAN_EVERY` seconds.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cache.db import read_meta
from memrepo.cache.gitstate import MEMORY
from memrepo.cache.staleness import dirty_at_last_sync
from memrepo.git.command import start_git

if TYPE_CHECKING:
    import subprocess

SCAN_EVERY = 1.0
"""A long-lived reader's queries see saves made at least this many seconds before them (a
scan costs ≈0.13 s at 100k notes; memrepo.cache.session runs them ahead of time)."""

HINT_AFTER = 1000
"""More files than this reported by git but unchanged: say how to refresh git's index (a
query never writes it: a person's `git commit` would find it locked)."""

_started: dict[Path, EditScan] = {}


class EditScan:
    """`git diff-files --name-only -z -- memory/`, answered by `paths()`."""

    def __init__(self, root: Path, *, beside_queries: bool = False) -> None:
        # beside queries: one thread (git's threaded stat would take every core from them)
        one = ("-c", "core.preloadIndex=false") if beside_queries else ()
        self._process: subprocess.Popen[bytes] | None = start_git(
            root, *one, "diff-files", "--name-only", "-z", "--", MEMORY)
        self._answer: list[str] | None = None

    def finished(self) -> bool:
        """git has answered (`paths()` will not wait)."""
        return self._process is None or self._process.poll() is not None

    def paths(self) -> list[str] | None:
        """Tracked paths under memory/ whose stat moved; None when git could not tell."""
        process = self._process
        if process is not None:
            out, _ = process.communicate()
            self._process = None
            if process.returncode == 0:
                self._answer = [p for p in out.decode("utf-8", "surrogateescape").split("\0")
                                if p]
        return self._answer


def query_root(repo: str | None) -> Path:
    """The repository a query command works on (memrepo.repo_root.find_root), its scan
    started now, before the query code is imported: the next `take_scan` gets it."""
    from memrepo.repo_root import find_root

    root = find_root(repo)
    _started[root] = EditScan(root)
    return root


def take_scan(root: Path) -> EditScan:
    """The scan started for `root` earlier in this process, else one started now."""
    return _started.pop(root, None) or EditScan(root)


def saved_in_place(conn: sqlite3.Connection | None, root: Path, scan: EditScan,
                   ) -> list[str]:
    """The files `scan` reports whose content differs from what the cache indexed (files
    already dirty at the last sync excluded: the fingerprint watches those); none without
    a cache (it is about to be built from the files)."""
    reported = scan.paths()
    if not reported or conn is None:
        return []
    from memrepo.files import blob_id, read_bytes

    watched = set(dirty_at_last_sync(read_meta(conn)))
    edited, unchanged = [], 0
    for path in reported:
        row = conn.execute("SELECT kind, blob FROM files WHERE path = ?", (path,)).fetchone()
        kind = row[0] if row is not None else _kind_of(path)
        if kind is None or path in watched:
            continue
        data = read_bytes(root, path)
        if data is not None and kind == "log" and not data.endswith(b"\n") and data:
            edited.append(path)  # an unfinished last line: the sync lists it (once)
            continue
        if (None if data is None else blob_id(data)) != (None if row is None else row[1]):
            edited.append(path)
        else:
            unchanged += 1
    if unchanged > HINT_AFTER:
        print(f"memrepo: git's index has outdated stat data for {unchanged} unchanged files "
              "under memory/ (copied or touched?), so every query re-reads them. To fix: "
              f"git -C {root} update-index -q --refresh", file=sys.stderr)
    return sorted(edited)


def _kind_of(path: str) -> str | None:
    """What a file the cache does not hold yet would be (the cache's parsers are imported
    only then: a racily clean log reported after every library write needs none)."""
    from memrepo.cache.rows import file_kind

    return file_kind(path)
