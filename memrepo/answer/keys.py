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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from memrepo.answer.alike import alike_that_changed, also_asked, among_alike, unnamed_alike
from memrepo.answer.asked_of_another import called_otherwise, not_asked_of_another
from memrepo.answer.by_answer_kind import by_answer_kind, kinds_asked
from memrepo.answer.by_quote import said_in_its_quote
from memrepo.answer.candidates import (
    another_full_name,
    answerable_role,
    candidate_keys,
    identity_directory,
    named_after,
    only_possessor,
    other_name,
    possessed,
    subjects_as_written,
    things_named,
    unexplained_names,
    unknown_names,
)
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.first_person import in_slavic
from memrepo.answer.identities import Identity, words
from memrepo.answer.jobs_in_values import by_job_in_value
from memrepo.answer.joined_people import joined_people
from memrepo.answer.kind_asked import (
    no_date_unasked,
    not_of_another_kind,
    of_another_kind,
    same_thing_of_the_kind,
)
from memrepo.answer.mentions import Mentions
from memrepo.answer.mentions_named import (
    relation_words_as_names,
    spelled_by_capitals,
    subjects_named_by_capitals,
)
from memrepo.answer.named_by_values import named_by_values, of_another_named
from memrepo.answer.of_the_named import (
    A_PLACE,
    everything_about,
    held_by_a_value,
    labels_of,
    of_a_kin_concept,
    what_changed,
    where_its_event_is,
)
from memrepo.answer.question import (
    Question,
    head_kind,
)
from memrepo.answer.reading import (
    OPTIONAL,
    WHERE_CUE,
    WHO_CUE,
    Reading,
    joins,
    read_question,
)
from memrepo.answer.respelling import names_a_person, respell
from memrepo.answer.role_values import (
    held_as_their_value,
    role_named_by_value,
    role_person_named,
)
from memrepo.answer.scoring import (
    COVERAGE,
    KeyMatch,
    about_things,
    owners_of,
    scored_keys,
    semantic_pool,
)
from memrepo.answer.semantic import Semantic, key_text
from memrepo.answer.stopwords import QUESTION_WORDS
from memrepo.answer.subjects import find_mentions
from memrepo.answer.where_they_are import where_the_person_is
from memrepo.answer.words_asked import asks_beyond, naming_words, said, uninterpreted
from memrepo.answer.years_named import of_another_year
from memrepo.cache import Connection
from memrepo.cache.lookups import (
    KeyRow,
    keys_of_subjects,
    subject_spelled_like,
)
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of

MAX_KEYS = 5
_THIRD_PERSON = frozenset(words_of("""
he she him her his hers they them their theirs ona oni ono jego jej ich jemu niej nim
ho mu jeho nej"""))
"""Someone the question does not name ("What car does SHE want?"): nobody to answer about."""
_SLAVIC_THIRD = frozenset(words_of("on ono"))
"""… and in a Polish, Slovak or Czech question ("Gdzie ON teraz pracuje?")."""


@dataclass(frozen=True, slots=True)
class KeyChoice:
    """The keys chosen for a question, or why none were: whom the memory does not know,
    whose keys alike it would not choose between, what it holds about the subject."""

    keys: list[KeyMatch] = field(default_factory=list)
    about: list[str] = field(default_factory=list)  # who was asked about (labels)
    recorded: dict[str, list[str]] = field(default_factory=dict)  # when none answers
    unknown: list[str] = field(default_factory=list)  # names/roles of nobody recorded
    respelled: dict[str, str] = field(default_factory=dict)
    ambiguous: list[str] = field(default_factory=list)  # several subjects' keys alike
    naming: list[str] = field(default_factory=list)  # the question's words naming whom
    pool: list[KeyRow] = field(default_factory=list)  # keys the subject stage allowed
    pool_how: dict[str, str] = field(default_factory=dict)  # subject key → how it was named
    bare: bool = False  # the question says whom it asks about and nothing more
    asking: list[str] = field(default_factory=list)  # the words the chosen relations hold
    missing: list[str] = field(default_factory=list)  # people asked side by side, no key
    alike: list[KeyMatch] = field(default_factory=list)  # a change question's next best
    # a name a thing's value holds ("our TOYOTA": `car.model`) → that thing's subjects


