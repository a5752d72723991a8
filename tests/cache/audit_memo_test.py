"""The memo of doctor's last clean audit (memrepo.cache.audit_memo): the audit's result is
remembered only for the cache file it was made of, and a missing, unreadable or foreign
memo, a cache in WAL mode or an audit that finds something means auditing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from memrepo.cache import cache_path, rebuild
from memrepo.cache.audit import Audited, audited_or_remembered
from memrepo.local_state import AUDIT_MEMO
from tests.support import append_events, assert_event, commit_everything, init_repo

LOG = "memory/facts/michal/2026-01.jsonl"


def _memory(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "repo")
    append_events(root, LOG, [assert_event(f"k{line}", f"2026-01-0{line + 1}T00:00:00Z",
                                           f"s{line}", "amount", str(line), "2025-01-01")
                              for line in range(3)])
    commit_everything(root, "events")
    rebuild(root)
    return root


@contextmanager
def _cache(root: Path) -> Iterator[sqlite3.Connection]:
    with closing(sqlite3.connect(cache_path(root), isolation_level=None)) as conn:
        yield conn


def _audit(root: Path, full: bool = False) -> Audited:
    with _cache(root) as conn:
        return audited_or_remembered(root, conn, full)


def test_a_clean_audit_is_remembered_for_the_file_it_was_made_of(tmp_path: Path) -> None:
    root = _memory(tmp_path)
    first = _audit(root)
    assert first.clean and not first.remembered and first.clean_at is not None
    assert _audit(root) == Audited([], [], first.clean_at, remembered=True)
    assert not _audit(root, full=True).remembered
    rebuild(root)  # a new file: another inode
    assert not _audit(root).remembered
    assert _audit(root).remembered


def test_a_missing_unreadable_or_foreign_memo_means_auditing(tmp_path: Path) -> None:
    root = _memory(tmp_path)
    memo = root / AUDIT_MEMO
    _audit(root)
    written = json.loads(memo.read_text(encoding="utf-8"))
    for text in ("", "{not json", "[]", json.dumps({**written, "memo": "someone else's"}),
                 json.dumps({**written, "identity": {**written["identity"], "audit": "old"}}),
                 json.dumps({k: v for k, v in written.items() if k != "audited_at"})):
        memo.write_text(text, encoding="utf-8")
        assert not _audit(root).remembered, text
    memo.unlink()
    assert not _audit(root).remembered
    assert _audit(root).remembered


def test_an_audit_that_finds_an_edit_forgets_the_memo(tmp_path: Path) -> None:
    root = _memory(tmp_path)
    _audit(root)
    with _cache(root) as conn:
        conn.execute("UPDATE events SET object = 'edited' WHERE line = 2")
    found = _audit(root)
    assert found.edited == [LOG] and found.clean_at is None
    assert not (root / AUDIT_MEMO).exists()


def test_a_cache_in_wal_mode_is_never_remembered(tmp_path: Path) -> None:
    """SQLite keeps no change counter in WAL mode: the memo could not see a write."""
    root = _memory(tmp_path)
    with _cache(root) as conn:
        assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
        for _ in range(2):
            found = audited_or_remembered(root, conn, False)
            assert found.clean and not found.remembered and found.clean_at is None
