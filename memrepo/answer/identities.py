"""The identities a scope holds keys about (memrepo.answer.subjects): a subject of the
scope's keys joined with the entity note that names it (the note's name or an alias folds
to the subject's words: `jakub` and the note `jakub-prochazka` with the alias "Jakub"),
its spellings, role words and head noun, and whose role a role subject is ("lenka_mother").

Pure: the rows come from memrepo.cache.lookups.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from memrepo.answer.concepts import ConceptTable
from memrepo.core.stems import tokens
from memrepo.core.text import words_of

if TYPE_CHECKING:
    from memrepo.cache.lookups import NoteRow


ASKER_SUBJECTS = ("me", "myself", "user", "self", "i", "ja")
"""Subjects by which agents record the asker whatever the scope is called."""
POSSESSIVE_MARK = "s"
"""What folding leaves of a possessive: "Lenka's" → lenka, s."""


@dataclass(slots=True)
class Identity:
    """One person, company or thing of the scope: its subjects and its entity notes."""

    subjects: set[str] = field(default_factory=set)  # folded subject keys of the scope
    notes: set[str] = field(default_factory=set)  # entity note names
    spellings: set[tuple[str, ...]] = field(default_factory=set)  # folded words
    descriptions: list[tuple[str, ...]] = field(default_factory=list)  # notes', folded
    name_parts: set[str] = field(default_factory=set)  # words of its names, not of phrases
    person: bool = False  # a party (an entity note, a role word, the asker), not a thing
    asker: bool = False
    kinds: set[str] = field(default_factory=set)  # the question's words naming it by its
    # kind: an animal recorded by its name ("naszego PSA": `kapsel`)

    @property
    def label(self) -> str:
        return min(self.notes) if self.notes else min(self.subjects, default="?")


def is_org(identity: Identity, concepts: ConceptTable) -> bool:
    """A company, shop or practice (it owns things: "which van did the firm have")."""
    return any(concepts.concepts_of_words(s) & ORGS for s in identity.spellings)


ORGS = frozenset(("company", "practice", "salon", "shop", "workshop"))
"""Concepts naming a business rather than a person."""


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """Folded words of a name, alias, subject or description (`_` and `-` separate)."""
    return tuple(word for _, word in tokens(text.replace("_", " ")))


def spelling(text: str) -> tuple[str, ...]:
    """The words a name is called by, without a leading article ("the firm" → firm)."""
    found = words(text)
    return found[1:] if len(found) > 1 and found[0] in _ARTICLES else found


def first_names(note: NoteRow) -> tuple[str, ...]:
    """The first word of a note's name of two words or more ("Katarína Hudáková" →
    katarina), which a fact's subject may be written as; () for a name of one word."""
    name = spelling(note.name)
    return name[:1] if len(name) > 1 else ()


