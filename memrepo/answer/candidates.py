"""The keys a question may be answered from (memrepo.answer.keys): the directory of
identities it can name (a scope's subjects joined with their entity notes), the candidate
keys of the subjects it names and of the words it holds, the things it names by their
own words, the people it names only by a value of their keys, and those it names whom
the memory does not know.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from memrepo.answer.animals_named import animals_named
from memrepo.answer.called_in_quotes import called_in_quotes, kin_in_quotes
from memrepo.answer.concepts import MIN_FORM, MIN_INFLECTED, ConceptTable
from memrepo.answer.first_person import OUR_OWN, in_slavic
from memrepo.answer.identities import (
    ASKER_SUBJECTS,
    BUSINESSES,
    ORGS,
    PERSONAL_ROLES,
    Identity,
    business_owners,
    described_as,
    described_as_a_business,
    first_names,
    identities,
    is_org,
    spelling,
    words,
)
from memrepo.answer.kin_by_value import kin_by_value
from memrepo.answer.mentions import Mention, Mentions
from memrepo.answer.name_spellings import short_names_of, with_fleeting_e
from memrepo.answer.reading import FILLERS, OPTIONAL, TITLES, Reading
from memrepo.answer.roles_named import role_spans
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.answer.words_asked import (
    concept_forms,
    role_words_asked,
    words_of_concepts,
    words_of_roles_asked,
)
from memrepo.cache import Connection
from memrepo.cache.lookups import (
    KeyRow,
    NoteRow,
    entity_notes_with_words,
    existing_subjects,
    keys_of_subjects,
    keys_with_words,
    name_values,
    quotes_holding,
)
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of


def unknown_names(read: Reading, mentions: Mentions, rows: Sequence[KeyRow],
                  concepts: ConceptTable) -> list[int]:
    """Names of nobody the memory knows: a word written with a capital letter (not the
    first) or standing before "'s", that no mention, key word, concept or stop word
    explains ("What's Zbyněk's phone?" asks about someone not recorded)."""
    return [i for i in unexplained_names(read, mentions, rows, concepts)
            if i not in read.value_named and i not in read.optional]


def other_name(names: Sequence[int], mentions: Mentions) -> tuple[int, int] | None:
    """A name written beside part of a known one but not one of its names: "Piotr NOWAK"
    is not Anna Nowak. The whole name's span, or None."""
    for mention in mentions.found:
        for i in names:
            if mention.identities and (i + 1 == mention.start or i == mention.end):
                return min(i, mention.start), max(i + 1, mention.end)
    return None


def another_full_name(read: Reading, mentions: Mentions, concepts: ConceptTable,
                      rows: Sequence[KeyRow]) -> tuple[int, int] | None:
    """A first or last name of someone known written beside a capitalised word that is no
    name of theirs: "Jiří NOVÁK" is not Jiří Procházka, "Ján BALÁŽ" not Ján Hudec — the
    whole name's span (someone the memory does not know), or None. A word of a key of
    theirs is no name ("Kedy má Zuzka TESTOVANIE 9?": `zuzka.testovanie_9`)."""
    for mention in mentions.found:
        if mention.role or len(mention.identities) != 1 or mention.end - mention.start != 1:
            continue
        own = {f for part in _names_of(mention.identities[0]) for f in base_forms(part)}
        for j in (mention.start - 1, mention.end):
            if j in read.capitalised and j not in read.dated and _a_name_word(
                    read.folded[j], concepts) and not own.intersection(
                    base_forms(read.folded[j])) and not _keyed_word(
                    read.folded[j], mention.identities[0], rows):
                return min(j, mention.start), max(j + 1, mention.end)
    return None


def _keyed_word(word: str, identity: Identity, rows: Sequence[KeyRow]) -> bool:
    """Whether a word is a word of a relation of one of the identity's subjects."""
    return any(r.subject_key in identity.subjects and word in words(r.relation_key)
               for r in rows)


def _names_of(identity: Identity) -> set[str]:
    return {*identity.name_parts, *(w for spelled in identity.spellings for w in spelled)}


def _a_name_word(word: str, concepts: ConceptTable) -> bool:
    """A word that may be part of a person's name: not a function word, title or a word of
    the concept table ("Dr", "Aunt", "Booking" stay what they are)."""
    return len(word) > 2 and word not in STOP_WORDS and word not in TITLES and not (
        concepts.knows(word))


