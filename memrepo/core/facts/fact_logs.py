"""§6.5 fact logs: the rules the fact_logs and fact_times checks (hooks/) apply.

Each changed log keeps its committed bytes as an exact prefix; no log is deleted or
renamed; paths are memory/facts/<scope>/<YYYY-MM>[.N].jsonl (`segment_names`); every
appended line is a valid event (schema/fact-event.schema.json + core.events) in a segment
of its recorded_at month, with a unique id; a retract's target exists in the same scope
(`appended_logs`, `event_problems`); segments open and close by the size rule
(`segment_rules`). With the commit message: an appended event's `recorded_at` is not after
the commit time and not before the parent commit's time (both ± the config's
clock_skew_seconds) — unless the message carries `Imported-from: <source>`, a migration or
demo history whose events keep their original times (`time_problems`). For a merge commit
each parent's log is a subsequence of the merged one (`merge_problems`, `memrepo verify`);
so is the log a branch had in the log of the commit it is moved to (`kept_problems`: a
rebase, revert or amend — the reference-transaction hook, §6.7).

Cost: only the appended bytes are parsed. Duplicate ids are looked for among the new lines
and — by byte search, no parsing — in the committed part of the segment appended to and,
when the ULID's own month is another one, in that month's segments (where a copy of an
old event would be). An id duplicated in another segment of the same month, or a slug id
in another month, is found by `memrepo check --all`. A retract's target is looked up the
same way, then in the scope's other segments newest first; that scan is O(scope) but runs
only for retracts. The time rule decodes one small JSON object
per new line (no schema: malformed lines are `event_problems`' to report).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson

from memrepo.core.change import Change
from memrepo.core.config import FACTS_PREFIX
from memrepo.core.facts.events import Event, millis_of
from memrepo.core.facts.log_lines import LogLine, SchemaCheck, parse_log, split_lines
from memrepo.core.facts.segment_names import Segment, parse_log_path, parse_segment_name
from memrepo.core.facts.times import (
    Instant,
    format_instant,
    is_utc_timestamp,
    month_of,
    parse_instant,
)
from memrepo.core.policy.approval import IMPORT_TRAILER
from memrepo.core.problems import Problem
from memrepo.core.trailers import trailer_values

APPEND_FIX = ("restore the committed lines (git checkout HEAD -- {path}) and append new "
              "events at the end; withdraw a wrong fact by appending a retract event")
ID_FIX = "give every event a fresh id (memrepo remember makes ULIDs)"
_SECOND = 1_000_000


@dataclass(frozen=True, slots=True)
class Appended:
    """What a commit appends to one log: the committed bytes and the new tail."""

    path: str
    segment: Segment
    existing: bytes
    tail: bytes
    first_line: int

    @property
    def scope(self) -> str:
        return self.segment.scope

    @property
    def month(self) -> str:
        return self.segment.month


def appended_logs(change: Change) -> tuple[list[Appended], list[Problem]]:
    """The appended tail of every changed log, and the problems with the change's shape
    (deleted logs, stray files, rewritten lines)."""
    kept = _APPENDED.get(id(change))
    if kept is None or kept[0] is not change:  # fact_logs and fact_times ask for the same
        _APPENDED.clear()  # it holds whole segments: keep one change's only
        logs, problems = _appended_logs(change)
        kept = _APPENDED[id(change)] = (change, logs, problems)
    return list(kept[1]), list(kept[2])


_APPENDED: dict[int, tuple[Change, list[Appended], list[Problem]]] = {}


def _appended_logs(change: Change) -> tuple[list[Appended], list[Problem]]:
    logs: list[Appended] = []
    problems: list[Problem] = []
    for file in change.under(FACTS_PREFIX):
        result = _appended(change, file.path, file.status)
        if isinstance(result, Appended):
            logs.append(result)
        elif result is not None:
            problems.append(result)
    return logs, problems


def _appended(change: Change, path: str, status: str) -> Appended | Problem | None:
    if status == "deleted":
        return Problem(path, "a fact log was deleted or renamed; logs are never deleted "
                       "or renamed", f"restore it: git checkout HEAD -- {path} (to withdraw "
                       "facts append end or retract events)")
    segment = parse_log_path(path)
    if segment is None:
        return Problem(path, "files under memory/facts/ must be logs named "
                       "memory/facts/<scope>/<YYYY-MM>.jsonl or, after it, "
                       "<YYYY-MM>.<N>.jsonl (N = 2, 3, …; scope: a lowercase slug)",
                       "rename or remove this file")
    old = (change.old.read(path) or b"") if status == "modified" else b""
    new = change.new.read(path) or b""
    if not new.startswith(old) and change.merge and _is_subsequence(old, new):
        return _merged_in(path, segment, old, new)
    if not new.startswith(old):
        line = first_difference(old, new)
        return Problem(path, f"committed lines were edited, removed or reordered (first at "
                       f"line {line}); logs are append-only", APPEND_FIX.format(path=path),
                       line)
    first_line = old.count(b"\n") + 1
    if old and not old.endswith(b"\n") and len(new) > len(old):
        return Problem(path, "the committed last line has no \\n ending, so appending "
                       "changes it", "restore the committed file and repair that line in a "
                       "separate commit (`memrepo doctor --repair`)", first_line)
    return Appended(path, segment, old, new[len(old):], first_line)


def _is_subsequence(old: bytes, new: bytes) -> bool:
    return _first_missing(old.split(b"\n"), new.split(b"\n")) is None


def _merged_in(path: str, segment: Segment, old: bytes, new: bytes) -> Appended:
    """A union merge interleaves the other side's lines with the first parent's (SPEC §5.6):
    the lines the first parent lacks are checked as appended (numbered from the first)."""
    known = set(old.split(b"\n"))
    lines = new.split(b"\n")
    added = [number for number, line in enumerate(lines, 1) if line not in known]
    tail = b"".join(lines[number - 1] + b"\n" for number in added)
    return Appended(path, segment, old, tail, added[0] if added else len(lines))


def first_difference(old: bytes, new: bytes) -> int:
    """The 1-based number of the first line where `new` stops repeating `old`."""
    old_lines, new_lines = old.split(b"\n"), new.split(b"\n")
    for number, (before, after) in enumerate(zip(old_lines, new_lines, strict=False), 1):
        if before != after:
            return number
    return min(len(old_lines), len(new_lines))


def event_problems(change: Change, logs: Sequence[Appended], schema_check: SchemaCheck,
                   ) -> list[Problem]:
    """Every appended line is a valid event (`schema_check`: the event JSON Schema) in the
    segment of its recorded_at month, with a new id; a retract's target exists."""
    problems: list[Problem] = []
    seen: dict[tuple[str, str], tuple[Appended, LogLine]] = {}
    retracts: list[tuple[Appended, LogLine]] = []
    for log, line in _parsed_lines(logs, schema_check):
        if line.event is None:
            problems.append(Problem(log.path, line.error or "invalid event",
                                    "write one JSON event per line "
                                    "(schema/fact-event.schema.json)", line.number))
            continue
        problems.extend(_line_problems(change, logs, log, line, seen))
        if line.event.op == "retract":
            retracts.append((log, line))
    for log, line in retracts:
        problems.extend(_target_problems(change, logs, log, line, seen))
    return problems


