"""TRIGGERS.md (SPEC §3): a markdown table `| trigger | notes |` mapping questions to notes.

A trigger cell is either a comma-separated list of words/phrases (matched as whole words
after folding, so "Lodz" matches "Łódź") or a regex between slashes (`/vat\\|invoice/`,
matched case-insensitively against the raw question; a `|` inside a cell is written `\\|`,
as markdown tables require). The notes cell lists note names, comma-separated, optionally
as `[[name]]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memrepo.core.config import SLUG
from memrepo.core.problems import Problem
from memrepo.core.text import words

TRIGGERS_PATH = "memory/TRIGGERS.md"
_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_SEPARATOR = re.compile(r"^[\s|:-]+$")


@dataclass(frozen=True, slots=True)
class Trigger:
    line: int
    pattern: str
    notes: tuple[str, ...]
    regex: re.Pattern[str]


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
    except re.error as err:
        return Problem(path, f"the trigger regex does not compile: {err}",
                       "fix the pattern between the slashes, or use plain words", number)
    return Trigger(number, cells[0], notes, regex)


def _compile(pattern: str) -> re.Pattern[str]:
    if len(pattern) > 2 and pattern.startswith("/") and pattern.endswith("/"):
        return re.compile(pattern[1:-1], re.IGNORECASE)
    phrases = [" ".join(words(p)) for p in pattern.split(",")]
    alternatives = "|".join(re.escape(p) for p in phrases if p)
    return re.compile(f" (?:{alternatives}) ")
