"""The three memories `memrepo bench memory` asks (memrepo, a MEMORY.md file, a flat
key-value store), and a chat model given each one's context."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from memrepo.agent import llm
from memrepo.agent.api import Memory
from memrepo.agent.context import build_context
from memrepo.bench.scoring import MONTHS, NOT_RECORDED
from memrepo.core.context_block import fact_line
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.times import Instant, format_valid_time, parse_instant

from . import memory_history as story
from .memory_history import NOW, SCOPE, Question

ANSWER_PROMPT = """\
You answer questions about the user from the memory given below, and from nothing else.
Reply with the answer only, no sentence around it:
- a value exactly as the memory states it (several values: separated by commas);
- for "did it change" questions: "no", or "yes, on YYYY-MM-DD from OLD to NEW" (several \
changes separated by "; "; a value that ended becomes "nothing");
- "not recorded" when the memory does not answer the question."""


@dataclass(frozen=True, slots=True)
class Answer:
    text: str
    context: str  # what this memory would hand a model for the question


class Variant(Protocol):
    name: str

    def answer(self, question: Question) -> Answer: ...


Interval = tuple[str, Instant, Instant]  # (object, from, to) under current knowledge


def values_at(intervals: Sequence[Interval], moment: Instant) -> frozenset[str]:
    return frozenset(value for value, start, end in intervals if start <= moment < end)


def value_changes(intervals: Sequence[Interval], start: Instant, end: Instant,
                  ) -> list[tuple[Instant, frozenset[str], frozenset[str]]]:
    """Every moment in (start, end] at which the value (set) differs from just before."""
    edges = sorted({x for _, a, b in intervals for x in (a, b) if start < x <= end})
    changes = [(x, values_at(intervals, x - 1), values_at(intervals, x)) for x in edges]
    return [change for change in changes if change[1] != change[2]]


def change_answer(changes: Sequence[tuple[Instant, frozenset[str], frozenset[str]]]) -> str:
    if not changes:
        return "no"
    return "yes, " + "; ".join(f"on {format_valid_time(at)} from {_values(old)} to "
                               f"{_values(new)}" for at, old, new in changes)


def _values(values: frozenset[str]) -> str:
    return ", ".join(sorted(values)) or story.NOTHING


class MemrepoVariant:
    """The oracle column: recall is handed the key and the times already worked out."""

    name = "memrepo, oracle key"

    def __init__(self, root: Path, budget: int) -> None:

        self.root, self.budget, self.memory = root, budget, Memory(root)

    def answer(self, question: Question) -> Answer:

        text, tool = self._change(question) if question.window else self._value(question)
        block = build_context(self.root, SCOPE, question.text, self.budget).text
        return Answer(text, f"{block}\n\n{tool}")

    def _value(self, q: Question) -> tuple[str, str]:
        found = self.memory.recall(SCOPE, subject=q.subject, relation=q.relation,
                                   as_of=q.as_of, known_at=q.known_at)
        head = (f"RECALL {q.key} (as of {q.as_of or 'now'}, as known "
                f"{'on ' + q.known_at if q.known_at else 'now'}):")
        if found.status == "not_recorded":
            return NOT_RECORDED, f"{head}\n{NOT_RECORDED}"
        lines = "\n".join(fact_line(fact) for fact in found.facts)
        return ", ".join(sorted(fact.object for fact in found.facts)), f"{head}\n{lines}"

    def _change(self, q: Question) -> tuple[str, str]:
        intervals = self.intervals(q.subject, q.relation)
        start, end = (parse_instant(t) for t in q.window or ("", ""))
        lines = [f"- {value}: from {format_valid_time(a)} until "
                 f"{format_valid_time(b) if b < FOREVER else 'now'}" for value, a, b in intervals]
        tool = f"HISTORY {q.key} (what held when, as known now):\n" + "\n".join(lines)
        return change_answer(value_changes(intervals, start, end)), tool

    def intervals(self, subject: str, relation: str) -> list[Interval]:
        return sorted(((entry.object or "", parse_instant(a),
                        FOREVER if b is None else parse_instant(b))
                       for entry in self.memory.history(SCOPE, subject, relation)
                       if entry.op == "assert" for a, b in entry.held),
                      key=lambda interval: (interval[1], interval[0]))


@dataclass(frozen=True, slots=True)
class Line:
    value: str
    since: str | None  # "May 2026"


_MD_LINE = re.compile(r"^- (?P<label>[^:]+): (?P<value>.*?)(?: \(since (?P<since>[^)]+)\))?$")


def parse_memory_md(text: str) -> dict[str, Line]:
    found = (_MD_LINE.match(line) for line in text.splitlines())
    return {m["label"]: Line(m["value"], m["since"]) for m in found if m}


def month_span(text: str) -> tuple[Instant, Instant]:
    """ "May 2026" → [2026-05-01, 2026-06-01) (English month names, whatever the locale)."""
    month, year = text.split()
    number = MONTHS.index(month.lower()) + 1
    after = f"{year}-{number + 1:02d}" if number < 12 else f"{int(year) + 1}-01"
    return parse_instant(f"{year}-{number:02d}-01"), parse_instant(f"{after}-01")


class MemoryFileVariant:
    """A person's MEMORY.md: the value of a line, whatever the time asked about."""

    name = "MEMORY.md"

    def __init__(self, text: str) -> None:
        self.text, self.lines = text, parse_memory_md(text)

    def answer(self, question: Question) -> Answer:
        line = self.lines.get(story.MEMORY_MD_LABELS.get(question.key, ""))
        if question.window:
            return Answer(self._change(line, question.window), self.text)
        return Answer(line.value if line else NOT_RECORDED, self.text)

    @staticmethod
    def _change(line: Line | None, window: tuple[str, str]) -> str:
        """Only a "since" note says anything about change, and only to the month."""
        if line is None or line.since is None:
            return NOT_RECORDED
        month_began, month_ended = month_span(line.since)
        start, end = (parse_instant(t) for t in window)
        if month_ended <= start:
            return "no"
        if month_began > end:
            return NOT_RECORDED
        return f"yes, in {line.since}, to {line.value}"


class FlatVariant:
    """Key → last value written; no dates, so no past and no change."""

    name = "flat store"

    def __init__(self, store: dict[str, str]) -> None:
        self.store = store

    def answer(self, question: Question) -> Answer:
        value = self.store.get(question.key)
        context = f"{question.key} = {value}" if value is not None else ""
        if question.window or value is None:
            return Answer(NOT_RECORDED, context)
        return Answer(value, context)


class ModelVariant:
    """Another variant's context and the question, answered by a chat model."""

    def __init__(self, base: Variant, ask: Callable[[str, str], str]) -> None:
        self.base, self.ask, self.name = base, ask, f"{base.name} + model"

    def answer(self, question: Question) -> Answer:
        context = self.base.answer(question).context
        return Answer(self.ask(context, question.text), context)


def model_asker(endpoint: str, model: str, timeout: float) -> Callable[[str, str], str]:
    """A plain-text chat completion (memrepo.agent.llm has only the JSON-constrained one; this
    reuses its URL, transport and error handling)."""

    url = llm.chat_url(endpoint)

    def ask(context: str, question: str) -> str:
        body = {"model": model, "temperature": 0, "messages": [
            {"role": "system", "content": ANSWER_PROMPT},
            {"role": "user", "content": f"MEMORY:\n{context}\n\nToday is {NOW[:10]}.\n"
                                        f"Question: {question}"}]}
        return llm.message_content(url, llm.post_json(url, body, timeout)).strip()

    return ask
