"""The last resort for a question that names a thing but none of its relations in known
words (memrepo.answer.keys): the kinds of value its question word asks for ("who" a name,
"when" a date or days, "how much" an amount), and the thing's one relation whose every
value is of that kind (memrepo.answer.answer_kinds) — never a person's key, nor one that
leaves out a word the question names something by ("the rent for our FLAT", "the POLISH
course").
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.answer_kinds import (
    AMOUNT,
    DAYS,
    FIRMS,
    NAME,
    TIME,
    asked_kinds,
    says_days,
    the_one_of_kind,
)
from memrepo.answer.candidates import is_person_row, names_thing, subjects_as_written
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import Identity, is_org, words
from memrepo.answer.key_evidence import another_kind, other_language
from memrepo.answer.mentions import Mentions
from memrepo.answer.periods import of_another_period, period_asked
from memrepo.answer.question_weights import PLAIN_VERBS
from memrepo.answer.reading import AMOUNT as AMOUNT_WORDS
from memrepo.answer.reading import (
    AMOUNT_CUE,
    IDENTITY,
    WHEN_CUE,
    WHO_CUE,
    Reading,
)
from memrepo.answer.scoring import COVERAGE, KeyMatch
from memrepo.cache import Connection
from memrepo.cache.lookups import KeyRow, keys_of_subjects, values_of_subjects
from memrepo.core.stems import base_forms


def kinds_asked(read: Reading) -> frozenset[str]:
    """The kinds of value the question word asks for (memrepo.answer.answer_kinds)."""
    return asked_kinds(read.folded, WHO_CUE in read.cues, WHEN_CUE in read.cues,
                       AMOUNT_CUE in read.cues or bool(AMOUNT_WORDS.intersection(read.folded)))


def by_answer_kind(conn: Connection, scope: str, read: Reading, rows: Sequence[KeyRow],
                   people: Sequence[Identity], parties: Sequence[Identity],
                   mentions: Mentions, concepts: ConceptTable) -> KeyMatch | None:
    """The relation of the thing the question names by its own words (or of the parties it
    names) whose every value is the kind its question word asks for, when it is the only
    one (memrepo.answer.answer_kinds); never a person's key."""
    kinds = kinds_asked(read)
    # "what was the VšZP point VALUE": an amount, as "how much" asks
    if not all(is_org(i, concepts) for i in parties):
        kinds &= {DAYS, TIME}  # of a person only "which days", "what time": "when did Marta
        # move" is no birthday
    if not kinds or any(m.role and not m.identities for m in mentions.found):
        return None  # "who's Lena's DAD", none recorded: not her one name, her mother's
    persons = {s for i in people if i.person for s in i.subjects}
    named = {r.subject_key for r in rows if r.subject_key not in persons
             and not is_person_row(r, (), concepts)
             and names_thing(r, read, bool(parties), concepts)}  # "our POWER": `electricity_bill`
    spelled = {read.folded[i] for i in subjects_as_written(read, rows, set(read.salient))}
    if spelled:  # "the VAN's MOT" where `van` is recorded: not the car's through the concept
        called = {x for subjects in read.value_named.values() for x in subjects}
        named = {s for s in named if set(words(s)) & spelled or s in called}
    named |= {s for party in parties for s in party.subjects}
    if not named:
        return None
    values = {key: held for key, held in values_of_subjects(conn, scope, named).items()
              if not (NAME in kinds and IDENTITY & set(words(key[1])))}  # not the dog's name
    found = the_one_of_kind(values, kinds)
    if found is None:
        return None
    (subject_key, relation_key), kind = found
    key = next((r for r in keys_of_subjects(conn, scope, [subject_key])
                if r.relation_key == relation_key), None)
    said = {i for m in mentions.found for i in range(m.start, m.end)}
    said |= {i for i in read.kinds if read.folded[i] in FIRMS}  # "which COMPANY": the kind
    if kind == DAYS:  # "which DAYS does the wholesaler deliver": the kind, as asked
        said |= {i for i in read.salient if says_days(read.folded[i])}
    if kind == AMOUNT:  # "za kolik PRODÁVÁME med": the price it is sold or bought at
        said |= {i for i in read.salient if read.concepts.get(i)
                 and read.concepts[i] <= _DEALING}
    if kind == NAME:  # "who do we PAY for electricity": whom, the party of the thing
        said |= {i for i in read.salient if read.concepts.get(i) and read.concepts[i] <= _PAYING
                 and read.folded[i + 1:i + 2] in (["for"], ["za"])}
    if key is None or _per_another_period(key, read, kind) or not _says_nothing_else(
            key, read, said, concepts) or another_kind(key, read) or other_language(
            key, read, concepts) or _words_it_lacks(key, read, said | (
                set() if any(i.person for i in parties) else set(read.salient) - read.capitalised)):
        # of a person any word it lacks, of a thing a name ("the POLISH course": not the
        # English course's price)
        return None
    return KeyMatch(key, COVERAGE, f"words '{key.subject}'",
                    (f"the question asks for {kind}: the one such relation of {key.subject}",))


_PAYING = frozenset(("payment", "price", "salary"))
_DEALING = frozenset(("sale", "supplier", "payment", "price"))
"""Concepts of selling, buying and paying, which "how much" asks the amount of."""
"""Concepts of the verb "pay", which asks with "who" for the party paid."""


def _words_it_lacks(key: KeyRow, read: Reading, said: set[int]) -> bool:
    """Whether the question names a thing of a person's that the key does not hold, in a
    word of four letters or more no concept knows ("kedy ide Ema na LYŽIARSKY", "what time
    is Samko's VOLLEYBALL": not the one time recorded of them, another activity's)."""
    forms = {f for w in (*words(key.subject_key), *words(key.relation_key))
             for f in base_forms(w)}
    return any(len(read.folded[i]) >= 4 and not read.concepts.get(i)
               and i not in read.optional and read.folded[i] not in PLAIN_VERBS
               and not set(base_forms(read.folded[i])) & forms
               for i in read.salient if i not in said and i not in read.kinds)


def _says_nothing_else(key: KeyRow, read: Reading, said: set[int], concepts: ConceptTable,
                       ) -> bool:
    """Whether every word of the question outside the names it says (`said`) that names
    something the concept table knows is one the key holds, as written or by its concept
    ("the rent for our FLAT" is not the shop's rent; "his next JAB": `next_vaccination`)."""
    own = [*words(key.subject_key), *words(key.relation_key)]
    forms = {f for w in own for f in base_forms(w)}
    held = concepts.concepts_of_words(own)
    held |= {near for concept in held for word in concepts.words_of.get(concept, ())
             for near in concepts.exact.get(word, ())}  # "deliver" is of `dostawy` too
    return all(set(base_forms(read.folded[i])) & forms or read.concepts[i] & held
               for i in read.salient if read.concepts.get(i) and i not in said)


def _per_another_period(key: KeyRow, read: Reading, kind: str) -> bool:
    """An amount per a period the question does not ask ("the Omega PER HOUR": not
    `omega.price_per_day`)."""
    period = period_asked(read) if kind == AMOUNT else None
    return period is not None and of_another_period(key.relation_key, period)
