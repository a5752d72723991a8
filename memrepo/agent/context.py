"""`memrepo context` (SPEC §8): the block of memory a model reads before answering.

Gathers, for one question: the entity notes it names (mandatory lookup, by name or alias,
diacritics folded), the notes TRIGGERS.md maps it to, and the facts that hold now for the
named entities and for keys whose words appear in the question. Quarantine scopes are never
read. Packing within the budget is memrepo.core.context_block.build_block.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memrepo.cache import open_fresh
from memrepo.cache.query import recall_key, recall_subject
from memrepo.checks.config import worktree_config
from memrepo.clock import now
from memrepo.core.config import QUARANTINE_PREFIX
from memrepo.core.context_block import Block, NoteItem, build_block
from memrepo.core.headers import parse_note
from memrepo.core.problems import InputError, Problem
from memrepo.core.records import Fact
from memrepo.core.text import fts_query, words
from memrepo.core.triggers import TRIGGERS_PATH, matching_notes, parse_triggers
from memrepo.facts.segments import check_scope
from memrepo.files import read_bytes

MAX_CANDIDATES = 200
MAX_FACT_KEYS = 20
_STOP = frozenset((
    "a", "an", "and", "are", "at", "be", "did", "do", "does", "for", "from", "how", "i", "in",
    "is", "it", "me", "my", "of", "on", "or", "the", "to", "was", "what", "when", "where",
    "which", "who", "why", "will", "with", "you", "your",
))


def build_context(root: Path, scope: str, question: str, budget: int) -> Block:
    check_scope(scope)
    if scope.startswith(QUARANTINE_PREFIX):
        raise InputError(Problem("--scope", "a context block is never built from quarantine",
                                 f"use the host scope {scope[len(QUARANTINE_PREFIX):]!r}; "
                                 "review quarantined facts with `memrepo triage`"))
    config = worktree_config(root)
    conn = open_fresh(root)
    try:
        entities = mentioned_entities(conn, question)
        triggered = [n for n in _triggered(root, question) if n not in entities]
        notes = [*_note_items(conn, root, entities, True),
                 *_note_items(conn, root, triggered, False)]
        facts = _current_facts(conn, scope, question, [*entities, *triggered])
    finally:
        conn.close()
    try:
        return build_block(notes, facts, config.precedence, budget)
    except ValueError as err:
        raise InputError(Problem("--budget", str(err), "give a larger --budget")) from None


def mentioned_entities(conn: sqlite3.Connection, question: str) -> list[str]:
    """Entity notes whose name or an alias occurs in the question as whole folded words."""
    asked = f" {' '.join(words(question))} "
    terms = [w for w in set(words(question)) if w not in _STOP]
    if not terms:
        return []
    match = "{name aliases} : (" + " OR ".join(fts_query(w) for w in terms) + ")"
    rows = conn.execute(
        "SELECT n.name, n.aliases FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid "
        "WHERE notes_fts MATCH ? AND n.category = 'entities' LIMIT ?", (match, MAX_CANDIDATES))
    found = []
    for name, aliases_json in rows:
        spellings = [name.replace("-", " "), *_aliases(aliases_json)]
        if any(f" {' '.join(words(s))} " in asked for s in spellings if words(s)):
            found.append(name)
    return sorted(found)


def _aliases(aliases_json: str) -> list[str]:
    import json

    value = json.loads(aliases_json or "[]")
    return [a for a in value if isinstance(a, str)] if isinstance(value, list) else []


def _triggered(root: Path, question: str) -> list[str]:
    data = read_bytes(root, TRIGGERS_PATH)
    if data is None:
        return []
    triggers, _ = parse_triggers(data.decode("utf-8", "replace"))
    return matching_notes(triggers, question)


def _note_items(conn: sqlite3.Connection, root: Path, names: list[str], mandatory: bool,
                ) -> list[NoteItem]:
    items = []
    for name in names:
        row = conn.execute("SELECT path, category FROM notes WHERE name = ?", (name,)).fetchone()
        data = read_bytes(root, row[0]) if row else None
        note = parse_note(row[0], data) if row and data is not None else None
        if note is None or isinstance(note, Problem):
            continue
        updated = note.header.get("updated")
        items.append(NoteItem(row[1], name, note.description or "", note.body,
                              updated if isinstance(updated, str) else None, mandatory))
    return items


def _current_facts(conn: sqlite3.Connection, scope: str, question: str,
                   subjects: list[str]) -> list[Fact]:
    moment = now()
    facts: dict[str, Fact] = {}
    for subject in subjects:
        facts.update((f.id, f) for f in recall_subject(conn, scope, subject, moment, moment))
    for subject, relation in _question_keys(conn, scope, question):
        facts.update((f.id, f) for f in recall_key(conn, scope, subject, relation, moment,
                                                   moment))
    return sorted(facts.values(), key=lambda f: (f.subject, f.relation, f.valid_from))


def _question_keys(conn: sqlite3.Connection, scope: str, question: str,
                   ) -> list[tuple[str, str]]:
    """Keys whose subject or relation shares a content word with the question, best first."""
    terms = [w for w in set(words(question)) if w not in _STOP and len(w) > 2]
    if not terms:
        return []
    match = "{subject relation} : (" + " OR ".join(fts_query(w) for w in terms) + ")"
    rows = conn.execute(
        "SELECT e.subject, e.relation FROM facts_fts JOIN events e ON e.rowid = facts_fts.rowid "
        "WHERE facts_fts MATCH ? AND e.scope = ? ORDER BY bm25(facts_fts) LIMIT ?",
        (match, scope, MAX_CANDIDATES))
    keys = list(dict.fromkeys((s, r) for s, r in rows))
    return keys[:MAX_FACT_KEYS]