def unexplained_names(read: Reading, mentions: Mentions, rows: Sequence[KeyRow],
                      concepts: ConceptTable) -> list[int]:
    """Positions of words written as names (a capital letter, not the first word; before
    "'s") that no mention, key word, concept or stop word explains."""
    inside = {i for m in mentions.found for i in range(m.start, m.end)}
    known = {w for r in rows for w in (*words(r.subject_key), *words(r.relation_key))}
    known_forms = {f for w in known if len(w) >= 4 for f in base_forms(w) if len(f) >= 3}
    found = []
    for i in read.salient:
        word = read.folded[i]
        possessive = read.folded[i + 1:i + 2] == ["s"]
        inflected = bool(known_forms.intersection(base_forms(word)))  # "Anny": `anna`
        if (i in read.capitalised or possessive) and i not in inside and word.isalpha() \
                and len(word) >= 3 and word not in known and not inflected \
                and not (concepts.exact.get(word) if i in read.capitalised
                         else concepts.knows(word)) \
                and word not in FILLERS and word not in OPTIONAL and word not in _PEOPLES:
            found.append(i)
    return found


_PEOPLES = frozenset(words_of("""english czech polish slovak german french spanish italian
russian ukrainian hungarian austrian irish british american dutch swedish norwegian danish
finnish portuguese greek turkish romanian bulgarian croatian serbian slovenian chinese
japanese arabic hebrew latin"""))
"""Words of a language or a people, written with a capital in English ("besides CZECH"):
no one's name."""


def possessed(read: Reading, mentions: Mentions, concepts: ConceptTable) -> frozenset[int]:
    """Words naming what a named person (not the asker, not a company) has: "Jozef's CAR",
    "the CAR of Jozef", "SAMOCHÓD Marty" — that person's, never the household's `car`."""
    found: set[int] = set()
    for m in mentions.found:
        if not m.identities or any(i.asker or is_org(i, concepts) for i in m.identities):
            continue
        if read.folded[m.end:m.end + 1] == ["s"]:
            found.add(m.end + 1)
        if m.start >= 1:
            found.add(m.start - 1)
        if m.start >= 2 and read.folded[m.start - 1] in ("of", "od"):
            found.add(m.start - 2)
    return frozenset(found)


def only_possessor(identity: Identity, mentions: Mentions) -> bool:
    """Whether the question names `identity` only as whose role person it asks about
    ("MARK's wife": Mark's keys answer nothing of hers)."""
    owning = [m for m in mentions.found if m.role and m.owner is identity]
    named = [m for m in mentions.found if identity in m.identities]
    return bool(owning) and all(possessor_position(m.start, mentions) for m in named)


def answerable_role(conn: Connection, scope: str, mention: Mention, rows: Sequence[KeyRow],
                    concepts: ConceptTable, read: Reading) -> bool:
    """Whether a role that names nobody can still be answered: its owner holds a key of
    that role ("who is my accountant" and `me.accountant`), a thing the question names
    holds the role's word (`dentist_appointment`, `electricity.supplier`), or a relation
    holds it with the question's word before it ("our CLAY supplier": `clay_supplier`)."""
    if not mention.role:
        return False
    if mention.start and read.folded[mention.start - 1] in _AT_A_VISIT:
        return True  # "wizytę U KARDIOLOGA": where someone goes, not whom it is about
    before = set(base_forms(read.folded[mention.start - 1])) if mention.start else set()
    if before and any(before & {f for w in words(r.relation_key) for f in base_forms(w)}
                      for r in keys_with_words(conn, scope, before, "relation", 20)
                      if mention.role & concepts.concepts_of_words(words(r.relation_key))):
        return True
    if any(mention.role & concepts.concepts_of_words(words(r.subject_key)) for r in rows):
        return True
    if any(mention.role & concepts.concepts_of_words(words(r.relation_key)) for r in rows):
        return True  # "our electricity SUPPLIER": `electricity.supplier`
    ours = mention.owner is None or (mention.owner.asker and bool(OUR_OWN.intersection(
        read.folded[:mention.start])))
    if ours and any(  # "kto jest NASZYM WULKANIZATOREM": the firm's `wulkanizator`
            mention.role & concepts.concepts_of_words(words(k.relation_key))
            for k in keys_with_words(conn, scope, words_of_concepts(mention.role, concepts),
                                     "relation", 20)):
        return True
    owner = mention.owner.subjects if mention.owner is not None else set()
    return any(mention.role & concepts.concepts_of_words(words(k.relation_key))
               for k in keys_of_subjects(conn, scope, owner))


