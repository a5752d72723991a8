"""Fact log segments in the working tree: where an event goes, and reading events back.

Every line is judged by the same code the commit-time check uses (`core.log_lines.parse_log`
with the repository's schema); a bad line is never skipped silently — it raises an
InputError naming `path:line` and the fix.

The write path reads only what it needs (`read_key`, `read_event`, `latest_id`): a byte
scan picks the candidate lines (those containing the JSON-encoded subject or id, every
retract, and every line with a backslash — the only way a value can be spelt differently
in JSON), and only those are decoded and validated. A scope of 100k events then costs a
few milliseconds instead of seconds of schema validation.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from memrepo.config import head_config
from memrepo.core.facts.events import Event, EventError
from memrepo.core.facts.log_lines import LogLine, parse_line, parse_log
from memrepo.core.facts.segment_names import (
    Segment,
    append_target,
    newest_of_month,
    parse_segment_name,
)
from memrepo.core.facts.times import Instant, month_of
from memrepo.core.facts.ulids import ulid_text
from memrepo.core.policy.trust import check_scope
from memrepo.core.problems import InputError, Problem
from memrepo.core.text import key_slug
from memrepo.files import read_beneath
from memrepo.git import write as gitw
from memrepo.schemas import EVENT_SCHEMA, checker

FACTS_DIR = "memory/facts"
REPAIR_HINT = "run `memrepo doctor --repair` (it moves the partial line aside)"


def month_segment(scope: str, recorded_at: Instant) -> Segment:
    """The first segment of `recorded_at`'s month (where a message names the month)."""
    return Segment(check_scope(scope), month_of(recorded_at))


def newest_segment(root: Path, scope: str, recorded_at: Instant) -> Segment:
    """The segment of `recorded_at`'s month that takes appends: the highest-numbered one
    HEAD holds (SPEC §4), or the month's first when HEAD has none."""
    first = month_segment(scope, recorded_at)
    rules = gitw.head_rules(root)
    names = [] if rules is None else rules.list_dir(f"{FACTS_DIR}/{first.scope}")
    return newest_of_month((s for s in (parse_segment_name(first.scope, n) for n in names)
                            if s is not None), first.scope, first.month) or first


def append_path(root: Path, scope: str, recorded_at: Instant, line_bytes: int,
                pending: Mapping[str, int] | None = None) -> str:
    """The segment a line of `line_bytes` recorded at `recorded_at` is appended to: the
    month's newest, or the next one when the newest (as committed, plus the `pending`
    bytes a batch has put there already) holds something and the line would pass the
    config's `segment_max_bytes` — the rule the commit-time check judges it by (HEAD's
    config and blob sizes, so lines beyond HEAD in the working file do not count)."""
    segment = newest_segment(root, scope, recorded_at)
    cap = segment_cap(root)
    pending = pending or {}
    while True:
        size = _committed_size(root, segment.path) + pending.get(segment.path, 0)
        target = append_target(segment, size, line_bytes, cap)
        if target == segment:
            return segment.path
        segment = target


def add_line(root: Path, appends: dict[str, bytearray], scope: str, recorded_at: Instant,
             line: bytes) -> None:
    """Put `line` into `appends` (path → the lines one commit appends there) in the
    segment `append_path` chooses, counting what `appends` holds already."""
    pending = {path: len(data) for path, data in appends.items()}
    appends.setdefault(append_path(root, scope, recorded_at, len(line), pending),
                       bytearray()).extend(line)


def _committed_size(root: Path, path: str) -> int:
    base = gitw.head_base(gitw.open_repo(root))
    return (gitw.blob_size_at(base, path) or 0) if base.tree is not None else 0


def segment_cap(root: Path) -> int:
    """HEAD's `segment_max_bytes` (the parent config the commit is checked by)."""
    return head_config(root).segment_max_bytes


def segment_paths(root: Path, scope: str) -> list[str]:
    """Repo-relative paths of the scope's segments in the working tree, oldest first."""
    directory = root / FACTS_DIR / check_scope(scope)
    if not directory.is_dir():
        return []
    found = (parse_segment_name(scope, p.name) for p in directory.iterdir() if p.is_file())
    return [s.path for s in sorted(s for s in found if s is not None)]


class _Reads(threading.local):
    def __init__(self) -> None:
        self.held: dict[str, dict[str, bytes | None]] = {}  # root → path → bytes


_READS = _Reads()


@contextmanager
def read_once(root: Path) -> Iterator[None]:
    """Within: each segment is read once (`segment_bytes`), however many times one write
    looks at it (its key's events, the latest id, the committed content), until the write
    appends to it (`reread`). Only inside the write lock, where nothing but the write
    itself changes a segment."""
    _READS.held[str(root)] = {}
    try:
        yield
    finally:
        _READS.held.pop(str(root), None)


