"""Text edits for merging one note into another (`memrepo triage --apply`, SPEC §9).

Pure and careful: headers are edited as text (keys keep their order and formatting), and
each edit is checked by parsing the result again; an edit that cannot be made exactly
returns None instead of guessing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

from memrepo.core.notes.headers import DELIMITER, bare_tag, split_front_matter
from memrepo.core.problems import Problem
from memrepo.core.strict_yaml import YamlError, load_strict
from memrepo.core.text import fold

_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")
_ROW = re.compile(r"^(?P<head>\s*\|.*(?<!\\)\|)(?P<notes>[^|]*)\|\s*$")


def add_aliases(text: str, aliases: Sequence[str]) -> str | None:
    """`text` (a whole note) with `aliases` added to its header's `aliases` list (those
    that fold to an existing alias are skipped); None when the header cannot be edited
    exactly."""
    return _add_to_list(text, "aliases", aliases, fold)


def add_tags(text: str, tags: Sequence[str]) -> str | None:
    """`text` (a whole note) with `tags` added to its header's `tags` list (those that are
    one of its tags already, `#` and case aside, are skipped); None when the header cannot
    be edited exactly."""
    return _add_to_list(text, "tags", tags, lambda tag: bare_tag(tag).casefold())


def _add_to_list(text: str, key: str, items: Sequence[str],
                 same: Callable[[str], str]) -> str | None:
    front = split_front_matter("note", text)
    if isinstance(front, Problem):
        return None
    existing = front.header.get(key, [])
    if not isinstance(existing, list):
        return None
    known = {same(item) for item in existing if isinstance(item, str)}
    added = [item for item in dict.fromkeys(items) if same(item) not in known]
    if not added:
        return text
    new_list = [*existing, *added]
    header_text = _with_key(front.header_text, key,
                            "[" + ", ".join(json.dumps(item, ensure_ascii=False)
                                            for item in new_list) + "]")
    try:
        if load_strict(header_text) != {**front.header, key: new_list}:
            return None
    except YamlError:
        return None
    return f"{DELIMITER}\n{header_text}\n{DELIMITER}\n{front.body}"


def _with_key(header_text: str, key: str, value: str) -> str:
    """The header text with the top-level `key` (and its continuation lines) replaced by
    `key: value`, or that line appended when the key is absent."""
    lines = header_text.split("\n")
    start = next((i for i, line in enumerate(lines) if re.match(rf"{key}\s*:", line)), None)
    if start is None:
        return "\n".join([*lines, f"{key}: {value}"])
    end = start + 1
    while end < len(lines) and lines[end].strip() and not _TOP_KEY.match(lines[end]):
        end += 1
    return "\n".join([*lines[:start], f"{key}: {value}", *lines[end:]])


def mention_merged(text: str, old_name: str, old_title: str | None, day: str) -> str:
    """`text` with a closing line recording the merge (for notes without aliases)."""
    title = f" ({old_title})" if old_title and old_title != old_name else ""
    line = f"Merged from the archived note {old_name}{title} by triage on {day}."
    return text.rstrip("\n") + f"\n\n{line}\n"


def retarget_links(text: str, old: tuple[str, str], kept: tuple[str, str]) -> str:
    """Links to note `old` (category, name) in `text` rewritten to point to `kept`; a wiki
    link keeps its heading and label (`[[old#heading|label]]`, memrepo.core.notes.links)."""
    (old_category, old_name), (kept_category, kept_name) = old, kept
    wiki = re.compile(rf"\[\[\s*{re.escape(old_name)}\s*((?:\\?\||#)[^\]\n]*)?\]\]")
    text = wiki.sub(lambda m: f"[[{kept_name}{m[1] or ''}]]", text)
    path = re.compile(rf"(\]\(<?)/memory/{re.escape(old_category)}/{re.escape(old_name)}"
                      r"\.md(?=[#?)>\s])")
    return path.sub(lambda m: f"{m[1]}/memory/{kept_category}/{kept_name}.md", text)


def retarget_triggers(text: str, old_name: str, kept_name: str) -> str:
    """TRIGGERS.md with `old_name` in the notes cells replaced by `kept_name`."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        match = _ROW.match(line)
        if match is None:
            continue
        names = [n.strip().strip("[]").strip() for n in match["notes"].split(",")]
        if old_name not in names:
            continue
        renamed = dict.fromkeys(kept_name if n == old_name else n for n in names)
        lines[number] = f"{match['head']} {', '.join(renamed)} |"
    return "\n".join(lines)


