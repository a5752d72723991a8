"""Full build: read every note and log of the work tree into a NEW cache file, then swap
it in atomically (os.replace), so a reader never sees a half-built cache.

Fast path: no journal and no fsync while building (the file is private until the swap),
rows streamed per scope into batched `executemany`, indexes created after the load; on 2
processes for a large memory (the notes on one, the logs on the other, each into its own
file, joined by copying whole tables; the keys' search documents go to the notes' file,
folded by whichever process is free: memrepo.cache.handoff).
"""

from __future__ import annotations

import os
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from memrepo.cache.db import (
    CONFIG_META,
    CacheUnwritable,
    cache_path,
    config_meta,
    connect,
    require_cache_file,
    require_fts5,
    schema_sql,
    schema_version,
    write_meta,
)
from memrepo.cache.handoff import KeyHandoff
from memrepo.cache.indexer import Indexer, capture_state, no_cycle_collection, state_meta
from memrepo.cache.judging import line_rules
from memrepo.cache.parts import (
    PARALLEL_MIN_FILES,
    Job,
    build_jobs,
    by_kind,
    job_files,
    parse_part,
)
from memrepo.cache.terms import fill_terms
from memrepo.cache.writer import INSERT
from memrepo.core.config import CONFIG_PATH, Config, config_from_bytes
from memrepo.core.facts.line_rules import LineRules
from memrepo.core.problems import Problem
from memrepo.files import blob_id, read_bytes
from memrepo.progress import Steps, task


@dataclass(frozen=True, slots=True)
class BuildReport:
    notes: int
    events: int
    holdings: int

    def describe(self, seconds: float) -> str:
        return (f"cache rebuilt: {self.notes} notes, {self.events} fact events, "
                f"{self.holdings} holdings in {seconds:.2f} s")


def rebuild(root: Path, workers: int | None = None) -> BuildReport:
    """Build the whole cache from the work tree and swap it in."""
    require_fts5()
    target = cache_path(root)
    require_cache_file(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with built_aside(root, workers) as (built, report):
            swap_in(root, built)
    except sqlite3.OperationalError as err:  # a full disk, a read-only file system
        raise CacheUnwritable(Problem(str(target), f"the cache cannot be written ({err})",
                                 "free space there or make .memrepo writable; queries "
                                 "still answer from the files")) from None
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
    """Build a complete cache of `root` into the (new, empty) file `path`. With 2 `workers`
    (default: for a large memory on 2 CPUs or more) the notes are loaded on another process
    into a file of their own, while this one loads the logs into `path`; the notes' tables
    are then copied in."""
    state = capture_state(root)
    config_bytes = read_bytes(root, CONFIG_PATH)
    config, _ = config_from_bytes(config_bytes)  # broken: the defaults; hooks report it
    rules = line_rules(root, config, state.dirty)
    jobs = build_jobs(root)
    if workers is None:
        workers = default_workers(job_files(jobs))
    notes_file = path.with_name(f"{path.stem}.notes{path.suffix}")  # <pid>.notes.tmp
    notes_file.unlink(missing_ok=True)
    try:
        with task("Building the cache: notes and logs", total=len(jobs)) as steps:
            counts = _load_sides(root, path, notes_file, jobs, config, rules, workers,
                                 steps)
        conn = connect(path)
        try:
            if notes_file.exists():
                join_into(conn, notes_file)
            conn.execute("BEGIN")
            if config_bytes is not None:
                conn.execute(INSERT["files"], (CONFIG_PATH, "config", blob_id(config_bytes),
                                               len(config_bytes)))
            write_meta(conn, {**state_meta(state), "schema": schema_version(),
                              "complete": "1", CONFIG_META: config_meta(config)})
            conn.execute("COMMIT")
        finally:
            conn.close()
    finally:
        notes_file.unlink(missing_ok=True)
    return BuildReport(counts["notes"], counts["events"], counts["holdings"])


def _load_sides(root: Path, path: Path, notes_file: Path, jobs: list[Job], config: Config,
                rules: LineRules, workers: int, steps: Steps) -> Counter[str]:
    if workers <= 1:
        return load_side(root, path, jobs, config, rules, steps)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    notes_jobs, log_jobs = by_kind(jobs)
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    handoff = KeyHandoff(context)
    with ProcessPoolExecutor(1, mp_context=context, initializer=_start_notes_process,
                             initargs=(os.getpid(), handoff)) as pool:
        notes = pool.submit(_load_notes_side, root, notes_file, notes_jobs, config)
        try:
            counts = load_side(root, path, log_jobs, config, rules, steps, keys_to=handoff)
        finally:
            handoff.close()  # the notes' process stops waiting even if the logs failed
        counts.update(notes.result())
    steps.advance(len(notes_jobs))
    return counts


_NOTES_PROCESS: list[KeyHandoff] = []
"""The handoff the notes' process inherited when it started (`_start_notes_process`)."""


def _start_notes_process(parent: int, handoff: KeyHandoff) -> None:
    _NOTES_PROCESS.append(handoff)
    _exit_with_parent(parent)


def _load_notes_side(root: Path, path: Path, jobs: list[Job], config: Config,
                     ) -> Counter[str]:
    return load_side(root, path, jobs, config, None, keys_from=_NOTES_PROCESS[-1])


def _exit_with_parent(parent: int) -> None:
    """The notes' worker ends when the rebuild that started it is gone (killed with -9: the
    worker would otherwise finish its side, then wait forever for its next job)."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="memrepo-parent-watch").start()


def load_side(root: Path, path: Path, jobs: list[Job], config: Config,
              rules: LineRules | None, steps: Steps | None = None, *,
              keys_to: KeyHandoff | None = None,
              keys_from: KeyHandoff | None = None) -> Counter[str]:
    """A cache file with the rows of `jobs` only (every table, its full-text segments
    merged, its term counts and its indexes; no meta): the row counts per table.
    `keys_to`: where the keys' search documents go instead (memrepo.cache.handoff), closed
    once the last part is parsed; `keys_from`: documents to add once `jobs` are loaded.
    `rules`: what log lines are judged by (None: `jobs` are notes only)."""
    conn = connect(path)
    try:
        with no_cycle_collection():
            conn.execute("PRAGMA journal_mode = OFF")
            conn.execute("PRAGMA synchronous = OFF")
            conn.execute("PRAGMA cache_size = -200000")
            tables, indexes = schema_sql()
            conn.executescript(tables)
            conn.execute("BEGIN")
            _postings_in_memory(conn, BUILD_POSTINGS_BYTES)
            indexer = Indexer(conn, config,
                              send_key_documents=None if keys_to is None else keys_to.send)
            for job in jobs:
                indexer.add_part(parse_part(root, job, config.many_valued_relations, rules))
                if steps is not None:
                    steps.advance()
            if keys_to is not None:
                keys_to.close()
            if keys_from is not None:
                keys_from.receive(indexer)
            indexer.flush()
            fill_terms(conn)
            _postings_in_memory(conn, SQLITE_POSTINGS_BYTES)
            conn.executescript(indexes)  # executescript commits first, then indexes
            return Counter(indexer.batch.counts)
    finally:
        conn.close()


BUILD_POSTINGS_BYTES = 64 << 20
"""Postings a full-text table gathers in memory before it writes them as a segment, while
a build loads (FTS5's `hashsize`): fewer, larger segments to write and merge — 45% less
CPU inserting and merging the notes' full text at 20k notes."""
SQLITE_POSTINGS_BYTES = 1 << 20
"""FTS5's default, set back once the rows are loaded: what a sync's small writes use."""


def _postings_in_memory(conn: sqlite3.Connection, size: int) -> None:
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE sql LIKE "
                                 "'CREATE VIRTUAL TABLE % USING fts5(%'").fetchall():
        with suppress(sqlite3.OperationalError):  # an SQLite without it: only slower
            conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('hashsize', ?)",
                         (size,))