_AT_A_VISIT = frozenset(words_of("u k ku ke pri at"))
"""Words before a role where someone goes to see them ("wizyta U kardiologa", "ísť K
zubárovi", "an appointment AT the dentist's")."""


# --- who is asked about -----------------------------------------------------------------

def identity_directory(conn: Connection, scope: str, read: Reading, asker: str,
                       concepts: ConceptTable) -> tuple[list[Identity], list[KeyRow]]:
    """The identities the question may name: subjects and entity notes holding its words
    or its role words, the asker, and the subjects those notes name."""
    forms = {f for i in read.salient for f in (
        *base_forms(read.folded[i]), *short_names_of(read.folded[i], i in read.capitalised))}
    forms |= {f for i in read.capitalised for f in with_fleeting_e(read.folded[i])}
    role_words = role_words_asked(read, concepts)
    rows = keys_with_words(conn, scope, forms | role_words | concept_forms(read, concepts),
                           "subject")
    notes = _unique([*entity_notes_with_words(conn, forms | role_words | set(words(asker)),
                                              "names"),
                     *(entity_notes_with_words(conn, role_words, "description")
                       if role_words else [])])
    named = {"_".join(s) for n in notes for s in (
        *_note_spellings(n), first_names(n), *(spelling(a) for a in n.aliases)) if s}
    # an alias "the cat" links the subject `cat`
    linked = existing_subjects(conn, scope, named | {asker, *ASKER_SUBJECTS})
    called = _called_by_name(conn, scope, notes)
    subjects = {(r.subject_key, r.subject) for r in rows}
    subjects |= {(key, key) for key in linked | {s for found in called.values() for s in found}}
    nicknames = _called_in_quotes(conn, scope, read, subjects, notes, concepts)
    kin_words = words_of_roles_asked(read, concepts, PERSONAL_ROLES)
    kin = {key: set(said) for key, said in (kin_in_quotes(kin_words, quotes_holding(
        conn, scope, {w for said in kin_words.values() for w in said})) if kin_words
        else {}).items()}
    kin_said = [span.concepts & PERSONAL_ROLES for span in role_spans(read.folded, concepts)
                if span.concepts & PERSONAL_ROLES]
    for key, said in kin_by_value(conn, scope, asker, kin_said, kin_words, concepts).items():
        kin.setdefault(key, set()).update(said)  # `tomas.brother` = "Pavel …"
    subjects |= {(key, key) for key in (*nicknames, *kin)}
    animals = animals_named(conn, scope, read, concepts,
                            {f for r in rows for w in words(r.subject_key) for f in base_forms(w)})
    subjects |= {(key, key) for found in animals.values() for key in found}
    owners = business_owners(entity_notes_with_words(conn, set(words(asker)), "description"),
                             asker, concepts)
    people = identities(sorted(subjects), notes, asker, concepts, called, owners, nicknames,
                        kin)
    for i, found in animals.items():  # "naszego PSA": the dog recorded as `kapsel`
        for identity in people:
            if identity.subjects & found:
                identity.kinds.add(read.folded[i])
                identity.person = True
    common = _common_words(conn, scope, forms, people)
    for identity in people:
        if identity.person:
            identity.name_parts -= common
    return people, rows


def _called_in_quotes(conn: Connection, scope: str, read: Reading,
                      subjects: Iterable[tuple[str, str]], notes: Sequence[NoteRow],
                      concepts: ConceptTable) -> Mapping[str, set[str]]:
    """The subjects the question's words name as their quotes call them ("Hania": the
    quotes of `hanna_jablonska`; memrepo.answer.called_in_quotes), for the words no key's
    subject and no note spells, and no concept or stop word is."""
    spelled = {w for key, written in subjects for w in (*words(key), *words(written))}
    spelled |= {w for note in notes for s in _note_spellings(note) for w in s}
    said = [read.folded[i] for i in read.salient if read.folded[i] not in spelled
            and read.folded[i] not in STOP_WORDS and not concepts.word_concepts(read.folded[i])]
    forms = {form for word in said for form in base_forms(word)}
    return called_in_quotes(said, quotes_holding(conn, scope, forms)) if said else {}


def _called_by_name(conn: Connection, scope: str, notes: Sequence[NoteRow],
                    ) -> dict[str, set[str]]:
    """For each note of a full name (two words or more), the subjects whose name key holds
    it (`cleaner.name` = "Zuzana Mrázová": the note zuzana-mrazova is the cleaner)."""
    full = [(note.name, spelling(note.name)) for note in notes if len(spelling(note.name)) > 1
            and all(word.isalpha() for word in spelling(note.name))]  # `hand-17`: no name
    if not full:
        return {}
    named = [(subject, set(words(values))) for subject, values in name_values(
        conn, scope, NAME_RELATIONS, {word for _, name in full for word in name})]
    out: dict[str, set[str]] = {}
    for note, name in full:
        if found := {subject for subject, held in named if held.issuperset(name)}:
            out[note] = found
    return out


