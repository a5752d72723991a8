"""doctor's audit of the cache: a log's rows against the digest recorded when they were
indexed, computed for every log in one pass."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memrepo.cache import cache_path, rebuild
from memrepo.cache.audit import edited_logs
from tests.support import append_events, assert_event, commit_everything, init_repo

LOGS = ("memory/facts/michal/2026-01.jsonl", "memory/facts/michal/2026-02.jsonl",
        "memory/facts/jan/2026-01.jsonl")


def _memory(tmp_path: Path, confidence: float = 1.0) -> Path:
    root = init_repo(tmp_path / "repo")
    for number, log in enumerate(LOGS):
        scope, month = log.split("/")[2], log.rsplit("/", 1)[1][:7]
        append_events(root, log, [
            assert_event(f"k{number}{line}", f"{month}-0{line + 1}T00:00:00Z", f"s{line}",
                         "amount", str(line), "2025-01-01", scope=scope,
                         confidence=confidence) for line in range(3)])
    commit_everything(root, "events")
    rebuild(root)
    return root


def test_a_cache_as_built_has_no_edited_log(tmp_path: Path) -> None:
    with sqlite3.connect(cache_path(_memory(tmp_path))) as conn:
        assert edited_logs(conn) == []


def test_only_the_log_whose_rows_were_edited_is_reported(tmp_path: Path) -> None:
    with sqlite3.connect(cache_path(_memory(tmp_path))) as conn:
        conn.execute("UPDATE events SET object = 'edited' WHERE path = ? AND line = 2",
                     (LOGS[1],))
        conn.execute("DELETE FROM events WHERE path = ? AND line = 3", (LOGS[2],))
        assert edited_logs(conn) == sorted([LOGS[1], LOGS[2]])


def test_a_log_whose_rows_are_all_gone_is_reported(tmp_path: Path) -> None:
    with sqlite3.connect(cache_path(_memory(tmp_path))) as conn:
        conn.execute("DELETE FROM events WHERE path = ?", (LOGS[0],))
        assert edited_logs(conn) == [LOGS[0]]


def test_a_number_sqlite_spells_differently_is_no_edit(tmp_path: Path) -> None:
    """SQLite's JSON writes 0.1 + 0.2 with 15 digits, the digest's encoder with 17: the
    quick pass disagrees, the exact one decides."""
    root = _memory(tmp_path, confidence=0.1 + 0.2)
    with sqlite3.connect(cache_path(root)) as conn:
        assert conn.execute("SELECT json_array(confidence) FROM events LIMIT 1"
                            ).fetchone()[0] != "[0.30000000000000004]"
        assert edited_logs(conn) == []
        conn.execute("UPDATE events SET confidence = 0.5 WHERE path = ?", (LOGS[2],))
        assert edited_logs(conn) == [LOGS[2]]


def test_a_log_whose_rows_are_not_in_line_order_is_no_edit(tmp_path: Path) -> None:
    """A sync that replaced some rows of a log inserts them after every other row: the
    quick pass reads the table in its order and disagrees, the exact digest decides."""
    with sqlite3.connect(cache_path(_memory(tmp_path))) as conn:
        conn.execute("UPDATE events SET rowid = (SELECT max(rowid) + 1 FROM events) "
                     "WHERE path = ? AND line = 1", (LOGS[1],))
        assert edited_logs(conn) == []
        conn.commit()  # read as doctor reads it: the holdings on a second connection
        assert edited_logs(conn) == []
        conn.execute("UPDATE holdings SET object = 'edited' WHERE event_id = 'k12'")
        conn.commit()
        assert edited_logs(conn) == [LOGS[1]]
