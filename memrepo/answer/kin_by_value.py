"""The asker's family found through the asker's own keys: a key of the asker whose relation
is a family role (`tomas.brother`, `lenka.sister`) holds the person's name, and the
subject spelled like that name — in full, or by its first name alone (`pavel_kratochvil`
for "Pavel Kratochvíl", `jitka` for "Jitka Marešová") — is that person. So "čím se živí
BRÁCHA" reads Pavel's `job`, and "kde pracuje SÉGRA" Jitka's, though no note and no quote
calls them so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import ASKER_SUBJECTS, words
from memrepo.cache import Connection
from memrepo.cache.lookups import existing_subjects, values_of_subjects

_NAME_WORDS = 3
"""At most this many leading words of a value are read as the name it opens with."""


def kin_by_value(conn: Connection, scope: str, asker: str, said: Sequence[frozenset[str]],
                 kin_words: Mapping[str, Set[str]], concepts: ConceptTable,
                 ) -> dict[str, set[str]]:
    """subject_key → the words of a family role the question says (`said`: the roles each
    of its role words names, `kin_words`: role → its words) that one of the asker's keys
    in that role names it by: the subject spelled like the key's value, one per value,
    never the asker. A role word says no more than the relation: "syn" (a son, a child)
    is none of `children`, which holds daughters too; nor does a role the scope records
    as a subject of its own (`dzieci`, `brother`) name anyone else."""
    if not said:
        return {}
    own = existing_subjects(conn, scope, {asker, *ASKER_SUBJECTS})
    as_subjects = existing_subjects(conn, scope, {w for roles in said for role in roles
                                                  for w in kin_words.get(role, ())})
    said = [roles for roles in said if not as_subjects & {
        w for role in roles for w in kin_words.get(role, ())}]  # `dzieci.pediatra`: the
    if not said:  # kids are a subject of their own
        return {}
    out: dict[str, set[str]] = {}
    named: list[tuple[list[str], set[str]]] = []  # each value's spellings, longest first
    for (_, relation_key), held in values_of_subjects(conn, scope, own).items():
        theirs = concepts.concepts_of_words(words(relation_key))
        roles = {role for roles in said if roles <= theirs for role in roles}
        role_words = {word for role in roles for word in kin_words.get(role, ())}
        named += [(_spellings(value), role_words) for value in held if roles]
    recorded = existing_subjects(conn, scope, {s for spelled, _ in named for s in spelled})
    for spelled, role_words in named:
        found = next((s for s in spelled if s in recorded and s not in own), None)
        if found is not None:
            out.setdefault(found, set()).update(role_words)
    return out


def _spellings(value: str) -> list[str]:
    """The subject keys the name a value opens with may be recorded as (its capitalised
    leading words, longest first: "Pavel Kratochvíl" → pavel_kratochvil, pavel)."""
    leading = []
    for word in value.split()[:_NAME_WORDS]:
        if not word[:1].isupper():
            break
        leading.append(word)
    name = words(" ".join(leading))
    return ["_".join(name[:size]) for size in range(len(name), 0, -1)]
