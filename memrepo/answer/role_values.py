"""A person whose fact is recorded only as another subject's value (SPEC §7, "Whose fact it
is"): "Who is our vet?" when the vet has an entity note and the memory holds
`hudec_honey.veterinarian = "MVDr. Peter Baláž"` — the key whose relation is the role and
whose value names that very person answers; no other key does. "Od kiedy Oleh u nas
pracuje?" when the memory holds `sosnowa_zatoka.employee = "Oleh Bondarenko"` — that key,
its value that names him alone (not every employee's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import Identity, words
from memrepo.answer.key_evidence import forms_of
from memrepo.answer.mentions import Mention, Mentions
from memrepo.answer.reading import IDENTITY, WHEN_CUE, Reading
from memrepo.answer.scoring import COVERAGE, KeyMatch
from memrepo.answer.words_asked import words_of_concepts
from memrepo.cache import Connection
from memrepo.cache.lookups import (
    KeyRow,
    key_name_words,
    keys_of_subjects,
    keys_with_words,
    values_of_subjects,
)
from memrepo.core.stems import base_forms

MIN_NAME_PART = 4
"""The shortest name part that may tell a value names the person ("Baláž", not "Dr")."""


def role_named_by_value(conn: Connection, scope: str, read: Reading, mentions: Mentions,
                        concepts: ConceptTable) -> list[KeyMatch]:
    """The keys whose relation is a role the question names a known person by and whose
    value holds that person's name — when the question says nothing else a key holds
    ("who do we buy BOILERS from" is not asked of the pipe supplier)."""
    found: list[KeyMatch] = []
    for mention in mentions.found:
        roles = _roles_said(mention, read, concepts)
        if not roles or not mention.identities or any(
                m.owner in mention.identities for m in mentions.found if m is not mention):
            continue  # "lekár mojej MAMY": whose doctor, not who the mother is
        more = _key_words_beside(conn, read, mentions, mention)
        rows = keys_with_words(conn, scope, words_of_concepts(roles, concepts), "relation")
        values = values_of_subjects(conn, scope, {r.subject_key for r in rows})
        for row in rows:
            if not concepts.concepts_of_words(words(row.relation_key)) & roles:
                continue
            if more - forms_of(row.subject_key, row.relation_key):
                continue
            held = values.get((row.subject_key, row.relation_key), [])
            if person := next((p for p in mention.identities
                               if any(_names(value, p) for value in held)), None):
                found.append(KeyMatch(row, 1.0, f"its value names {person.label}",
                                      (f"{mention.how} → its relation",)))
    return found


def _roles_said(mention: Mention, read: Reading, concepts: ConceptTable) -> frozenset[str]:
    """The role concepts a mention says: its role word's, or those of the role words of the
    alias it was found by ("kto jest NASZYM MECHANIKIEM", a note's alias "nasz mechanik")."""
    if mention.role:
        return mention.role
    return frozenset(concept for i in range(mention.start, mention.end)
                     for concept in read.concepts.get(i, ()) if concept in concepts.roles)


def role_person_named(conn: Connection, scope: str, read: Reading, mentions: Mentions,
                      ) -> list[KeyMatch]:
    """"Who is the landlord of the salon?": the role person's one key of their name
    (`landlord.name`), when the question says nothing else a key holds beyond whose role
    it is."""
    found: list[KeyMatch] = []
    for mention in mentions.found:
        if not mention.role or len(mention.identities) != 1:
            continue
        owner = {i for m in mentions.found if mention.owner is not None
                 and mention.owner in m.identities for i in range(m.start, m.end)}
        more = _key_words_beside(conn, read, mentions, mention, owner)
        naming = [k for k in keys_of_subjects(conn, scope, mention.identities[0].subjects)
                  if IDENTITY & set(words(k.relation_key))]
        if len(naming) == 1 and not more - forms_of(naming[0].subject_key,
                                                    naming[0].relation_key):
            found.append(KeyMatch(naming[0], 1.0, mention.how,
                                  ("the question asks who: the name recorded",)))
    return found


def held_as_their_value(conn: Connection, scope: str, read: Reading, mentions: Mentions,
                        persons: Sequence[Identity], names: Sequence[int],
                        concepts: ConceptTable) -> KeyMatch | None:
    """The one person named — or a name nobody's keys hold (`names`: its positions) — has
    no key of the relation asked, but one key of another subject holds that name as a
    value and has the relation the question asks by (its words or a concept of them:
    "u nas pracuje" → `employee`; a person's work asked → a firm's `employee`): that key,
    answering with the values that name the person: the name the question calls them by,
    or two words of a known person's names (a surname alone is the family's, or the
    firm's); every word of a name of nobody's keys ("Danuta NOWAK" is not "Danuta
    Kaczmarek")."""
    if len(persons) == 1:
        said = {i for m in mentions.found for i in range(m.start, m.end)}
        own, label = persons[0].subjects, persons[0].label
        parts = {p for p in persons[0].name_parts if len(p) >= MIN_NAME_PART}
        as_asked = [set(base_forms(read.folded[i])) for i in sorted(said)]
        enough = min(2, len(parts))
    elif not persons and names:
        said, own = set(names), set()
        parts = {read.folded[i] for i in names}
        label = " ".join(read.raw[i] for i in names)
        as_asked = [set(base_forms(read.folded[i])) for i in names]  # "DUKATA": Dukat
        enough = len(parts)
    else:
        return None
    asked = [i for i in read.salient if i not in said and i not in read.optional
             and not (read.concepts.get(i) and read.concepts[i] <= _WHEN_IT_HELD)]
    when = asks_when_it_held(read)
    rows = [row for row in keys_with_words(conn, scope, parts.union(*as_asked), "object")
            if row.subject_key not in own and all(
                _asks_its_relation(read, i, row, concepts)
                or set(base_forms(read.folded[i])) & forms_of(row.subject_key)
                for i in asked) and (when or any(
                    _asks_its_relation(read, i, row, concepts) for i in asked))]
    values = values_of_subjects(conn, scope, {r.subject_key for r in rows})
    holding = {(row.subject_key, row.relation_key): (row, naming) for row in rows if (naming := [
        value for value in values.get((row.subject_key, row.relation_key), [])
        if _names_them(value, parts, as_asked, enough)])}
    if len(holding) != 1:
        return None
    (row, naming), = holding.values()
    return KeyMatch(row, COVERAGE, f"{label}, named in its value",
                    (f"its relation is asked of {label}",), values_naming=frozenset(naming),
                    ended_too=when)


def _asks_its_relation(read: Reading, i: int, row: KeyRow, concepts: ConceptTable) -> bool:
    """Whether the question's word at `i` is a word of the key's relation, or of its
    concept, or of a concept it stands in for asked of the person held ("where does Oleh
    WORK": the firm's `employee`). Every word the question asks by must be one, or name
    the key's subject ("kiedy Paweł odszedł Z MYJNI")."""
    if set(base_forms(read.folded[i])) & forms_of(row.relation_key):
        return True
    asked = read.concepts.get(i, frozenset())
    asked |= {c for concept in asked for c in _HELD_BY_ANOTHER.get(concept, ())}
    return bool(asked & concepts.concepts_of_words(words(row.relation_key)))


def _names_them(value: str, parts: set[str], as_asked: list[set[str]], enough: int) -> bool:
    """Whether a value names the person: every word the question calls them by (its base
    forms: "Mruczka" is "Mruczek (kot)"; "Peter NOVÁK" is not "Marek Novák"), or `enough`
    words of their names; never an address to write to."""
    if _CONTACT.search(value):
        return False
    said = set(words(value))
    forms = {f for w in said for f in base_forms(w)}
    return len(parts & said) >= enough or (bool(as_asked) and all(
        word & forms for word in as_asked))


def asks_when_it_held(read: Reading) -> bool:
    """Whether the question asks when (or until when) something held: a value that has
    ended then answers it ("do kiedy Oskar u nas pracował"); otherwise only one that
    holds ("who is Petra's employer" is not the salon she left)."""
    return WHEN_CUE in read.cues or any(
        read.concepts.get(i, frozenset()) & _WHEN_IT_HELD for i in read.salient)


_HELD_BY_ANOTHER = {"employer": ("staffing", "employee")}
"""A concept asked of a person → the concepts of another subject's relation that holds
the person as its value: where someone works is the firm whose employee they are."""
_WHEN_IT_HELD = frozenset(("start", "end", "expiry", "death", "sale"))
"""Concepts of words asking when the value began or ended ("OD KIEDY", "until when", "when
did Ferda DIE", "kiedy SPRZEDALIŚMY Dukata"): the value's own dates answer them."""
_CONTACT = re.compile(r"@|://|www\.")
"""A value that is an address to write to: the surname in an e-mail names nobody."""


def _key_words_beside(conn: Connection, read: Reading, mentions: Mentions,
                      mention: Mention, also: frozenset[int] | set[int] = frozenset()) -> set[str]:
    """The forms of the question's words outside the mention (and the positions `also`)
    that are words of some key: the answering key must hold them ("our SHOP vet":
    `flower_shop.vet`)."""
    outside = [i for i in read.salient if not mention.start <= i < mention.end
               and i not in also and i not in read.optional and i not in mentions.set_aside
               and "name" not in read.concepts.get(i, ())]  # "the landlord's NAME" asks it
    forms = {f for i in outside for f in base_forms(read.folded[i])}
    return key_name_words(conn, forms)


def _names(value: str, person: Identity) -> bool:
    parts = {p for p in person.name_parts if len(p) >= MIN_NAME_PART}
    return bool(parts & set(words(value)))
