"""Does the cache say what the files say? (`memrepo doctor`; SPEC §7: the cache is derived
data, and no query may serve what the files do not hold.)

- `skipped_lines` (memrepo.cache.skipped): the log lines the cache left out because the
  checks refuse them (a line committed with `--no-verify`): too long, out of range,
  control characters, a repeated id; and the notes it left out because they do not parse
  (a header broken in an editor).
- `edited_logs` (cheap, the default): logs whose event rows no longer give the digest
  recorded when they were indexed — one pass over the events table, no file parsed.
  Catches rows edited behind memrepo's back (an `UPDATE events …`), rows lost or added,
  and holdings whose value differs from their event; not a tamperer who also rewrites the
  digest table.
- the default audit (`skipped_lines` and `edited_logs`) is not run again while the cache
  file and its recorded sync state are those of the last clean audit
  (memrepo.cache.audit_memo, which says why that is safe): doctor reports it "unchanged
  since the clean audit at <time>"; `full` audits anyway.
- `deep_differences` (`doctor --deep`): builds a fresh cache from the files into a
  temporary file with the build's own code and compares every table with the live one;
  catches any difference, at the cost of a full build. The fresh file can then be
  swapped in (`--repair`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from memrepo.cache import audit_memo
from memrepo.cache.db import cache_path, database_file, open_trusted, read_only
from memrepo.cache.digests import (
    EMPTY,
    SIGNATURE_COLUMNS,
    encoded_digest,
    rows_digest,
    table_signatures,
)
from memrepo.cache.skipped import SkippedLine, skipped_lines
from memrepo.cache.staleness import is_stale

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Audited:
    """What the default audit finds: the lines and notes left out, the logs whose rows
    are not the ones indexed (`edited`). `clean_at`: when the cache was last audited and
    found clean — this audit, or (`remembered`) the earlier one this result stands on, the
    cache being unchanged since (memrepo.cache.audit_memo); None when not known."""

    skipped: list[SkippedLine]
    edited: list[str]
    clean_at: str | None = None
    remembered: bool = False

    @property
    def clean(self) -> bool:
        return not self.skipped and not self.edited


def audited(conn: sqlite3.Connection) -> Audited:
    return Audited(skipped_lines(conn), edited_logs(conn))


def audited_or_remembered(root: Path, conn: sqlite3.Connection, full: bool) -> Audited:
    """The default audit of `root`'s current cache (`conn`): the remembered clean result
    when the cache is unchanged since that audit and not `full`, else audited now (and
    remembered when clean)."""
    clean_at = None if full else audit_memo.remembered(root, conn)
    if clean_at is not None:
        return _remembered(clean_at)
    before = audit_memo.before_audit(root, conn)
    return _noted(root, conn, audited(conn), before)


def _remembered(clean_at: str) -> Audited:
    return Audited([], [], clean_at, remembered=True)


def _noted(root: Path, conn: sqlite3.Connection, found: Audited,
           before: audit_memo.Before | None) -> Audited:
    clean_at = audit_memo.note_result(root, conn, before, found.clean)
    return Audited(found.skipped, found.edited, clean_at)


class EarlyAudit:
    """`audited_or_remembered` of a cache that is current when doctor starts, worked out on
    a thread of its own while doctor imports and runs its other checks (most of it is
    SQLite's work, done without Python's lock). Its result stands only if nothing has
    written the cache since it started (SQLite's `data_version`, and the same file; for a
    remembered result, the memo still matching): a sync meanwhile (the work tree changed)
    or an edit means auditing again."""

    def __init__(self, root: Path, watch: sqlite3.Connection, full: bool) -> None:
        self._root = root
        self._watch = watch  # this thread's: asked again when the result is collected
        self._state = _cache_state(root, watch)
        self._clean_at = None if full else audit_memo.remembered(root, watch)
        self._before = None if self._clean_at else audit_memo.before_audit(root, watch)
        self._future: Future[Audited | None] | None = None
        if self._clean_at is None:
            pool = ThreadPoolExecutor(1, thread_name_prefix="memrepo-doctor-audit")
            self._future = pool.submit(_audit_of_file, root)
            pool.shutdown(wait=False)

    @staticmethod
    def start(root: Path, full: bool = False) -> EarlyAudit | None:
        """An early audit, or None when the cache is missing, unsound or stale (doctor
        syncs or rebuilds it first). `full`: audited even when unchanged since the last
        clean audit."""
        if not cache_path(root).is_file():
            return None
        conn = open_existing(root)
        if conn is None:
            return None
        if is_stale(conn, root):
            conn.close()
            return None
        return EarlyAudit(root, conn, full)

    def result(self) -> Audited | None:
        """What the audit found; None when the cache was written since it started."""
        try:
            if self._future is None:  # remembered: still so?
                clean_at = audit_memo.remembered(self._root, self._watch)
                if clean_at is None or clean_at != self._clean_at:
                    return None
                return _remembered(clean_at)
            found = self._future.result()
            if found is None or _cache_state(self._root, self._watch) != self._state:
                return None
            return _noted(self._root, self._watch, found, self._before)
        finally:
            self._watch.close()


def _audit_of_file(root: Path) -> Audited | None:
    conn = open_existing(root)
    if conn is None:
        return None
    try:
        return audited(conn)
    finally:
        conn.close()


def _cache_state(root: Path, watch: sqlite3.Connection) -> tuple[int, int]:
    """(the cache file's inode, SQLite's count of commits by other connections)."""
    try:
        inode = cache_path(root).stat().st_ino
    except OSError:
        inode = -1
    return inode, int(watch.execute("PRAGMA data_version").fetchone()[0])


def edited_logs(conn: sqlite3.Connection) -> list[str]:
    """Logs whose rows in the cache are not the rows indexed from the file (a holding
    that contradicts its event counts against the event's log)."""
    recorded = dict(conn.execute("SELECT path, digest FROM log_digests").fetchall())
    logs = [path for (path,) in conn.execute("SELECT path FROM files WHERE kind = 'log'")]
    quick, contradicted = _passes(conn)
    edited = {path for path in logs if recorded.get(path) != quick.get(path, EMPTY.digest)
              and recorded.get(path) != rows_digest(table_signatures(conn, path)).digest}
    return sorted(edited | contradicted)


_CONTRADICTED = ("SELECT DISTINCT e.path FROM holdings h JOIN events e "
                 "ON e.id = h.event_id AND e.scope = h.scope "
                 "WHERE h.object IS NOT e.object OR h.subject_key IS NOT e.subject_key "
                 "OR h.relation_key IS NOT e.relation_key")


def _passes(conn: sqlite3.Connection) -> tuple[dict[str, str], set[str]]:
    """(every log's quick digest, the logs of events a holding contradicts): the holdings
    are compared on a second thread with a connection of its own while this one digests
    the events — SQLite works without Python's lock, so on two cores the passes share the
    wall time. A cache without a file (in memory), or read inside a transaction (whose
    changes only `conn` sees), is read one pass after the other."""
    database = None if conn.in_transaction else database_file(conn)
    if database is None:
        return _quick_digests(conn), _contradicted_logs(conn)
    with ThreadPoolExecutor(max_workers=1) as pool:
        contradicted = pool.submit(_on_own_connection, database, _contradicted_logs)
        return _quick_digests(conn), contradicted.result()


def _on_own_connection(database: str, read: Callable[[sqlite3.Connection], _T]) -> _T:
    own = read_only(database)
    try:
        return read(own)
    finally:
        own.close()


def _contradicted_logs(conn: sqlite3.Connection) -> set[str]:
    return {path for (path,) in conn.execute(_CONTRADICTED)}


def _quick_digests(conn: sqlite3.Connection) -> dict[str, str]:
    """Every log's digest in one pass over the events table: SQLite encodes each row
    (`json_array`: the bytes `rows_digest` hashes, orjson's, for every row memrepo
    writes) and joins a log's encodings, so Python hashes one string per log, not a
    row at a time. Where the two encoders could differ (a float orjson spells with more
    digits), the digest differs and the caller computes that log's digest exactly: a log
    is reported only by the exact digest.

    A log's rows are joined in the order of the path index, that is of their rowids, not
    sorted by line: a log's rows are inserted in line order (a build, a log that grew). A
    log whose rows are not in line order (a sync replaced some) gets another digest here,
    and the caller's exact one decides."""
    rows = conn.execute("SELECT path, CAST(group_concat(json_array("
                        f"{SIGNATURE_COLUMNS}), '') AS BLOB) FROM events "
                        "INDEXED BY events_path GROUP BY path")
    return {path: encoded_digest(data).digest for path, data in rows}


# --- deep: a fresh build, table by table ------------------------------------------------

_COMPARED = {
    "files": "SELECT path, kind, blob, size FROM {db}.files",
    "notes": "SELECT path, name, category, description, aliases, body FROM {db}.notes",
    "notes_fts": "SELECT n.path, f.name, f.description, f.aliases, f.body, f.name_s, "
                 "f.description_s, f.aliases_s, f.body_s FROM {db}.notes n "
                 "JOIN {db}.notes_fts f ON f.rowid = n.rowid",
    "aliases": "SELECT folded, alias, name, path FROM {db}.aliases",
    "links": "SELECT source, source_name, target, line FROM {db}.links",
    "events": f"SELECT {SIGNATURE_COLUMNS} FROM {{db}}.events",
    "keys": "SELECT scope, subject_key, relation_key, subject, relation, first_at, "
            "first_id, numeric FROM {db}.keys",
    "keys_fts": "SELECT k.scope, k.subject_key, k.relation_key, f.subject, f.relation, "
                "f.object, f.quote, f.subject_s, f.relation_s, f.object_s, f.quote_s "
                "FROM {db}.keys k JOIN {db}.keys_fts f ON f.rowid = k.rowid",
    "notes_terms": "SELECT term, df FROM {db}.notes_terms",
    "keys_terms": "SELECT term, df FROM {db}.keys_terms",
    "holdings": "SELECT scope, subject_key, relation_key, subject, relation, object, "
                "held_from, held_to, value_from, value_to, known_from, known_to, event_id "
                "FROM {db}.holdings",
    "skipped": "SELECT path, line, reason FROM {db}.skipped",
}


def deep_differences(conn: sqlite3.Connection, fresh: Path) -> list[str]:
    """The tables whose content differs between the live cache and `fresh`, with how many
    rows are only in one of them."""
    conn.execute("ATTACH DATABASE ? AS fresh", (str(fresh),))
    try:
        differences = []
        for table, select in _COMPARED.items():
            live, built = select.format(db="main"), select.format(db="fresh")
            extra = _count(conn, f"{live} EXCEPT {built}")
            missing = _count(conn, f"{built} EXCEPT {live}")
            if extra or missing:
                differences.append(f"{table}: {extra} row(s) not from the files, "
                                   f"{missing} row(s) of the files missing")
        return differences
    finally:
        conn.execute("DETACH DATABASE fresh")


def _count(conn: sqlite3.Connection, select: str) -> int:
    return int(conn.execute(f"SELECT count(*) FROM ({select})").fetchone()[0])


def open_existing(root: Path) -> sqlite3.Connection | None:
    """The live cache as it is (not synced first), or None when there is no usable one."""
    return open_trusted(cache_path(root))
