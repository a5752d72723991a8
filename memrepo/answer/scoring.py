"""How well a candidate key answers a question (memrepo.answer.keys): the share of the
question's words, each weighted by its rarity, that the key accounts for through its
subject, its relation (its words, base forms, concepts) or the kind of value asked; the
identity that owns a key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from memrepo.answer.animals_named import ANIMALS
from memrepo.answer.candidates import (
    NAME_RELATIONS,
    is_person_row,
    names_thing,
    with_notes,
)
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import POSSESSIVE_MARK, Identity, is_org, words
from memrepo.answer.joined_people import joined_people, without_others
from memrepo.answer.key_evidence import (
    BY_CONCEPT,
    another_kind,
    forms_of,
    in_its_quote,
    labels_of,
    naming_others,
    other_language,
    quotable,
    relation_match,
    same_word,
)
from memrepo.answer.mentions import Mention, Mentions
from memrepo.answer.question import (
    HEAD_NUMBER,
)
from memrepo.answer.question_weights import (
    misses_rarest,
    paid_for,
    paid_to,
    question_weights,
)
from memrepo.answer.reading import (
    AMOUNT,
    AMOUNT_CUE,
    HEAD_CONCEPTS,
    IDENTITY,
    PLACES,
    WHEN_CUE,
    WHERE_CUE,
    WHO_CUE,
    Reading,
)
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.cache import Connection
from memrepo.cache.lookups import KeyRow, quoted_groups
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of

COVERAGE = 0.5
"""The share of the question's weighted words a key must account for."""


@dataclass(frozen=True, slots=True)
class KeyMatch:
    """A key that answers, with the reasons: how its subject and relation matched."""

    key: KeyRow
    coverage: float
    subject: str  # "the asker ('my')", "name 'kuba'", "words 'gas'"
    relation: tuple[str, ...]  # "'live' → concept residence", "'phone'"
    held: frozenset[str] = frozenset()  # the question's words it accounts for ("#3")
    by_relation: frozenset[str] = frozenset()  # those its relation accounts for
    answers: bool = True  # holds enough of the question (COVERAGE, the rarest word)
    values_naming: frozenset[str] = frozenset()  # only these of its values answer: a
    # person's own place in another's key (`firm.employee` = "Oleh Bondarenko")
    ended_too: bool = False  # … and where none holds when asked, the last that ended


def semantic_pool(candidates: Sequence[KeyRow], persons: Sequence[Identity],
                  mentions: Mentions, read: Reading, people: Sequence[Identity],
                  ) -> tuple[list[KeyRow], dict[str, str]]:
    """The keys the semantic layer may answer from: those of the persons the question
    names, else of the asker and the things it names — never when it names nobody (a
    paraphrase about nobody in particular is no reason to give anyone's value)."""
    if persons:
        subjects = {s for i in persons for s in i.subjects}
        how = {s: next((m.how for m in mentions.found if i in m.identities), "the person named")
               for i in persons for s in i.subjects}
    elif mentions.asker is not None or mentions.found:
        subjects = {k.subject_key for k in candidates}
        how = dict.fromkeys(subjects, "the asker's or a thing named")
    else:  # only subjects the question names by their own words ("Anna" and `anna`)
        subjects = {k.subject_key for k in candidates if _named_directly(k, read)}
        how = dict.fromkeys(subjects, "named by its words")
    return [k for k in candidates if k.subject_key in subjects], how