def identities(subjects: Iterable[tuple[str, str]], notes: Iterable[NoteRow],
               asker: str, concepts: ConceptTable,
               called: Mapping[str, set[str]] | None = None,
               owners: Iterable[str] = (),
               nicknames: Mapping[str, set[str]] | None = None,
               kin: Mapping[str, set[str]] | None = None) -> list[Identity]:
    """The scope's identities among the given subjects ((subject_key, as written)) and
    entity notes: a subject and a note are one identity when the note's name or an alias
    is spelled like the subject, or the subject's name key holds the note's name
    (`called`: note name → those subjects). `nicknames`: subject_key → the names its
    facts' quotes call it by, `kin`: → the family words they call it by, the scope's owner's
    (memrepo.answer.called_in_quotes)."""
    by_spelling: dict[tuple[str, ...], Identity] = {}
    out: list[Identity] = []
    for subject_key, written in subjects:
        key_words = words(subject_key)
        found = by_spelling.get(key_words)
        if found is None:
            found = Identity()
            out.append(found)
            by_spelling[key_words] = found
        found.subjects.add(subject_key)
        found.spellings.update({key_words, spelling(written)})
        found.name_parts.update(_own_name_words(key_words, concepts),
                                _own_name_words(spelling(written), concepts))
        found.asker = found.asker or subject_key in (asker, *ASKER_SUBJECTS)
        if nicknames and (called_so := nicknames.get(subject_key)):
            found.spellings.update((name,) for name in called_so)
            found.name_parts.update(called_so)
            found.person = True
        if kin and (called_so := kin.get(subject_key)):
            found.spellings.update((word,) for word in called_so)  # "tata": the owner's
            found.person = True
        found.person = (found.person or found.asker
                        or bool(concepts.concepts_of_words(key_words) & concepts.roles))
    joins: dict[int, Identity] = {}  # a joined identity → the one it was joined into
    _one_person_per_role(out, by_spelling, concepts, joins)
    asker_words = set(words(asker))
    role_owners_ok = asker_words | set(owners)  # the business's owner: "Józef's apprentice"
    notes = list(notes)
    firsts = Counter(first_names(note) for note in notes)
    for note in notes:
        if _each_its_own(note, by_spelling, joins, concepts):
            continue
        names = {spelling(note.name), *(spelling(a) for a in note.aliases),
                 *described_as(note)} - {()}
        first = first_names(note)
        askers_own = (first == tuple(words(asker)) and firsts[first] == 1
                      and _the_askers_own(note, concepts))
        if first and firsts[first] == 1 and first in by_spelling and (
                not _current(by_spelling[first], joins).asker or askers_own):
            names.add(first)  # `katarina` of "Katarína Hudáková", where no one else is one
        # a role alias ("mother") is someone's word for the person: it links the subject
        # `mother` only where that someone is the asker (`mother` in Lenka's scope is
        # Lenka's mother, not the Tomáš's mother of "Tomáš's mother Marie"); a role the
        # description gives nobody else ("teściowa" of "Paweł's mother") is the asker's
        head = head_of(note.description, concepts)
        linked = [by_spelling[n] for n in sorted(names) if n in by_spelling and (
            not is_role(n, concepts) or _role_owned_by_asker(
                head, role_owners_ok, concepts, _roles_of(n, concepts)))]
        linked += [by_spelling[words(s)] for s in sorted((called or {}).get(note.name, ()))
                   if words(s) in by_spelling]
        linked = list({id(i): i for i in (_current(i, joins) for i in linked)}.values())
        identity = _joined(linked, out, joins) if linked else Identity()
        if not linked:
            out.append(identity)
        identity.notes.add(note.name)
        identity.spellings.update(names)
        identity.name_parts.update(spelling(note.name), *(
            _capitalised(alias) for alias in note.aliases))
        identity.descriptions.append(head_of(note.description, concepts))
        identity.person = True
        for name in sorted(names):
            if not is_role(name, concepts):
                by_spelling.setdefault(name, identity)
    return out


def _each_its_own(note: NoteRow, by_spelling: Mapping[tuple[str, ...], Identity],
                  joins: dict[int, Identity], concepts: ConceptTable) -> bool:
    """A note about several things of one name each ("Bajka i Gacek", aliases "Bajka" and
    "Gacek": two pets; "pets", aliases "Bára" and "Mikeš") is each one's note; their
    subjects stay apart (Gacek's food is not Bajka's). Whether it was such a note."""
    parts = _named_apart(note, by_spelling) or _a_group_of_names(note, by_spelling, concepts)
    if len({id(_current(by_spelling[part], joins)) for part in parts}) < 2:
        return False
    for part in parts:
        identity = _current(by_spelling[part], joins)
        identity.notes.add(note.name)
        identity.descriptions.append(head_of(note.description, concepts))
        identity.person = True
    for alias in note.aliases:  # "szwagier" of Marta and Peter: Peter
        roles = concepts.concepts_of_words(spelling(alias)) & concepts.roles
        fitting = [part for part in parts if _of_the_gender(part, roles)]
        if roles & (_MEN | _WOMEN) and len(fitting) == 1:
            _current(by_spelling[fitting[0]], joins).spellings.add(spelling(alias))
    return True


