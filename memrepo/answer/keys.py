"""Which fact keys answer a question (SPEC §7): the subject first, then the relation.

1. The question's words are read: stop words, dates and fillers set aside; a word the
   memory and the concept table both lack is respelled to a close word of the scope's keys
   or names (one edit for short words).
2. Whose fact it asks about (memrepo.answer.subjects): the identities it names, by name,
   alias, role word or as the asker. A question that names a person is answered only from
   that person's keys and from keys of things it names by their own words ("my van's
   plate"); a person it names whom the memory does not know makes the answer "not
   recorded". A question naming nobody is answered from the keys whose words it holds —
   unless they belong to several people alike ("what's the phone number?").
3. Each candidate key is scored by the share of the question's words it accounts for —
   through its subject, its relation (its words, their base forms, the concept table), or
   the kind of value asked ("how much": a number) — each word weighted by its rarity. A key
   answers when its relation accounts for a word, it holds at least half the question, and
   it holds the rarest word.
4. When the subject is known but none of its keys answers, the answer lists the relations
   recorded about it, so that an agent can ask again by key.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.question import (
    HEAD_NUMBER,
    Question,
    asks_change_word,
    head_kind,
    head_positions,
)
from memrepo.answer.relevance import close_spelling, osa_within, question_word_typo
from memrepo.answer.semantic import Semantic, key_text
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.answer.subjects import (
    ASKER_SUBJECTS,
    Identity,
    Mention,
    Mentions,
    find_mentions,
    identities,
    in_slavic,
    role_spans,
    words,
)
from memrepo.answer.when import find_times
from memrepo.cache import Connection
from memrepo.cache.lookups import (
    KeyRow,
    NoteRow,
    entity_name_vocabulary,
    entity_notes_with_words,
    existing_subjects,
    key_name_words,
    key_term_counts,
    keys_of_subjects,
    keys_with_words,
    notes_hold_any,
    scope_vocabulary,
)
from memrepo.core.stems import WORD, base_forms, tokens
from memrepo.core.text import words_of

COVERAGE = 0.5
"""The share of the question's weighted words a key must account for."""
MAX_KEYS = 5
FILLERS = frozenset(words_of("""
please again currently today tonight right know give show want find look info information
details detail still ever exactly remind remember anything something thing things days one
moment moments there here else going podaj powiedz pokaz prosze teraz obecnie aktualnie daj
povedz ukaz prosim momentalne rekni ted nyni aktualne also list all every tell say again
ponownie znowu znow znova znovu opat"""))
"""Words that ask nothing of their own ("please", "right now", "give me"): never held
against a key. (Head nouns beside another word, "phone NUMBER", are set aside too.)"""
OPTIONAL = frozenset(words_of("""
month months monthly week weeks weekly year years yearly annual annually daily day each per
every mesiac mesicne mesacne miesiac miesiecznie rok rocznie rocne rocni tyden tydenne
private personal main new current latest official direct time over usual normal regular
standard typical default base basic next last previous start beginning
prywatny prywatna sukromny sukromna soukromy soukroma"""))
"""Words of a period ("each month", "per year") or a kind of value ("my PRIVATE phone"): a
key whose relation holds one gains by it (`monthly_fee`); one that does not is not held
to it."""
IDENTITY = frozenset(words_of("""
name model type make brand kind title nazwa imie marka typ meno nazov znacka jmeno nazev"""))
AMOUNT = frozenset(words_of("""
amount value price cost total sum kwota wartosc cena suma castka hodnota"""))
"""Relations that say what a thing is (IDENTITY: `van.model`) or costs (AMOUNT:
`gas_bill.amount`), answering a question that names only the thing ("which van do we
have?", "gas advance now?" — an amount when the question asks one or names no other)."""
_WHO = frozenset(words_of("who whom kto kogo kdo koho"))
_LOOK = frozenset(words_of("look looks looked looking"))
_WHEN = frozenset(words_of("when kiedy kedy kdy"))
_WHICH = frozenset(words_of("""
what which jaki jaka jakie jakiego jakiej jakim jaka jakimi jakich ktory ktora ktore
ktorego ktorej ktorym ktorych aky aka ake akeho akej aku akym akou akych ktoreho ktorom
jaky jake jakou jakym jakem"""))
"""Words whose next word names the kind of the answer ("what CAR does she drive")."""
"""… LOOK LIKE: "what did my rent look like" asks nothing of "like"."""
_THIRD_PERSON = frozenset(words_of("""
he she him her his hers they them their theirs ona oni ono jego jej ich jemu niej nim
ho mu jeho nej"""))
"""Someone the question does not name ("What car does SHE want?"): nobody to answer about."""
_SLAVIC_THIRD = frozenset(words_of("on ono"))
"""… and in a Polish, Slovak or Czech question ("Gdzie ON teraz pracuje?")."""
_NAME_RELATIONS = frozenset(words_of("name names imie nazwa meno nazov jmeno nazev"))
AMOUNT_CUE = "#amount"
WHO_CUE = "#who"
WHEN_CUE = "#when"


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


@dataclass(frozen=True, slots=True)
class KeyChoice:
    keys: list[KeyMatch] = field(default_factory=list)
    about: list[str] = field(default_factory=list)  # who was asked about (labels)
    recorded: dict[str, list[str]] = field(default_factory=dict)  # when none answers
    unknown: list[str] = field(default_factory=list)  # names/roles of nobody recorded
    respelled: dict[str, str] = field(default_factory=dict)
    ambiguous: list[str] = field(default_factory=list)  # several people's keys alike
    naming: list[str] = field(default_factory=list)  # the question's words naming whom
    pool: list[KeyRow] = field(default_factory=list)  # keys the subject stage allowed
    pool_how: dict[str, str] = field(default_factory=dict)  # subject key → how it was named
    bare: bool = False  # the question says whom it asks about and nothing more
    asking: list[str] = field(default_factory=list)  # the words the chosen relations hold


