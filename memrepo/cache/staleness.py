"""Is the cache stale? A cheap fingerprint of what the cache was built from.

Compared before every query; when it differs, the query runs an incremental sync first.

Noticed (part of the fingerprint):
- a new HEAD commit (commit, checkout, merge, rebase, reset, pull) — read from .git;
- staging (`git add`/`rm`): the mtime and size of .git/index;
- notes added, deleted or renamed, and edits saved the usual editor way (write a new
  file, rename it over the old one): the mtimes of memory/, memory/<category>/,
  memory/facts/ and memory/facts/<scope>/;
- any change to a fact log or memory/config.yaml, in place or not: their size and mtime;
- further edits of files that were already dirty at the last sync: their size and mtime.

Not noticed until one of the above happens (or `memrepo cache sync`): an edit written in
place (same inode, e.g. `echo >> note.md` or an editor configured to overwrite) into a
note that was clean at the last sync; files in the archive (never indexed).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from memrepo.cache.gitstate import head_commit, index_file
from memrepo.core.config import CATEGORIES, CONFIG_PATH


def fingerprint(root: Path, dirty: Iterable[str]) -> str:
    """One hash over HEAD and the stats listed in the module docstring."""
    parts = [head_commit(root) or "-", _stat(index_file(root)), _stat(root / CONFIG_PATH)]
    memory = root / "memory"
    parts.extend(_stat(memory / sub) for sub in ("", *CATEGORIES, "facts"))
    parts.extend(_facts_stats(memory / "facts"))
    parts.extend(f"{path}:{_stat(root / path)}" for path in sorted(dirty))
    return hashlib.sha1("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _facts_stats(facts: Path) -> list[str]:
    stats: list[str] = []
    for scope in _sorted_entries(facts):
        if not scope.is_dir(follow_symlinks=False):
            continue
        stats.append(f"{scope.name}/:{_entry_stat(scope)}")
        stats.extend(f"{scope.name}/{log.name}:{_entry_stat(log)}"
                     for log in _sorted_entries(Path(scope.path)))
    return stats


def _sorted_entries(directory: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(directory) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError:
        return []


def _entry_stat(entry: os.DirEntry[str]) -> str:
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return "-"
    return f"{info.st_mtime_ns}:{info.st_size}"


def _stat(path: Path | None) -> str:
    if path is None:
        return "-"
    try:
        info = path.stat()
    except OSError:
        return "-"
    return f"{info.st_mtime_ns}:{info.st_size}"