NAME_RELATIONS = frozenset(words_of("name names imie nazwa meno nazov jmeno nazev"))
"""Relations whose value is what their subject is called."""


def _common_words(conn: Connection, scope: str, forms: set[str],
                  people: Sequence[Identity]) -> set[str]:
    """The question's words that are common nouns of the scope's keys — a word of some
    key's relation (`price_per_JAR`) or of a thing's subject (`acacia_HONEY`) — and so no
    name on their own: "a big JAR of acacia" does not name `jar_supplier`, nor "HONEY"
    the business `hudec-honey`."""
    found = {w for row in keys_with_words(conn, scope, forms, "relation")
             for w in words(row.relation_key)}
    found |= {w for identity in people if not identity.person
              for subject in identity.subjects for w in words(subject)}
    return found & forms


def _note_spellings(note: NoteRow) -> list[tuple[str, ...]]:
    return [s for s in (words(note.name), *(words(a) for a in note.aliases),
                        *described_as(note)) if s]


def _unique(notes: Iterable[NoteRow]) -> list[NoteRow]:
    return list({n.name: n for n in notes}.values())


# --- candidates and scores --------------------------------------------------------------

def candidate_keys(conn: Connection, scope: str, read: Reading, persons: Sequence[Identity],
                   rows: Sequence[KeyRow], concepts: ConceptTable, mentions: Mentions,
                   asker_subjects: frozenset[str] = frozenset()) -> list[KeyRow]:
    """Keys that may answer: the named persons' keys and those of things the question
    names; with nobody named, also keys whose relation holds its words — said with "we"
    or "our", the household's and the asker's own ("which cats do we have":
    `jana_dvorakova.cat`), not a relative's."""
    owners = {s for m in mentions.found if m.role and m.owner is not None
              for s in m.owner.subjects}
    found = keys_of_subjects(conn, scope, {s for i in persons for s in i.subjects} | owners)
    others = [i for m in mentions.found for i in m.identities if not i.asker]
    people = [i for i in others if not is_org(i, concepts)]
    # "How much rent does Marta pay?": Marta's, not the household's `shop_rent`
    of_another = bool(people) and mentions.asker is None and not mentions.ours
    things = [r for r in rows if not of_another and names_thing(r, read, bool(people), concepts)
              and not any(r.subject_key in i.subjects for i in persons)
              and not (is_person_row(r, persons, concepts)
                       and not _named_beyond_role(r, read, concepts))
              and not (people and _as_a_kind(r, read))]
    forms = {f for i in read.salient for f in base_forms(read.folded[i])}
    forms |= concept_forms(read, concepts)
    by_value = {s for subjects in read.value_named.values() for s in subjects}
    if persons or mentions.asker is not None or mentions.found:
        asked = [*found, *keys_of_subjects(conn, scope,
                                           {r.subject_key for r in things} | by_value)]
        if not others:  # the asker alone: also the household's things by their relation
            # ("who is my employer": `job.employer`)
            related = keys_with_words(conn, scope, forms | (concept_forms(
                read, concepts, roles=True) if mentions.ours else set()), "relation")
            noted = with_notes(conn, related, concepts, orgs=True)  # people and firms
            left_out = with_notes(conn, related, concepts) if mentions.ours else noted
            firms = noted - left_out if mentions.ours else set()  # "our landlord": the
            # firm's, said as we
            asked += [r for r in related if not is_person_row(r, persons, concepts)
                      and (_common_thing(r, concepts) or (mentions.ours and (_two_words(
                          r, forms) or r.subject_key in firms)))  # "our CLAY SUPPLIER":
                      # the firm's `clay_supplier`
                      and r.subject_key not in left_out]
        return _unique_keys(asked)
    related = keys_with_words(conn, scope, forms | concept_forms(read, concepts, roles=True),
                              "relation")  # "who is the LANDLORD": `hala.pronajimatel`
    if mentions.ours:  # "what are we driving": the household's, not a relative's
        noted = with_notes(conn, related, concepts)
        related = [r for r in related if r.subject_key in asker_subjects or (
            (not is_person_row(r, persons, concepts) or _the_business(r, concepts))
            and r.subject_key not in noted)]  # "kto u nas pracuje": the firm's staff
    return _unique_keys([*keys_of_subjects(conn, scope,
                                           {r.subject_key for r in things} | by_value),
                         *related])


