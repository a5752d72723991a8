"""memory/config.yaml as people and `memrepo init` write it, read without a YAML parser.

A config is a few top-level keys, each with a scalar (a quoted string, a word, a whole
number), a flow list (`[rules, references, entities, project]`, `["speaks", "phone"]`) or
an indented block of `- item` lines or `key: value` lines, with comment and blank lines
between. PyYAML's import costs every process that reads a config ≈10 ms (the commit-msg
hook among them) and its parse well under one. `plain_config` gives the mapping the strict
YAML reader (memrepo.core.strict_yaml) gives, or None for anything it is not sure of —
another form, a duplicate key, an escape, a word YAML 1.1 reads as a boolean or null, a
number with a sign or a leading zero, a trailing comment — and YAML then decides (and
names the line of what it refuses).
"""

from __future__ import annotations

import re

from memrepo.core.notes.plain_header import RESOLVED, plain_word, quoted

MAX_PLAIN_CHARS = 16 * 1024
"""Longer texts go to the YAML reader (which refuses those over its byte limit)."""

Scalar = str | int
Value = Scalar | list[Scalar] | dict[str, Scalar | list[Scalar]]

_TOP = re.compile(r"([A-Za-z_][A-Za-z0-9_]{0,63}):(?: +(.*))?")
_INNER = re.compile(r"( +)([A-Za-z_][A-Za-z0-9_-]{0,63}):(?: +(.*))?")
_ITEM = re.compile(r"( +)- +(.*)")
_INTEGER = re.compile(r"0|[1-9][0-9]{0,17}")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_FLOW_ITEM = re.compile(r' *(?:"([^"\\]*)"|([A-Za-z][A-Za-z0-9_-]*)) *(,|\]$)')


def plain_config(text: str) -> dict[str, Value] | None:
    """The config's mapping when every line is of the plain forms above (the same value
    the strict YAML reader gives); None to let YAML decide."""
    if len(text) > MAX_PLAIN_CHARS:
        return None
    every = text.split("\n")
    if not all(line.isprintable() for line in every):
        return None  # tabs, CRs, control and format characters, BOMs — comments included
    lines = [line for line in every if not _ignored(line)]
    config: dict[str, Value] = {}
    at = 0
    while at < len(lines):
        top = _TOP.fullmatch(lines[at])
        if top is None or top[1] in config or top[1].lower() in RESOLVED:
            return None  # a duplicate key: the YAML reader names it with its line
        block = _block_end(lines, at + 1)
        value = (_inline(top[2].rstrip(" ")) if top[2] and top[2].strip(" ") else
                 _block(lines[at + 1:block]))
        if value is None or (top[2] and top[2].strip(" ") and block != at + 1):
            return None
        config[top[1]] = value
        at = block
    return config or None


def _ignored(line: str) -> bool:
    """Blank lines (spaces only) and comment lines: YAML skips them at any indentation."""
    stripped = line.lstrip(" ")
    return not stripped or stripped.startswith("#")


def _block_end(lines: list[str], start: int) -> int:
    """The first line at or after `start` that is not indented (the next top-level key)."""
    end = start
    while end < len(lines) and lines[end].startswith(" "):
        end += 1
    return end


def _block(lines: list[str]) -> list[Scalar] | dict[str, Scalar | list[Scalar]] | None:
    """An indented block: `- item` lines, or `key: value` lines, all at one indentation."""
    if not lines:
        return None  # nothing: YAML's null
    if _ITEM.fullmatch(lines[0]):
        return _sequence(lines)
    return _mapping(lines)


def _sequence(lines: list[str]) -> list[Scalar] | None:
    items: list[Scalar] = []
    indent = None
    for line in lines:
        item = _ITEM.fullmatch(line)
        if item is None or indent not in (None, item[1]):
            return None
        indent = item[1]
        value = _scalar(item[2].rstrip(" "))
        if value is None:
            return None
        items.append(value)
    return items


def _mapping(lines: list[str]) -> dict[str, Scalar | list[Scalar]] | None:
    mapping: dict[str, Scalar | list[Scalar]] = {}
    indent = None
    for line in lines:
        pair = _INNER.fullmatch(line)
        if pair is None or indent not in (None, pair[1]) or pair[2] in mapping \
                or pair[2].lower() in RESOLVED or not pair[3]:
            return None
        indent = pair[1]
        value = _inline(pair[3].rstrip(" "))
        if value is None:
            return None
        mapping[pair[2]] = value
    return mapping


def _inline(text: str) -> Scalar | list[Scalar] | None:
    """A value on the key's own line: a scalar or a flow list."""
    return _flow(text) if text.startswith("[") else _scalar(text)


def _flow(text: str) -> list[Scalar] | None:
    """`[a, "b c", d]`: words and double-quoted strings only."""
    if text == "[]":
        return []
    items: list[Scalar] = []
    at = 1
    while at < len(text):
        item = _FLOW_ITEM.match(text, at)
        if item is None:
            return None
        word = item[2]
        if word is not None and word.lower() in RESOLVED:
            return None
        items.append(item[1] if word is None else word)
        at = item.end()
        if item[3] == "]":
            return items if at == len(text) else None
    return None


def _scalar(text: str) -> Scalar | None:
    if not text:
        return None
    if text[0] in "\"'":
        return quoted(text)
    if _INTEGER.fullmatch(text):
        return int(text)
    if not text[0].isalpha():
        return None  # numbers, signs, indicators (& * ! | > % @ - [ { …) and the like
    return text if plain_word(text) else None
