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
    recorded = existing_subjects(conn, scope, {w for roles in said for role in roles
                                               for w in kin_words.get(role, ())})
    said = [roles for roles in said if not recorded & {
        w for role in roles for w in kin_words.get(role, ())}]  # `dzieci.pediatra`: the
    out: dict[str, set[str]] = {}  # kids are a subject of their own
    for (_, relation_key), held in values_of_subjects(conn, scope, own).items():
        theirs = concepts.concepts_of_words(words(relation_key))
        roles = {role for roles in said if roles <= theirs for role in roles}
        for value in held if roles else ():
            found = _subject_named(conn, scope, value, own)
            if found is not None:
                out.setdefault(found, set()).update(
                    word for role in roles for word in kin_words.get(role, ()))
    return out


def _subject_named(conn: Connection, scope: str, value: str, own: Set[str]) -> str | None:
    """The one subject of `scope` spelled like the name `value` opens with (its capitalised
    leading words, longest first), other than the asker's."""
    leading = []
    for word in value.split()[:_NAME_WORDS]:
        if not word[:1].isupper():
            break
        leading.append(word)
    name = words(" ".join(leading))
    for size in range(len(name), 0, -1):
        found = existing_subjects(conn, scope, {"_".join(name[:size])}) - own
        if found:
            return found.pop()
    return None
