"""Search over notes and facts (§7): the question's words ranked by memrepo.answer.ranking,
the hits that pass the relevance threshold, and "did you mean".

Notes are listed by BM25 (then category precedence) once one of them passes the relevance
threshold; a fact key must pass it itself. A fact hit is a key: the values
that hold at the time the text asks about (now by default), or its latest value when none
holds then. Quarantined scopes are searched only when asked for by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from memrepo.answer.clauses import clauses, in_turn, names_subject
from memrepo.answer.question import Question, analyse, window, without_terminal_codes
from memrepo.answer.ranking import Ranked, rank_keys, rank_notes
from memrepo.answer.relevance import Plan
from memrepo.cache import Connection
from memrepo.cache.fulltext import key_of_row, names_with_words
from memrepo.cache.query import event_path, notes_by_rowid, recall_during
from memrepo.core.config import CATEGORIES, Config
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.times import Instant
from memrepo.core.records import Fact, SearchHit, SearchResult
from memrepo.core.text import words

FACTS_CATEGORY = "facts"
SNIPPET_CHARS = 160


@dataclass(frozen=True, slots=True)
class SearchQuery:
    text: str
    scope: str | None
    category: str | None
    limit: int
    now: Instant


def search(conn: Connection, query: SearchQuery, config: Config) -> SearchResult:
    """The text's words ranked together; when that finds nothing and the text asks more
    than one question ("… and when is …"), each question's hits in turn — a fact only
    where its question says whose it is (memrepo.answer.clauses.names_subject)."""
    query = replace(query, text=without_terminal_codes(query.text))
    found = _search_text(conn, query, config)
    parts = [] if found.status == "found" else clauses(query.text)
    if len(parts) <= 1:
        return found
    each = [_search_text(conn, replace(query, text=part), config) for part in parts]
    kept = [_whose_said(part, result, query.now)
            for part, result in zip(parts, each, strict=True)]
    hits = in_turn(kept, _hit_identity)[:query.limit]
    return SearchResult("found" if hits else "not_recorded", hits,
                        list(dict.fromkeys(s for result in each for s in result.suggestions)),
                        {word: used for result in each for word, used in result.respelled.items()})


def _whose_said(part: str, result: SearchResult, now: Instant) -> list[SearchHit]:
    asked = analyse(part, now)
    return [hit for hit in result.results
            if hit.fact is None or names_subject(asked, hit.fact.subject)]


def _hit_identity(hit: SearchHit) -> tuple[str, str, str | None]:
    return hit.kind, hit.path, hit.fact.id if hit.fact is not None else hit.name


def _search_text(conn: Connection, query: SearchQuery, config: Config,
                 ) -> SearchResult:
    question = analyse(query.text, query.now)
    scored: list[tuple[float, int, SearchHit]] = []
    ranked: list[Ranked] = []
    if query.category in (None, *CATEGORIES):
        notes = rank_notes(conn, question, category=query.category, limit=query.limit)
        ranked.append(notes)
        scored.extend((score, config.rank(hit.category), hit)
                      for score, hit in _note_hits(conn, notes, question))
    if query.category in (None, FACTS_CATEGORY):
        keys = rank_keys(conn, question, query.scope, limit=query.limit)
        ranked.append(keys)
        scored.extend((score, config.rank(FACTS_CATEGORY), hit)
                      for score, hit in _fact_hits(conn, keys, question, query.now))
    scored.sort(key=lambda item: (round(item[0], 6), item[1], item[2].path))
    hits = [hit for _, _, hit in scored[:query.limit]]
    respelled = respellings(question, [r.plan for r in ranked])
    suggestions = suggest(conn, respelled.values(), query.scope)
    return SearchResult("found" if hits else "not_recorded", hits, suggestions, respelled)


def respellings(question: Question, plans: Iterable[Plan]) -> dict[str, str]:
    """Question word (as written, lower case) → the spelling searched instead."""
    raw = {term.word: term.raw for term in question.terms}
    return {raw.get(word, word): used for p in plans for word, used in p.corrections.items()}


def suggest(conn: Connection, respelled: Iterable[str], scope: str | None, *,
            notes: bool = True) -> list[str]:
    """Names a respelled word was probably about ("did you mean"); note names only when
    the reader may read notes."""
    used = list(dict.fromkeys(respelled))
    return names_with_words(conn, used, scope, notes=notes) if used else []


def _note_hits(conn: Connection, ranked: Ranked, question: Question,
               ) -> list[tuple[float, SearchHit]]:
    # once a note answers the question, the ranking behind it is shown too (a list to
    # choose from) without the notes that hold none of its salient words (found by a date
    # or change word alone); when none answers, nothing is
    answered = bool(ranked.answering(rarest_rule=False))
    hits = [hit for hit in ranked.hits if answered and hit.judgement.matched]
    rows = notes_by_rowid(conn, [hit.rowid for hit in hits])
    wanted = searched_words(question, ranked)
    out = []
    for hit in hits:
        path, name, category, description, body = rows[hit.rowid]
        out.append((hit.score, SearchHit("note", category, path,
                                         snippet(wanted, description, body), name=name)))
    return out


def _fact_hits(conn: Connection, ranked: Ranked, question: Question,
               now: Instant) -> list[tuple[float, SearchHit]]:
    asked = window(question, now)
    out: list[tuple[float, SearchHit]] = []
    for hit in ranked.answering(rarest_rule=True):
        key = key_of_row(conn, hit.rowid)
        facts = (recall_during(conn, *key, asked.start, asked.end, asked.known)
                 or recall_during(conn, *key, -FOREVER, FOREVER, now)[-1:])
        out.extend((hit.score, SearchHit("fact", FACTS_CATEGORY, event_path(conn, f.id, f.scope),
                                         _fact_snippet(f), fact=f)) for f in facts)
    return out


def _fact_snippet(fact: Fact) -> str:
    return f"{fact.subject}.{fact.relation} = {fact.object}"


def searched_words(question: Question, ranked: Ranked) -> list[str]:
    """The question's words as searched (respelled where they were) with their forms."""
    return [form for s in ranked.plan.searched for form in (s.used, *s.forms)]


def snippet(wanted: list[str], description: str, body: str) -> str:
    """The description when it has a searched word (or no body line has one), else the
    first body line that does."""
    want = set(wanted)
    if want and not want & set(words(description)):
        for line in body.split("\n"):
            if line.strip() and want & set(words(line)):
                return _shorten(line.strip())
    return _shorten(description)


def _shorten(text: str) -> str:
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS - 1] + "…"