def about_things(matches: Sequence[KeyMatch], things: set[int], read: Reading,
                 recorded: frozenset[int] = frozenset(),
                 unfit: Collection[tuple[str, str]] = ()) -> list[KeyMatch]:
    """The matches that are about each thing the question names by its own words ("my
    BANK's address", "which VAN"): they hold the word; where an answering key holds it as
    written (its subject or relation: `van.model`, `tomek.car`) or as part of a phrase
    ("HOUSE loan": `mortgage`), keys holding it only through the concept table (`car`
    for "van") do not answer — nor when a key of that very subject is among the matches,
    answering or not ("the van insurance's policy number" is not the car's insurance), nor
    where the scope records a subject spelled as that word (`recorded`: positions), unless
    its quote holds the word. A key whose values are of a kind the question never asks
    (`unfit`: (subject, relation)) is no such answer ("who do we rent the SHOP from": not
    `shop_rent.amount`, an amount, but the landlord whose quote names the shop)."""
    kept = list(matches)
    for i in things:
        direct = [m for m in kept if _holds_as_written(m, i, read)
                  and (m.key.subject_key, m.key.relation_key) not in unfit]
        holding = [m for m in kept if f"#{i}" in m.held or f"~{i}" in m.held]
        if i in recorded:  # "the VAN's MOT" of a scope recording `van`: not `car.mot_due`
            direct += [m for m in holding if m not in direct and (
                f"'{read.raw[i]}' in its quote" in m.relation
                or m.key.subject_key in read.value_named.get(i, ()))]
        kept = direct if any(m.answers for m in direct) or any(
            _subject_as_written(m, i, read) for m in direct) or i in recorded else [
            m for m in kept if m in direct or m in holding]
    return kept


def _subject_as_written(match: KeyMatch, i: int, read: Reading) -> bool:
    """Whether the key's subject is the thing word as written ("the VAN insurance": `van`,
    never `samochod` through the vehicle concept)."""
    return bool(set(base_forms(read.folded[i])) & forms_of(match.key.subject_key))


def _holds_as_written(match: KeyMatch, i: int, read: Reading) -> bool:
    own = forms_of(match.key.subject_key, match.key.relation_key)
    return bool(set(base_forms(read.folded[i])) & own) or (
        i in read.phrases and f"#{i}" in match.held)


