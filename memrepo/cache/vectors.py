"""The semantic layer's store (SPEC §7, opt-in: `pip install 'memrepo[vectors]'`): sentence
vectors of the texts memrepo compares with a question (a key's words, a note's
description), in `.memrepo/vectors.sqlite`, keyed by a hash of the model and the text —
so a cache rebuild keeps them, and a text met again is not encoded again. Derived data:
deleting the file loses nothing but time."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

from memrepo.files import state_link
from memrepo.local_state import VECTORS_FILE


def text_hash(model: str, text: str) -> str:
    return hashlib.sha1(f"{model}\0{text}".encode()).hexdigest()


class VectorStore:
    """Vectors by text hash; every failure to read or write is a miss, never an error (the
    store only saves time)."""

    def __init__(self, root: Path) -> None:
        self._path = root / VECTORS_FILE
        self._conn: sqlite3.Connection | None = None
        self._usable = state_link(root) is None

    def _connection(self) -> sqlite3.Connection | None:
        if self._conn is None and self._usable:
            try:
                self._path.parent.mkdir(exist_ok=True)
                self._conn = sqlite3.connect(self._path, timeout=5, check_same_thread=False)
                self._conn.execute("CREATE TABLE IF NOT EXISTS vectors "
                                   "(hash TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID")
            except (sqlite3.Error, OSError):
                self._usable = False
                return None
        return self._conn

    def get(self, hashes: Iterable[str]) -> dict[str, bytes]:
        conn = self._connection()
        wanted = sorted(set(hashes))
        if conn is None or not wanted:
            return {}
        found: dict[str, bytes] = {}
        try:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                marks = ", ".join("?" * len(chunk))
                found.update(conn.execute(
                    f"SELECT hash, vec FROM vectors WHERE hash IN ({marks})", chunk))
        except sqlite3.Error:
            return {}
        return found

    def put(self, vectors: Mapping[str, bytes]) -> None:
        conn = self._connection()
        if conn is None or not vectors:
            return
        try:
            with conn:
                conn.executemany("INSERT OR REPLACE INTO vectors (hash, vec) VALUES (?, ?)",
                                 vectors.items())
        except sqlite3.Error:
            self._usable = False

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
