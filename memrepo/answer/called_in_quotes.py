"""The names a family calls its people by in what it said, where no key or note spells
them (memrepo.answer.candidates): "Hania – 30 kwietnia 2016." recorded under
`hanna_jablonska.birthday` makes "Hania" a name of `hanna_jablonska`, as "Zuzia", "Rysiek"
or "Bartek" of `zuzanna_…`, `ryszard_…`, `bartosz_…`. The question's word must open a quote
of that subject's facts (the speaker naming whom the fact is about), begin as the
subject's first name does (its first three letters) without being it, and do so for one
subject only: a name two subjects' quotes open with names nobody.

Pure: the quotes come from memrepo.cache.lookups.quotes_holding.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from memrepo.answer.identities import words
from memrepo.answer.name_spellings import spells_name
from memrepo.core.stems import WORD

SHARED_START = 3
"""Letters a name said and the subject's first name begin with alike ("Han-ia", "han-na")."""
SHORTEST = 4
"""Letters of the shortest word read as a name this way ("Ola" is too short to tell)."""


def called_in_quotes(said: Iterable[str], quoted: Iterable[tuple[str, str, str]],
                     ) -> Mapping[str, set[str]]:
    """subject_key → the names its facts' quotes call it by that the question's folded
    words (`said`) spell, as written or inflected ("Hani" of "Hania"); `quoted`:
    (subject_key, subject as written, folded quotes joined by " ; ")."""
    wanted = [word for word in said if len(word) >= SHORTEST and word.isalpha()]
    openers: dict[str, set[str]] = {}  # word → the subjects it shortens whose quotes it opens
    for subject_key, named, opening in _openings(quoted):
        if named and _shortens(opening, named[0]) and any(
                spells_name([word], (opening,)) for word in wanted):  # "HANI phone"
            openers.setdefault(opening, set()).add(subject_key)
    out: dict[str, set[str]] = {}
    for word, subjects in openers.items():
        if len(subjects) == 1:
            out.setdefault(next(iter(subjects)), set()).add(word)
    return out


def _openings(quoted: Iterable[tuple[str, str, str]]) -> list[tuple[str, tuple[str, ...], str]]:
    """(subject_key, its words, the first word of one of its quotes) of every quote."""
    return [(subject_key, words(subject_key), opening[0])
            for subject_key, _, quotes in quoted for quote in quotes.split(" ; ")
            if (opening := WORD.findall(quote)[:1])]


def _shortens(word: str, name: str) -> bool:
    return word != name and len(name) >= SHARED_START and word[:SHARED_START] == name[:SHARED_START]


MOST_SAID = 2
"""Quotes a family word must open of the subject it is taken for."""


def kin_in_quotes(kin_words: Mapping[str, Iterable[str]],
                  quoted: Iterable[tuple[str, str, str]]) -> Mapping[str, set[str]]:
    """subject_key → the family words its facts' quotes open with, where the speaker calls
    the person so ("Tata – 19 listopada 1946." of `ryszard_kruk.birthday`); `kin_words`:
    each family role the question names → its words ("father": tata, dad, otec …). The
    role's words must open at least MOST_SAID quotes of one subject of a full name (two
    words: a person), more than twice as many as of any other ("Tata 607 339 150, mama
    607 339 151", recorded under the mother's phone too, is one quote of hers)."""
    openings = [(subject_key, named, opening) for subject_key, named, opening
                in _openings(quoted) if len(named) >= 2 and all(w.isalpha() for w in named)
                and opening not in named]
    out: dict[str, set[str]] = {}
    for role_words in kin_words.values():
        wanted = set(role_words)
        counts: Counter[str] = Counter()
        said: dict[str, set[str]] = {}
        for subject_key, _, opening in openings:
            if opening in wanted:
                counts[subject_key] += 1
                said.setdefault(subject_key, set()).add(opening)
        ranked = counts.most_common(2)
        if not ranked:
            continue
        most, second = ranked[0][1], (ranked[1][1] if len(ranked) > 1 else 0)
        if most >= MOST_SAID and most > 2 * second:
            out.setdefault(ranked[0][0], set()).update(said[ranked[0][0]])
    return out