def scored_keys(conn: Connection, scope: str, read: Reading, keys: Sequence[KeyRow],
                people: Sequence[Identity], mentions: Mentions, concepts: ConceptTable,
                persons: Sequence[Identity]) -> list[KeyMatch]:
    """Each key scored against the question, best first: the words it accounts for,
    weighted by rarity within `scope`, and whether it answers (COVERAGE, the rarest
    word)."""
    weights, unplaced = question_weights(conn, scope, read, mentions, concepts)
    if not weights:
        return []
    out = []
    role_owners = {s for m in mentions.found if m.role and m.owner is not None
                   for s in m.owner.subjects} - {s for i in persons for s in i.subjects}
    paid = {f"#{i}" for i in read.salient if paid_for(read.folded, i)}
    payee = {f"#{i}" for i in read.salient if paid_to(read, i, AMOUNT_CONCEPTS)}
    per_subject = Counter(key.subject_key for key in keys)
    joined = joined_people(read, mentions)
    quoted = quoted_groups(conn, (key.rowid for key in keys), quotable(read, concepts))
    naming = naming_others(keys, mentions, read)
    kinds_asked = [i for i in read.kinds if i in read.salient and i not in read.optional
                   and read.folded[i] not in STOP_WORDS
                   and read.concepts.get(i, frozenset()) & _DETAILS]
    details_asked = [i for i in read.salient if i not in read.optional
                     and read.concepts.get(i, frozenset()) & _DETAILS] if any(
        read.concepts.get(i, frozenset()) & _SAID_DETAILS for i in read.salient) else []
    no_count = any(read.concepts.get(i, frozenset()) & AMOUNT_CONCEPTS for i in read.salient) or (
        bool({WHERE_CUE, WHEN_CUE, WHO_CUE} & set(read.cues)))
    named = {i for m in mentions.found for i in range(m.start, m.end)}
    possessors = [i for i in read.salient if read.folded[i + 1:i + 2] == [POSSESSIVE_MARK]
                  and i not in named and read.concepts.get(i, frozenset()) & ANIMALS]
    # whose: an animal by its kind, named by no mention ("our DOG's phone")
    for key in keys:
        owner = _owner(key, people)
        held, subject_how, relation_how, by_relation = _held(key, owner, read, mentions,
                                                             concepts)
        held |= {f"#{i}" for i, label in read.labels.items() if label in labels_of(key)}
        if by_relation and _subject_word_only(key, read, by_relation) and (any(
                w not in held and f"~{w[1:]}" not in held for w in weights if w[0] == "#")
                or read.heads):  # "ADRES biura": not `biuro.office_internet`'s "office"
            relation_how = ()  # "the FLAT RENT": the word its subject holds is not also its
            # relation (`flat.address` through the concept of 'flat') when the question asks
            # something more ("rent")
        by_quote = {w for w in in_its_quote(key, read, held, quoted.get(key.rowid, set()),
                                             concepts)
                    if int(w[1:]) not in naming.get(key.subject_key, frozenset())}
        if another_kind(key, read, held | by_quote) or other_language(key, read, concepts) or (
                no_count and _a_count(key)):
            continue  # "a jar of FOREST honey": not `acacia_honey`'s price; "what did we PAY
            # for the classrooms", "WHERE are they": not how many there are
        alone = per_subject[key.subject_key] == 1
        if _by_cue_only(relation_how) and not all(
                w in held or f"~{w[1:]}" in by_quote for w in [*weights, *(
                    f"#{i}" for i in unplaced)] if w[1:].isdigit()):
            continue  # "kiedy PRZYJMUJE doktor …": a date of hers is no answer to that
            # (unless its quote holds the rest: "when is Kuba seeing the ALLERGIST"), nor
            # to a word nothing recorded holds ("kedy ide Bady na STRIHANIE")
        if subject_how == ROLE_OWNER and _only_the_role(key, concepts):
            # "jak mają na IMIĘ moje dzieci": their names; not "what is our dentist CALLED"
            # of the asker's visit to the dentist
            held |= {f"#{i}" for i in read.salient if "name" in read.concepts.get(i, ())}
        if key.subject_key in role_owners and (subject_how != ROLE_OWNER or not all(
                w in held for w in weights if w[1:].isdigit())):
            continue  # "my brother's birthday" is not the asker's; "what does Mark's wife
            # do for work" is not Mark's `spouse`
        if not relation_how and (of_head := _of_a_head(key, read, concepts)):
            relation_how = of_head  # "FotoKolor ADDRESS?": its address, not its price
        if not relation_how and _generic_answers(key, owner, read, concepts,
                                                 alone and not unplaced) and all(
                w in held for w in weights if w[1:].isdigit()):
            relation_how = (f"'{key.relation}': what the {key.subject} is",)
            yields = GENERIC_YIELD
        else:  # "where is the exam": its place, after a place the question's words name
            yields = GENERIC_YIELD if tuple(relation_how) == (_WHERE_HOW,) else 0.0
        if not relation_how:
            continue
        own = without_others(weights, mentions, owner, joined)
        bonus = sum(0.1 for i in read.optional if f"#{i}" in held or f"~{i}" in held) + (
            PLACE_GAIN if WHERE_CUE in held else 0.0)
        gained = sum(own.get(w, 0.0) for w in held) + sum(
            CONCEPT_SHARE * own.get(f"#{w[1:]}", 0.0) for w in held
            if w[0] == "~" and f"#{w[1:]}" not in held)
        coverage = gained / sum(own.values()) + bonus
        # the words its quote holds make a key answer, never outrank one that holds them
        quoted_gain = sum(CONCEPT_SHARE * own.get(f"#{w[1:]}", 0.0) for w in by_quote)
        enough = coverage - (PLACE_GAIN if WHERE_CUE in held else 0.0) + (
            quoted_gain / sum(own.values())) >= COVERAGE - 1e-9
        held |= by_quote
        counted = {w if w[0] != "~" else f"#{w[1:]}" for w in held}
        misses = misses_rarest(held, counted, own, max(own.values()), paid) or bool(
            {w for w in payee if w in own} - counted)
        reasons = (*relation_how, *(f"'{read.raw[int(w[1:])]}' in its quote" for w in
                                    sorted(by_quote)))
        kind_left = any(f"#{i}" not in held and f"~{i}" not in held for i in kinds_asked) or (
            bool(details_asked) and not any({f"#{i}", f"~{i}"} & held for i in details_asked))
        # "jaki MAIL do Chemia-Polu": not the firm's `dostawca_chemii`, which names the firm
        whose = not possessors or any({f"#{i}", f"~{i}"} & held for i in possessors)
        # "what's our DOG's phone": not Tomek's, the one phone recorded
        out.append(KeyMatch(key, coverage - yields, subject_how, reasons, frozenset(held),
                            frozenset(by_relation),
                            enough and not misses and not kind_left and whose))
    return sorted(out, key=lambda m: -m.coverage)


