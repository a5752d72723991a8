"""A long-lived reader's connection (memrepo.cache.session): a connection handed out stays
usable while the same thread asks again after a rebuild swapped the cache file — a
question's answer reads the config after taking its connection, and a write on another
thread may rebuild in between (the MCP server answered "Cannot operate on a closed
database")."""

from __future__ import annotations

from pathlib import Path

from memrepo.cache.build import rebuild
from memrepo.cache.session import CacheSession


def test_a_connection_handed_out_stays_usable_after_a_rebuild(memory_repo: Path) -> None:
    session = CacheSession(memory_repo)
    first = session.connection()
    rebuild(memory_repo, workers=1)  # swaps in a new cache file
    second = session.connection()
    assert second is not first
    assert first.execute("SELECT count(*) FROM notes").fetchone() is not None
    rebuild(memory_repo, workers=1)
    third = session.connection()
    assert third.execute("SELECT count(*) FROM notes").fetchone() is not None
    assert second.execute("SELECT 1").fetchone() == (1,)  # the one retired last