# --- carrying the merged-away note's content -------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE_LINE = re.compile(r"^\s*(```|~~~)")


def carry_over(kept_text: str, old_text: str, old_name: str, day: str) -> str | None:
    """`kept_text` (a whole note) with every body line only the note `old_name` had,
    appended under `## From <old_name> (merged <day>)`; None when either header cannot
    be read. The old note's title is left out (it becomes an alias or the heading names
    it); its other headings come along, one level down, only where a carried line sits
    under them; a fenced code block is carried whole or not at all. Deterministic, and
    idempotent: merging the same note again carries nothing."""
    kept = split_front_matter("note", kept_text)
    old = split_front_matter("note", old_text)
    if (isinstance(kept, Problem) or isinstance(old, Problem) or _open_fence(kept.body)
            or _open_fence(old.body)):
        return None  # (text appended after an unclosed ``` would become code)
    present = ({_line_key(line) for line in kept.body.split("\n")}
               | {_block_key(block) for block in _fences(kept.body)})
    carried = _carried_lines(old.body, present)
    description = old.header.get("description")
    if (isinstance(description, str) and description != kept.header.get("description")
            and _line_key(f"Description: {description}") not in present):
        carried = [f"Description: {description}", *([""] if carried else []), *carried]
    if not carried:
        return kept_text
    section = [f"## From {old_name} (merged {day})", "", *carried]
    return kept_text.rstrip("\n") + "\n\n" + "\n".join(section).rstrip("\n") + "\n"


def _open_fence(body: str) -> bool:
    units = _units(body.split("\n"))
    return bool(units) and len(units[-1]) > 1 and not _FENCE_LINE.match(units[-1][-1])


def _line_key(line: str) -> str:
    """A body line as compared: headings by their text, whitespace collapsed."""
    heading = _HEADING.match(line.strip())
    text = heading[2] if heading else line
    return " ".join(text.split())


def _block_key(lines: Sequence[str]) -> str:
    return "\n".join(line.rstrip() for line in lines)


def _fences(body: str) -> list[list[str]]:
    return [unit for unit in _units(body.split("\n")) if len(unit) > 1]


def _units(lines: Sequence[str]) -> list[list[str]]:
    """Body lines as units: a fenced code block is one unit, every other line its own."""
    units: list[list[str]] = []
    fence: list[str] | None = None
    for line in lines:
        if fence is not None:
            fence.append(line)
            if _FENCE_LINE.match(line):
                units.append(fence)
                fence = None
        elif _FENCE_LINE.match(line):
            fence = [line]
        else:
            units.append([line])
    if fence is not None:
        units.append(fence)  # an unclosed fence runs to the end, as markdown reads it
    return units


def _carried_lines(body: str, present: set[str]) -> list[str]:
    out: list[str] = []
    context: str | None = None  # a heading the kept note has too: written above a carried line
    seen_text = False
    for unit in _units(body.split("\n")):
        first = unit[0]
        if len(unit) == 1 and not first.strip():
            if out and out[-1]:
                out.append("")  # paragraph breaks come along (trailing ones dropped below)
            continue
        heading = _HEADING.match(first.strip()) if len(unit) == 1 else None
        if heading and len(heading[1]) == 1 and not seen_text:
            seen_text = True  # the old note's title: the section heading names it instead
            continue
        seen_text = True
        key = _block_key(unit) if len(unit) > 1 else _line_key(first)
        if heading:
            demoted = "#" * min(len(heading[1]) + 1, 6) + " " + heading[2]
            if key in present:
                context = demoted
                continue
            unit, context = [demoted], None
        elif key in present:
            continue
        if context is not None:
            out += [context, ""]
            context = None
        _separate_heading(out, heading is not None)
        out += unit
        if heading:
            out.append("")
        present.add(key)
    while out and not out[-1]:
        out.pop()
    return out


def _separate_heading(out: list[str], heading: bool) -> None:
    if heading and out and out[-1]:
        out.append("")