GENERIC_YIELD = 0.15
"""What a key answering only as "what its subject is" yields in rank to one whose relation
the question names ("jakie mam OBIEKTYWY": my `lens`, not `obiektyw_24_70`'s serial)."""
PLACE_GAIN = 0.02
"""What a place relation gains when the question asks where: the venue before the exam
whose words both hold, never enough to answer alone."""


def _subject_word_only(key: KeyRow, read: Reading, by_relation: set[str]) -> bool:
    """Whether the words its relation holds are only words of its subject as written, held
    again through a concept."""
    subject = forms_of(key.subject_key)
    return all(w[0] == "~" and subject.intersection(base_forms(read.folded[int(w[1:])]))
               for w in by_relation)


def _same_role(asked: frozenset[str], held: frozenset[str], concepts: ConceptTable) -> bool:
    """Whether a relation is the role asked: they share a role, and neither names one the
    other does not ("Kasia's DAUGHTER" is no `son`, though both are her children; "my KIDS"
    are her `son` too)."""
    shared = asked & held
    return bool(shared) and not ((asked - shared) & concepts.roles
                                 and (held - shared) & concepts.roles)


def _only_the_role(key: KeyRow, concepts: ConceptTable) -> bool:
    """Whether a relation naming a role is that person (`doctor`, `zona`, `business_name`),
    not a time or an amount of the role's (`wizyta_dentysta`, a visit to the dentist)."""
    return not concepts.concepts_of_words(words(key.relation_key)) & (
        _WHEN_ANSWERS | AMOUNT_CONCEPTS)


_DETAILS = frozenset(("email", "phone", "website", "bank_account", "tax_id", "password",
                      "username"))
_SAID_DETAILS = _DETAILS - {"phone"}
"""Details a question asks for wherever it names them ("the office wifi PASSWORD"): a key
that does not hold one is no answer (a phone's word, "numer", also names other numbers)."""
"""Concepts of a detail someone or something has ("jaki MAIL do …"), never the kind of a
value ("what FOOD must she avoid": her allergy)."""


def _a_count(key: KeyRow) -> bool:
    """Whether a key's relation counts things (`pocet_ucebni`, `liczba_dzieci`; a word list,
    not a concept: "HOW MANY km" asks the mileage, no count)."""
    return bool(_COUNTS.intersection(words(key.relation_key)))


_COUNTS = frozenset(words_of("""count pocet poctu liczba liczby ilosc ilosci quantity mnozstvo
mnozstvi headcount"""))


def _by_cue_only(relation_how: Sequence[str]) -> bool:
    """Whether a key's relation matched nothing but "who", "when" or "where"."""
    return bool(relation_how) and all(how in (_WHO_HOW, _WHEN_HOW, _WHERE_HOW)
                                      for how in relation_how)


def _of_a_head(key: KeyRow, read: Reading, concepts: ConceptTable) -> tuple[str, ...]:
    """The reason a key answers the head noun a question asks by ("FotoKolor ADDRESS?",
    "číslo Marty"): its relation is of the kind the head asks for."""
    held = concepts.concepts_of_words(words(key.relation_key))
    return next(((f"'{kind}' → its {kind}",) for kind in read.heads.values()
                 if held & HEAD_CONCEPTS.get(kind, frozenset())), ())


