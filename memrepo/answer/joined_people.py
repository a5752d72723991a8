"""The people a question names side by side ("When were Peter AND Lucia born?"): each is
asked about on their own, and the words naming the others say nothing of their keys."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from memrepo.answer.identities import Identity
from memrepo.answer.mentions import Mentions
from memrepo.answer.reading import JOINERS, Reading
from memrepo.core.text import words_of


def joined_people(read: Reading, mentions: Mentions) -> list[Identity]:
    """The people a question names side by side, joined by "and" ("When were Peter AND
    Lucia born?", "mum's and dad's phones", "moja mama i teść"), each by one mention of
    one identity; empty when it names fewer than two so."""
    found = [m for m in mentions.found if len(m.identities) == 1]
    if len(found) < 2:
        return []
    run = [found[0]]
    for left, right in itertools.pairwise(found):
        between = set(read.folded[left.end:right.start])
        if between & JOINERS and not between - JOINERS - _BETWEEN_NAMES:
            run.append(right)
        elif len(run) >= 2:
            break  # "Denisa and Veronika … at the SALON": the salon is no third of them
        else:
            return []
    if len(run) < 2:
        return []
    return list({id(m.identities[0]): m.identities[0] for m in run}.values())


_BETWEEN_NAMES = frozenset(words_of("""s my our moja moj moje moi nasz nasza nase nasa
nas muj moji"""))


def without_others(weights: dict[str, float], mentions: Mentions, owner: Identity | None,
                   joined: Sequence[Identity]) -> dict[str, float]:
    """The weights for a key of one of the people a question names side by side (`joined`:
    "When were Peter and LUCIA born?"): the words naming the others say nothing of its
    keys."""
    if owner is None or not any(owner is p for p in joined):
        return weights
    others = {f"#{i}" for m in mentions.found
              if m.identities and not any(owner is i for i in m.identities)
              for i in range(m.start, m.end)}
    kept = {w: v for w, v in weights.items() if w not in others}
    return kept or weights
