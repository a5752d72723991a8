"""The full-text rows ranking a question reads (memrepo.answer.ranking): the FTS5 tables and
their BM25 field weights, term counts and spellings from the terms tables, BM25-scored
matches of quoted forms within a category or scope, and the stored text of the hits.

Every query returns rows; which forms to search, how to fuse and judge the scores is
memrepo.answer's. User text never reaches FTS5 syntax: forms are quoted (`match`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memrepo.core.config import QUARANTINE_PREFIX
from memrepo.core.text import PASSAGE_SPAN

NOTE_WEIGHTS = (20.0, 10.0, 16.0, 2.0, 10.0, 5.0, 8.0, 1.0)
"""name, description, aliases, body, then their base forms (half the folded weight)."""
KEY_WEIGHTS = (12.0, 10.0, 6.0, 3.0, 6.0, 5.0, 3.0, 1.5)
"""subject, relation, values, quotes, then their base forms."""
PASSAGE_WEIGHTS = (1.0, 1.0, 0.5, 0.5)
"""head (name and description), text, then their base forms."""

Within = tuple[str, str, list[str]]
"""The join and condition (with its parameters) that keep the documents of a category or
scope (`in_category`, `in_scope`)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A full-text table: its FTS5 table, its terms table, its BM25 weights and the column
    filter of its name fields."""

    fts: str
    terms: str
    weights: tuple[float, ...]
    names: str  # the column filter of the name fields


KEY_SUBJECT_COLUMNS = (0, 4)
"""keys_fts's subject and subject_s columns (schema/cache.sql)."""
KEY_RELATION_COLUMNS = (1, 5)
"""keys_fts's relation and relation_s columns."""
KEY_OBJECT_COLUMN = 2
"""keys_fts's object column: every value asserted of the key."""
NOTES = Table("notes_fts", "notes_terms", NOTE_WEIGHTS,
              "{name aliases name_s aliases_s}")
KEYS = Table("keys_fts", "keys_terms", KEY_WEIGHTS, "{subject relation subject_s relation_s}")


def key_of_row(conn: sqlite3.Connection, rowid: int) -> tuple[str, str, str]:
    scope, subject, relation = conn.execute(
        "SELECT scope, subject, relation FROM keys WHERE rowid = ?", (rowid,)).fetchone()
    return scope, subject, relation


def note_names(conn: sqlite3.Connection, rowids: Sequence[int]) -> dict[int, str]:
    marks = ", ".join("?" * len(rowids))
    return dict(conn.execute(f"SELECT rowid, name FROM notes WHERE rowid IN ({marks})",
                             list(rowids)).fetchall())


def names_with_words(conn: sqlite3.Connection, words: Iterable[str], scope: str | None,
                     limit: int = 5, *, notes: bool = True) -> list[str]:
    """Notes whose name or aliases, and keys of `scope` whose subject or relation, hold
    one of the (indexed, folded) `words`: what a respelled word was probably about."""
    found = match(words)
    if found == '""':
        return []
    names = [name for (name,) in conn.execute(
        "SELECT n.name FROM notes_fts f JOIN notes n ON n.rowid = f.rowid "
        "WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT ?",
        (f"{{name aliases}} : ({found})", limit))] if notes else []
    if scope is not None:
        for subject, relation in conn.execute(
                "SELECT k.subject, k.relation FROM keys_fts f JOIN keys k ON k.rowid = f.rowid "
                "WHERE keys_fts MATCH ? AND k.scope = ? ORDER BY bm25(keys_fts) LIMIT ?",
                (f"{{subject relation}} : ({found})", scope, limit)):
            names += [subject, f"{subject}.{relation}"]
    return list(dict.fromkeys(names))[:limit]


# --- terms ------------------------------------------------------------------------------------

def term_counts(conn: sqlite3.Connection, table: Table, forms: Iterable[str]) -> dict[str, int]:
    """Each of the forms the table holds → its document frequency."""
    wanted = list(dict.fromkeys(forms))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    return dict(conn.execute(f"SELECT term, df FROM {table.terms} WHERE term IN ({marks})",
                             wanted).fetchall())


