"""The benchmarks' floor for retrieval: plain SQLite FTS5 BM25 over given documents, in
memory, queried with an OR of every folded word of the question (no stop words, no base
forms, no weights, no threshold) — what memrepo's retrieval is compared with."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from memrepo.core.text import fold, words


class Baseline:
    def __init__(self, documents: Sequence[tuple[str, str, str]]) -> None:
        """`documents`: (name, description, body) of each document."""
        self.names = [name for name, _, _ in documents]
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute("CREATE VIRTUAL TABLE d USING fts5(name, description, body, "
                          "tokenize = 'unicode61 remove_diacritics 2')")
        self.conn.executemany("INSERT INTO d(rowid, name, description, body) "
                              "VALUES (?, ?, ?, ?)",
                              [(n, fold(name), fold(description), fold(body))
                               for n, (name, description, body) in enumerate(documents, 1)])

    def ranking(self, text: str, limit: int = 10) -> list[str]:
        """Names of the best documents for `text`, best first."""
        match = " OR ".join(f'"{word}"' for word in dict.fromkeys(words(text)))
        if not match:
            return []
        rows = self.conn.execute("SELECT rowid FROM d WHERE d MATCH ? ORDER BY bm25(d) "
                                 "LIMIT ?", (match, limit))
        return [self.names[rowid - 1] for (rowid,) in rows]

    def close(self) -> None:
        self.conn.close()


def note_texts(conn: sqlite3.Connection, rowids: Sequence[int]) -> list[str]:
    """Description and body of the notes with these rowids (questions are drawn from them)."""
    marks = ", ".join("?" * len(rowids))
    return [f"{description}\n{body}" for description, body in conn.execute(
        f"SELECT description, body FROM notes WHERE rowid IN ({marks})", list(rowids))]


def note_count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(rowid), 0) FROM notes").fetchone()[0])


def one_word_top10(conn: sqlite3.Connection, word: str) -> list[int]:
    """The floor of a search: plain FTS5 BM25 top 10 for one folded body word."""
    rows = conn.execute("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? "
                        "ORDER BY bm25(notes_fts) LIMIT 10", (f'body : "{word}"',))
    return [rowid for (rowid,) in rows]
