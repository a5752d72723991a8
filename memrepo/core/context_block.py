"""The context block (SPEC §8): what memory tells a model before it answers, within a hard
token budget.

Token estimate: one token per three characters, rounded up. Common BPE tokenizers average
about four characters per token on English and about three on Polish or Slovak text, so the
estimate errs on the side of staying under the budget.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from memrepo.core.display import shown
from memrepo.core.records import Fact

HEADER = ("KNOWN FACTS (from memory; if the conversation contradicts them, "
          "trust the conversation):")
FOOTER = ('If nothing above answers the question, answer "not recorded" — '
          "do not guess from general knowledge.")
EMPTY = "(nothing in memory matches this question)"
LOW_CONFIDENCE = 0.8
CHARS_PER_TOKEN = 3


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class NoteItem:
    category: str
    name: str
    description: str
    body: str
    updated: str | None
    mandatory: bool  # an entity named in the question (the mandatory lookup)


@dataclass(frozen=True, slots=True)
class Block:
    text: str
    tokens: int
    included: int
    left_out: int


def fact_line(fact: Fact) -> str:
    """One fact with its dates, provenance and, below 0.8 confidence, a warning (values
    escaped: the block reaches a terminal or a model, never a control sequence)."""
    until = f" until {fact.valid_to}" if fact.valid_to else ""
    line = shown(f"- [fact] {fact.subject}.{fact.relation} = {fact.object} "
                 f"(valid since {fact.valid_from}{until}; recorded {fact.recorded_at[:10]}; "
                 f"source {fact.source})", None)
    if fact.confidence < LOW_CONFIDENCE:
        line += f" ⚠ confidence {fact.confidence:.2f}: unconfirmed, do not state it as certain"
    return line


def note_lines(note: NoteItem, with_body: bool) -> str:
    dated = f" (updated {note.updated})" if note.updated else ""
    head = shown(f"- [{note.category}] {note.name}: {note.description}{dated}", None)
    if not with_body or not note.body.strip():
        return head
    body = "\n".join(f"    {line}" for line in note.body.strip().splitlines())
    return f"{head}\n{shown(body, None, lines=True)}"


def minimum_budget() -> int:
    """The smallest budget that holds the header, the instruction and an empty answer."""
    return estimate_tokens(HEADER + "\n" + FOOTER + "\n" + EMPTY)


def build_block(notes: Sequence[NoteItem], facts: Sequence[Fact], precedence: Sequence[str],
                budget: int, notices: Sequence[str] = ()) -> Block:
    """Pack notes and facts into at most `budget` tokens, strongest first.

    Packing order: `notices` (e.g. "did you mean"), notes of mentioned entities
    (mandatory), facts, the other notes (triggered or retrieved); notes are shown by
    category precedence. A note that does not fit whole is shown by its description
    alone; what still does not fit is left out, counted, and said so in the block.
    """
    fixed = minimum_budget()
    if budget < fixed:
        raise ValueError(f"a budget of {budget} tokens cannot hold the header and the "
                         f"'not recorded' instruction ({fixed} tokens)")
    rank = {category: index for index, category in enumerate(precedence)}
    ordered_notes = sorted(notes, key=lambda n: (not n.mandatory, rank.get(n.category, 99)))
    chosen: list[tuple[int, str]] = []
    used, left_out = fixed, 0
    candidates: list[tuple[int, str, str | None]] = [(-1, notice, None) for notice in notices]
    candidates += [(rank.get(n.category, 99), note_lines(n, True), note_lines(n, False))
                   for n in ordered_notes if n.mandatory]
    candidates += [(len(rank), fact_line(f), None) for f in facts]
    candidates += [(rank.get(n.category, 99), note_lines(n, True), note_lines(n, False))
                   for n in ordered_notes if not n.mandatory]
    for order, full, short in candidates:
        for text in (full, short):
            if text is not None and used + estimate_tokens(text + "\n") <= budget:
                chosen.append((order, text))
                used += estimate_tokens(text + "\n")
                break
        else:
            left_out += 1
    return _render(chosen, left_out)


def cut_line(left_out: int) -> str:
    """What the block says when the budget cut items: never that nothing matched. As
    long as EMPTY at most (whose room every budget keeps)."""
    return f"({left_out} more item{'s' if left_out != 1 else ''} did not fit the budget)"


def _render(chosen: list[tuple[int, str]], left_out: int) -> Block:
    lines = [text for _, text in sorted(chosen, key=lambda item: item[0])]
    if left_out:
        lines.append(cut_line(left_out))
    lines = lines or [EMPTY]
    text = "\n".join([HEADER, *lines, FOOTER]) + "\n"
    return Block(text, estimate_tokens(text), len(chosen), left_out)
