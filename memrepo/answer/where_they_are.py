"""Things a question names only as where a named person is ("since when is Zuzia living IN
THE OLSZTYN FLAT"): the question is the person's, and the place's own keys no answer to
it (memrepo.answer.keys)."""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.first_person import in_slavic
from memrepo.answer.identities import Identity
from memrepo.answer.question import ARTICLES
from memrepo.answer.reading import Reading
from memrepo.answer.scoring import KeyMatch
from memrepo.core.text import words_of


def where_the_person_is(read: Reading, things: set[int], persons: Sequence[Identity],
                        scored: Sequence[KeyMatch]) -> set[int]:
    """The things named only as where a named person is ("since when is Zuzia living IN
    THE OLSZTYN FLAT"), when a key of that person answers: the question is hers, and the
    flat's own address no answer to it."""
    theirs = {s for identity in persons if identity.person for s in identity.subjects}
    if not any(m.answers and m.key.subject_key in theirs for m in scored):
        return set()
    return {i for i in things if _after_a_place_preposition(read.folded, i)}


def _after_a_place_preposition(folded: Sequence[str], i: int) -> bool:
    j = i - 1
    while j >= 0 and (folded[j] in ARTICLES or folded[j][:1].isdigit()):
        j -= 1
    at = _SLAVIC_LOCATIVES if in_slavic(folded) else _LOCATIVES
    return j >= 0 and folded[j] in at


_LOCATIVES = frozenset(("in", "at"))
_SLAVIC_LOCATIVES = frozenset(words_of("w we v vo"))