def choose_keys(conn: Connection, scope: str, question: Question, now: int, asker: str,
                concepts: ConceptTable, semantic: Semantic | None = None) -> KeyChoice:
    """The keys of `scope` that answer `question` (one question of a text), with reasons.
    A word neither the memory nor the concept table knows is respelled only when the
    question as written finds no answer ("back" is not "bank"); the semantic layer, where
    installed, answers only among the keys the subject stage allowed, when the words found
    none."""
    read = read_question(question, now, concepts)
    asker = subject_spelled_like(conn, scope, asker)  # scope `danubebyte`: `danube_byte`
    found = _by_words(conn, scope, read, question, now, asker, concepts, semantic)
    if found.keys or found.unknown or found.ambiguous:
        return found
    # the last resort: the named thing's one relation of the kind its question word asks
    last = _choose(conn, scope, read, asker, concepts, dict(read.read_as), last_resort=True)
    return last if last.keys else found


def _by_words(conn: Connection, scope: str, read: Reading, question: Question, now: int,
              asker: str, concepts: ConceptTable, semantic: Semantic | None) -> KeyChoice:
    first = _choose(conn, scope, read, asker, concepts, dict(read.read_as))
    if not first.keys or len({k.key.subject_key for k in first.keys}) > 1 or first.bare:
        replaced = respell(conn, scope, read, concepts)  # "salon ADRESS": not all of it
    else:  # "where does my SISTR live": a person the answer leaves out, not a look-alike
        replaced = {i: word for i, word in respell(conn, scope, read, concepts).items()
                    if names_a_person(conn, word, concepts)}
    if first.keys and not any(f"#{i}" not in k.held for k in first.keys for i in replaced):
        return first  # the words it read answered; nothing left to respell
    if replaced:
        again = read_question(question, now, concepts, replaced)
        respelled = {read.raw[i]: word for i, word in replaced.items()}
        second = _choose(conn, scope, again, asker, concepts, {**read.read_as, **respelled})
        if second.keys:  # "rata kredtu": the respelling says which of the keys it asks
            return second
        if first.keys:
            return first
    if semantic is not None and first.pool:
        return _semantic_choice(semantic, question.text, first, conn, scope, read)
    return first


SEMANTIC_MIN = 0.5
"""The least cosine similarity of question and key words the semantic layer answers with."""
SEMANTIC_MARGIN = 0.1
"""… and by how much it must beat the next best relation."""


def _semantic_choice(semantic: Semantic, text: str, choice: KeyChoice, conn: Connection,
                     scope: str, read: Reading) -> KeyChoice:
    """The key among those the subject stage allowed (`choice.pool`) whose words are
    closest to the question, when close enough and clearly closer than the next (a pool
    of one key: never); keys whose values are of a kind the question never asks for are
    not in the running ("how much …": no name)."""
    pool = list({(k.subject_key, k.relation_key): k for k in choice.pool}.values())
    unfit = of_another_kind(conn, scope, read, [KeyMatch(k, 0.0, "", ()) for k in pool])
    pool = [k for k in pool if (k.subject_key, k.relation_key) not in unfit]
    scores = semantic.scores(text, [key_text(k.subject, k.relation) for k in pool])
    ranked = sorted(zip(scores, pool, strict=True), key=lambda pair: -pair[0])
    if len(ranked) < 2:  # one key has nothing to be closer than: "which languages does
        return choice    # Tomek speak" is as near his only key, `telefon`, as a paraphrase
    best, key = ranked[0]
    if best < SEMANTIC_MIN or best - ranked[1][0] < SEMANTIC_MARGIN:
        return choice
    match = KeyMatch(key, best, choice.pool_how.get(key.subject_key, "the subject asked"),
                     (f"the question's meaning (similarity {best:.2f})",))
    return replace(choice, keys=[match], recorded={})


def _choose(conn: Connection, scope: str, read: Reading, asker: str, concepts: ConceptTable,
            respelled: dict[str, str], last_resort: bool = False) -> KeyChoice:
    """`choose_keys` for the question's words as read (`respelled`: the words replaced),
    saying whether it asks nothing beyond whom it names and which words the answering
    relations hold (for the part of a text after it: "… a jaki do dentysty?")."""
    people, rows = identity_directory(conn, scope, read, asker, concepts)
    mentions, role_things = relation_words_as_names(conn, scope, read, find_mentions(
        read.folded, read.raw, people, concepts, read.dated, asker, read.capitalised), rows,
        concepts)
    choice = _chosen(conn, scope, read, asker, concepts, respelled, people, rows, mentions,
                     last_resort, role_things)
    asking = [read.raw[int(w[1:])] for w in dict.fromkeys(
        w for m in choice.keys for w in sorted(m.by_relation))]
    bare = bool(mentions.found) and not asks_beyond(read, mentions)
    return replace(choice, bare=bare, asking=asking)