def _parsed_lines(logs: Sequence[Appended], schema_check: SchemaCheck,
                  ) -> Iterator[tuple[Appended, LogLine]]:
    for log in logs:
        for line in parse_log(log.tail, log.scope, schema_check, log.first_line):
            yield log, line


def _line_problems(change: Change, logs: Sequence[Appended], log: Appended, line: LogLine,
                   seen: dict[tuple[str, str], tuple[Appended, LogLine]]) -> list[Problem]:
    event = _event(line)
    problems = []
    if month_of(event.recorded_at) != log.month:
        month = month_of(event.recorded_at)
        problems.append(Problem(
            log.path, f"event recorded at {format_instant(event.recorded_at)} belongs in "
            f"{month}.jsonl (or a later segment of {month}), not {log.segment.name}",
            f"append it to the newest segment of memory/facts/{log.scope}/{month}… (an "
            "event goes to a segment of its recorded_at month)", line.number))
    earlier = seen.get((log.scope, event.id))
    if earlier is not None:
        problems.append(Problem(log.path, f"id {event.id} is used twice (also at "
                                f"{earlier[0].path}:{earlier[1].number})", ID_FIX, line.number))
    elif _committed_line(change, logs, log.scope, event.id, _id_segments(change, log, event.id)):
        problems.append(Problem(log.path, f"id {event.id} already exists in this scope's log",
                                ID_FIX, line.number))
    seen.setdefault((log.scope, event.id), (log, line))
    return problems


