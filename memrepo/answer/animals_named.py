"""An animal the question names by its kind ("kto leczy naszego PSA", "ile waży nasza
PUDLICA", "the DOG's doctor") where the memory records it by its name (`kapsel.vet`,
`bajka.waga`): the subject whose breed is of that kind (`bara.plemeno` = "bígl"), or
whose name a pet relation's value gives with that kind (`family.pet` = "Kapsel
(jamnik)"). Used by memrepo.answer.candidates.identity_directory.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import words
from memrepo.answer.reading import Reading
from memrepo.cache import Connection
from memrepo.cache.lookups import existing_subjects, name_values
from memrepo.core.stems import base_forms

ANIMALS = frozenset(("dog", "cat", "horse"))
"""Concepts of an animal kind a pet may be named by."""
_BREED = "breed"
_PET = "pet"


def animals_named(conn: Connection, scope: str, read: Reading, concepts: ConceptTable,
                  spelled: Collection[str]) -> dict[int, set[str]]:
    """Position of each question word naming an animal by its kind → the subject keys of
    `scope` recorded as animals of that kind; a word that is a word of a subject as
    written (`spelled`: `dog.vet` is the dog's), or the kind a question asks which ones
    of, names none this way."""
    found: dict[int, set[str]] = {}
    written = set(spelled)
    for i in read.salient:
        kinds = read.concepts.get(i, frozenset()) & ANIMALS
        if not kinds or set(base_forms(read.folded[i])) & written or i in read.kinds:
            continue  # "WHICH HORSES do we have": the animals of that kind are asked
        said = [words(entry) for kind in sorted(kinds)
                for entry in concepts.words_of.get(kind, ())]
        holding = [" ".join(entry) for entry in said]
        subjects = {subject for subject, _ in name_values(
            conn, scope, _single_words(concepts, _BREED), holding)}  # its breed or species
        subjects |= _kept_as_pet(conn, scope, said, holding, concepts)
        if subjects:
            found[i] = subjects
    return found


def _kept_as_pet(conn: Connection, scope: str, said: Sequence[tuple[str, ...]],
                 holding: Sequence[str], concepts: ConceptTable) -> set[str]:
    """The subjects a pet relation's value names with a word of the kind: its first word
    ("Kapsel (jamnik)", "Rex, Tomek's dog" — not Tomek, whose dog it is), or the word
    after the kind when the value opens with it ("jamnik Kapsel")."""
    kind_words = {w for entry in said for w in entry}
    named: set[str] = set()
    for _, values in name_values(conn, scope, _single_words(concepts, _PET), holding):
        for value in values.split(";"):
            held = words(value)
            if not kind_words.intersection(held):
                continue
            opening = held[0] not in kind_words
            named.update(held[:1] if opening else held[1:2])
    return existing_subjects(conn, scope, named - kind_words) if named else set()


def _single_words(concepts: ConceptTable, concept: str) -> list[str]:
    """A concept's entries of one word, folded."""
    return [w for entry in concepts.words_of.get(concept, ()) if len(found := words(entry)) == 1
            for w in found]
