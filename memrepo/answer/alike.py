"""Choosing among the keys that answer a question alike (memrepo.answer.keys): the best
covering, each person's when several are named side by side, those holding more of the
question, those named by their relation, the town rather than the address, and a role
word's relation as written."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import Identity, words
from memrepo.answer.key_evidence import forms_of
from memrepo.answer.reading import AMOUNT, IDENTITY, JOINERS, Reading
from memrepo.answer.scoring import ROLE_OWNER, KeyMatch
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of


def among_alike(read: Reading, scored: Sequence[KeyMatch], joined: Sequence[Identity],
                concepts: ConceptTable) -> list[KeyMatch]:
    """The keys chosen of those that answer (`scored`, `joined`: the people the question
    names side by side)."""
    return _role_as_written(read, _named_by_its_relation(read, _plain_relation(
        _town_or_address(read, _relation_by_its_words(_saying_no_more(
            read, _best_of_each(scored, joined), concepts)))), concepts))


def also_asked(chosen: Sequence[KeyMatch], scored: Sequence[KeyMatch],
               people: Sequence[Identity] = (), read: Reading | None = None,
               ) -> list[KeyMatch]:
    """Other keys of a chosen key's subject — or of another subject of its person or
    thing (`people`: "the DOG's name and breed", `dog.name` and `biscuit.breed`) — whose
    relation holds words the chosen ones' relations do not ("my sister's phone AND EMAIL":
    two relations of one person)."""
    subjects = {m.key.subject_key for m in chosen}
    subjects |= {s for i in people if i.subjects & subjects for s in i.subjects}
    # a word a chosen key holds only through its quote is not asked of it ("adres i
    # TELEFON Wiśniewskiego": the quote giving his address names his phone too)
    asked = {w[1:] for m in chosen for w in m.held if w[0] == "#" or w in m.by_relation}
    extra = []
    after = _modified(read) if read is not None else {}
    relations = {w[1:] for m in chosen for w in m.by_relation}
    for match in scored:
        own = {w[1:] for w in match.by_relation}
        if match not in chosen and match.key.subject_key in subjects and own and not (
                own & asked) and not all(after.get(w) in relations for w in own):
            # "his SCHOOL e-mail": a word before one another key's relation answers says
            # which e-mail, not that his school is asked too
            extra.append(match)
            asked |= own
            relations |= own
    return extra


def _modified(read: Reading) -> dict[str, str]:
    """Each salient word said right before another (at most a hyphen's piece between, no
    joining word: "SCHOOL e-MAIL", not "phone AND email"), by position, as marks' digits."""
    pairs = itertools.pairwise(read.salient)
    return {str(i): str(j) for i, j in pairs if j - i <= 2
            and not JOINERS.intersection(read.folded[i + 1:j])}


def alike_that_changed(read: Reading, scored: Sequence[KeyMatch], chosen: Sequence[KeyMatch],
                       ) -> list[KeyMatch]:
    """For a change question, the chosen subjects' other keys that answer nearly as well
    and hold every word the chosen ones hold, by their words or the concept table ("how did
    our loan PAYMENT change": `bank_loan.monthly_installment`, when the chosen
    `final_payment` never changed) — asked when no chosen key's value changed."""
    if not read.asks_change or not chosen:
        return []
    subjects = {m.key.subject_key for m in chosen}
    least = min(m.coverage for m in chosen) - CHANGE_TIE
    asked = {w[1:] for m in chosen for w in m.held}
    return [m for m in scored if m not in chosen and m.key.subject_key in subjects
            and m.coverage >= least and asked <= {w[1:] for w in m.held}]


CHANGE_TIE = 0.1
"""How much less of the question a change question's next best key may hold."""