def _generic_answers(key: KeyRow, owner: Identity | None, read: Reading,
                     concepts: ConceptTable, alone: bool) -> bool:
    """Whether a key's relation says what its subject is and may answer a question that
    names only the subject: a GENERIC relation, or the only key of a thing ("which gym
    was I in?" and `gym.membership`), for a thing ("gas advance now?"); for a person known
    by a role when asked how it changed ("when did we switch family doctors?": the
    doctor's name)."""
    thing = owner is None or not owner.person
    relation = set(words(key.relation_key))
    picks = any(i and read.folded[i - 1] in _PICKING for i in read.kinds)
    if AMOUNT & relation and picks and AMOUNT_CUE not in read.cues:
        return False  # "WHICH accounting office": not `office_rent.monthly_amount`
    if read.heads:  # "my passport NUMBER", "FotoKolor ADDRESS" ask for one attribute
        return False
    if thing and alone:
        return True
    if not (IDENTITY | AMOUNT) & relation:
        return False
    if AMOUNT_CUE in read.cues and not AMOUNT & relation:
        return False  # "ILE miesięcznie idzie za trafica": no model is how much
    if AMOUNT & relation and WHEN_CUE in read.cues:
        return False  # "when …" asks no amount
    if AMOUNT & relation and read.kinds and AMOUNT_CUE not in read.cues and not (
            _asks_an_amount(read, concepts)):
        return False  # "what CAR do we have": its model, not its price
    if thing:
        return True
    return read.asks_change and bool(
        concepts.concepts_of_words(words(key.subject_key)) & concepts.roles)


def _asks_an_amount(read: Reading, concepts: ConceptTable) -> bool:
    """Whether the thing "what" asks for is itself an amount: "what's the RENT", "what's
    the electricity BILL" (a word of the phrase the kind word starts)."""
    salient = set(read.salient)
    for i in read.kinds:
        while i in salient:
            if (read.concepts.get(i, frozenset())
                    | concepts.word_concepts(read.folded[i])) & AMOUNT_CONCEPTS:
                return True
            i += 1
    return False


_PICKING = frozenset(words_of("which ktory ktora ktore ktorym ktorej ktery ktera ktere"))
"""Words asking to pick one thing of a kind: never answered by an amount."""


