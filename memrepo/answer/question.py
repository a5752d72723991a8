"""A question as retrieval sees it (SPEC §7 "Retrieval from the question").

Text is folded and split into words as stored text is (memrepo.core.stems), and the
dates and periods in it are read (memrepo.answer.when); what is left, without stop words
(en/pl/sk), are the salient words, each with its base forms (`stems.base_forms`), which
stored text has too, so "czynszu" finds "czynsz" and "płaciłem" finds "płacę".
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memrepo.answer.dates import When
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.answer.when import find_times, month_names_as_names, numeric_dates_as_iso
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.times import Instant, format_instant, format_valid_time
from memrepo.core.stems import WORD, base_forms, tokens
from memrepo.core.text import fold, words_of

_CHANGE_STEMS = ("chang", "zmien", "zmian", "zmen", "histor", "evolv", "switch", "swapp",
                 "swap", "przeprowadz", "presun", "prestehov", "vymen", "wymien", "increas",
                 "decreas", "podwyz", "podroz", "zdroz", "zvys", "zdraz", "zlacn", "obniz",
                 "menil", "menila", "menili", "menilo", "podnies", "podniosl", "podniesl",
                 "przesun", "przesuw", "przeloz", "preloz", "vyvij", "develop")
_GO = frozenset(("go", "goes", "went", "gone", "going"))
_PUT = frozenset(("put", "puts", "putting"))
"""… UP: "when did the dairy put the price up", "put up the rent"""
"""… UP / DOWN: "when did the price go up" asks how it changed."""
_CHANGE_WORDS = frozenset(("move", "moved", "moving", "moves", "raised", "rose", "dropped",
                           "raise", "raises", "raising", "hike", "hiked", "hikes", "bumped",
                           "doteraz", "dotychczas", "dosud", "doposud", "dotad", "grew",
                           "grown", "rosl", "rosla", "roslo", "rosly", "wzrosl", "wzrosla",
                           "wzroslo", "wzrosly", "rastol", "rastla", "rastlo", "vzrastol",
                           "vzrastla", "rostl", "rostla", "rostlo", "vzrostl", "vzrostla",
                           "spadl", "spadla", "spadlo", "klesol", "klesla", "klesl", "fell"))
"""Words that ask how a value changed over time ("when did my rent change?", "kiedy
zmienił się czynsz?", "kedy sa zmenil nájom?"): the answer is the key's history."""


_AMOUNT_WORDS = frozenset({"ile", "kolko", "kolik"})
_DOES = frozenset(("do", "does", "did", "will", "would"))
_AMOUNT_STEMS = ("cost", "koszt", "wynos", "price", "cena", "cen", "stoj", "stal", "pay",
                 "paid", "earn", "spen", "charg", "plac", "plat", "zaplac", "zaplat",
                 "zarab")
"""Words that ask for an amount ("what did it cost", "how much do I pay", "ile kosztował",
"ile wynosił", "koľko stojí", "koľko platím"): a key whose value is a number answers them
even when its text lacks them."""

_WHICH_WORDS = frozenset(words_of("""
what which whichever jaki jaka jakie jakich jakim jakimi jakiego jakiej ktory ktora ktore
ktorych ktorym ktorymi ktorego ktorej aky aka ake aki akych akymi akym akeho akej aku ktori
ktoru ktorou ktorom ktoreho"""))
"""Words that ask which one of a kind ("which languages do I speak", "jakie języki znam"):
the word right after one names the kind of the answer, which a stored value seldom names —
"English" is recorded, "language" is not (`kind_positions`)."""
_COPULAS = frozenset(words_of("""
is are was were s jest sa byl byla bylo byli je su bol bola bolo boli"""))
POSSESSIVES = frozenset(words_of("""
my our moj moja moje moi mojego mojej moim nasz nasza nasze naszego mojho mojom nas nase"""))
"""A kind word followed by a copula ("what colour IS my car") or in a question that says
whose ("which language does MY wife…") asks for a property of something: the key's
relation ("colour"), which must then be in memory."""
ARTICLES = frozenset(words_of("the a an"))
_PRONOUNS = frozenset(words_of("i you we he she they"))
"""An article, a word, a pronoun: "did THE LANGUAGES I speak change" names the kind too."""
_FIRST_PERSON = frozenset(words_of("i we"))
_STATE_VERBS = frozenset(words_of("""
drive drives own owns ride rides speak speaks wear wears keep keeps play plays live lives
drink drinks eat eats read reads watch watches take takes"""))
"""Verbs of what one has or habitually does. In "what/which KIND do I VERB" (KIND: the
kind of the answer) such a verb names the relation of a key whose subject is the kind —
"What car do I drive?" asks for `car.model` — and a key lacking it still answers. Any
other verb ("Where do I park the car?", "Which car do I hate?", "What car does she
want?") is a word the key must hold."""
_NAMING = frozenset(words_of("""
name names named called nazwa nazwe nazwy imie imienia nazywa nazywal nazywala meno mena
vola volal volala"""))
"""Words asking what something is called ("What is the vet's name?", "Jak się nazywa…",
"Ako sa volá…"): the answer is the name itself, which a note writes without saying so,
and a key holds under a relation such as `name` (_NAME_RELATIONS)."""
_NAME_RELATIONS = ("name", "imie", "nazwa", "meno")
"""Relations that hold a name: "What is my cat called?" finds `cat.name`."""

