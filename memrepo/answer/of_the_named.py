"""What a question asks of the subjects it names when its words choose no key of theirs
(SPEC §7 "Whose fact it is"): everything recorded about them ("Radek?"), where they are
("Gdzie jest tata?": his care home), where an event of theirs is held ("Where's Emma's
wedding?": the venue, never the date), what their job says of where they work ("Kde
robí Martin?" with only `martin.job`), or which of a thing's relations changed ("was the
Christmas concert moved?"). Each answer stays within the named subjects' keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memrepo.answer.answer_kinds import DATE, DAYS, TIME, asked_kinds, value_kinds
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import Identity, is_a_thing, words
from memrepo.answer.mentions import Mention, Mentions
from memrepo.answer.reading import (
    AMOUNT_CUE,
    HEAD_CONCEPTS,
    IDENTITY,
    PLACES,
    WHEN_CUE,
    WHERE_CUE,
    Reading,
)
from memrepo.answer.scoring import COVERAGE, KeyMatch
from memrepo.cache import Connection
from memrepo.cache.lookups import KeyRow, keys_of_subjects, values_of_subjects
from memrepo.core.stems import base_forms

MAX_ABOUT = 20
"""The most keys answered for a question that only names someone ("Łódź Packaging?")."""
A_PLACE = ("'where' → a place",)
"""The reason of a place relation answering "where"."""
_KIN = {"employer": ("occupation", "position"), "workplace": ("occupation", "position")}
"""Concepts a person's key of which answers a question of another when that one is not
recorded: their job says where they work."""


def labels_of(named: Sequence[Mention]) -> list[str]:
    """Whom the mentions name, as the answer says it."""
    return [identity.label for mention in named for identity in mention.identities]


def everything_about(conn: Connection, scope: str, named: Sequence[Mention],
                     concepts: ConceptTable, where: bool, head: str = "") -> list[KeyMatch]:
    """A question that only names someone ("Łódź Packaging?", "Radek"): every key recorded
    about them — or, asked where they are ("Gdzie jest Miodowy Dwór?"), the keys of where
    they live or stand, when there are such; with a head noun ("Oksany ADRES?"), only the
    keys of its kind."""
    matches = []
    for mention in named:
        for identity in mention.identities:
            for key in keys_of_subjects(conn, scope, identity.subjects, MAX_ABOUT):
                matches.append(KeyMatch(key, 1.0, mention.how, ("everything recorded",)))
    places = [replace(m, relation=A_PLACE) for m in matches
              if concepts.concepts_of_words(words(m.key.relation_key)) & PLACES]
    if where and places:
        matches = places
    kinds = HEAD_CONCEPTS.get(head, frozenset())
    of_head = [replace(m, relation=(f"'{head}' → its {head}",)) for m in matches
               if concepts.concepts_of_words(words(m.key.relation_key)) & kinds]
    if kinds:  # "salon ADRESS" (respelled), "číslo na Denisu": the head noun's kind, and
        matches = of_head  # none for "OKSANY adres?" when nobody recorded her address
    return matches[:MAX_ABOUT]


def of_a_kin_concept(conn: Connection, scope: str, read: Reading,
                     persons: Sequence[Identity], concepts: ConceptTable) -> KeyMatch | None:
    """The one person asked where they work has no key of the concept asked but one of a
    concept that answers it as well: "Kde robí Martin?" from `martin.job` = "elektrikár,
    Elektro Hron s.r.o." when no employer of his is recorded."""
    if len(persons) != 1 or WHERE_CUE not in read.cues:
        return None  # "WHO is Petra's new employer": a firm, never her job title
    asked = {c for i in read.salient for c in read.concepts.get(i, ())}
    kin = {c for a in asked for c in _KIN.get(a, ())}
    if not kin:
        return None
    keys = keys_of_subjects(conn, scope, persons[0].subjects)
    held = {k.rowid: concepts.concepts_of_words(words(k.relation_key)) for k in keys}
    if any(held[k.rowid] & asked for k in keys):
        return None
    found = [k for k in keys if held[k.rowid] & kin]
    if len(found) != 1:
        return None
    return KeyMatch(found[0], COVERAGE, "the person asked", (
        f"{', '.join(sorted(asked & set(_KIN)))} not recorded: their "
        f"{found[0].relation} answers it",))


def where_its_event_is(conn: Connection, scope: str, read: Reading, mentions: Mentions,
                       concepts: ConceptTable) -> KeyMatch | None:
    """"Where's Emma's WEDDING?": the one place relation (`venue`) of the subject named,
    when the words beyond its name are words of its own keys (`wedding_date`,
    `svadba_hruskova`) or no words of the concept table ("biorą ślub") — where that event
    of theirs is."""
    named = [m for m in mentions.found if m.identities and not m.role]
    if not named or WHERE_CUE not in read.cues:
        return None
    subjects = {s for m in named for i in m.identities for s in i.subjects}
    held = {f for r in keys_of_subjects(conn, scope, subjects)
            for w in (*words(r.relation_key), *words(r.subject_key)) for f in base_forms(w)}
    said = {i for m in mentions.found for i in range(m.start, m.end)}
    beyond = [read.folded[i] for i in read.salient if i not in said and i not in read.optional]
    theirs = [w for w in beyond if held.intersection(base_forms(w))]
    if not theirs or any(concepts.knows(w) for w in beyond if w not in theirs):
        return None  # "where did Emma buy the RING": no event of hers
    places = {m.key.rowid: m for m in everything_about(conn, scope, named, concepts, True)}
    found = list(places.values())  # "Ola i Bartek": two names, one key
    return found[0] if len(found) == 1 and found[0].relation == A_PLACE else None


