"""Category indexes, memory/<category>/INDEX.md (SPEC §3): render, parse, compare.

An index is generated (`memrepo index`): a header with `category` and `entries`, a title,
and one line per note, sorted by name, carrying the note's description verbatim.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from itertools import pairwise

from memrepo.core.config import CATEGORIES, SLUG
from memrepo.core.notes.headers import FrontMatter, decode_text, index_path, split_front_matter
from memrepo.core.problems import Problem
from memrepo.core.record_base import Record, init_field

TITLES: dict[str, str] = {c: c.capitalize() for c in CATEGORIES}
SEPARATOR = " — "


class IndexLine(Record):
    __slots__ = ("description", "line", "name")
    name: str
    description: str
    line: int

    def __init__(self, name: str, description: str, line: int) -> None:
        init_field(self, "name", name)
        init_field(self, "description", description)
        init_field(self, "line", line)


class IndexFile(Record):
    category: str
    entries: object  # the header's value as written (an int when well-formed)
    lines: tuple[IndexLine, ...]

    def __init__(self, category: str, entries: object, lines: tuple[IndexLine, ...]) -> None:
        init_field(self, "category", category)
        init_field(self, "entries", entries)
        init_field(self, "lines", lines)

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


# --- the incremental check a commit hook can afford at 100k notes ------------------------


class NoteChange(Record):
    """A note of the category that the commit adds, modifies or deletes; `description` is
    None for a deleted note or an unreadable header (reported by the header check)."""

    __slots__ = ("description", "name", "status")
    name: str
    status: str
    description: str | None

    def __init__(self, name: str, status: str, description: str | None) -> None:
        init_field(self, "name", name)
        init_field(self, "status", status)
        init_field(self, "description", description)


def incremental_problems(category: str, old: bytes, new: bytes,
                         changes: Iterable[NoteChange],
                         describe: Callable[[str], str | None]) -> list[Problem]:
    """What is wrong with the new INDEX, given that the old one matched the old notes.

    Only the window of lines between the two indexes' common beginning and common end is
    read line by line (found by byte comparison), with its two neighbours; changed notes
    are looked up by byte search. An 8 MB INDEX of 80k lines that gains or changes a few
    lines costs a few milliseconds, where the full comparison parses every line.
    `describe(name)` reads an unchanged note (None: no such note).
    """
    path, fix = index_path(category), index_fix(category)
    by_name = {change.name: change for change in changes}
    old_start, new_start = _entries_start(old), _entries_start(new)
    new_head = new[:new_start]
    window = _Window.between(old, new, old_start, new_start)
    text = decode_text(path, new_head + window.raw)  # the rest is the old INDEX's bytes
    if isinstance(text, Problem):
        return [Problem(path, text.problem, fix)]
    old_count = _entry_count(old, old_start)
    expected = old_count + sum(c.status == "added" for c in by_name.values()) \
        - sum(c.status == "deleted" for c in by_name.values())
    old_set = set(window.old_lines)
    added = [offset for offset, raw in enumerate(window.new_lines) if raw not in old_set]
    problems: list[Problem] = []
    for offset in added:
        problems.extend(_added_line_problems(category, window.new_lines, offset,
                                             window.first + offset, by_name, describe))
    listed = {entry.name for offset in added
              if (entry := _entry(category, window.new_lines[offset])) is not None}
    problems.extend(_changed_note_problems(category, by_name, new, new_start, listed))
    problems.extend(_removed_line_problems(category, old_set - set(window.new_lines),
                                           by_name, describe))
    problems.extend(_order_problems(category, window.with_neighbours(), window.first - 1))
    count = old_count - len(window.old_lines) + len(window.new_lines)
    return problems + _head_problems(category, new_head, count, expected)


def _entries_start(data: bytes) -> int:
    """Where the entry block starts: the first line beginning with `- ` (else the end)."""
    if data.startswith(b"- "):
        return 0
    start = data.find(b"\n- ")
    return len(data) if start < 0 else start + 1


def _entry_count(data: bytes, start: int) -> int:
    """The lines of the entry block data[start:] (counted in place: no copy of 10 MB)."""
    if start >= len(data):
        return 0
    return data.count(b"\n", start) + (0 if data.endswith(b"\n") else 1)


class _Window(Record):
    """The lines where two entry blocks differ; `first` is the file line number of the
    first new line, `before`/`after` the unchanged neighbours (None at the ends)."""

    old_lines: list[str]
    new_lines: list[str]
    first: int
    before: str | None
    after: str | None
    raw: bytes  # the new lines' bytes

    def __init__(self, old_lines: list[str], new_lines: list[str], first: int, before: str | None,
                 after: str | None, raw: bytes) -> None:
        init_field(self, "old_lines", old_lines)
        init_field(self, "new_lines", new_lines)
        init_field(self, "first", first)
        init_field(self, "before", before)
        init_field(self, "after", after)
        init_field(self, "raw", raw)

    @classmethod
    def between(cls, old: bytes, new: bytes, old_start: int, new_start: int) -> _Window:
        """The window between the entry blocks old[old_start:] and new[new_start:]."""
        common = _common_prefix(old, new, old_start, new_start)
        start = old.rfind(b"\n", old_start, old_start + common) + 1 - old_start
        if start < 0:
            start = 0
        tail = min(_common_suffix(old, new), len(old) - old_start - start,
                   len(new) - new_start - start)
        at_old, at_new = old_start + start, new_start + start
        end_old, end_new = _line_end(old, len(old) - tail), _line_end(new, len(new) - tail)
        before = new[new.rfind(b"\n", 0, at_new - 1) + 1:at_new - 1] if start else None
        after = new[end_new:_line_end(new, end_new)].rstrip(b"\n") if end_new < len(new) \
            else None
        return cls(_lines(old[at_old:end_old]), _lines(new[at_new:end_new]),
                   new.count(b"\n", 0, at_new) + 1,
                   None if before is None else before.decode("utf-8", "replace"),
                   None if not after else after.decode("utf-8", "replace"),
                   new[at_new:end_new])

    def with_neighbours(self) -> list[str]:
        return [*([self.before] if self.before else []), *self.new_lines,
                *([self.after] if self.after else [])]


def _common_prefix(a: bytes, b: bytes, a_start: int = 0, b_start: int = 0) -> int:
    """Length of the common beginning of a[a_start:] and b[b_start:] (memcmp speed, no
    Python loop per byte): whole 64 KiB chunks first, then a binary search inside the first
    unequal. Slices of bytes, not of memoryviews: their `==` is a memcmp, 25× faster."""
    size = min(len(a) - a_start, len(b) - b_start)
    low, step = 0, 1 << 16
    while low < size and a[a_start + low:a_start + low + step] == \
            b[b_start + low:b_start + low + step]:
        low += step
    high = min(low + step, size)
    while low < high:
        middle = (low + high + 1) // 2
        if a[a_start + low:a_start + middle] == b[b_start + low:b_start + middle]:
            low = middle
        else:
            high = middle - 1
    return min(low, size)


def _common_suffix(a: bytes, b: bytes) -> int:
    """Length of the common end of two byte strings, the same way (no reversed copies)."""
    size, end_a, end_b = min(len(a), len(b)), len(a), len(b)
    low, step = 0, 1 << 16
    while low < size:
        upper = min(low + step, size)
        if a[end_a - upper:end_a - low] != b[end_b - upper:end_b - low]:
            break
        low = upper
    high = min(low + step, size)
    while low < high:
        middle = (low + high + 1) // 2
        if a[end_a - middle:end_a - low] == b[end_b - middle:end_b - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _line_end(data: bytes, position: int) -> int:
    """The end of the line holding `position` (just past its `\\n`), or the end."""
    end = data.find(b"\n", position)
    return len(data) if end < 0 else end + 1


def _lines(block: bytes) -> list[str]:
    lines = block.decode("utf-8", "replace").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _head_problems(category: str, head: bytes, count: int, expected: int,
                   ) -> list[Problem]:
    """The header and title before the entries: exactly as rendered (a blank line follows
    the title when there are entries), with `entries` = lines = notes in the folder."""
    path, fix = index_path(category), index_fix(category)
    problems = []
    lines = head.decode("utf-8", "replace").split("\n")
    written = next((line.removeprefix("entries:").strip() for line in lines
                    if line.startswith("entries:")), "?")
    if written != str(expected) or count != expected:
        problems.append(Problem(path, f"entries: {written} but the folder has {expected} "
                                "note(s)", fix, 3))
    rendered = render_index(category, {}).replace("entries: 0", f"entries: {written}")
    if head.decode("utf-8", "replace") != rendered + ("\n" if count else ""):
        problems.append(Problem(path, "the index is not in its generated form (title, "
                                "spacing or header layout differ)", fix))
    return problems


def _added_line_problems(category: str, entries: list[str], offset: int, number: int,
                         by_name: Mapping[str, NoteChange],
                         describe: Callable[[str], str | None]) -> list[Problem]:
    path, fix = index_path(category), index_fix(category)
    entry = _entry(category, entries[offset])
    if entry is None:
        return [Problem(path, "line is not an index entry '- [<name>](/memory/"
                        f"{category}/<name>.md) — <description>'", fix, number)]
    problems: list[Problem] = []
    change = by_name.get(entry.name)
    actual = change.description if change is not None else describe(entry.name)
    if (change is not None and change.status == "deleted") or (change is None
                                                               and actual is None):
        problems.append(Problem(path, f"index line for {entry.name}, but there is no note "
                                f"memory/{category}/{entry.name}.md", fix, number))
    elif actual is not None and actual != entry.description:
        problems.append(Problem(path, f"the description of {entry.name} differs from the "
                                f"note's ({actual!r})", fix, number))
    return problems


def _order_problems(category: str, entries: list[str], first: int) -> list[Problem]:
    """Entries strictly increasing by name: one pass of string slicing, no parsing."""
    path, fix = index_path(category), index_fix(category)
    names = [raw[3:raw.find("](", 3)] for raw in entries]
    for offset, (before, after) in enumerate(pairwise(names), 1):
        if before == after:
            return [Problem(path, f"{after} is listed twice", fix, first + offset)]
        if before > after:
            return [Problem(path, "lines are not sorted by name", fix, first + offset)]
    return []


def _changed_note_problems(category: str, by_name: Mapping[str, NoteChange], data: bytes,
                           start: int, listed: AbstractSet[str]) -> list[Problem]:
    """Each added or modified note has its line — unchanged (found by binary search in
    the sorted entry block data[start:]) or among the new lines (`listed`, compared
    already) — and no deleted note keeps one."""
    path, fix = index_path(category), index_fix(category)
    problems = []
    for change in sorted(by_name.values(), key=lambda c: c.name):
        if change.name in listed:
            continue
        found = _line_of(data, start, change.name)
        named = found is not None
        if change.status == "deleted":
            if named:
                problems.append(Problem(path, f"index line for {change.name}, but there is "
                                        f"no note memory/{category}/{change.name}.md", fix))
            continue
        if change.description is None:
            continue
        if found == render_line(category, change.name, change.description).encode():
            continue
        problem = (f"the description of {change.name} differs from the note's "
                   f"({change.description!r})" if named
                   else f"no index line for the note {change.name}")
        problems.append(Problem(path, problem, fix))
    return problems


def _line_of(data: bytes, start: int, name: str) -> bytes | None:
    """The entry line of `name` in the sorted entry block data[start:]: a binary search
    over byte offsets (17 probes for 100k lines, not a scan of the block)."""
    low, high = start, len(data)
    while low < high:
        middle = (low + high) // 2
        begin = max(data.rfind(b"\n", start, middle) + 1, start)
        end = data.find(b"\n", begin)
        end = len(data) if end < 0 else end
        line = data[begin:end]
        found = line[3:line.find(b"](", 3)].decode("utf-8", "replace")
        if found == name:
            return line
        if found < name:
            low = end + 1
        else:
            high = begin
    return None


def _removed_line_problems(category: str, removed: AbstractSet[str],
                           by_name: Mapping[str, NoteChange],
                           describe: Callable[[str], str | None]) -> list[Problem]:
    path, fix = index_path(category), index_fix(category)
    problems = []
    for raw in sorted(removed):
        entry = _entry(category, raw)
        if entry is None or entry.name in by_name:
            continue  # a changed note: judged by its new line (or its deletion)
        if describe(entry.name) is not None:
            problems.append(Problem(path, f"no index line for the note {entry.name}", fix))
    return problems