def _chosen(conn: Connection, scope: str, read: Reading, asker: str, concepts: ConceptTable,
            respelled: dict[str, str], people: list[Identity], rows: list[KeyRow],
            mentions: Mentions, last_resort: bool,
            role_things: dict[int, frozenset[str]]) -> KeyChoice:
    read = named_by_values(conn, scope, read, mentions, rows, concepts)
    if role_things:  # "kto dostarcza KARMĘ": the thing whose supplier is asked
        read = replace(read, value_named={**role_things, **read.value_named},
                       supplied=frozenset(role_things) - set(read.value_named))
    read = replace(read, in_names=frozenset(
        i for m in mentions.found if not m.role and any(x.person for x in m.identities)
        for i in range(m.start, m.end)),  # "Jakub PROCHÁZKA": not `prochazka_instalaterstvi`
        theirs=possessed(read, mentions, concepts))
    persons = [i for i in mentions.persons if not only_possessor(i, mentions)]
    unknown = [m for m in mentions.unresolved if not answerable_role(conn, scope, m, rows,
                                                                      concepts, read)]
    strangers = unknown_names(read, mentions, rows, concepts)
    if strangers and not mentions.found and (theirs := held_as_their_value(
            conn, scope, read, mentions, [], strangers, concepts)):  # "since when has
        # Danuta Kaczmarek worked for us": only the firm's `employee` holds her name
        return KeyChoice([theirs], [" ".join(read.raw[i] for i in strangers)],
                         respelled=respelled)
    if strangers and not [m for m in mentions.found if m.identities]:
        return KeyChoice(unknown=list(dict.fromkeys(said(read, *_whole_name(read, i))
                                                    for i in strangers)),
                         respelled=respelled)
    if someone_else := other_name(unexplained_names(read, mentions, rows, concepts),
                                   mentions) or another_full_name(read, mentions, concepts, rows):
        return KeyChoice(unknown=[said(read, *someone_else)], respelled=respelled)
    third = _THIRD_PERSON | (_SLAVIC_THIRD if in_slavic(read.folded) else frozenset())
    if not mentions.found and mentions.asker is None and third.intersection(read.folded) and (
            not _stands_for_a_thing(read, [*rows, *keys_of_subjects(conn, scope, {
                s for named in read.value_named.values() for s in named})], people, third)):
        return KeyChoice(unknown=[next(read.raw[i] for i, w in enumerate(read.folded)
                                       if w in third)], respelled=respelled)
    if unknown:
        return KeyChoice(unknown=[said(read, m.start, m.end) for m in unknown],
                         respelled=respelled)
    if mentions.asker is not None and not mentions.asker.identities and not mentions.found:
        persons = []  # the asker, of whom nothing is recorded: things the question names
    named = [m for m in mentions.found if m.identities]
    if named and not asks_beyond(read, mentions) and not any(m.role for m in named):
        about_them = everything_about(conn, scope, named, concepts, WHERE_CUE in read.cues,
                                      next(filter(None, map(head_kind, read.folded)), ""))
        if WHERE_CUE in read.cues:  # "Gdzie mieliśmy OC firmy": its insurer, not its amounts
            about_them = not_of_another_kind(conn, scope, read, about_them)
        return KeyChoice(about_them, labels_of(named), respelled=respelled)
    if named and not asks_beyond(read, mentions) and WHERE_CUE in read.cues and (
            where := everything_about(conn, scope, named, concepts, True)) \
            and all(m.relation == A_PLACE for m in where):
        return KeyChoice(where, labels_of(named), respelled=respelled)  # "Gdzie jest TATA?":
        # where dad lives (his care home), if recorded
    candidates = candidate_keys(conn, scope, read, persons, rows, concepts, mentions,
                                frozenset(s for i in people if i.asker for s in i.subjects))
    if persons and not any(i.subjects for i in persons) and not any(
            m.role for m in mentions.found):  # "Mrs HOLT's roof", nothing of hers recorded
        # here: her things (`holt_reroof`), not the firm's `SIG Roofing` ("my family DOCTOR"
        # is the asker's `gp`)
        candidates = keys_of_subjects(conn, scope, named_after(rows, persons, concepts))
    things = things_named(read, rows, people, candidates)
    scored_all = scored_keys(conn, scope, read, candidates, people, mentions, concepts, persons)
    scored_all = of_another_year(read.folded, scored_all, candidates)
    if at_theirs := where_the_person_is(read, things, persons, scored_all):
        things = things - at_theirs
        places = {s for m in mentions.found if m.start in at_theirs for i in m.identities
                  for s in i.subjects}
        scored_all = [m for m in scored_all if m.key.subject_key not in places]
    unfit = of_another_kind(conn, scope, read, [m for m in scored_all if m.answers])
    matched = about_things(scored_all, things, read, subjects_as_written(read, rows, things),
                           unfit)
    answering = not_asked_of_another(conn, scope, read, [
        m for m in matched if m.answers and not _lacks_their_thing(m, read, mentions)],
        concepts)
    scored = no_date_unasked(conn, scope, read, [
        m for m in answering if (m.key.subject_key, m.key.relation_key) not in unfit])
    if answering and not scored:  # "how much goes to the bank for the van": not the lender
        scored = same_thing_of_the_kind(conn, scope, read, answering, matched)
    about = [i.label for i in persons]
    if scored and (stranger := _a_person_only_the_notes_name(read, scored, people,
                                                              concepts)) is not None:
        return KeyChoice(unknown=[read.raw[stranger]], respelled=respelled)  # "lekarz rodzinny
        # TOMKA" (the asker's husband, of whom this scope records nothing): not her doctor
    by_name = subjects_named_by_capitals(read, mentions, rows, concepts)
    scored_subjects = {m.key.subject_key for m in scored}
    if scored and by_name and not scored_subjects & by_name and not spelled_by_capitals(
            read, mentions, scored_subjects, concepts):
        return KeyChoice(about=about, recorded=_recorded_of(conn, scope, by_name),
                         respelled=respelled)  # "what hobby does VOJTA have": not Matěj's
    if not scored and last_resort and (typed := by_answer_kind(
            conn, scope, read, rows, people, persons, mentions, concepts)) and not (
            called_otherwise(conn, scope, read, typed)):  # "byt na ÚDOLNÍ": not Zelená's
        return KeyChoice([typed], about, respelled=respelled,
                         naming=naming_words(read, mentions))
    if not scored and (WHO_CUE in read.cues or _asks_a_name(read)) and (
            by_value := role_named_by_value(conn, scope, read, mentions, concepts)
            or role_person_named(conn, scope, read, mentions)):
        return KeyChoice(by_value, about, respelled=respelled,
                         naming=naming_words(read, mentions))
    if not scored and (job := by_job_in_value(conn, scope, read, mentions)):
        return KeyChoice([job], about, respelled=respelled,  # "kdo je náš TRAKTORISTA"
                         naming=naming_words(read, mentions))
    if (not scored or all(_by_its_quote_only(m) for m in scored)) and persons and (
            kin := of_a_kin_concept(conn, scope, read, persons, concepts)):
        return KeyChoice([kin], about, respelled=respelled,
                         naming=naming_words(read, mentions))
    if not scored and (theirs := held_as_their_value(
            conn, scope, read, mentions, persons, _named_in_values(read, mentions), concepts)):
        # "od kiedy Oleh u nas pracuje": the firm's `employee` whose value names him; "when
        # did Ferda die", held only as a value: the pet that ended
        return KeyChoice([theirs], about, respelled=respelled,
                         naming=naming_words(read, mentions))
    if not scored and (valued := held_by_a_value(conn, scope, read, mentions, persons,
                                                    concepts)) and (
            valued.key.subject_key, valued.key.relation_key) not in unfit:  # "how much did
        # I pay for the MACRO lens": not the lens whose value says Macro
        return KeyChoice([valued], about, respelled=respelled,
                         naming=naming_words(read, mentions))
    if not scored and (changed := what_changed(conn, scope, read, rows, concepts, people)):
        return KeyChoice(changed, about, respelled=respelled)
    if not scored and (venue := where_its_event_is(conn, scope, read, mentions, concepts)):
        return KeyChoice([venue], labels_of([m for m in mentions.found if m.identities]),
                         respelled=respelled)
    if not scored and last_resort and (quoted := said_in_its_quote(
            conn, scope, read, concepts, mentions, rows, kinds_asked(read))):
        # "where do we buy our LACQUERS": "we buy lacquers from …", after all else
        key, said_words = quoted
        return KeyChoice([KeyMatch(key, COVERAGE, "the words it was recorded with", (
            f"{', '.join(repr(w) for w in said_words)} in its quote",))],
                         about, respelled=respelled, naming=naming_words(read, mentions))
    if not scored:
        recorded = (_recorded(conn, scope, persons) if persons
                    else _recorded_of(conn, scope, by_name))
        pool, pool_how = (semantic_pool(candidates, persons, mentions, read, people)
                          if uninterpreted(read, mentions, concepts) else ([], {}))
        return KeyChoice(about=about, recorded=recorded, respelled=respelled, pool=pool,
                         pool_how=pool_how, naming=naming_words(read, mentions))
    joined = joined_people(read, mentions)
    chosen = among_alike(read, scored, joined, concepts)[:MAX_KEYS]
    missing = [p.label for p in joined
               if not any(m.key.subject_key in p.subjects for m in chosen)]
    # "kto zabiera igły I strzykawki": not the day they come; "kto je Brunov veterinár A
    # KEDY bol očkovaný": two question words, each asking its own kind
    one_kind = sum(word in QUESTION_WORDS for word in read.folded) <= 1
    chosen += also_asked(chosen, [m for m in matched if not one_kind or (
        m.key.subject_key, m.key.relation_key) not in unfit], people, read)[
        :MAX_KEYS] if joins(read) else []
    if of_another_named(conn, scope, read, chosen):
        return KeyChoice(about=about, respelled=respelled)  # "how much will BSPORT cost"
    owners = owners_of(conn, chosen, people, concepts)
    if not persons and not mentions.found and mentions.asker is None and chosen:
        # "jaki ma numer telefonu?" naming no one: the landlord's `telefon`, spelled as
        # asked, is no likelier than the daughter's `phone`
        top = [m for m in scored if m.coverage >= chosen[0].coverage - ALIKE_GAP]
        owners |= owners_of(conn, top, people, concepts)
        if alike := unnamed_alike(read, top, concepts):
            return KeyChoice(about=about, respelled=respelled, ambiguous=[
                f"{m.key.subject}.{m.key.relation}" for m in alike[:MAX_KEYS]])
    if not persons and len(owners) > 1:
        return KeyChoice(about=about, respelled=respelled, ambiguous=[
            f"{m.key.subject}.{m.key.relation}" for m in chosen])
    if len(chosen) == 1 and (job := by_job_in_value(conn, scope, read, mentions)) and (
            job.key == chosen[0].key):  # "kdo u nás dělá PŘEDÁKA": that employee alone
        chosen = [replace(chosen[0], values_naming=job.values_naming,
                          relation=(*chosen[0].relation, *job.relation))]
    return KeyChoice(chosen, about, respelled=respelled, naming=naming_words(read, mentions),
                     missing=missing, alike=alike_that_changed(read, scored, chosen))


