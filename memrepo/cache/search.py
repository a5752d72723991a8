"""Full-text search over notes and facts (§7), and "did you mean" suggestions.

Stored text and queries are both folded by memrepo.core.text.fold; user text reaches
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
from memrepo.core.records import SearchHit, SearchResult
from memrepo.core.text import fold, fts_query, words
from memrepo.core.times import Instant

FACTS_CATEGORY = "facts"
SNIPPET_CHARS = 160
NOTE_WEIGHTS = "10.0, 5.0, 8.0, 1.0"  # name, description, aliases, body
FACT_WEIGHTS = "6.0, 3.0, 4.0, 1.0"  # subject, relation, object, quote
FACT_CANDIDATES = 200
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
    return SearchResult("found" if hits else "not_recorded", hits)


def _note_hits(conn: sqlite3.Connection, match: str, query: SearchQuery,
               ) -> list[tuple[float, SearchHit]]:
    # Rank inside the FTS table first and join only the winners: joining every match
    # (with its body) before sorting costs O(matches).
    category = "" if query.category is None else "WHERE n.category = ?"
    sql = (f"SELECT s.score, n.path, n.name, n.category, n.description, n.body FROM "
           f"(SELECT rowid, bm25(notes_fts, {NOTE_WEIGHTS}) AS score FROM notes_fts "
           f"WHERE notes_fts MATCH ? ORDER BY score {'' if category else 'LIMIT ?'}) s "
           f"JOIN notes n ON n.rowid = s.rowid {category} ORDER BY s.score LIMIT ?")
    params: list[Any] = [match, query.category] if category else [match, query.limit]
    rows = conn.execute(sql, (*params, query.limit))
    wanted = words(query.text)
    return [(score, SearchHit("note", category, path, _snippet(wanted, description, body),
                              name=name))
            for score, path, name, category, description, body in rows]


def _fact_hits(conn: sqlite3.Connection, match: str, query: SearchQuery,
               ) -> list[tuple[float, SearchHit]]:
    """Asserts that hold some valid interval under current knowledge (retracted and fully
    superseded ones are history, not answers)."""
    # Without a scope, rank inside the FTS table and join only the best FACT_CANDIDATES
    # (a few may turn out superseded); with a scope, every match of that scope is joined.
    ranked = (f"SELECT rowid, bm25(facts_fts, {FACT_WEIGHTS}) AS score FROM facts_fts "
              f"WHERE facts_fts MATCH ? ORDER BY score")
    if query.scope is None:
        ranked += f" LIMIT {max(FACT_CANDIDATES, query.limit * 20)}"
    sql = (f"SELECT s.score, e.path, {HOLDING_COLUMNS} FROM ({ranked}) s "
           "JOIN events e ON e.rowid = s.rowid "
           "JOIN holdings h ON h.event_id = e.id AND h.scope = e.scope "
           "AND h.known_from <= ? AND ? < h.known_to WHERE ")
    params: list[Any] = [match, query.now, query.now]
    if query.scope is not None:
        sql += "e.scope = ?"
        params.append(query.scope)
    else:
        sql += "e.scope NOT LIKE 'quarantine-%'"
    rows = conn.execute(sql + " ORDER BY s.score LIMIT ?", (*params, query.limit * 4))
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

def suggestion_choices(conn: sqlite3.Connection, scope: str | None) -> dict[str, str]:
    """Every name a suggestion can offer, keyed by its comparable (folded) spelling —
    the expensive half of `suggest`, worth keeping while the cache does not change."""
    choices: dict[str, str] = {}
    for candidate in _candidates(conn, scope):
        choices.setdefault(_comparable(candidate), candidate)
    return choices


def closest(choices: dict[str, str], text: str, limit: int = 5) -> list[str]:
    """The existing names spelled closest to `text` ("did you mean")."""
    from rapidfuzz import fuzz, process  # ≈10 ms import, only when nothing was found

    key = _comparable(text)
    if not key:
        return []
    found = process.extract(key, list(choices), scorer=fuzz.ratio, limit=limit,
                            score_cutoff=SUGGESTION_CUTOFF)
    return [choices[choice] for choice, _, _ in found]


def _comparable(text: str) -> str:
    return " ".join(fold(text).replace("-", " ").replace("_", " ").replace(".", " ").split())


def _candidates(conn: sqlite3.Connection, scope: str | None) -> Iterable[str]:
    yield from (row[0] for row in conn.execute("SELECT name FROM notes"))
    yield from (row[0] for row in conn.execute("SELECT alias FROM aliases"))
    if scope is None:  # keys in the form first recorded
        yield from (row[0] for row in conn.execute(
            "SELECT DISTINCT subject FROM keys WHERE scope NOT LIKE 'quarantine-%'"))
        return
    keys = conn.execute("SELECT subject, relation FROM keys WHERE scope = ?",
                        (scope,)).fetchall()
    yield from sorted({subject for subject, _ in keys})
    yield from (f"{subject}.{relation}" for subject, relation in keys)
