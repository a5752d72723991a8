"""Note files (SPEC §3): where notes live, their YAML header, and the header rules.

Pure: bytes in, a `Note` or `Problem`s out. JSON Schema validation is passed in as a
function so this module never touches the file system.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, Literal

from memrepo.core.config import CATEGORIES, SLUG, TYPE_OF_CATEGORY, Config
from memrepo.core.notes.plain_header import plain_header
from memrepo.core.problems import Problem
from memrepo.core.record_base import Record, init_field
from memrepo.core.text import fold, slug

INDEX_NAME = "INDEX.md"
DELIMITER = "---"
GOOD_DESCRIPTION = "'Ordering profile: minimum quantities, lead times, packaging constraints'"
DESCRIPTION_FIX = ("be specific enough to reject the note without opening it, e.g. "
                   + GOOD_DESCRIPTION)
VAGUE_OPENINGS: tuple[str, ...] = (
    "notes about", "notes on", "note about", "note on", "info on", "info about",
    "information about", "information on", "details about", "details on", "stuff",
    "misc", "miscellaneous", "various", "todo", "to do", "tbd", "wip", "things about",
    "everything about", "all about", "general", "random", "some notes",
)
MIN_DESCRIPTION_WORDS = 4
TAGS_FIX = ("write tags as a list of short words, e.g. tags: [invoices, vat] (at most 50, "
            "each 1-50 characters, none repeated); leave out the '#' (after a space YAML "
            "reads #vat as a comment) and quote a tag YAML would read as a number or a "
            "date: \"2026\"")

SchemaCheck = Callable[[Any], list[str]]
"""Validates a header mapping against the schema of one note type; returns reasons."""

PathKind = Literal["note", "archived", "index", "stray", "other"]


class Note(Record):
    """A parsed note: `body_line` is the 1-based file line where the body starts."""

    __slots__ = ("archived", "body", "body_line", "category", "header", "header_text", "name",
                 "path")
    path: str
    category: str
    name: str
    header: dict[str, Any]
    header_text: str
    body: str
    body_line: int
    archived: bool

    def __init__(self, path: str, category: str, name: str, header: dict[str, Any],
                 header_text: str, body: str, body_line: int, archived: bool = False) -> None:
        init_field(self, "path", path)
        init_field(self, "category", category)
        init_field(self, "name", name)
        init_field(self, "header", header)
        init_field(self, "header_text", header_text)
        init_field(self, "body", body)
        init_field(self, "body_line", body_line)
        init_field(self, "archived", archived)

    @property
    def description(self) -> str | None:
        value = self.header.get("description")
        return value if isinstance(value, str) else None

    @property
    def updated(self) -> str | None:
        value = self.header.get("updated")
        return value if isinstance(value, str) else None

    @property
    def tags(self) -> list[str]:
        return tags_of(self.header)


class FrontMatter(Record):
    """A file split at its `---` delimiters; `header` is the parsed YAML mapping."""

    __slots__ = ("body", "body_line", "header", "header_text")
    header: dict[str, Any]
    header_text: str
    body: str
    body_line: int

    def __init__(self, header: dict[str, Any], header_text: str, body: str, body_line: int) -> None:
        init_field(self, "header", header)
        init_field(self, "header_text", header_text)
        init_field(self, "body", body)
        init_field(self, "body_line", body_line)


# --- where notes live -------------------------------------------------------------------

def note_path(category: str, name: str) -> str:
    return f"memory/{category}/{name}.md"


def archive_path(category: str, name: str) -> str:
    """Where a note taken out of use lives: inert, never indexed or linked."""
    return f"memory/archive/{category}/{name}.md"


def index_path(category: str) -> str:
    return f"memory/{category}/{INDEX_NAME}"


def classify(path: str) -> tuple[PathKind, str | None]:
    """What a repository path is to the note rules, with its category when it has one.

    `note` memory/<category>/<name>.md, `index` its INDEX.md, `archived`
    memory/archive/<category>/<name>.md, `stray` anything else inside a category or
    archive folder (refused), `other` everything the note rules do not govern.
    """
    parts = path.split("/")
    if parts[:2] == ["memory", "archive"]:
        return _classify_archived(parts)
    if len(parts) < 3 or parts[0] != "memory" or parts[1] not in CATEGORIES:
        return "other", None
    category = parts[1]
    if len(parts) > 3 or not parts[2].endswith(".md"):
        return "stray", category
    return ("index" if parts[2] == INDEX_NAME else "note"), category


def _classify_archived(parts: list[str]) -> tuple[PathKind, str | None]:
    if len(parts) == 4 and parts[2] in CATEGORIES and parts[3].endswith(".md"):
        return "archived", parts[2]
    return "stray", parts[2] if len(parts) > 2 and parts[2] in CATEGORIES else None


def stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")


def slugify(text: str) -> str:
    """A slug suggestion for a file name a person typed (Łódź Packaging → lodz-packaging)."""
    return slug(text) or "note"


def stray_problem(path: str, category: str | None) -> Problem:
    where = f"memory/{category}/" if category else "memory/archive/<category>/"
    return Problem(path, f"only notes (<name>.md) belong directly in {where}; this file "
                   "would be ignored by the indexes, the cache and the links",
                   f"move it out of {where} or make it a note {where}<name>.md")


# --- parsing ------------------------------------------------------------------------------

def decode_text(path: str, data: bytes) -> str | Problem:
    """UTF-8 text with LF line endings, or the problem that prevents it."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        return Problem(path, f"not valid UTF-8 (byte offset {err.start})",
                       "save the file as UTF-8", line)
    if text.startswith("\ufeff"):
        return Problem(path, "file starts with a byte order mark (BOM)",
                       "save the file as UTF-8 without BOM", 1)
    if "\r" in text:
        line = text[:text.index("\r")].count("\n") + 1
        return Problem(path, "CRLF (or CR) line endings", "convert to LF line endings", line)
    return text