def _by_its_quote_only(match: KeyMatch) -> bool:
    """Whether a key answers by its quote alone beyond the question word ("kde PRACUJE
    ségra": her city, whose quote says she once worked elsewhere — not her job)."""
    said = [reason for reason in match.relation if not reason.startswith("'where'")]
    return bool(said) and all(reason.endswith("in its quote") for reason in said)


def _named_in_values(read: Reading, mentions: Mentions) -> list[int]:
    """Names written with a capital that no mention holds and only values or notes do
    ("when did FERDA die": `katerina.pet` = "Ferda"), by position."""
    said = {i for m in mentions.found for i in range(m.start, m.end)}
    return sorted(i for i in (read.optional & read.capitalised) | read.noted_names
                  if i not in said)


def _a_person_only_the_notes_name(read: Reading, scored: Sequence[KeyMatch],
                                  people: Sequence[Identity], concepts: ConceptTable,
                                  ) -> int | None:
    """A capitalised name only the notes hold, not after a preposition ("in PREŠOV"), when
    every key that answers is the asker's own and none holds it: someone else asked about
    ("lekarz rodzinny TOMKA"); its position."""
    askers = {s for i in people if i.asker for s in i.subjects}
    for i in sorted(read.noted_names):
        if i and read.folded[i - 1] not in _PLACE_PREPOSITIONS and all(
                m.key.subject_key in askers and f"#{i}" not in m.held and f"~{i}" not in m.held
                for m in scored):
            return i
    return None