def _target_problems(change: Change, logs: Sequence[Appended], log: Appended, line: LogLine,
                     seen: dict[tuple[str, str], tuple[Appended, LogLine]]) -> list[Problem]:
    target = _event(line).target or ""
    new = seen.get((log.scope, target))
    op = _event(new[1]).op if new is not None else _committed_op(change, logs, log, target)
    if op in ("assert", "end"):
        return []
    problem = (f"retract target {target} is itself a retract" if op == "retract"
               else f"retract target {target} does not exist in scope {log.scope}")
    return [Problem(log.path, problem, "retract the id of an existing assert or end of this "
                    "scope (`memrepo history` lists them)", line.number)]


def _committed_op(change: Change, logs: Sequence[Appended], log: Appended,
                  target: str) -> str | None:
    hinted = _id_segments(change, log, target)
    everything = [s.path for s in reversed(_scope_segments(change, log.scope))]
    for segments in (hinted, [s for s in everything if s not in hinted]):
        raw = _committed_line(change, logs, log.scope, target, segments)
        if raw is not None:
            return str(raw.get("op"))
    return None


def _id_segments(change: Change, log: Appended, event_id: str) -> list[str]:
    """The segments an id most likely lives in: the one appended to and, when the ULID's
    month is another, that month's segments (newest first). The other segments of the
    month appended to are not searched: a write's cost stays that of one segment."""
    segments = [log.path]
    millis = millis_of(event_id)
    month = None if millis is None else month_of(millis * 1000)
    if month is not None and month != log.month:
        segments += [s.path for s in reversed(_scope_segments(change, log.scope))
                     if s.month == month]
    return segments


def _scope_segments(change: Change, scope: str) -> list[Segment]:
    """The scope's segments in the new tree, oldest first."""
    names = change.new.list_dir(f"{FACTS_PREFIX}{scope}")
    return sorted(s for s in (parse_segment_name(scope, n) for n in names) if s is not None)


def _committed_line(change: Change, logs: Sequence[Appended], scope: str, event_id: str,
                    segments: Sequence[str]) -> dict[str, Any] | None:
    """The committed line (not one appended now) with this id in one of `segments`."""
    appended = {log.path: log.existing for log in logs if log.scope == scope}
    for segment in segments:
        data = appended[segment] if segment in appended else change.new.read(segment)
        found = find_event(data or b"", event_id)
        if found is not None:
            return found
    return None


def find_event(data: bytes, event_id: str) -> dict[str, Any] | None:
    """The event with `event_id` in log bytes.

    The first few look-ups in one segment are byte searches that parse only the hits; a
    commit that appends many lines (a batch) then parses the segment once and answers from
    a dict, so checking n new lines costs O(n + segment), not O(n × segment)."""
    memo = _SegmentMemo.of(data)
    memo.lookups += 1
    if memo.by_id is None and memo.lookups > _SEARCHES_BEFORE_INDEX:
        memo.by_id = _events_by_id(data)
    if memo.by_id is not None:
        return memo.by_id.get(event_id)
    return _search(data, event_id)


_SEARCHES_BEFORE_INDEX = 8


@dataclass(slots=True)
class _SegmentMemo:
    data: bytes
    lookups: int = 0
    by_id: dict[str, dict[str, Any]] | None = None

    _recent: ClassVar[OrderedDict[int, _SegmentMemo]] = OrderedDict()

    @classmethod
    def of(cls, data: bytes) -> _SegmentMemo:
        memo = cls._recent.get(id(data))
        if memo is None or memo.data is not data:  # the memo holds `data`, so ids can't clash
            memo = cls._recent[id(data)] = cls(data)
            while len(cls._recent) > 4:
                cls._recent.popitem(last=False)
        return memo


def _events_by_id(data: bytes) -> dict[str, dict[str, Any]]:
    events = (_json_object(line) for line in data.split(b"\n") if line)
    return {str(raw.get("id")): raw for raw in events if raw is not None}


def _search(data: bytes, event_id: str) -> dict[str, Any] | None:
    needle = orjson.dumps(event_id)
    start = data.find(needle)
    while start >= 0:
        begin = data.rfind(b"\n", 0, start) + 1
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        raw = _json_object(data[begin:end])
        if raw is not None and raw.get("id") == event_id:
            return raw
        start = data.find(needle, end)
    return None


