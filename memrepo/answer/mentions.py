"""A question's mentions (memrepo.answer.subjects finds them): the words that name whom it
asks about, the identities they name and how (a name, a role word and whose, the asker),
and what they add up to: the persons named, the mentions of no one the memory knows, the
words they take up.

Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from memrepo.answer.identities import Identity


@dataclass(frozen=True, slots=True)
class Mention:
    """Words [start, end) of the question that name `identities` (empty: nobody the
    memory knows), and how."""

    start: int
    end: int
    identities: tuple[Identity, ...]
    how: str  # for the answer's reasons: "name 'Kuba'", "role 'mum'", "the asker ('my')"
    role: frozenset[str] = frozenset()  # the role concepts, for a role word
    owner: Identity | None = None  # whose role person it is (the asker unless named)


@dataclass(frozen=True, slots=True)
class Mentions:
    found: tuple[Mention, ...]
    asker: Mention | None  # the asker as the subject ("my phone", "where do I live")
    ours: bool  # "we"/"our": the household or business
    set_aside: frozenset[int] = frozenset()  # words of a mention the question sets aside

    @property
    def persons(self) -> list[Identity]:
        people = [i for m in self.found for i in m.identities]
        if self.asker is not None:
            people += list(self.asker.identities)
        return list({id(i): i for i in people}.values())

    @property
    def unresolved(self) -> list[Mention]:
        return [m for m in self.found if not m.identities]

    @property
    def used(self) -> set[int]:
        spans = [*self.found, *([self.asker] if self.asker else [])]
        return {i for m in spans for i in range(m.start, m.end)}
