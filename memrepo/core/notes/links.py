"""Links and ephemeral paths in notes (SPEC §3).

A link is `[text](/memory/<category>/<name>.md)` (absolute from the repository root) or
`[[name]]` — also as markdown editors such as Obsidian write it: `[[name|label]]`,
`[[name#heading]]`, `[[name#heading|label]]`, the embed `![[name]]` and, inside a table,
`[[name\\|label]]`; each resolves by `name` (`wiki_name`; the heading is not checked, and
`[[#heading]]` is a place in the note itself) — and must resolve to a live note of the
snapshot being committed. Relative file links are refused so a backup copy of the memory
stays inert. Paths into ephemeral places (/tmp/, ~/Downloads/, inbox/ …) are refused
anywhere in a note, linked or not.

Only the notes of a change are checked (the cost follows the change): when a note is
deleted or archived, notes that still link to it are found by `memrepo check --all` and
by `memrepo triage` (dead links), not by the commit-time hook.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from memrepo.core.config import CATEGORIES, SLUG
from memrepo.core.notes.headers import Note, archive_path, note_path
from memrepo.core.problems import Problem
from memrepo.core.record_base import Record, init_field

LinkKind = Literal["markdown", "wiki"]
Exists = Callable[[str], bool]

_MARKDOWN = re.compile(r"!?\[(?P<text>[^\]\n]*)\]\((?P<target><[^>\n]*>|[^)\s]*)"
                       r"(?:\s+\"[^\"\n]*\")?\)")
_WIKI = re.compile(r"\[\[(?P<target>[^\]\n]*)\]\]")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_NOTE_TARGET = re.compile(r"/memory/(?P<category>[a-z]+)/(?P<name>[^/]+)\.md")
_WEB_URL = re.compile(r"https?://[^\s)>\]]+", re.IGNORECASE)
ABSOLUTE_FIX = "use an absolute link /memory/<category>/<name>.md or [[name]]"


class Link(Record):
    __slots__ = ("kind", "line", "target")
    target: str
    line: int
    kind: LinkKind

    def __init__(self, target: str, line: int, kind: LinkKind) -> None:
        init_field(self, "target", target)
        init_field(self, "line", line)
        init_field(self, "kind", kind)


def find_links(body: str, first_line: int = 1) -> list[Link]:
    """Markdown and wiki links of a body, with file line numbers; code is skipped."""
    links: list[Link] = []
    if "[" not in body:  # every link starts with one
        return links
    for number, line in _prose_lines(body, first_line):
        if "[" not in line:
            continue
        prose = _INLINE_CODE.sub(lambda m: " " * len(m.group()), line)
        links.extend(Link(_unbracket(m["target"]), number, "markdown")
                     for m in _MARKDOWN.finditer(prose))
        links.extend(Link(m["target"], number, "wiki") for m in _WIKI.finditer(prose))
    return links


def _prose_lines(body: str, first_line: int) -> Iterator[tuple[int, str]]:
    """Lines outside fenced code blocks (examples in code are not links)."""
    lines = body.split("\n")
    if "```" not in body and "~~~" not in body:  # no fence
        yield from enumerate(lines, first_line)
        return
    in_fence = False
    for offset, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            yield first_line + offset, line


def _unbracket(target: str) -> str:
    return target[1:-1] if target.startswith("<") and target.endswith(">") else target


def link_problems(note: Note, exists: Exists) -> list[Problem]:
    """Every link of `note` that does not resolve to a live note of the snapshot."""
    problems: list[Problem] = []
    for link in find_links(note.body, note.body_line):
        check = _wiki_problem if link.kind == "wiki" else _markdown_problem
        problem = check(note.path, link, exists)
        if problem is not None:
            problems.append(problem)
    return problems


def link_lookups(note: Note) -> list[str]:
    """The paths `link_problems` looks up for `note`'s links before it knows whether they
    resolve (every category's path for a name, an absolute link's file), to be asked of a
    snapshot at once."""
    paths: list[str] = []
    for link in find_links(note.body, note.body_line):
        target = re.split(r"[#?]", link.target, maxsplit=1)[0]
        if link.kind == "wiki":
            name = wiki_name(link.target)
        elif not target or _SCHEME.match(target) or target.startswith("/memory/archive/"):
            continue
        elif target.startswith("/"):
            paths.append(target[1:])
            continue
        else:  # a relative link: refused, its fix names the note it meant
            name = target.rsplit("/", 1)[-1].removesuffix(".md")
        if name is not None and SLUG.fullmatch(name):
            paths.extend(note_path(c, name) for c in CATEGORIES)
    return paths


def find_note(name: str, exists: Exists) -> str | None:
    """The path of the live note called `name`, if there is one (O(categories))."""
    return next((p for p in (note_path(c, name) for c in CATEGORIES) if exists(p)), None)


def _archived_path(name: str, exists: Exists) -> str | None:
    paths = (archive_path(c, name) for c in CATEGORIES)
    return next((p for p in paths if exists(p)), None)


def wiki_name(target: str) -> str | None:
    """The note a wiki link's target names: `name#heading|label` → `name` (a label
    follows the first '|', which a table cell escapes as '\\|'; a heading or block follows
    '#'); None for `#heading`, a place in the linking note itself."""
    name = target.split("|", 1)[0].removesuffix("\\").split("#", 1)[0].strip()
    return None if not name and target.lstrip().startswith("#") else name


def _wiki_problem(path: str, link: Link, exists: Exists) -> Problem | None:
    name = wiki_name(link.target)
    if name is None:
        return None
    if not SLUG.fullmatch(name):
        return Problem(path, f"[[{link.target}]] does not name a note (names are slugs "
                       "like jan-novak)", _name_fix(name), link.line)
    if find_note(name, exists):
        return None
    return _unresolved(path, f"[[{link.target}]]", name, link.line, exists)


def _name_fix(name: str) -> str:
    """`[[entities/jan-novak]]` and `[[jan-novak.md]]` (what an editor set to paths
    writes) → write `[[jan-novak]]`; a file that is no note cannot be linked by name."""
    stem = name.rsplit("/", 1)[-1].removesuffix(".md")
    if SLUG.fullmatch(stem):
        return f"write [[{stem}]]: a link names the note, not its folder or file"
    if "." in stem:
        return ("[[…]] and ![[…]] name notes; link another file by its absolute path, "
                "e.g. [plan](/docs/plan.pdf)")
    return "write [[<name>]] with the note's file name"


def _unresolved(path: str, shown: str, name: str, line: int, exists: Exists) -> Problem:
    archived = _archived_path(name, exists)
    if archived:
        return Problem(path, f"link {shown} points to an archived note ({archived})",
                       "link the live note that replaced it, or drop the link", line)
    return Problem(path, f"link {shown} points to no note: there is no note named {name!r}",
                   "correct the name, or create the note in the same commit", line)


def _markdown_problem(path: str, link: Link, exists: Exists) -> Problem | None:
    target = re.split(r"[#?]", link.target, maxsplit=1)[0]
    if not target:
        return None  # an anchor within the note
    if _SCHEME.match(target):
        return _scheme_problem(path, link)
    if target.startswith("/memory/archive/"):
        return Problem(path, f"link {link.target} points into the archive (archived notes "
                       "are inert)", "link the live note or drop the link", link.line)
    if target.startswith("/"):
        return _absolute_problem(path, link, target, exists)
    return Problem(path, f"relative link {link.target}: a copy of the memory must not be a "
                   "second traversable store", _relative_fix(target, exists), link.line)


def _scheme_problem(path: str, link: Link) -> Problem | None:
    if not link.target.lower().startswith("file:"):
        return None
    return Problem(path, f"link {link.target} points into a local file system",
                   ABSOLUTE_FIX, link.line)


def _absolute_problem(path: str, link: Link, target: str, exists: Exists) -> Problem | None:
    match = _NOTE_TARGET.fullmatch(target)
    if match and match["category"] in CATEGORIES and match["name"] != "INDEX":
        if exists(target[1:]):
            return None
        return _unresolved(path, link.target, match["name"], link.line, exists)
    if exists(target[1:]):
        return None  # another tracked file, e.g. /memory/TRIGGERS.md
    return Problem(path, f"link {link.target} points to nothing in the repository",
                   ABSOLUTE_FIX, link.line)


def _relative_fix(target: str, exists: Exists) -> str:
    name = target.rsplit("/", 1)[-1].removesuffix(".md")
    found = find_note(name, exists) if SLUG.fullmatch(name) else None
    if found:
        return f"use /{found} (or [[{name}]])"
    return ABSOLUTE_FIX


# --- ephemeral paths ----------------------------------------------------------------------

def ephemeral_pattern(prefixes: Sequence[str]) -> re.Pattern[str] | None:
    """One pattern for all prefixes; a prefix must start a path, so `myinbox/` and
    `https://host/tmp/` do not match `inbox/` and `/tmp/`."""
    if not prefixes:
        return None
    alternatives = "|".join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    return re.compile(rf"(?<![\w.~-])(?:{alternatives})")


def ephemeral_problems(path: str, text: str, prefixes: Sequence[str],
                       first_line: int = 1) -> list[Problem]:
    """One problem per line of `text` that mentions an ephemeral path."""
    pattern = ephemeral_pattern(prefixes)
    if pattern is None:
        return []
    problems = []
    for offset, line in enumerate(text.split("\n")):
        found = _first_outside_web_urls(pattern, line)
        if found:
            problems.append(Problem(
                path, f"ephemeral path {found!r}: temporary locations do not last",
                "store the content itself or its canonical location (temporary paths belong "
                "in answers, not in memory)", first_line + offset))
    return problems


def _first_outside_web_urls(pattern: re.Pattern[str], line: str) -> str | None:
    """The first match not inside an http(s) URL (a web page's /inbox/ is no local path)."""
    urls = [m.span() for m in _WEB_URL.finditer(line)]
    for match in pattern.finditer(line):
        if not any(start <= match.start() < end for start, end in urls):
            return match.group()
    return None
