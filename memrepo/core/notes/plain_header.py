"""Note headers written as plain `key: value` lines, read without a YAML parser.

Nearly every header is a handful of such lines (name, description, type, updated, aliases
as a list of double-quoted names). Reading them needs no PyYAML, whose import and regexes
cost a hook or a refresh ≈20 ms. `plain_header` gives the mapping the strict YAML reader
would give, or None for anything it is not sure of, and the YAML reader then decides:
a header it accepts is one YAML reads as the same strings.
"""

from __future__ import annotations

import re

MAX_PLAIN_CHARS = 16 * 1024
"""Longer headers go to the YAML reader, which refuses those over its byte limit."""

_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]{0,63}): +(.*)")  # YAML limits a key's length
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DOUBLE = re.compile(r'"([^"\\]*)"')
_SINGLE = re.compile(r"'([^']*)'")
_NAMES = re.compile(r'\[("[^"\\]*"(?:, ?"[^"\\]*")*)?\]')
RESOLVED = frozenset({"yes", "no", "true", "false", "on", "off", "null"})
"""Words YAML 1.1 reads as booleans or null, in any of the cases it knows."""

Value = str | list[str]


def plain_header(text: str) -> dict[str, Value] | None:
    """The header's mapping when every line is `key: value` with a value YAML can only read
    as that string (or a list of double-quoted strings); None to let YAML decide."""
    if len(text) > MAX_PLAIN_CHARS:
        return None
    header: dict[str, Value] = {}
    for line in text.split("\n"):
        if not line.strip(" "):  # YAML's blank line: spaces only (not tabs, NBSP, \x0c…)
            continue
        pair = _pair(line)
        if pair is None or pair[0] in header:
            return None  # a duplicate key: the YAML reader names it with its line
        header[pair[0]] = pair[1]
    return header or None


def _pair(line: str) -> tuple[str, Value] | None:
    if not line.isprintable():  # tabs, control and format characters, Unicode line breaks
        return None
    match = _LINE.fullmatch(line)
    if match is None or match[1].lower() in RESOLVED:
        return None
    value = _value(match[2].rstrip(" "))
    return None if value is None else (match[1], value)


def _value(text: str) -> Value | None:
    if not text:
        return None  # null
    if text[0] in "\"'":
        return quoted(text)
    if text[0] == "[":
        names = _NAMES.fullmatch(text)
        return None if names is None else _DOUBLE.findall(text)
    if not (text[0].isalpha() or _DATE.fullmatch(text)):
        return None  # numbers, indicators (& * ! | > % @ …) and the like
    return text if plain_word(text) else None


def quoted(text: str) -> str | None:
    """A whole double- or single-quoted scalar without escapes, unquoted; None otherwise."""
    match = (_DOUBLE if text[:1] == '"' else _SINGLE).fullmatch(text)
    return None if match is None else match[1]


def plain_word(text: str) -> bool:
    """Whether an unquoted scalar that starts with a letter is read by YAML as the text
    itself: no ": ", no comment, no trailing colon, no boolean or null."""
    return not (": " in text or " #" in text or text.endswith(":")
                or text.lower() in RESOLVED)
