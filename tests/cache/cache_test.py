"""The cache file: built atomically, never trusted when corrupt or outdated, refreshed by
queries when the work tree changed."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from memrepo.cache import cache_path, memory_config, open_fresh, rebuild, status, sync
from memrepo.cache.db import indexed_config, require_fts5
from memrepo.config import worktree_config
from tests.support import (
    append_events,
    assert_event,
    commit_everything,
    git,
    init_repo,
    note,
    plain_env,
    write,
)


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    # committed before the lines appended by hand: else they are back-dated, and left out
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
    root = init_repo(tmp_path / "repo")
    write(root, "memory/entities/tauron.md", note(
        "entities", "tauron", "Electricity supplier of the flat since 2023", "Tariff G11.\n"))
    append_events(root, "memory/facts/michal/2026-01.jsonl", [
        assert_event("a1", "2026-01-05T00:00:00Z", "home", "city", "Kraków", "2020-01-01")])
    commit_everything(root, "start")
    return root


def _city(root: Path) -> str | None:
    result = Memory(root).recall("michal", subject="home", relation="city")
    return result.facts[0].object if result.facts else None


def test_fts5_is_available_here() -> None:
    require_fts5()


def test_rebuild_swaps_in_a_complete_file(repo: Path) -> None:
    report = rebuild(repo)
    assert (report.notes, report.events, report.holdings) == (1, 1, 1)
    assert [p.name for p in cache_path(repo).parent.iterdir()] == ["cache.sqlite"]
    assert status(repo).current


@pytest.mark.parametrize("damage", [b"not a database at all" * 100, b""])
def test_corrupt_cache_file_is_rebuilt(repo: Path, damage: bytes) -> None:
    rebuild(repo)
    cache_path(repo).write_bytes(damage)
    assert _city(repo) == "Kraków"
    assert status(repo).exists


def test_missing_table_or_old_schema_is_rebuilt(repo: Path) -> None:
    rebuild(repo)
    conn = sqlite3.connect(cache_path(repo))
    conn.execute("DROP TABLE holdings")
    conn.commit()
    conn.close()
    assert _city(repo) == "Kraków"
    conn = sqlite3.connect(cache_path(repo))
    conn.execute("UPDATE meta SET value = 'old' WHERE key = 'schema'")
    conn.commit()
    conn.close()
    assert sync(repo).mode == "rebuilt"


def test_no_cache_is_built_by_the_first_query(repo: Path) -> None:
    assert not cache_path(repo).exists()
    assert _city(repo) == "Kraków"
    assert cache_path(repo).exists()


def test_a_commit_is_noticed(repo: Path) -> None:
    assert _city(repo) == "Kraków"
    append_events(repo, "memory/facts/michal/2026-02.jsonl", [
        assert_event("a2", "2026-02-05T00:00:00Z", "home", "city", "Łódź", "2026-02-01")])
    commit_everything(repo, "moved")
    assert _city(repo) == "Łódź"


def test_an_uncommitted_append_to_a_log_is_noticed_once_staged(repo: Path) -> None:
    """The per-query check stats a dozen paths, not every log (see cache/staleness.py):
    a hand-made append is seen at `git add` (or `memrepo cache sync`)."""
    assert _city(repo) == "Kraków"
    append_events(repo, "memory/facts/michal/2026-01.jsonl", [
        assert_event("a2", "2026-01-20T00:00:00Z", "home", "city", "Gdańsk", "2026-01-15")])
    git(repo, "add", "memory/facts/michal/2026-01.jsonl", env=plain_env())
    assert _city(repo) == "Gdańsk"


def test_a_new_uncommitted_note_and_its_deletion_are_noticed(repo: Path) -> None:
    memory = Memory(repo)
    assert memory.search("Skoda").status == "not_recorded"
    write(repo, "memory/entities/skoda.md", note(
        "entities", "skoda", "Škoda Centrum service station in Kraków", "Service.\n"))
    assert [h.name for h in memory.search("Skoda").results] == ["skoda"]
    (repo / "memory/entities/skoda.md").unlink()
    assert memory.search("Skoda").status == "not_recorded"


def test_a_note_linked_to_a_file_outside_is_never_indexed(repo: Path, tmp_path: Path) -> None:
    diary = tmp_path / "diary.md"
    diary.write_bytes(note("entities", "leaked-diary", "Private diary kept outside the memory; "
                          "zanzibar holiday plans"))
    memory = Memory(repo)
    assert memory.search("zanzibar").status == "not_recorded"
    (repo / "memory/entities/leaked-diary.md").symlink_to(diary)
    assert memory.search("zanzibar").status == "not_recorded"
    rebuild(repo)
    assert memory.search("zanzibar").status == "not_recorded"


def test_staging_an_in_place_edit_is_noticed(repo: Path) -> None:
    memory = Memory(repo)
    assert memory.search("G11").status == "found"
    path = repo / "memory/entities/tauron.md"
    path.write_text(path.read_text(encoding="utf-8").replace("G11", "G12"), encoding="utf-8")
    git(repo, "add", "memory/entities/tauron.md", env=plain_env())
    assert memory.search("G12").status == "found"
    assert memory.search("G11").status == "not_recorded"


def test_checkout_of_an_older_commit_rereads_shrunk_logs(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD", env=plain_env()).stdout.strip()
    append_events(repo, "memory/facts/michal/2026-01.jsonl", [
        assert_event("a2", "2026-01-20T00:00:00Z", "home", "city", "Gdańsk", "2026-01-15")])
    commit_everything(repo, "gdansk")
    assert _city(repo) == "Gdańsk"
    git(repo, "checkout", "-q", first, env=plain_env())
    assert _city(repo) == "Kraków"


def test_open_fresh_returns_a_usable_connection(repo: Path) -> None:
    conn = open_fresh(repo)
    try:
        assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 1
    finally:
        conn.close()


def test_recall_never_returns_the_nearest_fact(repo: Path) -> None:
    memory = Memory(repo)
    before = memory.recall("michal", subject="home", relation="city", as_of="2019-12-31")
    assert before.status == "not_recorded" and before.facts == []
    unknown = memory.recall("michal", subject="home", relation="city", known_at="2026-01-04")
    assert unknown.status == "not_recorded"


def test_partial_last_line_is_left_out_until_complete(repo: Path) -> None:
    log = repo / "memory/facts/michal/2026-01.jsonl"
    with log.open("ab") as handle:
        handle.write(b'{"id": "a2", "op": "ass')
    assert _city(repo) == "Kraków"
    os.truncate(log, log.stat().st_size - len(b'{"id": "a2", "op": "ass'))
    append_events(repo, "memory/facts/michal/2026-01.jsonl", [
        assert_event("a2", "2026-01-20T00:00:00Z", "home", "city", "Gdańsk", "2026-01-15")])
    assert _city(repo) == "Gdańsk"


@pytest.mark.parametrize(("config", "kept"), [
    (b"precedence: [project, rules, entities, references]\nmany_valued_relations: [speaks]\n",
     True),
    (b"approvers: [unclosed\n", True),  # broken YAML: the defaults
    (b"precedence: 3\n", True),  # a value of the wrong kind: the defaults
    (b"limits: {1: 5}\nstale_after_days: 30\n", False),  # a key JSON cannot keep
    (b"approvers: [.nan]\n", True),  # not a string: the defaults
    (b"stale_after_days: .inf\n", True),  # not a whole number (it crashed queries)
    (b"precedence: [[1]]\n", True),  # not a list of names (it crashed the context block)
    (None, True),  # no config: the defaults
])
def test_queries_read_the_config_the_cache_was_built_with(repo: Path, config: bytes | None,
                                                          kept: bool) -> None:
    """What queries read equals the work tree's config however it was saved; from the
    cache's meta, or from the file when meta cannot keep it exactly."""
    path = write(repo, "memory/config.yaml", "approvers: [Ann Example <ann@example.com>]\n")
    commit_everything(repo, "config")
    conn = open_fresh(repo)
    assert memory_config(conn, repo) == worktree_config(repo)
    conn.close()
    if config is None:
        path.unlink()
    else:
        with path.open("r+b") as handle:  # saved in place: same inode
            handle.truncate(0)
            handle.write(config)
    conn = open_fresh(repo)
    try:
        assert memory_config(conn, repo) == worktree_config(repo)
        assert (indexed_config(conn) is not None) == kept
    finally:
        conn.close()