def _json_object(line: bytes) -> dict[str, Any] | None:
    try:
        raw = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return raw if isinstance(raw, dict) else None


def _event(line: LogLine) -> Event:
    assert line.event is not None  # callers pass parsed lines only
    return line.event


def merge_problems(path: str, merged: bytes, parents: Sequence[bytes]) -> list[Problem]:
    """For a merge commit: every parent's version of a log is a line-wise subsequence of
    the merged log (a union merge interleaves lines but never drops one)."""
    merged_lines = merged.split(b"\n")
    problems = []
    for number, parent in enumerate(parents, 1):
        missing = _first_missing(parent.split(b"\n"), merged_lines)
        if missing is not None:
            problems.append(Problem(
                path, f"the merge lost or reordered line {missing} of parent {number}'s log",
                "redo the merge keeping every line of both sides (.gitattributes: "
                "memory/facts/**/*.jsonl merge=union)"))
    return problems


KEPT_FIX = ("keep every line the branch has and append the change instead: `memrepo forget` "
            "ends a fact, `memrepo retract` withdraws a wrong one")


def kept_problems(path: str, before: bytes, after: bytes | None) -> list[Problem]:
    """SPEC §6.7, a branch that moves to another commit (a rebase, revert, amend, reset,
    cherry-pick): every line its log `path` had (`before`) is still there, in order, in
    the log it moves to (`after`; None: the log is gone). Lines may be added anywhere — a
    rebase puts other commits' lines before the branch's own."""
    if after is None:
        return [Problem(path, "the branch would lose this fact log (deleted or renamed); "
                        "logs are never deleted", KEPT_FIX)]
    old_lines = before.split(b"\n")
    missing = _first_missing(old_lines, after.split(b"\n"))
    if missing is None:
        return []
    raw = _json_object(old_lines[missing - 1])
    which = f" (event {raw.get('id')})" if raw is not None and raw.get("id") else ""
    return [Problem(path, f"line {missing}{which}, which the branch has, would be removed, "
                    "changed or moved; fact logs are append-only", KEPT_FIX, missing)]


def _first_missing(part: list[bytes], whole: list[bytes]) -> int | None:
    position = 0
    for line in whole:
        if position < len(part) and line == part[position]:
            position += 1
    return None if position == len(part) else position + 1


# --- the part that needs the commit message (fact_times) ----------------------------------

def time_problems(change: Change) -> list[Problem]:
    """Every appended event's recorded_at lies between the parent commit and this one
    (± clock_skew_seconds), unless the message has an `Imported-from:` trailer."""
    logs, _ = appended_logs(change)  # the shape problems are reported by event_problems
    if not logs:
        return []
    skew = change.config.clock_skew_seconds * _SECOND
    latest = change.commit_time + skew
    imported = bool(trailer_values(change.message or "", IMPORT_TRAILER))
    earliest = None if imported or change.parent_time is None else change.parent_time - skew
    problems = []
    for log in logs:
        problems.extend(_log_problems(log, latest, earliest, change))
    return problems


def _log_problems(log: Appended, latest: Instant, earliest: Instant | None,
                  change: Change) -> list[Problem]:
    problems = []
    for number, raw_line in split_lines(log.tail, log.first_line):
        recorded = recorded_at_of(raw_line)
        if recorded is None:
            continue
        if recorded > latest:
            problems.append(Problem(
                log.path, f"recorded_at {format_instant(recorded)} is after the commit "
                f"({format_instant(change.commit_time)})",
                "recorded_at is when the memory learned the fact: use the current time "
                "(memrepo remember sets it) and check this machine's clock", number))
        elif earliest is not None and recorded < earliest:
            problems.append(Problem(
                log.path, f"recorded_at {format_instant(recorded)} is before the parent "
                f"commit ({format_instant(change.parent_time or 0)}): a back-dated event",
                f"record it with the current time; for an import from another memory add "
                f"the trailer '{IMPORT_TRAILER}: <source>' to the commit message", number))
    return problems


def recorded_at_of(raw_line: bytes) -> Instant | None:
    """The line's recorded_at, or None when the line is not readable enough to tell."""
    try:
        raw: Any = orjson.loads(raw_line)
    except orjson.JSONDecodeError:
        return None
    value = raw.get("recorded_at") if isinstance(raw, dict) else None
    if not isinstance(value, str) or not is_utc_timestamp(value):
        return None
    return parse_instant(value)

