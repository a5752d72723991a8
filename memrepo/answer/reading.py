"""How the key choice reads a question (memrepo.answer.keys): its words with stop words,
dates and fillers set aside, the cues of what kind of value it asks for ("how much",
"who", "when"), and the words that join two asks. What it asks beyond whom it names is
memrepo.answer.words_asked's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from memrepo.answer.concepts import ConceptTable, Span
from memrepo.answer.first_person import in_slavic
from memrepo.answer.question import (
    EARLIER,
    HEAD_ADDRESS,
    HEAD_NUMBER,
    Question,
    asks_change_word,
    head_kind,
    head_positions,
)
from memrepo.answer.relevance import question_word_typo
from memrepo.answer.stopwords import QUESTION_WORDS, STOP_WORDS
from memrepo.answer.when import find_times, month_names_as_names, numeric_dates_as_iso
from memrepo.core.stems import WORD, tokens
from memrepo.core.text import words_of

TITLES = frozenset(words_of("""mr mrs ms miss dr doc prof ing mgr mudr mvdr pan pani pana
panem pania sir madam"""))
"""Titles before a name ("dr Novák", "MUDr. Veselý"): no name and no question word."""
FILLERS = frozenset(words_of("""
please again currently today tonight right know give show want find look info information
details detail still ever exactly remind remember anything something thing things one
moment moments there here else going podaj powiedz pokaz prosze teraz obecnie aktualnie daj
povedz ukaz prosim momentalne rekni ted nyni aktualne also list all every tell say again
ponownie znowu znow znova znovu opat back already far record records pls plz everything
wszystko vsetko vsechno
zapisany zapisana zapisane zapisanu zapisaneho zapisanej zapisanych zapisal zapisala
zapisanego zapisales zapisalas zapsany zapsana zapsane zapsal zapsala zaznamenany
zaznamenana zaznamenane tvojich tvojej tvoje tvoj tvoich twoich twoje twoj twojej twoim
tvych tvoji poznamok poznamky poznamkach poznamek notatek notatkach notatkami
finally usually normally actually basically roughly approximately really anyway wreszcie
zwykle zazwyczaj normalnie wlasciwie dokladnie przypadkiem musi musimy musze trzeba
przypomnij pamietasz wiesz konecne zvycajne obvykle normalne vlastne presne
musime musim treba potreba pripomen pamatas vies pamatujes vis przeciw przeciwko proti""")) | TITLES
"""Words that ask nothing of their own ("please", "right now", "give me", "ZAPÍSANÚ podľa
TVOJICH POZNÁMOK": what the memory knew is the time, not a thing): never held against a
key. (Head nouns beside another word, "phone NUMBER", are set aside too.)"""
OPTIONAL = frozenset(words_of("""
month months monthly week weeks weekly year years yearly annual annually daily day each per
every mesiac mesicne mesacne miesiac miesiecznie rok rocznie rocne rocni tyden tydenne
private personal main new current latest official direct time over usual normal regular
standard typical default base basic next last previous start beginning naposledy naposledok
ostatnio ostatni ostatnia ostatnie posledny posledna posledni posledne recently lately nedavno
niedawno home domov doma domu yr yrs due originally zna znam znasz znaja umi umim umie vie
viem vedia ovlada ovladam knows
prywatny prywatna sukromny sukromna soukromy soukroma prywatnie sukromne soukrome
privately""")) | EARLIER
"""Words of a period ("each month", "per year"), a kind of value ("my PRIVATE phone") or
where something happens ("kto chodí babke pomáhať DOMOV": her carer, at home): a
key whose relation holds one gains by it (`monthly_fee`); one that does not is not held
to it."""
IDENTITY = frozenset(words_of("""
name model type make brand kind title nazwa imie marka typ meno nazov znacka jmeno nazev
provider operator dostawca poskytovatel"""))
AMOUNT = frozenset(words_of("""
amount value price cost total sum kwota wartosc cena suma castka hodnota"""))
"""Relations that say what a thing is (IDENTITY: `van.model`) or costs (AMOUNT:
`gas_bill.amount`), answering a question that names only the thing ("which van do we
have?", "gas advance now?" — an amount when the question asks one or names no other)."""
_WHO = frozenset(words_of("who whom whos kto kogo komu kdo koho"))
_LOOK = frozenset(words_of("look looks looked looking"))
_WHEN = frozenset(words_of("when kiedy kedy kdy dokedy dokiedy dokdy odkedy odkiedy odkdy"))
_DAY_OF = frozenset(words_of("day dzien dniu dnia den dni dne dna dnu"))
"""The word "day" before the date it names ("na DZIEŃ 1 sierpnia", "k DŇU 15. augusta"):
part of the date, not a day asked about."""
_WHICH = frozenset(words_of("""
what which jaki jaka jakie jakiego jakiej jakim jaka jakimi jakich ktory ktora ktore
ktorego ktorej ktorym ktorych aky aka ake akeho akej aku akym akou akych ktoreho ktorom
jaky jake jakou jakym jakem"""))
"""Words whose next word names the kind of the answer ("what CAR does she drive")."""
"""… LOOK LIKE: "what did my rent look like" asks nothing of "like"."""
_ENGLISH_AS_SLAVIC = frozenset(words_of("""place places zone sad den dna pride vine mace splat
tate sidle segre jedi opal fen viz datum"""))
"""English words a Polish, Slovak or Czech word of the concept table folds to ("płacę",
"żonę", "sąd", "deň", "príde"): in an English question they are English."""
AMOUNT_CUE = "#amount"
WHO_CUE = "#who"
WHEN_CUE = "#when"
WHERE_CUE = "#where"
WHERE = frozenset(words_of("where wheres gdzie kde kdeze dokad kam"))
"""Opening words asking where (WHERE_CUE)."""
PLACES = frozenset(("residence", "registered_address", "workplace", "venue", "destination"))
"""Concepts of relations that say where someone lives or stands, or where a thing is held."""
HEAD_CONCEPTS = {HEAD_ADDRESS: PLACES - {"workplace", "destination"},
                 HEAD_NUMBER: frozenset(("phone",))}
"""Concepts of the relations a head noun asks for ("salon ADDRESS", "číslo na Denisu"); an
office is where someone works, a trip's destination where it goes: neither an address
(`biuro.office_internet`)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A question as the key choice reads it: its words as written and folded, those that
    count, and what each of them names or asks for."""

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
    supplied: frozenset[int] = frozenset()  # of value_named: words naming the thing a role
    # word asks of ("kto dostarcza ZIARNO"), not a value
    called: dict[str, str] = field(default_factory=dict)  # a subject → the name a thing the
    # question names is called by ("the dog": `babel`, as `pies.imie` = "Bąbel")
    in_names: frozenset[int] = frozenset()  # words of a person's name the question says
    theirs: frozenset[int] = frozenset()  # words a named person possesses ("Jozef's CAR")
    labels: dict[int, str] = field(default_factory=dict)  # "category B", "car 2": which of
    # several things alike
    pointed: int = 0  # the last words: what the part points back to ("… order? (Gorce)")
    noted_names: frozenset[int] = frozenset()  # capitalised words only the notes hold
    acronyms: frozenset[int] = frozenset()  # words written in capitals ("deski SUP")


# --- reading the question ---------------------------------------------------------------

def _dated(text: str, pairs: list[tuple[str, str]], now: int) -> set[int]:
    """The positions of the words of a date or period, or of a clause of the system time;
    a numeric date ("1. 6. 2026") is read as the ISO day it is, which has as many words."""
    iso = numeric_dates_as_iso(text, now)
    as_iso = tokens(iso)
    if len(as_iso) == len(pairs):
        text, pairs = iso, as_iso
    return set(find_times(month_names_as_names(text, [f for _, f in pairs]), now).used)


def read_question(question: Question, now: int, concepts: ConceptTable,
                  replaced: dict[int, str] | None = None) -> Reading:
    """The question's words as the key choice reads them (`replaced`: position → the
    respelling read instead)."""
    pairs = tokens(question.text)
    raw = [r for r, _ in pairs]
    folded = [(replaced or {}).get(i, f) for i, (_, f) in enumerate(pairs)]
    dated = _dated(question.text, pairs, now)
    look_like = {i for i in range(len(folded) - 1)
                 if folded[i] in _LOOK and folded[i + 1] == "like"}
    dated = {*dated, *look_like, *(i + 1 for i in look_like),  # set aside like a date
             *_since_clause(folded), *(i + 1 for i, word in enumerate(folded[:-1])
                                       if word in _BESIDES)}  # "besides CZECH": not asked
    heads = head_positions(folded, {i for i, w in enumerate(folded) if w not in STOP_WORDS
                                    and w not in OPTIONAL  # "her NEW number": a phone
                                    and w not in FILLERS  # "TEĎ číslo na Denisu"
                                    and i not in dated and not asks_change_word(w)})
    written = WORD.findall(unicodedata.normalize("NFC", question.text))
    if len(written) != len(raw):
        written = list(raw)
    heads = {i for i in heads if not _beside_a_person(i, written, folded, concepts)}
    opening = question_word_typo(folded[0]) if folded else None
    read_as = {raw[0]: opening} if opening else {}
    salient = [i for i, word in enumerate(folded)
               if i not in dated and i not in heads and (
                   word not in STOP_WORDS or _a_noun_after_preposition(folded, i, concepts))
               and not (i == 0 and opening)
               and word not in FILLERS and len(word) > 1 and not word.isdigit()
               and not (word == "days" and folded[i - 1:i] and folded[i - 1] in _THESE)
               and not (word in _STOP_WORD_TYPOS and not concepts.knows(word))
               and not (asks_change_word(word) and (
                   not concepts.knows(word) or (folded[i - 1:i] and folded[i - 1] in PASSIVE)))]
    cues = {AMOUNT_CUE: 1.0} if question.asks_amount else {}
    who = _first_of(folded, _WHO)
    when = _first_of(folded, _WHEN)
    if who < len(folded) and who < when:  # "who do I call WHEN it breaks": who asks
        cues[WHO_CUE] = 0.5
    if when < len(folded) and when < who and not question.asks_change and not asks_since_when(
            folded) and not _when_subordinate(folded, when):  # "OD KIEDY ma prawo jazdy":
        cues[WHEN_CUE] = 0.5  # any value, with the day it became true
    after_date = max(dated, default=len(folded)) + 1
    if WHERE.intersection([*[w for w in folded if w not in JOINERS][:1],
                           *[w for w in folded[after_date:] if w not in JOINERS][:1]]):
        # "(and) WHERE is Lena's exam": its venue before the exam, never alone an answer;
        # also after the date it is asked for ("Na 1 maja 2026: GDZIE jest egzamin?")
        cues[WHERE_CUE] = 0.0
    spans: dict[int, frozenset[str]] = {}
    english = not in_slavic(folded)
    for span in concepts.spans(folded):  # a phrase's words mean the phrase ("for a LIVING",
        if english and span.end - span.start == 1 and folded[span.start] in _ENGLISH_AS_SLAVIC:
            continue  # "at your PLACE" is no "płacę"
        for i in (*range(span.start, span.end), *span.tail):  # "rent the rooms FROM")
            spans[i] = span.concepts | _own_concepts(folded, span, i, concepts)
    together = _named_together(folded, spans, dated, concepts)
    spans.update(together)
    for i, word in enumerate(folded):  # "Péťa's NUMBER", "numer do mamy": a phone number
        if head_kind(word) == HEAD_NUMBER and i not in heads and (
                i not in spans or spans[i] <= _ALSO_A_NUMBER):
            spans[i] = spans.get(i, frozenset()) | {"phone"}
    multi = {i for span in concepts.spans(folded) if span.end - span.start > 1
             for i in range(span.start, span.end)}
    salient = sorted({*salient, *_phrases_of_small_words(folded, concepts, dated)})
    if (origin := _asks_origin(folded[:len(folded) - _pointed_back(question.text)])) \
            is not None:  # "where is she FROM", "skąd jest", "where's he from (tomas)"
        spans[origin] = _ORIGIN
        salient = sorted({*salient, origin})
    if len(folded) > 3 and folded[0] in _WHAT_YEAR_IS and folded[-1] == "for" and (
            len(folded) - 1 not in spans):  # "what did we borrow the money FOR"
        spans[len(folded) - 1] = _PURPOSE
        salient = sorted({*salient, len(folded) - 1})
    if (year := _asks_school_year(folded)) is not None:  # "what YEAR is Tomek in"
        spans[year] = _SCHOOL_YEAR  # "… in AT SCHOOL": where the year is, not a second thing
        salient = sorted({*(i for i in salient if spans.get(i) != _SCHOOL), year})
    if (doing := _asks_occupation(folded)) is not None:  # "what does Zuzka DO?"
        spans[doing] = _OCCUPATION
        salient = sorted({*salient, doing})
    if who < len(folded) and folded[who] in _WHO_DOES and not _FOR_WHOM.intersection(folded):
        # "who WORKS at the workshop", "kto u nas pracuje": the staff, not an employer
        for i in (i for i, word in enumerate(folded) if word in _WORKS and i not in multi):
            spans[i] = _STAFF
    if WHEN_CUE in cues and not _PAST_OR_START.intersection(folded):
        # "when does Radek WORK", "kdy pracuje": his hours, not his employer
        for i in (i for i, word in enumerate(folded) if word in _WORKS and i not in multi):
            spans[i] = _HOURS
    for i in [i for i in salient if folded[i] in _DAY_OF and i + 1 in dated]:
        salient.remove(i)  # "na DZIEŃ 1 sierpnia": the date's, no day asked about
        spans.pop(i, None)
    optional = {i for i in salient if folded[i] in OPTIONAL and i not in multi
                and spans.get(i) != _SCHOOL_YEAR} | asks_since_when(folded) | (
        _what_changed(folded, salient) if question.asks_change else set()) | (
        _said_after_asking(question.text, folded) if len(written) == len(raw) else set())
    kinds = {j: head_kind(folded[i]) for i in heads for j in (i - 1, i + 1) if j in salient}
    phrased = {i for span in concepts.spans(folded) if span.end - span.start > 1
               for i in range(span.start, span.end)} | set(together)
    asked_kind = {j for i, word in enumerate(folded) if word in _WHICH  # "what's the RENT"
                  for j in [next((j for j in salient if j > i), -1)] if 0 < j - i <= 3}
    starts = _sentence_starts(question.text)
    capitalised = {i for i, w in enumerate(written) if i and w[:1].isupper()
                   and not w.isupper() and i not in starts}
    if len(written) > 3 and len(capitalised) >= 0.6 * (len(written) - 1):
        capitalised = set()  # "Where Does Marta Live?": Title Case says nothing of names
    for i in capitalised & set(spans) - phrased:  # a name means a concept only as written:
        spans[i] = concepts.exact.get(folded[i], frozenset())  # "DANIEL" is no "daň",
        if not spans[i]:  # "ZDROWEGO Talerza" no health
            del spans[i]
    salient = sorted({*salient, *(i for i in capitalised if i not in dated and i not in heads
                                  and len(folded[i]) > 1 and folded[i] not in FILLERS)})
    # a name that is also a small word ("What is ANI's salary?": Anna) still names someone
    labels = _labels(written, dated)
    pointed = _pointed_back(question.text)
    tail = range(len(folded) - pointed, len(folded))
    if pointed and any(i < tail.start for i in capitalised) and any(
            i < tail.start and i not in capitalised for i in salient):
        optional |= set(tail)  # "… Jan Vlček's PHONE? (mortgage)": the thing guessed to be
        # pointed at counts only where a key holds it, once the part names someone by name
        # and asks something of them ("… a jaki Olena? (telefon)" asks the phone)
    return Reading(raw, folded, sorted({*salient, *labels}), cues, set(dated), spans,
                   optional | {j for i in labels for j in (i - 1, i)}, kinds,
                   question.asks_change, read_as, asked_kind, phrased, capitalised,
                   labels=labels, pointed=pointed,
                   acronyms=_acronyms(written) if len(written) == len(raw) else frozenset())


def _named_together(folded: Sequence[str], spans: dict[int, frozenset[str]],
                    dated: Collection[int], concepts: ConceptTable,
                    ) -> dict[int, frozenset[str]]:
    """The words that name a concept of the table together with another word of the
    question ("ile oddajemy BANKOWI za DOM": the mortgage; concepts.yaml `together`), each
    with its concepts, that one and the one it is within (a loan: `kredyt.rata`)."""
    named = {i: spans.get(i, frozenset()) | concepts.word_concepts(word)
             for i, word in enumerate(folded) if i not in dated}
    found: dict[int, frozenset[str]] = {}
    for concept, pairs in concepts.together.items():
        for first, second in pairs:
            one = [i for i, said in named.items() if first in said]
            other = [j for j, said in named.items() if second in said and j not in one]
            for i in (*one, *other) if one and other else ():
                found[i] = found.get(i, spans.get(i, frozenset())) | {
                    concept, *concepts.within.get(concept, "").split()}
    return found


def _since_clause(folded: Sequence[str]) -> set[int]:
    """The words of a clause saying since when ("how has our rent changed SINCE WE MOVED
    INTO THE FLAT", "odkąd tu mieszkamy"): a time, not what is asked — up to a joiner."""
    start = next((i for i, word in enumerate(folded) if i >= 2 and (
        word in _SINCE_ALONE or (word == "since" and folded[i + 1:i + 2]
                                 and folded[i + 1] in _PRONOUNS))), None)
    if start is None:
        return set()
    end = next((j for j in range(start + 1, len(folded)) if folded[j] in JOINERS),
               len(folded))
    return set(range(start, end))


_SINCE_ALONE = frozenset(words_of("odkad odkedy odkdy"))
_PRONOUNS = frozenset(words_of("we i he she they you it"))


def _acronyms(written: Sequence[str]) -> frozenset[int]:
    """Positions of the words written in capitals ("deski SUP", "the STK") in a question
    that is not written in capitals: names as spelled, respelled only by letters swapped
    ("NPI" for NIP, never "SUP" to "suv")."""
    upper = {i for i, word in enumerate(written) if word.isupper() and len(word) > 1}
    return frozenset() if len(upper) == len(written) else frozenset(upper)


def _said_after_asking(text: str, folded: Sequence[str]) -> set[int]:
    """Positions of the words after the question's last "?" that ask nothing themselves —
    why the person asks ("When's Zuzia's birthday? NEED TO ORDER THE TORT", "what's his
    number? THE SHOWER IS LEAKING"): they count only where a key holds them. Words after
    it that open a question ("Quick one? WHAT's Oleh's number") are the question, and so
    are words in brackets ("what's his number? (OLEH)"; a part of a question asked again
    with the relation of the part before: "… and Kvetná's? (PAYMENT TERMS)")."""
    written = unicodedata.normalize("NFC", text)
    last = written.rfind("?")
    after = [i for i, word in enumerate(WORD.finditer(written)) if word.start() > last]
    if (last < 0 or not after or folded[after[0]] in QUESTION_WORDS
            or written[last + 1:].lstrip().startswith("(")):
        return set()
    return set(after)


def _sentence_starts(text: str) -> set[int]:
    """Positions of the words that open a sentence after the first ("… moved? FROM what
    to what?"): a capital letter there names nobody."""
    written = unicodedata.normalize("NFC", text)
    return {i for i, word in enumerate(WORD.finditer(written))
            if i and written[:word.start()].rstrip()[-1:] in (".", "?", "!")}


PASSIVE = frozenset(words_of("got get gets was were been be is are"))
"""… before a word of change: "Ola's lesson GOT MOVED" asks how it changed, not where
anyone moved to."""


def _a_noun_after_preposition(folded: Sequence[str], i: int, concepts: ConceptTable) -> bool:
    """A small word that is also a word of the concept table, after a preposition: "nájem
    za BYT" is the flat (Czech "byt" is also "to be")."""
    return i > 0 and folded[i - 1] in _SLAVIC_PREPOSITIONS and concepts.knows(folded[i])


_SLAVIC_PREPOSITIONS = frozenset(words_of("za na do ve pro od ze nad pod po przy dla"))


def _typos_of(words: Iterable[str]) -> frozenset[str]:
    """Each word with two letters swapped or one left out ("teh", "adn", "yuor")."""
    found: set[str] = set()
    for word in words:
        found.update(word[:i] + word[i + 1] + word[i] + word[i + 2:]
                     for i in range(len(word) - 1))
        found.update(word[:i] + word[i + 1:] for i in range(1, len(word)))
    return frozenset(t for t in found if len(t) > 2 and t not in STOP_WORDS) - _WORDS_TOO


_WORDS_TOO = frozenset(words_of("form dose doe dos wit tat odes wen whos"))
_STOP_WORD_TYPOS = _typos_of(words_of("""the and for you your our with that their this from
have does what who how whose when"""))
"""A small word of a question misspelt ("What's TEH cat's name?"): read as the small word it
is, not as a word to search for, unless the concept table knows it."""


def _labels(written: Sequence[str], dated: set[int]) -> dict[int, str]:
    """The words that tell one of several things alike from the others: a capital letter
    standing alone ("category B") or a small number that is no date ("training car 2").
    They and the word they label ("CATEGORY B") count where a key holds them (read as
    optional words)."""
    return {i: w.lower() for i, w in enumerate(written) if i and i not in dated and (
        (len(w) == 1 and w.isupper() and w != "I") or (w.isdigit() and len(w) <= 2))}


_ORIGIN = frozenset(("birthplace", "residence"))
_FROM_WHERE = frozenset(words_of("skad odkud odkial zkad"))


def _pointed_back(text: str) -> int:
    """The words of the thing a part of a text points back to, written after it in
    parentheses by memrepo.answer.clauses ("where's he from (tomas)"): 0 when none."""
    rest = text.rstrip()
    while rest.endswith(")") and "(" in rest:  # "… from (tomas) (Tomáš)": each one
        rest = rest[:rest.rindex("(")].rstrip()
    return len(tokens(text)) - len(tokens(rest))


def _asks_origin(folded: Sequence[str]) -> int | None:
    """The position of the word asking where someone comes from — "FROM" closing a "where"
    question, or "skąd", "odkiaľ", "odkud" — which no concept word holds alone."""
    last = len(folded) - 1 - (folded[-1:] == ["originally"])  # "… from ORIGINALLY"
    first = next((i for i, word in enumerate(folded) if word not in JOINERS), 0)  # "AND
    if len(folded) > first + 2 and folded[first] in ("where", "wheres") and (  # where's …"
            folded[last] == "from"):
        return last
    return next((i for i, word in enumerate(folded) if word in _FROM_WHERE), None)


_SCHOOL_YEAR = frozenset(("school_year",))
_PURPOSE = frozenset(("purpose",))
_SCHOOL = frozenset(("school",))
_WHAT_YEAR_IS = ("what", "which", "whats")
_YEAR_AT_SCHOOL = frozenset(("year", "grade", "class", "form"))


def _asks_school_year(folded: Sequence[str]) -> int | None:
    """The position of "year" in "what year is Tomek in (now, at school)", "… and what year
    is he in", "which GRADE is Hania in now", "what CLASS is she in": the year a child is in
    at school, not a date — "in" closes the question one or two words after "is"."""
    for i in range(1, len(folded) - 3):
        asked = folded[i - 1] in _WHAT_YEAR_IS or (
            i > 1 and folded[i - 1] == "is" and folded[i - 2] == "what")
        if (folded[i] in _YEAR_AT_SCHOOL and asked and folded[i + 1] in ("is", "are", "s")
                and "in" in folded[i + 3:i + 5]):
            return i
    return None


_OCCUPATION = frozenset(("occupation", "position"))
_HOURS = frozenset(("office_hours", "shift", "schedule"))
_WORKS = frozenset(words_of("""work works worked working pracuje pracuju pracujesz pracujes
pracujeme pracuji pracujú pracujou robi robí robíš dělá dela"""))
"""Verbs of working: after "when" they ask someone's hours …"""
_WHO_DOES = frozenset(words_of("who kto kdo"))
_FOR_WHOM = frozenset(words_of("for dla pre pro kogo koho komu whom"))
_STAFF = frozenset(("staffing", "employee"))
"""… and after "who" (the one working), the staff — unless it asks for whom."""
def asks_since_when(folded: Sequence[str]) -> set[int]:
    """The words asking since when a fact holds ("OD kiedy Juraj ma prawo jazdy", "SINCE
    when", "ODKEDY"): every fact answers with the day it became true, so they ask for no
    relation of their own."""
    return {i for i, word in enumerate(folded) if word in _SINCE_WHEN or (
        word in _SINCE and folded[i + 1:i + 2] and folded[i + 1] in _WHEN_WORDS)}


_SINCE = frozenset(words_of("od since"))
_WHEN_WORDS = frozenset(words_of("kiedy kedy kdy when"))
_SINCE_WHEN = frozenset(words_of("odkiedy odkedy odkdy"))
_PAST_OR_START = frozenset(words_of("""did start starts started begin began begins zacal zacala
zacne zaczal zaczela zaczyna nastoupil nastoupila nastúpil nastúpila"""))
"""… unless the question asks when it began ("when did she start to work there")."""


def _asks_occupation(folded: Sequence[str]) -> int | None:
    """The position of "do" closing a "what does … do" question ("What does Zuzka do?",
    "what do you do now", "what does she do at the salon"): it asks someone's job, which
    "do" alone never says."""
    last = len(folded) - 1
    while last > 0 and folded[last] in _AFTER_DO:
        last -= 1
    place = [j for j in range(2, len(folded) - 1) if folded[j] == "do"
             and folded[j + 1] in _AT and len(folded) - j <= 5]
    if place and last != place[-1] and folded[last] != "do":
        last = place[-1]  # "what do Denisa and Veronika DO at the salon"
    if len(folded) > 3 and folded[0] in ("what", "whats") and folded[last] == "do" and (
            "does" in folded[1:last] or "do" in folded[1:last]):
        return last
    return None


def _what_changed(folded: Sequence[str], salient: Sequence[int]) -> set[int]:
    """In a question asking how a value changed, the words saying so that the concept table
    also knows ask nothing of their own: "how has Lumora's day rate MOVED" (no new
    address), "my phone number changed, OLD and new?" (no age)."""
    return {i for i in salient if asks_change_word(folded[i])
            or (folded[i] in _OLD and _NEW.intersection(folded))}


_OLD = frozenset(("old", "older"))
_NEW = frozenset(("new", "newer", "now"))
_BESIDES = frozenset(words_of("besides except excluding oprocz okrem okrom krome"))
"""… the word after them is what the answer leaves out ("What languages do I speak besides
CZECH?"), not what it asks."""
_THESE = frozenset(("these", "those", "many"))
"""… DAYS after them asks nothing ("what does Ela do after school these days", "how many
days do we have to pay"); "which days" asks days."""
_AFTER_DO = frozenset(words_of("now nowadays today currently days these for work exactly"))
_AT = frozenset(words_of("at in for"))


def _beside_a_person(i: int, written: Sequence[str], folded: Sequence[str],
                     concepts: ConceptTable) -> bool:
    """Whether a head noun's modifier is a person ("numer TEŚCIA", "číslo Marty", "MAMINO
    číslo", "OTCOVA adresa"): then it asks for that person's number or address, not for a
    kind of number ("numer pokoju") or address ("email address")."""
    if not head_kind(folded[i]):
        return False
    after, before = i + 1, i - 1
    if after < len(folded) and (bool(concepts.word_concepts(folded[after]) & concepts.roles)
                                or written[after][:1].isupper()):
        return True
    return before >= 0 and bool(concepts.word_concepts(folded[before]) & concepts.roles)


_ALSO_A_NUMBER = frozenset(("size",))
"""Concepts of a word for a number that alone still asks for a phone ("aké ČÍSLO má"; "číslo
topánok" is a shoe size: a head before its noun)."""


def _when_subordinate(folded: Sequence[str], when: int) -> bool:
    """Whether "when" opens a clause after the question asked by "which" or "what" ("WHICH
    children's doctor do we bring the kids to WHEN they're sick"): a time it applies, not
    a date asked for."""
    first = _first_of(folded, _WHICH)
    return first < when and first <= 1 and not JOINERS.intersection(folded[first:when])


def _first_of(folded: Sequence[str], wanted: frozenset[str]) -> int:
    """The position of the first of the `wanted` words (len(folded): none)."""
    return next((i for i, word in enumerate(folded) if word in wanted), len(folded))


def _phrases_of_small_words(folded: Sequence[str], concepts: ConceptTable,
                            dated: set[int]) -> set[int]:
    """The first word of a phrase of the concept table made only of words that alone say
    nothing ("UNTIL when", "DO kiedy", "od kdy"): it counts, for the phrase."""
    return {span.start for span in concepts.spans(folded) if span.end - span.start > 1
            and not span.concepts <= _CUED
            and all((folded[i] in STOP_WORDS or folded[i] in FILLERS) and i not in dated
                    for i in range(span.start, span.end))}  # "GOING out with"


_CUED = frozenset(("price",))
"""Concepts a cue already asks ("how much": AMOUNT_CUE)."""


def _own_concepts(folded: Sequence[str], span: Span, i: int,
                  concepts: ConceptTable) -> frozenset[str]:
    """A word's own concepts inside a phrase each of whose words has some, none of them
    the phrase's: "MONTHLY FEE" is a payment, and a monthly fee (`mesicni_odmena`); "rent …
    FROM" is only a landlord, "FAMILY DOCTOR" only the doctor it names."""
    if span.tail or span.end - span.start < 2:
        return frozenset()
    own = [concepts.word_concepts(folded[j]) for j in range(span.start, span.end)]
    if not all(own) or any(span.concepts & each for each in own):
        return frozenset()
    return own[i - span.start]


def joins(read: Reading) -> bool:
    """Whether the question joins two things it asks ("phone AND e-mail", "telefon I
    mail", "telefón A mail"); "miesięczna opłata za leasing" asks one."""
    joiners = _AND_SLAVIC if in_slavic(read.folded) else _AND_ENGLISH
    return bool(joiners.intersection(read.folded[1:]))  # "AND his bank account?": a part


_AND_ENGLISH = frozenset(words_of("and plus"))
_AND_SLAVIC = frozenset(words_of("i a oraz plus"))
JOINERS = _AND_ENGLISH | _AND_SLAVIC
"""Words joining two things asked ("phone AND e-mail", "mama I teść")."""
