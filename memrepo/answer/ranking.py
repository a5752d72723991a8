"""Retrieval from the question (SPEC §7): notes and fact keys ranked for a question.

The question's salient words (memrepo.answer.question) are looked up in the terms tables;
a word the index lacks is replaced by a close spelling from the same table; the forms are
searched rarest first within a postings budget as an OR (any word may match), ranked by
BM25 with field weights; the best hits are judged by IDF coverage (memrepo.answer.relevance),
which decides whether anything answers at all.

A note's rank also weighs its best passage (a long note's body in blocks of a few lines):
half the note's BM25, half its best passage's, each relative to the best of its list, plus
COVERED times the share of the question's IDF that its best passage holds; a note holding
every name the question writes with a capital letter gains NAMED. Each was measured on
LoCoMo's dev and held-out questions (the README's LoCoMo tables).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from memrepo.answer.question import HEAD_ADDRESS, HEAD_NUMBER, Question, Term
from memrepo.answer.relevance import (
    NAMES_WALK,
    POSTINGS_BUDGET,
    Judgement,
    Plan,
    asks_amount_alone,
    budgeted_forms,
    close_spelling,
    fuse_scores,
    judge,
    over_budget,
    plan,
    spelling_reach,
    word_weights,
)
from memrepo.cache import Connection
from memrepo.cache.fulltext import (
    KEY_OBJECT_COLUMN,
    KEY_RELATION_COLUMNS,
    KEY_SUBJECT_COLUMNS,
    KEYS,
    NOTES,
    Table,
    Within,
    best_matching,
    best_passages,
    content_rows,
    every_note_matching,
    holding_all,
    holds_term,
    in_category,
    in_scope,
    longer_terms,
    match,
    newest_matching,
    numeric_key_count,
    numeric_keys,
    scope_key_count,
    stored_rows,
    term_counts,
    terms_within_reach,
    with_passages,
)
from memrepo.cache.terms import DOCUMENTS, row_tokens
from memrepo.core.text import PASSAGE_SPAN

POOL = 50
"""Notes (and passages) ranked by BM25 before the fusion picks the best of them."""
PASSAGE_SHARE = 0.5
"""Weight of the best passage in a note's score (the note-level BM25 has the rest)."""
COVERED = 0.5
"""Added to a note's (0–1) score times the share of the question's IDF that its best
passage holds (a short note: the note itself): BM25 pays for a word repeated, this for the
question's distinct words found together. Measured on LoCoMo (the README's tables);
windows of 10–30 words instead of a whole passage gained less."""
COVERED_NOTES = 12
"""The notes, best first, whose coverage is worked out (each costs a row read and split;
its best passage only: more passages per note, or more notes, gained nothing; 12 ranks
every LoCoMo question as 20 did, 10 loses one of 1,978, and 12 keeps search p99 under
20 ms at 100k notes)."""
NAMED = 0.3
"""Added to the (0–1) score of a note that holds every capitalised name of the question:
a soft preference, never a filter (a note in scope `ola` may not say "Ola")."""
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




def rank_notes(conn: Connection, question: Question, *, category: str | None = None,
               limit: int = JUDGED, respell: bool = True,
               budget: int = POSTINGS_BUDGET) -> Ranked:
    """Notes for the question, best first. Its date and change words are searched too
    (Question.also_searched) but do not count in coverage."""
    p = note_plan(conn, question, respell)
    dated = _plan(conn, NOTES, question.also_searched, False)
    df = {**p.df, **dated.df}
    forms = budgeted_forms([*p.searched, *dated.searched], df, budget)
    if not forms:
        return Ranked([], p)
    if over_budget(forms, df, budget):
        walked = budgeted_forms([*p.searched, *dated.searched], df, NAMES_WALK)
        rows = _over_budget(conn, NOTES, walked, df, budget, in_category(category))
    else:
        rows = _fused_notes(conn, match(forms), category, question.names, p)
    return Ranked(_judged(conn, NOTES, rows, p, None, set())[:limit], p)


