"""A question as retrieval sees it (SPEC §7 "Retrieval from the question").

Text is folded (memrepo.core.text.fold), split into words, and the dates and periods in
it are read (memrepo.core.when); what is left, without stop words (en/pl/sk), are the
salient words, each with its base forms. Stored text gets the same base forms
(`stem_column`), so "czynszu" finds "czynsz" and "płaciłem" finds "płacę".

Base forms are Snowball stems (PyStemmer: C, ≈1 ms to load three stemmers, ≈0.1 µs a
word) for English, Polish and Czech — Czech stands in for Slovak, which Snowball lacks;
the Polish stemmer covers the Slovak forms the Czech one misses. No language detection:
a word gets the stems of all three languages, stored text likewise, and any shared stem
matches. simplemma's lemmas were measured as the alternative (in an earlier round): no
better on these questions, and its dictionaries take seconds to load in a fresh process.
"""

from __future__ import annotations

import itertools
import operator
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from memrepo.core.bitemporal import FOREVER
from memrepo.core.stopwords import STOP_WORDS, words_of
from memrepo.core.text import fold
from memrepo.core.times import Instant, format_instant, format_valid_time
from memrepo.core.when import When, find_times, numeric_dates_as_iso

WORD = re.compile(r"[^\W_]+")
"""A word: a run of letters and digits (FTS5's unicode61 tokenizer also splits at "_")."""
_STEMMED_LANGUAGES = ("english", "polish", "czech")
_MIN_STEM = 3
"""Stems shorter than this are not used (Snowball cuts short words to noise: "ma" → "m")."""

_CHANGE_STEMS = ("chang", "zmien", "zmian", "zmen", "histor", "evolv")
"""Words that ask how a value changed over time ("when did my rent change?", "kiedy
zmienił się czynsz?", "kedy sa zmenil nájom?"): the answer is the key's history."""


_AMOUNT_WORDS = frozenset({"ile", "kolko", "kolik"})
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
_ARTICLES = frozenset(words_of("the a an"))
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


def tokens(text: str) -> list[tuple[str, str]]:
    """(word as written in lower case, folded word) pairs. A word whose folding is not
    one word ("①" → "(1)", a CJK letter → "Ji"; a letter folding to nothing) gives the
    folded words, each standing for itself: FTS5 sees the folded text, so both sides
    agree on what a word is."""
    out: list[tuple[str, str]] = []
    for raw in WORD.findall(unicodedata.normalize("NFC", text).lower()):
        folded = fold(raw)
        if WORD.fullmatch(folded):
            out.append((raw, folded))
        else:
            out.extend((part, part) for part in WORD.findall(folded))
    return out


def analyse(text: str, now: Instant) -> Question:
    """Salient words with base forms, the times asked about, and whether the question
    asks how something changed."""
    pairs = tokens(numeric_dates_as_iso(text, now))
    raw = [word for word, _ in pairs]
    folded = [word for _, word in pairs]
    times = find_times(folded, now)
    asks_change = any(word.startswith(_CHANGE_STEMS) for word in folded)
    asks_amount = bool(_AMOUNT_WORDS & set(folded)) or any(
        a == "how" and b in ("much", "many") for a, b in itertools.pairwise(folded))
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


def kind_positions(folded: Sequence[str]) -> set[int]:
    """Positions of words naming the kind of the answer: right after a which-word, or
    between an article and a pronoun ("did THE LANGUAGES I speak change"), in a question
    with no copula right after it and no possessive anywhere after it."""
    after_which = {i + 1 for i, word in enumerate(folded[:-1]) if word in _WHICH_WORDS}
    before_pronoun = {i for i in range(1, len(folded) - 1)
                      if folded[i - 1] in _ARTICLES and folded[i + 1] in _PRONOUNS}
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


HEAD_NUMBER, HEAD_ADDRESS = "number", "address"
_HEAD_NOUNS = {**dict.fromkeys(words_of("number numbers nr numer numeru numery cislo cisla"),
                               HEAD_NUMBER),
               **dict.fromkeys(words_of("address adres adresu adresa"), HEAD_ADDRESS)}
"""Head nouns and the kind of value each asks for: a number has digits; an address has
digits or an @."""


def _capitalised(text: str, terms: Mapping[str, Term]) -> tuple[str, ...]:
    written = WORD.findall(unicodedata.normalize("NFC", text))[1:]
    names = (fold(word) for word in written if word[:1].isupper())
    return tuple(dict.fromkeys(name for name in names if name in terms))


@lru_cache(maxsize=1 << 16)
def base_forms(word: str) -> tuple[str, ...]:
    """The folded stems of one lower-cased word in every stemmed language, the folded
    word itself first; stems shorter than three letters are dropped."""
    folded = fold(word)
    forms = [folded]
    for stemmer in _stemmers():
        stem = fold(stemmer.stemWord(word))
        if len(stem) >= _MIN_STEM and stem not in forms:
            forms.append(stem)
    light = _light_stem(folded)
    if light not in forms:
        forms.append(light)
    return tuple(forms)


