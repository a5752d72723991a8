"""The whole memory as triage reads it from the cache: every event by folded key, as the
events grouped from the logs themselves."""

from __future__ import annotations

from pathlib import Path

from memrepo.cache import open_fresh
from memrepo.cache.listing import read_facts
from memrepo.cache.rows import group_by_key, keys_of
from memrepo.facts.segments import read_scope
from tests.support import (
    append_events,
    assert_event,
    commit_everything,
    init_repo,
    retract,
)


def test_events_by_key_are_the_logs_grouped(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    append_events(root, "memory/facts/michal/2026-01.jsonl", [
        assert_event("a1", "2026-01-01T00:00:00Z", "Electricity Bill", "amount", "1",
                     "2025-01-01"),
        assert_event("a2", "2026-01-02T00:00:00Z", "electricity-bill", "Amount", "2",
                     "2025-02-01"),
        assert_event("a3", "2026-01-03T00:00:00Z", "car", "colour", "red", "2025-01-01")])
    append_events(root, "memory/facts/michal/2026-02.jsonl", [
        retract("r1", "a1", "2026-02-01T00:00:00Z"),
        retract("r2", "nowhere", "2026-02-02T00:00:00Z")])
    append_events(root, "memory/facts/jan/2026-01.jsonl", [
        assert_event("b1", "2026-01-01T00:00:00Z", "car", "colour", "blue", "2025-01-01",
                     scope="jan")])
    commit_everything(root, "events")
    everything = [*read_scope(root, "jan"), *read_scope(root, "michal")]
    conn = open_fresh(root)
    try:
        grouped = read_facts(conn)
    finally:
        conn.close()
    expected = group_by_key(everything, keys_of(everything))
    assert grouped == expected
    assert [e.id for e in grouped[("michal", "electricity_bill", "amount")]] == [
        "a1", "a2", "r1"]
