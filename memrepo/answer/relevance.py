"""The relevance rules of retrieval (SPEC §7), pure: which forms of a question to search
within a postings budget, close spellings, and the IDF coverage and rarest-word rule that
decide "not recorded". Also the fusion of ranked lists by a weighted score sum: how a
note's best passage joins its note-level BM25, and the seam where another ranked list (an
opt-in semantic ranking) can join them.

The thresholds were measured on refusal questions, not guessed (see the README's memory
benchmark and notes in memrepo.bench.questions): a note or key answers a question when the
salient words it contains carry at least half of the question's IDF (`COVERAGE`); a fact
key must also contain the question's rarest salient word — "How much does my gas bill
cost?" covers 0.55 of `electricity_bill.amount` ("bill", "cost") but misses "gas", the
word the question is about.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from memrepo.answer.question import Question, Term
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.core.stems import base_forms

COVERAGE = 0.5
"""Share of the question's IDF a hit must contain to answer it."""
LONG_QUESTION = 4
LONG_COVERAGE = 0.4
"""A note answers a question of LONG_QUESTION or more salient words with LONG_COVERAGE of
its IDF: a long question carries words of context ("When Dave was a child, what did he and
his father do in the garage?") that the note answering it need not repeat. Measured: LoCoMo
session recall@3 of search 0.860 → 0.888 (all) and 0.832 → 0.848 (held out); it made no
refusal answer — the memory benchmark's, the varied set's, nor 48 questions written for notes
over the demo memory (24 short, 24 long; tests/retrieval_test.py keeps the long ones). Fact
keys keep COVERAGE and the rarest-word rule."""
POSTINGS_BUDGET = 2_500
"""Searched forms are taken rarest first while their document frequencies add up to at
most this: FTS5 reads and scores every posting of every searched form (≈1 µs each), so
this bounds the cost of any question on a large store. Forms left out are the commoner
ones; they still count in every hit's coverage. The rarest form is always searched: when
it alone is over the budget (every word of the question is common in a large memory),
only the documents holding the forms in a name field and the last `POSTINGS_BUDGET`
documents holding it in index order are searched (`over_budget`)."""
SECOND_WORD_SHARE = 2
"""The second rarest word is searched whatever the budget up to this many budgets."""
NAMES_WALK = 2 * POSTINGS_BUDGET
"""Over the budget, the forms' postings are still read, rarest first while they add up to
at most this (none when the rarest alone is over it), for the documents that hold them in
a name field (a note's name or aliases, a key's subject or relation): only those are
scored (reading a posting costs ≈1/25 of scoring it)."""

SPELLING_MIN_LETTERS = 5
"""Shorter words are not respelled: "water" is one edit from "after"."""
AMOUNT = "#amount"
"""The pseudo-word of "how much" questions: matched by keys whose value has a digit."""


def idf(df: int, n: int) -> float:
    """BM25's inverse document frequency (never negative)."""
    return math.log((n - df + 0.5) / (df + 0.5) + 1)


# --- close spellings ------------------------------------------------------------------------

def can_respell(word: str) -> bool:
    return len(word) >= SPELLING_MIN_LETTERS and not any(ch.isdigit() for ch in word)


def spelling_reach(word: str) -> int:
    """Edits allowed: one, two from eight letters on (a swap of neighbours is one edit)."""
    return 1 if len(word) < 8 else 2


def close_spelling(word: str, vocabulary: Iterable[str]) -> str | None:
    """The vocabulary word nearest to `word` within `spelling_reach` edits (optimal string
    alignment: "kowalsky" → "kowalski", "electrcity" → "electricity"); ties go to the
    first candidate. The vocabulary is expected to share the first letter."""
    reach = spelling_reach(word)
    candidates = [t for t in vocabulary
                  if t != word and abs(len(t) - len(word)) <= reach and not t.isdigit()]
    if _in_python(len(candidates)):
        return nearest_within(word, candidates, reach)
    from rapidfuzz import process  # ≈6–10 ms to import
    from rapidfuzz.distance import OSA

    found = process.extractOne(word, candidates, scorer=OSA.distance, score_cutoff=reach)
    return None if found is None else str(found[0])