_PLACE_PREPOSITIONS = frozenset(words_of("in at on from to near w we na z ze do u v vo pri"))


ALIKE_GAP = 0.15
"""How far below the best key another person's key may rank and still be as likely an
answer to a question that names no one (a word as written against its concept: 1 to 0.9)."""


def _asks_a_name(read: Reading) -> bool:
    """"the landlord's NAME", "jak się nazywa": a name asked, as "who" asks one."""
    return any("name" in read.concepts.get(i, ()) for i in read.salient)


def _lacks_their_thing(match: KeyMatch, read: Reading, mentions: Mentions) -> bool:
    """Whether the question names a thing of a named person's after their "'s" ("how much
    did Mateusz's new AMP cost") in a word no concept knows that the key does not hold:
    not their lesson fee, the one price recorded of them."""
    forms = {f for w in (*words(match.key.subject_key), *words(match.key.relation_key))
             for f in base_forms(w)}
    if WHO_CUE in read.cues:  # "who washes the dentist's FLOORS": whoever does
        return False
    owned = [next((j for j in range(m.end + 1, len(read.folded))
                   if read.folded[j] not in OPTIONAL), m.end + 1)
             for m in mentions.found if m.identities and read.folded[m.end:m.end + 1] == ["s"]
             and not m.role]
    return any(i in read.salient and len(read.folded[i]) >= 3 and not read.concepts.get(i)
               and i not in read.value_named and f"#{i}" not in match.held
               and not set(base_forms(read.folded[i])) & forms for i in owned)