_SAME_PERSON = tuple(words_of(group) for group in (
    "father dad daddy papa", "mother mom mum mommy mummy mama", "child kid", "children kids",
    "grandfather grandpa granddad", "grandmother grandma granny", "ojciec tata tato tatus",
    "matka mama mamusia", "dziecko dzieciak", "dziadek dziadzius", "babcia babunia",
    "otec ocko", "dieta decko", "dedo dedko", "babka babicka"))
"""Words for one member of a family in a formal and a familiar register ("my dad", "your
father"): a question's word also finds the others."""
_SAME_PERSON_OF = {word: frozenset().union(*(g for g in _SAME_PERSON if word in g))
                   for group in _SAME_PERSON for word in group}
"""Word → every word of the groups that hold it ("mama" is English and Polish)."""


def same_person(forms: Sequence[str]) -> tuple[str, ...]:
    """The other words for the family member one of `forms` names (`_SAME_PERSON`)."""
    found = {other for form in forms for other in _SAME_PERSON_OF.get(form, ())}
    return tuple(sorted(found.difference(forms)))


MAX_QUERY_CHARS = 2_000
"""The longest question recall, search and the context block read."""


@dataclass(frozen=True, slots=True)
class Term:
    """One salient word of a question: as written (lower case), folded, and its folded
    base forms."""

    raw: str
    word: str
    bases: tuple[str, ...]
    amount: bool = False  # asks for an amount: numeric values match it
    kind: bool = False  # names the kind of the answer ("which languages"): a word the
    # memory lacks is then not held against a hit (relevance.word_weights)
    opening: bool = False  # the question's first word (a misspelt question word there is
    # read as one: relevance.plan)
    naming: bool = False  # asks what something is called ("the vet's NAME"): a note about
    # it seldom says "name" (relevance.word_weights)
    verb: bool = False  # "what KIND do I VERB" with a verb of having or habit (_STATE_VERBS):
    # the relation in other words (relevance.word_weights); not after "did": "what car did I
    # sell" asks for an event, which `car.model` does not answer
    head: str = ""  # a head noun beside another word ("phone NUMBER", "NUMER telefonu"): the
    # kind of value it asks for (HEAD_NUMBER, HEAD_ADDRESS), said by a key whose relation
    # holds that word and whose value is of that kind (relevance.word_weights)


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    terms: tuple[Term, ...]
    valid: When | None  # the valid time asked about; None = now
    known: When | None  # the system time asked about; None = now
    asks_change: bool
    asks_amount: bool  # "how much/many", "ile", "koľko": the answer is a number
    also_searched: tuple[Term, ...] = ()  # words notes are also searched by that do not
    # count in coverage: those of the date phrases ("april", "2026": a note's text carries
    # its dates) and the change words ("change" is a noun in "the next oil change")
    names: tuple[str, ...] = ()  # folded salient words written with a capital letter
    # after the first word ("What did Caroline paint?"): notes holding them rank higher

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(term.word for term in self.terms)


_TERMINAL_CODES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")


