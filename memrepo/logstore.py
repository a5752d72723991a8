"""Fact log segments in the working tree: where an event goes, and reading events back.

Every line is judged by the same code the commit-time check uses (`core.logs.parse_log`
with the repository's schema); a bad line is never skipped silently — it raises an
InputError naming `path:line` and the fix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memrepo.core.events import Event
from memrepo.core.logs import LogLine, parse_log
from memrepo.core.problems import InputError, Problem
from memrepo.core.times import Instant, month_of
from memrepo.schemas import EVENT_SCHEMA, schema_errors

FACTS_DIR = "memory/facts"
_SCOPE = re.compile(r"[a-z0-9][a-z0-9-]*")
_SEGMENT = re.compile(r"\d{4}-(0[1-9]|1[0-2])\.jsonl")
REPAIR_HINT = "run `memrepo doctor --repair` (it moves the partial line aside)"


def check_scope(scope: str) -> str:
    """The scope itself when it is a slug; InputError otherwise."""
    if not _SCOPE.fullmatch(scope) or len(scope) > 100:
        raise InputError(Problem("--scope", f"scope {scope!r} is not a slug",
                                 "use lowercase letters, digits and '-', e.g. 'michal'"))
    return scope


def segment_path(scope: str, recorded_at: Instant) -> str:
    """The repo-relative segment an event recorded at `recorded_at` is appended to."""
    return f"{FACTS_DIR}/{check_scope(scope)}/{month_of(recorded_at)}.jsonl"


def segment_paths(root: Path, scope: str) -> list[str]:
    """Repo-relative paths of the scope's segments in the working tree, oldest first."""
    directory = root / FACTS_DIR / check_scope(scope)
    if not directory.is_dir():
        return []
    names = sorted(p.name for p in directory.iterdir() if _SEGMENT.fullmatch(p.name))
    return [f"{FACTS_DIR}/{scope}/{name}" for name in names]


def parse_segment(root: Path, path: str, data: bytes, first_line: int = 1) -> list[Event]:
    """The events of segment bytes (or of a tail starting at `first_line`); InputError
    naming `path:line` for the first line that is not a valid event."""
    if not data:  # core.logs.split_lines reports an empty file as one empty line
        return []
    scope = path.split("/")[2]
    lines = parse_log(data, scope, _schema_check(root), first_line)
    partial = lines[-1].number if data and not data.endswith(b"\n") else None
    return [_event_or_raise(path, line, line.number == partial) for line in lines]


def read_segment(root: Path, path: str) -> list[Event]:
    file = root / path
    return parse_segment(root, path, file.read_bytes()) if file.is_file() else []


def read_scope(root: Path, scope: str) -> list[Event]:
    """Every event of a scope in the working tree (committed or not), in file order."""
    events: list[Event] = []
    for path in segment_paths(root, scope):
        events.extend(read_segment(root, path))
    return events


def key_events(events: Iterable[Event], subject: str, relation: str) -> list[Event]:
    """The asserts and ends of one key plus the retracts that target them."""
    own = [e for e in events if e.op != "retract"
           and e.subject == subject and e.relation == relation]
    ids = {e.id for e in own}
    return own + [e for e in events if e.op == "retract" and e.target in ids]


def read_key(root: Path, scope: str, subject: str, relation: str) -> list[Event]:
    return key_events(read_scope(root, scope), subject, relation)


def _schema_check(root: Path) -> Any:
    def check(raw: Any) -> list[str]:
        return schema_errors(raw, EVENT_SCHEMA, root)
    return check


def _event_or_raise(path: str, line: LogLine, partial: bool) -> Event:
    if line.event is not None:
        return line.event
    fix = REPAIR_HINT if partial else (
        "correct the line if it is not committed yet; a committed bad line is set aside "
        "by `memrepo doctor --repair`")
    raise InputError(Problem(path, line.error or "invalid event", fix, line.number))
