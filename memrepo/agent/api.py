"""The Python API: `Memory`, shared by the CLI and the MCP server.

    memory = Memory.open()                  # --repo / MEMREPO_REPO / the git repo of cwd
    memory.recall("michal", subject="electricity_bill", relation="amount", as_of="2026-04-15")
    memory.search("Lodz")
    memory.remember(scope="michal", subject="shoe", relation="size", object="44")

Reads go through the SQLite cache (refreshed first when stale); writes go through
memrepo.facts.writes (validated, appended, checked and committed).

Who reads is a `Reader` (memrepo.core.policy.trust), fixed when the Memory is made: a person by
default (reads the scope it names, and every note); an agent session reads only the scopes
its trust level allows (an untrusted one: its quarantine, and notes only with an explicit
grant). Every read method applies it — facts, notes, respellings and "did you mean".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.answer.question import MAX_QUERY_CHARS, analyse
from memrepo.answer.ranking import key_plan, note_plan
from memrepo.answer.search import FACTS_CATEGORY, SearchQuery, respellings, search, suggest
from memrepo.cache import Connection, memory_config
from memrepo.cache.query import (
    has_subject,
    history,
    note_location,
    recall_facts,
)
from memrepo.cache.session import CacheSession
from memrepo.clock import TimeInput, now, parse_user_time
from memrepo.core.config import CATEGORIES, Config
from memrepo.core.facts.events import FIELD_LIMITS, require_key
from memrepo.core.facts.times import Instant
from memrepo.core.policy.trust import HOST, Reader, check_scope
from memrepo.core.problems import InputError, Problem, require_length, require_utf8
from memrepo.core.records import HistoryEntry, RecallResult, SearchResult, WriteResult
from memrepo.core.text import key_slug
from memrepo.files import read_bytes
from memrepo.repo_root import find_root

if TYPE_CHECKING:
    from memrepo.answer.semantic import Semantic
    from memrepo.answer.why import Trace
    from memrepo.core.context_block import Block
    from memrepo.facts.writes import FactInput

SEARCH_CATEGORIES: tuple[str, ...] = (*CATEGORIES, FACTS_CATEGORY)
MAX_LIMIT = 1000


class Memory:
    """One memory repository (its work tree root).

    Reads go through a `CacheSession`: one open connection per thread, the cache's
    staleness checked before every query."""

    def __init__(self, root: str | Path, reader: Reader | None = None) -> None:
        self.root = Path(root)
        self.reader = reader or Reader()
        self._cache = CacheSession(self.root)
        self._semantic: Semantic | bool | None = False  # False: not looked for yet

    @property
    def semantic(self) -> Semantic | None:
        """The semantic layer where `memrepo[vectors]` is installed (looked for once)."""
        if self._semantic is False:
            from memrepo.answer.semantic import for_root

            self._semantic = for_root(self.root)
        return self._semantic if self._semantic is not True else None  # never True

    @classmethod
    def open(cls, path: str | Path | None = None, reader: Reader | None = None) -> Memory:
        return cls(find_root(None if path is None else str(path)), reader)

    # --- reading --------------------------------------------------------------------------

    def recall(self, scope: str, query: str | None = None, *, subject: str | None = None,
               relation: str | None = None, as_of: TimeInput | None = None,
               known_at: TimeInput | None = None) -> RecallResult:
        """What holds at valid time `as_of` as known at system time `known_at` (both
        default now): by key, by subject, or for a question in free text — or "not
        recorded". A question is read for the time it asks about ("in April", "last
        year", "when did … change"); explicit `as_of` / `known_at` win over it. Its
        answer carries the notes that match it beside the facts."""
        scopes = self.reader.fact_scopes(scope)
        _require_text(query=query, subject=subject, relation=relation)
        if subject is not None:  # a key with nothing left after folding names nothing
            require_key(subject, "x" if relation is None else relation)
        text = _recall_text(query, subject, relation)
        t = None if as_of is None else parse_user_time(as_of, "--as-of")
        known = None if known_at is None else parse_user_time(known_at, "--known-at")
        if subject is None:
            return self._recall_question(self._cache.connection(), scopes, text, t, known)
        # only this key (or subject) is read: the rows of others may be made after the answer
        conn = self._cache.connection((key_slug(subject), None if relation is None
                                       else key_slug(relation)))
        moment = now()
        facts = [fact for readable in scopes for fact in recall_facts(
            conn, readable, subject, relation, moment if t is None else t,
            moment if known is None else known)]
        if facts:
            return RecallResult("found", facts)
        if any(has_subject(conn, readable, subject) for readable in scopes):
            return RecallResult("not_recorded")  # nothing holds then: no misspelling to fix
        return RecallResult("not_recorded", [], self._suggest(text, scopes))

    def _recall_question(self, conn: Connection, scopes: Sequence[str], text: str,
                         t: Instant | None, known: Instant | None) -> RecallResult:
        from memrepo.answer.ask import MAX_NOTES, ask, part_statuses, remarks, unanswered_parts

        notes = MAX_NOTES if self.reader.reads_notes else 0
        config = self.config()
        answers = [ask(conn, readable, text, now(), as_of=t,
                       known_at=known, notes=notes if number == 0 else 0,
                       with_notes=notes > 0, config=config,
                       semantic=self.semantic)  # the notes once
                   for number, readable in enumerate(scopes)]
        facts = [fact for answer in answers for fact in answer.facts]
        suggestions = list(dict.fromkeys(s for answer in answers for s in answer.suggestions))
        respelled = {word: used for answer in answers for word, used in answer.respelled.items()}
        about = {} if facts else {subject: relations for answer in answers
                                  for subject, relations in answer.choice.recorded.items()}
        parts = [{"question": part, "status": "found" if found else "not_recorded"}
                 for part, found in part_statuses(answers)]
        return RecallResult("found" if facts else "not_recorded", facts, suggestions,
                            answers[0].notes, respelled, answers[0].window.to_json(),
                            about, unanswered_parts(answers) if facts else remarks(answers),
                            parts)

    def why(self, scope: str, subject: str, relation: str, *, as_of: TimeInput | None = None,
            known_at: TimeInput | None = None) -> list[Trace]:
        """Why the key holds what it holds at valid time `as_of` as known at `known_at`
        (both default now): each value's event, the commit that wrote it (author, date,
        Approved-by), session, source, verbatim quote and the values it replaced; empty
        when nothing is recorded."""
        from memrepo.answer.why import why

        scopes = self.reader.fact_scopes(scope)
        _require_text(subject=subject, relation=relation)
        require_key(subject, relation)
        moment = now()
        t = moment if as_of is None else parse_user_time(as_of, "--as-of")
        known = moment if known_at is None else parse_user_time(known_at, "--known-at")
        conn = self._cache.connection()
        return [trace for readable in scopes
                for trace in why(self.root, conn, readable, subject, relation, t, known,
                                 moment)]

    def context(self, scope: str, question: str, budget: int = 800) -> Block:
        """The context block for `question`: the text to put in the model's prompt
        (`.text`), its estimated `.tokens` (never over `budget`), how many items it
        `.included` and `.left_out`, and how many `.facts` lines it holds. Built for the
        host scope only: a session that reads just its quarantine gets none."""
        from memrepo.agent.context import build_context

        if self.reader.fact_scopes(scope) != (scope,):
            raise InputError(Problem("scope", "a context block is built only for a host "
                                     "session", "read the quarantine with recall"))
        return build_context(self.root, scope, question, budget)

    def history(self, scope: str, subject: str, relation: str) -> list[HistoryEntry]:
        """Every event of the key (§5.5), superseded and retracted ones included."""
        scopes = self.reader.fact_scopes(scope)
        _require_text(subject=subject, relation=relation)
        require_key(subject, relation)
        conn = self._cache.connection()
        return [entry for readable in scopes
                for entry in history(conn, readable, subject, relation, now())]

    def search(self, query: str, *, scope: str | None = None, category: str | None = None,
               limit: int = 10) -> SearchResult:
        """Notes and facts matching the words of `query` (folded), best first. A session's
        reader searches the facts of its readable scopes, and notes only when it reads
        notes."""
        if scope is not None:
            check_scope(scope)
        _require_text(query=query)
        if not query.strip():
            raise InputError(Problem("query", "is empty: nothing to search for",
                                     "give the words or the question to search for"))
        _check_search_args(category, limit)
        if self.reader.scope is None:
            request = SearchQuery(query, scope, category, limit, now())
            return search(self._cache.connection(), request, self.config())
        return self._session_search(query, scope or self.reader.scope, category, limit)

    def _session_search(self, query: str, scope: str, category: str | None,
                        limit: int) -> SearchResult:
        results: list[SearchResult] = []
        if category != FACTS_CATEGORY and self.reader.reads_notes:
            notes = search(self._cache.connection(),
                           SearchQuery(query, None, category, limit, now()), self.config())
            results.append(SearchResult(notes.status, [h for h in notes.results
                                                       if h.kind == "note"]))
        if category in (None, FACTS_CATEGORY):
            results += [search(self._cache.connection(),
                               SearchQuery(query, readable, FACTS_CATEGORY, limit, now()),
                               self.config()) for readable in self.reader.fact_scopes(scope)]
        hits = [hit for result in results for hit in result.results][:limit]
        return SearchResult("found" if hits else "not_recorded", hits)

    def note_text(self, name: str) -> str:
        """The file of the note called `name` (any category; archived notes are not
        notes any more), for readers of notes."""
        if not self.reader.reads_notes:
            raise InputError(Problem(name, "this session does not read notes",
                                     "start the server with --grant-host-reads"))
        found = note_location(self._cache.connection(), name)
        data = None if found is None else read_bytes(self.root, found[0])
        if data is None:
            raise InputError(Problem(name, "no such note",
                                     "use a name from an index or a recall answer"))
        return data.decode("utf-8", "replace")

    def config(self) -> Config:
        return self._cache.memo("config", lambda conn: memory_config(conn, self.root))

    def _suggest(self, text: str, scopes: Sequence[str]) -> list[str]:
        """Names a misspelled word of `text` probably meant (from the cache's terms), from
        what this reader may read only."""
        conn = self._cache.connection()
        question = analyse(text, now())
        notes = self.reader.reads_notes
        by_notes = [note_plan(conn, question)] if notes else []
        found: list[str] = []
        for scope in scopes:
            plans = [*by_notes, key_plan(conn, question, scope)]
            found += suggest(conn, respellings(question, plans).values(), scope, notes=notes)
        return list(dict.fromkeys(found))

    # --- writing (memrepo.facts.writes) ---------------------------------------------------

    def remember(self, *, scope: str, subject: str, relation: str, object: str,
                 valid_from: TimeInput | None = None, valid_to: TimeInput | None = None,
                 quote: str | None = None, source: str = "manual", session: str = "cli",
                 confidence: float = 1.0, trust: str = HOST, new_key: bool = False,
                 confirm: bool = False) -> WriteResult:
        """Status `similar_key` (nothing written, `similar` lists the recorded keys): the
        key is new and looks like recorded ones; call again with one of them, or with
        `new_key=True` if it is a different thing. `confirm=True` re-asserts the value
        that holds (refused when another value holds)."""
        from memrepo.facts import writes

        return writes.remember(self.root, scope=scope, subject=subject, relation=relation,
                               object=object, valid_from=valid_from, valid_to=valid_to,
                               quote=quote, source=source, session=session,
                               confidence=confidence, trust=trust, new_key=new_key,
                               confirm=confirm)

    def remember_many(self, facts: Sequence[FactInput], *, source: str = "manual",
                      session: str = "cli", trust: str = HOST) -> list[WriteResult]:
        """Many facts in one commit (one lock, one append per segment); all or nothing."""
        from memrepo.facts import writes

        return writes.remember_many(self.root, facts, source=source, session=session,
                                    trust=trust)

    def forget(self, *, scope: str, subject: str, relation: str, reason: str,
               valid_to: TimeInput | None = None, object: str | None = None, session: str = "cli",
               source: str = "manual", trust: str = HOST) -> WriteResult:
        from memrepo.facts import writes

        return writes.forget(self.root, scope=scope, subject=subject, relation=relation,
                             reason=reason, valid_to=valid_to, object=object, session=session,
                             source=source, trust=trust)

    def retract(self, *, scope: str, target: str, reason: str, session: str = "cli",
                source: str = "manual", trust: str = HOST) -> WriteResult:
        from memrepo.facts import writes

        return writes.retract(self.root, scope=scope, target=target, reason=reason,
                              session=session, source=source, trust=trust)


def _require_text(**values: str | None) -> None:
    """Read arguments are UTF-8 text of a sane length (a 1 MB query is refused, not run)."""
    for name, value in values.items():
        require_utf8(name, value)
        limit = MAX_QUERY_CHARS if name == "query" else FIELD_LIMITS[name]
        require_length(name, value, limit, "ask with fewer words")


def _recall_text(query: str | None, subject: str | None, relation: str | None) -> str:
    if subject is None and relation is not None:
        raise InputError(Problem("--relation", "a relation needs its subject",
                                 "add --subject SUBJECT (or give a free-text QUERY)"))
    if subject is None and not (query or "").strip():
        raise InputError(Problem("query", "is empty, and no --subject is given: nothing to "
                                 "recall", "give a question, or --subject [--relation]"))
    return f"{subject} {relation or ''}".strip() if subject is not None else query or ""


def _check_search_args(category: str | None, limit: int) -> None:
    if category is not None and category not in SEARCH_CATEGORIES:
        raise InputError(Problem("--category", f"unknown category {category!r}",
                                 f"use one of: {', '.join(SEARCH_CATEGORIES)}"))
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(Problem("--limit", f"limit must be between 1 and {MAX_LIMIT}, "
                                 f"not {limit}", f"give --limit between 1 and {MAX_LIMIT}"))
