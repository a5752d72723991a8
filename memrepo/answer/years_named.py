"""A thing named with its year ("plany na wakacje 2026"): where the scope records the same
thing for several years (`wakacje_2026`, `wakacje_2027`), the keys of the years the
question does not say are not the thing asked about (memrepo.answer.keys)."""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.dates import YEAR
from memrepo.answer.identities import words
from memrepo.answer.scoring import KeyMatch
from memrepo.cache.lookups import KeyRow


def of_another_year(folded: Sequence[str], scored: Sequence[KeyMatch],
                    candidates: Sequence[KeyRow]) -> list[KeyMatch]:
    """`scored` without the keys of a subject whose year is not the one the question says,
    where the scope records the same subject in that year (among `candidates`)."""
    said = {word for word in folded if _a_year(word)}
    if not said:
        return list(scored)
    named = {_without_years(row.subject_key) for row in candidates
             if said & set(words(row.subject_key))}
    return [m for m in scored if not (
        _without_years(m.key.subject_key) in named
        and {w for w in words(m.key.subject_key) if _a_year(w)} - said)]


def _a_year(word: str) -> bool:
    return YEAR.fullmatch(word) is not None


def _without_years(subject_key: str) -> tuple[str, ...]:
    return tuple(w for w in words(subject_key) if not _a_year(w))
