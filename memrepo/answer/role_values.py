"""A person asked about by a role whose name is recorded only as a value (SPEC §7, "Whose
fact it is"): "Who is our vet?" when the vet has an entity note and the memory holds
`hudec_honey.veterinarian = "MVDr. Peter Baláž"` — the key whose relation is the role and
whose value names that very person answers; no other key does.
"""

from __future__ import annotations

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import Identity, words
from memrepo.answer.key_evidence import forms_of
from memrepo.answer.mentions import Mention, Mentions
from memrepo.answer.reading import IDENTITY, Reading
from memrepo.answer.scoring import KeyMatch
from memrepo.cache import Connection
from memrepo.cache.lookups import (
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
        if not mention.role or len(mention.identities) != 1:
            continue
        more = _key_words_beside(conn, read, mentions, mention)
        person = mention.identities[0]
        role_words = {w for concept in mention.role for phrase in concepts.words_of.get(
            concept, ()) for w in words(phrase)}
        rows = keys_with_words(conn, scope, role_words, "relation")
        values = values_of_subjects(conn, scope, {r.subject_key for r in rows})
        for row in rows:
            if not concepts.concepts_of_words(words(row.relation_key)) & mention.role:
                continue
            if more - forms_of(row.subject_key, row.relation_key):
                continue
            if any(_names(value, person) for value in
                   values.get((row.subject_key, row.relation_key), [])):
                found.append(KeyMatch(row, 1.0, f"its value names {person.label}",
                                      (f"{mention.how} → its relation",)))
    return found


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
