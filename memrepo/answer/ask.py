"""Answering a question from memory (SPEC §7 "Retrieval from the question", §8): the fact
keys and notes that answer it, at the time it asks about.

Free-text recall, the context block and MCP recall all go through `ask`:
- the fact keys that answer are chosen subject first (memrepo.answer.keys): whose fact the
  question asks about, then which of that subject's relations; their values come at the
  question's time: an instant, every value during a period, or the whole history for
  "when did it change"; each fact carries why it was chosen;
- entity notes the question names by name or alias are found (the context block's
  mandatory lookup);
- notes of every category are ranked (memrepo.answer.ranking; coverage only);
- a word respelled to find anything is reported, with the names it probably meant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from memrepo.answer.clauses import (
    at_its_time,
    clauses,
    in_turn,
    names_subject,
    owner_said_for_all,
    refers_back,
    said_of_another,
    side_by_side,
    with_referent,
)
from memrepo.answer.concepts import table_for
from memrepo.answer.keys import KeyChoice, choose_keys
from memrepo.answer.notes_by_meaning import notes_by_meaning
from memrepo.answer.question import (
    WHEN_ONLY,
    Question,
    Window,
    analyse,
    find_names,
    window,
    without_terminal_codes,
)
from memrepo.answer.ranking import Ranked, rank_notes
from memrepo.answer.scoring import UNNAMED, KeyMatch
from memrepo.answer.search import respellings, searched_words, snippet, suggest
from memrepo.answer.semantic import Semantic
from memrepo.answer.when import numeric_dates_as_iso
from memrepo.cache import Connection
from memrepo.cache.query import (
    entity_candidates,
    notes_by_name,
    notes_by_rowid,
    recall_during,
)
from memrepo.core.config import QUARANTINE_PREFIX, Config
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.events import Key
from memrepo.core.facts.times import Instant
from memrepo.core.records import Fact, NoteMatch
from memrepo.core.stems import tokens
from memrepo.core.text import key_slug, words, words_of

MAX_NOTES = 5
MAX_ENTITY_CANDIDATES = 200


@dataclass(frozen=True, slots=True)
class Answer:
    question: Question
    window: Window
    keys: list[Key] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    notes: list[NoteMatch] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)  # named by name or alias
    respelled: dict[str, str] = field(default_factory=dict)
    suggestions: list[str] = field(default_factory=list)
    choice: KeyChoice = field(default_factory=KeyChoice)
    parts: tuple[Answer, ...] = ()  # a text of several questions: each one's own answer
    part_texts: tuple[str, ...] = ()  # … and each one as the text said it


def ask(conn: Connection, scope: str, text: str, now: Instant, *,
        as_of: Instant | None = None, known_at: Instant | None = None,
        notes: int = MAX_NOTES, with_notes: bool = True, config: Config | None = None,
        semantic: Semantic | None = None) -> Answer:
    """The answer to the text; when it asks several questions ("What car do I drive and
    when is the oil change?"), each one's answers besides (`_merged`)."""
    text = numeric_dates_as_iso(without_terminal_codes(text), now)  # what both readings see
    question = analyse(text, now)
    context = _Context(scope, now, config or Config(), semantic)
    whole = _ask_one(conn, context, question, window(question, now, as_of, known_at),
                     notes, with_notes)
    parts = clauses(text)
    each = side_by_side(text) if len(parts) == 1 and (
        whole.choice.missing or not whole.choice.keys) else []
    if len(parts) == 1 and not each:
        return whole

    def asking(text: str) -> Answer:
        asked = at_its_time(analyse(text, now), question)
        return _ask_one(conn, context, asked, window(asked, now, as_of, known_at), notes,
                        with_notes and not whole.notes)

    if each:  # "what are Katka's and Radek's shifts?": each one's, where it finds more
        answers = [asking(part) for part in each]
        if sum(bool(a.choice.keys) for a in answers) <= bool(whole.choice.keys):
            return whole
        parts = each
    else:
        answers = []
        for part in parts:
            answers.append(_ask_part(asking, part, answers[-1] if answers else None))
    return replace(_merged(whole, answers, notes, context.asker), parts=tuple(answers),
                   part_texts=tuple(parts))


def part_answered(answer: Answer, part: Answer) -> bool:
    """Whether a part of a text found an answer among the facts the whole answer gives."""
    asked = set(part.keys)
    return any((fact.scope, fact.subject, fact.relation) in asked for fact in answer.facts)


def part_statuses(answers: Sequence[Answer]) -> list[tuple[str, bool]]:
    """Each part of a text as asked and whether some scope's answer holds a fact for it
    (`answers`: one per scope read, each holding the same parts)."""
    texts = answers[0].part_texts if answers else ()
    return [(_as_said(text), any(part_answered(a, a.parts[number]) for a in answers
                                 if number < len(a.parts)))
            for number, text in enumerate(texts)]


def _as_said(part: str) -> str:
    """A part without the joining word it was cut with ("and what is …" → "what is …")."""
    first, _, rest = part.strip().partition(" ")
    return rest if rest and first.casefold() in _JOINING else part.strip()


_JOINING = frozenset(("and", "i", "a", "oraz", "plus", "also"))
_HAS = frozenset(words_of("ma maja maju maji"))
""""Has" with no subject said, as Polish, Slovak and Czech ask ("… i jaki MA maila?"): of
whom the part before named."""


def unanswered_parts(answers: Sequence[Answer]) -> list[str]:
    """A remark for each part of a text no fact answers, and for each of the people a
    question names side by side of whom nothing answers it ("mum's and my brother's
    phone"): said, never dropped silently."""
    parts = [f"not recorded: '{text}' (one of the questions asked)"
             for text, found in part_statuses(answers) if not found]
    missing = [f"not recorded for {label} (one of those asked about)"
               for answer in answers for one in (answer, *answer.parts)
               for label in one.choice.missing]
    return list(dict.fromkeys([*parts, *missing]))


def _ask_part(asking: Callable[[str], Answer], part: str, before: Answer | None) -> Answer:
    """A part of a text, read with the part before it where it leans on it: "… a koľko JEJ
    platíme?" and "Jak ma na imię mama Agnieszki i gdzie mieszka?" ask about whom the part
    before named; "Jaki jest telefon do pediatry, a jaki do dentysty?" asks of the dentist
    what the part before asked."""
    naming = before.choice.naming if before else []
    subjects = {key[1].replace("_", " ") for key in before.keys} if before else set()
    values = list(dict.fromkeys(fact.object for fact in before.facts)) if before else []
    pointing = refers_back(part) and bool(naming or len(subjects) == 1 or len(values) == 1)
    if pointing:  # "… and who is IT insured with?" of the van the part before asked about
        said = part
        part = with_referent(said, " ".join(naming or subjects))
        answer = asking(part)
        if not answer.choice.keys and len(values) == 1:  # "Who supplies our colours and
            # who's the contact person THERE?": at the supplier the part before answered
            by_value = asking(with_referent(said, values[0]))
            answer = by_value if by_value.choice.keys else answer
    else:
        answer = asking(part)
    if before is not None and not answer.choice.keys and (
            again := _of_another(asking, part, before)) is not None:
        return again  # "Jaki internet ma dom, A JAKI WARSZTAT?": the workshop's internet
    relation = before.choice.asking if before else []
    if relation and answer.choice.bare:  # "… and what's HE on now?": on the food asked
        again = asking(f"{part} ({' '.join(relation)})")
        if not again.choice.keys and before is not None and (
                other := _of_another(asking, part, before)) is not None:
            return other
        return again
    if before is not None and before.choice.keys and not answer.choice.keys and all(
            term.word in WHEN_ONLY for term in answer.question.terms):  # "Čím jsme
        # topili dřív A ČÍM TEĎ?": what the part before asked, at this part's time
        again = asking(f"{part} ({' '.join(term.raw for term in before.question.terms)})")
        if again.choice.keys:
            return again
    unnamed = all(m.subject == UNNAMED for m in answer.choice.keys)
    # "how much does the GYM pay and which days do we go?": the gym's days, not whoever's
    # days the part alone finds
    referent = naming or (sorted(subjects) if len(subjects) == 1 and unnamed else [])
    if not pointing and referent and not answer.choice.about and not answer.choice.unknown:
        again = asking(f"{part} ({' '.join(referent)})")
        if not again.choice.keys and naming and relation:  # "Kto je otcov NEUROLÓG a kedy
            # má ďalšiu kontrolu?": dad's next neurology check, what the part before asked
            again = asking(f"{part} ({' '.join([*naming, *relation])})")
        if again.choice.keys or (naming and unnamed and _HAS.intersection(
                words(part))):  # "Kiedy urodził się Kuba i jaki MA maila?": what he has,
            return again  # recorded or not — never the one e-mail of anyone
        return answer
    return answer


def _of_another(asking: Callable[[str], Answer], part: str, before: Answer) -> Answer | None:
    """The part before asked again of the thing a part names alone (`said_of_another`): the
    first wording whose answer is a relation the part before answered, of another subject."""
    relations = {key[2] for key in before.keys}
    subjects = {key[1] for key in before.keys}
    for wording in said_of_another(part, before.question.text)[:_WORDINGS]:
        answer = asking(wording)
        found = answer.choice.keys
        if found and all(m.key.relation in relations and m.key.subject not in subjects
                         for m in found):
            return answer
    return None


_WORDINGS = 4
"""The most wordings of the part before tried for a part that names only another thing."""


@dataclass(frozen=True, slots=True)
class _Context:
    scope: str
    now: Instant
    config: Config
    semantic: Semantic | None = None

    @property
    def asker(self) -> str:
        host = self.scope.removeprefix(QUARANTINE_PREFIX)
        return self.config.asker(host)


def _ask_one(conn: Connection, context: _Context, question: Question, asked: Window,
             notes: int, with_notes: bool) -> Answer:
    text, scope = question.text, context.scope
    named = named_entities(conn, text, question)
    choice = choose_keys(conn, scope, question, context.now, context.asker,
                         table_for(context.config.concepts), context.semantic)
    keys = [(scope, m.key.subject, m.key.relation) for m in choice.keys]
    # a change question also needs the value held just before its period begins
    start = asked.start - 1 if asked.history else asked.start
    facts = _facts_of(conn, scope, choice.keys, start, asked)
    if asked.history:
        keys, facts = _those_that_changed(keys, facts)
        if choice.alike and not _changed(keys, facts):  # the next best keys, if they did
            also = [(scope, m.key.subject, m.key.relation) for m in choice.alike]
            more = _facts_of(conn, scope, choice.alike, start, asked)
            if changed := _changed(also, more):
                keys, facts = changed, [f for f in more
                                        if (f.scope, f.subject, f.relation) in changed]
    notes_ranked = rank_notes(conn, question) if with_notes else None
    matches = [] if notes_ranked is None else note_matches(conn, notes_ranked,
                                                            question)[:notes]
    if with_notes and not choice.keys and choice.recorded:
        matches = _their_notes(conn, choice.about, matches)[:notes]
    if with_notes and context.semantic is not None:
        matches = notes_by_meaning(conn, context.semantic, text, matches, notes,
                                   bool(choice.keys))
    respelled = {**choice.respelled, **(respellings(question, [notes_ranked.plan])
                                        if notes_ranked is not None else {})}
    suggestions = (suggest(conn, respelled.values(), scope, notes=with_notes)
                   if respelled else [])
    return Answer(question, asked, keys, facts, matches, sorted(named), respelled,
                  suggestions, choice)


def _facts_of(conn: Connection, scope: str, matches: Sequence[KeyMatch], start: Instant,
              asked: Window) -> list[Fact]:
    """The facts of the keys during the window asked (from `start`), each with the reasons
    its key was chosen."""
    return [with_reasons(fact, match) for match in matches for fact in _facts_of_key(
        conn, scope, match, start, asked)]


def _facts_of_key(conn: Connection, scope: str, match: KeyMatch, start: Instant,
                  asked: Window) -> list[Fact]:
    """A key's facts in the window; for a person's place in another's key
    (`match.values_naming`) only the values naming them — those of the window, else (for
    a question of when it held: `match.ended_too`) the last before it ("do kiedy Oskar u
    nas pracował": the value that ended)."""
    subject, relation = match.key.subject, match.key.relation
    facts = recall_during(conn, scope, subject, relation, start, asked.end, asked.known)
    if not match.values_naming:
        return facts
    theirs = [f for f in facts if f.object in match.values_naming]
    if theirs or not match.ended_too:
        return theirs
    before = recall_during(conn, scope, subject, relation, -FOREVER, asked.end, asked.known)
    return [f for f in before if f.object in match.values_naming][-1:]


def _those_that_changed(keys: list[tuple[str, str, str]], facts: list[Fact],
                        ) -> tuple[list[tuple[str, str, str]], list[Fact]]:
    """Of several keys a change question found, those whose value changed in its window
    ("what food was Bruno on before and what's he on now": his food, not his breed or
    vet), when some did and others did not."""
    changed = _changed(keys, facts)
    if not changed or len(changed) == len(keys):
        return keys, facts
    return changed, [f for f in facts if (f.scope, f.subject, f.relation) in changed]


def _changed(keys: list[tuple[str, str, str]], facts: list[Fact],
             ) -> list[tuple[str, str, str]]:
    """The keys whose value changed among the facts."""
    values: dict[tuple[str, str, str], set[str]] = {}
    for fact in facts:
        values.setdefault((fact.scope, fact.subject, fact.relation), set()).add(fact.object)
    return [key for key in keys if len(values.get(key, ())) > 1]


def _their_notes(conn: Connection, about: list[str], matches: list[NoteMatch],
                 ) -> list[NoteMatch]:
    """The entity notes of the people asked about, after the best-ranked note, when facts
    of theirs are recorded but none answers: "what did my mother do for a living" is in her
    note ("retired pharmacist")."""
    found = [NoteMatch(name, category, description, description, path)
             for path, name, category, description, _ in notes_by_name(conn, about, "entities")]
    names = {m.name for m in found}
    rest = [m for m in matches if m.name not in names]
    return [*rest[:1], *found, *rest[1:]]


def remarks(answers: list[Answer]) -> list[str]:
    """Why nothing answers, in words: whom the memory does not know, whose facts alike
    it would not choose between, what it holds about the subject asked about."""
    out = []
    for answer in answers:
        choice = answer.choice
        out += [f"nothing is recorded about '{name}'" for name in choice.unknown]
        if choice.ambiguous:
            out.append("several subjects' keys fit and the question names none of them: "
                       + ", ".join(choice.ambiguous) + " (ask again naming whose)")
        out += [f"recorded about {subject}: {', '.join(relations)} (relations only)"
                for subject, relations in choice.recorded.items()]
    return list(dict.fromkeys(out))


def with_reasons(fact: Fact, match: KeyMatch) -> Fact:
    """The fact with why the question's answer holds it: whose fact, which words."""
    return replace(fact, why={"subject": match.subject, "relation": list(match.relation),
                              "coverage": round(match.coverage, 2)})


def _merged(whole: Answer, parts: list[Answer], notes: int, asker: str) -> Answer:
    """Each part's keys in turn, only where the part names their subject (cut from its
    text, "What is the phone" is nobody's phone in particular), then the whole text's;
    the whole text's notes, or when it found none, each part's in turn."""
    # a key asked by two parts (at two times) is kept for each: its facts differ
    asked = in_turn(([(key, number) for key in part.keys] for number, part in enumerate(parts)),
                    lambda pair: pair)
    # a text that names no one anywhere lost no one's name to the cut ("How much is the
    # rent and who's the landlord?": the household's rent, its landlord); a subject one
    # part names is named for the others ("the HALL rent … and who's the landlord?")
    named = {m.key.subject for part in parts for m in part.choice.keys if m.subject != UNNAMED}
    nobody = not whole.entities and not whole.choice.about and not named and not any(
        answer.choice.unknown for answer in (whole, *parts))  # "… does my BOSS have"
    by_default = asker_by_default(parts, named, asker)
    own = [(key, number) for key, number in asked
           if nobody or key[1] in named or _says_whose(parts[number], key)
           or number in by_default]
    answered = [(key, parts[number]) for key, number in own]
    # every part answered on its own: the whole text's other keys mix the parts' words
    # ("my MUM's landline and when was my dad BORN": not mum's birth date)
    every_part = {number for _, number in own} == set(range(len(parts)))
    of_parts = {key for key, _ in own}
    answered += [(key, whole) for key in whole.keys if not every_part or key in of_parts]
    facts = {(fact.id, fact.valid_from): fact for key, answer in answered
             for fact in answer.facts if (fact.scope, fact.subject, fact.relation) == key}
    matches = whole.notes or in_turn((part.notes for part in parts),
                                     lambda match: match.name)[:notes]
    everything = (whole, *parts)
    return Answer(whole.question, whole.window, list(dict.fromkeys(key for key, _ in answered)),
                  list(facts.values()), matches,
                  sorted({name for answer in everything for name in answer.entities}),
                  {word: used for answer in everything
                   for word, used in answer.respelled.items()},
                  list(dict.fromkeys(s for answer in everything for s in answer.suggestions)))


def asker_by_default(parts: Sequence[Answer], named: set[str], asker: str) -> set[int]:
    """The parts that name nobody and find one subject, the asker's own, when no part
    names an owner that may be said of them all: "VAT NUMBER and when's the next return
    due?" asks the business's VAT number; "What is the PHONE and what is the email of
    Acme?" not the asker's phone."""
    if owner_said_for_all([part.question for part in parts], named):
        return set()
    return {number for number, part in enumerate(parts)
            if part.choice.keys and all(m.subject == UNNAMED for m in part.choice.keys)
            and {key_slug(m.key.subject) for m in part.choice.keys} == {asker}}


def _says_whose(part: Answer, key: Key) -> bool:
    """Whether a part names whose key it asks about: its subject was found by a name, a
    role, the asker or a value ("… and how much does he earn (Paweł)": `husband`), or the
    part holds the subject's words."""
    named = {(m.key.subject, m.key.relation) for m in part.choice.keys if m.subject != UNNAMED}
    return (key[1], key[2]) in named or names_subject(part.question, key[1], part.entities)


def named_entities(conn: Connection, text: str, question: Question,
                   ) -> dict[str, tuple[int, int]]:
    """Entity notes whose name or an alias occurs in the text as whole folded words:
    name → the word positions of the occurrence. Candidates are looked up by the
    question's salient words only (a stop word's posting list is the longest there is)."""
    folded = [word for _, word in tokens(text)]
    if not folded:
        return {}
    wanted = sorted({term.word for term in question.terms}) or sorted(set(folded))
    spellings = {name: [name.replace("-", " "), *aliases] for name, aliases in
                 entity_candidates(conn, wanted, MAX_ENTITY_CANDIDATES)}
    return find_names(folded, spellings)


def note_matches(conn: Connection, ranked: Ranked, question: Question) -> list[NoteMatch]:
    hits = ranked.answering(rarest_rule=False)
    rows = notes_by_rowid(conn, [hit.rowid for hit in hits])
    wanted = searched_words(question, ranked)
    return [NoteMatch(name, category, description, snippet(wanted, description, body), path)
            for path, name, category, description, body in
            (rows[hit.rowid] for hit in hits if hit.rowid in rows)]
