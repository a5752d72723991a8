"""Which keys' quotes hold a group of forms (`memrepo.cache.lookups.quoted_groups`): read by
rowid and matched in Python, the same keys FTS5's own MATCH finds — single words, base
forms (the stemmed column), phrases, words in any case or with diacritics."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from memrepo.cache import rebuild
from memrepo.cache.lookups import _any_of, quoted_groups
from tests.support import world_event, world_repository, world_yaml

WORLD = world_yaml("quotes", "Quotes of a household", "2026-11-25T12:00:00Z", "".join((
    world_event("dom", "mama", "city", "Łódź", "2020-01-01",
                "Mum moved into the care home in Łódź"),
    world_event("dom", "van", "plate", "8B4 3172", "2025-06-10",
                "Plate on the Transit is 8B4 3172."),
    world_event("dom", "zuzka", "school", "ZŠ Limbová", "2018-09-01",
                "Zuzka chodí na ZŠ Limbová, ďalej nie."),
    world_event("dom", "rent", "amount", "3 100 zł", "2026-01-01",
                "Kaczmarek podniósł czynsz, od stycznia 3 100 zł miesięcznie."),
)))

GROUPS = {0: ["care home"], 1: ["lodz"], 2: ["transit", "plates"], 3: ["chodi", "skola"],
          4: ["czynsz", "miesiecz"], 5: ["home care"], 6: ["zs limbova"], 7: ["nothing"],
          8: ["3", "100"]}


def _by_fts5(conn: sqlite3.Connection, rowids: Iterable[int],
             groups: Mapping[int, Iterable[str]]) -> dict[int, set[int]]:
    wanted = sorted(set(rowids))
    marks = ", ".join("?" * len(wanted))
    found: dict[int, set[int]] = {}
    for number, forms in groups.items():
        for (rowid,) in conn.execute(
                f"SELECT rowid FROM keys_fts WHERE keys_fts MATCH ? AND rowid IN ({marks})",
                ("{quote quote_s} : (" + _any_of(forms) + ")", *wanted)):
            found.setdefault(rowid, set()).add(number)
    return found


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    root: Path = world_repository(tmp_path_factory, WORLD, "dom")
    rebuild(root)
    return sqlite3.connect(root / ".memrepo" / "cache.sqlite")


def test_the_keys_fts5_would_find(cache: sqlite3.Connection) -> None:
    rowids = [rowid for (rowid,) in cache.execute("SELECT rowid FROM keys")]
    assert quoted_groups(cache, rowids, GROUPS) == _by_fts5(cache, rowids, GROUPS)
    assert quoted_groups(cache, rowids, GROUPS)  # some group is found at all
    assert quoted_groups(cache, rowids[:1], GROUPS) == _by_fts5(cache, rowids[:1], GROUPS)
    assert quoted_groups(cache, [], GROUPS) == {}
