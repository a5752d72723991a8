"""The rows of many keys made after the answer of a reader that looks other keys up
(issue 24 item 5: the first `memrepo recall --subject S --relation R` after 100k lines
were appended to a log by hand).

Every line is judged, and every accepted event stored, before any answer: nothing here
is deferred but what is made from a folded key's events — its keys row, holdings and
search document (memrepo.cache.recompute). A sync for a reader that reads only some keys
(`Lookup`: a subject, with a relation or any) that touched DEFER_MIN_KEYS keys or more
makes those rows for the keys the reader reads, and lists the others in the table
`pending_keys`, in the same transaction. The table is made then and dropped once they are
made, so the cache's format is that of a full build whenever no key is pending. Until
they are made:

- a reader that may read a listed key — one that searches, lists or audits (no lookup),
  or looks up a listed key — finds the cache stale (memrepo.cache.staleness.keys_left)
  and syncs it, which makes them first (`finish`);
- every sync that changes anything makes them first, before it touches an event, so the
  listed keys' rows are made from the events the deferring sync stored;
- the process that deferred them starts `memrepo cache sync --hook` in the background
  (`finish_later`), so they are usually made before anyone needs them.

`finish` runs the same function a sync runs on the same events, so the cache ends as an
undeferred sync — and a full build — makes it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from memrepo.cache.indexer import Indexer, no_cycle_collection
from memrepo.cache.recompute import recompute
from memrepo.cache.staleness import Lookup, keys_left
from memrepo.cache.terms import TermDeltas
from memrepo.core.config import Config
from memrepo.core.facts.events import Key

DEFER_MIN_KEYS = 20_000
"""Fewer keys are made at once (a few hundred milliseconds at most)."""

PENDING_TABLE = ("CREATE TABLE IF NOT EXISTS pending_keys (subject_key TEXT NOT NULL, "
                 "relation_key TEXT NOT NULL, scope TEXT NOT NULL, "
                 "PRIMARY KEY (subject_key, relation_key, scope)) WITHOUT ROWID")
"""The keys left for later, looked up by subject (and relation) whatever the scope."""

FINISH_IN_BACKGROUND = True
"""Whether the process that deferred keys starts a sync to make them (the tests that make
them themselves turn it off)."""


def split(keys: set[Key], lookup: Lookup | None) -> tuple[set[Key], set[Key]]:
    """(the keys to make now, those left for later): all now unless the reader looks keys
    up and there are DEFER_MIN_KEYS of them or more."""
    if lookup is None or len(keys) < DEFER_MIN_KEYS:
        return keys, set()
    subject, relation = lookup
    now = {key for key in keys if key[1] == subject and relation in (None, key[2])}
    return now, keys - now


def defer(conn: sqlite3.Connection, keys: Iterable[Key]) -> None:
    """List `keys` (scope, subject_key, relation_key) as left for later (none: nothing
    is made)."""
    rows = sorted((key[1], key[2], key[0]) for key in keys)
    if not rows:
        return
    conn.execute(PENDING_TABLE)
    conn.executemany("INSERT OR IGNORE INTO pending_keys(subject_key, relation_key, scope) "
                     "VALUES (?, ?, ?)", rows)


def blocks(conn: sqlite3.Connection, lookup: Lookup | None) -> bool:
    """Whether keys left for later may be read by a reader of `lookup` (None: any)."""
    return keys_left(conn, lookup)


def finish(conn: sqlite3.Connection, config: Config) -> int:
    """Make the rows of every key left for later (inside a write transaction); how many
    keys."""
    if not keys_left(conn, None):
        return 0
    keys = {(scope, subject, relation) for subject, relation, scope in
            conn.execute("SELECT subject_key, relation_key, scope FROM pending_keys")}
    terms = TermDeltas()
    with no_cycle_collection():
        recompute(conn, Indexer(conn, config, terms), terms, keys)
    terms.apply(conn)
    conn.execute("DROP TABLE pending_keys")
    return len(keys)


def finish_later(root: Path) -> None:
    """Start `memrepo cache sync --hook` in the background (a session of its own, no
    terminal, nothing printed), which makes the keys left for later — without asking git
    what is dirty: the next query still does; it waits for this process's transaction
    like any other writer. Nothing is lost if it cannot start: the next reader that may
    read them makes them."""
    if not FINISH_IN_BACKGROUND or not sys.executable:  # an embedded Python may have none
        return
    with contextlib.suppress(OSError):
        subprocess.Popen([sys.executable, "-m", "memrepo", "--repo", str(root), "cache",
                          "sync", "--hook", "--quiet"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, cwd=os.getcwd())