def holds_term(conn: sqlite3.Connection, table: Table, term: str, within: Within) -> bool:
    """Whether a document of the table `within` the category or scope holds the term."""
    join, where, params = within
    return conn.execute(f"SELECT 1 FROM {table.fts} f {join} WHERE {table.fts} MATCH ? "
                        f"{where} LIMIT 1", (match([term]), *params)).fetchone() is not None


def longer_terms(conn: sqlite3.Connection, table: Table, word: str, longer_by: int,
                 count: int) -> list[str]:
    """The first `count` indexed terms that start with `word`, at most `longer_by` letters
    longer: shortest, then most frequent, first."""
    return [str(term) for (term,) in conn.execute(
        f"SELECT term FROM {table.terms} WHERE term > ? AND term < ? "
        "AND length(term) <= ? ORDER BY length(term), df DESC LIMIT ?",
        (word, word[:-1] + chr(ord(word[-1]) + 1), len(word) + longer_by, count))]


def terms_within_reach(conn: sqlite3.Connection, table: Table, word: str,
                       reach: int) -> list[str]:
    """The indexed terms with the first letter of `word`, their length within `reach` of
    its own: those a close spelling is chosen from."""
    return [term for (term,) in conn.execute(
        f"SELECT term FROM {table.terms} WHERE term >= ? AND term < ? "
        "AND length(term) BETWEEN ? AND ?",
        (word[0], chr(ord(word[0]) + 1), len(word) - reach, len(word) + reach))]


def scope_key_count(conn: sqlite3.Connection, scope: str) -> int:
    return int(conn.execute("SELECT count(*) FROM keys WHERE scope = ?",
                            (scope,)).fetchone()[0])


# --- documents matching -----------------------------------------------------------------------

def in_category(category: str | None, span: int = 1) -> Within:
    """The join and condition that keep the notes of `category` (none for every note: a
    join costs a row look-up per posting); `span`: rowids per note (passages)."""
    if category is None:
        return "", "", []
    return f"JOIN notes n ON n.rowid = f.rowid / {span}", "AND n.category = ?", [category]


def in_scope(scope: str | None) -> Within:
    """The join and condition that keep the keys of `scope`; None: every key outside a
    quarantine (the few quarantined keys, from the index, instead of a join)."""
    if scope is not None:
        return "JOIN keys k ON k.rowid = f.rowid", "AND k.scope = ?", [scope]
    after = QUARANTINE_PREFIX[:-1] + chr(ord(QUARANTINE_PREFIX[-1]) + 1)
    return ("", "AND f.rowid NOT IN (SELECT rowid FROM keys WHERE scope >= ? AND scope < ?)",
            [QUARANTINE_PREFIX, after])


def best_matching(conn: sqlite3.Connection, table: Table, query: str, within: Within,
                  limit: int) -> list[tuple[int, float]]:
    """(rowid, BM25 with the table's weights) of the best `limit` documents `within` the
    category or scope that match the FTS5 `query` (built by `match`), best first."""
    join, where, params = within
    return conn.execute(
        f"SELECT f.rowid, bm25({table.fts}, {weights(table)}) AS score FROM {table.fts} f "
        f"{join} WHERE {table.fts} MATCH ? {where} ORDER BY score LIMIT ?",
        (query, *params, limit)).fetchall()


def newest_matching(conn: sqlite3.Connection, table: Table, forms: Sequence[str],
                    within: Within, limit: int) -> list[tuple[int, float]]:
    """(rowid, 0.0) of the last `limit` documents in index order (highest rowid) `within`
    the category or scope that hold one of the forms: the posting lists read from that end,
    and only this far."""
    join, where, params = within
    return conn.execute(
        f"SELECT f.rowid, 0.0 FROM {table.fts} f {join} WHERE {table.fts} MATCH ? {where} "
        "ORDER BY f.rowid DESC LIMIT ?",
        (match(forms), *params, limit)).fetchall()


def every_note_matching(conn: sqlite3.Connection, query: str,
                        within: Within) -> list[tuple[float, int]]:
    """(BM25, rowid) of every note `within` the category that matches the FTS5 query."""
    join, where, params = within
    return conn.execute(
        f"SELECT bm25(notes_fts, {weights(NOTES)}), f.rowid FROM notes_fts f "
        f"{join} WHERE notes_fts MATCH ? {where}", (query, *params)).fetchall()


