"""Fact log segments (memory/facts/<scope>/<YYYY-MM>[.N].jsonl): bytes → events with line numbers.

Shared by the commit-time check, the writers and the cache, so a line is judged the same
everywhere. Schema validation is passed in as a function to keep this module pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson

from memrepo.core.facts.events import Event, EventError, check_structure, event_from
from memrepo.core.facts.segment_names import parse_log_path
from memrepo.core.record_base import Record, init_field

MAX_LINE_BYTES = 64 * 1024

SchemaCheck = Callable[[Any], list[str]]


class LogLine(Record):
    __slots__ = ("error", "event", "number")
    number: int  # 1-based
    event: Event | None
    error: str | None

    def __init__(self, number: int, event: Event | None, error: str | None) -> None:
        init_field(self, "number", number)
        init_field(self, "event", event)
        init_field(self, "error", error)


def scope_of(path: str) -> str | None:
    """The scope of a log path, or None when the path is not a well-formed log path."""
    segment = parse_log_path(path)
    return segment.scope if segment else None


def split_lines(data: bytes, first_line: int = 1) -> Iterator[tuple[int, bytes]]:
    """Complete `\\n`-terminated lines with their numbers; a partial tail is yielded too."""
    if not data:
        return
    number = first_line
    for chunk in data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n"):
        yield number, chunk
        number += 1


def parse_line(raw_line: bytes, scope: str, check: SchemaCheck) -> Event:
    """One log line → Event; raise EventError with a readable reason otherwise."""
    if len(raw_line) > MAX_LINE_BYTES:
        raise EventError(f"line is longer than {MAX_LINE_BYTES // 1024} KiB")
    if raw_line.endswith(b"\r"):
        raise EventError("line ends with CRLF; logs use \\n line endings only")
    try:
        raw = orjson.loads(raw_line)
    except orjson.JSONDecodeError as err:
        raise EventError(f"not valid JSON (or not UTF-8): {err}") from None
    if not isinstance(raw, dict):
        raise EventError("a line must be one JSON object")
    check_structure(raw)  # first: its reasons never quote a value (a schema's may)
    errors = check(raw)
    if errors:
        raise EventError("; ".join(errors))
    return event_from(raw, scope)


def parse_log(data: bytes, scope: str, check: SchemaCheck, first_line: int = 1,
              ) -> list[LogLine]:
    """Every line of a segment (or of an appended tail starting at `first_line`)."""
    lines = []
    for number, raw_line in split_lines(data, first_line):
        try:
            lines.append(LogLine(number, parse_line(raw_line, scope, check), None))
        except EventError as err:
            lines.append(LogLine(number, None, str(err)))
    if data and not data.endswith(b"\n"):
        last = lines[-1]
        lines[-1] = LogLine(last.number, None, "last line is not terminated by \\n "
                            "(a partial write?)")
    return lines


def event_to_json(event: dict[str, Any]) -> bytes:
    """Serialise an event dict as one log line, `\\n`-terminated, keys in a stable order."""
    return orjson.dumps(event) + b"\n"
