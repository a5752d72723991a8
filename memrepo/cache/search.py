"""Full-text search over notes and facts (§7), and "did you mean" suggestions.

Stored text and queries are both folded by memrepo.core.folding.fold; user text reaches
FTS5 only as quoted words (fts_query). Results are ordered by BM25, then by category
precedence. Quarantined scopes are searched only when asked for by name.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from memrepo.cache.query import HOLDING_COLUMNS, fact_from_row
from memrepo.core.config import CATEGORIES, Config
from memrepo.core.folding import fold, fts_query, words
from memrepo.core.times import Instant
from memrepo.records import SearchHit, SearchResult

QUARANTINE_PREFIX = "quarantine-"
FACTS_CATEGORY = "facts"
SNIPPET_CHARS = 160
NOTE_WEIGHTS = "10.0, 5.0, 8.0, 1.0"  # name, description, aliases, body
FACT_WEIGHTS = "6.0, 3.0, 4.0, 1.0"  # subject, relation, object, quote
SUGGESTION_CUTOFF = 75


@dataclass(frozen=True, slots=True)
class SearchQuery:
    text: str
    scope: str | None
    category: str | None
    limit: int
    now: Instant


def search(conn: sqlite3.Connection, query: SearchQuery, config: Config) -> SearchResult:
    match = fts_query(query.text)
    scored: list[tuple[float, int, SearchHit]] = []
    if match and query.category in (None, *CATEGORIES):
        scored.extend((score, config.rank(hit.category), hit)
                      for score, hit in _note_hits(conn, match, query))
    if match and query.category in (None, FACTS_CATEGORY):
        scored.extend((score, config.rank(FACTS_CATEGORY), hit)
                      for score, hit in _fact_hits(conn, match, query))
    scored.sort(key=lambda item: (round(item[0], 6), item[1], item[2].path))
    hits = [hit for _, _, hit in scored[:query.limit]]
    if hits:
        return SearchResult("found", hits)
    return SearchResult("not_recorded", [], suggest(conn, query.text, query.scope))


def _note_hits(conn: sqlite3.Connection, match: str, query: SearchQuery,
               ) -> list[tuple[float, SearchHit]]:
    sql = (f"SELECT bm25(notes_fts, {NOTE_WEIGHTS}) AS score, n.path, n.name, n.category, "
           "n.description, n.body FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid "
           "WHERE notes_fts MATCH ?")
    params: list[Any] = [match]
    if query.category is not None:
        sql += " AND n.category = ?"
        params.append(query.category)
    rows = conn.execute(sql + " ORDER BY score LIMIT ?", (*params, query.limit))
    wanted = words(query.text)
    return [(score, SearchHit("note", category, path, _snippet(wanted, description, body),
                              name=name))
            for score, path, name, category, description, body in rows]


def _fact_hits(conn: sqlite3.Connection, match: str, query: SearchQuery,
               ) -> list[tuple[float, SearchHit]]:
    """Asserts that hold some valid interval under current knowledge (retracted and fully
    superseded ones are history, not answers)."""
    columns = ", ".join(f"h.{c.strip()}" for c in HOLDING_COLUMNS.split(","))
    sql = (f"SELECT bm25(facts_fts, {FACT_WEIGHTS}) AS score, e.path, {columns} "
           "FROM facts_fts JOIN events e ON e.rowid = facts_fts.rowid "
           "JOIN holdings h ON h.event_id = e.id AND h.scope = e.scope "
           "AND h.known_from <= ? AND ? < h.known_to WHERE facts_fts MATCH ?")
    params: list[Any] = [query.now, query.now, match]
    if query.scope is not None:
        sql += " AND e.scope = ?"
        params.append(query.scope)
    else:
        sql += " AND e.scope NOT LIKE 'quarantine-%'"
    rows = conn.execute(sql + " ORDER BY score LIMIT ?", (*params, query.limit * 4))
    hits: dict[str, tuple[float, SearchHit]] = {}
    for score, path, *holding in rows:
        fact = fact_from_row(holding)
        if fact.id not in hits:
            snippet = f"{fact.subject}.{fact.relation} = {fact.object}"
            hits[fact.id] = (score, SearchHit("fact", FACTS_CATEGORY, path, snippet, fact=fact))
    return list(hits.values())


def _snippet(wanted: list[str], description: str, body: str) -> str:
    """The description when it has a searched word (or no body line has one), else the
    first body line that does."""
    if wanted and not set(wanted) & set(words(description)):
        for line in body.split("\n"):
            if line.strip() and set(wanted) & set(words(line)):
                return _shorten(line.strip())
    return _shorten(description)


def _shorten(text: str) -> str:
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS - 1] + "…"


# --- did you mean -------------------------------------------------------------------------

def suggest(conn: sqlite3.Connection, text: str, scope: str | None, limit: int = 5,
            ) -> list[str]:
    """Existing subjects, note names and aliases spelled close to `text`."""
    from rapidfuzz import fuzz, process  # ≈10 ms import, only when nothing was found

    key = _comparable(text)
    if not key:
        return []
    choices: dict[str, str] = {}
    for candidate in _candidates(conn, scope):
        choices.setdefault(_comparable(candidate), candidate)
    found = process.extract(key, list(choices), scorer=fuzz.WRatio, limit=limit,
                            score_cutoff=SUGGESTION_CUTOFF)
    return [choices[choice] for choice, _, _ in found]


def _comparable(text: str) -> str:
    return " ".join(fold(text).replace("-", " ").replace("_", " ").replace(".", " ").split())


def _candidates(conn: sqlite3.Connection, scope: str | None) -> Iterable[str]:
    yield from (row[0] for row in conn.execute("SELECT name FROM notes"))
    yield from (row[0] for row in conn.execute("SELECT alias FROM aliases"))
    if scope is None:
        yield from (row[0] for row in conn.execute(
            "SELECT DISTINCT subject FROM events WHERE subject IS NOT NULL "
            "AND scope NOT LIKE 'quarantine-%'"))
        return
    keys = conn.execute("SELECT DISTINCT subject, relation FROM events WHERE scope = ? "
                        "AND subject IS NOT NULL", (scope,)).fetchall()
    yield from sorted({subject for subject, _ in keys})
    yield from (f"{subject}.{relation}" for subject, relation in keys)
