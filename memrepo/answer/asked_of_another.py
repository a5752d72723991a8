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
from memrepo.answer.first_person import in_slavic
from memrepo.answer.identities import words
from memrepo.answer.key_evidence import BUSINESS, same_word
from memrepo.answer.question import ARTICLES
from memrepo.answer.reading import AMOUNT as AMOUNT_WORDS
from memrepo.answer.reading import IDENTITY, Reading
from memrepo.answer.scoring import AMOUNT_CONCEPTS, KeyMatch
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.cache import Connection
from memrepo.cache.lookups import keys_with_words, values_of_subjects
from memrepo.core.stems import WORD, base_forms
from memrepo.core.text import fold, words_of


def not_asked_of_another(conn: Connection, scope: str, read: Reading,
                         answering: list[KeyMatch], concepts: ConceptTable,
                         ) -> list[KeyMatch]:
    """The keys that hold every word of the concept table the question asks by — or whose
    subject has another relation holding it ("Lenka's phone and BIRTHDAY") — where another
    subject's relation holds it, and the keys of a bare amount that hold every such word."""
    held_by = {mark for match in answering for mark in match.by_relation}
    kept = []
    for match in answering:
        if _of_another_thing(conn, scope, read, match, held_by, concepts) or (
                _of_a_narrower_kind(conn, scope, read, match, concepts)) or (
                called_otherwise(conn, scope, read, match)):
            continue
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


def _of_another_thing(conn: Connection, scope: str, read: Reading, match: KeyMatch,
                      held_by: set[str], concepts: ConceptTable) -> bool:
    """Whether a key of a thing the question does not name answers for another thing it
    names ("nájem za BYT": not `salon_rent`, whose SALON it never says, where the flat is
    recorded as well): the question's thing, after a preposition, is none the key holds but
    another subject's key does, and the key's subject names its thing by a word the
    question does not say (its rooms may be its "ambulancia": the question's thing is
    another only where the memory knows it as another)."""
    if not match.subject.startswith(_BY_THE_QUESTIONS_WORDS):
        return False
    said = [(read.folded[i], read.concepts.get(i, frozenset())) for i in read.salient]
    subject = words(match.key.subject_key)
    unsaid = [word for word in subject[:-1] or subject  # `SALON_rent`, `TOYOTA_YARIS`
              if len(word) >= _THING_WORD and word not in _SAYS_NOTHING | _OF_ANY_THING
              and not any(same_word(w, named, [word], concepts) for w, named in said)]
    prepositions = _SLAVIC_OF if in_slavic(read.folded) else _ENGLISH_OF
    return bool(unsaid) and any(
        _names_a_thing(read, i, match, held_by, concepts, prepositions)
        and _holders(conn, scope, match, _forms_and_synonyms({read.folded[i]}, read, concepts))
        for i in read.salient)


def _of_a_narrower_kind(conn: Connection, scope: str, read: Reading, match: KeyMatch,
                        concepts: ConceptTable) -> bool:
    """Whether the question says a narrower word ("MORTGAGE", "the VAN") whose broader
    concept the key's subject holds, and only that (`equipment_loan`, `car`; "can Juraj
    drive a CAR" is no vehicle of his `prawo_jazdy`), while another subject's key holds
    the narrower (`hypoteka`, `van`) — unless the question speaks of the business's thing
    and no business's subject holds the narrower ("the WORK car" may be the van; "przegląd
    BUSA FIRMOWEGO" is `bus_firmowy`'s, not the family car's)."""
    subject = concepts.concepts_of_words(words(match.key.subject_key))
    own = subject | concepts.concepts_of_words(words(match.key.relation_key))
    of_the_business = bool(BUSINESS.intersection(read.folded))
    for i in read.salient:
        narrow = {c for c in read.concepts.get(i, frozenset()) if c in concepts.within}
        if not narrow or narrow & own or not {concepts.within[c] for c in narrow} & subject:
            continue
        holders = _holders(conn, scope, match, {
            f for c in narrow for phrase in concepts.words_of.get(c, ())
            if len(words(phrase)) == 1 for f in base_forms(fold(phrase))})
        if holders and (not of_the_business or any(
                BUSINESS.intersection(words(holder)) for holder in holders)):
            return True
    return False