def named_after(rows: Sequence[KeyRow], persons: Sequence[Identity],
                concepts: ConceptTable) -> set[str]:
    """The subjects of `rows` a word of a person's name is part of (`holt_reroof` of
    "Mrs Holt", `jana_birthday_party` of Jana) — or a word of the same concept
    (`workshop_rent` of the note "warsztat"): that person's or thing's things."""
    parts = {part for person in persons for part in (
        *person.name_parts, *(w for note in person.notes for w in words(note))) if len(part) > 2}
    meant = concepts.concepts_as_written(sorted(parts))
    return {r.subject_key for r in rows if parts & set(words(r.subject_key)) or (
        meant and meant & concepts.concepts_as_written(list(words(r.subject_key))))}


def _two_words(row: KeyRow, forms: set[str]) -> bool:
    """Whether the key's relation holds two words of the question as written."""
    return sum(bool(forms.intersection(base_forms(w))) for w in words(row.relation_key)) >= 2


def with_notes(conn: Connection, rows: Sequence[KeyRow], concepts: ConceptTable,
               orgs: bool = False) -> set[str]:
    """The subjects among `rows` an entity note names: people, and with `orgs` companies,
    shops and practices too ("our" business is the household's, "my" e-mail is not)."""
    subjects = {r.subject_key for r in rows}
    notes = entity_notes_with_words(conn, {w for s in subjects for w in words(s)}, "names")
    spelled = {"_".join(spelling) for n in notes if orgs or not _note_is_org(n, concepts)
               for spelling in _note_spellings(n)}
    return subjects & spelled


def _note_is_org(note: NoteRow, concepts: ConceptTable) -> bool:
    """A note of a company, shop or practice: its name or an alias says so ("the firm"), or
    its description does before it says where or whose ("Zofia's bookbinding WORKSHOP on
    Długa street"; not "Accountant at Acme s.r.o.")."""
    return any(concepts.concepts_of_words(s) & ORGS for s in _note_spellings(note)) or (
        described_as_a_business(note.description, concepts))


def _as_a_kind(row: KeyRow, read: Reading) -> bool:
    """Whether the question names the key's subject only as the kind of its answer ("WHAT
    CAR does my sister drive": a car of hers, not the household's `car`)."""
    subject_words = {f for w in words(row.subject_key) for f in base_forms(w)}
    return all(i in read.kinds for i in read.salient
               if set(base_forms(read.folded[i])) & subject_words)


def things_named(read: Reading, rows: Sequence[KeyRow], people: Sequence[Identity],
                 candidates: Sequence[KeyRow] = ()) -> set[int]:
    """Positions of words that name a thing of the memory by its own words ("my BANK's
    address", "which VAN"): whatever answers must be about that thing — not a word that
    is also a candidate key's relation as written, a common noun ("UBEZPIECZENIE busa":
    `samochod.ubezpieczenie` as much as `ubezpieczenie_oc`)."""
    persons = {s for i in people if i.person for s in i.subjects}
    things = {w for r in rows if r.subject_key not in persons
              for w in words(r.subject_key)}
    relations = {w for r in candidates for w in words(r.relation_key)}
    inflected = {f for w in things if len(w) >= MIN_INFLECTED for f in base_forms(w)
                 if len(f) >= MIN_FORM} - {f for w in relations for f in base_forms(w)}
    # inflected too ("prąd w MIESZKANIU"), but not as the kind asked ("jakie mam OBIEKTYWY")
    short = {w for w in things if len(w) < MIN_INFLECTED}
    return {i for i in read.salient if (read.folded[i] in things or (
        i not in read.kinds and len(read.folded[i]) >= MIN_INFLECTED
        and inflected.intersection(base_forms(read.folded[i]))) or (
            i not in read.kinds and _case_of_a_short(read.folded[i], short)))
            and read.folded[i] not in relations
            and i not in read.in_names and i not in read.theirs} | set(read.value_named)


