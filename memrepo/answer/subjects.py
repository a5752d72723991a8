"""Whose fact a question asks about (SPEC §7 "Whose fact it is: the subject first"): the
identities (memrepo.answer.identities) a question *mentions* — by a spelling (a name, an
alias, the subject's words, a close spelling of one), by a role word ("my mum", "Lenka's
mother": a subject named so, a note with such an alias or description), or — the asker —
by "I", "my", "ja", "mój", "môj" …, meaning the scope's own subject (config `self`).

Pure: the rows come from memrepo.cache.lookups (memrepo.answer.keys reads them).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memrepo.answer.concepts import ConceptTable, Span
from memrepo.answer.first_person import (
    first_person_plural,
    first_person_singular,
    in_slavic,
    polish_we,
)
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
from memrepo.answer.stopwords import QUESTION_WORDS, STOP_WORDS
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of

if TYPE_CHECKING:
    pass

ASKER = frozenset(words_of("""
i me myself ja mnie mi mna mne mnou"""))
"""Words by which the asker speaks of themself (en/pl/sk/cs, folded)."""
ASKERS_OWN = frozenset(words_of("""
my mine moj moja moje moi mojego mojej mojemu moim moimi moich mojho mojom mojim mojich
muj meho memu mem mym mych"""))
"""Possessives of the asker: "my phone" is the asker's, "my mother's phone" the mother's."""
OURS = frozenset(words_of("""
we us our ours ourselves nasz nasza nasze nasi naszego naszej naszemu naszym naszych naszymi
nas nam nami nase nasa nasho nasej nasmu nasom nasim nasich nasemu nasem"""))
"""The asker with others ("our IČO", "we pay"): the household or the business, not the
asker alone — a soft mention that restricts nothing."""
OUR_OWN = frozenset(words_of("""
our ours nasz nasza nasze nasi naszego naszej naszemu naszym naszych naszymi nase nasa nasho
nasej nasmu nasom nasim nasich nasemu nasem"""))
"""Possessives of the asker with others ("our accountant")."""
MIN_NAME_PART = 3


@dataclass(frozen=True, slots=True)
class Mention:
    """Words [start, end) of the question that name `identities` (empty: nobody the
    memory knows), and how."""

    start: int
    end: int
    identities: tuple[Identity, ...]
    how: str  # for the answer's reasons: "name 'Kuba'", "role 'mum'", "the asker ('my')"
    role: frozenset[str] = frozenset()  # the role concepts, for a role word
    owner: Identity | None = None  # whose role person it is (the asker unless named)


@dataclass(frozen=True, slots=True)
class Mentions:
    found: tuple[Mention, ...]
    asker: Mention | None  # the asker as the subject ("my phone", "where do I live")
    ours: bool  # "we"/"our": the household or business
    set_aside: frozenset[int] = frozenset()  # words of a mention the question sets aside

    @property
    def persons(self) -> list[Identity]:
        people = [i for m in self.found for i in m.identities]
        if self.asker is not None:
            people += list(self.asker.identities)
        return list({id(i): i for i in people}.values())

    @property
    def unresolved(self) -> list[Mention]:
        return [m for m in self.found if not m.identities]

    @property
    def used(self) -> set[int]:
        spans = [*self.found, *([self.asker] if self.asker else [])]
        return {i for m in spans for i in range(m.start, m.end)}


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
    found += _parts_named(question, persons, taken, concepts)
    found += _capitalised_parts_named(question, capitalised, people, taken, concepts)
    asking = next((i for i in people if i.asker), None) or (
        Identity(spellings={words(asker)}, person=True, asker=True) if asker else None)
    found += _roles_named(question, persons, concepts, taken, found, asking,
                          _OwnersSaid(people, capitalised))
    negated = [m for m in found if _negated(question, m.start)]
    found = sorted((m for m in found if m not in negated), key=lambda m: m.start)
    as_subject = _asker(question, raw, people, found, concepts)
    ours = any(word in OURS and not polish_we(question, i) for i, word in enumerate(
        question)) or first_person_plural(raw, question, concepts)
    aside = frozenset(i for m in negated for i in range(m.start, m.end))
    return Mentions(tuple(found), as_subject, ours, aside)


def _spellings_named(question: Sequence[str], people: Sequence[Identity],
                     taken: set[int], concepts: ConceptTable,
                     capitalised: Collection[int] = ()) -> list[Mention]:
    """Full spellings (a name, an alias, a subject's words), longest first; role words
    are left to `_roles_named`."""
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


def spells_name(said: Sequence[str], wanted: tuple[str, ...],
                capitals: Collection[int] = ()) -> bool:
    """Whether words of a question spell a name: the same words, or the name's words
    inflected ("Pixela", "mama Agnieszki", "Marks city"): a shared base form, for words
    of four letters or more; a name written with a capital letter (`capitals`: positions in
    `said`) also with the vowel its stem drops ("BARTKA" of Bartek, "KACPRA" of Kacper)."""
    return len(said) == len(wanted) and all(
        a == b or (len(b) >= 4 and _inflected(a, set(base_forms(a)) & set(base_forms(b))))
        or _possessive_of_short(a, b) or (i in capitals and (
            _without_fleeting_e(a, b) or _case_of_short(a, b)))
        for i, (a, b) in enumerate(zip(said, wanted, strict=True)))