def best_passages(conn: sqlite3.Connection, query: str, within: Within,
                  limit: int) -> list[tuple[int, float]]:
    """(rowid, BM25) of the best `limit` passages `within` the category (`in_category`
    with PASSAGE_SPAN) that match the FTS5 query, best first."""
    join, where, params = within
    passage_weights = ", ".join(map(str, PASSAGE_WEIGHTS))
    return conn.execute(
        f"SELECT f.rowid, bm25(passages_fts, {passage_weights}) AS score FROM passages_fts f "
        f"{join} WHERE passages_fts MATCH ? {where} ORDER BY score LIMIT ?",
        (query, *params, limit)).fetchall()


def numeric_key_count(conn: sqlite3.Connection, scope: str | None,
                      params: list[str]) -> int:
    """How many keys of `scope` (None: outside quarantines; `params` of `in_scope`) have a
    value with a digit."""
    return int(conn.execute(
        "SELECT count(*) FROM keys k WHERE numeric = 1"
        + (" AND k.scope = ?" if scope is not None else
           " AND NOT (k.scope >= ? AND k.scope < ?)"),
        params).fetchone()[0])


def numeric_keys(conn: sqlite3.Connection, rowids: list[int]) -> set[int]:
    """The keys among `rowids` with a value that has a digit ("how much" questions)."""
    marks = ", ".join("?" * len(rowids))
    return {rowid for (rowid,) in conn.execute(
        f"SELECT rowid FROM keys WHERE rowid IN ({marks}) AND numeric = 1", rowids)}


def with_passages(conn: sqlite3.Connection, rowids: list[int]) -> set[int]:
    """The notes among `rowids` that have passages (their first one is numbered 0), from
    the rows FTS5 keeps in its content table (`passages_fts` looks each rowid up by a
    query of its own: ≈15× slower)."""
    marks = ", ".join("?" * len(rowids))
    return {rowid // PASSAGE_SPAN for (rowid,) in conn.execute(
        f"SELECT id FROM passages_fts_content WHERE id IN ({marks})",
        [rowid * PASSAGE_SPAN for rowid in rowids])}


def holding_all(conn: sqlite3.Connection, names: Sequence[str], rowids: list[int],
                ) -> list[int]:
    """The notes among `rowids` whose text holds every one of the folded `names`."""
    if not names or not rowids:
        return []
    marks = ", ".join("?" * len(rowids))
    every = " AND ".join('"' + name.replace('"', '""') + '"' for name in names)
    return [rowid for (rowid,) in conn.execute(
        f"SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? AND rowid IN ({marks})",
        (every, *rowids))]


# --- stored text ------------------------------------------------------------------------------

def content_rows(conn: sqlite3.Connection, content: str,
                 rowids: list[int]) -> list[tuple[int, list[str]]]:
    """(id, columns) of the rows FTS5 keeps in its `content` table (`passages_fts_content`,
    `notes_fts_content`) for the rowids."""
    marks = ", ".join("?" * len(rowids))
    return [(rowid, columns) for rowid, *columns in conn.execute(
        f"SELECT * FROM {content} WHERE id IN ({marks})", rowids)]


def stored_rows(conn: sqlite3.Connection, table: Table,
                rowids: list[int]) -> list[tuple[int, list[str]]]:
    """(rowid, columns) of the table's documents for the rowids, as FTS5 stores them."""
    marks = ", ".join("?" * len(rowids))
    return [(rowid, columns) for rowid, *columns in conn.execute(
        f"SELECT rowid, * FROM {table.fts} WHERE rowid IN ({marks})", rowids)]


def match(forms: Iterable[str]) -> str:
    """An FTS5 OR of quoted forms: user text never reaches FTS5 syntax."""
    return " OR ".join('"' + form.replace('"', '""') + '"' for form in forms) or '""'


def weights(table: Table) -> str:
    """The table's BM25 weights as the arguments of `bm25()`."""
    return ", ".join(str(w) for w in table.weights)
