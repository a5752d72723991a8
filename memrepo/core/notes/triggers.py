"""TRIGGERS.md (SPEC §3): a markdown table `| trigger | notes |` mapping questions to notes.

A trigger cell is either a comma-separated list of words/phrases (matched as whole words
after folding, so "Lodz" matches "Łódź") or a regex between slashes (`/vat\\|invoice/`,
matched case-insensitively against the raw question; a `|` inside a cell is written `\\|`,
as markdown tables require). The notes cell lists note names, comma-separated, optionally
as `[[name]]`.

TRIGGERS.md needs no approval and a question is text an agent passes on, so a regex
trigger runs on RE2 (google-re2): matching takes time linear in the question, whatever the
pattern — `/(a+)+$/` cannot backtrack for ever as it would with Python's `re`. RE2 has no
backreferences or lookaround; such a pattern is refused like one that does not compile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import re2

from memrepo.core.config import SLUG
from memrepo.core.problems import Problem
from memrepo.core.text import words

TRIGGERS_PATH = "memory/TRIGGERS.md"
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_SEPARATOR = re.compile(r"^[\s|:-]+$")


RE2_MAX_MEM = 8 << 20
"""Bytes RE2 may use for one trigger's automaton: a pattern that needs more is refused."""


class Matcher(Protocol):
    def search(self, text: str) -> object | None: ...


@dataclass(frozen=True, slots=True)
class Trigger:
    line: int
    pattern: str
    notes: tuple[str, ...]
    regex: Matcher


def parse_triggers(text: str, path: str = TRIGGERS_PATH) -> tuple[list[Trigger], list[Problem]]:
    """The table's rows as triggers, and a Problem for each row that cannot be used."""
    triggers: list[Trigger] = []
    problems: list[Problem] = []
    rows = [(n, m.group(1)) for n, line in enumerate(text.splitlines(), 1)
            if (m := _ROW.match(line)) and not _SEPARATOR.match(line)]
    for number, row in rows[1:]:  # rows[0] is the header row
        result = _parse_row(number, row, path)
        if isinstance(result, Problem):
            problems.append(result)
        else:
            triggers.append(result)
    return triggers, problems


def matching_notes(triggers: list[Trigger], question: str) -> list[str]:
    """Names of the notes whose trigger matches the question, first match first, no repeats."""
    folded = " " + " ".join(words(question)) + " "
    names: list[str] = []
    for trigger in triggers:
        subject = question if trigger.pattern.startswith("/") else folded
        if trigger.regex.search(subject):
            names.extend(n for n in trigger.notes if n not in names)
    return names


def _parse_row(number: int, row: str, path: str) -> Trigger | Problem:
    cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]
    if len(cells) != 2 or not cells[0] or not cells[1]:
        return Problem(path, "a trigger row needs exactly two cells: trigger and notes",
                       "write `| word, other phrase | note-name, other-note |`", number)
    notes = tuple(n.strip().strip("[]").strip() for n in cells[1].split(","))
    bad = [n for n in notes if not SLUG.fullmatch(n)]
    if bad:
        return Problem(path, f"not a note name: {bad[0]!r}",
                       "list note names (slugs like `lodz-packaging`), comma-separated", number)
    try:
        regex = _compile(cells[0])
    except re2.error as err:
        why = err.args[0].decode("utf-8", "replace") if err.args and isinstance(
            err.args[0], bytes) else str(err)
        return Problem(path, f"the trigger regex is not one RE2 accepts: {why}",
                       "fix the pattern between the slashes (no backreferences or "
                       "lookaround), or use plain words", number)
    return Trigger(number, cells[0], notes, regex)


def _compile(pattern: str) -> Matcher:
    if len(pattern) > 2 and pattern.startswith("/") and pattern.endswith("/"):
        options = re2.Options()
        options.case_sensitive = False
        options.log_errors = False
        options.max_mem = RE2_MAX_MEM
        return re2.compile(pattern[1:-1], options)
    phrases = [" ".join(words(p)) for p in pattern.split(",")]
    alternatives = "|".join(re.escape(p) for p in phrases if p)
    return re.compile(f" (?:{alternatives}) ")