def split_front_matter(path: str, text: str, *, fast: bool = False) -> FrontMatter | Problem:
    """Split text at explicit `---` delimiters and parse the header strictly (`fast`: with
    `load_fast`, which accepts and refuses exactly what `load_strict` does)."""
    lines = text.split("\n")
    if not text.strip():
        return Problem(path, "empty file: a note needs a YAML header",
                       "start the file with a '---' line, the header, and a closing '---'", 1)
    if lines[0].rstrip() != DELIMITER:
        return Problem(path, "missing header: line 1 must be '---'",
                       "start the file with a '---' line, the header, and a closing '---'", 1)
    closing = next((i for i in range(1, len(lines)) if lines[i].rstrip() == DELIMITER), None)
    if closing is None:
        return Problem(path, "unterminated header: no closing '---' line",
                       "end the header with a line containing only '---'", 1)
    header_text = "\n".join(lines[1:closing])
    header = plain_header(header_text) or _load_header(path, header_text, fast=fast)
    if isinstance(header, Problem):
        return header
    return FrontMatter(header, header_text, "\n".join(lines[closing + 1:]), closing + 2)


def _load_header(path: str, header_text: str, *, fast: bool) -> dict[str, Any] | Problem:
    from memrepo.core.strict_yaml import YamlError, load_fast, load_strict  # ≈20 ms

    load = load_fast if fast else load_strict
    try:
        header = load(header_text)
    except YamlError as err:
        line = err.line + 1 if err.line is not None else 1
        fix = "fix the YAML between the '---' lines"
        if "mapping values are not allowed" in str(err):
            fix += "; quote a value that contains ': ' (description: \"Profile: a, b, c\")"
        return Problem(path, f"header: {err}", fix, line)
    if not isinstance(header, dict):
        return Problem(path, "header is not a mapping of keys to values",
                       "write the header as 'key: value' lines (name, description, type)", 2)
    return header