_LIGHT_SUFFIXES = sorted(words_of("""
ovali ovala ovalo owala owali owalo owalam owalem ilam ilem alam alem elam elem
ujeme ujete ujesz ujemy ujem ujes uje uju ovat owac owal oval ame ate aju
ime ite eme ete ala alo ali ila ilo ili ela elo eli iac ic ac ec at it et iet am as im is
em es al il el ia ow ami ach iach om ych ego emu ej ym a i e y u o"""), key=len, reverse=True)
"""Verb and case endings of Polish and Slovak, folded. Snowball has no Slovak stemmer
and its Czech and Polish ones leave verbs apart ("bývam" byv / "bývala" byval, "platím"
plat / "platila" platil); cutting these endings joins them (byv, plat)."""


_LIGHT_BY_LENGTH = tuple((size, frozenset(s for s in _LIGHT_SUFFIXES if len(s) == size))
                         for size in sorted({len(s) for s in _LIGHT_SUFFIXES}, reverse=True))
"""The same endings by length, longest first: one set look-up per length instead of an
`endswith` per ending (a re-index after a checkout stems every word of its notes)."""


def _light_stem(folded: str) -> str:
    """`folded` without the longest of _LIGHT_SUFFIXES it ends with that leaves a stem of
    _MIN_STEM letters."""
    if len(folded) < 4 or not folded.isalpha():
        return folded
    for size, endings in _LIGHT_BY_LENGTH:
        if len(folded) - size >= _MIN_STEM and folded[-size:] in endings:
            return folded[:-size]
    return folded


def stem_column(text: str) -> str:
    """Stored text for the index's base-form column: for every word, its base forms other
    than the folded word itself (which the folded column already holds), as often as the
    word occurs. Each distinct word is stemmed once (and remembered across notes)."""
    return stem_words(text_words(text))


def text_words(text: str) -> list[str]:
    """The lower-cased words of a text, in order, as `stem_column` reads them, then each
    hyphenated compound written as one word and marked (`_JOINED`). The words of a text are
    those of its lines one after another (no word spans a line)."""
    lowered = unicodedata.normalize("NFC", text).lower()
    if "-" not in lowered:
        return WORD.findall(lowered)
    words: list[str] = []
    for token in _HYPHENATED.findall(lowered):
        if "-" not in token:
            words.append(token)
            continue
        parts = token.split("-")
        words += parts
        if parts[0] not in _PREFIXES and all(part.isalpha() for part in parts):
            words.append(_JOINED + "".join(parts))
    return words


_PREFIXES = frozenset(words_of("re pre de un non anti mis dis over under"))
"""A compound that starts with one of these is not joined: "re-sign" is not "resign",
"re-cover" not "recover"."""


_HYPHENATED = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
"""Words (`WORD`) joined by hyphens, or one word. A compound is such a run of letters only:
"check-up", "e-mail", "follow-up" — not "2026-03-04", "covid-19" or a slug with a number
("piotr-nystrom-23"), whose parts are indexed alone."""
_JOINED = "-"
"""Marks a compound in `text_words`: its joined form ("checkup") is stored with its base
forms, so a question that writes it as one word ("checkups", "email") finds it; the
folded column already holds its parts."""


def stem_words(words: Iterable[str]) -> str:
    """`stem_column` of the text whose `text_words` are `words`: for each distinct word, in
    the order first seen, its base forms other than itself (a marked compound: all of
    its joined form's), repeated as often as it occurs. Joined without a Python step per
    word (a cache build stems millions): each word's forms are kept as one string ending
    in a space, repeated by the count."""
    counts = Counter(words)
    text = "".join(map(operator.mul, map(_EXTRA_TEXT.__getitem__, counts), counts.values()))
    return text[:-1]


class _ExtraText(dict[str, str]):
    """word → its `extra_forms` (a marked compound: every base form of its joined form)
    joined, each followed by a space ("" for none), made the first time a word is met; at
    most _EXTRA_WORDS words are kept."""

    def __missing__(self, word: str) -> str:
        if len(self) >= _EXTRA_WORDS:
            self.clear()
        forms = base_forms(word[1:]) if word[0] == _JOINED else extra_forms(word)
        text = "".join(form + " " for form in forms)
        self[word] = text
        return text


_EXTRA_WORDS = 1 << 18
_EXTRA_TEXT = _ExtraText()


def extra_forms(word: str) -> tuple[str, ...]:
    """The base forms of one lower-cased word other than its folding."""
    folded = fold(word)
    if not WORD.fullmatch(folded):  # folds to several words: the folded column has them
        return ()
    return base_forms(word)[1:]


class _Stemmer(Protocol):
    def stemWord(self, word: str) -> str: ...


@lru_cache(maxsize=1)
def _stemmers() -> tuple[_Stemmer, ...]:
    import Stemmer  # PyStemmer; ≈1 ms

    return tuple(Stemmer.Stemmer(language) for language in _STEMMED_LANGUAGES)


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
