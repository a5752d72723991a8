"""The role words of a question (memrepo.answer.subjects): "mum", "teściowa",
"accountant", a phrase of a role ("mother-in-law") — and the identities each names for its
possessor: a name before it ("Lenka's mother") or after it ("mama Lenki"), another role
person ("dzieci mojej siostry"), the one person the question says has one ("Does Marta
have kids?"), a name no person is known by ("PIOTR's wife"), else the asker; the one a
word before it describes ("our LEAD roofer"); none for a role said of anyone ("what do we
bill A customer").

Pure.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from memrepo.answer.concepts import ConceptTable, Span
from memrepo.answer.first_person import ASKER, ASKERS_OWN, OUR_OWN, in_slavic
from memrepo.answer.identities import (
    ORGS,
    PERSONAL_ROLES,
    POSSESSIVE_MARK,
    Identity,
    is_a_thing,
    is_org,
    is_role,
    owner_is,
    role_owners,
    words,
)
from memrepo.answer.mentions import Mention
from memrepo.answer.name_spellings import spells_name
from memrepo.answer.stopwords import QUESTION_WORDS, STOP_WORDS
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of


def roles_named(question: Sequence[str], people: Sequence[Identity], concepts: ConceptTable,
                taken: set[int], named: Sequence[Mention], asking: Identity | None,
                owners: OwnersSaid | None, spans: Sequence[Span]) -> list[Mention]:
    """Role words (`spans`: the question's `role_spans`; "mum", "teściowa", "accountant")
    not part of a name: the identities the
    role names for its possessor — a name before it ("Lenka's mother") or after it ("mama
    Lenki"), another role person ("dzieci mojej siostry", "my wife's mother"), else the
    asker. A role said without a possessor ("who do we buy boilers from", "the suppliers")
    that names nobody is no mention: its words are left to the keys' relations."""
    spans = [span for span in spans
             if not taken.intersection(range(span.start, span.end))
             and not anyone_of(question, span)]
    found: list[Mention] = []
    for rounds in range(2):  # the second round reads role persons as possessors
        known = [*named, *(m for m in found if len(m.identities) == 1)]
        found = []
        for span in spans:
            possessor = (_possessor(span, question, known if rounds else named)
                         or _haver(span, question, known if rounds else named)
                         or (owners and owners.of(span, question, concepts)))
            explicit = possessor is not None or _owned_by_asker(
                question, span.start, [*named, *found]) or _kin_said_bare(span, question,
                                                                            concepts)
            owner = possessor or asking
            roles = span.concepts & concepts.roles
            matches = [i for i in people if _has_role(i, roles, owner, concepts)]
            exact = [i for i in matches if _spelled_as(i, question[span.start:span.end])]
            qualified = [i for i in matches if span.start - 1 not in taken
                         and _described_so(i, question, span)]
            # "family doctor": `family_doctor`, not a paediatrician; "our LEAD roofer": the
            # one described as "lead roofer", not every roofer
            start = span.start - 1 if qualified and not exact else span.start
            plain = [i for i in matches if not _narrower_role(i, roles, concepts)]
            matches = exact or qualified or plain or matches
            if matches or explicit:
                found.append(Mention(start, span.end, tuple(matches),
                                     f"role '{span.phrase}'", roles, owner))
    taken.update(i for m in found for i in range(m.start, m.end))
    return found


_KIN = PERSONAL_ROLES - {"spouse", "ex_spouse", "girlfriend", "fiance"}
"""Roles that name a person of the family even said bare ("where does GRANDMA live"): the
asker's, never a word left to the keys' relations (the household flat's address). Not the
roles of verbs ("who is he GOING OUT WITH", "when did they get MARRIED")."""


@dataclass(frozen=True, slots=True)
class OwnersSaid:
    """Who may own a personal role though the memory holds no person of that name."""

    people: Sequence[Identity]  # every identity, things and key subjects too
    capitalised: Collection[int]

    def of(self, span: Span, question: Sequence[str], concepts: ConceptTable,
           ) -> Identity | None:
        """The owner of a personal role said with a name no person is known by: "PIOTR's
        wife", "żona PIOTRA" (a capitalised word after it, no concept's) — the subject
        `piotr` if the memory has one (`piotr.wife` answers), else someone unknown, whose
        role person is nobody recorded: never the asker's, nor a fact of Piotr himself."""
        if not span.concepts & PERSONAL_ROLES:
            return None
        if span.start >= 2 and question[span.start - 1] == POSSESSIVE_MARK:
            at = span.start - 2
        elif span.end in self.capitalised:
            at = span.end
        else:
            return None
        said = question[at]
        if concepts.word_concepts(said) or said in STOP_WORDS:
            return None
        spelled = [i for i in self.people if any(
            spells_name([said], s, {0} if at in self.capitalised else ())
            for s in i.spellings if len(s) == 1)]
        return spelled[0] if len(spelled) == 1 else Identity(spellings={(said,)}, person=True)


def _kin_said_bare(span: Span, question: Sequence[str], concepts: ConceptTable) -> bool:
    """A family role said without a possessor, as the person asked about: not a word that
    only describes the next one ("the PARENT-teacher meeting")."""
    after = question[span.end] if span.end < len(question) else ""
    return bool(span.concepts & _KIN) and not concepts.word_concepts(after) & concepts.roles


def role_spans(words: Sequence[str], concepts: ConceptTable) -> list[Span]:
    """The role words of a sequence: a phrase of a role ("mother-in-law"), else one word of
    a role — also inside a phrase of another concept ("our COMPANY id"), unless it is that
    phrase's head, which the phrase names the kind of ("internet PROVIDER", "DOSTAWCA
    internetu": the internet's, not the supplier the memory knows)."""
    found: list[Span] = []
    covered: set[int] = set()
    slavic = in_slavic(words)
    for span in concepts.spans(words):
        if span.concepts & concepts.roles:
            found.append(span)
            covered.update(range(span.start, span.end))
        elif span.end - span.start > 1:
            covered.add(span.start if slavic else span.end - 1)
    for i, word in enumerate(words):
        roles = concepts.word_concepts(word) & concepts.roles
        if not roles and word in _GENITIVE_ROLES and _genitive(words, i):
            roles = frozenset({_GENITIVE_ROLES[word]})
        if roles and i not in covered:
            found.append(Span(i, i + 1, roles, word))
    return sorted(found, key=lambda span: span.start)


_GENITIVE_ROLES = {"mamy": "mother"}
"""Role words that are other words too ("mamy": we have), read as a role only after a
preposition, a possessive or a noun it owns ("numer do MAMY", "urodziny mojej MAMY",
"číslo MAMY")."""
_BEFORE_GENITIVE = frozenset(words_of("""
do od u dla z ze o przy bez mojej twojej naszej waszej jej jego mej telefon telefonu numer
cislo adres adresa email mail urodziny narodeniny"""))


def _genitive(words: Sequence[str], i: int) -> bool:
    """Whether a word of `_GENITIVE_ROLES` is the genitive: after a preposition, a
    possessive or a noun it owns, or closing a noun phrase nothing asks of ("dom opieki
    MAMY"; not "jaki samochód MAMY", "kiedy MAMY wizytę")."""
    if not i:
        return False
    if words[i - 1] in _BEFORE_GENITIVE:
        return True
    return i >= 2 and words[i - 1] not in STOP_WORDS and words[i - 2] not in QUESTION_WORDS \
        and (i + 1 == len(words) or words[i + 1] in STOP_WORDS)


def anyone_of(question: Sequence[str], span: Span) -> bool:
    """A role said of anyone in it ("what do we bill A CUSTOMER", "how much does A
    student pay"): no person of the memory, in an English question ("mama A tata" is
    "and")."""
    return span.start >= 1 and question[span.start - 1] in _ANY and not in_slavic(question)


_ANY = frozenset(words_of("a an any each every"))


def _described_so(identity: Identity, question: Sequence[str], span: Span) -> bool:
    """Whether the word before a role word qualifies it as a description of the identity
    does ("LEAD roofer", "YOUNGER brother"): the word, then the role word in some form."""
    if span.start < 1 or question[span.start - 1] in STOP_WORDS:
        return False
    qualifier, role = question[span.start - 1], set(base_forms(question[span.start]))
    return any(first == qualifier and set(base_forms(second)) & role
               for description in identity.descriptions
               for first, second in itertools.pairwise(description))


def _spelled_as(identity: Identity, said: Sequence[str]) -> bool:
    return any(spells_name(said, spelled) for spelled in identity.spellings)


def _owned_by_asker(question: Sequence[str], start: int, named: Sequence[Mention] = (),
                    ) -> bool:
    """A possessive of the asker right before a word, an adjective between ("my younger
    brother", "our company") — not another mention between ("my husband EMPLOYED")."""
    before = question[max(0, start - 2):start]
    if start >= 1 and any(m.end == start for m in named):
        return False
    return bool((ASKERS_OWN | OUR_OWN).intersection(before))


def _possessor(span: Span, question: Sequence[str], named: Sequence[Mention],
               ) -> Identity | None:
    """The identity whose role person a role word names: named right before it with "'s"
    ("Lenka's mother"), or right after it ("the mother of Lenka", Polish and Slovak
    genitive: "mama Lenki", "dzieci mojej siostry"), or named before "her"/"his" right
    before it ("Where does Marta live and where does HER husband work?")."""
    if span.start and question[span.start - 1] in _THIRD_POSSESSIVES:
        earlier = [m for m in named if m.end < span.start and len(m.identities) == 1]
        if earlier:
            return earlier[-1].identities[0]
    for mention in named:
        if len(mention.identities) != 1 or mention.start == span.start:
            continue
        before = mention.end + 1 == span.start and question[mention.end] == POSSESSIVE_MARK
        between = question[span.end:mention.start]
        after = mention.start > span.end and len(between) <= 2 and all(
            w in _LINKING for w in between)
        # right after it, a name inflected ("mąż MARTY") owns the role; one as spelled is
        # the role person's own name ("the accountant Anna")
        inflected = mention.start == span.end and not set(
            question[mention.start:mention.end]) & set(words(mention.identities[0].label))
        if before or after or inflected:
            return mention.identities[0]
    return None


def titled(spans: Sequence[Span], question: Sequence[str], named: Sequence[Mention],
           taken: set[int], raw: Sequence[str] = ()) -> list[Mention]:
    """The name mentions with the role word before them that is their title, spelled as
    the person is called ("GRANDMA Jarmila", "BABIČKA Věra"; not the genitive of "mama
    LENKI", whose mother is asked; nor "Zosia's dentist Zosia", a second part's name
    after a role someone has): one mention of the named person from the role word on, its
    words taken. The name says who is asked; the role no more — also of a subject no note
    calls a person ("DZIADEK Ryszard" of `ryszard_kruk`: a grandfather is one). A role
    word read in place of another as written (`raw`: "grał" read as "gran") is no title."""
    out = list(named)
    for span in spans:
        if not span.concepts & _TITLES or (raw and any(
                words(raw[j]) != (question[j],) for j in range(span.start, span.end))):
            continue
        for n, m in enumerate(out):
            if (m.start == span.end and m.identities
                    and not taken.intersection(range(span.start, span.end))
                    and not _after_a_possessive(question, span.start)
                    and set(question[m.start:m.end]) & set(words(m.identities[0].label))):
                out[n] = replace(m, start=span.start)
                taken.update(range(span.start, span.end))
    return out


def _after_a_possessive(question: Sequence[str], at: int) -> bool:
    """"Lenka'S grandma": whose the role is; not the "is" of "what'S", "who'S", "it'S"."""
    return (at >= 2 and question[at - 1] == POSSESSIVE_MARK
            and question[at - 2] not in _IS_CONTRACTED)


_IS_CONTRACTED = QUESTION_WORDS | frozenset(words_of("it that there here he she"))
"""Words an "'s" after is "is" ("WHAT's grandpa Ryszard's phone")."""


_TITLES = frozenset(("grandmother", "grandfather", "uncle", "aunt", "mother", "father"))
"""Roles said as a title before a first name ("grandma Jarmila", "teta Hana", "mama
Teresa"; "mama Lenki" is Lenka's mother: the name inflected, not as she is called),
unlike a trade ("doctor Kuba" is a second part's name after its role: whose doctor)."""
_THIRD_POSSESSIVES = frozenset(words_of("her his jej jego jeho jeji"))


def _haver(span: Span, question: Sequence[str], named: Sequence[Mention],
           ) -> Identity | None:
    """The one person a question names as having the role person ("Does Marta have kids?",
    "Ile dzieci ma Marta?", "Má Peter deti?") — not when the asker owns it ("my"), and not
    a name right beside the role word ("the accountant Anna": she is the accountant)."""
    people = [m for m in named if len(m.identities) == 1 and not m.identities[0].asker
              and m.start != span.start]
    if (len(people) != 1 or not _HAVE.intersection(question)
            or ASKER.intersection(question) or _owned_by_asker(question, span.start)):
        return None
    mention = people[0]
    if mention.end == span.start or span.end == mention.start:
        return None
    return mention.identities[0]


_HAVE = frozenset(words_of("""
have has had got ma maja mial miala mieli maju mal mala mali mam mas mit maji mel mela meli"""))
"""Forms of "to have" (en/pl/sk/cs, folded): whose role person a question asks about."""

_LINKING = frozenset(words_of("""
of the a my our mojej mojego mojich mojho mojej naszej at in from w we u z ze v vo pri"""))


def _narrower_role(identity: Identity, roles: frozenset[str], concepts: ConceptTable) -> bool:
    """Whether every spelling of an identity in the role says a narrower role too ("our
    GP" is `family_doctor`, not the `paediatrician`, when both are doctors)."""
    said = [concepts.concepts_of_words(s) & concepts.roles for s in identity.spellings]
    said = [found for found in said if found & roles]
    return bool(said) and all(found - roles for found in said)


def _has_role(identity: Identity, roles: frozenset[str], owner: Identity | None,
              concepts: ConceptTable) -> bool:
    """Whether `identity` is the `owner`'s (the asker's unless named) person in `roles`:
    a spelling in the role ("mother", "mum") — unless its note says it is someone else's —
    or a note description that gives it the role for the owner ("Lenka's mother Ludmila")."""
    if owner is identity or (roles <= ORGS and not is_org(identity, concepts)):
        return False  # "the law FIRM": no person a description says works for a company
    said = [role_owners(d, roles, concepts) for d in identity.descriptions]
    owners = {o for found in said for o in found}
    if any(is_role(s, concepts) and concepts.concepts_of_words(s) & roles
           for s in identity.spellings):  # an alias "mother": the memory owner's mother
        return _owned_by(owners or {()}, owner, concepts)
    if is_a_thing(identity, concepts):
        return False  # a thing ("the car … BOUGHT second-hand"): nobody's supplier
    return bool(owners) and _owned_by(owners, owner, concepts)


def _owned_by(owners: set[tuple[str, ...]], owner: Identity | None,
              concepts: ConceptTable) -> bool:
    """Whether one of the `owners` a description names may be `owner`: () — nobody named
    — is the memory's owner, the asker, and the business of the memory ("the landlord of
    the SALON": a note "landlord of the salon premises")."""
    if owner is not None and not owner.asker and not is_org(owner, concepts) and () in owners:
        owners = owners - {()}
    person_words = {w for s in owner.spellings for w in s} if owner is not None else set()
    return any(owner_is(o, person_words, concepts) for o in owners)
