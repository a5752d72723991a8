"""A sync makes the rows of a key it has just stored every event of (a hand-appended log's
new keys) from the events it parsed, not read back from SQLite
(memrepo.cache.recompute): the same cache as the general path and a full rebuild, and a
key with any older event — or a retract resolved to it — still read back whole."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from memrepo import Memory
from memrepo.cache import cache_path, recompute, sync
from memrepo.cache.build import build_into
from memrepo.core.facts.events import Key
from tests.support import (
    append_events,
    assert_event,
    commit_everything,
    dump,
    memory_with_facts,
    retract,
    segment,
)


def _appended(stamp: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Lines appended by hand to the committed log, and to a new scope's log: new keys of
    one and of two events, a key asserted and retracted in the same lines, the key an
    older retract was waiting for, old keys appended to, and lines the checks refuse."""
    day = stamp[:10]
    michal = [
        *(assert_event(f"n{n:03d}", stamp, f"hand-{n}", "status", f"hand {n}", day)
          for n in range(12)),
        assert_event("twice1", stamp, "Twice", "status", "first", day),
        assert_event("twice2", stamp, "twice", "status", "second", "2025-06-01"),
        assert_event("gone1", stamp, "Gone", "status", "withdrawn", day),
        retract("gone2", "gone1", stamp),
        assert_event("late1", stamp, "late", "status", "it came", day),
        assert_event("bill2", stamp, "Bill", "amount", "120", day),
        assert_event("tag2", stamp, "home", "tag", "garden", day),
        assert_event("pw1", stamp, "wifi", "password", "hunter2-correct", day),
        assert_event("hid1", stamp, "hidden", "city", "Ło\u200bdź", day),
        assert_event("n001", stamp, "repeated", "status", "again", day),
    ]
    other = [assert_event(f"o{n:02d}", stamp, f"hand-{n}", "status", f"other {n}", day,
                          scope="ola") for n in range(5)]
    return michal, other


def _memory(tmp_path: Path) -> tuple[Path, str]:
    """The shared memory with a committed retract of an event no line holds yet
    (`late1`): (root, the moment its facts were recorded)."""
    root, log, stamp = memory_with_facts(tmp_path)
    append_events(root, log, [retract("early", "late1", stamp)])
    commit_everything(root, "a retract ahead of its target")
    sync(root, force=True)
    return root, stamp


def _append(root: Path, stamp: str) -> None:
    michal, other = _appended(stamp)
    append_events(root, segment(stamp), michal)
    append_events(root, segment(stamp, "ola"), other)


def test_new_keys_rows_from_their_parsed_events_are_the_general_paths_and_a_builds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, stamp = _memory(tmp_path)
    general = tmp_path / "general"
    shutil.copytree(root, general)
    for each in (root, general):
        _append(each, stamp)

    made_here: list[Key] = []
    only_added = recompute._only_added

    def recorded(*args: Any) -> list[Key]:
        keys = only_added(*args)
        made_here.extend(keys)
        return keys

    monkeypatch.setattr(recompute, "_only_added", recorded)
    assert sync(root, force=True).mode == "incremental"
    new = {("michal", f"hand_{n}", "status") for n in range(12)} | {
        ("ola", f"hand_{n}", "status") for n in range(5)} | {("michal", "twice", "status")}
    assert set(made_here) == new  # not `gone` (its retract), `late`, `bill`, `home`

    monkeypatch.setattr(recompute, "_only_added", lambda *args: [])  # every key read back
    assert sync(general, force=True).mode == "incremental"
    assert dump(cache_path(root)) == dump(cache_path(general))
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")

    memory = Memory(root)
    assert memory.recall("michal", subject="twice", relation="status").facts
    assert not memory.recall("michal", subject="gone", relation="status").facts
    assert not memory.recall("michal", subject="late", relation="status").facts
    assert not memory.recall("michal", subject="wifi", relation="password").facts
    assert not memory.recall("michal", subject="hidden", relation="city").facts
    assert memory.recall("ola", subject="hand-3", relation="status").facts[0].object == \
        "other 3"