def _saying_no_more(read: Reading, chosen: list[KeyMatch], concepts: ConceptTable,
                    ) -> list[KeyMatch]:
    """Of keys alike, those whose relation (and subject, by its words of the concept table)
    says nothing the question does not ("which grammar SCHOOL does my son attend":
    `tomas.school`, not `tomas.driving_school`; "dad's NEUROLOGIST": `otec.neurolog`, not
    `next_neurology_visit`; "náš SLÁDOK": `brewer`, not `pomocny_sladek`) when some do."""
    asked = {f for i in read.salient for f in base_forms(read.folded[i])}
    named = frozenset().union(*(read.concepts.get(i, frozenset()) for i in read.salient))

    def unasked(word: str) -> bool:
        return not set(base_forms(word)) & asked and not concepts.word_concepts(word) & named

    shared = set.intersection(*(set(words(m.key.subject_key)) for m in chosen)) if chosen \
        else set()  # words every subject has tell none of them apart ("BURSZTYN
    # NIERUCHOMOŚCI"'s office rent and rental commission, asked "czynsz za biuro")

    def says_more(match: KeyMatch) -> bool:  # its subject's words of the concept table too
        return any(unasked(w) and w not in AMOUNT | IDENTITY
                   for w in words(match.key.relation_key)) or any(
            unasked(w) and concepts.word_concepts(w) for w in words(match.key.subject_key)
            if w not in shared)
    plain = [m for m in chosen if not says_more(m)]
    return plain if plain and len(plain) < len(chosen) else chosen


def _best_of_each(scored: Sequence[KeyMatch], persons: Sequence[Identity]) -> list[KeyMatch]:
    """The best-covering keys; of each person when the question names several side by side
    and every key is one of theirs ("When were Peter AND Lucia born?": `peter.birth_date` and
    `lucia.birthday`, though one covers the question less)."""
    groups = [[m for m in scored if m.key.subject_key in person.subjects]
              for person in persons]
    if len(persons) < 2 or sum(map(len, groups)) != len(scored):
        best = max(m.coverage for m in scored)
        tied = [m for m in scored if m.coverage >= best - 1e-9]
        most = max(len(_positions(m)) for m in tied)
        # of keys alike, those holding more of the question ("numer do naszego BIURA": the
        # school's phone, not its instructors'), though a possessor's word weighs nothing
        return [m for m in tied if len(_positions(m)) == most]
    return [m for group in groups if group
            for m in group if m.coverage >= max(g.coverage for g in group) - 1e-9]


def _relation_by_its_words(chosen: list[KeyMatch]) -> list[KeyMatch]:
    """Of one subject's keys chosen alike, those whose relation holds a word of the
    question by its own words, not only through the concept table ("van INSURER?":
    `van_insurance.insurer`, not its premium, a word of the insurance concept too)."""
    if len({m.key.subject_key for m in chosen}) != 1:
        return chosen
    own = {word for m in chosen for word in _said(m, "' = '")}  # not a close spelling:
    kept = [m for m in chosen if not own & _said(m, "' → concept ")]  # "RATA" ~ `rate`
    return kept or chosen


def _said(match: KeyMatch, how: str) -> set[str]:
    """The question's words the key's relation holds in the way `how` says."""
    return {text.split("'")[1] for text in match.relation if how in text}


def _plain_relation(chosen: list[KeyMatch]) -> list[KeyMatch]:
    """Of one subject's keys chosen alike, those a word of the question names by their
    relation ("how much did we BORROW for the sauna": `sauna_loan.principal`, not its
    monthly payment); by none, the one whose relation is the plain amount or name of the
    thing ("how much did we borrow from Moneta": `business_loan.amount`) — the others say
    more than asked."""
    if len({m.key.subject_key for m in chosen}) != 1:
        return chosen
    if any(m.by_relation for m in chosen):
        return [m for m in chosen if m.by_relation]
    plain = [m for m in chosen if set(words(m.key.relation_key)) <= AMOUNT | IDENTITY]
    return plain or chosen