def with_fleeting_e(word: str) -> set[str]:
    """The names a capitalised word may be a form of with its stem's "e" dropped: "kacpr",
    "kacpra" → kacper; "bartka" → bartek."""
    stems = {word[:len(word) - len(ending)] for ending in _NAME_ENDINGS
             if word.endswith(ending)}
    return {stem[:-1] + "e" + stem[-1] for stem in stems if len(stem) >= 4}


def _without_fleeting_e(word: str, name: str) -> bool:
    """"bartka", "kacpr", "pawla" of Bartek, Kacper, Paweł: the name's last "e" dropped,
    a case ending after."""
    if len(name) < 5 or name[-2] != "e":
        return False
    stem = name[:-2] + name[-1]
    return word.startswith(stem) and word[len(stem):] in _NAME_ENDINGS


def _possessive_of_short(word: str, name: str) -> bool:
    """A Slovak or Czech possessive of a three-letter name in -a: "EMINA triedna" (Ema's),
    "Evin telefón"."""
    return len(name) == 3 and name.endswith("a") and word.startswith(name[:-1]) and (
        word[2:] in SHORT_POSSESSIVE)


SHORT_POSSESSIVE = frozenset(words_of("in ina ine ino inu iny inej inho inom inou ini inych"))


def _case_of_short(word: str, name: str) -> bool:
    """A case of a three-letter name in -a, written with a capital letter: "wesele OLI i
    Bartka", "z Emou"."""
    return len(name) == 3 and name.endswith("a") and word[:2] == name[:2] and (
        word[2:] in _SHORT_CASES)


_SHORT_CASES = frozenset(words_of("i y e u o ou"))


def short_names_of(word: str, capital: bool) -> tuple[str, ...]:
    """The three-letter name in -a a possessive may be of ("emina" → "ema"), or a case of
    it written with a capital letter ("Oli" → "ola")."""
    possessive = len(word) >= 4 and word[2:] in SHORT_POSSESSIVE
    case = capital and len(word) in (3, 4) and word[2:] in _SHORT_CASES
    return (word[:2] + "a",) if possessive or case else ()


def _inflected(word: str, stems: set[str]) -> bool:
    """Whether `word` is one of the shared `stems` with an ending of a name's case or
    possessive ("Marka", "Markowi", "Marks"), not another word that stems alike ("market"
    is no form of Marek)."""
    return any(word.startswith(stem) and word[len(stem):] in _NAME_ENDINGS for stem in stems)


_NAME_ENDINGS = frozenset(words_of("""a e i o u y s ou ie em om ym im ej ow ov ach ami owi
ovi iem ego emu iego iemu ova ove ovo ovu ovej ovho ovom ovou in ina ine ino inu iny inej
inho inom inou ka ke ki ku ko kiem kowi kou ek ce cie ze nie""")) | {""}
"""What follows a name's stem in its inflected forms (folded): cases, possessives."""


def _parts_named(question: Sequence[str], people: Sequence[Identity],
                 taken: set[int], concepts: ConceptTable) -> list[Mention]:
    """A single word of a person's name that no other identity has ("Radek" for the note
    radek-simek)."""
    owners: dict[str, list[Identity]] = {}
    for identity in people:
        if not identity.person:
            continue
        for part in identity.name_parts:
            if len(part) >= MIN_NAME_PART and part not in STOP_WORDS and not (
                    concepts.knows(part)):
                owners.setdefault(part, []).append(identity)
    found = []
    for i, word in enumerate(question):
        owned = owners.get(word) or [o for part, found_owners in owners.items()
                                     if len(part) >= 4 and spells_name((word,), (part,))
                                     for o in found_owners]
        if i not in taken and len(owned) == 1:
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


def _roles_named(question: Sequence[str], people: Sequence[Identity], concepts: ConceptTable,
                 taken: set[int], named: Sequence[Mention], asking: Identity | None,
                 owners: _OwnersSaid | None = None) -> list[Mention]:
    """Role words ("mum", "teściowa", "accountant") not part of a name: the identities the
    role names for its possessor — a name before it ("Lenka's mother") or after it ("mama
    Lenki"), another role person ("dzieci mojej siostry", "my wife's mother"), else the
    asker. A role said without a possessor ("who do we buy boilers from", "the suppliers")
    that names nobody is no mention: its words are left to the keys' relations."""
    spans = [span for span in role_spans(question, concepts)
             if not taken.intersection(range(span.start, span.end))
             and not _anyone_of(question, span)]
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
            matches = exact or qualified or matches
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
class _OwnersSaid:
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
    a role — also inside a phrase of another concept ("our COMPANY id")."""
    found: list[Span] = []
    covered: set[int] = set()
    for span in concepts.spans(words):
        if span.concepts & concepts.roles:
            found.append(span)
            covered.update(range(span.start, span.end))
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


def _anyone_of(question: Sequence[str], span: Span) -> bool:
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


_NEGATIONS = frozenset(words_of("not nie ne nicht"))


def _negated(question: Sequence[str], start: int) -> bool:
    """A mention the question sets aside ("my phone, not the firm's")."""
    return bool(_NEGATIONS.intersection(question[max(0, start - 2):start]))


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
