"""New notes that look like existing ones (the commit check of SPEC §3, issue 11), read
from the INDEX.md bytes of the categories — cheap at 100k notes.

INDEX lines are sorted by name, so a label's neighbours are found by bisection over the
bytes: only the block of lines whose names start with the label's first two letters (or
those two swapped), and with the first two letters of each other word of the label (a
reordering), is read, screened and judged by `near_duplicates.NoteNames`. Descriptions
equal to existing ones are found by one regex pass per category for all of a commit's new
notes. What this leaves to triage: typos in a name's first two letters, aliases of
existing notes (INDEX lines have none), near-equal descriptions outside the blocks read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from memrepo.core.duplicates.near_duplicates import NoteNames, SimilarNote, label_words
from memrepo.core.notes.index_file import SEPARATOR
from memrepo.core.text import slug

_LINE_START = b"\n- ["


@dataclass(frozen=True, slots=True)
class NewNote:
    name: str
    description: str
    aliases: tuple[str, ...] = ()


def similar_existing(indexes: Mapping[str, bytes], note: NewNote,
                     described: Mapping[str, list[str]] | None = None) -> list[SimilarNote]:
    """Existing notes (the lines of `indexes`: category → INDEX.md bytes) that `note`
    looks like, by name, alias or description. `described`: `same_descriptions` of the
    notes of one commit, found together."""
    names: list[str] = []
    descriptions: list[str] = []
    for data in indexes.values():
        for prefix in _prefixes(note):
            for line in _block(data, prefix.encode()).decode("utf-8", "replace").splitlines():
                name, description = _split(line)
                names.append(name)
                descriptions.append(description)
    found = {s.name: s for s in NoteNames(names, descriptions, _known_in(indexes)).similar(
        note.name, note.description, note.aliases)}
    if described is None:
        described = same_descriptions(indexes, [note.description])
    for name in described.get(note.description, []):
        found.setdefault(name, SimilarNote(name, "the same description"))
    return [found[name] for name in sorted(found) if name != note.name]


def similar_new(notes: Sequence[NewNote]) -> dict[str, list[SimilarNote]]:
    """New notes of one commit that look like each other (each pair reported once, on
    the later name)."""
    found: dict[str, list[SimilarNote]] = {}
    for number, note in enumerate(notes):
        earlier = notes[:number]
        if earlier:
            names = NoteNames([n.name for n in earlier], [n.description for n in earlier])
            found[note.name] = names.similar(note.name, note.description, note.aliases)
    return {name: similar for name, similar in found.items() if similar}


def _prefixes(note: NewNote) -> set[str]:
    """The two-letter name prefixes whose INDEX blocks are read for `note`."""
    prefixes: set[str] = set()
    for label in (note.name, *note.aliases):
        words = label_words(slug(label))
        first = "-".join(words)[:2]
        if len(first) == 2:
            prefixes.update((first, first[::-1]))
        prefixes.update(word[:2] for word in words[1:] if len(word) >= 2)
    return prefixes


def _block(data: bytes, prefix: bytes) -> bytes:
    """The INDEX lines whose names start with `prefix` (lines are sorted by name)."""
    start = data.find(_LINE_START)
    if start < 0:
        return b""
    first = _first_at_or_after(data, start + 1, prefix)
    end = _first_at_or_after(data, first, prefix + b"\xff")
    return data[first:end]


def _first_at_or_after(data: bytes, low: int, name: bytes) -> int:
    """The start of the first line at or after `low` whose name is ≥ `name`."""
    high = len(data)
    while low < high:
        middle = (low + high) // 2
        line = data.rfind(b"\n", 0, middle) + 1
        if _name_at(data, line) < name:
            after = data.find(b"\n", middle)
            low = len(data) if after < 0 else after + 1
        else:
            high = line
    return low


def _name_at(data: bytes, line: int) -> bytes:
    close = data.find(b"](", line)
    return data[line + 3:close] if data.startswith(b"- [", line) and close > 0 else b""


def _split(line: str) -> tuple[str, str]:
    close = line.find("](")
    at = line.find(SEPARATOR, close)
    return line[3:close], line[at + len(SEPARATOR):] if at >= 0 else ""


def _known_in(indexes: Mapping[str, bytes]) -> Callable[[str], bool]:
    """Whether a word is a word of an existing note's name (the whole INDEX bytes)."""
    def known(word: str) -> bool:
        return any(_word_of_a_name(data, word.encode()) for data in indexes.values())
    return known


def _word_of_a_name(data: bytes, word: bytes) -> bool:
    """Whether `word` is a whole word of a name in INDEX bytes: one pass over its
    occurrences ("[word-", "-word]", "/word." in a line's link, …)."""
    at = data.find(word)
    while at >= 0:
        before, after = data[at - 1:at], data[at + len(word):at + len(word) + 1]
        if before in (b"[", b"-", b"/") and after in (b"]", b"-", b".") and (
                before, after) != (b"/", b"]"):
            return True
        at = data.find(word, at + 1)
    return False


def same_descriptions(indexes: Mapping[str, bytes],
                      descriptions: Iterable[str]) -> dict[str, list[str]]:
    """Each of `descriptions` → the names of the notes whose INDEX line has exactly it: one
    pass over each INDEX for them all (a regex led by the separator every line has; a
    byte search per description crawled a byte at a time through an 8 MB INDEX for a long
    description of common letters)."""
    wanted = sorted({d for d in descriptions if d.strip()})
    if not wanted:
        return {}
    pattern = re.compile(re.escape(SEPARATOR.encode()) + b"(" + b"|".join(
        re.escape(d.encode()) for d in wanted) + b")\n")
    found: dict[str, list[str]] = {}
    for data in indexes.values():
        for match in pattern.finditer(data):
            line = data.rfind(b"\n", 0, match.start()) + 1
            found.setdefault(match.group(1).decode(), []).append(
                _name_at(data, line).decode("utf-8", "replace"))
    return found
