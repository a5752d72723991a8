"""`memrepo context` (SPEC §8): the block of memory a model reads before answering.

Gathers, for one question (memrepo.answer.ask): the entity notes it names (mandatory
lookup, by name or alias, diacritics folded, a misspelled name found by its close
spelling with a "did you mean" line), the notes TRIGGERS.md maps it to, the notes of
every category retrieval finds for it, and the facts that answer the question at the time
it asks about (when none does: what is recorded about the subject asked, relations only).
Quarantine scopes are never read.
Packing within the budget is memrepo.core.context_block.build_block.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.answer.ask import Answer, ask, remarks, unanswered_parts
from memrepo.answer.question import MAX_QUERY_CHARS
from memrepo.answer.semantic import for_root
from memrepo.cache import Connection, memory_config, open_fresh
from memrepo.cache.query import note_content, note_location
from memrepo.clock import now
from memrepo.core.config import QUARANTINE_PREFIX
from memrepo.core.context_block import Block, NoteItem, build_block, json_quoted
from memrepo.core.notes.triggers import TRIGGERS_PATH, matching_notes, parse_triggers
from memrepo.core.policy.trust import check_scope
from memrepo.core.problems import InputError, Problem, require_length, require_utf8
from memrepo.files import read_bytes

MAX_RETRIEVED_NOTES = 8


def build_context(root: str | Path, scope: str, question: str, budget: int) -> Block:
    """The context block for `question` from the memory at the work tree `root`."""
    root = Path(root)
    check_scope(scope)
    require_utf8("question", question)
    require_length("question", question, MAX_QUERY_CHARS, "ask with fewer words")
    if scope.startswith(QUARANTINE_PREFIX):
        raise InputError(Problem("--scope", "a context block is never built from quarantine",
                                 f"use the host scope {scope[len(QUARANTINE_PREFIX):]!r}; "
                                 "review quarantined facts with `memrepo triage`"))
    conn = open_fresh(root)
    try:
        config = memory_config(conn, root)
        answer = ask(conn, scope, question, now(), notes=MAX_RETRIEVED_NOTES, config=config,
                     semantic=for_root(root))
        meant = [name for name in answer.suggestions if name not in answer.entities
                 and _category(conn, name) == "entities"]
        entities = [*answer.entities, *meant]
        triggered = [n for n in _triggered(root, question) if n not in entities]
        retrieved = [n.name for n in answer.notes if n.name not in entities + triggered]
        notes = [*_note_items(conn, entities, True),
                 *_note_items(conn, [*triggered, *retrieved], False)]
        facts = sorted(answer.facts, key=lambda f: (f.subject, f.relation, f.valid_from))
    finally:
        conn.close()
    notices = [*_notices(answer, meant),
               *(f"- note: {remark}" for remark in (
                   unanswered_parts([answer]) if facts else remarks([answer])))]
    try:
        return build_block(notes, facts, config.precedence, budget, notices)
    except ValueError as err:
        raise InputError(Problem("--budget", str(err), "give a larger --budget")) from None


def _notices(answer: Answer, meant: list[str]) -> list[str]:
    if not answer.respelled:
        return []
    searched = ", ".join(f"'{used}' for '{word}'" for word, used in answer.respelled.items())
    names = ", ".join(map(json_quoted, meant or answer.suggestions))  # note names: data
    return [f"- did you mean: {names}? (searched {searched})" if names
            else f"- spelling: searched {searched} (a note on the search, not a fact)"]


def _category(conn: Connection, name: str) -> str | None:
    found = note_location(conn, name)
    return None if found is None else found[1]


def _triggered(root: Path, question: str) -> list[str]:
    data = read_bytes(root, TRIGGERS_PATH)
    if data is None:
        return []
    triggers, _ = parse_triggers(data.decode("utf-8", "replace"))
    return matching_notes(triggers, question)


def _note_items(conn: Connection, names: list[str], mandatory: bool) -> list[NoteItem]:
    """The notes as the (fresh) cache indexed them: a note that does not parse is not
    there, so it is left out."""
    items = []
    for name in names:
        found = note_content(conn, name)
        if found is not None:
            category, description, body, updated = found
            items.append(NoteItem(category, name, description, body, updated, mandatory))
    return items