def without_terminal_codes(text: str) -> str:
    """The text without terminal escape sequences (colour, cursor, title: "\x1b[31m"), which
    a pasted question may carry and whose letters would be read as words ("31m")."""
    return _TERMINAL_CODES.sub("", text) if "\x1b" in text else text


_COPULA = re.compile(r"(?<=\w)['’]s(?=\s+(?:the|my|our|your|his|her|their|this|that)\b)",
                     re.IGNORECASE)
"""An "'s" before "the", "my", … is "is", never a possessive ("what MODEL'S the kiln",
"which plot's my allotment": nothing of a model's or a plot's)."""


def what_is_paid(folded: Sequence[str]) -> bool:
    """"WHAT does a student PAY for one more hour", "what do I CHARGE a lady for a cut":
    "what" is the amount paid; "ILE PŁACILIŚMY za biuro", "KOĽKO STOJÍ parkovanie": how
    much, not how many."""
    return (len(folded) > 2 and folded[0] == "what" and folded[1] in _DOES and any(
        word.startswith(_AMOUNT_STEMS) for word in folded[2:6])) or any(
        word in _AMOUNT_WORDS and any(w.startswith(_AMOUNT_STEMS) for w in folded[i + 1:i + 3])
        for i, word in enumerate(folded))


def analyse(text: str, now: Instant) -> Question:
    """Salient words with base forms, the times asked about, and whether the question
    asks how something changed."""
    text = _COPULA.sub(" is", text)
    pairs = tokens(numeric_dates_as_iso(text, now))
    raw = [word for word, _ in pairs]
    folded = [word for _, word in pairs]
    times = find_times(month_names_as_names(text, folded), now)
    asks_change = any(map(asks_change_word, folded)) or any(
        a in _GO and b in ("up", "down") for a, b in itertools.pairwise(folded)) or any(
        a in _PUT and "up" in folded[i + 1:i + 5] for i, a in enumerate(folded)) or (
        _had_so_far(folded, times.used)) or _before_as_well(folded, times.used)
    asks_amount = bool(_AMOUNT_WORDS & set(folded)) or any(
        a == "how" and b in ("much", "many") for a, b in itertools.pairwise(folded)) or (
        what_is_paid(folded))
    kept = [i for i, word in enumerate(folded)
            if i not in times.used and not word.startswith(_CHANGE_STEMS)]
    salient = [i for i in kept if folded[i] not in STOP_WORDS]
    if not salient:  # a question of stop words only still searches for something
        salient = kept
    kinds = kind_positions(folded)
    verbs = {i + 2 for i, (aux, pronoun) in enumerate(itertools.pairwise(folded[:-1]))
             if aux == "do" and pronoun in _FIRST_PERSON and folded[i + 2] in _STATE_VERBS
             } if kinds else set()
    heads = head_positions(folded, set(salient))
    terms: dict[str, Term] = {}
    for i in salient:
        naming = folded[i] in _NAMING
        bases = base_forms(raw[i]) + (_NAME_RELATIONS if naming else ())
        bases += same_person(bases)
        terms.setdefault(folded[i], Term(raw[i], folded[i], tuple(dict.fromkeys(bases)),
                                         folded[i].startswith(_AMOUNT_STEMS), i in kinds,
                                         i == 0, naming, i in verbs,
                                         _HEAD_NOUNS.get(folded[i], "") if i in heads else ""))
    also = {folded[i]: Term(raw[i], folded[i], base_forms(raw[i]))
            for i in sorted({*times.used, *(i for i, word in enumerate(folded)
                                            if word.startswith(_CHANGE_STEMS))})
            if folded[i] not in STOP_WORDS}
    return Question(text, tuple(terms.values()), times.valid, times.known, asks_change,
                    asks_amount, tuple(also.values()), _capitalised(text, terms))


def _before_as_well(folded: Sequence[str], dated: frozenset[int]) -> bool:
    """"… before AND now", "predtým a teraz", "przedtem": what it was before, not just
    now — "before" with no date after it ("before September" is a time)."""
    earlier = any(word in _BEFORE and (i + 1 == len(folded) or i + 1 not in dated)
                  for i, word in enumerate(folded)) or (  # "Kto BYŁ …, A kto jest TERAZ?"
        bool(_WAS.intersection(folded)) and bool(_JOINED.intersection(folded[1:])))
    return earlier and bool(_NOW_TOO.intersection(folded))


