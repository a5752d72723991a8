"""Incremental sync: re-index only what changed since the cache was built.

Candidates = `git diff` between the commit the cache was built from and HEAD, plus the
files dirty now, plus the files that were dirty at the last sync (their indexed content
may differ from any commit). A candidate whose bytes hash to the blob id the cache
indexed is skipped. A log that only grew is read from its old size on; any other log
change re-reads that file. Timelines are recomputed only for the keys touched.
Missing or untrusted cache, an unknown base commit, a changed config or a very large
change → full rebuild.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cache import deferred
from memrepo.cache.db import (
    cache_path,
    memory_config,
    open_trusted,
    read_meta,
    require_fts5,
    write_meta,
)
from memrepo.cache.gitstate import ChangedQuery, DirtyQuery, KnownDirty, changed_between
from memrepo.cache.indexer import (
    Indexer,
    WorkTreeState,
    capture_state,
    no_cycle_collection,
    state_meta,
)
from memrepo.cache.judging import line_rules
from memrepo.cache.logsync import NeedsRebuild, NewEvents, store_digest, sync_log
from memrepo.cache.recompute import recompute, resolve_retracts
from memrepo.cache.rows import (
    UNFINISHED,
    Skipped,
    file_kind,
    unfinished_line,
)
from memrepo.cache.skipped import SkippedLine, last_skipped, skipped_after
from memrepo.cache.staleness import Lookup, dirty_at_last_sync, fingerprint
from memrepo.cache.terms import TermDeltas
from memrepo.core.facts.events import Key
from memrepo.core.facts.line_rules import LineRules
from memrepo.core.record_base import Record, init_field
from memrepo.core.text import PASSAGE_SPAN
from memrepo.files import blob_id, complete_lines, read_bytes

if TYPE_CHECKING:
    from memrepo.cache.build import BuildReport

REBUILD_SHARE = 0.25
"""A change touching more than this share of the indexed files is rebuilt from scratch."""
REBUILD_MIN_FILES = 2000


class SyncReport(Record, frozen=False):
    __slots__ = ("deferred", "keys", "left_out", "logs", "mode", "notes", "paths")
    mode: str  # fresh | incremental | rebuilt
    notes: int
    logs: int
    keys: int
    paths: list[str]
    left_out: list[SkippedLine]  # newly skipped (LEFT_OUT_SHOWN+1)
    deferred: bool  # keys left for later (memrepo.cache.deferred)

    def __init__(self, mode: str, notes: int = 0, logs: int = 0, keys: int = 0,
                 paths: list[str] | None = None, left_out: list[SkippedLine] | None = None,
                 deferred: bool = False) -> None:
        self.mode = mode
        self.notes = notes
        self.logs = logs
        self.keys = keys
        self.paths = [] if paths is None else paths
        self.left_out = [] if left_out is None else left_out
        self.deferred = deferred

    def describe(self, seconds: float) -> str:
        if self.mode == "fresh":
            return "cache is current"
        if self.mode == "rebuilt":
            return f"cache rebuilt in {seconds:.2f} s"
        return (f"cache synced: {self.notes} notes, {self.logs} logs, {self.keys} keys "
                f"re-indexed in {seconds:.2f} s")


def sync(root: Path, conn: sqlite3.Connection | None = None, *,
         force: bool = False, hook: bool = False, edited: Sequence[str] = (),
         changed: ChangedQuery | None = None, lookup: Lookup | None = None,
         ) -> SyncReport | None:
    """Bring the cache up to date with the work tree (builds it when there is none).

    Without `force` an unchanged fingerprint means "fresh"; with it (`memrepo cache sync`)
    git is asked what is dirty, so edits the fingerprint cannot see are found too
    (asked first: git works while the cache is opened and HEAD's changes are read).
    `hook` (after a checkout, merge or rewrite): what changed between commits, plus the
    files dirty at the last sync, without asking git what else is dirty. `edited`: files
    saved in place that the fingerprint cannot see (memrepo.cache.edits); they are
    re-indexed and watched as dirty from then on. `changed`: git's comparison of two
    commits, already under way (used when they are the cache's and HEAD). `lookup`: the
    keys the caller reads, when it reads nothing else (memrepo.cache.deferred: a large
    sync then leaves the rows of the other keys it touched for later); None makes any
    keys left for later.

    None when only a full build will do (no trusted cache, a changed config, a rewritten
    log): memrepo.cache.sync builds it, so a sync of a few lines imports none of the
    build's processes."""
    query = DirtyQuery(root) if force else None
    try:
        return _sync_trusted(root, conn, Asked(query, hook, edited, changed, lookup))
    finally:
        if query is not None:
            query.close()


class Asked(Record):
    """What a sync was asked to do (`sync`'s arguments)."""

    __slots__ = ("changed", "edited", "hook", "lookup", "query")
    query: DirtyQuery | None
    hook: bool
    edited: Sequence[str]
    changed: ChangedQuery | None
    lookup: Lookup | None

    def __init__(self, query: DirtyQuery | None, hook: bool, edited: Sequence[str],
                 changed: ChangedQuery | None, lookup: Lookup | None) -> None:
        init_field(self, "query", query)
        init_field(self, "hook", hook)
        init_field(self, "edited", edited)
        init_field(self, "changed", changed)
        init_field(self, "lookup", lookup)


def _sync_trusted(root: Path, conn: sqlite3.Connection | None, asked: Asked,
                  ) -> SyncReport | None:
    require_fts5()
    own = conn is None
    conn = conn or open_trusted(cache_path(root))
    if conn is None:
        return None
    try:
        return _sync_locked(root, conn, asked)
    except NeedsRebuild:
        return None
    finally:
        if own:
            conn.close()


def rebuilt(root: Path, report: BuildReport) -> SyncReport:
    """What a sync that had to rebuild reports."""
    return SyncReport("rebuilt", notes=report.notes, keys=report.holdings,
                      left_out=left_out_of(root))


def left_out_of(root: Path) -> list[SkippedLine]:
    """The first LEFT_OUT_SHOWN+1 notes and lines a fresh cache of `root` skips."""
    conn = open_trusted(cache_path(root))
    if conn is None:
        return []
    try:
        return skipped_after(conn, 0, LEFT_OUT_SHOWN + 1)
    finally:
        conn.close()


LEFT_OUT_SHOWN = 5
"""How many skipped notes and lines a sync names (doctor lists every one)."""


def _sync_locked(root: Path, conn: sqlite3.Connection, asked: Asked) -> SyncReport:
    conn.execute("BEGIN IMMEDIATE")  # one syncer at a time; the others then find it fresh
    try:
        report = _sync_in_transaction(root, conn, asked)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return report


def _sync_in_transaction(root: Path, conn: sqlite3.Connection, asked: Asked) -> SyncReport:
    """`asked.query`: forced (git is asked what is dirty); None: only when the fingerprint
    moved or files were `edited` in place."""
    query, hook, edited = asked.query, asked.hook, asked.edited
    meta = read_meta(conn)
    dirty_before = dirty_at_last_sync(meta)
    unmoved = fingerprint(root, dirty_before) == meta.get("fingerprint")
    if query is None and unmoved and not edited:
        if deferred.blocks(conn, asked.lookup):
            deferred.finish(conn, memory_config(conn, root))
        return SyncReport("fresh")
    known = query is None and (hook or unmoved)  # git moved HEAD, or only in-place saves
    state = capture_state(root, KnownDirty([*dirty_before, *edited]) if known else query)
    candidates = _candidates(root, meta.get("commit") or None, state, dirty_before,
                             asked.changed)
    if candidates is None or _too_many(conn, candidates[0]):
        raise NeedsRebuild
    paths, committed = candidates
    before = last_skipped(conn)
    moved = (meta.get("commit") or None) != state.commit
    # a line not committed is judged by its time against HEAD's: HEAD moved, judge again
    rejudged = Rejudged({*dirty_before, *state.dirty} if moved else set(), committed)
    with no_cycle_collection():
        deferred.finish(conn, memory_config(conn, root))  # before any event changes
        report = _apply(root, conn, paths, state.dirty, rejudged, asked.lookup)
    report.left_out = skipped_after(conn, before, LEFT_OUT_SHOWN + 1)
    write_meta(conn, state_meta(state))
    return report


def _candidates(root: Path, built: str | None, state: WorkTreeState,
                dirty_before: list[str], query: ChangedQuery | None,
                ) -> tuple[list[str], set[str]] | None:
    """(the files to look at, those of them whose committed content changed)."""
    paths = set(state.dirty) | set(dirty_before)
    changed: list[str] = []
    if built != state.commit:
        if built is None or state.commit is None:
            return None
        if query is not None and (query.old, query.new) == (built, state.commit):
            between = query.paths()
        else:
            between = changed_between(root, built, state.commit)
        if between is None:
            return None
        changed = between
        paths.update(changed)
    return sorted(p for p in paths if file_kind(p) is not None), set(changed)


class Rejudged(Record):
    """The dirty logs whose lines not committed are judged again because HEAD moved
    (`logs`), and the files whose committed content the move changed (`committed`): in
    such a log which lines are committed may have changed, so it is read whole; in any
    other only the window of its uncommitted lines' `recorded_at` moved, so it is read
    whole only when a verdict could change (`_verdicts_hold`)."""

    __slots__ = ("committed", "logs")
    logs: set[str]
    committed: set[str]

    def __init__(self, logs: set[str], committed: set[str]) -> None:
        init_field(self, "logs", logs)
        init_field(self, "committed", committed)

    def read_whole(self, conn: sqlite3.Connection, path: str, rules: LineRules) -> bool:
        if path not in self.logs:
            return False
        return path in self.committed or not _verdicts_hold(conn, path, rules)


def _verdicts_hold(conn: sqlite3.Connection, path: str, rules: LineRules) -> bool:
    """Whether the lines of a log whose committed content did not change keep their
    verdicts under `rules` (HEAD moved): every line it serves after its committed ones
    still lies inside the time window, and it leaves none of them out (a line refused
    for its time might now be taken; any other is judged again too, to be safe)."""
    first = rules.first_new.get(path)
    if first is None:  # every line committed, as before the move
        return True
    if rules.earliest is not None and conn.execute(
            "SELECT 1 FROM events WHERE path = ? AND line >= ? AND recorded_at < ? LIMIT 1",
            (path, first, rules.earliest.at)).fetchone() is not None:
        return False
    return conn.execute("SELECT 1 FROM skipped WHERE path = ? AND line >= ? AND reason != ? "
                        "LIMIT 1", (path, first, UNFINISHED)).fetchone() is None


def _too_many(conn: sqlite3.Connection, paths: list[str]) -> bool:
    if len(paths) <= REBUILD_MIN_FILES:
        return False
    indexed = conn.execute("SELECT count(*) FROM files").fetchone()[0]
    return len(paths) > REBUILD_SHARE * int(indexed)


def _apply(root: Path, conn: sqlite3.Connection, paths: list[str], dirty: list[str],
           rejudged: Rejudged, lookup: Lookup | None) -> SyncReport:
    """Re-index `paths`; a log `rejudged` reads whole is read whole even when its bytes
    are the ones indexed (whether its lines are committed, or the time window of those
    not committed, has changed). `lookup`: what the caller reads, when it reads only some
    keys (the rows of many other keys are then left for later: memrepo.cache.deferred)."""
    terms = TermDeltas()
    # A changed config raises NeedsRebuild below, so the one the cache was built with holds.
    config = memory_config(conn, root)
    indexer = Indexer(conn, config, terms)
    rules: LineRules | None = None
    report = SyncReport("incremental")
    touched: set[Key] = set()
    added: NewEvents = {}  # the asserts and ends stored, by folded key, in row order
    logs: list[str] = []  # logs whose digest is computed from their rows
    for path in paths:
        kind = file_kind(path)
        data = read_bytes(root, path)
        stored = conn.execute("SELECT blob, size FROM files WHERE path = ?",
                              (path,)).fetchone()
        unfinished = None
        if kind == "log" and data is not None:
            unfinished, data = unfinished_line(data), complete_lines(data)
        if kind == "log" and path in rejudged.logs and data is not None:
            rules = rules or line_rules(root, config, dirty)
            if rejudged.read_whole(conn, path, rules):
                stored = None
        if _unchanged(data, stored):
            if kind == "log":
                _list_unfinished(conn, indexer, path, unfinished)
            continue
        report.paths.append(path)
        if kind == "config":
            raise NeedsRebuild  # cardinality or precedence may have changed everywhere
        if kind == "note":
            _sync_note(conn, indexer, terms, path, data)
            report.notes += 1
        else:
            rules = rules or line_rules(root, config, dirty)
            synced = sync_log(conn, indexer, path, data, stored, rules)
            _list_unfinished(conn, indexer, path, unfinished)
            touched |= synced.keys
            _join_added(added, synced.added)
            report.logs += 1
            if not synced.digested:
                logs.append(path)
    indexer.flush()
    for path in logs:
        store_digest(conn, path)
    resolved = resolve_retracts(conn)  # their keys' rows are read back with the retracts
    touched |= resolved
    now, later = deferred.split(touched, lookup)
    deferred.defer(conn, later)
    report.deferred = bool(later)
    for key in resolved:
        added.pop(key, None)
    recompute(conn, indexer, terms, now, (added, indexer.first_event_rowid))
    terms.apply(conn)
    report.keys = len(touched)
    return report


def _join_added(added: NewEvents, more: NewEvents) -> None:
    """`more` (a log synced later: rows after `added`'s) joined into `added`."""
    if not added:
        added.update(more)
        return
    for key, events in more.items():
        added.setdefault(key, []).extend(events)


def _list_unfinished(conn: sqlite3.Connection, indexer: Indexer, path: str,
                     unfinished: Skipped | None) -> None:
    """Keep the log's `skipped` row of its unfinished last line up to date; a row that
    still says the same is kept as it is (the query that added it has said so)."""
    listed = conn.execute("SELECT line FROM skipped WHERE path = ? AND reason = ?",
                          (path, UNFINISHED)).fetchall()
    if unfinished is not None and listed == [(unfinished[0],)]:
        return
    conn.execute("DELETE FROM skipped WHERE path = ? AND reason = ?", (path, UNFINISHED))
    if unfinished is not None:
        indexer.add_skipped(path, [unfinished])


def _unchanged(data: bytes | None, stored: tuple[str, int] | None) -> bool:
    if data is None or stored is None:
        return data is None and stored is None
    return len(data) == stored[1] and blob_id(data) == stored[0]  # no hash of a grown log


def _sync_note(conn: sqlite3.Connection, indexer: Indexer, terms: TermDeltas, path: str,
               data: bytes | None) -> None:
    rowids = [rowid for (rowid,) in conn.execute("SELECT rowid FROM notes WHERE path = ?",
                                                 (path,))]
    terms.remove_rows(conn, "notes_fts", rowids)
    conn.executemany("DELETE FROM passages_fts WHERE rowid >= ? AND rowid < ?",
                     [(rowid * PASSAGE_SPAN, (rowid + 1) * PASSAGE_SPAN) for rowid in rowids])
    for table, column in (("notes", "path"), ("aliases", "path"), ("links", "source"),
                          ("files", "path"), ("skipped", "path")):
        conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (path,))
    if data is not None:
        indexer.add_note(path, data)