def _held(key: KeyRow, owner: Identity | None, read: Reading, mentions: Mentions,
          concepts: ConceptTable) -> tuple[set[str], str, tuple[str, ...], set[str]]:
    """The counted words a key accounts for, how its subject matched, how its relation did
    (empty: it did not), and the words its relation accounts for."""
    held: set[str] = set()
    by_relation: set[str] = set()
    subject_how = ""
    subject_words = list(words(key.subject_key))
    relation_words = list(words(key.relation_key))
    relation_how: list[str] = []
    thing = owner is None or not owner.person
    for mention in (*mentions.found, *([mentions.asker] if mentions.asker else [])):
        if mention.role and owner is not None and owner is mention.owner and _same_role(
                mention.role, concepts.concepts_of_words(relation_words), concepts):
            # "my kids", "the firm's employees": the owner's key whose relation is the role
            held.update(f"#{i}" for i in range(mention.start, mention.end))
            relation_how.append(f"{mention.how} → its relation")
            subject_how = ROLE_OWNER
        elif thing and mention.identities and (
                (directly := _named_directly(key, read, range(mention.start, mention.end)))
                or (by_concept := _named_as(key, read, mention, concepts)) or (
                all(is_org(i, concepts) for i in mention.identities)
                and names_thing(key, read, False, concepts, own_relation=True))):
            # the clinic's rent
            held.update(f"#{i}" for i in range(mention.start, mention.end))
            if not directly and by_concept:  # "za WARSZTAT": `workshop_rent`
                said = " ".join(read.raw[mention.start:mention.end])
                subject_how = subject_how or f"words '{said}'"
        elif owner is not None and any(i is owner for i in mention.identities):
            held.update(f"#{i}" for i in range(mention.start, mention.end))
            subject_how = subject_how if subject_how == ROLE_OWNER else (
                subject_how or mention.how)
    named_person = owner is not None and owner.person and any(
        not m.role and any(i is owner for i in m.identities) for m in mentions.found)
    for i in read.salient:
        word = read.folded[i]
        if f"#{i}" in held or i in read.in_names:
            continue  # a word of someone else's name says nothing of this key
        if key.subject_key in read.value_named.get(i, ()):
            held.add(f"#{i}")
            subject_how = subject_how or (
                f"'{read.raw[i]}', called '{read.called[key.subject_key]}'"
                if key.subject_key in read.called else f"words '{read.raw[i]}'"
                if i in read.supplied else f"its value '{read.raw[i]}'")
            continue
        named = read.concepts.get(i, frozenset())
        if same_word(word, named, subject_words, concepts) and not named_person:
            # a person the question names is not named again by a word of the subject's
            # ("kiedy braliśmy ŚLUB z Agą": her `zona.data_urodzenia` holds no wedding)
            held.add(f"#{i}")
            subject_how = subject_how or f"words '{read.raw[i]}'"
        how = relation_match(word, named, relation_words, concepts)
        if how and not _of_the_kind(key, read.heads.get(i, ""), concepts):
            continue  # "my ROOM number" and `room` = "the attic": not a number
        if how and read.folded[i + 1:i + 2] == ["s"] and i + 2 < len(read.folded):
            continue  # "the VET's phone": whose phone, not the dog's `vet`
        if how and not how.startswith(BY_CONCEPT) and i in read.phrases and named and not (
                named & concepts.concepts_of_words([*subject_words, *relation_words])):
            continue  # "what does Ondra do AFTER SCHOOL": his hobby, not his `school`
        if how:
            mark = f"#{i}" if not how.startswith(BY_CONCEPT) else f"~{i}"
            held.add(mark)
            by_relation.add(mark)
            relation_how.append(f"'{read.raw[i]}' {how}")
    amount_like = key.numeric and not (
        concepts.concepts_of_words(relation_words) & _NUMBERS_NOT_AMOUNTS)
    if amount_like:  # "ile WYNOSI rata", "what does it COST": a number answers them
        for i in read.salient:
            if "price" in read.concepts.get(i, frozenset()) and f"#{i}" not in held:
                held.add(f"~{i}")
    if AMOUNT_CUE in read.cues and amount_like:
        held.add(AMOUNT_CUE)
        if concepts.concepts_of_words(relation_words) & AMOUNT_CONCEPTS:
            relation_how.append("'how much' → a number")
    if WHO_CUE in read.cues and (NAME_RELATIONS.intersection(relation_words) or (
            concepts.concepts_of_words(relation_words) & (_WHO_ANSWERS | _roles_asked_of(
                owner, mentions)))):
        # a relation that is the role the question names its subject by ("who's our GP":
        # `gp.doctor`) is that person's name
        held.add(WHO_CUE)
        relation_how.append(_WHO_HOW)
    if WHEN_CUE in read.cues and concepts.concepts_of_words(relation_words) & _WHEN_ANSWERS:
        held.add(WHEN_CUE)
        relation_how.append(_WHEN_HOW)
    if WHERE_CUE in read.cues and (
            concepts.concepts_of_words(relation_words) & PLACES):
        held.add(WHERE_CUE)
        relation_how.append(_WHERE_HOW)
    return held, subject_how or UNNAMED, tuple(relation_how), by_relation


_WHO_ANSWERS = frozenset(("name", "company", "contact", "contact_person", "provider",
                          "insurance"))
