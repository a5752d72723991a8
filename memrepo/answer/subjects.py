"""Whose fact a question asks about (SPEC §7 "Whose fact it is: the subject first"): the
identities (memrepo.answer.identities) a question *mentions* — by a spelling (a name, an
alias, the subject's words, a close spelling of one: memrepo.answer.name_spellings), by a
role word ("my mum", "Lenka's mother": a subject named so, a note with such an alias or
description; memrepo.answer.roles_named), or — the asker — by "I", "my", "ja", "mój",
"môj" …, meaning the scope's own subject (config `self`). Each is a `Mention`
(memrepo.answer.mentions).

Pure: the rows come from memrepo.cache.lookups (memrepo.answer.keys reads them).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.first_person import (
    ASKER,
    ASKERS_OWN,
    OURS,
    first_person_plural,
    first_person_singular,
    in_slavic,
    polish_we,
)
from memrepo.answer.identities import POSSESSIVE_MARK, Identity, is_role, words
from memrepo.answer.mentions import Mention, Mentions
from memrepo.answer.name_spellings import spells_name
from memrepo.answer.roles_named import (
    OwnersSaid,
    anyone_of,
    role_spans,
    roles_named,
    titled,
)
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.core.text import words_of

MIN_NAME_PART = 3


def find_mentions(question: Sequence[str], raw: Sequence[str], people: Sequence[Identity],
                  concepts: ConceptTable, skip: set[int], asker: str = "",
                  capitalised: Collection[int] = ()) -> Mentions:
    """The identities the folded `question` words name (`raw`: as written), each word in at
    most one mention; words at `skip` (dates) name nobody. `asker`: the scope's own
    subject, whose role persons a role word names even when nothing is recorded of the
    asker ("mum" of a note "Lucie's mother" in Lucie's scope); `capitalised`: positions
    of words written with a capital letter."""
    taken = set(skip)
    persons = [i for i in people if i.person]
    found = _spellings_named(question, persons, taken, concepts, capitalised)
    found += _kinds_named(question, people, taken)
    found += _parts_named(question, persons, taken, concepts, capitalised)
    found += _capitalised_parts_named(question, capitalised, people, taken, concepts)
    asking = next((i for i in people if i.asker), None) or (
        Identity(spellings={words(asker)}, person=True, asker=True) if asker else None)
    roles = role_spans(question, concepts)
    found = titled(roles, question, found, taken, raw)
    found += roles_named(question, persons, concepts, taken, found, asking,
                         OwnersSaid(people, capitalised), roles)
    negated = [m for m in found if _negated(question, m.start)]
    found = sorted((m for m in found if m not in negated), key=lambda m: m.start)
    as_subject = _asker(question, raw, people, found, concepts)
    ours = any(word in OURS and not polish_we(question, i) for i, word in enumerate(
        question)) or first_person_plural(raw, question, concepts)
    aside = frozenset(i for m in negated for i in range(m.start, m.end))
    aside |= {i for span in roles if anyone_of(question, span)
              and span.end < len(question) and question[span.end] == POSSESSIVE_MARK
              for i in range(span.start, span.end)}  # "at A CLIENT's": anyone's, nothing
    # asked of clients ("if A GUEST slips": the guests' insurance may say so)
    return Mentions(tuple(found), as_subject, ours, aside)


def _spellings_named(question: Sequence[str], people: Sequence[Identity],
                     taken: set[int], concepts: ConceptTable,
                     capitalised: Collection[int] = ()) -> list[Mention]:
    """Full spellings (a name, an alias, a subject's words), longest first; role words
    are left to `roles_named` (memrepo.answer.roles_named)."""
    candidates = sorted({(len(s), s) for identity in people for s in identity.spellings
                         if s and not is_role(s, concepts)}, key=lambda c: (-c[0], c[1]))
    found: list[Mention] = []
    for size, wanted in candidates:
        for start in range(len(question) - size + 1):
            span = range(start, start + size)
            if spells_name(question[start:start + size], wanted, {
                    i - start for i in capitalised}) and not taken.intersection(
                    span):
                same = [i for i in people if wanted in i.spellings]
                found.append(Mention(start, start + size, tuple(same),
                                     f"name '{' '.join(wanted)}'"))
                taken.update(span)
    return found


def _kinds_named(question: Sequence[str], people: Sequence[Identity], taken: set[int],
                 ) -> list[Mention]:
    """A word naming one or more animals by their kind (memrepo.answer.animals_named)."""
    found = []
    for i, word in enumerate(question):
        named = tuple(identity for identity in people if word in identity.kinds)
        if named and i not in taken:
            found.append(Mention(i, i + 1, named, f"kind '{word}'"))
            taken.add(i)
    return found


def _parts_named(question: Sequence[str], people: Sequence[Identity],
                 taken: set[int], concepts: ConceptTable,
                 capitalised: Collection[int] = ()) -> list[Mention]:
    """A single word of a person's name that no other identity has ("Radek" for the note
    radek-simek); one the concept table knows only by a base form names them where the
    question writes it with a capital letter ("KATEŘINA", not "katering"; "firmy" is no
    name)."""
    owners: dict[str, list[Identity]] = {}
    for identity in people:
        if not identity.person:
            continue
        for part in identity.name_parts:
            if len(part) >= MIN_NAME_PART and part not in STOP_WORDS and (
                    part not in concepts.exact):
                owners.setdefault(part, []).append(identity)
    found = []
    for i, word in enumerate(question):
        owned = owners.get(word) or [o for part, found_owners in owners.items()
                                     if len(part) >= 4 and spells_name(
                                         (word,), (part,), {0} if i in capitalised else ())
                                     for o in found_owners]
        if i not in taken and len(owned) == 1 and (
                i in capitalised or not concepts.knows(word)):
            found.append(Mention(i, i + 1, (owned[0],), f"name '{word}'"))
            taken.add(i)
    return found


def _capitalised_parts_named(question: Sequence[str], capitalised: Collection[int],
                             people: Sequence[Identity], taken: set[int],
                             concepts: ConceptTable) -> list[Mention]:
    """A word written with a capital letter, not the first, that is one word of one
    subject of two words or more, with no note: "Where's EMMA's wedding?" names
    `emma_carter`, the client no note describes."""
    owners: dict[str, list[Identity]] = {}
    for identity in people:
        if identity.person or identity.notes:
            continue
        for spelled in identity.spellings:
            for part in spelled if len(spelled) > 1 else ():
                if (len(part) >= MIN_NAME_PART and part not in STOP_WORDS
                        and not concepts.knows(part)):
                    owners.setdefault(part, []).append(identity)
    found = []
    for i, word in enumerate(question):
        owned = list({id(o): o for o in owners.get(word) or [
            o for part, held in owners.items() if spells_name((word,), (part,), {0})
            for o in held]}.values())
        opening_possessor = i == 0 and question[1:2] == ["s"]  # "LENA's mum's name?"
        if (i in capitalised or opening_possessor) and i not in taken and len(owned) == 1:
            found.append(Mention(i, i + 1, (owned[0],), f"name '{word}'"))
            taken.add(i)
    return found


_NEGATIONS = frozenset(words_of("not nie ne nicht"))


def _negated(question: Sequence[str], start: int) -> bool:
    """A mention the question sets aside ("my phone, not the firm's")."""
    return bool(_NEGATIONS.intersection(question[max(0, start - 2):start]))


def _asker(question: Sequence[str], raw: Sequence[str], people: Sequence[Identity],
           named: Sequence[Mention], concepts: ConceptTable) -> Mention | None:
    """The asker as a subject: "I", "me", or "my" before a word that names nobody ("my
    phone"); "my" before a mention only says whose that person is ("my mother")."""
    starts = {m.start for m in named}
    asker = tuple(i for i in people if i.asker)
    slavic = in_slavic(question)
    for i, word in enumerate(question):
        possessed = question[i + 2:i + 3] == (POSSESSIVE_MARK,) or (
            list(question[i + 2:i + 3]) == [POSSESSIVE_MARK])  # "my bank's address"
        if word in ("i", "my") and slavic:
            continue  # Polish/Slovak "i" is "and", "my" is "we"
        if word in ASKER or (word in ASKERS_OWN and i + 1 not in starts and not possessed):
            return Mention(i, i + 1, asker, f"the asker ('{raw[i]}')")
    if not named and first_person_singular(raw, question, concepts):
        return Mention(0, 0, asker, "the asker (a verb in the first person)")
    return None