FEW_CANDIDATES = 200
"""Up to this many candidates in all, per process, are compared in Python (≈10–50 µs each:
a band of the table) rather than by rapidfuzz, which costs a one-shot command more to
import than they take; a long-lived process (the MCP server, the Python API) respelling
more words than that imports rapidfuzz once and compares in C from then on."""
_compared_in_python = [0]


def _in_python(candidates: int) -> bool:
    if _compared_in_python[0] + candidates > FEW_CANDIDATES:
        _compared_in_python[0] = FEW_CANDIDATES  # from now on, rapidfuzz
        return False
    _compared_in_python[0] += candidates
    return True


def nearest_within(word: str, candidates: Sequence[str], reach: int) -> str | None:
    """The first of the candidates nearest to `word`, if within `reach` edits (in Python:
    what rapidfuzz's `extractOne` with the OSA distance answers)."""
    distances = [osa_within(word, t, reach) for t in candidates]
    best = min(distances, default=reach + 1)
    return None if best > reach else candidates[distances.index(best)]


def osa_within(a: str, b: str, reach: int) -> int:
    """The optimal string alignment distance of `a` and `b` (insertions, deletions,
    substitutions and swaps of neighbours, no substring edited twice) when at most `reach`,
    else `reach` + 1: only the cells within `reach` of the diagonal are worked out (a cell
    off it is more than `reach` away; `reach` + 1 stands for it)."""
    over = reach + 1
    if abs(len(a) - len(b)) > reach:
        return over
    before: list[int] = []
    above = [j if j <= reach else over for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        row = [i if i <= reach else over] + [over] * len(b)
        for j in range(max(1, i - reach), min(len(b), i + reach) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cell = min(above[j] + 1, row[j - 1] + 1, above[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cell = min(cell, before[j - 2] + 1)
            row[j] = min(cell, over)
        before, above = above, row
    return above[len(b)]


# --- what is searched -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Searched:
    """One salient word as it is searched: the spelling used (the word or its close
    spelling) and those of its forms the index holds."""

    word: str
    used: str
    exact: tuple[str, ...]  # the spelling itself, when indexed
    forms: tuple[str, ...]  # every indexed form (exact first)
    amount: bool
    kind: bool = False  # names the kind of the answer (question.Term.kind)
    naming: bool = False  # asks what something is called (question.Term.naming)
    verb: bool = False  # the question's verb (question.Term.verb)
    head: str = ""  # a head noun beside another word: the kind of value (question.Term.head)

    @property
    def respelled(self) -> bool:
        return self.used != self.word


Lookup = Callable[[Iterable[str]], dict[str, int]]
"""Document frequencies of the given forms (those the index holds)."""
Respell = Callable[[str], str | None]


@dataclass(frozen=True, slots=True)
class Plan:
    searched: tuple[Searched, ...]
    df: dict[str, int]
    n: int  # documents in the index
    read_as: dict[str, str] = field(default_factory=dict)  # a question word's typo → it

    @property
    def corrections(self) -> dict[str, str]:
        return {**self.read_as, **{s.word: s.used for s in self.searched if s.respelled}}

    @property
    def unknown(self) -> list[str]:
        return [s.word for s in self.searched if not s.forms]


def plan(terms: Sequence[Term], n: int, lookup: Lookup, respell: Respell | None) -> Plan:
    """The forms of each salient word the index holds; a word with none is replaced by
    its close spelling when `respell` finds one, or — the opening question word missing a
    letter, "Wher…" — read as that word and not searched."""
    df = lookup({form for term in terms for form in (term.word, *term.bases)})
    searched: list[Searched] = []
    read_as: dict[str, str] = {}
    for term in terms:
        used, forms = term.word, (term.word, *term.bases)
        if term.opening and not any(df.get(form) for form in forms) and (
                typo := question_word_typo(term.word)):
            read_as[term.word] = typo
            continue
        if not any(df.get(form) for form in forms) and respell and can_respell(term.word):
            fixed = respell(term.word)
            if fixed is not None:
                used, forms = fixed, base_forms(fixed)
                df.update(lookup(forms))
        present = tuple(dict.fromkeys(f for f in forms if df.get(f)))
        exact = tuple(f for f in present[:1] if f == used)
        searched.append(Searched(term.word, used, exact, present, term.amount, term.kind,
                                 term.naming, term.verb, term.head))
    return Plan(tuple(searched), df, n, read_as)


_QUESTION_WORDS = ("what", "whats", "where", "wheres", "which", "whose", "when", "gdzie",
                   "kiedy", "ktory",
                   "ktora", "ktore", "jaki", "jaka", "jakie", "kedy", "kolko", "kolik",
                   "ktery", "ktera", "ktere", "jaky", "jake", "jaka")


def question_word_typo(word: str) -> str | None:
    """The question word that opens a question with one letter after its first missing or
    two swapped ("Wher do I live?", "Whic car…", "Whcih markets", "Gdize mieszka…"), for
    words of four letters or more that the memory lacks: only the opening word, and only
    these words, since many such typos are words too ("cold" is "could" without its u,
    "lease" is "please" without its p, "hose" is "whose" without its w)."""
    return _question_words_missing_a_letter().get(word) if len(word) >= 4 else None


@lru_cache(maxsize=1)
def _question_words_missing_a_letter() -> dict[str, str]:
    found: dict[str, str] = {}
    for stop in _QUESTION_WORDS:
        for i in range(1, len(stop)):
            found.setdefault(stop[:i] + stop[i + 1:], stop)
        for i in range(1, len(stop) - 1):  # two letters swapped: "whcih", "wehre", "waht"
            found.setdefault(stop[:i] + stop[i + 1] + stop[i] + stop[i + 2:], stop)
    return {typo: stop for typo, stop in found.items() if typo not in STOP_WORDS}


def budgeted_forms(searched: Sequence[Searched], df: dict[str, int],
                   budget: int = POSTINGS_BUDGET) -> list[str]:
    """Forms to search, rarest first: whole words (all their forms), rarest word first,
    while the words' postings add up to at most `budget` — a word costs its commonest
    form's postings once, since its forms hold mostly the same documents. The rarest word
    always; the second rarest too unless it alone is over SECOND_WORD_SHARE budgets
    ("Michał Lewandowska" needs both names: the surname alone ranks every Lewandowska)."""
    words = sorted((max(df[form] for form in s.forms), s.forms) for s in searched if s.forms)
    chosen: list[str] = []
    spent = 0
    for rank, (cost, forms) in enumerate(words):
        always = rank == 0 or (rank == 1 and cost <= SECOND_WORD_SHARE * budget)
        if not always and spent + cost > budget:
            break
        chosen.extend(form for form in forms if form not in chosen)
        spent += cost
    return sorted(chosen, key=lambda form: (df[form], form))


def over_budget(forms: Sequence[str], df: Mapping[str, int],
                budget: int = POSTINGS_BUDGET) -> bool:
    """The rarest of `forms` (`budgeted_forms`) alone is over the budget: besides the
    documents holding the forms in a name field, only the last `budget` documents holding
    it in index order are searched (BM25 would read its whole posting list, twice: to
    count it and to score it)."""
    return bool(forms) and df[forms[0]] > budget


# --- judging a hit --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Judgement:
    coverage: float  # share of the question's IDF this hit contains
    matched: tuple[str, ...] = field(default=())  # the question's words it contains
    rarest_missed: bool = False  # it lacks a word as rare as any word it has, or rarer
    words: int = 0  # the question's weighted salient words

    def answers(self, rarest_rule: bool) -> bool:
        """Fact keys (`rarest_rule`): COVERAGE and the rarest word; notes: COVERAGE, or
        LONG_COVERAGE for a long question."""
        if rarest_rule:
            return self.coverage >= COVERAGE and not self.rarest_missed
        needed = LONG_COVERAGE if self.words >= LONG_QUESTION else COVERAGE
        return self.coverage >= needed


def word_weights(p: Plan, amount: int | None = None, *, verbs: bool = False,
                 kinds: bool = False, notes: bool = False,
                 values: frozenset[str] = frozenset()) -> dict[str, float]:
    """Each salient word's IDF (a word the index lacks: the largest, as if seen nowhere);
    `amount`: the number of documents with a numeric value, when the question asks "how
    much" without a word for it. For a fact key whose subject is the kind of the answer
    (`verbs`: "what car do I drive" and `car.model`), the question's verb of having or
    habit (question.Term.verb) weighs nothing: it names the key's relation in other
    words. For a key whose relation holds another word of the question (`kinds`: "which
    languages do I speak" and `michal.speaks`), the word naming the kind of the answer
    that the index lacks weighs nothing: values name things, not their kinds ("English",
    not "language"); so does a head noun beside a word when the key's value is of the kind
    it asks for (question.Term.head, `values`: "phone NUMBER" and `dentist.phone` = "+48 …";
    not "room NUMBER" and `michal.room` = "the attic").
    Notes are prose that would use those words; but a note gives a name without saying
    "name" (`notes`: "What is the vet's name?" and a note about the vet), so words asking
    what something is called weigh nothing for notes."""
    weights: dict[str, float] = {}
    for s in p.searched:
        if (notes and s.naming) or (verbs and s.verb) or (kinds and s.head in values) or (
                kinds and s.kind and not s.forms):
            continue
        counted = s.exact or s.forms
        weights[s.word] = idf(max((p.df[f] for f in counted), default=0), p.n)
    if amount is not None:
        weights[AMOUNT] = idf(amount, p.n)
    return weights


def judge(tokens: set[str], p: Plan, weights: dict[str, float], numeric: bool = False,
          *, of_the_kind: bool = False) -> Judgement:
    """How much of the question a hit (its indexed tokens, folded and base forms)
    contains. Words asking for an amount ("cost", "ile", `AMOUNT`) are contained by a hit
    whose value is a number (`numeric`). `of_the_kind` (fact keys): a hit lacking the word
    that names the kind of the answer, or the name asked for, where the index holds that
    word, counts as missing its rarest word."""
    total = sum(weights.values())
    if not total:
        return Judgement(0.0)
    matched = [s.word for s in p.searched if s.word in weights
               and ((s.amount and numeric) or any(f in tokens for f in s.forms))]
    if AMOUNT in weights and numeric:
        matched.append(AMOUNT)
    gained = sum(weights[word] for word in matched)
    best = max((weights[word] for word in matched), default=0.0)
    rarest_missed = any(w > best - 1e-9 for word, w in weights.items() if word not in matched)
    if of_the_kind:  # a fact key that lacks the kind of the answer the memory knows is
        # about something else ("What car do I drive?" and `brother.drives`), as is one that
        # lacks the name asked for ("What is my dog's name?" and `dog.walker`)
        rarest_missed = rarest_missed or any(
            (s.kind or s.naming) and s.forms and s.word not in matched for s in p.searched)
    words = sum(1 for word in weights if word != AMOUNT)
    return Judgement(gained / total, tuple(matched), rarest_missed, words)


def asks_amount_alone(question: Question) -> bool:
    """A "how much / ile / koľko" question with no word of its own for the amount."""
    return question.asks_amount and not any(term.amount for term in question.terms)


# --- fusion ---------------------------------------------------------------------------------

def fuse_scores(lists: Sequence[tuple[float, Mapping[int, float]]]) -> dict[int, float]:
    """A weighted sum of several scorings of documents (weight, {id: score}, higher is
    better), each score taken relative to the best of its list (1.0 = the best, a document
    a list lacks scores 0 there). Measured on LoCoMo (the README's LoCoMo tables): a score
    sum keeps what each list knows; reciprocal rank fusion with equal weights lost 0.03–0.08
    recall@3 against BM25 alone."""
    fused: dict[int, float] = {}
    for weight, scores in lists:
        best = max(scores.values(), default=0.0)
        if best <= 0:
            continue
        for doc, score in scores.items():
            # the share first: weight × score can underflow below `best` (5e-324)
            fused[doc] = fused.get(doc, 0.0) + weight * (max(score, 0.0) / best)
    return fused
