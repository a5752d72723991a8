"""Category indexes, memory/<category>/INDEX.md (SPEC §3): render, parse, compare.

An index is generated (`memrepo index`): a header with `category` and `entries`, a title,
and one line per note, sorted by name, carrying the note's description verbatim.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from memrepo.core.config import CATEGORIES
from memrepo.core.headers import SLUG, FrontMatter, decode_text, index_path, split_front_matter
from memrepo.core.problems import Problem

TITLES: dict[str, str] = {c: c.capitalize() for c in CATEGORIES}
SEPARATOR = " — "


@dataclass(frozen=True, slots=True)
class IndexLine:
    name: str
    description: str
    line: int


@dataclass(frozen=True)
class IndexFile:
    category: str
    entries: object  # the header's value as written (an int when well-formed)
    lines: tuple[IndexLine, ...]

    def by_name(self) -> dict[str, IndexLine]:
        return {line.name: line for line in self.lines}


def index_fix(category: str) -> str:
    return f"run `memrepo index` and stage {index_path(category)}"


def render_line(category: str, name: str, description: str) -> str:
    return f"- [{name}](/memory/{category}/{name}.md){SEPARATOR}{description}"


def render_index(category: str, descriptions: Mapping[str, str]) -> str:
    """The exact INDEX.md text for a category's notes (name → description)."""
    lines = [render_line(category, n, descriptions[n]) for n in sorted(descriptions)]
    head = f"---\ncategory: {category}\nentries: {len(lines)}\n---\n# {TITLES[category]}\n"
    return head + ("\n" + "\n".join(lines) + "\n" if lines else "")


def _entry(category: str, raw: str) -> IndexLine | None:
    """Split one `- [name](/memory/<category>/name.md) — description` line (plain string
    operations: an INDEX can hold 100k lines and a hook reads it on every commit)."""
    close = raw.find("](", 3)
    name = raw[3:close] if raw.startswith("- [") and close > 3 else ""
    prefix = render_line(category, name, "")
    if not name or not raw.startswith(prefix) or not SLUG.fullmatch(name):
        return None
    return IndexLine(name, raw[len(prefix):], 0)


def parse_index(category: str, data: bytes) -> IndexFile | list[Problem]:
    """INDEX.md bytes → IndexFile, or the problems that make it unreadable."""
    path = index_path(category)
    text = decode_text(path, data)
    front = text if isinstance(text, Problem) else split_front_matter(path, text)
    if isinstance(front, Problem):
        return [Problem(path, front.problem, index_fix(category), front.line)]
    problems = _header_problems(category, front)
    lines, line_problems = _entry_lines(category, front)
    problems.extend(line_problems)
    if problems:
        return problems
    return IndexFile(category, front.header.get("entries"), tuple(lines))


def _header_problems(category: str, front: FrontMatter) -> list[Problem]:
    path, fix = index_path(category), index_fix(category)
    problems = []
    if front.header.get("category") != category:
        problems.append(Problem(path, f"header category is {front.header.get('category')!r},"
                                f" expected {category!r}", fix, 2))
    unknown = sorted(set(front.header) - {"category", "entries"})
    if unknown:
        problems.append(Problem(path, f"unknown header key(s): {', '.join(unknown)}", fix, 2))
    return problems


def _entry_lines(category: str, front: FrontMatter) -> tuple[list[IndexLine], list[Problem]]:
    path, fix = index_path(category), index_fix(category)
    lines: list[IndexLine] = []
    problems: list[Problem] = []
    for offset, raw in enumerate(front.body.split("\n")):
        number = front.body_line + offset
        if not raw.startswith("- "):
            continue  # the title and blank lines; exact form is checked by rendering
        entry = _entry(category, raw)
        if entry is not None:
            lines.append(IndexLine(entry.name, entry.description, number))
        else:
            problems.append(Problem(path, "line is not an index entry "
                                    f"'- [<name>](/memory/{category}/<name>.md) — "
                                    "<description>'", fix, number))
    return lines, problems