@dataclass(frozen=True, slots=True)
class _Words:
    raw: list[str]
    folded: list[str]
    salient: list[int]  # positions that count
    cues: dict[str, float]  # pseudo-words: "how much" (AMOUNT_CUE)
    dated: set[int]  # positions of the words of a date or period
    concepts: dict[int, frozenset[str]]  # position → the concepts its phrase names
    optional: set[int]  # words that count only where a key holds them ("monthly")
    heads: dict[int, str]  # a word beside a head noun → the kind of value asked ("number")
    asks_change: bool
    read_as: dict[str, str]  # the opening question word misspelt ("whic" → "which")
    kinds: set[int]  # words naming the kind of the answer ("what CAR", "which VAN")
    phrases: set[int]  # words inside a phrase of the concept table ("house loan")
    capitalised: set[int]  # words written with a capital letter, not the first
    value_named: dict[int, frozenset[str]] = field(default_factory=dict)
    in_names: frozenset[int] = frozenset()  # words of a person's name the question says
    theirs: frozenset[int] = frozenset()  # words a named person possesses ("Jozef's CAR")
    # a name a thing's value holds ("our TOYOTA": `car.model`) → that thing's subjects


def choose_keys(conn: Connection, scope: str, question: Question, now: int, asker: str,
                concepts: ConceptTable, semantic: Semantic | None = None) -> KeyChoice:
    """The keys of `scope` that answer `question` (one question of a text), with reasons.
    A word neither the memory nor the concept table knows is respelled only when the
    question as written finds no answer ("back" is not "bank"); the semantic layer, where
    installed, answers only among the keys the subject stage allowed, when the words found
    none."""
    read = _read(question, now, concepts)
    first = _choose(conn, scope, read, asker, concepts, dict(read.read_as))
    replaced = _respell(conn, scope, read, concepts) if not first.keys or len(
        {k.key.subject_key for k in first.keys}) > 1 else {}
    if first.keys and not any(f"#{i}" not in k.held for k in first.keys for i in replaced):
        return first  # the words it read answered; nothing left to respell
    if replaced:
        again = _read(question, now, concepts, replaced)
        respelled = {read.raw[i]: word for i, word in replaced.items()}
        second = _choose(conn, scope, again, asker, concepts, {**read.read_as, **respelled})
        if second.keys:  # "rata kredtu": the respelling says which of the keys it asks
            return second
        if first.keys:
            return first
    if semantic is not None and first.pool:
        return _semantic_choice(semantic, question.text, first)
    return first


SEMANTIC_MIN = 0.5
"""The least cosine similarity of question and key words the semantic layer answers with."""
SEMANTIC_MARGIN = 0.1
"""… and by how much it must beat the next best relation."""


def _semantic_choice(semantic: Semantic, text: str, choice: KeyChoice) -> KeyChoice:
    """The key among those the subject stage allowed (`choice.pool`) whose words are
    closest to the question, when close enough and clearly closer than the next."""
    pool = list({(k.subject_key, k.relation_key): k for k in choice.pool}.values())
    scores = semantic.scores(text, [key_text(k.subject, k.relation) for k in pool])
    ranked = sorted(zip(scores, pool, strict=True), key=lambda pair: -pair[0])
    best, key = ranked[0]
    runner = ranked[1][0] if len(ranked) > 1 else 0.0
    if best < SEMANTIC_MIN or best - runner < SEMANTIC_MARGIN:
        return choice
    match = KeyMatch(key, best, choice.pool_how.get(key.subject_key, "the subject asked"),
                     (f"the question's meaning (similarity {best:.2f})",))
    return replace(choice, keys=[match], recorded={})


def _choose(conn: Connection, scope: str, read: _Words, asker: str, concepts: ConceptTable,
            respelled: dict[str, str]) -> KeyChoice:
    """`choose_keys` for the question's words as read (`respelled`: the words replaced),
    saying whether it asks nothing beyond whom it names and which words the answering
    relations hold (for the part of a text after it: "… a jaki do dentysty?")."""
    people, rows = _directory(conn, scope, read, asker, concepts)
    mentions = find_mentions(read.folded, read.raw, people, concepts, read.dated)
    choice = _chosen(conn, scope, read, asker, concepts, respelled, people, rows, mentions)
    asking = [read.raw[int(w[1:])] for w in dict.fromkeys(
        w for m in choice.keys for w in sorted(m.by_relation))]
    bare = bool(mentions.found) and not _asks_beyond(read, mentions)
    return replace(choice, bare=bare, asking=asking)


def _chosen(conn: Connection, scope: str, read: _Words, asker: str, concepts: ConceptTable,
            respelled: dict[str, str], people: list[Identity], rows: list[KeyRow],
            mentions: Mentions) -> KeyChoice:
    read = _named_by_values(conn, scope, read, mentions, rows, concepts)
    read = replace(read, in_names=frozenset(
        i for m in mentions.found if not m.role and any(x.person for x in m.identities)
        for i in range(m.start, m.end)),  # "Jakub PROCHÁZKA": not `prochazka_instalaterstvi`
        theirs=_possessed(read, mentions, concepts))
    persons = [i for i in mentions.persons if not _only_possessor(i, mentions)]
    unknown = [m for m in mentions.unresolved if not _answerable_role(conn, scope, m, rows,
                                                                      concepts)]
    strangers = _strangers(read, mentions, rows, concepts)
    if strangers and not [m for m in mentions.found if m.identities]:
        return KeyChoice(unknown=[read.raw[i] for i in strangers], respelled=respelled)
    if someone_else := _other_name(_unexplained_names(read, mentions, rows, concepts),
                                   mentions):
        return KeyChoice(unknown=[_said(read, *someone_else)], respelled=respelled)
    third = _THIRD_PERSON | (_SLAVIC_THIRD if in_slavic(read.folded) else frozenset())
    if not mentions.found and mentions.asker is None and third.intersection(read.folded):
        return KeyChoice(unknown=[next(read.raw[i] for i, w in enumerate(read.folded)
                                       if w in third)], respelled=respelled)
    if unknown:
        return KeyChoice(unknown=[_said(read, m.start, m.end) for m in unknown],
                         respelled=respelled)
    if mentions.asker is not None and not mentions.asker.identities and not mentions.found:
        persons = []  # the asker, of whom nothing is recorded: things the question names
    named = [m for m in mentions.found if m.identities]
    if named and not _asks_beyond(read, mentions) and not any(m.role for m in named):
        return _everything_about(conn, scope, named, respelled)
    candidates = _candidates(conn, scope, read, persons, rows, concepts, mentions)
    things = _things_named(read, rows, people)
    matched = _about_things(_scored(conn, read, candidates, people, mentions, concepts,
                                    persons), things, read)
    scored = [m for m in matched if m.answers]
    about = [i.label for i in persons]
    if not scored:
        recorded = _recorded(conn, scope, persons) if persons else {}
        pool, pool_how = (_semantic_pool(candidates, persons, mentions, read, people)
                          if _uninterpreted(read, mentions, concepts) else ([], {}))
        return KeyChoice(about=about, recorded=recorded, respelled=respelled, pool=pool,
                         pool_how=pool_how)
    best = max(m.coverage for m in scored)
    chosen = [m for m in scored if m.coverage >= best - 1e-9][:MAX_KEYS]
    chosen += _also_asked(chosen, matched) if _joins(read) else []
    owners = _owners(conn, chosen, people, concepts)
    if not persons and len(owners) > 1:
        return KeyChoice(about=about, respelled=respelled, ambiguous=[
            f"{m.key.subject}.{m.key.relation}" for m in chosen])
    return KeyChoice(chosen, about, respelled=respelled, naming=_naming(read, mentions))


