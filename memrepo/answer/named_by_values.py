"""Names the memory holds as values, not as subjects (memrepo.answer.keys): a thing named by
the value of its model or name ("our TOYOTA", "przegląd OCTAVII": `car.model`), a firm named
by the kind after it ("TATRA banka"), a partner named beside their holder ("Emma and LIAM's
wedding"), subjects called by the names their keys hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memrepo.answer.answer_kinds import WEEKDAYS
from memrepo.answer.candidates import unexplained_names
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.dates import MONTHS
from memrepo.answer.identities import ORGS, words
from memrepo.answer.mentions import Mentions
from memrepo.answer.reading import IDENTITY, JOINERS, OPTIONAL, Reading
from memrepo.answer.scoring import KeyMatch
from memrepo.cache import Connection
from memrepo.cache.lookups import (
    CANDIDATES,
    KeyRow,
    existing_subjects,
    keys_with_words,
    notes_hold_any,
    values_of_subjects,
)
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of


def named_by_values(conn: Connection, scope: str, read: Reading, mentions: Mentions,
                    rows: Sequence[KeyRow], concepts: ConceptTable) -> Reading:
    """Names the memory holds as values, not as subjects: a thing named by the value of
    its name or model ("our TOYOTA", "firmowe DOBLÒ": `car.model`) is that thing; any other
    value ("the premises on LEGNICKA street") or a note holds names nobody new and counts
    only where a key holds it."""
    named: dict[int, frozenset[str]] = {}
    optional = set(read.optional)
    noted = set()
    for i in unexplained_names(read, mentions, rows, concepts):
        hits = keys_with_words(conn, scope, base_forms(read.folded[i]), "object")
        things = frozenset(r.subject_key for r in hits
                           if _NAMING & set(words(r.relation_key)))
        # "minimum order at ANIMALIA": `pet_food_supplier.name` = "Animalia Karmy"
        if things:
            named[i] = things
        elif _joined_to_its_holder(read, i, hits, mentions):
            optional.add(i)  # "Emma and LIAM's wedding": `emma_carter.partner` = "Liam …"
        elif read.folded[i + 1:i + 2] == ["s"] or any(_names_people(r, concepts) for r in hits):
            continue  # "LUCIE's salary", "kdy má LUCIE dovolenou" (`employee` = "Lucie
            # Hájková"): someone held only as a value owns no key of anyone's
        elif hits or notes_hold_any(conn, base_forms(read.folded[i])) or (
                _names_a_firm(read, i, concepts) and keys_with_words(
                    conn, scope, base_forms(read.folded[i]), "quote", 1)):
            optional.add(i)  # a name the notes hold ("przegląd Octavii") or a firm's
            # said when a key was recorded ("Úver máme v TATRA banke"): theirs to answer
            if not hits and i in read.capitalised:
                noted.add(i)
    named |= _models_in_lower_case(conn, scope, read, rows, concepts, set(named))
    positions, called = _named_by_their_names(conn, scope, read, rows, concepts)
    for i, subjects in positions.items():
        named[i] = named.get(i, frozenset()) | subjects
    return replace(read, value_named=named, optional=optional, called=called,
                   noted_names=frozenset(noted - set(named)))


def _models_in_lower_case(conn: Connection, scope: str, read: Reading,
                          rows: Sequence[KeyRow], concepts: ConceptTable,
                          done: set[int]) -> dict[int, frozenset[str]]:
    """A thing named in lower case by the value of its model or name, as people type
    ("numer rejestracyjny OCTAVII": `family_car.model` = "Skoda Octavia kombi")."""
    known = {w for r in rows for w in (*words(r.subject_key), *words(r.relation_key))}
    asked = {i: set(base_forms(read.folded[i])) for i in read.salient
             if i not in done and i not in read.capitalised and len(read.folded[i]) >= 4
             and read.folded[i].isalpha() and read.folded[i] not in known
             and not concepts.knows(read.folded[i]) and read.folded[i] not in OPTIONAL}
    if not asked:
        return {}
    holding = keys_with_words(conn, scope, set().union(*asked.values()), "object")
    if len(holding) < CANDIDATES and not any(_NAMING & set(words(r.relation_key))
                                             for r in holding):
        return {}  # one query for all: most such words are no model's
    named = {}
    for i, forms in asked.items():
        things = frozenset(r.subject_key for r in keys_with_words(conn, scope, forms, "object")
                           if _NAMING & set(words(r.relation_key)))
        if things:
            named[i] = things
    return named


def _names_a_firm(read: Reading, i: int, concepts: ConceptTable) -> bool:
    """Whether a capitalised word is the name of a firm by the kind written after it:
    "TATRA banka", "Panoráma hotel" — not a person ("koľko dní mala KATKA")."""
    kind = read.folded[i + 1] if i + 1 < len(read.folded) else ""
    return i in read.capitalised and bool(kind) and concepts.knows(kind) and not (
        concepts.word_concepts(kind) & concepts.roles)


def _joined_to_its_holder(read: Reading, i: int, hits: Sequence[KeyRow],
                          mentions: Mentions) -> bool:
    """Whether a name held as a value of a named subject's key is joined to that subject
    by "and" ("Emma and Liam", "Ola i Bartek"): the two asked of as one, the key's."""
    holders = {r.subject_key for r in hits}
    for m in mentions.found:
        if not any(holders & identity.subjects for identity in m.identities):
            continue
        if (m.end + 1 == i and read.folded[m.end] in JOINERS) or (
                i + 2 == m.start and read.folded[i + 1] in JOINERS):
            return True
    return False