EARLIER = frozenset(words_of("""previously formerly earlier przedtem wczesniej predtym
predtim skor driv dawniej kiedys kedysi kdysi niegdys"""))
"""Words saying "before" with no date: with one saying "now", the values over time are
asked; alone they ask nothing (`reading.OPTIONAL`)."""
_BEFORE = EARLIER | {"before"}
_NOW_TOO = frozenset(words_of("""now after currently today teraz obecnie teraz ted
terazky dnes po"""))
WHEN_ONLY = _NOW_TOO | _BEFORE
"""Words that say only at what time a part of a text asks ("… a čím TEĎ?")."""
_WAS = frozenset(words_of("was were byl byla bylo byli byly bol bola bolo boli"))
_JOINED = frozenset(words_of("and a i"))


def _had_so_far(folded: Sequence[str], dated: frozenset[int]) -> bool:
    """"… so far", "which vans HAVE we HAD", "what cars HAS the salon HAD", "OVER THE
    YEARS", "DO TEJ PORY", "aké autá SME MALI", "KTO VŠETKO u nás učil", "FROM WHOM TO
    WHOM", "Z KEDY NA KEDY": every value the key has held (a past "had" without a date)."""
    pairs = list(itertools.pairwise(folded))
    text = f" {' '.join(folded)} "
    return ("so", "far") in pairs or any(
        word in ("have", "has") and "had" in folded[i + 2:i + 5]
        for i, word in enumerate(folded)) or any(
        phrase in text for phrase in _SO_FAR) or any(
        a in _ALL_OF and b in _EVERY for a, b in pairs) or _from_to_the_same(folded) or (
        not dated and (bool(_WE_HAD.intersection(folded))
                       or bool(_HAD_PAIRS.intersection(pairs))))


_SO_FAR = tuple(f" {phrase} " for phrase in (
    "over the years", "through the years", "all these years", "do tej pory", "przez lata",
    "przez te lata", "za tie roky", "za ty roky", "v priebehu rokov", "v průběhu let",
    "odkedy si to zapisujeme", "od kiedy to zapisujemy", "who all", "what all",
    "na przestrzeni lat", "przez wszystkie lata", "za vsetky roky", "za vsechny roky",
    "all the years"))
_ALL_OF = frozenset(words_of("kto kogo co czego kde gdzie kdo koho co"))
_EVERY = frozenset(words_of("""vsetko vsetci wszystko wszyscy vsechno vsichni vsade wszedzie
vsude"""))
""""KTO VŠETKO u nás učil", "KDE VŠADE som býval": everyone who ever did, every place."""
_WE_HAD = frozenset(words_of("mielismy mieli mialy mialysmy mialam mialem"))
_HAD_PAIRS = frozenset(itertools.product(words_of("sme som jsme jsem"),
                                         words_of("mali mala mal meli mela mel"))) | (
    frozenset(itertools.product(words_of("mali meli"), words_of("sme jsme"))))
"""The past of "to have" with no date ("aké autá sme mali", "jaká auta jsme měli"): the
things had over time."""
_FROM = frozenset(words_of("from z zo ze od"))
_TO = frozenset(words_of("to na do k ku"))
_ASKING = frozenset(words_of("""what where whom who when which kedy kde koho kto co coho
kdy kdo ceho kiedy gdzie kogo czego czym"""))


def _from_to_the_same(folded: Sequence[str]) -> bool:
    """"from WHOM to WHOM", "z KEDY na KEDY", "od koho ku komu": a change asked."""
    froms = {folded[i + 1] for i in range(len(folded) - 1)
             if folded[i] in _FROM and folded[i + 1] in _ASKING}
    return any(folded[i] in _TO and folded[i + 1] in froms for i in range(len(folded) - 1))


def asks_change_word(word: str) -> bool:
    """Whether a folded word asks how a value changed ("changed", "zmienił", "switch")."""
    return word.startswith(_CHANGE_STEMS) or word in _CHANGE_WORDS