# --- reading the question ---------------------------------------------------------------

def _read(question: Question, now: int, concepts: ConceptTable,
          replaced: dict[int, str] | None = None) -> _Words:
    """The question's words as the key choice reads them (`replaced`: position → the
    respelling read instead)."""
    pairs = tokens(question.text)
    raw = [r for r, _ in pairs]
    folded = [(replaced or {}).get(i, f) for i, (_, f) in enumerate(pairs)]
    dated: set[int] = set(find_times([f for _, f in pairs], now).used)
    look_like = {i for i in range(len(folded) - 1)
                 if folded[i] in _LOOK and folded[i + 1] == "like"}
    dated = {*dated, *look_like, *(i + 1 for i in look_like)}  # set aside like a date
    heads = head_positions(folded, {i for i, w in enumerate(folded) if w not in STOP_WORDS
                                    and i not in dated and not asks_change_word(w)})
    written = WORD.findall(unicodedata.normalize("NFC", question.text))
    if len(written) != len(raw):
        written = list(raw)
    heads = {i for i in heads if not _beside_a_person(i, written, folded, concepts)}
    opening = question_word_typo(folded[0]) if folded else None
    read_as = {raw[0]: opening} if opening else {}
    salient = [i for i, word in enumerate(folded)
               if i not in dated and i not in heads and word not in STOP_WORDS
               and not (i == 0 and opening)
               and word not in FILLERS and len(word) > 1 and not word.isdigit()
               and not (asks_change_word(word) and not concepts.knows(word))]
    cues = {AMOUNT_CUE: 1.0} if question.asks_amount else {}
    who = _first_of(folded, _WHO)
    when = _first_of(folded, _WHEN)
    if who < len(folded) and who < when:  # "who do I call WHEN it breaks": who asks
        cues[WHO_CUE] = 0.5
    if when < len(folded) and when < who and not question.asks_change:
        cues[WHEN_CUE] = 0.5
    spans: dict[int, frozenset[str]] = {}
    for span in concepts.spans(folded):  # a phrase's words mean the phrase ("for a LIVING")
        for i in range(span.start, span.end):
            spans[i] = span.concepts
    for i, word in enumerate(folded):  # "Péťa's NUMBER", "numer do mamy": a phone number
        if head_kind(word) == HEAD_NUMBER and i not in heads and (
                i not in spans or spans[i] <= _ALSO_A_NUMBER):
            spans[i] = spans.get(i, frozenset()) | {"phone"}
    multi = {i for span in concepts.spans(folded) if span.end - span.start > 1
             for i in range(span.start, span.end)}
    salient = sorted({*salient, *_phrases_of_small_words(folded, concepts, dated)})
    optional = {i for i in salient if folded[i] in OPTIONAL and i not in multi}
    kinds = {j: head_kind(folded[i]) for i in heads for j in (i - 1, i + 1) if j in salient}
    phrased = {i for span in concepts.spans(folded) if span.end - span.start > 1
               for i in range(span.start, span.end)}
    asked_kind = {i + 1 for i, word in enumerate(folded[:-1]) if word in _WHICH}
    capitalised = {i for i, w in enumerate(written) if i and w[:1].isupper()
                   and not w.isupper()}
    salient = sorted({*salient, *(i for i in capitalised if i not in dated and i not in heads
                                  and len(folded[i]) > 1 and folded[i] not in FILLERS)})
    # a name that is also a small word ("What is ANI's salary?": Anna) still names someone
    return _Words(raw, folded, salient, cues, set(dated), spans, optional, kinds,
                  question.asks_change, read_as, asked_kind, phrased, capitalised)


def _beside_a_person(i: int, written: Sequence[str], folded: Sequence[str],
                     concepts: ConceptTable) -> bool:
    """Whether a head noun's modifier is a person ("numer TEŚCIA", "číslo Marty"): then it
    asks for that person's number, not for a kind of number ("numer pokoju")."""
    after = i + 1
    if head_kind(folded[i]) != HEAD_NUMBER or after >= len(folded):
        return False
    return bool(concepts.word_concepts(folded[after]) & concepts.roles) or written[after][
        :1].isupper()


_ALSO_A_NUMBER = frozenset(("size",))
"""Concepts of a word for a number that alone still asks for a phone ("aké ČÍSLO má"; "číslo
topánok" is a shoe size: a head before its noun)."""


def _first_of(folded: Sequence[str], wanted: frozenset[str]) -> int:
    """The position of the first of the `wanted` words (len(folded): none)."""
    return next((i for i, word in enumerate(folded) if word in wanted), len(folded))


def _phrases_of_small_words(folded: Sequence[str], concepts: ConceptTable,
                            dated: set[int]) -> set[int]:
    """The first word of a phrase of the concept table made only of words that alone say
    nothing ("UNTIL when", "DO kiedy", "od kdy"): it counts, for the phrase."""
    return {span.start for span in concepts.spans(folded) if span.end - span.start > 1
            and not span.concepts <= _CUED
            and all(folded[i] in STOP_WORDS and i not in dated
                    for i in range(span.start, span.end))}


_CUED = frozenset(("price",))
"""Concepts a cue already asks ("how much": AMOUNT_CUE)."""


MAX_ABOUT = 20
"""The most keys answered for a question that only names someone ("Łódź Packaging?")."""


