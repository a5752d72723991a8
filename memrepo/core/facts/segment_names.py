"""Fact-log segment names (SPEC §4): the one place a log's file name is parsed.

`memory/facts/<scope>/<YYYY-MM>.jsonl` is the first segment of a month; once it has reached
the config's `segment_max_bytes`, later events of that month go to `<YYYY-MM>.2.jsonl`,
then `.3`, … The newest segment of a month takes the appends. Every module that lists,
sorts or judges log files goes through `parse_log_path` / `parse_segment_name`, so the
writers, the checks, the cache, doctor and sync agree on what a log is.

Names refused (by `parse_…`: not a log at all): `.1` (that segment is `YYYY-MM.jsonl`),
numbers with a leading zero (`.02`), anything else between the month and `.jsonl`.
The rule between segments (`opening_problem`): a new `.N` needs `.N-1` of the same month
and scope, not empty, whose size plus the new segment's first line passes the cap — what
the writer does. So `.3` without `.2` is refused, and so is `.2` opened early.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memrepo.core.config import FACTS_PREFIX, SLUG
from memrepo.core.record_base import Record, init_field

SUFFIX = ".jsonl"
_NAME = re.compile(r"(\d{4}-(?:0[1-9]|1[0-2]))(?:\.([2-9]|[1-9][0-9]{1,5}))?\.jsonl")


class Segment(Record, order=True):
    """One log file; ordered oldest first within a scope (month, then number)."""

    __slots__ = ("month", "number", "scope")
    scope: str
    month: str  # YYYY-MM
    number: int  # 1: YYYY-MM.jsonl; N ≥ 2: YYYY-MM.N.jsonl

    def __init__(self, scope: str, month: str, number: int = 1) -> None:
        init_field(self, "scope", scope)
        init_field(self, "month", month)
        init_field(self, "number", number)

    @property
    def name(self) -> str:
        return segment_name(self.month, self.number)

    @property
    def path(self) -> str:
        return f"{FACTS_PREFIX}{self.scope}/{self.name}"

    def previous(self) -> Segment | None:
        """The segment of the month this one followed (None for the first)."""
        return None if self.number == 1 else Segment(self.scope, self.month, self.number - 1)

    def next(self) -> Segment:
        """The segment of the month opened when this one is full."""
        return Segment(self.scope, self.month, self.number + 1)


def segment_name(month: str, number: int = 1) -> str:
    """`YYYY-MM.jsonl` for the first segment of a month, `YYYY-MM.N.jsonl` after it."""
    return f"{month}{SUFFIX}" if number == 1 else f"{month}.{number}{SUFFIX}"


def parse_segment_name(scope: str, name: str) -> Segment | None:
    """The segment a file name of `scope`'s folder is, or None when it is not a log name."""
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    return Segment(scope, match.group(1), int(match.group(2) or 1))


def parse_log_path(path: str) -> Segment | None:
    """The segment a repository path is (`memory/facts/<scope>/<name>`), or None."""
    if not path.startswith(FACTS_PREFIX):
        return None
    scope, slash, name = path[len(FACTS_PREFIX):].partition("/")
    if not slash or not SLUG.fullmatch(scope):
        return None
    return parse_segment_name(scope, name)


def is_log_path(path: str) -> bool:
    return parse_log_path(path) is not None


def sorted_segments(paths: Iterable[str]) -> list[Segment]:
    """The log paths among `paths` as segments, oldest first (scope, month, number) —
    never by the names' text order, which puts `2026-05.10.jsonl` before `2026-05.jsonl`."""
    return sorted(s for s in map(parse_log_path, paths) if s is not None)


def newest_of_month(segments: Iterable[Segment], scope: str, month: str) -> Segment | None:
    """The segment of `scope`'s `month` that takes appends (the highest number)."""
    own = [s for s in segments if s.scope == scope and s.month == month]
    return max(own) if own else None


def newest_paths(paths: Iterable[str]) -> list[str]:
    """The paths among `paths` that are the newest segment of their scope's month."""
    newest: dict[tuple[str, str], Segment] = {}
    for segment in sorted_segments(paths):
        newest[(segment.scope, segment.month)] = segment
    return [segment.path for segment in newest.values()]


def append_target(newest: Segment, size: int, line_bytes: int, cap: int) -> Segment:
    """Where a line of `line_bytes` goes when `newest` (the month's newest segment) holds
    `size` bytes: there, unless it holds something and the line would pass `cap`."""
    return newest.next() if size > 0 and size + line_bytes > cap else newest


def opening_problem(segment: Segment, previous_size: int | None, first_line_bytes: int,
                    cap: int) -> str | None:
    """Why a NEW segment may not be opened (None: it may). `previous_size`: the size of
    `segment.previous()` in the same tree (None: there is no such file)."""
    before = segment.previous()
    if before is None:
        return None
    if previous_size is None:
        return (f"segment {segment.name} is opened without {before.name} "
                f"(segments of a month are numbered without gaps)")
    if previous_size == 0 or previous_size + first_line_bytes <= cap:
        return (f"segment {segment.name} is opened before {before.name} reached "
                f"segment_max_bytes ({cap} bytes; it holds {previous_size})")
    return None