def rank_keys(conn: Connection, question: Question, scope: str | None, *,
              respell: bool = True, limit: int = JUDGED,
              budget: int = POSTINGS_BUDGET) -> Ranked:
    """Fact keys of `scope` (None: of every scope but quarantines) for the question, best
    first."""
    p = key_plan(conn, question, scope, respell)
    forms = budgeted_forms(p.searched, p.df, budget)
    if not forms:
        return Ranked([], p)
    within = in_scope(scope)
    if over_budget(forms, p.df, budget):
        walked = budgeted_forms(p.searched, p.df, NAMES_WALK)
        found = _over_budget(conn, KEYS, walked, p.df, budget, within)
    else:
        found = best_matching(conn, KEYS, match(forms), within, max(limit, JUDGED))
    amount = None
    if asks_amount_alone(question):
        amount = numeric_key_count(conn, scope, within[2])
    numeric = numeric_keys(conn, [rowid for rowid, _ in found[:JUDGED]])
    return Ranked(_judged(conn, KEYS, found, p, amount, numeric)[:limit], p)


def note_plan(conn: Connection, question: Question, respell: bool = True) -> Plan:
    """How the question's words are searched in notes (respelled where the notes lack
    them): all "did you mean" needs, without ranking anything."""
    return _plan(conn, NOTES, question.terms, respell)


def key_plan(conn: Connection, question: Question, scope: str | None,
             respell: bool = True) -> Plan:
    """How the question's words are searched in fact keys of `scope` (None: of every scope
    but quarantines): a word is respelled only to a term that scope's keys hold — the
    terms' table serves every scope, and a respelling is shown to the asker."""
    join, where, params = in_scope(scope)
    if scope is None:
        return _plan(conn, KEYS, question.terms, respell, lambda _: (join, where, params))
    sizes: list[int] = []  # the scope's key count, counted once a word is respelled

    def within(term: str) -> tuple[str, str, list[str]]:
        """The smaller side drives the probe: the term's postings (CROSS JOIN: the
        full-text match first), or the scope's keys, each probed in the index — a 20k-key
        scope took 0.6 s that way, a common term walked the other took 0.2 s."""
        if not sizes:
            sizes.append(scope_key_count(conn, scope))
        df = term_counts(conn, KEYS, [term]).get(term, 0)
        cross = df <= sizes[0]
        return (join.replace("JOIN", "CROSS JOIN", 1) if cross else join), where, params
    return _plan(conn, KEYS, question.terms, respell, within)


# --- the pieces -------------------------------------------------------------------------------

def _plan(conn: Connection, table: Table, terms: Sequence[Term], respell: bool,
          within: Callable[[str], Within] | None = None) -> Plan:
    """`within`: for a term, the join and condition (`_in_scope`) of the documents a
    respelling to it must occur in (None: any of the table's)."""
    n = term_counts(conn, table, [DOCUMENTS]).get(DOCUMENTS, 0)

    def lookup(forms: Iterable[str]) -> dict[str, int]:
        return term_counts(conn, table, forms)

    def held(term: str) -> bool:
        return within is None or holds_term(conn, table, term, within(term))

    def spell(word: str) -> str | None:
        rejected: set[str] = set()
        for _ in range(SPELLINGS_TRIED):
            found = _spelling(conn, table, word, rejected)
            if found is None or held(found):
                return found
            rejected.add(found)
        return None

    return plan(terms, n, lookup, spell if respell else None)


def _spelling(conn: Connection, table: Table, word: str,
              rejected: set[str]) -> str | None:
    """The indexed term `word` probably meant, other than the `rejected`: a longer one it
    starts ("member" → "membership"), else the closest spelling within reach."""
    longer = [term for term in longer_terms(conn, table, word, LONGER_BY, len(rejected) + 1)
              if term not in rejected]
    if longer:
        return longer[0]
    vocabulary = [term for term in terms_within_reach(conn, table, word, spelling_reach(word))
                  if term not in rejected]
    return close_spelling(word, vocabulary)


SPELLINGS_TRIED = 4
"""Respellings tried in turn until one is held by the scope asked."""