MAX_NOTE_BYTES = 1024 * 1024
"""A note is read whole by every check and by the cache (its full text indexed three
times): a pulled 56 MB note made a rebuild take 1 GB of memory."""


def parse_note(path: str, data: bytes, *, fast: bool = False) -> Note | Problem:
    """A note file's bytes → Note. `path` must classify as `note` or `archived`.
    `fast` (bulk readers such as the cache): the same result, parsed with libyaml."""
    kind, category = classify(path)
    if kind not in ("note", "archived") or category is None:
        raise ValueError(f"not a note path: {path}")
    if len(data) > MAX_NOTE_BYTES:
        return Problem(path, f"is larger than {MAX_NOTE_BYTES // 1024 // 1024} MiB "
                       f"({len(data):,} bytes)", "split it into notes of one subject each, "
                       "or keep the file outside memory/ and link to it", 1)
    text = decode_text(path, data)
    if isinstance(text, Problem):
        return text
    front = split_front_matter(path, text, fast=fast)
    if isinstance(front, Problem):
        return front
    return Note(path, category, stem(path), front.header, front.header_text, front.body,
                front.body_line, archived=kind == "archived")


# --- header rules -------------------------------------------------------------------------

def header_problems(note: Note, schema_check: SchemaCheck, config: Config) -> list[Problem]:
    """Every §3 header rule that `note` breaks (schema, name, type, description)."""
    type_problems = _type_problems(note)
    problems = [*_file_name_problems(note), *type_problems]
    reasons = schema_check(note.header)
    for reason in reasons:
        if type_problems and reason.startswith("type"):
            continue
        problems.append(Problem(note.path, f"header: {reason}", _schema_fix(note, reason),
                                _line_of_reason(note, reason)))
    problems.extend(_name_problems(note))
    if not any(_unknown_tags(reason) for reason in reasons):  # else that is all to say
        problems.extend(_tag_problems(note))
    description = note.header.get("description")
    if isinstance(description, str):
        vague = vague_reason(description, note.name, config)
        if vague:
            problems.append(Problem(note.path, f"vague description: {vague}",
                                    DESCRIPTION_FIX, line_of_key(note, "description")))
    return problems


def _file_name_problems(note: Note) -> list[Problem]:
    if SLUG.fullmatch(note.name):
        return []
    return [Problem(note.path, f"file name {note.name!r} is not a slug "
                    "(lower-case letters, digits and '-', starting with a letter or digit)",
                    f"rename the file to {slugify(note.name)}.md and set name: "
                    f"{slugify(note.name)}")]


def _type_problems(note: Note) -> list[Problem]:
    expected = TYPE_OF_CATEGORY[note.category]
    actual = note.header.get("type")
    if actual == expected:
        return []
    return [Problem(note.path, f"type {actual!r} does not match the folder "
                    f"{note.category}/ (expected type: {expected})",
                    f"set type: {expected}, or move the note to the folder of its type",
                    line_of_key(note, "type"))]


def _name_problems(note: Note) -> list[Problem]:
    name = note.header.get("name")
    if not isinstance(name, str) or name == note.name:
        return []
    return [Problem(note.path, f"name {name!r} does not equal the file name {note.name!r}",
                    f"set name: {note.name}, or rename the file to {name}.md",
                    line_of_key(note, "name"))]


def _unknown_tags(reason: str) -> bool:
    """A schema reason refusing `tags`: the schema of a memory made before tags existed."""
    return reason.startswith("unknown key") and "'tags'" in reason


def _schema_fix(note: Note, reason: str) -> str:
    if _unknown_tags(reason):
        return ("remove the key, or take the schema/notes/ files of a new `memrepo init`, "
                "which allow tags, in an approved commit (memrepo's docs/editors.md)")
    if reason.startswith("tags"):
        return TAGS_FIX
    if reason.startswith("unknown key"):
        return (f"remove the key; a {TYPE_OF_CATEGORY[note.category]} header allows only the "
                "keys in schema/notes/ (extend the schema there to add one)")
    if "required property" in reason:
        return "add the missing key to the header"
    return "correct the value to match schema/notes/"