_MEN = frozenset(("father", "grandfather", "brother", "son", "uncle", "nephew",
                  "brother_in_law", "father_in_law", "son_in_law"))
_WOMEN = frozenset(("mother", "grandmother", "sister", "daughter", "aunt", "niece",
                    "sister_in_law", "mother_in_law", "daughter_in_law"))
_WOMENS_NAME = re.compile(r"(?:a|ová|ova|ská|ska|cká|cka|dzka|á)$")
"""How a woman's first name or surname ends in Polish, Slovak and Czech ("Marta",
"Hudáková", "Nowicka")."""


def _of_the_gender(name: tuple[str, ...], roles: frozenset[str]) -> bool:
    """Whether a name of a group note's member fits a gendered role said of the group."""
    woman = any(_WOMENS_NAME.search(word) for word in name)
    return bool(roles & (_WOMEN if woman else _MEN))


def _the_askers_own(note: NoteRow, concepts: ConceptTable) -> bool:
    """Whether a note whose first name is the asker's is the asker's own: nobody's
    relative, by an alias or its description ("Kateřina Dvořáková: owner of the studio",
    not "Jana Nováková: Petr's mother")."""
    return not any(concepts.concepts_of_words(spelling(alias)) & PERSONAL_ROLES
                   for alias in note.aliases) and not concepts.concepts_of_words(
        head_of(note.description, concepts)) & PERSONAL_ROLES


def _named_apart(note: NoteRow, by_spelling: Mapping[tuple[str, ...], Identity],
                 ) -> list[tuple[str, ...]]:
    """The names of a note named "X i Y", each an alias and a recorded subject — the
    alias itself or one opening with that name ("marta-i-peter-hudak": "Marta Hudáková"
    and "Peter Hudák", each recorded)."""
    named = spelling(note.name)
    parts = [tuple(group) for joiner, group in itertools.groupby(
        named, key=lambda word: word in _JOINERS) if not joiner]
    if len(parts) < 2 or len(parts) + sum(map(len, parts)) - 1 != len(named):
        return []
    aliases = [spelling(alias) for alias in note.aliases]
    found = [part if part in aliases and part in by_spelling and len(part) == 1 else next(
        (alias for alias in aliases if alias[:1] == part[:1] and alias in by_spelling), None)
        for part in parts]
    left = [alias for alias in aliases if alias in by_spelling and alias not in found]
    if found.count(None) == 1 and len(left) == 1:  # "halina-i-zbyszek-nowiccy": Halina
        found[found.index(None)] = left[0]  # Nowicka, so Zbyszek is "Zbigniew Nowicki"
    named_apart = [match for match in found if match is not None]
    return named_apart if len(named_apart) == len(parts) == len(set(named_apart)) else []


def _a_group_of_names(note: NoteRow, by_spelling: Mapping[tuple[str, ...], Identity],
                      concepts: ConceptTable) -> list[tuple[str, ...]]:
    """The names of a note called by common words ("pets", "family-cars") whose aliases
    name two or more recorded subjects, each one capitalised word no concept knows ("Bára",
    "Mikeš"; "Octavia", "Fabia"): what the group holds, each a thing of its own."""
    named = words(note.name)
    if not named or not all(concepts.word_concepts(w) or w in _JOINERS for w in named):
        return []
    parts = [spelling(alias) for alias in note.aliases if alias[:1].isupper()]
    return [part for part in parts if len(part) == 1 and part in by_spelling
            and not concepts.concepts_as_written(part)]


_JOINERS = frozenset(words_of("and i a oraz und"))
"""Words joining the names of a note about several things ("Bajka i Gacek")."""