def join_into(conn: sqlite3.Connection, side: Path) -> None:
    """Copy every row of the cache file `side` into `conn`'s, where its tables are empty
    (but `files`). Each table is copied whole — a full-text table as its shadow tables,
    index segments included — so SQLite moves records without parsing or re-indexing them
    (its transfer optimisation: same schema, empty destination)."""
    conn.execute("ATTACH DATABASE ? AS side", (str(side),))
    conn.execute("BEGIN")
    for table in _copied_tables(conn):
        conn.execute(f"DELETE FROM main.{table}")  # an empty full-text table's records
        conn.execute(f"INSERT INTO main.{table} SELECT * FROM side.{table}")
    conn.execute("INSERT INTO main.files SELECT * FROM side.files")
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE side")


def _copied_tables(conn: sqlite3.Connection) -> list[str]:
    """The side's ordinary tables that hold rows, a full-text table's five shadow tables
    when it holds documents; `files` (filled on both sides) and `meta` are not among
    them."""
    names = [name for (name,) in conn.execute(
        "SELECT name FROM side.sqlite_master WHERE type = 'table' AND sql NOT LIKE "
        "'CREATE VIRTUAL%' AND name NOT IN ('files', 'meta') ORDER BY name")]
    full_text = {name for (name,) in conn.execute(
        "SELECT name FROM side.sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE % USING "
        "fts5(%'")}
    copied = []
    for name in names:
        owner = name.rsplit("_", 1)[0]
        probe = f"{owner}_docsize" if owner in full_text else name
        if conn.execute(f"SELECT 1 FROM side.{probe} LIMIT 1").fetchone() is not None:
            copied.append(name)
    return copied


def default_workers(files: int) -> int:
    if files < PARALLEL_MIN_FILES:
        return 1
    return min(2, os.cpu_count() or 1)
