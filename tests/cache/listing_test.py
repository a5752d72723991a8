"""The whole memory as triage reads it from the cache: every event by folded key, as the
events grouped from the logs themselves; the facts as the triage rules ask for them, as the
events answer."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from memrepo.cache import open_fresh
from memrepo.cache.listing import CachedFacts, read_facts
from memrepo.cache.rows import group_by_key, keys_of
from memrepo.core.config import Config
from memrepo.core.duplicates.fact_triage import DAY, EventFacts
from memrepo.core.duplicates.triage import triage
from memrepo.core.facts.times import parse_instant
from memrepo.facts.segments import read_scope
from memrepo.maintenance.triage import render_report, triage_input
from tests.support import (
    append_events,
    assert_event,
    commit_everything,
    init_repo,
    retract,
    write,
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


def _facts_memory(root: Path) -> Path:
    """Stale facts, a contradiction (and one withdrawn), near-duplicate keys (a pair in a
    scope whose kept spelling is also an earlier scope's key), a many-valued
    relation holding two values, ended and re-confirmed facts, a quarantined fact and a
    promoted one."""
    init_repo(root)
    write(root, "memory/config.yaml", "many_valued_relations:\n  - speaks\n")
    old, new = "2025-01-05T00:00:00Z", "2026-11-01T00:00:00Z"
    append_events(root, "memory/facts/michal/2025-01.jsonl", [
        assert_event("m1", old, "car", "colour", "red", "2024-01-01"),
        assert_event("m2", "2025-01-06T00:00:00Z", "car", "colour", "blue", "2024-01-01",
                     source="email",
                     quote="q"),
        assert_event("m3", old, "Electricity Bill", "amount", "120", "2024-01-01"),
        assert_event("m4", old, "electricty_bill", "amount", "130", "2024-06-01"),
        assert_event("m5", old, "michal", "speaks", "pl", "2024-01-01"),
        assert_event("m6", "2025-01-07T00:00:00Z", "michal", "speaks", "en", "2023-01-01"),
        assert_event("m7", old, "michal", "speaks", "de", "2024-01-01", source="email",
                     quote="q"),
        assert_event("m8", old, "flat", "rent", "900", "2024-01-01"),
        assert_event("m9", old, "flat", "rent", "950", "2024-01-01", source="email",
                     quote="q"),
        assert_event("m10", old, "bike", "colour", "green", "2024-01-01"),
        assert_event("m11", old, "phone", "model", "x1", "2024-01-01",
                     valid_to="2024-06-01")])
    append_events(root, "memory/facts/michal/2026-11.jsonl", [
        retract("r1", "m9", "2026-11-01T00:00:00Z"),
        assert_event("m12", new, "bike", "colour", "green", "2025-01-01"),
        assert_event("m13", new, "water_bill", "amount", "40", "2026-01-01"),
        assert_event("m14", new, "water_bil", "amount", "45", "2026-02-01")])
    append_events(root, "memory/facts/anna/2025-01.jsonl", [
        assert_event("a1", old, "electricity_bill", "amount", "80", "2024-01-01",
                     scope="anna"),
        assert_event("a3", old, "promoted_thing", "size", "L", "2024-01-01", scope="anna",
                     source="promoted:q2", quote="q")])
    append_events(root, "memory/facts/quarantine-michal/2026-11.jsonl", [
        assert_event("q1", new, "car", "colour", "white", "2026-01-01",
                     scope="quarantine-michal", trust="untrusted", confidence=0.3,
                     source="agent", quote="q"),
        assert_event("q2", new, "promoted_thing", "size", "L", "2024-01-01",
                     scope="quarantine-michal", trust="untrusted", confidence=0.3,
                     source="agent", quote="q")])
    commit_everything(root, "facts")
    return root


def test_triage_from_the_cache_finds_what_the_events_give(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         ) -> None:
    """The fact rules answered by the cache (holdings, keys, the few keys read as events)
    give the findings, byte for byte, that the fold of every event gives — and the
    near-duplicate keys of each scope are found."""
    root = _facts_memory(tmp_path / "repo")
    monkeypatch.setenv("MEMREPO_NOW", "2026-12-01T00:00:00Z")
    with triage_input(root) as given:
        from_cache = triage(given)
        conn = open_fresh(root)
        try:
            events = read_facts(conn)
        finally:
            conn.close()
        from_events = triage(replace(given, facts=events))
    assert [f.to_json() for f in from_cache] == [f.to_json() for f in from_events]
    kinds = {f.kind for f in from_cache}
    assert {"stale-fact", "contradiction", "near-duplicate-key", "quarantine"} <= kinds
    keys = {f.subject for f in from_cache if f.kind == "near-duplicate-key"}
    assert keys == {"michal: water_bil.amount", "michal: electricty_bill.amount"}
    assert render_report(from_cache, "2026-12-01") == render_report(from_events, "2026-12-01")


def test_cached_facts_answer_each_question_as_the_events_do(tmp_path: Path) -> None:
    root = _facts_memory(tmp_path / "repo")
    now = parse_instant("2026-12-01")
    conn = open_fresh(root)
    cached = CachedFacts(conn, now, now - 365 * DAY)
    try:
        events = EventFacts(read_facts(conn))
        config = Config(many_valued_relations=frozenset({"speaks"}))
        for before in (now - 365 * DAY, now - 10 * DAY, now):
            assert (cached.unconfirmed(now, before, config.is_many)
                    == events.unconfirmed(now, before, config.is_many))
        assert cached.shown() == events.shown()
        clashing = set(cached.clashing(now))
        assert ("michal", "car", "colour") in clashing
        assert clashing <= set(events.clashing(now))
        assert cached.promoted() == events.promoted() == {"q2"}
        keys = [("michal", "car", "colour"), ("anna", "electricity_bill", "amount")]
        assert cached.events(keys) == events.events(keys)
    finally:
        cached.close()
        conn.close()


def test_a_key_clashes_only_where_two_sources_give_two_values_for_one_valid_time(
        tmp_path: Path) -> None:
    """However many asserts share a valid time, and whatever the key's other valid times
    hold: one source with two values, two sources with one value, two values at two valid
    times, an assert recorded after `now` or in a quarantine do not clash."""
    root = init_repo(tmp_path / "repo")
    t, later = "2025-01-05T00:00:00Z", "2026-11-20T00:00:00Z"
    email = {"source": "email", "quote": "q"}
    append_events(root, "memory/facts/michal/2025-01.jsonl", [
        assert_event("a1", t, "car", "colour", "red", "2024-01-01"),
        assert_event("a2", t, "car", "colour", "blue", "2024-01-01"),
        assert_event("b1", t, "bike", "colour", "green", "2024-01-01"),
        assert_event("b2", t, "bike", "colour", "green", "2024-01-01", **email),
        assert_event("c1", t, "flat", "rent", "900", "2024-01-01"),
        assert_event("c2", t, "flat", "rent", "950", "2024-02-01", **email),
        assert_event("d1", t, "shop", "rent", "1000", "2024-01-01"),
        assert_event("d2", t, "shop", "rent", "1000", "2024-01-01"),
        assert_event("d3", t, "Shop", "Rent", "1100", "2024-01-01", **email),
        assert_event("e1", t, "boat", "name", "Ala", "2024-01-01")])
    append_events(root, "memory/facts/michal/2026-11.jsonl", [
        assert_event("e2", later, "boat", "name", "Ola", "2024-01-01", **email)])
    append_events(root, "memory/facts/quarantine-michal/2025-01.jsonl", [
        assert_event(f"q{n}", t, "car", "colour", value, "2024-01-01",
                     scope="quarantine-michal", trust="untrusted", confidence=0.3,
                     source=source, quote="q")
        for n, (value, source) in enumerate([("white", "agent"), ("black", "email")])])
    commit_everything(root, "facts")
    conn = open_fresh(root)
    try:
        for now, clashing in ((parse_instant("2026-11-01"), [("michal", "shop", "rent")]),
                              (parse_instant("2026-12-01"), [("michal", "boat", "name"),
                                                             ("michal", "shop", "rent")])):
            cached = CachedFacts(conn, now, now - 365 * DAY)
            try:
                assert cached.clashing(now) == clashing
            finally:
                cached.close()
    finally:
        conn.close()


def _writable_now(root: Path) -> bool:
    """Whether a writer could take the cache at once: no other connection reads it."""
    probe = sqlite3.connect(root / ".memrepo" / "cache.sqlite", timeout=0)
    try:
        probe.execute("BEGIN EXCLUSIVE")
        probe.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        probe.close()


def test_cached_facts_hold_the_cache_only_until_their_rows_are_fetched(
        tmp_path: Path) -> None:
    """The second thread leaves the stale values' statement open for the thread that asks
    (a read of the cache meanwhile); fetched once for both questions, or never asked for,
    the connection is closed and a writer may take the cache."""
    root = _facts_memory(tmp_path / "repo")
    now = parse_instant("2026-12-01")
    conn = open_fresh(root)
    try:
        asked = CachedFacts(conn, now, now - 365 * DAY)
        try:
            clashing = asked.clashing(now)
            assert _writable_now(root)  # fetched and closed at the first question
            stale = asked.unconfirmed(now, now - 365 * DAY, lambda _: False)
            assert {("michal", "car", "colour"), ("michal", "flat", "rent")} <= set(clashing)
            assert ("michal", "car", "colour") in {value.key for value in stale}
        finally:
            asked.close()
        never_asked = CachedFacts(conn, now, now - 365 * DAY)
        never_asked.close()
        assert _writable_now(root)
    finally:
        conn.close()