def _named_by_their_names(conn: Connection, scope: str, read: Reading, rows: Sequence[KeyRow],
                          concepts: ConceptTable,
                          ) -> tuple[dict[int, frozenset[str]], dict[str, str]]:
    """Subjects a thing the question names is called by: the dog `pies` whose `imie` is
    "Bąbel" is also the subject `babel` ("when does the DOG need his next jab":
    `babel.next_rabies_vaccination`) — a name that is the one value of that key."""
    naming = [r for r in rows if _NAMING & set(words(r.relation_key))
              and not concepts.concepts_of_words(words(r.subject_key)) & concepts.roles]
    if not naming:
        return {}, {}
    values = values_of_subjects(conn, scope, {r.subject_key for r in naming})
    names = {r.subject_key: held[0] for r in naming
             if len(held := values.get((r.subject_key, r.relation_key), [])) == 1}
    existing = existing_subjects(conn, scope, {"_".join(words(n)) for n in names.values()})
    found: dict[int, frozenset[str]] = {}
    called: dict[str, str] = {}
    for subject, name in names.items():
        other = "_".join(words(name))
        if other not in existing or other == subject or (
                concepts.concepts_of_words(words(other)) & concepts.roles):
            continue  # a dog "called" `mother` is no way to reach the mother's keys
        for i in read.salient:
            if i not in read.in_names and _names_subject(read, i, subject, concepts):
                found[i] = found.get(i, frozenset()) | {other}
                called[other] = name
    return found, called


def _names_subject(read: Reading, i: int, subject: str, concepts: ConceptTable) -> bool:
    """Whether the question's word at `i` names the subject: one of its words ("PIES"),
    or through the concept table ("DOG" for `pies`)."""
    subject_words = words(subject)
    if set(base_forms(read.folded[i])) & {f for w in subject_words for f in base_forms(w)}:
        return True
    return bool(read.concepts.get(i, frozenset()) & concepts.concepts_of_words(subject_words))


_NAMING = IDENTITY | frozenset(words_of("""company firma spolocnost spolecnost bank banka
lender supplier provider insurer dostawca dodavatel ubezpieczyciel poistovna pojistovna"""))
"""Relations whose value is what a thing or party is called (`pet_food_supplier.name`,
`jar_supplier.company`) or whom the thing is with: "borrow from MONETA" is the loan whose
`bank` is Moneta Money Bank, "the TAURON bill" the one whose `supplier` is Tauron."""


def _names_people(row: KeyRow, concepts: ConceptTable) -> bool:
    """Whether a key's values are people: its relation is a role (`employee`, `child`,
    `account_manager`), not a company's."""
    roles = concepts.concepts_of_words(words(row.relation_key)) & concepts.roles
    return bool(roles - ORGS - {"company"})


def of_another_named(conn: Connection, scope: str, read: Reading,
                     chosen: Sequence[KeyMatch]) -> bool:
    """Whether the question names, with a capital, a thing the memory holds only as
    another subject's value (`booking_migration.new_platform` = "Bsport"), not a place
    that no chosen key holds, nor any key of a chosen subject: "how much will BSPORT
    cost" is not the membership's price, though both are prices."""
    subjects = {m.key.subject_key for m in chosen}
    for i in sorted(read.capitalised & read.optional):
        if i in read.value_named or read.folded[i] in _TIME_NAMES or any(
                f"#{i}" in m.held or f"~{i}" in m.held for m in chosen):
            continue
        hits = keys_with_words(conn, scope, base_forms(read.folded[i]), "object")
        if any(_PLACED & set(words(r.relation_key)) for r in hits):
            continue  # "lokal na LEGNICKIEJ": where the lease's premises are, not another
            # thing's name
        if hits and not {r.subject_key for r in hits} & subjects:
            return True
    return False


_PLACED = frozenset(words_of("""address adres adresa adresse street ulica ulice city mesto
miasto town location lokalizacja place miejsce misto miesto"""))
"""Relations whose value says where something is: a street or town the question names is
where, not which thing."""
_TIME_NAMES = WEEKDAYS | frozenset(MONTHS)
