"""Whether a question's words spell a name (memrepo.answer.subjects): the same words, or
the name's words inflected ("Pixela", "mama Agnieszki", "Marks city"), a name written with
a capital letter with the "e" its stem drops ("BARTKA" of Bartek), a three-letter name
in -a in a possessive or a case ("EMINA triedna", "z Emou").

Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from memrepo.core.stems import base_forms
from memrepo.core.text import words_of


def spells_name(said: Sequence[str], wanted: tuple[str, ...],
                capitals: Collection[int] = ()) -> bool:
    """Whether words of a question spell a name: the same words, or the name's words
    inflected ("Pixela", "mama Agnieszki", "Marks city"): a shared base form, for words
    of four letters or more — a word of three letters shorter than the name only with a
    capital ("behind our bar" is not Bára's; "kuba", "vojta" typed in lower case still
    are); a name written with a capital letter (`capitals`: positions in `said`) also with
    the vowel its stem drops ("BARTKA" of Bartek, "KACPRA" of Kacper)."""
    return len(said) == len(wanted) and all(
        a == b or (len(b) >= 4 and (len(a) >= min(len(b), 4) or i in capitals) and _inflected(
            a, set(base_forms(a)) & set(base_forms(b))))
        or _possessive_of_short(a, b) or (i in capitals and (
            _without_fleeting_e(a, b) or _case_of_short(a, b)))
        for i, (a, b) in enumerate(zip(said, wanted, strict=True)))


def with_fleeting_e(word: str) -> set[str]:
    """The names a capitalised word may be a form of with its stem's "e" dropped: "kacpr",
    "kacpra" → kacper; "bartka" → bartek."""
    stems = {word[:len(word) - len(ending)] for ending in _NAME_ENDINGS
             if word.endswith(ending)}
    return {stem[:-1] + "e" + stem[-1] for stem in stems if len(stem) >= 4}


def _without_fleeting_e(word: str, name: str) -> bool:
    """"bartka", "kacpr", "pawla" of Bartek, Kacper, Paweł: the name's last "e" dropped,
    a case ending after."""
    if len(name) < 5 or name[-2] != "e":
        return False
    stem = name[:-2] + name[-1]
    return word.startswith(stem) and word[len(stem):] in _NAME_ENDINGS


def _possessive_of_short(word: str, name: str) -> bool:
    """A Slovak or Czech possessive of a three-letter name in -a: "EMINA triedna" (Ema's),
    "Evin telefón"."""
    return len(name) == 3 and name.endswith("a") and word.startswith(name[:-1]) and (
        word[2:] in SHORT_POSSESSIVE)


SHORT_POSSESSIVE = frozenset(words_of("in ina ine ino inu iny inej inho inom inou ini inych"))


def _case_of_short(word: str, name: str) -> bool:
    """A case of a three-letter name in -a, written with a capital letter: "wesele OLI i
    Bartka", "z Emou"."""
    return len(name) == 3 and name.endswith("a") and word[:2] == name[:2] and (
        word[2:] in _SHORT_CASES)


_SHORT_CASES = frozenset(words_of("i y e u o ou"))


def short_names_of(word: str, capital: bool) -> tuple[str, ...]:
    """The three-letter name in -a a possessive may be of ("emina" → "ema"), or a case of
    it written with a capital letter ("Oli" → "ola")."""
    possessive = len(word) >= 4 and word[2:] in SHORT_POSSESSIVE
    case = capital and len(word) in (3, 4) and word[2:] in _SHORT_CASES
    return (word[:2] + "a",) if possessive or case else ()


def _inflected(word: str, stems: set[str]) -> bool:
    """Whether `word` is one of the shared `stems` with an ending of a name's case or
    possessive ("Marka", "Markowi", "Marks"), not another word that stems alike ("market"
    is no form of Marek)."""
    return any(word.startswith(stem) and word[len(stem):] in _NAME_ENDINGS for stem in stems)


_NAME_ENDINGS = frozenset(words_of("""a e i o u y s ou ie em om ym im ej ow ov ach ami owi
ovi iem ego emu iego iemu ova ove ovo ovu ovej ovho ovom ovou in ina ine ino inu iny inej
inho inom inou ka ke ki ku ko kiem kowi kou ek ce cie ze nie""")) | {""}
"""What follows a name's stem in its inflected forms (folded): cases, possessives."""
