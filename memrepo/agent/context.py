"""`memrepo context` (SPEC §8): the block of memory a model reads before answering.

Gathers, for one question: the entity notes it names (mandatory lookup, by name or alias,
diacritics folded), the notes TRIGGERS.md maps it to, and the facts that hold now for the
named entities and for keys whose words appear in the question. Quarantine scopes are never
read. Packing within the budget is memrepo.core.context_block.build_block.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.cache import Connection, open_fresh
from memrepo.cache.query import (
    entity_candidates,
    keys_with_words,
    note_location,
    recall_key,
    recall_subject,
)
from memrepo.checks.config import worktree_config
from memrepo.clock import now
from memrepo.core.config import QUARANTINE_PREFIX
from memrepo.core.context_block import Block, NoteItem, build_block
from memrepo.core.headers import parse_note
from memrepo.core.problems import InputError, Problem
from memrepo.core.records import Fact
from memrepo.core.text import words
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


def mentioned_entities(conn: Connection, question: str) -> list[str]:
    """Entity notes whose name or an alias occurs in the question as whole folded words."""
    asked = f" {' '.join(words(question))} "
    terms = [w for w in set(words(question)) if w not in _STOP]
    if not terms:
        return []
    found = []
    for name, aliases in entity_candidates(conn, terms, MAX_CANDIDATES):
        spellings = [name.replace("-", " "), *aliases]
        if any(f" {' '.join(words(s))} " in asked for s in spellings if words(s)):
            found.append(name)
    return sorted(found)


def _triggered(root: Path, question: str) -> list[str]:
    data = read_bytes(root, TRIGGERS_PATH)
    if data is None:
        return []
    triggers, _ = parse_triggers(data.decode("utf-8", "replace"))
    return matching_notes(triggers, question)


def _note_items(conn: Connection, root: Path, names: list[str], mandatory: bool,
                ) -> list[NoteItem]:
    items = []
    for name in names:
        found = note_location(conn, name)
        if found is None:
            continue
        path, category = found
        data = read_bytes(root, path)
        note = parse_note(path, data) if data is not None else None
        if note is None or isinstance(note, Problem):
            continue
        updated = note.header.get("updated")
        items.append(NoteItem(category, name, note.description or "", note.body,
                              updated if isinstance(updated, str) else None, mandatory))
    return items


def _current_facts(conn: Connection, scope: str, question: str,
                   subjects: list[str]) -> list[Fact]:
    moment = now()
    facts: dict[str, Fact] = {}
    for subject in subjects:
        facts.update((f.id, f) for f in recall_subject(conn, scope, subject, moment, moment))
    for subject, relation in _question_keys(conn, scope, question):
        facts.update((f.id, f) for f in recall_key(conn, scope, subject, relation, moment,
                                                   moment))
    return sorted(facts.values(), key=lambda f: (f.subject, f.relation, f.valid_from))


def _question_keys(conn: Connection, scope: str, question: str) -> list[tuple[str, str]]:
    """Keys whose subject or relation shares a content word with the question, best first."""
    terms = [w for w in set(words(question)) if w not in _STOP and len(w) > 2]
    if not terms:
        return []
    return keys_with_words(conn, scope, terms, MAX_CANDIDATES)[:MAX_FACT_KEYS]