def drift_problems(category: str, index: IndexFile, data: bytes,
                   notes: Mapping[str, str | None]) -> list[Problem]:
    """Where a parsed index disagrees with the notes of its folder.

    `notes` maps every note name in the folder to its description, or to None when the
    description is unknown (a broken header: reported by the header check, not here).
    """
    path, fix = index_path(category), index_fix(category)
    problems = _duplicate_and_order_problems(index)
    listed = index.by_name()
    for name in sorted(set(notes) - set(listed)):
        problems.append(Problem(path, f"no index line for the note {name}", fix))
    for name in sorted(set(listed) - set(notes)):
        problems.append(Problem(path, f"index line for {name}, but there is no note "
                                f"memory/{category}/{name}.md", fix, listed[name].line))
    problems.extend(_description_problems(category, index, notes))
    if index.entries != len(notes) or isinstance(index.entries, bool):
        problems.append(Problem(path, f"entries: {index.entries} but the folder has "
                                f"{len(notes)} note(s)", fix, 3))
    if not problems and all(d is not None for d in notes.values()):
        problems.extend(_form_problems(category, index, data))
    return problems


def _duplicate_and_order_problems(index: IndexFile) -> list[Problem]:
    path, fix = index_path(index.category), index_fix(index.category)
    problems, seen = [], set()
    for line in index.lines:
        if line.name in seen:
            problems.append(Problem(path, f"{line.name} is listed twice", fix, line.line))
        seen.add(line.name)
    names = [line.name for line in index.lines]
    if names == sorted(set(names)) or len(names) != len(set(names)):
        return problems
    first = next(a for a, b in zip(index.lines, index.lines[1:], strict=False)
                 if a.name > b.name)
    problems.append(Problem(path, "lines are not sorted by name", fix, first.line))
    return problems


def _description_problems(category: str, index: IndexFile,
                          notes: Mapping[str, str | None]) -> list[Problem]:
    problems = []
    for line in index.lines:
        actual = notes.get(line.name)
        if actual is not None and actual != line.description:
            problems.append(Problem(
                index_path(category), f"the description of {line.name} differs from the "
                f"note's ({actual!r})", index_fix(category), line.line))
    return problems


def _form_problems(category: str, index: IndexFile, data: bytes) -> list[Problem]:
    expected = render_index(category, {line.name: line.description for line in index.lines})
    if data == expected.encode("utf-8"):
        return []
    return [Problem(index_path(category), "the index is not in its generated form "
                    "(title, spacing or header layout differ)", index_fix(category))]


def index_problems(category: str, data: bytes | None,
                   notes: Mapping[str, str | None]) -> list[Problem]:
    """Everything wrong with a category's INDEX.md (`data` None: missing) for its notes."""
    if data is None:
        if not notes:
            return []
        return [Problem(index_path(category), f"missing: the folder has {len(notes)} "
                        "note(s) but no INDEX.md", index_fix(category))]
    index = parse_index(category, data)
    if isinstance(index, list):
        return index
    return drift_problems(category, index, data, notes)


def incremental_notes(index: IndexFile, old_lines: AbstractSet[str], folder: Iterable[str],
                      changed: Mapping[str, str | None],
                      read_description: Callable[[str], str | None]) -> dict[str, str | None]:
    """name → description for every note in the folder, reading as few notes as possible.

    Descriptions of changed notes are given; an unchanged note's index line is trusted when
    the old INDEX (`old_lines`: its raw lines) had the same line — the invariant held before
    this commit; otherwise the note is read. Cost: O(index lines + changed notes + lines
    that were edited).
    """
    listed = index.by_name()
    notes: dict[str, str | None] = {}
    for name in folder:
        line = listed.get(name)
        if name in changed:
            notes[name] = changed[name]
        elif line and render_line(index.category, name, line.description) in old_lines:
            notes[name] = line.description
        else:
            notes[name] = read_description(name)
    return notes