def kind_positions(folded: Sequence[str]) -> set[int]:
    """Positions of words naming the kind of the answer: right after a which-word, or
    between an article and a pronoun ("did THE LANGUAGES I speak change"), in a question
    with no copula right after it and no possessive anywhere after it."""
    after_which = {i + 1 for i, word in enumerate(folded[:-1]) if word in _WHICH_WORDS}
    before_pronoun = {i for i in range(1, len(folded) - 1)
                      if folded[i - 1] in ARTICLES and folded[i + 1] in _PRONOUNS}
    return {i for i in after_which | before_pronoun
            if not _COPULAS.intersection(folded[i + 1:i + 2])
            and not POSSESSIVES.intersection(folded[i + 1:])}


def head_positions(folded: Sequence[str], salient: set[int]) -> set[int]:
    """Positions of head nouns (_HEAD_NOUNS) right before or after another salient word:
    "the dentist's phone NUMBER", "NUMER telefonu", "email ADDRESS". Such a noun says
    what kind of value the word beside it has; a key whose relation is that word answers
    without it."""
    return {i for i in salient if folded[i] in _HEAD_NOUNS
            and ({i - 1, i + 1} & salient) - {j for j in salient if folded[j] in _HEAD_NOUNS}}


def head_nouns() -> tuple[str, ...]:
    """Every head noun (folded): the words a misspelt "nubmer" may be."""
    return tuple(_HEAD_NOUNS)


def head_kind(word: str) -> str:
    """The kind of value a head noun asks for (HEAD_NUMBER, HEAD_ADDRESS), or ''."""
    return _HEAD_NOUNS.get(word, "")


HEAD_NUMBER, HEAD_ADDRESS = "number", "address"
_HEAD_NOUNS = {**dict.fromkeys(words_of("""number numbers nr numer numeru numery numerow cislo
                                         cisla cisel"""), HEAD_NUMBER),
               **dict.fromkeys(words_of("""address addresses adres adresu adresa adresy adries
                                         adresow adresach"""), HEAD_ADDRESS)}
"""Head nouns and the kind of value each asks for: a number has digits; an address has
digits or an @."""


def _capitalised(text: str, terms: Mapping[str, Term]) -> tuple[str, ...]:
    written = WORD.findall(unicodedata.normalize("NFC", text))[1:]
    names = (fold(word) for word in written if word[:1].isupper())
    return tuple(dict.fromkeys(name for name in names if name in terms))


def find_names(words: Sequence[str], spellings: Mapping[str, Sequence[str]],
               ) -> dict[str, tuple[int, int]]:
    """Names whose spelling (the name or an alias) occurs in `words` as whole folded
    words: name → the [first, last) word positions of its longest occurrence."""
    found: dict[str, tuple[int, int]] = {}
    for name, texts in spellings.items():
        for text in texts:
            wanted = [word for _, word in tokens(text)]
            size = len(wanted)
            for start in range(len(words) - size + 1) if size else ():
                if list(words[start:start + size]) == wanted:
                    old = found.get(name)
                    if old is None or old[1] - old[0] < size:
                        found[name] = (start, start + size)
    return found


@dataclass(frozen=True, slots=True)
class Window:
    """The valid times a question asks about, [start, end), and the system time: one
    instant (end = start + 1), a period, or the whole history ("when did it change")."""

    start: Instant
    end: Instant
    known: Instant
    period: bool
    history: bool

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"known_at": format_instant(self.known)}
        if self.history:
            data["history"] = True
        if self.start > -FOREVER:
            data["valid_from"] = format_valid_time(self.start)
        if self.period and self.end < FOREVER:
            data["valid_to"] = format_valid_time(self.end)
        return data



def window(question: Question, now: Instant, as_of: Instant | None = None,
           known_at: Instant | None = None) -> Window:
    """Explicit times (as_of, known_at) win over the question's own; a period is cut at
    now unless it lies wholly in the future."""
    known = known_at if known_at is not None else (
        question.known.start if question.known is not None else now)
    valid = question.valid if as_of is None else None
    if as_of is not None:
        start, end, period = as_of, as_of + 1, False
    elif valid is not None and valid.end is not None and valid.is_period:
        start, end, period = valid.start, min(valid.end, max(now, valid.start + 1)), True
    else:
        start = valid.start if valid is not None else now
        end, period = start + 1, False
    if question.asks_change:
        if not period:
            start, end = -FOREVER, FOREVER
        return Window(start, end, known, True, True)
    return Window(start, end, known, period, False)
