"""doctor's memo of its last clean audit of the cache (`.memrepo/audit-memo.json`): a
later doctor that finds the cache as it was then reports the audit as "unchanged since the
clean audit at <UTC time>" instead of running it again (issue 24 item 5: the audit was
≈ 1.85 s of doctor's ≈ 2.2 s CPU at 20k notes / 200k events).

The decision, and what it rests on:
- The default audit (memrepo.cache.audit: the lines and notes left out, the logs whose
  rows no longer give their recorded digest, holdings that contradict their events) reads
  nothing but the cache file: its result is a function of the file's content, which is
  what the cache was synced from (the logs and notes) plus anything done to the file
  since.
- So the audit is not run again while (a) the file's identity — device, inode, size,
  mtime_ns and ctime_ns, SQLite's file change counter (header bytes 24–27) and the same
  stats of any `-wal` or `-journal` file beside it — and (b) the sync state the cache
  records (what `is_stale` compares: HEAD and the work tree's stats, the files dirty at
  the last sync), the cache's schema and the audit's own code are all those recorded
  right after the last clean audit. Whoever asks has checked that the cache is current.
- SQLite increments the change counter at every transaction that writes a database in
  rollback-journal mode, the cache's: an `UPDATE events …` by hand through sqlite3 changes
  it (and the file's mtime), so the memo misses and the audit runs. In WAL mode SQLite
  does not keep the counter, so a cache whose header says WAL (bytes 18–19) is never
  remembered; turning WAL on is itself a write that moves the counter. Bytes written
  past SQLite move mtime and ctime (which `touch -d` cannot set back); a rebuild swaps
  in a new file (another inode); a crashed write leaves a `-journal`.
- The memo is written only after a clean audit (nothing found) of a cache that did not
  change while it ran, atomically (a temporary file renamed), outside the cache; an
  audit that finds anything removes it. A missing, unreadable or foreign memo (another
  format, another cache, another memrepo's audit) just means auditing.
- `doctor --full`, `--deep` and `--repair` always audit (a clean `--full` or `--repair`
  audit is remembered; `--deep`'s comparison with a fresh build is not the default
  audit and writes no memo).

Not caught, as before by the digests: a tamperer who rewrites the file and sets its
ctime back (the clock changed, root); run `memrepo doctor --full` or `--deep` then.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memrepo.cache.db import cache_path, read_meta, schema_version
from memrepo.clock import now
from memrepo.core.facts.times import format_instant
from memrepo.core.problems import InputError
from memrepo.files import read_beneath, write_atomically
from memrepo.local_state import AUDIT_MEMO

MEMO_KIND = "memrepo doctor: the cache as it was at its last clean audit, format 1"
"""The memo's first field: any other value is a foreign memo."""

AUDIT_CODE = ("audit.py", "digests.py", "skipped.py", "audit_memo.py")
"""The modules whose code decides the audit's result and what a memo means: a memo written
by other code (an upgrade, another checkout of memrepo) is foreign."""

ROLLBACK_MODE = b"\x01\x01"
"""SQLite header bytes 18–19 (file format write and read version) of a database in
rollback-journal mode; 2, 2 in WAL mode."""

SIDE_FILES = ("-wal", "-journal")


@dataclass(frozen=True, slots=True)
class Before:
    """The cache as an audit began: its identity and the time."""

    identity: dict[str, Any]
    at: str


def before_audit(root: Path, conn: sqlite3.Connection) -> Before | None:
    """The cache's identity as an audit begins; None when it cannot be remembered (WAL
    mode, a file that cannot be read)."""
    identity = cache_identity(root, conn)
    at = now() // 1_000_000 * 1_000_000  # whole seconds: a time a person reads
    return None if identity is None else Before(identity, format_instant(at))


def remembered(root: Path, conn: sqlite3.Connection) -> str | None:
    """The time of the clean audit whose memo describes the cache as it is now (which the
    caller has found current), or None: audit it."""
    memo = _memo(root)
    if memo is None:
        return None
    identity = cache_identity(root, conn)
    return memo["audited_at"] if identity is not None and memo["identity"] == identity else None


def note_result(root: Path, conn: sqlite3.Connection, before: Before | None,
                clean: bool) -> str | None:
    """After an audit that began at `before`: remember it when it found nothing and the
    cache is still as it was (returns its time); forget any memo when it found something."""
    memo = root / AUDIT_MEMO
    if not clean:
        with suppress(OSError):  # cannot be removed: .memrepo is not writable
            memo.unlink(missing_ok=True)
        return None
    if before is None or cache_identity(root, conn) != before.identity:
        return None
    data = json.dumps({"memo": MEMO_KIND, "audited_at": before.at,
                       "identity": before.identity}, sort_keys=True)
    try:
        write_atomically(memo, data.encode("utf-8"))
    except OSError:
        return None  # a memo only saves time: the next doctor audits
    return before.at


def cache_identity(root: Path, conn: sqlite3.Connection) -> dict[str, Any] | None:
    """What the memo compares (see the module docstring), as JSON keeps it; None when the
    file cannot be read or is in WAL mode."""
    path = cache_path(root)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        header = os.pread(fd, 100, 0)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(header) < 100 or header[18:20] != ROLLBACK_MODE:
        return None
    code = _audit_code()
    if code is None:
        return None
    meta = read_meta(conn)
    return {"cache": [*_stats(info), int.from_bytes(header[24:28], "big")],
            **{side: _side_file(path.with_name(path.name + side)) for side in SIDE_FILES},
            "synced": [meta.get("fingerprint"), meta.get("dirty"), meta.get("commit")],
            "schema": schema_version(), "audit": code}


def _stats(info: os.stat_result) -> list[int]:
    return [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _side_file(path: Path) -> list[int] | None:
    try:
        return _stats(os.stat(path, follow_symlinks=False))
    except OSError:
        return None


def _audit_code() -> str | None:
    """A digest of the audit's modules as installed; None when one cannot be read."""
    digest = hashlib.sha1()
    folder = Path(__file__).parent
    try:
        for name in AUDIT_CODE:
            digest.update((folder / name).read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def _memo(root: Path) -> dict[str, Any] | None:
    """The memo as written by `note_result`, or None (missing, unreadable, foreign)."""
    try:
        data = read_beneath(root, AUDIT_MEMO)
        memo = json.loads(data) if data is not None else None
    except (OSError, InputError, ValueError):
        return None
    if (not isinstance(memo, dict) or memo.get("memo") != MEMO_KIND
            or not isinstance(memo.get("audited_at"), str)
            or not isinstance(memo.get("identity"), dict)):
        return None
    return memo
