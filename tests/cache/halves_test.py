"""A large hand-appended chunk is judged and its keys folded on two processes
(memrepo.cache.halves): the cache it makes is the one a full rebuild makes."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from memrepo.cache import cache_path, halves, recompute, sync
from memrepo.cache.build import build_into
from memrepo.core.facts import line_rules
from tests.support import (
    append_events,
    assert_event,
    dump,
    memory_with_facts,
    retract,
)

SPLIT_IN_TESTS = 8
"""The threshold for these tests: a chunk of a few dozen lines is shared out as 100k are."""


def _pids(items: Sequence[int]) -> list[tuple[int, int]]:
    return [(item, os.getpid()) for item in items]


def _fails_on_the_second_half(items: Sequence[int]) -> list[int]:
    if items and items[0] >= 10:
        raise ValueError("the second half failed")
    return list(items)


def test_the_second_half_is_done_by_another_process_and_kept_in_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(halves, "SPLIT_MIN_ITEMS", SPLIT_IN_TESTS)
    monkeypatch.setattr(halves, "SPARE_CORE_LOAD", -math.inf)  # however busy the machine
    done = halves.in_halves(_pids, list(range(20)))
    assert [item for item, _ in done] == list(range(20))
    assert {pid for _, pid in done[:10]} == {os.getpid()}
    assert len({pid for _, pid in done[10:]} - {os.getpid()}) == 1


def test_a_small_list_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(halves, "SPLIT_MIN_ITEMS", SPLIT_IN_TESTS)
    monkeypatch.setattr(halves, "SPARE_CORE_LOAD", -math.inf)  # however busy the machine
    assert {pid for _, pid in halves.in_halves(_pids, list(range(7)))} == {os.getpid()}


def test_a_failure_on_the_second_process_is_raised_here(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(halves, "SPLIT_MIN_ITEMS", SPLIT_IN_TESTS)
    monkeypatch.setattr(halves, "SPARE_CORE_LOAD", -math.inf)  # however busy the machine
    with pytest.raises(halves.WorkerFailed, match="the second half failed"):
        halves.in_halves(_fails_on_the_second_half, list(range(20)))


def _hand_lines(stamp: str) -> list[dict[str, Any]]:
    """Lines a person might append: new keys, old keys again, a retract of a committed
    event, a many-valued relation, and lines the checks refuse — a credential under its
    key and in a value, an invisible character, a repeated id, the wrong month, a future
    time, an unknown field."""
    day = stamp[:10]
    good = [assert_event(f"h{n:03d}", stamp, f"hand-{n}", "status", f"hand {n}", day)
            for n in range(60)]
    return [
        *good[:20],
        assert_event("h900", stamp, "bill", "amount", "120", day),
        assert_event("h901", stamp, "home", "tag", "garden", day),
        retract("h902", "c002", stamp),
        assert_event("h903", stamp, "wifi", "password", "hunter2-correct", day),
        assert_event("h904", stamp, "deploy", "note",
                     "token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", day),
        assert_event("h905", stamp, "bank", "city", "Ło\u200bdź", day),
        assert_event("h001", stamp, "repeated", "status", "again", day),
        *good[20:40],
        assert_event("h906", "2020-01-01T00:00:00Z", "old", "status", "elsewhere", day),
        assert_event("h907", "2099-01-01T00:00:00Z", "later", "status", "future", day),
        assert_event("h908", stamp, "odd", "status", "x", day, colour="blue"),
        *good[40:],
    ]


def test_a_large_hand_appended_chunk_gives_the_cache_a_rebuild_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(halves, "SPLIT_MIN_ITEMS", SPLIT_IN_TESTS)
    monkeypatch.setattr(halves, "SPARE_CORE_LOAD", -math.inf)  # however busy the machine
    monkeypatch.setattr(line_rules, "SCREEN_BATCH", 4)  # batches with and without a secret
    monkeypatch.setattr(recompute, "FOLDED_AT_ONCE", 20)  # keys folded in 4 chunks
    root, log, stamp = memory_with_facts(tmp_path)
    append_events(root, log, _hand_lines(stamp))
    report = sync(root, force=True)  # as `memrepo cache sync` (a save can keep the mtime)
    assert (report.mode, report.paths) == ("incremental", [log])
    reasons = {line: reason for _, line, reason, _ in dump(cache_path(root))["skipped"]}
    assert sorted(reasons) == [27, 28, 29, 30, 51, 52, 53]  # each refused line, with why
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")
