"""Respelling a question's unknown words (memrepo.answer.keys): a word neither the memory
nor the concept table knows becomes the nearest word of the scope's keys, of entity names
or of the concept table — in a Polish, Slovak or Czech question any of its words, in an
English one the English words naming its concepts ("vna" → "van", "kredtu" → "kredyt",
"sestar" → "sestra", "cta" → "cat"), one edit for short words.
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.first_person import in_slavic
from memrepo.answer.identities import words
from memrepo.answer.question import head_nouns
from memrepo.answer.reading import IDENTITY, OPTIONAL, Reading
from memrepo.answer.relevance import close_spelling, osa_within
from memrepo.answer.stopwords import ENGLISH, POLISH, SLOVAK, STOP_WORDS
from memrepo.cache import Connection
from memrepo.cache.lookups import (
    entity_name_vocabulary,
    entity_notes_with_words,
    keys_with_words,
    naming_value_vocabulary,
    scope_term_counts,
    scope_vocabulary,
)
from memrepo.core.stems import base_forms


def respell(conn: Connection, scope: str, read: Reading, concepts: ConceptTable,
             ) -> dict[int, str]:
    """Words neither the memory nor the concept table knows, respelled to a close word of
    the scope's subjects and relations or of entity names ("vna" → "van"): position → the
    respelling."""
    unknown = [i for i in read.salient if not concepts.knows(read.folded[i])
               and i not in read.phrases  # "zajęcia DODATKOWE": a word of a phrase it knows
               and len(read.folded[i]) >= 3 and read.folded[i].isalpha()
               and read.folded[i] not in OPTIONAL]
    if not unknown:
        return {}
    counts, _ = scope_term_counts(conn, scope, {f for i in unknown
                                                for f in base_forms(read.folded[i])})
    note_words = {w for n in entity_notes_with_words(conn, [read.folded[i] for i in unknown],
                                                     "names", 20)
                  for s in (n.name, *n.aliases) for w in words(s)}
    respelled: dict[int, str] = {}
    slavic = _reads_slavic(read, concepts)  # the table's words: never for an English question
    for i in unknown:
        word = read.folded[i]
        if any(counts.get(f) for f in base_forms(word)) or word in note_words:
            continue
        reach = 1 if len(word) < 8 else 2
        vocabulary = [w for w in scope_vocabulary(conn, scope, word[0], len(word) - reach,
                                                  len(word) + reach)
                      + entity_name_vocabulary(conn, word[0], len(word) - reach,
                                               len(word) + reach)
                      + naming_value_vocabulary(conn, scope, word[0], len(word) - reach,
                                                len(word) + reach, IDENTITY)
                      + (_concept_words(concepts, word, reach) if slavic
                         else _concept_names(concepts, word, reach))
                      + [h for h in head_nouns() if h[0] == word[0]  # "nubmer"
                         and abs(len(h) - len(word)) <= reach]
                      if w not in STOP_WORDS]
        others = {read.folded[j] for j in read.salient if j != i}
        fixed = best_spelling(conn, scope, word, vocabulary, reach, others, concepts,
                              as_written=i in read.capitalised)
        if fixed is not None and fixed != word and (
                i not in read.acronyms or sorted(fixed) == sorted(word)):
            respelled[i] = fixed  # capitals: letters swapped only ("NPI" → nip, "SUP" no suv)
    return respelled


def _reads_slavic(read: Reading, concepts: ConceptTable) -> bool:
    """Whether a question is Polish, Slovak or Czech: by its function words, or — with no
    English one among them — by a word the table knows that names no concept in English
    ("godzny OTWARCIA przedszkla", "numer rejstracyjny AUTA") or by a letter English does
    not write ("ż", "č")."""
    if in_slavic(read.folded):
        return True
    if any(w in ENGLISH and w not in POLISH | SLOVAK for w in read.folded):
        return False
    names = _english_names(concepts)
    return any(concepts.knows(w) and w not in names for w in read.folded) or any(
        not raw.isascii() for raw in read.raw)


def _english_names(concepts: ConceptTable) -> frozenset[str]:
    return frozenset(name for concept in concepts.words_of for name in concept.split("_"))


def _concept_words(concepts: ConceptTable, word: str, reach: int) -> list[str]:
    """One-word entries of the concept table a misspelling of `word` may be ("sestar" →
    "sestra", "plny" → "plyn"): same first letter, length within `reach`."""
    return [w for w in concepts.exact if w[:1] == word[:1]
            and abs(len(w) - len(word)) <= reach and " " not in w]


def _concept_names(concepts: ConceptTable, word: str, reach: int) -> list[str]:
    """The English words that name the table's concepts ("cat", "dog", "rent") or its
    everyday verbs ("live") a misspelling in an English question may be ("cta", "dgo",
    "lvie"): same first letter, length within `reach` — never another language's word
    ("numer" for "number")."""
    names = [name for name in concepts.words_of if name in concepts.exact]
    verbs = [verb for verb in _ENGLISH_VERBS  # a letter left out, added or swapped: "pass"
             if len(verb) != len(word) or sorted(verb) == sorted(word)]  # is no "pays"
    return [name for name in (*names, *verbs) if name[:1] == word[:1]
            and abs(len(name) - len(word)) <= reach]


_ENGLISH_VERBS = ("live", "lives", "living", "work", "works", "born", "drive", "drives",
                  "pay", "pays", "paid", "cost", "costs", "earn", "earns", "speak", "speaks",
                  "owe", "study", "studies", "teach", "teaches", "play", "plays", "called")
"""The English verbs of everyday relations ("where does Paul LVIE": live), which no
concept is named by."""


def names_a_person(conn: Connection, word: str, concepts: ConceptTable) -> bool:
    """Whether a word is a role ("sister") or a word of an entity note's name or alias."""
    return bool(concepts.word_concepts(word) & concepts.roles) or bool(
        entity_notes_with_words(conn, [word], "names", 1))


