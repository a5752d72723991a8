"""The last resort for a question in other words than the key's: the one key whose
recorded sentence, with its own words, holds what the question asks ("where do we buy our
LACQUERS now?": `varnish_supplier.name`, said as "From May we BUY LACQUERS from the Renner
wholesaler"; "which SURGERY are we REGISTERED with": `gp.practice`, "We're all registered at
Burley Park"). People ask in the words they said; agents name keys in their own.

It answers only where nothing else did (after respelling and the semantic layer), only among
the keys of whom the question names (or, naming no one, of anyone), only a key whose
sentence holds two of the question's words or more as written and whose words and sentence
hold all of them but one plain word (or whose sentence holds one and with its words all),
never a key of another thing, language or relation than the question names, only when one
key does so best, and only when its values are of the kind the question word asks ("how
much": an amount) — never a guess between alike keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memrepo.answer.answer_kinds import value_kinds
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import words
from memrepo.answer.key_evidence import (
    another_kind,
    naming_others,
    other_language,
    spelled_name_of,
)
from memrepo.answer.mentions import Mentions
from memrepo.answer.question import head_kind
from memrepo.answer.reading import Reading
from memrepo.cache import Connection
from memrepo.cache.lookups import KeyRow, keys_quoting, values_of_subjects
from memrepo.core.stems import base_forms

IN_ITS_QUOTE = 2
"""The fewest of the question's words the key's sentence must hold."""
LEFT_OUT = 1
"""The most of the question's words neither the key nor its sentence may hold."""


def said_in_its_quote(conn: Connection, scope: str, read: Reading, concepts: ConceptTable,
                      mentions: Mentions, rows: Sequence[KeyRow], kinds: frozenset[str],
                      ) -> tuple[KeyRow, list[str]] | None:
    """The key whose sentence and words hold the question's words (see the module), with
    the words its sentence holds; None when no key, or more than one alike, does. `rows`:
    keys whose subjects hold the question's words."""
    set_aside = {i for m in mentions.found for i in range(m.start, m.end)} | mentions.set_aside
    asked = [i for i in read.salient if i not in set_aside and (
        i not in read.optional or i in read.capitalised)]  # "… na LEGIONÓW": a place asked
    if len(asked) < IN_ITS_QUOTE or any(map(head_kind, read.folded)):
        return None  # "the policy NUMBER": a kind of value its sentence cannot vouch for
    quoted = keys_quoting(conn, scope, {i: base_forms(read.folded[i]) for i in asked})
    subjects = _asked_of(mentions, [*rows, *quoted], read)
    others = naming_others([*rows, *quoted], mentions, read)
    held = {key: _held(key, positions - others.get(key.subject_key, frozenset()), read, asked)
            for key, positions in quoted.items()
            if (subjects is None or key.subject_key in subjects)
            and not other_language(key, read, concepts)
            and not _another_relation(key, read, concepts, asked)}
    ranked = sorted(((both_held, key) for key, both_held in held.items()
                     if not another_kind(key, read, {f"#{i}" for i in both_held[0]})),
                    key=lambda pair: (-len(pair[0][0]), -len(pair[0][1]), pair[1].rowid))
    fitting = [(held, key) for held, key in ranked
               if _enough(held, asked, read, concepts.concepts_of_words(
                   [*words(key.subject_key), *words(key.relation_key)]))]
    if not fitting or (len(fitting) > 1 and len(fitting[1][0][0]) == len(fitting[0][0][0])):
        return None
    (_, in_quote), key = fitting[0]
    said = [read.raw[i] for i in asked if i in in_quote]
    return (key, said) if _of_the_kind(conn, scope, key, kinds) else None


def _asked_of(mentions: Mentions, known: Sequence[KeyRow], read: Reading) -> set[str] | None:
    """The subjects the question asks about: those its mentions name (none recorded: an
    empty set) or a subject it spells ("Odkiaľ je LUCIA ŠIMKOVÁ?"); None when it names
    no one (any subject may answer)."""
    if mentions.found:
        return {s for m in mentions.found for i in m.identities for s in i.subjects}
    spelled = {k.subject_key for k in known if spelled_name_of(k.subject_key, read)}
    return spelled or None


def _held(key: KeyRow, quoted: set[int], read: Reading, asked: Sequence[int],
          ) -> tuple[set[int], set[int]]:
    """(the asked words the key's words or sentence hold, those its sentence holds): as
    written, never through the concept table ("the VAN insurance" is not `family_car`'s,
    though a van is a vehicle)."""
    forms = {f for w in (*words(key.subject_key), *words(key.relation_key))
             for f in base_forms(w)}
    by_words = {i for i in asked if set(base_forms(read.folded[i])) & forms}
    in_quote = {i for i in asked if i in quoted}
    return by_words | in_quote, in_quote


def _enough(held: tuple[set[int], set[int]], asked: Sequence[int], read: Reading,
            its_concepts: frozenset[str]) -> bool:
    """Its sentence holds two asked words or more and the key one more at most unheld —
    a plain lower-case word, or one of a concept its own words name ("who SELLS us
    hinges": `hardware_supplier`), never a name or another word of the table ("… w DOMU",
    "… na LEGIONÓW": another place) — or its sentence holds one and with its words all."""
    both, in_quote = held
    left = [i for i in asked if i not in both]
    if not in_quote or len(left) > LEFT_OUT:
        return False
    return not left or (len(in_quote) >= IN_ITS_QUOTE and all(
        read.concepts.get(i, frozenset()) <= its_concepts and i not in read.capitalised
        for i in left))


def _another_relation(key: KeyRow, read: Reading, concepts: ConceptTable,
                      asked: Sequence[int]) -> bool:
    """Whether the question names, in a word its subject does not hold, a relation the
    key's relation is not: "What is the flat RENT?" is not `flat.address`, though its
    sentence says "we rent the flat at …"."""
    relation = concepts.concepts_of_words(words(key.relation_key))
    if not relation:
        return False
    subject = [*words(key.subject_key)]
    forms = {f for w in subject for f in base_forms(w)}
    of_subject = concepts.concepts_of_words(subject)
    return any((meant := read.concepts.get(i, frozenset()) - concepts.roles)
               and not meant & relation and not meant & of_subject
               and not set(base_forms(read.folded[i])) & forms for i in asked)


def _of_the_kind(conn: Connection, scope: str, key: KeyRow, kinds: frozenset[str]) -> bool:
    """Whether every value the key held is of a kind the question word asks (any, when it
    asks none)."""
    if not kinds:
        return True
    held: Mapping[tuple[str, str], list[str]] = values_of_subjects(conn, scope,
                                                                   [key.subject_key])
    values = held.get((key.subject_key, key.relation_key), [])
    return bool(values) and all(value_kinds(value) & kinds for value in values)