def subjects_as_written(read: Reading, rows: Sequence[KeyRow], things: Iterable[int],
                        ) -> frozenset[int]:
    """The words (of `things`: positions) that are a subject of the scope as written ("the
    VAN's MOT": `van`), or a name written with a capital that is a word of one ("the
    TRANSIT": `ford_transit`): no other thing's key answers for them through the concept
    table (`car.mot_due`, `van.przeglad` of the Master)."""
    subjects = {r.subject_key for r in rows}
    named = {w for s in subjects for w in words(s)}
    return frozenset(i for i in things if read.folded[i] in subjects or (
        i in read.capitalised and read.folded[i] in named))  # "the TRANSIT": `ford_transit`


def _case_of_a_short(word: str, short: set[str]) -> bool:
    """A Polish or Slovak case of a short thing word ("ubezpieczenie VANA", "w BUSIE" is
    not: only endings added to the word as it is)."""
    return any(word.startswith(thing) and word[len(thing):] in _SHORT_THING_ENDINGS
               for thing in short)


_SHORT_THING_ENDINGS = frozenset(("a", "u", "em", "om", "y", "ie", "ach", "ami", "ow", "ovi",
                                  "owi"))


def _common_thing(row: KeyRow, concepts: ConceptTable) -> bool:
    """Whether a key's subject is named by a common word ("job", "car", "electricity
    bill"), not by a name ("anna", "finpulse"): only such things are the household's — not
    a business called by its own name too (`restauracja_pod_zurawiem`, a client)."""
    said = words(row.subject_key)
    named = concepts.concepts_as_written(said)
    return bool(named) and not (named & BUSINESSES and any(
        not concepts.word_concepts(word) and word not in STOP_WORDS for word in said))


def is_person_row(row: KeyRow, persons: Sequence[Identity], concepts: ConceptTable) -> bool:
    """A key of a person the question did not name (a role subject such as `mother`)."""
    return bool(concepts.concepts_of_words(words(row.subject_key)) & concepts.roles)


def _the_business(row: KeyRow, concepts: ConceptTable) -> bool:
    """Whether a key's subject is the business itself, by its words (`firma`, `practice`;
    not `business_loan`, a thing of its)."""
    return all(concepts.word_concepts(word) & BUSINESSES for word in words(row.subject_key))


def names_thing(row: KeyRow, read: Reading, other_person: bool,
                concepts: ConceptTable, own_relation: bool = False) -> bool:
    """Whether the question names the key's subject by its words — with someone other than
    the asker named ("What car does Kuba drive?"), only by the words as written, never
    through the concept table (the firm's van is not Kuba's car); `own_relation`: not
    through a concept its relation holds too ("the clinic's ADDRESS" names no flat whose
    `adres` it is)."""
    subject_words = set(words(row.subject_key))
    asked = {f for i in read.salient if i not in read.in_names and i not in read.theirs
             for f in base_forms(read.folded[i])}
    if asked & {f for w in subject_words for f in base_forms(w)}:
        return True
    if other_person:
        return False
    named = frozenset().union(*(read.concepts.get(i, frozenset()) for i in read.salient))
    if own_relation:
        named -= concepts.concepts_of_words(words(row.relation_key))
    return bool(concepts.concepts_of_words(words(row.subject_key)) & named)


def _named_beyond_role(row: KeyRow, read: Reading, concepts: ConceptTable) -> bool:
    """Whether the question names a role subject by a word of it that is no role, or by a
    word of that word's concept ("per kilo of FLOUR": `flour_supplier`; "ile płaci
    SIŁOWNIA": `client_gym`), not by the role word alone ("the supplier")."""
    plain = [w for w in words(row.subject_key)
             if not concepts.concepts_of_words([w]) & concepts.roles]
    own = {f for w in plain for f in base_forms(w)}
    # "SIŁOWNIA" for `client_gym`: the word in another language; in one language a word of
    # the same concept ("our BARRELS": `keg_supplier`), not of a broader one ("our
    # MORTGAGE" is not `business_loan`)
    meant = concepts.concepts_of_words(plain) - concepts.roles
    slavic = in_slavic(read.folded)
    return any(set(base_forms(read.folded[i])) & own or meant & (
        read.concepts.get(i, frozenset()) if slavic
        else concepts.narrowest(read.concepts.get(i, frozenset())))
               for i in read.salient if i not in read.in_names and i not in read.theirs)


def _unique_keys(keys: Iterable[KeyRow]) -> list[KeyRow]:
    return list({k.rowid: k for k in keys}.values())


def possessor_position(i: int, mentions: Mentions) -> bool:
    """A word naming whose role person the question asks about ("LENKA's mother")."""
    for first, second in zip(mentions.found, mentions.found[1:], strict=False):
        if first.start <= i < first.end and second.role and second.start <= first.end + 1:
            return True
    return False