def segment_bytes(root: Path, path: str) -> bytes | None:
    """The working segment's bytes (None when missing; InputError for a symbolic link),
    read once inside `read_once`."""
    held = _READS.held.get(str(root))
    if held is None:
        return read_beneath(root, path)
    if path not in held:
        held[path] = read_beneath(root, path)
    return held[path]


def reread(root: Path, path: str | None = None) -> None:
    """The segment at `path` (None: every segment) is read again when next asked for: the
    write changed it, or let a git command run."""
    held = _READS.held.get(str(root))
    if held is not None:
        held.clear() if path is None else held.pop(path, None)


def parse_segment(root: Path, path: str, data: bytes, first_line: int = 1) -> list[Event]:
    """The events of segment bytes (or of a tail starting at `first_line`); InputError
    naming `path:line` for the first line that is not a valid event."""
    if not data:  # core.log_lines.split_lines reports an empty file as one empty line
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
    """The asserts and ends of one key (compared folded, SPEC §4) plus the retracts that
    target them."""
    key = (key_slug(subject), key_slug(relation))
    own = [e for e in events if e.op != "retract"
           and (key_slug(e.subject), key_slug(e.relation)) == key]
    ids = {e.id for e in own}
    return own + [e for e in events if e.op == "retract" and e.target in ids]


def read_key(root: Path, scope: str, subject: str, relation: str,
             spellings: Iterable[str] = ()) -> list[Event]:
    """`key_events(read_scope(...))` without reading the rest of the scope. The byte scan
    looks for `subject` and `spellings` (the other spellings of it the logs hold: a line
    written in a spelling not among them is not found)."""
    key = (key_slug(subject), key_slug(relation))

    def own(raw: dict[str, Any]) -> bool:
        return _folded(raw) == key
    return _with_retracts(root, scope, [_json(s) for s in {subject, *spellings}], own)


def read_keys(root: Path, scope: str, keys: Iterable[tuple[str, str]],
              spellings: Iterable[str] = ()) -> dict[tuple[str, str], list[Event]]:
    """`read_key` for many (subject, relation) keys at once (every key given is in the
    answer; keys equal after folding share their events). Many subjects: every line is
    decoded (one pass of orjson) rather than scanned for."""
    given = set(keys)
    folded = {(key_slug(s), key_slug(r)) for s, r in given}
    subjects = sorted({subject for subject, _ in given} | set(spellings))
    needles = [_json(s) for s in subjects] if len(subjects) <= _FEW else None

    def own(raw: dict[str, Any]) -> bool:
        return _folded(raw) in folded
    found: dict[tuple[str, str], list[Event]] = {key: [] for key in folded}
    events = _with_retracts(root, scope, needles, own)
    key_of = {e.id: (key_slug(e.subject), key_slug(e.relation)) for e in events
              if e.op != "retract"}
    for event in events:
        found[key_of[event.target or "" if event.op == "retract" else event.id]].append(event)
    return {(s, r): found[(key_slug(s), key_slug(r))] for s, r in given}


def _folded(raw: dict[str, Any]) -> tuple[str, str] | None:
    subject, relation = raw.get("subject"), raw.get("relation")
    if not isinstance(subject, str) or not isinstance(relation, str):
        return None
    return key_slug(subject), key_slug(relation)


def scope_keys_in_logs(root: Path, scope: str) -> list[tuple[str, str, str, str]]:
    """(recorded_at, id, subject, relation) of every assert and end of the scope, decoded
    but not validated (the keys a write compares a new key with when there is no cache)."""
    found = []
    for *_, raw in _candidates(root, scope, None):
        subject, relation = raw.get("subject"), raw.get("relation")
        if raw.get("op") in ("assert", "end") and isinstance(subject, str) and isinstance(
                relation, str):
            found.append((str(raw.get("recorded_at")), str(raw.get("id")), subject, relation))
    return found


def read_event(root: Path, scope: str, event_id: str) -> list[Event]:
    """The event with `event_id` (if any) and the retracts that target it."""
    def own(raw: dict[str, Any]) -> bool:
        return raw.get("id") == event_id
    return _with_retracts(root, scope, [_json(event_id)], own)


_ID_TAIL = re.compile(rb"[0-9A-HJKMNP-TV-Z]{16}")
_ID_KEY = re.compile(rb'"id"\s*:\s*"$')


def latest_id(root: Path, path: str, millis: int) -> str | None:
    """The largest ULID of millisecond `millis` among the `id`s of a segment (None when it
    has none): the only ids a new id of that millisecond must sort after. Found by a byte
    search for the ids' time prefix, so a long segment costs one scan, not a parse."""
    data = segment_bytes(root, path) or b""
    prefix = ulid_text(millis, 0)[:10].encode()
    found = []
    at = data.find(prefix)
    while at >= 0:
        end = at + 26
        if (_ID_TAIL.fullmatch(data, at + 10, end) and data[end:end + 1] == b'"'
                and _ID_KEY.search(data, max(0, at - 12), at)):
            found.append(data[at:end])
        at = data.find(prefix, at + 1)
    return max(found).decode() if found else None


