"""Full build: read every note and log of the work tree into a NEW cache file, then swap
it in atomically (os.replace), so a reader never sees a half-built cache.

Fast path: no journal and no fsync while building (the file is private until the swap),
rows streamed per scope into batched `executemany`, indexes created after the load.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import orjson

from memrepo.cache.db import (
    cache_path,
    connect,
    require_fts5,
    schema_sql,
    schema_version,
    write_meta,
)
from memrepo.cache.gitstate import DirtyQuery, KnownDirty, head_commit
from memrepo.cache.indexer import Indexer
from memrepo.cache.parts import PARALLEL_MIN_FILES, build_jobs, job_files, parsed_parts
from memrepo.cache.staleness import fingerprint
from memrepo.cache.terms import fill_terms
from memrepo.checks.config import config_from_bytes
from memrepo.core.config import CONFIG_PATH
from memrepo.files import read_bytes
from memrepo.progress import task


@dataclass(frozen=True, slots=True)
class BuildReport:
    notes: int
    events: int
    holdings: int

    def describe(self, seconds: float) -> str:
        return (f"cache rebuilt: {self.notes} notes, {self.events} fact events, "
                f"{self.holdings} holdings in {seconds:.2f} s")


@dataclass(frozen=True, slots=True)
class WorkTreeState:
    """What the cache is built from, captured BEFORE reading any file: a change made
    while reading then shows up as a different fingerprint at the next query."""

    commit: str | None
    dirty: list[str]
    fingerprint: str


def capture_state(root: Path, query: DirtyQuery | KnownDirty | None = None,
                  ) -> WorkTreeState:
    """`query`: a dirty query started earlier (it runs while the caller does other work)."""
    commit = head_commit(root)
    dirty = (query or DirtyQuery(root)).paths()
    return WorkTreeState(commit, dirty, fingerprint(root, dirty))


def state_meta(state: WorkTreeState) -> dict[str, str]:
    return {"commit": state.commit or "", "dirty": orjson.dumps(state.dirty).decode(),
            "fingerprint": state.fingerprint}


def rebuild(root: Path, workers: int | None = None) -> BuildReport:
    """Build the whole cache from the work tree and swap it in."""
    from memrepo.cache import require_cache_file

    require_fts5()
    target = cache_path(root)
    require_cache_file(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with built_aside(root, workers) as (built, report):
        swap_in(root, built)
    return report


@contextmanager
def built_aside(root: Path, workers: int | None = None,
                ) -> Iterator[tuple[Path, BuildReport]]:
    """A complete cache of the files built now into a temporary file beside the live one
    (removed on exit unless `swap_in` made it the live one)."""
    target = cache_path(root)
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    try:
        yield temporary, build_into(root, temporary, workers)
    finally:
        temporary.unlink(missing_ok=True)


def swap_in(root: Path, built: Path) -> None:
    """Make the complete cache file `built` the live one, atomically."""
    target = cache_path(root)
    # A rollback journal left by a killed sync belongs to the file being replaced;
    # left in place, SQLite would roll it back into the new file.
    Path(f"{target}-journal").unlink(missing_ok=True)
    os.replace(built, target)


def build_into(root: Path, path: Path, workers: int | None = None) -> BuildReport:
    """Build a complete cache of `root` into the (new, empty) file `path`; files are parsed
    on `workers` processes (default: one per CPU, up to 2, for a large memory)."""
    state = capture_state(root)
    conn = connect(path)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -200000")
        tables, indexes = schema_sql()
        conn.executescript(tables)
        conn.execute("BEGIN")
        report = _load(root, conn, workers)
        with task("Building the cache: terms and indexes"):
            fill_terms(conn)
            conn.executescript(indexes)  # executescript commits first, then indexes
        conn.execute("BEGIN")
        write_meta(conn, {**state_meta(state), "schema": schema_version(), "complete": "1"})
        conn.execute("COMMIT")
        return report
    finally:
        conn.close()


def _load(root: Path, conn: sqlite3.Connection, workers: int | None) -> BuildReport:
    config_bytes = read_bytes(root, CONFIG_PATH)
    config, _ = config_from_bytes(config_bytes)  # broken: the defaults; hooks report it
    indexer = Indexer(conn, config)
    if config_bytes is not None:
        indexer.add_file(CONFIG_PATH, "config", config_bytes)
    jobs = build_jobs(root)
    if workers is None:
        workers = default_workers(job_files(jobs))
    with task("Building the cache: notes and logs", total=len(jobs)) as steps:
        for part in parsed_parts(root, jobs, config.many_valued_relations, workers):
            indexer.add_part(part)
            steps.advance()
        indexer.flush()
    counts = indexer.batch.counts
    return BuildReport(counts["notes"], counts["events"], counts["holdings"])


def default_workers(files: int) -> int:
    if files < PARALLEL_MIN_FILES:
        return 1
    return min(2, os.cpu_count() or 1)
