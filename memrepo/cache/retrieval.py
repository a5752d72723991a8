"""Retrieval from the question (SPEC §7): notes and fact keys ranked for a question.

The question's salient words (memrepo.core.question) are looked up in the terms tables;
a word the index lacks is replaced by a close spelling from the same table; the forms are
searched rarest first within a postings budget as an OR (any word may match), ranked by
BM25 with field weights; the best hits are judged by IDF coverage (memrepo.core.relevance),
which decides whether anything answers at all.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memrepo.cache.terms import DOCUMENTS
from memrepo.core.question import Question, Term
from memrepo.core.relevance import (
    Judgement,
    Plan,
    asks_amount_alone,
    budgeted_forms,
    close_spelling,
    judge,
    plan,
    spelling_reach,
    word_weights,
)

NOTE_WEIGHTS = (20.0, 10.0, 16.0, 2.0, 10.0, 5.0, 8.0, 1.0)
"""name, description, aliases, body, then their base forms (half the folded weight)."""
KEY_WEIGHTS = (12.0, 10.0, 6.0, 3.0, 6.0, 5.0, 3.0, 1.5)
"""subject, relation, values, quotes, then their base forms."""
LONGER_BY = 4
"""A word the index lacks is first tried as the beginning of a longer indexed word, at
most this many letters longer."""
JUDGED = 10
"""Hits whose coverage is worked out (and the most any ranking returns)."""


@dataclass(frozen=True, slots=True)
class Hit:
    rowid: int
    score: float  # BM25, lower is better (FTS5's sign)
    judgement: Judgement


@dataclass(frozen=True, slots=True)
class Ranked:
    hits: list[Hit]
    plan: Plan

    def answering(self, rarest_rule: bool) -> list[Hit]:
        return [hit for hit in self.hits if hit.judgement.answers(rarest_rule)]


@dataclass(frozen=True, slots=True)
class _Table:
    fts: str
    terms: str
    weights: tuple[float, ...]


NOTES = _Table("notes_fts", "notes_terms", NOTE_WEIGHTS)
KEYS = _Table("keys_fts", "keys_terms", KEY_WEIGHTS)


def rank_notes(conn: sqlite3.Connection, question: Question, *, category: str | None = None,
               limit: int = JUDGED, respell: bool = True) -> Ranked:
    """Notes for the question, best first. The date words of the question are searched
    too (a note's text carries its dates) but do not count in coverage."""
    p = _plan(conn, NOTES, question.terms, respell)
    dated = _plan(conn, NOTES, question.date_terms, False)
    forms = budgeted_forms([*p.searched, *dated.searched], {**p.df, **dated.df})
    if not forms:
        return Ranked([], p)
    where, params = "", [_match(forms)]
    join = ""
    if category is not None:
        join, where = "JOIN notes n ON n.rowid = f.rowid", "AND n.category = ?"
        params.append(category)
    rows = conn.execute(
        f"SELECT f.rowid, bm25(notes_fts, {_weights(NOTES)}) AS score, 0 FROM notes_fts f "
        f"{join} WHERE notes_fts MATCH ? {where} ORDER BY score LIMIT ?",
        (*params, max(limit, JUDGED))).fetchall()
    return Ranked(_judged(conn, NOTES, rows, p, None)[:limit], p)


def rank_keys(conn: sqlite3.Connection, question: Question, scope: str | None, *,
              respell: bool = True, limit: int = JUDGED) -> Ranked:
    """Fact keys of `scope` (None: of every scope but quarantines) for the question, best
    first."""
    p = _plan(conn, KEYS, question.terms, respell)
    forms = budgeted_forms(p.searched, p.df)
    if not forms:
        return Ranked([], p)
    in_scope = "k.scope = ?" if scope is not None else "k.scope NOT LIKE 'quarantine-%'"
    rows = conn.execute(
        f"SELECT f.rowid, bm25(keys_fts, {_weights(KEYS)}) AS score, k.numeric "
        f"FROM keys_fts f JOIN keys k ON k.rowid = f.rowid "
        f"WHERE keys_fts MATCH ? AND {in_scope} ORDER BY score LIMIT ?",
        (_match(forms), *([scope] if scope is not None else []), max(limit, JUDGED)))
    amount = None
    if asks_amount_alone(question):
        amount = conn.execute(
            f"SELECT count(*) FROM keys k WHERE {in_scope} AND numeric = 1",
            [scope] if scope is not None else []).fetchone()[0]
    return Ranked(_judged(conn, KEYS, rows.fetchall(), p, amount)[:limit], p)


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
    match = _match(words)
    if match == '""':
        return []
    names = [name for (name,) in conn.execute(
        "SELECT n.name FROM notes_fts f JOIN notes n ON n.rowid = f.rowid "
        "WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT ?",
        (f"{{name aliases}} : ({match})", limit))] if notes else []
    if scope is not None:
        for subject, relation in conn.execute(
                "SELECT k.subject, k.relation FROM keys_fts f JOIN keys k ON k.rowid = f.rowid "
                "WHERE keys_fts MATCH ? AND k.scope = ? ORDER BY bm25(keys_fts) LIMIT ?",
                (f"{{subject relation}} : ({match})", scope, limit)):
            names += [subject, f"{subject}.{relation}"]
    return list(dict.fromkeys(names))[:limit]


# --- the pieces -------------------------------------------------------------------------------

def _plan(conn: sqlite3.Connection, table: _Table, terms: Sequence[Term],
          respell: bool) -> Plan:
    n = _lookup(conn, table, [DOCUMENTS]).get(DOCUMENTS, 0)

    def lookup(forms: Iterable[str]) -> dict[str, int]:
        return _lookup(conn, table, forms)

    def spell(word: str) -> str | None:
        longer = conn.execute(
            f"SELECT term FROM {table.terms} WHERE term > ? AND term < ? "
            "AND length(term) <= ? ORDER BY length(term), df DESC LIMIT 1",
            (word, word[:-1] + chr(ord(word[-1]) + 1), len(word) + LONGER_BY)).fetchone()
        if longer is not None:  # "member" → "membership"
            return str(longer[0])
        reach = spelling_reach(word)
        vocabulary = [term for (term,) in conn.execute(
            f"SELECT term FROM {table.terms} WHERE term >= ? AND term < ? "
            "AND length(term) BETWEEN ? AND ?",
            (word[0], chr(ord(word[0]) + 1), len(word) - reach, len(word) + reach))]
        return close_spelling(word, vocabulary)

    return plan(terms, n, lookup, spell if respell else None)


def _lookup(conn: sqlite3.Connection, table: _Table, forms: Iterable[str]) -> dict[str, int]:
    wanted = list(dict.fromkeys(forms))
    if not wanted:
        return {}
    marks = ", ".join("?" * len(wanted))
    return dict(conn.execute(f"SELECT term, df FROM {table.terms} WHERE term IN ({marks})",
                             wanted).fetchall())


def _match(forms: Iterable[str]) -> str:
    """An FTS5 OR of quoted forms: user text never reaches FTS5 syntax."""
    return " OR ".join('"' + form.replace('"', '""') + '"' for form in forms) or '""'


def _weights(table: _Table) -> str:
    return ", ".join(str(w) for w in table.weights)


def _judged(conn: sqlite3.Connection, table: _Table, rows: list[tuple[int, float, int]],
            p: Plan, amount: int | None) -> list[Hit]:
    """Each hit's coverage, from its stored text: which of the searched forms it holds
    (one scan of the text per hit for all forms at once)."""
    if not rows:
        return []
    judged = rows[:JUDGED]
    marks = ", ".join("?" * len(judged))
    forms = sorted({form for s in p.searched for form in s.forms}, key=len, reverse=True)
    found = re.compile(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, forms)) + r")(?![a-z0-9])"
                       ) if forms else None
    tokens = {rowid: set(found.findall(" ".join(texts))) if found else set()
              for rowid, *texts in conn.execute(
                  f"SELECT rowid, * FROM {table.fts} WHERE rowid IN ({marks})",
                  [rowid for rowid, _, _ in judged])}
    weights = word_weights(p, amount)
    return [Hit(rowid, score, judge(tokens.get(rowid, set()), p, weights, bool(numeric)))
            for rowid, score, numeric in judged]