def _line_of_reason(note: Note, reason: str) -> int:
    quoted = re.findall(r"['\"]([^'\"]+)['\"]", reason)
    key = reason.split(":", 1)[0].split(".", 1)[0]
    for candidate in (key, *quoted):
        if candidate in note.header:
            return line_of_key(note, candidate)
    return 1


# --- tags ------------------------------------------------------------------------------------

def tags_of(header: dict[str, Any]) -> list[str]:
    """A header's tags as they are searched: each without a leading '#' (Obsidian reads
    `#vat` and `vat` as one tag) and the spaces around it; none when `tags` is not a list."""
    value = header.get("tags")
    if not isinstance(value, list):
        return []
    return [bare for bare in (bare_tag(tag) for tag in value if isinstance(tag, str)) if bare]


def bare_tag(tag: str) -> str:
    return tag.strip().removeprefix("#").strip()


def _tag_problems(note: Note) -> list[Problem]:
    """The tag rules a schema cannot say: a tag that is only '#', and two spellings of
    one tag (a leading '#' and letter case do not count; exact repeats are the schema's)."""
    value = note.header.get("tags")
    if not isinstance(value, list):
        return []
    line = line_of_key(note, "tags")
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for tag in (item for item in value if isinstance(item, str) and item):
        bare = bare_tag(tag).casefold()
        if not bare:
            problems.append(Problem(note.path, f"tag {tag!r} has no word in it", TAGS_FIX,
                                    line))
        elif seen.setdefault(bare, tag) != tag:
            problems.append(Problem(note.path, f"tags {seen[bare]!r} and {tag!r} are one tag "
                                    "(a leading '#' and letter case do not count)",
                                    "keep one of them", line))
    return problems


def line_of_key(note: Note, key: str) -> int:
    """The file line of a top-level header key (the header starts on line 2)."""
    pattern = re.compile(rf"^{re.escape(key)}\s*:")
    for offset, line in enumerate(note.header_text.split("\n")):
        if pattern.match(line):
            return offset + 2
    return 1


def vague_reason(description: str, name: str, config: Config) -> str | None:
    """Why a description is too vague to reject the note by, or None when it is fine."""
    if "\n" in description.strip():
        return "it spans several lines (it must be one line)"
    folded = fold(description).strip()
    if folded.replace("-", " ") == fold(name).replace("-", " "):
        return "it only repeats the note's name"
    matched = _vague_openings(config.vague_descriptions).match(folded)
    if matched:
        return f"it opens with the generic {matched.group(0)!r}"
    if len(description.split()) < MIN_DESCRIPTION_WORDS:
        return f"fewer than {MIN_DESCRIPTION_WORDS} words"
    return None


@lru_cache(maxsize=16)
def _vague_openings(extra: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for every vague opening (built-in and configured), folded, longest
    first, each ending at a word boundary: compiled once, not per note."""
    phrases = sorted({fold(p).strip() for p in (*VAGUE_OPENINGS, *extra)} - {""}, key=len,
                     reverse=True)
    return re.compile("(?:" + "|".join(re.escape(p) for p in phrases) + r")(?![a-z0-9])")


# --- names across categories ----------------------------------------------------------------

def other_category_paths(category: str, name: str) -> list[str]:
    """The paths a note of this name would have in the other three categories."""
    return [note_path(other, name) for other in CATEGORIES if other != category]


def duplicate_name_problem(note: Note, existing: Iterable[str]) -> Problem | None:
    """A problem when a live note of the same name exists in another category."""
    clashes = sorted(existing)
    if not clashes:
        return None
    return Problem(note.path, f"the name {note.name!r} is already used by {clashes[0]}; "
                   "names are unique across all categories",
                   "choose a more specific name (e.g. add the company or the topic), or "
                   "merge the two notes", line_of_key(note, "name"))
