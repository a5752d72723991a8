"""A large sync for a reader that looks one key up makes the rows of that key and leaves
those of the other keys it touched for later (memrepo.cache.deferred): every line is
judged first, a reader that may read a key left for later makes them all first, and the
cache ends as the general path — and a full rebuild — makes it."""

from __future__ import annotations

import shutil
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from memrepo import Memory
from memrepo.cache import cache_path, deferred, open_fresh, sync
from memrepo.cache.build import build_into
from memrepo.cache.staleness import is_stale, keys_left
from tests.support import (
    append_events,
    assert_event,
    dump,
    memory_with_facts,
    retract,
)

DEFER_IN_TESTS = 8
"""The threshold for these tests: a chunk of a few dozen keys is deferred as 100k are."""
HAND = ("hand_7", "status")
"""The key the first reader looks up (folded)."""


@pytest.fixture(autouse=True)
def _small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferred, "DEFER_MIN_KEYS", DEFER_IN_TESTS)
    monkeypatch.setattr(deferred, "FINISH_IN_BACKGROUND", False)  # made by the tests


def _hand_lines(stamp: str, first: int = 0) -> list[dict[str, Any]]:
    """New keys, old keys again (one of many values), a retract of a committed event,
    and lines the checks refuse: a credential, an invisible character, a repeated id, the
    wrong month, an unknown field."""
    day = stamp[:10]
    good = [assert_event(f"h{n:03d}", stamp, f"hand-{n}", "status", f"hand {n}", day)
            for n in range(first, first + 30)]
    return [
        *good[:15],
        assert_event(f"h9{first:02d}", stamp, "Bill", "amount", "120", day),
        assert_event(f"h8{first:02d}", stamp, "home", "tag", "garden", day),
        retract(f"h7{first:02d}", "c002", stamp),
        assert_event(f"h6{first:02d}", stamp, "wifi", "password", "hunter2-correct", day),
        assert_event(f"h5{first:02d}", stamp, "bank", "city", "Ło\u200bdź", day),
        assert_event("h001", stamp, "repeated", "status", "again", day),
        assert_event(f"h4{first:02d}", "2020-01-01T00:00:00Z", "old", "status", "x", day),
        assert_event(f"h3{first:02d}", stamp, "odd", "status", "x", day, colour="blue"),
        *good[15:],
    ]




def _pending(root: Path) -> int:
    """How many keys are left for later (their table is there only while some are)."""
    with closing(sqlite3.connect(cache_path(root))) as conn:
        if not keys_left(conn, None):
            return 0
        return int(conn.execute("SELECT count(*) FROM pending_keys").fetchone()[0])


def test_a_lookup_is_answered_before_the_other_keys_rows_and_they_are_made_when_read(
        tmp_path: Path) -> None:
    root, log, stamp = memory_with_facts(tmp_path)
    append_events(root, log, _hand_lines(stamp))
    conn = open_fresh(root, lookup=HAND)
    try:
        assert keys_left(conn, None)
        assert not keys_left(conn, HAND)  # its rows are made
        assert not keys_left(conn, ("hand_7", None))  # and those of its subject
        assert not is_stale(conn, root, HAND)
        assert is_stale(conn, root, ("hand_8", "status"))  # its reader syncs first
        assert is_stale(conn, root, ("bill", None))  # an old key appended to, too
        assert is_stale(conn, root)  # a reader of anything
    finally:
        conn.close()
    assert _pending(root) == 32  # 29 new keys and the 3 old ones appended to
    memory = Memory(root)
    assert memory.recall("michal", subject="hand-7", relation="status").facts
    assert _pending(root) == 32
    assert memory.recall("michal", subject="Bill", relation="amount").facts[0].object == "120"
    assert _pending(root) == 0  # made before that answer
    assert not memory.recall("michal", subject="wifi", relation="password").facts
    assert not memory.recall("michal", subject="odd", relation="status").facts
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")


def test_a_search_makes_the_keys_left_for_later_first(tmp_path: Path) -> None:
    root, log, stamp = memory_with_facts(tmp_path)
    append_events(root, log, _hand_lines(stamp))
    assert sync(root, force=True, lookup=HAND).deferred
    found = Memory(root).search("hand 29", scope="michal").results
    assert any("hand-29" in str(hit.to_json()) for hit in found)
    assert _pending(root) == 0


def test_deferred_keys_give_the_cache_and_refusals_of_the_general_path(
        tmp_path: Path) -> None:
    """The same lines synced for a reader of anything (every key made at once) and for a
    reader of one key, then by a sync of any reader: the same cache, the
    same lines left out, and the one a full rebuild makes."""
    root, log, stamp = memory_with_facts(tmp_path)
    general = tmp_path / "general"
    shutil.copytree(root, general)
    for each in (root, general):
        append_events(each, log, _hand_lines(stamp))
    assert sync(general, force=True).deferred is False
    assert sync(root, force=True, lookup=HAND).deferred is True
    for table in ("events", "skipped", "files", "log_digests"):
        assert dump(cache_path(root))[table] == dump(cache_path(general))[table]
    assert sync(root, force=True).mode == "incremental"
    assert _pending(root) == 0
    assert dump(cache_path(root)) == dump(cache_path(general))
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")
    assert _tables(cache_path(root)) == _tables(tmp_path / "reference.sqlite")


def _tables(path: Path) -> list[str]:
    """The names of a cache file's tables and indexes (no `pending_keys` once it is
    empty)."""
    with closing(sqlite3.connect(path)) as conn:
        return sorted(name for (name,) in conn.execute("SELECT name FROM sqlite_master"))


def test_a_second_large_sync_makes_the_keys_left_for_later_before_its_own(
        tmp_path: Path) -> None:
    root, log, stamp = memory_with_facts(tmp_path)
    append_events(root, log, _hand_lines(stamp))
    assert sync(root, force=True, lookup=HAND).deferred
    append_events(root, log, [
        *_hand_lines(stamp, first=100),
        assert_event("h999", stamp, "hand-3", "status", "hand 3 again", stamp[:10]),
        retract("h998", "h005", stamp)])
    assert sync(root, force=True, lookup=HAND).deferred
    assert _pending(root) == 35  # the second chunk's 33 keys, hand-3 and hand-5 again
    conn = open_fresh(root)  # reads anything: makes them
    conn.close()
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")


def test_a_small_sync_makes_every_key_at_once(tmp_path: Path) -> None:
    root, log, stamp = memory_with_facts(tmp_path)
    append_events(root, log, _hand_lines(stamp)[:DEFER_IN_TESTS - 2])
    report = sync(root, force=True, lookup=HAND)
    assert (report.mode, report.deferred) == ("incremental", False)
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")


def test_the_background_sync_makes_the_keys_left_for_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferred, "FINISH_IN_BACKGROUND", True)
    root, log, stamp = memory_with_facts(tmp_path)
    append_events(root, log, _hand_lines(stamp))
    assert sync(root, force=True, lookup=HAND).deferred  # starts `memrepo cache sync --hook`
    for _ in range(600):  # waits for it (a bound, not a measure: a busy machine is slow)
        if _pending(root) == 0:
            break
        time.sleep(0.1)
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")