def called_otherwise(conn: Connection, scope: str, read: Reading, match: KeyMatch) -> bool:
    """Whether the key's thing is called by a name the question does not say (`MORSKA` of
    `mieszkanie_morska`, a name its values write with a capital: "ul. Morska 214") while
    the question says a name it does not hold that another subject's value does ("nasze
    mieszkanie na LEGIONÓW": the home's address) — the question's thing is that one."""
    names = [i for i in read.capitalised if i not in read.in_names
             and not {f"#{i}", f"~{i}"} & match.held]
    if not names:
        return False
    asked = {f for i in read.salient for f in base_forms(read.folded[i])}
    unsaid = {w for w in words(match.key.subject_key)
              if len(w) >= _THING_WORD and not set(base_forms(w)) & asked}
    if not unsaid:
        return False
    values = values_of_subjects(conn, scope, {match.key.subject_key})
    proper = {f for held in values.values() for value in held
              for written in WORD.findall(value) if written[:1].isupper()
              for f in base_forms(fold(written.lower()))}
    if not any(set(base_forms(w)) & proper for w in unsaid):
        return False
    return any(row.subject_key != match.key.subject_key
               for i in names for row in keys_with_words(
                   conn, scope, set(base_forms(read.folded[i])), "object", _HOLDERS))


def _names_a_thing(read: Reading, i: int, match: KeyMatch, held_by: set[str],
                   concepts: ConceptTable, prepositions: frozenset[str]) -> bool:
    """Whether the question's word at `i` names, after a preposition, a thing no answering
    key holds: not a name, a kind, a word of time, how often, or one that says nothing."""
    named = read.concepts.get(i, frozenset())
    return (len(read.folded[i]) >= _THING_WORD
            and (bool(named) or read.folded[i] not in _SAYS_NOTHING)  # "za BYT", not "být"
            and not {f"#{i}", f"~{i}"} & (match.held | held_by)
            and i not in read.capitalised and i not in read.kinds and i not in read.optional
            and i not in read.in_names and i not in read.dated
            and i < len(read.folded) - read.pointed
            and not named & (concepts.roles | _HOW_MUCH_OF | _OF_TIME)
            and read.folded[i] not in BUSINESS
            and _after_a_preposition(read.folded, i, prepositions))


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


def _holders(conn: Connection, scope: str, match: KeyMatch, forms: set[str]) -> set[str]:
    """The other subjects whose keys hold the words, as their subject or relation."""
    return {row.subject_key for column in ("subject", "relation")
            for row in keys_with_words(conn, scope, forms, column, _HOLDERS)
            if row.subject_key != match.key.subject_key}


def _forms_and_synonyms(unheld: set[str], read: Reading, concepts: ConceptTable,
                        ) -> set[str]:
    """The words' base forms and the one-word synonyms their concepts list ("MAIL do
    Chemia-Polu": `autodetal.email` holds it)."""
    named = frozenset().union(*(read.concepts.get(i, frozenset()) for i in read.salient
                                if read.folded[i] in unheld))
    said = (words(phrase) for concept in named for phrase in concepts.words_of.get(concept, ()))
    synonyms = {one[0] for one in said if len(one) == 1}
    return {f for word in unheld | synonyms for f in base_forms(word)}


def _after_a_preposition(folded: Sequence[str], i: int,
                         prepositions: frozenset[str] = PREPOSITIONS) -> bool:
    """A word of where or of what something is ("at the SALON", "the rent for the clinic
    PREMISES"), not the thing asked: a preposition at most three words before it, with only
    an article or words that are not function words between."""
    j = i - 1
    while j >= 0 and i - j <= _NOUN_PHRASE and folded[j] not in prepositions and (
            folded[j] in ARTICLES or folded[j] not in STOP_WORDS):
        j -= 1
    return j >= 0 and folded[j] in prepositions


_NOUN_PHRASE = 3
_HOW_MUCH_OF = frozenset(("monthly", "kilogram", "meter"))
"""How often or of how much an amount is ("a MONTH", "za KILOGRAM kawy"): no thing asked."""
_SAYS_NOTHING = STOP_WORDS | IDENTITY | AMOUNT_WORDS | frozenset(words_of("""
date data datum termin number numer cislo"""))
_BY_THE_QUESTIONS_WORDS = ("words ", "the question's words")
"""How a key's subject is found when the question names it by no person: by its words."""
_THING_WORD = 3
_ENGLISH_OF = frozenset(words_of("at in on for with from of by"))
_SLAVIC_OF = frozenset(words_of("w we z ze na u o od v vo zo k ku s so pri za pro dla przy do"))
"""Prepositions before the thing a relation is of ("rent FOR the flat", "nájem ZA byt",
"poistenie NA auto"), in the question's language ("do" and "we" are English words too)."""
_OF_ANY_THING = frozenset(words_of("""bill bills main current general other info details
misc monthly yearly annual total cost costs""")) | BUSINESS
"""Words of a subject that tell no thing from another (`electricity_bill`)."""
_OF_TIME = frozenset(("date", "duration", "start", "end", "schedule", "office_hours",
                      "opening_hours", "day_off", "holiday"))
_HOLDERS = 8
"""Keys looked up for another subject holding a word as its relation."""