def best_spelling(conn: Connection, scope: str, word: str, vocabulary: Sequence[str],
                   reach: int, others: set[str], concepts: ConceptTable,
                   as_written: bool = False) -> str | None:
    """The nearest spelling of `word` in `vocabulary`; of several equally near, one that a
    key holds beside another word of the question ("dau rate" → `day_rate`, not `dad`),
    else one whose concept a key of the scope holds ("plny" → "plyn": `gas_bill`, not
    "plony", crops nobody records). A name (`as_written`: capitalised) is respelled as
    written, never by a base form ("DANEL" is Daniel, not "dan", whose form is "daň")."""
    forms = [word, *(f for f in base_forms(word) if len(f) >= 4 and not as_written)]
    if len(word) >= 5 and word.endswith("s"):  # "hvies": a plural the stemmer cannot read
        forms.append(word[:-1])
    distances = {term: min(osa_within(form, term, reach) for form in forms)
                 for term in dict.fromkeys(vocabulary) if term != word and not term.isdigit()}
    best = min(distances.values(), default=reach + 1)
    nearest = [term for term, distance in distances.items() if distance == best]
    if best > reach or not nearest:
        return None
    if len(nearest) > 1:  # "markts": nearer as written to `market` than to `marek`
        written = {term: osa_within(word, term, reach + 2) for term in nearest}
        nearest = [t for t in nearest if written[t] == min(written.values())]
    if len(nearest) > 1 and others:
        for term in nearest:
            for column in ("relation", "subject"):
                keys = keys_with_words(conn, scope, [term], column, 20)
                if any(others & {*words(k.subject_key), *words(k.relation_key)}
                       for k in keys):
                    return term
    if len(nearest) > 1:
        nearest = [t for t in nearest if _concept_held(conn, scope, t, concepts)] or nearest
    return next((found for form in forms if (found := close_spelling(form, nearest))), None)


def _concept_held(conn: Connection, scope: str, term: str, concepts: ConceptTable) -> bool:
    """Whether a key of the scope holds a word of the term's concepts."""
    forms = {f for concept in concepts.word_concepts(term)
             for w in concepts.words_of.get(concept, ()) if len(folded := words(w)) == 1
             for f in base_forms(folded[0])}
    return any(keys_with_words(conn, scope, forms, column, 1)
               for column in ("subject", "relation")) if forms else False
