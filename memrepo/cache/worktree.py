"""Which notes and fact logs the cache reads from the work tree."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from memrepo.core.config import CATEGORIES
from memrepo.core.facts.segment_names import is_log_path
from memrepo.core.notes.headers import INDEX_NAME


def note_paths(root: Path) -> Iterator[str]:
    """memory/<category>/<name>.md for every note (INDEX.md and the archive excluded)."""
    for category in CATEGORIES:
        for name in _file_names(root / "memory" / category):
            if name.endswith(".md") and name != INDEX_NAME:
                yield f"memory/{category}/{name}"


def log_paths_by_scope(root: Path) -> dict[str, list[str]]:
    """Every well-formed log path, grouped by scope."""
    scopes: dict[str, list[str]] = {}
    facts = root / "memory" / "facts"
    for scope in _dir_names(facts):
        paths = [f"memory/facts/{scope}/{name}" for name in _file_names(facts / scope)]
        logs = [p for p in paths if is_log_path(p)]
        if logs:
            scopes[scope] = logs
    return scopes


def _file_names(directory: Path) -> list[str]:
    try:
        with os.scandir(directory) as entries:
            return sorted(e.name for e in entries if e.is_file(follow_symlinks=False))
    except OSError:
        return []


def _dir_names(directory: Path) -> list[str]:
    try:
        with os.scandir(directory) as entries:
            return sorted(e.name for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return []
