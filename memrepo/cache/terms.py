"""Document frequencies of the full-text tables (`notes_terms`, `keys_terms`), which
retrieval reads at query time instead of fts5vocab (that walks whole posting lists).

A full build fills them from fts5vocab once the rows are loaded, then merges the FTS
segments (`optimize`: unmerged segments made queries 2–3× slower). Incremental sync keeps
them exact: every full-text row it removes or adds moves the count of each distinct token
of the row by one, and the empty term (the number of documents) with it.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Iterable
from typing import Literal

TERM_TABLES = {"notes_fts": "notes_terms", "keys_fts": "keys_terms"}
DOCUMENTS = ""
"""The term whose count is the number of documents (no token is empty)."""
_TOKEN = re.compile(r"[a-z0-9]+")
"""What FTS5's unicode61 tokenizer makes of folded (ASCII, lower-case) text."""
_TOKEN_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")  # _TOKEN's bytes
_SPACED = bytes(byte if byte in _TOKEN_BYTES else 0x20 for byte in range(256))
"""Every byte that is not in a token (`_TOKEN`) turned into a space."""


def row_tokens(texts: Iterable[str]) -> set[str]:
    """The distinct `_TOKEN`s of the texts. Stored text is folded to ASCII: its bytes are
    split by a translation table, twice as fast as the regular expression (retrieval
    tokenises the rows it judges at every question)."""
    text = " ".join(texts)
    if not text.isascii():
        return set(_TOKEN.findall(text))
    return set(text.encode("ascii").translate(_SPACED).decode("ascii").split())


def fill_terms(conn: sqlite3.Connection) -> None:
    """After a full build: every table's document frequencies, and merged FTS segments
    (passages_fts has none: retrieval reads the notes' frequencies for both)."""
    conn.execute("INSERT INTO passages_fts(passages_fts) VALUES ('optimize')")
    for fts, terms in TERM_TABLES.items():
        vocab = fts.replace("_fts", "_vocab")
        conn.execute(f"INSERT INTO {fts}({fts}) VALUES ('optimize')")
        conn.execute(f"INSERT INTO {terms}(term, df) SELECT term, doc FROM {vocab}")
        conn.execute(f"INSERT INTO {terms}(term, df) SELECT ?, count(*) FROM {fts} "
                     "HAVING count(*) > 0",
                     (DOCUMENTS,))


class TermDeltas:
    """Changes of document frequency by a sync, applied once at its end."""

    def __init__(self) -> None:
        self.deltas: dict[str, Counter[str]] = {terms: Counter() for terms in
                                                TERM_TABLES.values()}

    def count(self, fts: str, texts: Iterable[str], sign: Literal[1, -1]) -> None:
        """Count a row of `texts` added to (1) or removed from (-1) the table `fts`."""
        deltas = self.deltas[TERM_TABLES[fts]]
        if sign == 1:
            deltas.update(row_tokens(texts))  # counted in C (a sync adds 100k rows)
        else:
            deltas.subtract(row_tokens(texts))
        deltas[DOCUMENTS] += sign

    def count_rows(self, fts: str, rows: Iterable[Iterable[str]]) -> None:
        """Count rows of texts added to the table `fts` (`count`'s sign 1, for each)."""
        deltas = self.deltas[TERM_TABLES[fts]]
        documents = 0
        for texts in rows:
            deltas.update(row_tokens(texts))  # counted in C
            documents += 1
        deltas[DOCUMENTS] += documents

    def remove_rows(self, conn: sqlite3.Connection, fts: str, rowids: Iterable[int]) -> None:
        """Count the rows out, then delete them from the full-text table."""
        ids = list(rowids)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            for _, *texts in conn.execute(f"SELECT rowid, * FROM {fts} WHERE rowid IN "
                                          f"({marks})", chunk):
                self.count(fts, texts, -1)
            conn.execute(f"DELETE FROM {fts} WHERE rowid IN ({marks})", chunk)

    def apply(self, conn: sqlite3.Connection) -> None:
        for terms, deltas in self.deltas.items():
            changed = [(term, delta) for term, delta in deltas.items() if delta]
            conn.executemany(f"INSERT INTO {terms}(term, df) VALUES (?, ?) ON CONFLICT(term) "
                             "DO UPDATE SET df = df + excluded.df", changed)
            conn.executemany(f"DELETE FROM {terms} WHERE term = ? AND df <= 0",
                             [(term,) for term, _ in changed])
            deltas.clear()