def _one_person_per_role(out: list[Identity], by_spelling: dict[tuple[str, ...], Identity],
                         concepts: ConceptTable, joins: dict[int, Identity]) -> None:
    """Subjects that are each a word of one role a person has only one of (`mum` and
    `mama`, `wife` and `zona`) are one person: the asker's mother, spouse."""
    first: dict[frozenset[str], Identity] = {}
    for spelled, identity in list(by_spelling.items()):
        roles = concepts.concepts_of_words(spelled) & concepts.roles
        if len(spelled) != 1 or not roles or not roles <= _ONE_OF_A_KIND:
            continue
        kept = _current(first.setdefault(frozenset(roles), identity), joins)
        identity = _current(identity, joins)
        if kept is not identity:
            by_spelling[spelled] = _joined([kept, identity], out, joins)


_ONE_OF_A_KIND = frozenset(("mother", "father", "spouse", "mother_in_law", "father_in_law"))
"""Roles of which someone has one person: two subjects named by the same such role (`mum`,
`mama`) are the same person."""


def _own_name_words(spelled: tuple[str, ...], concepts: ConceptTable) -> tuple[str, ...]:
    """The words of a subject that are its own name: not the owner's name in a subject of
    someone's relative (`kasia_husband`: "Kasia" is not he)."""
    if len(spelled) > 1 and concepts.concepts_of_words(spelled) & PERSONAL_ROLES:
        return ()
    return spelled


PERSONAL_ROLES = frozenset((
    "mother", "father", "parents", "child", "son", "daughter", "sibling", "brother", "sister",
    "grandmother", "grandfather", "grandchild", "mother_in_law", "father_in_law",
    "son_in_law", "daughter_in_law", "brother_in_law", "sister_in_law", "uncle", "aunt",
    "cousin", "nephew", "stepparent", "stepchild", "spouse", "ex_spouse", "girlfriend",
    "fiance"))
"""Roles whose person is one other person's: family, a spouse, a partner ("Piotr's WIFE",
"where does GRANDMA live")."""


def business_owners(notes: Iterable[NoteRow], asker: str, concepts: ConceptTable) -> set[str]:
    """The name words of whom an entity note describes as the owner of the scope's business
    ("Owner of Stolarnia Chowaniec" in scope `stolarnia`): in that scope a role their own
    (the owner's apprentice) is the business's."""
    asker_words = set(words(asker))
    found: set[str] = set()
    for note in notes:
        opening = words(note.description)[:6]
        if asker_words & set(opening) and concepts.concepts_of_words(opening[:3]) & {"owner"}:
            found.update(spelling(note.name), *(spelling(a) for a in note.aliases))
    return found


def _roles_of(spelled: tuple[str, ...], concepts: ConceptTable) -> frozenset[str]:
    """The roles an alias names: those of the whole phrase when it is one ("mother in
    law" is no "mother"), else of its words."""
    whole = concepts.phrases.get(spelled, frozenset()) & concepts.roles
    return whole or concepts.concepts_of_words(spelled) & concepts.roles


def _capitalised(alias: str) -> list[str]:
    """The words of an alias written with a capital letter: its name words ("pan
    KACZMAREK"), not a phrase's ("właściciel lokalu")."""
    return [folded for written, folded in tokens(alias) if written[:1].isupper()]


def _role_owned_by_asker(description: Sequence[str], asker_words: set[str],
                         concepts: ConceptTable, roles: frozenset[str] | None = None) -> bool:
    """Whether the `roles` (all roles) a note's description gives are the asker's (or
    nobody's in particular): "Tomáš's brother Petr" in Tomáš's scope, "the firm's
    accountant"."""
    owners = role_owners(description, concepts.roles if roles is None else roles, concepts)
    return all(owner_is(o, asker_words, concepts) for o in owners)


