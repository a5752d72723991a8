"""Text edits for merging one note into another (`memrepo triage --apply`, SPEC §9).

Pure and careful: headers are edited as text (keys keep their order and formatting), and
each edit is checked by parsing the result again; an edit that cannot be made exactly
returns None instead of guessing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from memrepo.core.headers import DELIMITER, split_front_matter
from memrepo.core.problems import Problem
from memrepo.core.strict_yaml import YamlError, load_strict
from memrepo.core.text import fold

_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")
_ROW = re.compile(r"^(?P<head>\s*\|.*(?<!\\)\|)(?P<notes>[^|]*)\|\s*$")


def add_aliases(text: str, aliases: Sequence[str]) -> str | None:
    """`text` (a whole note) with `aliases` added to its header's `aliases` list (those
    that fold to an existing alias are skipped); None when the header cannot be edited
    exactly."""
    front = split_front_matter("note", text)
    if isinstance(front, Problem):
        return None
    existing = front.header.get("aliases", [])
    if not isinstance(existing, list):
        return None
    known = {fold(a) for a in existing}
    added = [a for a in dict.fromkeys(aliases) if fold(a) not in known]
    if not added:
        return text
    new_list = [*existing, *added]
    header_text = _with_key(front.header_text, "aliases",
                            "[" + ", ".join(json.dumps(a, ensure_ascii=False)
                                            for a in new_list) + "]")
    try:
        if load_strict(header_text) != {**front.header, "aliases": new_list}:
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
    """Links to note `old` (category, name) in `text` rewritten to point to `kept`."""
    (old_category, old_name), (kept_category, kept_name) = old, kept
    wiki = re.compile(rf"\[\[\s*{re.escape(old_name)}\s*(\|[^\]\n]*)?\]\]")
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