# --- the byte scan ------------------------------------------------------------------------

_FEW = 8
_RETRACT = b'"retract"'
_BACKSLASH = b"\\"
Candidate = tuple[str, bytes, int, int, dict[str, Any]]  # path, data, start, end, decoded


def _json(value: str) -> bytes:
    return orjson.dumps(value)


def _with_retracts(root: Path, scope: str, needles: Sequence[bytes] | None,
                   own: Callable[[dict[str, Any]], bool]) -> list[Event]:
    """The events `own` accepts plus the retracts that target them, in file order
    (`needles` None: every line is a candidate)."""
    scan = None if needles is None else [*needles, _RETRACT, _BACKSLASH]
    candidates = list(_candidates(root, scope, scan))
    mine = [c for c in candidates if own(c[4])]
    ids = {c[4].get("id") for c in mine}
    retracts = [c for c in candidates if c[4].get("op") == "retract"
                and c[4].get("target") in ids and not own(c[4])]
    return [_validated(root, scope, c) for c in mine + retracts]


def read_key_in(root: Path, scope: str, paths: Sequence[str], subject: str, relation: str,
                spellings: Iterable[str], targets: Iterable[str]) -> list[Found]:
    """`read_key` over the logs at `paths` alone: the key's events there and the retracts
    there of them or of `targets` (ids of the key's events read elsewhere), each with its
    path and its position in that log (byte offset: its order among the log's lines)."""
    key = (key_slug(subject), key_slug(relation))
    scan = [*(_json(s) for s in sorted({subject, *spellings})), _RETRACT, _BACKSLASH]
    candidates = list(_candidates(root, scope, scan, paths))
    mine = [c for c in candidates if _folded(c[4]) == key]
    ids = {c[4].get("id") for c in mine} | set(targets)
    retracts = [c for c in candidates if c[4].get("op") == "retract"
                and c[4].get("target") in ids]
    return [(c[0], c[2], _validated(root, scope, c)) for c in mine + retracts]


Found = tuple[str, int, Event]
"""An event with the log it is in and its position there (a line number, or a byte
offset: what orders the log's events)."""


def _candidates(root: Path, scope: str, needles: Sequence[bytes] | None,
                paths: Sequence[str] | None = None) -> Iterator[Candidate]:
    for path in segment_paths(root, scope) if paths is None else paths:
        data = segment_bytes(root, path) or b""
        spans = _every_line(data) if needles is None else _lines_containing(data, needles)
        for start, end in spans:
            yield path, data, start, end, _decoded(root, data, path, start, end)


def _every_line(data: bytes) -> list[tuple[int, int]]:
    if not data:
        return []
    spans, start = [], 0
    for line in data.split(b"\n"):
        spans.append((start, start + len(line)))
        start += len(line) + 1
    return spans[:-1] if data.endswith(b"\n") else spans


def _lines_containing(data: bytes, needles: Sequence[bytes]) -> list[tuple[int, int]]:
    """(start, end) of every line holding one of `needles`, in file order."""
    found: set[tuple[int, int]] = set()
    for needle in needles:
        at = data.find(needle)
        while at >= 0:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = len(data) if end < 0 else end
            found.add((start, end))
            at = data.find(needle, end)
    return sorted(found)


def _decoded(root: Path, data: bytes, path: str, start: int, end: int) -> dict[str, Any]:
    """The line as a JSON object; a line that is not one raises like a full read does."""
    try:
        raw = orjson.loads(data[start:end])
    except orjson.JSONDecodeError:
        raw = None
    if isinstance(raw, dict) and end < len(data):
        return raw
    raise _line_error(root, path, data, start, end)


def _validated(root: Path, scope: str, candidate: Candidate) -> Event:
    path, data, start, end, _ = candidate
    try:
        return parse_line(data[start:end], scope, _schema_check(root))
    except EventError:
        raise _line_error(root, path, data, start, end) from None


def _line_error(root: Path, path: str, data: bytes, start: int, end: int) -> InputError:
    """The error a full read reports for the line data[start:end]."""
    first = data.count(b"\n", 0, start) + 1
    line = data[start:end + 1]  # with its \n, when it has one
    [parsed] = parse_log(line, path.split("/")[2], _schema_check(root), first)
    partial = not line.endswith(b"\n")
    return InputError(Problem(path, parsed.error or "invalid event",
                              REPAIR_HINT if partial else _BAD_LINE_FIX, first))


def _schema_check(root: Path) -> Callable[[Any], list[str]]:
    return checker(EVENT_SCHEMA, gitw.head_rules(root))


_BAD_LINE_FIX = ("correct the line if it is not committed yet; a committed bad line is "
                 "reported by `memrepo doctor`")


def _event_or_raise(path: str, line: LogLine, partial: bool) -> Event:
    if line.event is not None:
        return line.event
    fix = REPAIR_HINT if partial else _BAD_LINE_FIX
    raise InputError(Problem(path, line.error or "invalid event", fix, line.number))