def what_changed(conn: Connection, scope: str, read: Reading, rows: Sequence[KeyRow],
                 concepts: ConceptTable, people: Sequence[Identity]) -> list[KeyMatch]:
    """"Czy koncert gwiazdkowy był przesuwany?": a question of how a thing changed that
    names it by every word of its subject and none of its relations — the keys of that
    thing whose value did change."""
    if not read.asks_change:
        return []
    asked = {f for i in read.salient for f in base_forms(read.folded[i])}
    persons = {s for identity in people if identity.person and not is_a_thing(identity, concepts)
               for s in identity.subjects}
    subjects = {r.subject_key for r in rows if r.subject_key not in persons and all(
        asked.intersection(base_forms(w)) for w in words(r.subject_key))}  # a thing's
    if not subjects:
        return []
    said = {f for s in subjects for w in words(s) for f in base_forms(w)}
    beyond = [i for i in read.salient if not said.intersection(base_forms(read.folded[i]))]
    asked_of = {c for i in beyond for c in (*read.concepts.get(i, ()),
                                            *concepts.word_concepts(read.folded[i]))}
    held = values_of_subjects(conn, scope, subjects)
    changed = {key for key, values in held.items() if len(values) > 1}
    return [KeyMatch(row, COVERAGE, f"words '{row.subject}'", (
        "the question asks how it changed: the relation that did",))
            for row in keys_of_subjects(conn, scope, subjects)
            if (row.subject_key, row.relation_key) in changed and (
                not asked_of or asked_of & concepts.concepts_of_words(words(row.relation_key)))
            ][:MAX_ABOUT]  # "did we switch car INSURERS": its insurer, not its inspection


def held_by_a_value(conn: Connection, scope: str, read: Reading, mentions: Mentions,
                    persons: Sequence[Identity], concepts: ConceptTable) -> KeyMatch | None:
    """The one person named has one key whose value holds the word the question asks by,
    where no relation of theirs does: "kedy chodí Ema na TRÉNINGY" is her `volejbal`
    ("VK Bystrica, tréning utorok a štvrtok 16:30"), "which GRADE is Hania in" her
    `school` ("SP w Rucianem-Nidzie, klasa 4a": a word of the concept asked)."""
    if len(persons) != 1:
        return None
    said = {i for m in mentions.found for i in range(m.start, m.end)}
    asked = [i for i in read.salient if i not in said and i not in read.optional
             and len(read.folded[i]) >= 4]
    if not asked:
        return None
    keys = keys_of_subjects(conn, scope, persons[0].subjects)
    theirs = {c for k in keys for c in concepts.concepts_of_words(words(k.relation_key))}
    asked = [i for i in asked if not read.concepts.get(i, frozenset()) & theirs]
    if not asked:  # "kiedy Zosia jedzie na zieloną SZKOŁĘ": her `school` was asked and
        return None  # judged by its relation, not found again in a value
    values = values_of_subjects(conn, scope, persons[0].subjects)
    timed = asked_kinds(read.folded, False, WHEN_CUE in read.cues, False) & {DATE, DAYS, TIME}
    holding = []
    for key in keys:
        value_words = [w for v in values.get((key.subject_key, key.relation_key), [])
                       for w in words(v)]
        held = {f for w in value_words for f in base_forms(w)}
        named = {c for w in value_words for c in concepts.word_concepts(w)}
        found = [i for i in asked if held.intersection(base_forms(read.folded[i]))
                 or read.concepts.get(i, frozenset()) & named]  # "which GRADE": "klasa 4a"
        # every word of the table it asks by, in the value: "Tomáš's HOCKEY COACH" is not
        # his club; "HOW MUCH is his hockey" no club's name
        if found and len(asked) - len(found) <= 1 and all(
                i in found or read.folded[i] in IDENTITY for i in asked
                if read.concepts.get(i)) and (
                AMOUNT_CUE not in read.cues or key.numeric) and _of_the_time_asked(
                timed, values.get((key.subject_key, key.relation_key), [])):
            holding.append(key)
    if len(holding) != 1:
        return None
    word = next(read.raw[i] for i in asked)
    return KeyMatch(holding[0], COVERAGE, "the person asked",
                    (f"'{word}' in its value: the one key of theirs that holds it",))


def _of_the_time_asked(timed: frozenset[str], values: Sequence[str]) -> bool:
    """Whether a value says the day or time the question asks (`timed`: the kinds of date
    it asks), if it asks one ("O KTÓREJ Zosia ma basen": not "pływanie – UKS Delfin
    Gdańsk", which says no hour)."""
    return not timed or any(value_kinds(value) & timed for value in values)