def _over_budget(conn: Connection, table: Table, forms: list[str],
                 df: dict[str, int], budget: int, within: Within) -> list[tuple[int, float]]:
    """When the rarest form (`forms[0]`) is over the budget: the documents holding the
    forms in a name field, by BM25 (unless the rarest is in more than NAMES_WALK
    documents), then the last `budget` documents in index order (highest rowid: the order
    of the last build, then of syncs — not a time) holding the rarest form within the
    category or scope asked, scored 0.0 (its posting list is read from that end, and only
    this far)."""
    walked = [] if over_budget(forms, df, NAMES_WALK) else forms
    named = best_matching(conn, table, f"{table.names} : ({match(walked)})", within,
                          JUDGED) if walked else []
    # the newest JUDGED of the last `budget` documents are the newest JUDGED: read from the
    # posting list's end and stopped there (with a scope or category asked, each posting
    # read costs a row look-up: no first pass to find where the budget ends)
    last = newest_matching(conn, table, forms[:1], within, min(budget, JUDGED))
    seen = {rowid for rowid, _ in named}
    return [*named, *(row for row in last if row[0] not in seen)][:JUDGED]


def _fused_notes(conn: Connection, query: str, category: str | None,
                 names: Sequence[str], p: Plan) -> list[tuple[int, float]]:
    """(rowid, score) of the best notes, lower is better: the fused 0–1 score times the
    best note-level BM25, so scores stay on the scale of the other tables' BM25. Every
    note the forms match is scored once (their postings are within the budget): the
    best of them, and those of the best passages, come from the same rows."""
    every = every_note_matching(conn, query, in_category(category))
    if not every:
        return []
    scored = {rowid: score for score, rowid in every}
    notes = {rowid: score for score, rowid in heapq.nsmallest(POOL, every)}
    best_passage: dict[int, float] = {}
    passage_of: dict[int, int] = {}  # a note's best passage
    for rowid, score in best_passages(conn, query, in_category(category, PASSAGE_SPAN),
                                      2 * POOL):
        best_passage.setdefault(rowid // PASSAGE_SPAN, -score)
        passage_of.setdefault(rowid // PASSAGE_SPAN, rowid)
    notes.update({rowid: scored[rowid] for rowid in best_passage if rowid in scored})
    long_notes = with_passages(conn, list(notes))
    note_part = {rowid: -score for rowid, score in notes.items()}
    top = max(note_part.values())
    passage_part = dict(best_passage)
    if top > 0:  # a short note is its own passage: its note-level share stands for it
        best = max(passage_part.values(), default=top)
        passage_part.update({rowid: score / top * best for rowid, score in note_part.items()
                             if rowid not in long_notes})
    fused = fuse_scores([(1 - PASSAGE_SHARE, note_part), (PASSAGE_SHARE, passage_part)])
    for rowid in holding_all(conn, names, list(fused)):
        fused[rowid] += NAMED
    _add_coverage(conn, p, fused, passage_of, long_notes)
    ranked = sorted(fused, key=lambda rowid: (-fused[rowid], rowid))[:JUDGED]
    return [(rowid, -top * fused[rowid]) for rowid in ranked]


def _add_coverage(conn: Connection, p: Plan, fused: dict[int, float],
                  passage_of: dict[int, int], long_notes: set[int]) -> None:
    """COVERED times its coverage added to the score of each of the first COVERED_NOTES
    notes that it could bring into the first JUDGED."""
    ranked = sorted(fused, key=lambda rowid: (-fused[rowid], rowid))
    if not ranked:
        return
    bar = fused[ranked[:JUDGED][-1]] - COVERED
    contenders = [rowid for rowid in ranked[:COVERED_NOTES] if fused[rowid] >= bar]
    for rowid, share in _coverage(
            conn, p, [passage_of[rowid] for rowid in contenders if rowid in passage_of],
            [rowid for rowid in contenders if rowid not in long_notes]).items():
        fused[rowid] += COVERED * share


def _coverage(conn: Connection, p: Plan, passages: list[int], short: list[int],
              ) -> dict[int, float]:
    """The share of the question's IDF (as `_judged` weighs it) held by each of the
    `passages` (rowids; keyed by its note) and each of the `short` notes (no passages: the
    note is its own passage), from the rows FTS5 keeps in its content tables
    (`with_passages`)."""
    weights = word_weights(p, notes=True)
    shares: dict[int, float] = {}
    for content, span, rowids in (("passages_fts_content", PASSAGE_SPAN, passages),
                                  ("notes_fts_content", 1, short)):
        for rowid, columns in content_rows(conn, content, rowids):
            shares[rowid // span] = judge(row_tokens(columns), p, weights).coverage
    return shares


def _judged(conn: Connection, table: Table, rows: list[tuple[int, float]],
            p: Plan, amount: int | None, numeric: set[int]) -> list[Hit]:
    """Each hit's coverage, from its stored text: which of the searched forms it holds
    (its tokens as FTS5 made them)."""
    if not rows:
        return []
    judged = rows[:JUDGED]
    forms = {form for s in p.searched for form in s.forms}
    kinds = {form for s in p.searched if s.kind for form in s.forms}
    held = {rowid: _held(table, forms, kinds, columns) for rowid, columns in stored_rows(
        conn, table, [rowid for rowid, _ in judged])}
    weights: dict[tuple[bool, bool, frozenset[str]], dict[str, float]] = {}
    hits = []
    for rowid, score in judged:
        found = held.get(rowid, _Held())
        rule = (found.subject_is_kind, _beyond_subject(p, found.subject, found.relation),
                _value_kinds(rowid in numeric, found.has_at))
        if rule not in weights:
            weights[rule] = word_weights(p, amount, verbs=rule[0], kinds=rule[1],
                                         notes=table is NOTES, values=rule[2])
        hits.append(Hit(rowid, score, judge(found.every, p, weights[rule], rowid in numeric,
                                            of_the_kind=table is KEYS)))
    return hits


@dataclass(frozen=True, slots=True)
class _Held:
    """The searched forms a hit holds: for a fact key, by column."""

    every: set[str] = field(default_factory=set)
    subject: set[str] = field(default_factory=set)
    relation: set[str] = field(default_factory=set)
    subject_is_kind: bool = False  # the key's subject is the kind of the answer ("car")
    has_at: bool = False  # a value of the key holds an "@" (an e-mail address)


def _held(table: Table, forms: set[str], kinds: set[str], columns: Sequence[str]) -> _Held:
    every = forms & row_tokens(columns)
    if table is not KEYS:
        return _Held(every)
    subject_words = row_tokens(columns[KEY_SUBJECT_COLUMNS[0]:KEY_SUBJECT_COLUMNS[0] + 1])
    return _Held(every, forms & row_tokens(columns[i] for i in KEY_SUBJECT_COLUMNS),
                 forms & row_tokens(columns[i] for i in KEY_RELATION_COLUMNS),
                 bool(subject_words) and subject_words <= kinds,
                 "@" in (columns[KEY_OBJECT_COLUMN] or ""))


def _value_kinds(digits: bool, at: bool) -> frozenset[str]:
    """The kinds of value (question.HEAD_NUMBER, HEAD_ADDRESS) a key's values are."""
    return frozenset([HEAD_NUMBER, HEAD_ADDRESS] if digits else [HEAD_ADDRESS] if at else [])


def _beyond_subject(p: Plan, subject: set[str], relation: set[str]) -> bool:
    """Whether a key's relation holds a word of the question other than the kind of the
    answer or a head noun that its subject does not ("which languages do I speak":
    `speaks`; "the dentist's phone number": `phone`): only then is a kind word the memory
    lacks, or the head noun, forgiven (relevance.word_weights) — else the subject's
    name alone would answer "Which dog does Michal have?" with any fact about Michal, and
    a value that happens to be the question's verb ("What games do I play?" — the phone
    operator Play) would answer too."""
    return any(not subject.intersection(s.forms) and bool(relation.intersection(s.forms))
               for s in p.searched if not s.kind and not s.head)