def _uninterpreted(read: _Words, mentions: Mentions, concepts: ConceptTable) -> bool:
    """Whether the question has a content word that neither a mention nor the concept
    table explains: only then may the semantic layer answer — a question whose words the
    table reads ("Ondra's PHONE") and no key holds is "not recorded", not a near match."""
    inside = {i for m in mentions.found for i in range(m.start, m.end)}
    return any(i not in inside and i not in read.optional and not read.concepts.get(i)
               for i in read.salient)


def _semantic_pool(candidates: Sequence[KeyRow], persons: Sequence[Identity],
                   mentions: Mentions, read: _Words, people: Sequence[Identity],
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


def _naming(read: _Words, mentions: Mentions) -> list[str]:
    """The words by which the question names the people it asks about ("mama Agnieszki")."""
    return [read.raw[i] for m in mentions.found if m.identities
            for i in range(m.start, m.end)]


def _also_asked(chosen: Sequence[KeyMatch], scored: Sequence[KeyMatch]) -> list[KeyMatch]:
    """Other keys of a chosen key's subject whose relation holds words the chosen ones'
    relations do not ("my sister's phone AND EMAIL": two relations of one person)."""
    subjects = {m.key.subject_key for m in chosen}
    asked = {w[1:] for m in chosen for w in m.held}
    extra = []
    for match in scored:
        own = {w[1:] for w in match.by_relation}
        if match not in chosen and match.key.subject_key in subjects and own and not (
                own & asked):
            extra.append(match)
            asked |= own
    return extra[:MAX_KEYS]


def _joins(read: _Words) -> bool:
    """Whether the question joins two things it asks ("phone AND e-mail", "telefon I
    mail", "telefón A mail"); "miesięczna opłata za leasing" asks one."""
    joiners = _AND_SLAVIC if in_slavic(read.folded) else _AND_ENGLISH
    return bool(joiners.intersection(read.folded))


_AND_ENGLISH = frozenset(words_of("and plus"))
_AND_SLAVIC = frozenset(words_of("i a oraz plus"))


def _asks_beyond(read: _Words, mentions: Mentions) -> bool:
    """Whether the question asks something of whom it names: a word outside its mentions
    (besides fillers, optional words and a possessor) or a cue ("how much", "who")."""
    inside = {i for m in mentions.found if m.identities for i in range(m.start, m.end)}
    return bool(read.cues) or any(i not in inside and i not in read.optional
                                  and i not in mentions.set_aside for i in read.salient)


def _everything_about(conn: Connection, scope: str, named: Sequence[Mention],
                      respelled: dict[str, str]) -> KeyChoice:
    """A question that only names someone ("Łódź Packaging?", "Radek"): every key recorded
    about them."""
    matches = []
    for mention in named:
        for identity in mention.identities:
            for key in keys_of_subjects(conn, scope, identity.subjects, MAX_ABOUT):
                matches.append(KeyMatch(key, 1.0, mention.how, ("everything recorded",)))
    return KeyChoice(matches[:MAX_ABOUT], [i.label for m in named for i in m.identities],
                     respelled=respelled)


def _strangers(read: _Words, mentions: Mentions, rows: Sequence[KeyRow],
               concepts: ConceptTable) -> list[int]:
    """Names of nobody the memory knows: a word written with a capital letter (not the
    first) or standing before "'s", that no mention, key word, concept or stop word
    explains ("What's Zbyněk's phone?" asks about someone not recorded)."""
    return [i for i in _unexplained_names(read, mentions, rows, concepts)
            if i not in read.value_named and i not in read.optional]


def _other_name(names: Sequence[int], mentions: Mentions) -> tuple[int, int] | None:
    """A name written beside part of a known one but not one of its names: "Piotr NOWAK"
    is not Anna Nowak. The whole name's span, or None."""
    for mention in mentions.found:
        for i in names:
            if mention.identities and (i + 1 == mention.start or i == mention.end):
                return min(i, mention.start), max(i + 1, mention.end)
    return None


def _named_by_values(conn: Connection, scope: str, read: _Words, mentions: Mentions,
                     rows: Sequence[KeyRow], concepts: ConceptTable) -> _Words:
    """Names the memory holds as values, not as subjects: a thing named by the value of
    its name or model ("our TOYOTA", "firmowe DOBLÒ": `car.model`) is that thing; any other
    value ("the premises on LEGNICKA street") or a note holds names nobody new and counts
    only where a key holds it."""
    named: dict[int, frozenset[str]] = {}
    optional = set(read.optional)
    for i in _unexplained_names(read, mentions, rows, concepts):
        hits = keys_with_words(conn, scope, base_forms(read.folded[i]), "object")
        things = frozenset(r.subject_key for r in hits if IDENTITY & set(words(r.relation_key))
                           and not _is_person_row(r, (), concepts))
        if things:
            named[i] = things
        elif hits or notes_hold_any(conn, base_forms(read.folded[i])):
            optional.add(i)  # a name the notes hold ("przegląd Octavii"): theirs to answer
    return replace(read, value_named=named, optional=optional)


def _unexplained_names(read: _Words, mentions: Mentions, rows: Sequence[KeyRow],
                       concepts: ConceptTable) -> list[int]:
    """Positions of words written as names (a capital letter, not the first word; before
    "'s") that no mention, key word, concept or stop word explains."""
    inside = {i for m in mentions.found for i in range(m.start, m.end)}
    known = {w for r in rows for w in (*words(r.subject_key), *words(r.relation_key))}
    found = []
    for i in read.salient:
        word = read.folded[i]
        possessive = read.folded[i + 1:i + 2] == ["s"]
        if (i in read.capitalised or possessive) and i not in inside and word.isalpha() \
                and len(word) >= 3 and word not in known and not concepts.knows(word) \
                and word not in FILLERS and word not in OPTIONAL:
            found.append(i)
    return found


def _possessed(read: _Words, mentions: Mentions, concepts: ConceptTable) -> frozenset[int]:
    """Words naming what a named person (not the asker, not a company) has: "Jozef's CAR",
    "the CAR of Jozef", "SAMOCHÓD Marty" — that person's, never the household's `car`."""
    found: set[int] = set()
    for m in mentions.found:
        if not m.identities or any(i.asker or _is_org(i, concepts) for i in m.identities):
            continue
        if read.folded[m.end:m.end + 1] == ["s"]:
            found.add(m.end + 1)
        if m.start >= 1:
            found.add(m.start - 1)
        if m.start >= 2 and read.folded[m.start - 1] in ("of", "od"):
            found.add(m.start - 2)
    return frozenset(found)


def _only_possessor(identity: Identity, mentions: Mentions) -> bool:
    """Whether the question names `identity` only as whose role person it asks about
    ("MARK's wife": Mark's keys answer nothing of hers)."""
    owning = [m for m in mentions.found if m.role and m.owner is identity]
    named = [m for m in mentions.found if identity in m.identities]
    return bool(owning) and all(_possessor_position(m.start, mentions) for m in named)


def _answerable_role(conn: Connection, scope: str, mention: Mention, rows: Sequence[KeyRow],
                     concepts: ConceptTable) -> bool:
    """Whether a role that names nobody can still be answered: its owner holds a key of
    that role ("who is my accountant" and `me.accountant`), or a thing the question names
    holds the role's word (`dentist_appointment`)."""
    if not mention.role:
        return False
    if any(mention.role & concepts.concepts_of_words(words(r.subject_key)) for r in rows):
        return True
    owner = mention.owner.subjects if mention.owner is not None else set()
    return any(mention.role & concepts.concepts_of_words(words(k.relation_key))
               for k in keys_of_subjects(conn, scope, owner))


def _said(read: _Words, start: int, end: int) -> str:
    return " ".join(read.raw[start:end]) or "the asker"


def _respell(conn: Connection, scope: str, read: _Words, concepts: ConceptTable,
             ) -> dict[int, str]:
    """Words neither the memory nor the concept table knows, respelled to a close word of
    the scope's subjects and relations or of entity names ("vna" → "van"): position → the
    respelling."""
    unknown = [i for i in read.salient if not concepts.knows(read.folded[i])
               and len(read.folded[i]) >= 3 and read.folded[i].isalpha()
               and read.folded[i] not in OPTIONAL]
    if not unknown:
        return {}
    counts, _ = key_term_counts(conn, {f for i in unknown for f in base_forms(read.folded[i])})
    note_words = {w for n in entity_notes_with_words(conn, [read.folded[i] for i in unknown],
                                                     "names", 20)
                  for s in (n.name, *n.aliases) for w in words(s)}
    respelled: dict[int, str] = {}
    for i in unknown:
        word = read.folded[i]
        if any(counts.get(f) for f in base_forms(word)) or word in note_words:
            continue
        reach = 1 if len(word) < 8 else 2
        vocabulary = [w for w in scope_vocabulary(conn, scope, word[0], len(word) - reach,
                                                  len(word) + reach)
                      + entity_name_vocabulary(conn, word[0], len(word) - reach,
                                               len(word) + reach)
                      if w not in STOP_WORDS]
        others = {read.folded[j] for j in read.salient if j != i}
        fixed = _best_spelling(conn, scope, word, vocabulary, reach, others)
        if fixed is not None and fixed != word:
            respelled[i] = fixed
    return respelled


def _best_spelling(conn: Connection, scope: str, word: str, vocabulary: Sequence[str],
                   reach: int, others: set[str]) -> str | None:
    """The nearest spelling of `word` in `vocabulary`; of several equally near, one that a
    key holds beside another word of the question ("dau rate" → `day_rate`, not `dad`)."""
    forms = [word, *(f for f in base_forms(word) if len(f) >= 4)]  # "kredtu": kredyt
    distances = {term: min(osa_within(form, term, reach) for form in forms)
                 for term in dict.fromkeys(vocabulary) if term != word and not term.isdigit()}
    best = min(distances.values(), default=reach + 1)
    nearest = [term for term, distance in distances.items() if distance == best]
    if best > reach or not nearest:
        return None
    if len(nearest) > 1 and others:
        for term in nearest:
            for column in ("relation", "subject"):
                keys = keys_with_words(conn, scope, [term], column, 20)
                if any(others & {*words(k.subject_key), *words(k.relation_key)}
                       for k in keys):
                    return term
    return next((found for form in forms if (found := close_spelling(form, nearest))), None)


# --- who is asked about -----------------------------------------------------------------

def _directory(conn: Connection, scope: str, read: _Words, asker: str,
               concepts: ConceptTable) -> tuple[list[Identity], list[KeyRow]]:
    """The identities the question may name: subjects and entity notes holding its words
    or its role words, the asker, and the subjects those notes name."""
    forms = {f for i in read.salient for f in base_forms(read.folded[i])}
    role_words = _role_words(read, concepts)
    rows = keys_with_words(conn, scope, forms | role_words | _concept_forms(read, concepts),
                           "subject")
    notes = _unique([*entity_notes_with_words(conn, forms | role_words | set(words(asker)),
                                              "names"),
                     *(entity_notes_with_words(conn, role_words, "description")
                       if role_words else [])])
    named = {"_".join(s) for n in notes for s in _note_spellings(n)}
    linked = existing_subjects(conn, scope, named | {asker, *ASKER_SUBJECTS})
    subjects = {(r.subject_key, r.subject) for r in rows}
    subjects |= {(key, key) for key in linked}
    return identities(sorted(subjects), notes, asker, concepts), rows


def _role_words(read: _Words, concepts: ConceptTable) -> set[str]:
    roles = {c for span in role_spans(read.folded, concepts) for c in span.concepts
             & concepts.roles}
    return {w for role in roles for entry in concepts.words_of.get(role, ())
            for w in words(entry)} - STOP_WORDS


def _note_spellings(note: NoteRow) -> list[tuple[str, ...]]:
    return [s for s in (words(note.name), *(words(a) for a in note.aliases)) if s]


def _unique(notes: Iterable[NoteRow]) -> list[NoteRow]:
    return list({n.name: n for n in notes}.values())


# --- candidates and scores --------------------------------------------------------------

def _candidates(conn: Connection, scope: str, read: _Words, persons: Sequence[Identity],
                rows: Sequence[KeyRow], concepts: ConceptTable, mentions: Mentions,
                ) -> list[KeyRow]:
    """Keys that may answer: the named persons' keys and those of things the question
    names; with nobody named, also keys whose relation holds its words."""
    owners = {s for m in mentions.found if m.role and m.owner is not None
              for s in m.owner.subjects}
    found = keys_of_subjects(conn, scope, {s for i in persons for s in i.subjects} | owners)
    others = [i for m in mentions.found for i in m.identities if not i.asker]
    people = [i for i in others if not _is_org(i, concepts)]
    # "How much rent does Marta pay?": Marta's, not the household's `shop_rent`
    of_another = bool(people) and mentions.asker is None and not mentions.ours
    things = [r for r in rows if not of_another and _names_thing(r, read, bool(people), concepts)
              and not any(r.subject_key in i.subjects for i in persons)
              and not _is_person_row(r, persons, concepts)
              and not (people and _as_a_kind(r, read))]
    forms = {f for i in read.salient for f in base_forms(read.folded[i])}
    forms |= _concept_forms(read, concepts)
    by_value = {s for subjects in read.value_named.values() for s in subjects}
    if persons or mentions.asker is not None or mentions.found:
        asked = [*found, *keys_of_subjects(conn, scope,
                                           {r.subject_key for r in things} | by_value)]
        if not others:  # the asker alone: also the household's things by their relation
            # ("who is my employer": `job.employer`)
            related = keys_with_words(conn, scope, forms, "relation")
            asked += [r for r in related if not _is_person_row(r, persons, concepts)
                      and r.subject_key not in _with_notes(conn, related, concepts,
                                                           orgs=not mentions.ours)]
        return _unique_keys(asked)
    related = keys_with_words(conn, scope, forms, "relation")
    if mentions.ours:  # "what are we driving": the household's, not a relative's
        related = [r for r in related if not _is_person_row(r, persons, concepts)
                   and r.subject_key not in _with_notes(conn, related, concepts)]
    return _unique_keys([*keys_of_subjects(conn, scope,
                                           {r.subject_key for r in things} | by_value),
                         *related])


def _with_notes(conn: Connection, rows: Sequence[KeyRow], concepts: ConceptTable,
                orgs: bool = False) -> set[str]:
    """The subjects among `rows` an entity note names: people, and with `orgs` companies,
    shops and practices too ("our" business is the household's, "my" e-mail is not)."""
    subjects = {r.subject_key for r in rows}
    notes = entity_notes_with_words(conn, {w for s in subjects for w in words(s)}, "names")
    spelled = {"_".join(spelling) for n in notes if orgs or not _note_is_org(n, concepts)
               for spelling in _note_spellings(n)}
    return subjects & spelled


def _note_is_org(note: NoteRow, concepts: ConceptTable) -> bool:
    """A note of a company, shop or practice: its name or an alias says so ("the firm")."""
    return any(concepts.concepts_of_words(s) & _ORGS for s in _note_spellings(note))


def _is_org(identity: Identity, concepts: ConceptTable) -> bool:
    """A company, shop or practice (it owns things: "which van did the firm have")."""
    return any(concepts.concepts_of_words(s) & _ORGS for s in identity.spellings)


_ORGS = frozenset(("company", "practice", "shop", "workshop"))


def _as_a_kind(row: KeyRow, read: _Words) -> bool:
    """Whether the question names the key's subject only as the kind of its answer ("WHAT
    CAR does my sister drive": a car of hers, not the household's `car`)."""
    subject_words = {f for w in words(row.subject_key) for f in base_forms(w)}
    return all(i in read.kinds for i in read.salient
               if set(base_forms(read.folded[i])) & subject_words)


def _things_named(read: _Words, rows: Sequence[KeyRow], people: Sequence[Identity],
                  ) -> set[int]:
    """Positions of words that name a thing of the memory by its own words ("my BANK's
    address", "which VAN"): whatever answers must be about that thing."""
    persons = {s for i in people if i.person for s in i.subjects}
    things = {w for r in rows if r.subject_key not in persons
              for w in words(r.subject_key)}
    return {i for i in read.salient if read.folded[i] in things
            and i not in read.in_names and i not in read.theirs} | set(read.value_named)


def _about_things(matches: Sequence[KeyMatch], things: set[int], read: _Words,
                  ) -> list[KeyMatch]:
    """The matches that are about each thing the question names by its own words ("my
    BANK's address", "which VAN"): they hold the word; where an answering key holds it as
    written (its subject or relation: `van.model`, `tomek.car`) or as part of a phrase
    ("HOUSE loan": `mortgage`), keys holding it only through the concept table (`car`
    for "van") do not answer."""
    kept = list(matches)
    for i in things:
        direct = [m for m in kept if _holds_as_written(m, i, read)]
        holding = [m for m in kept if f"#{i}" in m.held or f"~{i}" in m.held]
        kept = direct if any(m.answers for m in direct) else [
            m for m in kept if m in direct or m in holding]
    return kept


def _holds_as_written(match: KeyMatch, i: int, read: _Words) -> bool:
    own = {f for w in (*words(match.key.subject_key), *words(match.key.relation_key))
           for f in base_forms(w)}
    return bool(set(base_forms(read.folded[i])) & own) or (
        i in read.phrases and f"#{i}" in match.held)


def _is_person_row(row: KeyRow, persons: Sequence[Identity], concepts: ConceptTable) -> bool:
    """A key of a person the question did not name (a role subject such as `mother`)."""
    return bool(concepts.concepts_of_words(words(row.subject_key)) & concepts.roles)


def _names_thing(row: KeyRow, read: _Words, other_person: bool,
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
    return bool(concepts.concepts_of_words(list(subject_words)) & named)


def _concept_forms(read: _Words, concepts: ConceptTable) -> set[str]:
    """Every word of the concepts the question's words name."""
    names = frozenset().union(*(read.concepts.get(i, frozenset()) for i in read.salient))
    return {w for name in names - concepts.roles for entry in concepts.words_of.get(name, ())
            for w in words(entry)} - STOP_WORDS


def _unique_keys(keys: Iterable[KeyRow]) -> list[KeyRow]:
    return list({k.rowid: k for k in keys}.values())


def _scored(conn: Connection, read: _Words, keys: Sequence[KeyRow], people: Sequence[Identity],
            mentions: Mentions, concepts: ConceptTable, persons: Sequence[Identity],
            ) -> list[KeyMatch]:
    weights = _weights(conn, read, mentions, concepts)
    if not weights:
        return []
    rarest = max(weights.values())
    out = []
    role_owners = {s for m in mentions.found if m.role and m.owner is not None
                   for s in m.owner.subjects} - {s for i in persons for s in i.subjects}
    per_subject = Counter(key.subject_key for key in keys)
    for key in keys:
        owner = _owner(key, people)
        held, subject_how, relation_how, by_relation = _held(key, owner, read, mentions,
                                                             concepts)
        alone = per_subject[key.subject_key] == 1
        if _by_cue_only(relation_how) and not all(
                w in held for w in weights if w[1:].isdigit()):
            continue  # "kiedy PRZYJMUJE doktor …": a date of hers is no answer to that
        if subject_how == _ROLE_OWNER:  # "jak mają na IMIĘ moje dzieci": their names
            held |= {f"#{i}" for i in read.salient if "name" in read.concepts.get(i, ())}
        if key.subject_key in role_owners and (subject_how != _ROLE_OWNER or not all(
                w in held for w in weights if w[1:].isdigit())):
            continue  # "my brother's birthday" is not the asker's; "what does Mark's wife
            # do for work" is not Mark's `spouse`
        if not relation_how and _generic_answers(key, owner, read, concepts, alone) and all(
                w in held for w in weights if w[1:].isdigit()):
            relation_how = (f"'{key.relation}': what the {key.subject} is",)
        if not relation_how:
            continue
        bonus = sum(0.1 for i in read.optional if f"#{i}" in held or f"~{i}" in held)
        gained = sum(weights.get(w, 0.0) for w in held) + sum(
            CONCEPT_SHARE * weights.get(f"#{w[1:]}", 0.0) for w in held
            if w[0] == "~" and f"#{w[1:]}" not in held)
        coverage = gained / sum(weights.values()) + bonus
        counted = {w if w[0] != "~" else f"#{w[1:]}" for w in held}
        misses_rarest = all(weights[w] < rarest - 1e-9 for w in counted if w in weights)
        out.append(KeyMatch(key, coverage, subject_how, relation_how, frozenset(held),
                            frozenset(by_relation),
                            coverage >= COVERAGE - 1e-9 and not misses_rarest))
    return sorted(out, key=lambda m: -m.coverage)


def _by_cue_only(relation_how: Sequence[str]) -> bool:
    """Whether a key's relation matched nothing but "who" or "when"."""
    return bool(relation_how) and all(how in (_WHO_HOW, _WHEN_HOW) for how in relation_how)


def _generic_answers(key: KeyRow, owner: Identity | None, read: _Words,
                     concepts: ConceptTable, alone: bool) -> bool:
    """Whether a key's relation says what its subject is and may answer a question that
    names only the subject: a GENERIC relation, or the only key of a thing ("which gym
    was I in?" and `gym.membership`), for a thing ("gas advance now?"); for a person known
    by a role when asked how it changed ("when did we switch family doctors?": the
    doctor's name)."""
    thing = owner is None or not owner.person
    if thing and alone and not read.heads:  # "my passport NUMBER" asks for one attribute
        return True
    relation = set(words(key.relation_key))
    if not (IDENTITY | AMOUNT) & relation:
        return False
    if AMOUNT & relation and WHEN_CUE in read.cues:
        return False  # "when …" asks no amount
    if AMOUNT & relation and read.kinds and AMOUNT_CUE not in read.cues:
        return False  # "what CAR do we have": its model, not its price
    if thing:
        return True
    return read.asks_change and bool(
        concepts.concepts_of_words(words(key.subject_key)) & concepts.roles)


def _weights(conn: Connection, read: _Words, mentions: Mentions,
             concepts: ConceptTable) -> dict[str, float]:
    """Each counted word (by position, as "#3") weighted by its rarity among keys; the
    asker and a possessor ("Lenka's mother") not at all. Once the question names whose fact
    it asks about, a word that no key and no concept holds ("in PRAGUE", "on SATURDAY")
    cannot tell that subject's keys apart: it weighs nothing."""
    counted = [i for i in read.salient if not _possessor_position(i, mentions)
               and i not in read.optional and i not in mentions.set_aside]
    forms = {f for i in counted for f in base_forms(read.folded[i])}
    counts, n = key_term_counts(conn, forms)
    named = any(m.identities for m in mentions.found) or (
        mentions.asker is not None and bool(mentions.asker.identities))
    in_keys = key_name_words(conn, forms) if named else set()
    out: dict[str, float] = {}
    for i in counted:
        df = max((counts.get(f, 0) for f in base_forms(read.folded[i])), default=0)
        if named and _says_nothing_of_keys(i, read, mentions, in_keys):
            continue
        out[f"#{i}"] = math.log((n - df + 0.5) / (df + 0.5) + 1) if n else 1.0
    for cue, weight in read.cues.items():
        out[cue] = weight
    return out


def _says_nothing_of_keys(i: int, read: _Words, mentions: Mentions, in_keys: set[str],
                         ) -> bool:
    """A word no key's subject or relation holds and no concept names, outside a mention
    and not the modifier of a compound ("ROOM number", "SHOE size", "numer POKOJU": the
    thing asked about)."""
    if read.concepts.get(i) or any(m.start <= i < m.end for m in mentions.found):
        return False
    if set(base_forms(read.folded[i])) & in_keys:
        return False
    # the modifier of a compound names the thing asked about: English puts it first
    # ("ROOM number"), Polish, Slovak and Czech after its head ("numer POKOJU")
    beside = i - 1 if in_slavic(read.folded) else i + 1
    return not (0 <= beside < len(read.folded) and (beside in read.salient
                                                     or read.folded[beside] in _HEADS))


_HEADS = frozenset(words_of("number numbers numer cislo address adres adresa name size"))


def _possessor_position(i: int, mentions: Mentions) -> bool:
    """A word naming whose role person the question asks about ("LENKA's mother")."""
    for first, second in zip(mentions.found, mentions.found[1:], strict=False):
        if first.start <= i < first.end and second.role and second.start <= first.end + 1:
            return True
    return False


def _held(key: KeyRow, owner: Identity | None, read: _Words, mentions: Mentions,
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
        if mention.role and owner is not None and owner is mention.owner and (
                mention.role & concepts.concepts_of_words(relation_words)):
            # "my kids", "the firm's employees": the owner's key whose relation is the role
            held.update(f"#{i}" for i in range(mention.start, mention.end))
            relation_how.append(f"{mention.how} → its relation")
            subject_how = _ROLE_OWNER
        elif thing and mention.identities and (_named_directly(key, read) or (
                all(_is_org(i, concepts) for i in mention.identities)
                and _names_thing(key, read, False, concepts, own_relation=True))):
            # the clinic's rent
            held.update(f"#{i}" for i in range(mention.start, mention.end))
        elif owner is not None and any(i is owner for i in mention.identities):
            held.update(f"#{i}" for i in range(mention.start, mention.end))
            subject_how = subject_how if subject_how == _ROLE_OWNER else (
                subject_how or mention.how)
    for i in read.salient:
        word = read.folded[i]
        if f"#{i}" in held or i in read.in_names:
            continue  # a word of someone else's name says nothing of this key
        if key.subject_key in read.value_named.get(i, ()):
            held.add(f"#{i}")
            subject_how = subject_how or f"its value '{read.raw[i]}'"
            continue
        named = read.concepts.get(i, frozenset())
        if _same_word(word, named, subject_words, concepts):
            held.add(f"#{i}")
            subject_how = subject_how or f"words '{read.raw[i]}'"
        how = _relation_match(word, named, relation_words, concepts)
        if how and not _of_the_kind(key, read.heads.get(i, ""), concepts):
            continue  # "my ROOM number" and `room` = "the attic": not a number
        if how:
            mark = f"#{i}" if not how.startswith(_BY_CONCEPT) else f"~{i}"
            held.add(mark)
            by_relation.add(mark)
            relation_how.append(f"'{read.raw[i]}' {how}")
    if key.numeric:  # "ile WYNOSI rata", "what does it COST": a number answers them
        for i in read.salient:
            if "price" in read.concepts.get(i, frozenset()) and f"#{i}" not in held:
                held.add(f"~{i}")
    if AMOUNT_CUE in read.cues and key.numeric:
        held.add(AMOUNT_CUE)
        if concepts.concepts_of_words(relation_words) & _AMOUNTS:
            relation_how.append("'how much' → a number")
    if WHO_CUE in read.cues and (_NAME_RELATIONS.intersection(relation_words) or (
            concepts.concepts_of_words(relation_words) & _WHO_ANSWERS)):
        held.add(WHO_CUE)
        relation_how.append(_WHO_HOW)
    if WHEN_CUE in read.cues and concepts.concepts_of_words(relation_words) & _WHEN_ANSWERS:
        held.add(WHEN_CUE)
        relation_how.append(_WHEN_HOW)
    return held, subject_how or UNNAMED, tuple(relation_how), by_relation


_WHO_ANSWERS = frozenset(("name", "company", "contact", "contact_person", "provider",
                          "insurance"))
_WHEN_ANSWERS = frozenset(("date", "birth", "expiry", "payment_terms", "appointment",
                           "schedule", "start", "end", "anniversary", "service"))
"""Concepts of relations whose value answers "when" (a date)."""
"""Concepts of relations whose value answers "who" (a name, a company, a contact)."""


_ROLE_OWNER = "whose the role is"
UNNAMED = "the question's words"
"""How the subject of a key matched when the question names it in no way of its own."""
_WHO_HOW = "'who' → a name"
_WHEN_HOW = "'when' → a date"
_AMOUNTS = frozenset(("price", "payment", "salary", "fee", "utility_bill", "invoice",
                      "rent", "hourly_rate"))
"""Concepts of relations whose value answers "how much" ("ile", "koľko")."""


def _named_directly(key: KeyRow, read: _Words) -> bool:
    """Whether the question names the key's subject by one of its own words ("the VAN")."""
    subject_words = {f for w in words(key.subject_key) for f in base_forms(w)}
    return any(set(base_forms(read.folded[i])) & subject_words for i in read.salient
               if i not in read.in_names)


def _of_the_kind(key: KeyRow, kind: str, concepts: ConceptTable) -> bool:
    """Whether a key's values are of the kind a head noun asks for: a number has digits,
    an address digits or is an e-mail's."""
    if not kind:
        return True
    if key.numeric:
        return True
    return kind != HEAD_NUMBER and "email" in concepts.concepts_of_words(
        words(key.relation_key))


def _same_word(word: str, named: frozenset[str], key_words: Sequence[str],
               concepts: ConceptTable) -> bool:
    """Whether a question word (`named`: the concepts of its phrase) is one of the key's
    subject words: the same base form, or a concept both name — the key's words as written
    (a subject named `daniel` is a name, not a form of "daň", tax)."""
    forms = set(base_forms(word))
    if any(forms & set(base_forms(k)) for k in key_words):
        return True
    return bool(named & concepts.concepts_as_written(key_words))


def _relation_match(word: str, named: frozenset[str], relation_words: Sequence[str],
                    concepts: ConceptTable) -> str:
    """How a question word matches a key's relation words: '' when it does not."""
    forms = set(base_forms(word))
    for key_word in relation_words:
        if forms & set(base_forms(key_word)) or _longer(word, key_word):
            return f"= '{key_word}'" if word == key_word else f"~ '{key_word}'"
    shared = named & concepts.concepts_of_words(relation_words)
    return f"{_BY_CONCEPT}{min(shared)}" if shared else ""


def _longer(word: str, key_word: str) -> bool:
    """A key word that is the question's word with a few letters more ("member" →
    `membership`, "insur…"): words of five letters or more."""
    return len(word) >= 5 and key_word.startswith(word) and len(key_word) - len(word) <= 4


_BY_CONCEPT = "→ concept "
CONCEPT_SHARE = 0.9
"""What a word matched through the concept table counts for, against the word itself
("address" finds `address` before `city`)."""


def _owner(key: KeyRow, people: Sequence[Identity]) -> Identity | None:
    for identity in people:
        if key.subject_key in identity.subjects:
            return identity
    return None


def _owners(conn: Connection, chosen: Sequence[KeyMatch], people: Sequence[Identity],
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
    found |= {r.subject_key for r in others if _is_person_row(r, (), concepts)}
    return found | _with_notes(conn, others, concepts)


def _recorded(conn: Connection, scope: str, persons: Sequence[Identity],
              ) -> dict[str, list[str]]:
    """What the memory holds about the persons asked about: relations only, no values."""
    found: dict[str, list[str]] = {}
    for row in keys_of_subjects(conn, scope, {s for i in persons for s in i.subjects}):
        found.setdefault(row.subject, []).append(row.relation)
    return {subject: sorted(set(relations)) for subject, relations in found.items()}
