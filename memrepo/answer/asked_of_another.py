"""Keys that leave unheld a word the question asks by (SPEC §7, "Whose fact it is"): where
another subject's relation holds that word, the question asks it of that subject ("do
kiedy PRZEGLĄD octavii": the van's inspection is recorded, the Octavia's is not — her
insurance's end is no answer); a key of a bare amount answers no question naming a thing
it does not hold ("koľko platíme za VODU": not the hockey fee). Used by
`memrepo.answer.keys` on the keys that answer."""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.clauses import PREPOSITIONS
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import words
from memrepo.answer.question import ARTICLES
from memrepo.answer.reading import AMOUNT as AMOUNT_WORDS
from memrepo.answer.reading import IDENTITY, Reading
from memrepo.answer.scoring import AMOUNT_CONCEPTS, KeyMatch
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.cache import Connection
from memrepo.cache.lookups import keys_with_words
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of


def not_asked_of_another(conn: Connection, scope: str, read: Reading,
                         answering: list[KeyMatch], concepts: ConceptTable,
                         ) -> list[KeyMatch]:
    """The keys that hold every word of the concept table the question asks by — or whose
    subject has another relation holding it ("Lenka's phone and BIRTHDAY") — where another
    subject's relation holds it, and the keys of a bare amount that hold every such word."""
    held_by = {mark for match in answering for mark in match.by_relation}
    kept = []
    for match in answering:
        unheld = _unheld(read, match, held_by, concepts)
        if unheld and (_bare_amount(match) or _asked_of_another(
                conn, scope, match, _forms_and_synonyms(unheld, read, concepts))):
            continue
        kept.append(match)
    return kept


def _unheld(read: Reading, match: KeyMatch, held_by: set[str], concepts: ConceptTable,
            ) -> set[str]:
    """The question's words of the concept table that ask for something the key does not
    hold: not a word another answering key holds ("my sister's PHONE and EMAIL"), a name, the
    kind of the answer ("which COMPANY"), whose ("MAMA Zuzki"), how often or of how much
    ("a MONTH", "a KILOGRAM"), a
    word that counts only where held ("DUE"), what any amount is called where the key is
    one ("CHARGE per kilo"), the thing a part points back to, where ("AT THE SALON"), nor a
    word that says nothing ("DO której", "name", "date")."""
    return {read.folded[i] for i in read.salient if read.concepts.get(i)
            and i not in read.capitalised and i not in read.kinds
            and not read.concepts[i] & (concepts.roles | _HOW_MUCH_OF)
            and i not in read.optional
            and not (match.key.numeric and read.concepts[i] & AMOUNT_CONCEPTS)
            and i < len(read.folded) - read.pointed
            and not _after_a_preposition(read.folded, i)
            and read.folded[i] not in _SAYS_NOTHING
            and not {f"#{i}", f"~{i}"} & (match.held | held_by)}


def _bare_amount(match: KeyMatch) -> bool:
    """A key whose relation only says it is an amount (`hockey_fee.amount`)."""
    return match.key.numeric and set(words(match.key.relation_key)) <= AMOUNT_WORDS


def _asked_of_another(conn: Connection, scope: str, match: KeyMatch, forms: set[str],
                      ) -> bool:
    """Whether a relation of another subject holds the words, and none of the key's own
    subject does."""
    holders = {row.subject_key for row in keys_with_words(conn, scope, forms, "relation",
                                                          _HOLDERS)}
    return bool(holders) and match.key.subject_key not in holders


def _forms_and_synonyms(unheld: set[str], read: Reading, concepts: ConceptTable,
                        ) -> set[str]:
    """The words' base forms and the one-word synonyms their concepts list ("MAIL do
    Chemia-Polu": `autodetal.email` holds it)."""
    named = frozenset().union(*(read.concepts.get(i, frozenset()) for i in read.salient
                                if read.folded[i] in unheld))
    said = (words(phrase) for concept in named for phrase in concepts.words_of.get(concept, ()))
    synonyms = {one[0] for one in said if len(one) == 1}
    return {f for word in unheld | synonyms for f in base_forms(word)}


def _after_a_preposition(folded: Sequence[str], i: int) -> bool:
    """A word of where or of what something is ("at the SALON", "the rent for the clinic
    PREMISES"), not the thing asked: a preposition at most three words before it, with only
    an article or words that are not function words between."""
    j = i - 1
    while j >= 0 and i - j <= _NOUN_PHRASE and folded[j] not in PREPOSITIONS and (
            folded[j] in ARTICLES or folded[j] not in STOP_WORDS):
        j -= 1
    return j >= 0 and folded[j] in PREPOSITIONS


_NOUN_PHRASE = 3
_HOW_MUCH_OF = frozenset(("monthly", "kilogram", "meter"))
"""How often or of how much an amount is ("a MONTH", "za KILOGRAM kawy"): no thing asked."""
_SAYS_NOTHING = STOP_WORDS | IDENTITY | AMOUNT_WORDS | frozenset(words_of("""
date data datum termin number numer cislo"""))
_HOLDERS = 8
"""Keys looked up for another subject holding a word as its relation."""
