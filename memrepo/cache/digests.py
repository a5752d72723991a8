"""The digest of a log's event rows: what `memrepo doctor` compares with the table to
notice rows edited behind the cache's back (memrepo.cache.audit).

The rows' signatures (SIGNATURE_COLUMNS, in line order) are encoded as JSON arrays
(orjson here; SQLite's `json_array` gives the same bytes for every row memrepo writes),
the encodings joined, and the joined bytes hashed as a chain of CHUNK_BYTES pieces: each
piece's hash covers the one before it, and the digest is the hash of the last state and
the bytes after the last whole piece (the tail). A log that grew extends its stored chain
(state and tail) over the new rows alone, so a sync never reads the earlier rows again
(and never blesses a row edited behind its back); doctor hashes each log's rows as one
string SQLite joins, in a few thousand hash calls rather than one per row.

Light to import (hashlib, orjson): doctor needs it without the build's parsers.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from typing import Any, NamedTuple

import orjson

SIGNATURE_COLUMNS = ("id, op, scope, " + ", ".join(
    f"CASE WHEN op = 'retract' THEN NULL ELSE {column} END"
    for column in ("subject", "relation", "subject_key", "relation_key"))
    + ", object, valid_from, valid_to, recorded_at, target, confidence, source, session, "
    "quote, trust, reason, path, line")
"""An events row as `event_signature` gives it: without the rowid and without a retract's
key (resolved, and cleared, later by whichever log names its target)."""

CHUNK_BYTES = 2048
"""The chain's piece: a stored tail is shorter than this (kept per log, a few MB in all
at 20k notes), and a log of n bytes costs n / CHUNK_BYTES hash calls."""

_START = bytes(16)


class LogDigest(NamedTuple):
    digest: str  # what doctor compares (hex)
    state: bytes  # the chain over the whole pieces
    tail: bytes  # the encoded rows' bytes after the last whole piece


def rows_digest(rows: Iterable[tuple[Any, ...]], before: LogDigest | None = None,
                ) -> LogDigest:
    """The digest of a log's signature rows in line order; `before`: the digest of the
    rows that precede them (a log that grew), extended. Each row is hashed as it is
    encoded (the encodings of 100k rows held at once took 400 MB)."""
    chain = _Chain(before)
    dumps = orjson.dumps
    for row in rows:
        chain.feed(dumps(row))
    return chain.result()


def encoded_digest(data: bytes, before: LogDigest | None = None) -> LogDigest:
    """The digest of rows already encoded and joined (`data`), after `before`'s."""
    chain = _Chain(before)
    chain.feed(data)
    return chain.result()


class _Chain:
    """The chain over whole CHUNK_BYTES pieces, fed bytes in any cuts."""

    __slots__ = ("pending", "state")

    def __init__(self, before: LogDigest | None) -> None:
        self.state = _START if before is None else before.state
        self.pending = bytearray() if before is None else bytearray(before.tail)

    def feed(self, data: bytes) -> None:
        pending = self.pending
        pending += data
        if len(pending) < CHUNK_BYTES:
            return
        whole = len(pending) - len(pending) % CHUNK_BYTES
        state, blake2b = self.state, hashlib.blake2b
        with memoryview(pending) as view:
            for start in range(0, whole, CHUNK_BYTES):
                step = blake2b(state, digest_size=16)
                step.update(view[start:start + CHUNK_BYTES])
                state = step.digest()
        del pending[:whole]
        self.state = state

    def result(self) -> LogDigest:
        tail = bytes(self.pending)
        return LogDigest(hashlib.blake2b(self.state + tail, digest_size=16).hexdigest(),
                         self.state, tail)


EMPTY = encoded_digest(b"")


def table_signatures(conn: sqlite3.Connection, path: str) -> list[tuple[Any, ...]]:
    """The log's rows as the table holds them, in line order: what its digest covers."""
    return [tuple(row) for row in conn.execute(
        f"SELECT {SIGNATURE_COLUMNS} FROM events WHERE path = ? ORDER BY line", (path,))]