_WHEN_ANSWERS = frozenset(("date", "birth", "expiry", "payment_terms", "appointment",
                           "schedule", "start", "end", "anniversary", "service"))
"""Concepts of relations whose value answers "when" (a date)."""
"""Concepts of relations whose value answers "who" (a name, a company, a contact)."""


_NUMBERS_NOT_AMOUNTS = frozenset(("residence", "registered_address", "phone", "plate",
                                  "bank_account", "tax_id", "personal_id_number"))
"""Concepts of relations whose digits are no amount: "how much" is not asked of them."""


ROLE_OWNER = "whose the role is"
UNNAMED = "the question's words"
"""How the subject of a key matched when the question names it in no way of its own."""
_WHO_HOW = "'who' → a name"
_WHEN_HOW = "'when' → a date"
_WHERE_HOW = "'where' → a place"
AMOUNT_CONCEPTS = frozenset(("price", "payment", "salary", "fee", "utility_bill", "invoice",
                      "rent", "hourly_rate"))
"""Concepts of relations whose value answers "how much" ("ile", "koľko")."""


def _roles_asked_of(owner: Identity | None, mentions: Mentions) -> frozenset[str]:
    """The roles by which the question names the key's owner ("our GP": doctor), or asks
    of the owner it names ("kto je lekár mojej MAMY": her doctor)."""
    if owner is None:
        return frozenset()
    said = any(i is owner for m in mentions.found for i in m.identities)
    return frozenset().union(*(m.role for m in mentions.found if m.role and (
        any(i is owner for i in m.identities) or (said and m.owner is owner))))


def _named_as(key: KeyRow, read: Reading, mention: Mention, concepts: ConceptTable) -> bool:
    """Whether a thing's mention names the key's subject by a word of the same concept as
    one the subject is written with ("ile płacimy za WARSZTAT": `workshop_rent`)."""
    subject = concepts.concepts_as_written(list(words(key.subject_key)))
    return any(read.concepts.get(i, frozenset()) & subject
               for i in range(mention.start, mention.end))


def _named_directly(key: KeyRow, read: Reading, among: Collection[int] | None = None,
                    ) -> bool:
    """Whether the question names the key's subject by one of its own words ("the VAN"),
    at one of the positions `among` where given (a mention's)."""
    subject_words = {f for w in words(key.subject_key) for f in base_forms(w)}
    return any(set(base_forms(read.folded[i])) & subject_words for i in read.salient
               if i not in read.in_names and (among is None or i in among))


def _of_the_kind(key: KeyRow, kind: str, concepts: ConceptTable) -> bool:
    """Whether a key's values are of the kind a head noun asks for: a number has digits,
    an address digits or is an e-mail's."""
    if not kind:
        return True
    if kind == HEAD_NUMBER and concepts.concepts_of_words(words(key.relation_key)) & (
            _WHEN_ANSWERS):
        return False  # "the policy NUMBER": not the policy's expiry date
    if key.numeric:
        return True
    return kind != HEAD_NUMBER and "email" in concepts.concepts_of_words(
        words(key.relation_key))


CONCEPT_SHARE = 0.9
"""What a word matched through the concept table counts for, against the word itself
("address" finds `address` before `city`)."""


def _owner(key: KeyRow, people: Sequence[Identity]) -> Identity | None:
    for identity in people:
        if key.subject_key in identity.subjects:
            return identity
    return None


def owners_of(conn: Connection, chosen: Sequence[KeyMatch], people: Sequence[Identity],
              concepts: ConceptTable) -> set[str]:
    """The different people (not things) whose keys were chosen: identities the question's
    words found, subjects named by a role word or by a person's entity note."""
    found = set()
    others = []
    for match in chosen:
        owner = _owner(match.key, people)
        if owner is not None and owner.person:
            found.add(owner.label)
        elif owner is None:
            others.append(match.key)
    found |= {r.subject_key for r in others if is_person_row(r, (), concepts)}
    return found | with_notes(conn, others, concepts)