def _named_by_its_relation(read: Reading, chosen: list[KeyMatch], concepts: ConceptTable,
                           ) -> list[KeyMatch]:
    """Of one subject's keys chosen alike, those whose relation holds a word the question
    names the subject by, as written or through the concept table ("ile płaciliśmy za
    BIURO": the agency's `office_rent`, not its `sales_commission`), when some do."""
    if len({m.key.subject_key for m in chosen}) != 1:
        return chosen

    def holds_its_name(match: KeyMatch) -> bool:
        relation = list(words(match.key.relation_key))
        forms = {f for w in relation for f in base_forms(w)}
        meant = concepts.concepts_of_words(relation)
        naming = [int(w[1:]) for w in match.held - match.by_relation
                  if w[0] == "#" and w[1:].isdigit()]
        return any(forms.intersection(base_forms(read.folded[i]))
                   or meant & read.concepts.get(i, frozenset()) for i in naming)
    kept = [m for m in chosen if holds_its_name(m)]
    return kept if kept else chosen


def _town_or_address(read: Reading, chosen: list[KeyMatch]) -> list[KeyMatch]:
    """Of one subject's town and address chosen alike ("where does grandma live"), the
    town — the address where the question asks exactly, for the street or the address
    ("where is mum's flat EXACTLY")."""
    def kind(match: KeyMatch) -> str:
        relation = set(words(match.key.relation_key))
        return "town" if relation & _TOWN else "address" if relation & _ADDRESS else ""
    kinds = {(m.key.subject_key, kind(m)) for m in chosen}
    both = {s for s, k in kinds if k == "town"} & {s for s, k in kinds if k == "address"}
    if not both:
        return chosen
    drop = "town" if _EXACT_PLACE & set(read.folded) else "address"
    return [m for m in chosen if not (m.key.subject_key in both and kind(m) == drop)]


_TOWN = frozenset(words_of("city town mesto miasto obec miejscowosc"))
_ADDRESS = frozenset(words_of("address adres adresa street ulica ulice"))
_EXACT_PLACE = frozenset(words_of("""exactly exact precisely address adres adresa adresu
adrese street ulica ulicy ulice ulici ulicu dokladnie dokladny dokladna presne presna presny
presnu"""))


def _positions(match: KeyMatch) -> set[str]:
    """The question's words a key holds, by its own words or its quote."""
    return {w[1:] for w in match.held if w[1:].isdigit()}


def _role_as_written(read: Reading, chosen: list[KeyMatch]) -> list[KeyMatch]:
    """Of the owner's keys a role word chose ("my GP": `gp` and `doctor_appointment`, both
    of the doctor concept), those whose relation holds the role word as written, when one
    does."""
    if not any(m.subject == ROLE_OWNER for m in chosen):
        return chosen
    asked = {f for i in read.salient for f in base_forms(read.folded[i])}
    written = [m for m in chosen if m.subject == ROLE_OWNER and asked & {
        f for w in words(m.key.relation_key) for f in base_forms(w)}]
    if not written:
        return chosen
    return [m for m in chosen if m.subject != ROLE_OWNER or m in written]


def unnamed_alike(read: Reading, top: Sequence[KeyMatch], concepts: ConceptTable,
                  ) -> list[KeyMatch]:
    """Keys of two or more subjects that answer by the same relation when the question
    says none of their subjects ("what's the phone number?" with `piotr.phone` and
    `anna.phone` recorded): whose it is was not asked, so none of them is the answer.
    Empty when the best key says its subject or no other subject's key is alike."""
    unsaid = [m for m in top if not _says_its_subject(m, read, concepts)]
    if not top or top[0] not in unsaid:
        return []
    same = [m for m in unsaid if m.key.relation_key == top[0].key.relation_key]
    if any(m.held != same[0].held for m in same):
        return []  # "wynajem hali na GŁOGOWSKIEJ": the rent whose quote says where
    return same if len({m.key.subject_key for m in same}) > 1 else []


def _says_its_subject(match: KeyMatch, read: Reading, concepts: ConceptTable) -> bool:
    """Whether a word the key holds is a word of its subject, or of its concept ("our HOME
    address": `mieszkanie.adres`)."""
    forms = forms_of(match.key.subject_key)
    meant = concepts.concepts_of_words(words(match.key.subject_key))
    return any(w[0] in "#~" and w[1:].isdigit() and (
        forms.intersection(base_forms(read.folded[int(w[1:])]))
        or meant & read.concepts.get(int(w[1:]), frozenset())) for w in match.held)