def _whole_name(read: Reading, i: int) -> tuple[int, int]:
    """The span of the name a word ends or begins: the capitalised words beside it ("James
    O'Connor's")."""
    def part(j: int) -> bool:  # "O" of O'Connor is a capital too short to be marked
        return j in read.capitalised or (len(read.raw[j]) == 1 and j - 1 in read.capitalised
                                         and j + 1 in read.capitalised)
    start, end = i, i + 1
    while start - 1 > 0 and part(start - 1):
        start -= 1
    while end < len(read.raw) and part(end):
        end += 1
    return start, end


def _stands_for_a_thing(read: Reading, rows: Sequence[KeyRow], people: Sequence[Identity],
                        pronouns: frozenset[str]) -> bool:
    """Whether the question's third-person word stands for a thing it named before: as
    the object of a verb ("Parkoviště — od koho HO pronajímáme"), or a possessive followed
    by a word of that thing's relation ("when does the DOG need HIS NEXT jab":
    `dog.next_vaccination`) — not "what car does SHE want", nor "what car does HER husband
    drive"."""
    first = next(i for i, word in enumerate(read.folded) if word in pronouns)
    if read.folded[first] in _THING_OBJECT and any(i < first for i in read.salient):
        return True  # "Parkoviště — od koho HO pronajímáme": the parking lot named before
    if read.folded[first] not in _POSSESSIVE or first + 1 >= len(read.folded):
        return False
    named = [i for i in things_named(read, rows, people) if i < first]
    before = {read.folded[i] for i in named}
    before |= {w for i in named for s in read.value_named.get(i, ()) for w in words(s)}
    after = set(base_forms(read.folded[first + 1]))
    return any(before & set(words(r.subject_key)) and after & {
        f for w in words(r.relation_key) for f in base_forms(w)} for r in rows)


_POSSESSIVE = frozenset(words_of("his her its jego jej jeho"))
_THING_OBJECT = frozenset(words_of("it ho go ju"))
"""Words standing for a thing as the object of a verb ("who do we rent IT from")."""



def _recorded(conn: Connection, scope: str, persons: Sequence[Identity],
              ) -> dict[str, list[str]]:
    """What the memory holds about the persons asked about: relations only, no values."""
    return _recorded_of(conn, scope, {s for i in persons for s in i.subjects})


def _recorded_of(conn: Connection, scope: str, subjects: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for row in keys_of_subjects(conn, scope, subjects):
        found.setdefault(row.subject, []).append(row.relation)
    return {subject: sorted(set(relations)) for subject, relations in found.items()}