def owner_is(owner: tuple[str, ...], person_words: set[str], concepts: ConceptTable) -> bool:
    """Whether a description's owner of a role (the word before "'s") may be the person
    with these words: it is one of them, none is named, or it is a common word ("the
    firm's accountant": the firm of the household, not another person)."""
    return not owner or bool(set(owner) & person_words) or all(
        concepts.concepts_as_written([w]) for w in owner)  # 'Daniel' is no form of "daň"


def is_role(spelled: tuple[str, ...], concepts: ConceptTable) -> bool:
    """A spelling that is a role word ("mother", "the accountant"), not a name."""
    spans = concepts.spans(spelled)
    return bool(spans) and all(span.concepts & concepts.roles for span in spans) and sum(
        span.end - span.start for span in spans) == len(spelled)


def is_a_thing(identity: Identity, concepts: ConceptTable) -> bool:
    """Whether an identity is a thing though a note may describe it: one of its names is a
    single word of the concept table and no role ("the car", "the cat")."""
    return any(len(name) == 1 and concepts.concepts_of_words(name) and not is_role(
        name, concepts) for name in identity.spellings)


_CLAUSE = re.compile(r"[:;,(.]")
_CLAUSE_ENDS = frozenset(";,.")
"""Marks ending a clause of its own; "(" and ":" go on saying what the note is."""


def described_as(note: NoteRow) -> list[tuple[str, ...]]:
    """The two and three first words of a description's first clause, without an article:
    what the note is called by a fact's subject written as that thing ("Book wholesaler on
    Półłanki: …" is `book_wholesaler`)."""
    first = next((c for c in _CLAUSE.split(note.description) if c.strip()), "")
    lead = words(first)
    while lead and lead[0] in _ARTICLES:
        lead = lead[1:]
    if any(len(w) == 1 for w in lead[:4]):
        return []  # "Danube Byte's accountant", "the firm's": whose, not what
    return [lead[:n] for n in (2, 3) if len(lead) >= n]


_ARTICLES = frozenset(("the", "a", "an", "our", "my"))
"""Words before a name or a description's lead that say nothing of it ("THE firm", "OUR
van")."""


def described_as_a_business(description: str, concepts: ConceptTable) -> bool:
    """Whether one of a description's first two clauses says, before a preposition, that
    the note is a business ("Salon groomerski Kudłacz: …", "The family's bakery, Pekáreň
    Hudec s.r.o.") or holds a legal form ("Bursztyn Nieruchomości sp. z o.o.: …") and
    names no one's role there ("ACCOUNTANT at Acme s.r.o.")."""
    clauses = [c for c in _CLAUSE.split(description) if c.strip()][:2]
    for clause in clauses:
        said = words(clause)
        lead = [w for j, w in enumerate(itertools.takewhile(
            lambda w: w not in _PREPOSITIONS, said)) if w != "s" and said[j + 1:j + 2] != ("s",)]
        named = concepts.concepts_of_words(lead)  # without whose ("the FAMILY's shop")
        if named & (concepts.roles - BUSINESSES):
            return False
        if named & BUSINESSES:
            return True
    named_as = _LEAD.split(description, maxsplit=1)[0]  # a legal form's dots kept
    return bool(_LEGAL_FORM.search(named_as)) and not (
        concepts.concepts_of_words(words(named_as)) & (concepts.roles - BUSINESSES))


_LEAD = re.compile(r"[:;(]")


_LEGAL_FORM = re.compile(r"(?i)(?<!\w)(?:sp\. ?z ?o\.? ?o\.?|spółka z o\. ?o\.|s\. ?r\. ?o\.|"
                         r"spol\. s ?r\. ?o\.|a\. ?s\.|sp\. ?[jk]\.|ltd\.?|llc|gmbh|plc)(?!\w)")
"""A company's legal form in its name ("Bursztyn Nieruchomości sp. z o.o.", "Hudec
s.r.o.", "Acme Ltd"): what the note names is a business."""


BUSINESSES = ORGS | frozenset(("apiary", "bakery", "car_wash", "driving_school", "eshop",
                               "farm", "gym", "pharmacy", "school", "cafe", "restaurant", "bar"))
