"""Words as both sides of retrieval read them (SPEC §7): the indexer for stored text and
the question analysis (memrepo.answer.question) alike, so that both agree.

Text is folded (memrepo.core.text.fold) and split into words (`WORD`, `tokens`); each word
gets its base forms: Snowball stems (PyStemmer: C, ≈1 ms to load three stemmers, ≈0.1 µs a
word) for English, Polish and Czech — Czech stands in for Slovak, which Snowball lacks; the
Polish stemmer covers the Slovak forms the Czech one misses — plus a light Polish/Slovak
ending stripper. No language detection: a word gets the stems of all three languages,
stored text likewise (`stem_column`), and any shared stem matches ("czynszu" finds
"czynsz", "płaciłem" finds "płacę"). simplemma's lemmas were measured as the alternative
(in an earlier round): no better on these questions, and its dictionaries take seconds to
load in a fresh process.
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

from memrepo.core.text import fold, words_of

WORD = re.compile(r"[^\W_]+")
"""A word: a run of letters and digits (FTS5's unicode61 tokenizer also splits at "_")."""
_STEMMED_LANGUAGES = ("english", "polish", "czech")
_MIN_STEM = 3
"""Stems shorter than this are not used (Snowball cuts short words to noise: "ma" → "m")."""

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
    fleeting = folded[:-2] + "l"  # "Pavel", "Paweł": the "Pavla", "Pawła" of its cases
    if _FLEETING_E.fullmatch(folded) and fleeting not in forms:
        forms.append(fleeting)
    for softened, hard in _SOFTENED_DENTALS:  # "pani RENACIE", "u WANDZIE": Renat(a), Wand(a)
        if len(folded) > 5 and folded.endswith(softened) and (
                unsoftened := folded[:-len(softened)] + hard) not in forms:
            forms.append(unsoftened)
    return tuple(forms)


_FLEETING_E = re.compile(r"[a-z]{2,}[^aeiouy]el")
"""A word whose closing -el loses its e when inflected, as Slavic names do ("Pavel" →
"Pavla", "Karel" → "Karla", "Paweł" → "Pawła")."""


_LIGHT_SUFFIXES = sorted(words_of("""
owalismy owaliscie ovalismy alismy aliscie ilismy iliscie elismy eliscie ylismy yliscie
alysmy alyscie ilysmy ilyscie elysmy elyscie owales owalas ales alas iles ilas eles elas
ovali ovala ovalo owala owali owalo owalam owalem ilam ilem alam alem elam elem
ujeme ujete ujesz ujemy ujem ujes uje uju ovat owac owal oval ame ate aju
ime ite eme ete ala alo ali ila ilo ili ela elo eli iac ic ac ec at it et iet am as im is
em es al il el ia ow ami ach iach om ych ego emu ej ym a i e y u o"""), key=len, reverse=True)
"""Verb and case endings of Polish and Slovak, folded. Snowball has no Slovak stemmer
and its Czech and Polish ones leave verbs apart ("bývam" byv / "bývala" byval, "platím"
plat / "platila" platil), and Polish past tenses of "we", "you" apart from "I"
("płaciliśmy", "płaciłeś" / "płaciłem"); cutting these endings joins them (byv, plat,
plac)."""
_SOFTENED_DENTALS = (("cie", "t"), ("dzie", "d"))
"""The Polish dative and locative soften a closing -ta, -da ("pani Renacie", "Marcie",
"o Wandzie"): the stem before the hard consonant is a base form too."""
_SOFTENED_R = "rze"
"""The Polish locative and vocative soften a closing r ("w Miodowym Dworze", "o Piotrze")."""
ANALYSIS = " ".join((*_STEMMED_LANGUAGES, *sorted((*_LIGHT_SUFFIXES, f"{_SOFTENED_R}>r",
                                                   "Cel>Cl", *(f"{soft}>{hard}" for soft, hard
                                                               in _SOFTENED_DENTALS)))))
"""What decides a word's base forms: part of the cache's fingerprint, so a cache whose
stored forms an older analysis made is rebuilt, never half-matched."""


_LIGHT_BY_LENGTH = tuple((size, frozenset(s for s in _LIGHT_SUFFIXES if len(s) == size))
                         for size in sorted({len(s) for s in _LIGHT_SUFFIXES}, reverse=True))
"""The same endings by length, longest first: one set look-up per length instead of an
`endswith` per ending (a re-index after a checkout stems every word of its notes)."""


def _light_stem(folded: str) -> str:
    """`folded` without the longest of _LIGHT_SUFFIXES it ends with that leaves a stem of
    _MIN_STEM letters."""
    if len(folded) < 4 or not folded.isalpha():
        return folded
    if len(folded) > 5 and folded.endswith(_SOFTENED_R):  # "Dworze", "Piotrze": dwór, Piotr
        return folded[:-2]
    for size, endings in _LIGHT_BY_LENGTH:
        if len(folded) - size >= _MIN_STEM and folded[-size:] in endings:
            return folded[:-size]
    return folded


def stem_column(text: str) -> str:
    """Stored text for the index's base-form column: for every word, its base forms other
    than the folded word itself (which the folded column already holds), as often as the
    word occurs. Each distinct word is stemmed once (and remembered across notes)."""
    return stem_words(text_words(text))


NUMBER_WORD = re.compile(r"(?<![^\W_])[0-9]+(?![^\W_])")
"""A word of ASCII digits alone: it has no base form besides itself (`extra_forms`), so
every one stands for all in `stem_column` ("hand 17" and "hand 5" have the base forms of
"hand 0": 100k new keys of a hand-appended log are a few shapes)."""


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
    listed = words if isinstance(words, list) else list(words)
    if len(listed) <= _FEW_WORDS and len(set(listed)) == len(listed):
        return "".join(map(_EXTRA_TEXT.__getitem__, listed))[:-1]  # each word once
    counts = Counter(listed)
    text = "".join(map(operator.mul, map(_EXTRA_TEXT.__getitem__, counts), counts.values()))
    return text[:-1]


_FEW_WORDS = 8
"""A text of this many words or fewer, none repeated (a key's subject, a short value:
100k of them in a hand-appended log), is joined without counting its words first."""


class _ExtraText(dict[str, str]):
    """word → its `extra_forms` (a marked compound: every base form of its joined form)
    joined, each followed by a space ("" for none), made the first time a word is met; at
    most _EXTRA_WORDS words are kept."""

    def __missing__(self, word: str) -> str:
        if word.isdigit() and word.isascii():
            return ""  # `extra_forms`: a number has none; not kept (values hold many)
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
    if word.isascii() and word.isdigit():
        return ()  # every stemmer leaves a number as it is: a value's many numbers skip them
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

