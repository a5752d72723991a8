"""Which of the question's mentions name no one (memrepo.answer.keys, after
memrepo.answer.subjects found them): a common word that is the relation of someone named
beside it ("Which SCHOOL does Kuba go to?"), the kind of the answer ("which COMPANY"), a
role word that a thing the question names holds as its relation or subject ("kto nam
DOSTARCZA ziarno": the beans' supplier) — with the words naming those things.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import ORGS, words
from memrepo.answer.mentions import Mention, Mentions
from memrepo.answer.name_spellings import spells_name
from memrepo.answer.reading import Reading
from memrepo.cache import Connection
from memrepo.cache.lookups import KeyRow, keys_of_subjects, values_of_subjects
from memrepo.core.stems import base_forms


def relation_words_as_names(conn: Connection, scope: str, read: Reading, mentions: Mentions,
                            rows: Sequence[KeyRow], concepts: ConceptTable,
                            ) -> tuple[Mentions, dict[int, frozenset[str]]]:
    """`mentions` without a common word that names someone by an alias ("the school") when
    the question names another beside it whose relation that word is: "Which SCHOOL does
    Kuba go to?" asks Kuba's `szkola`, not everything about the driving school; nor the
    kind of the answer ("which COMPANY"); nor a role word that is the relation of a thing
    the question names (`rows`: keys whose subject holds its words) — with the positions of
    the words that name those things and their subjects."""
    people = [m for m in mentions.found if any(i.subjects for i in m.identities)]
    kept = []
    things: dict[int, frozenset[str]] = {}
    for mention in mentions.found:
        if _a_relation_of(conn, scope, read, mention, people, concepts) or (
                _kind_of_answer(read, mention)):
            continue
        if named := _role_of_a_thing(conn, scope, read, mention, rows, concepts):
            things.update(named)
            continue
        kept.append(mention)
    if len(kept) == len(mentions.found):
        return mentions, things
    return replace(mentions, found=tuple(kept)), things


def _role_of_a_thing(conn: Connection, scope: str, read: Reading, mention: Mention,
                     rows: Sequence[KeyRow], concepts: ConceptTable,
                     ) -> dict[int, frozenset[str]]:
    """The words naming things (position → subjects) when a role word is what a key of a
    thing the question names by another word holds as its relation or subject ("kto nam
    DOSTARCZA ziarno": `coffee_beans.supplier`, "kto dostarczał KARMĘ":
    `pet_food_supplier.name`), not whoever a note calls a supplier —
    unless each such key's value is the one the role word named ("our shop VET" and
    `flower_shop.vet` = the vet's name: "… and what's HIS number" is the vet's)."""
    if not mention.role or not mention.identities:
        return {}
    elsewhere = [i for i in read.salient if not mention.start <= i < mention.end]
    theirs = {s for identity in mention.identities for s in identity.subjects}
    by = {(row, i) for row in rows if row.subject_key not in theirs
          and mention.role & concepts.concepts_of_words([*words(row.subject_key),
                                                        *words(row.relation_key)])
          for i in elsewhere if _names_subject_of(read, i, row, concepts) - mention.role}
    held = list({row for row, _ in by})
    if not held:
        return {}
    values = values_of_subjects(conn, scope, {row.subject_key for row in held})
    spellings = [set(parts) for identity in mention.identities for parts in identity.spellings
                 if len(parts) > 1]
    def names_them(row: KeyRow) -> bool:
        return any(parts <= set(words(value)) for parts in spellings
                   for value in values.get((row.subject_key, row.relation_key), []))
    if all(names_them(row) for row in held):
        return {}
    named: dict[int, set[str]] = {}
    for row, i in by:
        named.setdefault(i, set()).add(row.subject_key)
    return {i: frozenset(subjects) for i, subjects in named.items()}


def _names_subject_of(read: Reading, i: int, row: KeyRow, concepts: ConceptTable,
                      ) -> frozenset[str]:
    """How the question's word at `i` names the row's subject: its base forms (as "=") or
    the concepts it shares with the subject's words ("karmę": `pet_food_supplier`)."""
    subject = words(row.subject_key)
    if set(base_forms(read.folded[i])) & {f for w in subject for f in base_forms(w)}:
        return frozenset({"="})
    return read.concepts.get(i, frozenset()) & concepts.concepts_of_words(subject)


def _kind_of_answer(read: Reading, mention: Mention) -> bool:
    """A word for a company right after "which"/"what" ("WHICH COMPANY sells us our
    power", "jaká firma"): the kind of the answer, no one named."""
    return bool(mention.role) and mention.role <= ORGS and mention.start in read.kinds \
        and mention.end - mention.start == 1


def _a_relation_of(conn: Connection, scope: str, read: Reading, mention: Mention,
                   people: Sequence[Mention], concepts: ConceptTable) -> bool:
    if (mention.role or mention.end - mention.start != 1 or mention.start in read.capitalised
            or not mention.identities):
        return False
    word = read.folded[mention.start]
    forms, named = set(base_forms(word)), concepts.word_concepts(word)
    subjects = [s for m in people if m is not mention for i in m.identities for s in i.subjects]
    for key in keys_of_subjects(conn, scope, subjects, 200) if subjects else ():
        relation = words(key.relation_key)
        if forms & {f for w in relation for f in base_forms(w)} or (
                named & concepts.concepts_of_words(relation)):
            return True
    return False


def subjects_named_by_capitals(read: Reading, mentions: Mentions, rows: Sequence[KeyRow],
                               concepts: ConceptTable) -> set[str]:
    """Subjects no entity note names that a capitalised word of the question spells as a
    name ("what hobby does VOJTA have": `vojtech`; "when does RADEK Beneš work":
    `radek_benes`): subjects whose words are all names, not words of the concept table."""
    capitals = _capitals(read, mentions, concepts)
    return {row.subject_key for row in rows
            if not concepts.concepts_of_words(words(row.subject_key))
            and _spelled(capitals, row.subject_key)}


def spelled_by_capitals(read: Reading, mentions: Mentions, subjects: Iterable[str],
                        concepts: ConceptTable) -> set[str]:
    """Of `subjects`, those a capitalised word of the question spells, whatever their other
    words ("w BURSZTYNOWEJ Pracowni": `bursztynowa_pracownia`, though "pracownia" is a
    word of the concept table)."""
    capitals = _capitals(read, mentions, concepts)
    return {subject for subject in subjects if _spelled(capitals, subject)}


def _capitals(read: Reading, mentions: Mentions, concepts: ConceptTable) -> list[str]:
    said = {i for m in mentions.found for i in range(m.start, m.end)}
    return [read.folded[i] for i in read.capitalised
            if i not in said and i not in read.dated and not concepts.knows(read.folded[i])]


def _spelled(capitals: Sequence[str], subject: str) -> bool:
    return any(spells_name((word,), (part,), {0}) for word in capitals  # capitalised all
               for part in words(subject) if len(part) >= 3)