"""Concepts of a place that is a business or an institution, not a person."""
_PREPOSITIONS = frozenset(words_of("""
at in on of from for by with near since w we na z ze od do u przy dla v vo pri pre k"""))


def head_of(description: str, concepts: ConceptTable) -> tuple[str, ...]:
    """The words of a description's first two clauses, where it says what the note is
    ("Hana Kubíčková: the firm's accountant …", "Tomáš's mother Marie: retired …") — the
    first alone where it says a role ("Sprzedawczyni komisu; prowadzi KLIENTÓW …" is no
    customer): a role word later on is about something else ("… helps the firm on
    Saturdays")."""
    clauses = [words(c) for c in _CLAUSE.split(description) if c.strip()]
    first = _CLAUSE.search(description)
    if clauses and first is not None and first.group() in _CLAUSE_ENDS and any(
            span.concepts & concepts.roles for span in concepts.spans(clauses[0])):
        return clauses[0]  # not before "(" ("accountant (ÚČETNÍ)") or ":" ("mother Marie:")
    return tuple(w for clause in clauses[:2] for w in clause)


def _joined(found: list[Identity], everything: list[Identity],
            joins: dict[int, Identity]) -> Identity:
    """One identity of several a note links (it names two subjects: `mother`, `marie`);
    each other one is recorded in `joins` as joined into it."""
    first = found[0]
    for other in found[1:]:
        if other is first:
            continue
        first.subjects |= other.subjects
        first.notes |= other.notes
        first.spellings |= other.spellings
        first.name_parts |= other.name_parts
        first.descriptions += [d for d in other.descriptions if d not in first.descriptions]
        first.person = first.person or other.person
        first.asker = first.asker or other.asker
        joins[id(other)] = first
        if other in everything:
            everything.remove(other)
    return first


def _current(identity: Identity, joins: dict[int, Identity]) -> Identity:
    """The identity another was joined into, however often (a name still spelled to a
    joined one links the one that holds it now: nothing joined is lost or joined twice)."""
    while id(identity) in joins:
        identity = joins[id(identity)]
    return identity


_THEIRS = frozenset(words_of("her his their jej jego ich jeho jejich"))
_AND = frozenset(words_of("and i a"))


def role_owners(description: Sequence[str], roles: frozenset[str],
                concepts: ConceptTable) -> set[tuple[str, ...]]:
    """Whose role a description's head (`head_of`) gives its note: the word before "'s" in
    front of the role word ("Tomáš's mother" → (tomas,)), () when it names none ("mother of
    three"); a role word followed by "'s" owns another role and is not the note's."""
    owners: set[tuple[str, ...]] = set()
    for span in concepts.spans(description):
        after = description[span.end:span.end + 1]
        if not span.concepts & roles or after == (POSSESSIVE_MARK,):
            continue  # "the FIRM's accountant": the firm owns the role, it is not one
        if set(description[max(0, span.start - 2):span.start]) & _THEIRS:
            continue  # "lives with HER husband Marek": another person's role
        before = description[max(0, span.start - 4):span.start]
        if len(before) >= 2 and before[-1] == POSSESSIVE_MARK:
            # "Tomáš's mother"; "Joanna and Paweł's son": both are whose son he is
            pair = len(before) == 4 and before[1] in _AND
            owners.add((before[0], before[2]) if pair else (before[-2],))
        elif span.start == 0 or description[span.start - 1] not in ("of",):
            owners.add(())
    return owners


def names_in(people: Sequence[Identity]) -> Mapping[str, tuple[str, ...]]:
    """Every word of the identities' spellings → the labels of those holding it (for
    respelling a misspelt name)."""
    found: dict[str, list[str]] = {}
    for identity in people:
        for word in itertools.chain.from_iterable(identity.spellings):
            found.setdefault(word, []).append(identity.label)
    return {word: tuple(labels) for word, labels in found.items()}
