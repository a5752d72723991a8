"""The fact write path (SPEC §4, §5, §8): remember / forget / retract.

Each call validates its event with the code the hooks use, takes the write lock, decides
whether the event changes anything, appends exactly one line to the segment of its
`recorded_at` month, runs the §6 checks in-process on the commit it is about to make and
commits HEAD's tree plus that one file. A refusal leaves the file as it was.

Decisions worth knowing:
- `remember` writes nothing (`unchanged`) when the new assert would not change what the key
  holds at any valid time under current knowledge — "the value that already holds".
- `forget` of a key that was never recorded (no live assert) is refused: a misspelt subject
  must not be answered with a silent success. `forget` of a known key that already holds
  nothing from `valid_to` on writes nothing and answers `unchanged`.
- `retract` of an event that is already retracted answers `unchanged` with the existing
  retract's id; an unknown id or a retract as target is refused.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from memrepo.clock import now, parse_user_time
from memrepo.core.config import CONFIG_PATH, Config
from memrepo.core.events import Event, EventError
from memrepo.core.fold import FOREVER, fold
from memrepo.core.logs import event_to_json, parse_line
from memrepo.core.problems import InputError, Problem
from memrepo.core.times import Instant, format_instant, format_valid_time
from memrepo.core.trailers import with_trailers
from memrepo.ids import new_id
from memrepo.logstore import REPAIR_HINT, check_scope, key_events, read_scope, segment_path
from memrepo.records import WriteResult
from memrepo.schemas import EVENT_SCHEMA, schema_errors

LOCK_PATH = ".memrepo/write.lock"
UNTRUSTED_CONFIDENCE = 0.3
QUARANTINE_PREFIX = "quarantine-"


def remember(root: Path, *, scope: str, subject: str, relation: str, object: str,
             valid_from: str | None = None, valid_to: str | None = None,
             quote: str | None = None, source: str = "manual", session: str = "cli",
             confidence: float = 1.0, trust: str = "host",
             trailers: Sequence[tuple[str, str]] = ()) -> WriteResult:
    """Append an assert "subject.relation = object from valid_from" and commit it.

    `trailers` are added to the commit message after Session/Source/Trust (e.g. who
    promoted a quarantined fact, and why)."""
    scope = target_scope(scope, trust)
    with write_lock(root):
        recorded_at = now()
        fields = {
            "scope": scope, "subject": subject, "relation": relation, "object": object,
            "valid_from": _valid_time(valid_from, "--valid-from", recorded_at),
            **_optional("valid_to", valid_to, recorded_at),
            "confidence": _confidence(confidence, trust), "trust": trust,
            **({"quote": quote} if quote is not None else {}),
        }
        _require_quote(source, quote)
        events = read_scope(root, scope)
        line, event = _new_event(root, scope, {"op": "assert", "source": source,
                                               "session": session, **fields},
                                 recorded_at, events)
        key = key_events(events, subject, relation)
        many = _config(root).is_many(relation)
        if _no_change(key, event, many):
            return WriteResult("unchanged", _holder_at(key, event, many), None)
        subject_line = f"remember: {scope} {subject}.{relation} = {object}"
        return _write(root, event, line, subject_line, source, session, trust, trailers)


def forget(root: Path, *, scope: str, subject: str, relation: str, reason: str,
           valid_to: str | None = None, object: str | None = None, session: str = "cli",
           source: str = "manual") -> WriteResult:
    """Append an `end`: from valid_to on the key (or that object) holds no value."""
    check_scope(scope)
    with write_lock(root):
        recorded_at = now()
        many = _config(root).is_many(relation)
        if many and object is None:
            raise InputError(Problem("--object", f"{relation!r} is many-valued: say which "
                                     "value ends", "add --object VALUE"))
        fields = {"scope": scope, "subject": subject, "relation": relation,
                  "valid_to": _valid_time(valid_to, "--valid-to", recorded_at),
                  "reason": reason, **({"object": object} if object is not None else {})}
        events = read_scope(root, scope)
        line, event = _new_event(root, scope, {"op": "end", "source": source,
                                               "session": session, **fields},
                                 recorded_at, events)
        key = key_events(events, subject, relation)
        _require_recorded(key, scope, subject, relation, object)
        if _no_change(key, event, many):
            return WriteResult("unchanged", None, None)
        subject_line = f"forget: {scope} {subject}.{relation} ({reason})"
        return _write(root, event, line, subject_line, source, session, "host")


def retract(root: Path, *, scope: str, target: str, reason: str, session: str = "cli",
            source: str = "manual") -> WriteResult:
    """Append a retract: the target event was wrong and is withdrawn in system time."""
    check_scope(scope)
    with write_lock(root):
        recorded_at = now()
        events = read_scope(root, scope)
        earlier = _retract_of(_target_event(events, scope, target), events)
        if earlier is not None:
            return WriteResult("unchanged", earlier.id, None)
        fields = {"op": "retract", "source": source, "session": session,
                  "target": target, "reason": reason}
        line, event = _new_event(root, scope, fields, recorded_at, events)
        subject_line = f"retract: {scope} {target} ({reason})"
        return _write(root, event, line, subject_line, source, session, "host")


def target_scope(scope: str, trust: str) -> str:
    """The scope a write goes to: untrusted writes only ever reach `quarantine-<scope>`."""
    check_scope(scope)
    if trust not in ("host", "untrusted"):
        raise InputError(Problem("--trust", f"trust {trust!r} is neither 'host' nor "
                                 "'untrusted'", "use --trust host or --trust untrusted"))
    if trust == "host" or scope.startswith(QUARANTINE_PREFIX):
        return scope
    return QUARANTINE_PREFIX + scope


# --- building and validating the event ------------------------------------------------


def _valid_time(text: str | None, what: str, recorded_at: Instant) -> str:
    if text is None or text.strip().lower() == "now":
        return format_valid_time(recorded_at)
    return format_valid_time(parse_user_time(text, what))


def _optional(name: str, text: str | None, recorded_at: Instant) -> dict[str, str]:
    return {} if text is None else {name: _valid_time(text, f"--{name.replace('_', '-')}",
                                                      recorded_at)}


def _confidence(confidence: float, trust: str) -> float:
    if not 0.0 <= confidence <= 1.0:
        raise InputError(Problem("--confidence", f"confidence {confidence} is not between "
                                 "0 and 1", "give a number such as 0.8"))
    return min(confidence, UNTRUSTED_CONFIDENCE) if trust == "untrusted" else confidence


def _require_quote(source: str, quote: str | None) -> None:
    if source != "manual" and not (quote or "").strip():
        raise InputError(Problem("--quote", f"a fact from source {source!r} needs the "
                                 "verbatim text it comes from",
                                 "add --quote '<the exact words>' (or --source manual)"))


def _new_event(root: Path, scope: str, fields: dict[str, Any], recorded_at: Instant,
               events: Sequence[Event]) -> tuple[bytes, Event]:
    """The log line and parsed Event, judged by the same code as the commit-time check.

    The id sorts after every id already in the scope's log at the same millisecond, so a
    later write wins ties on `recorded_at` even across processes with a pinned clock."""
    latest = max((e.id for e in events), default=None)
    raw = {"id": new_id(recorded_at, latest), "recorded_at": format_instant(recorded_at),
           **fields}
    line = event_to_json(_in_schema_order(raw))
    try:
        event = parse_line(line[:-1], scope,
                           lambda value: schema_errors(value, EVENT_SCHEMA, root))
    except EventError as err:
        raise InputError(Problem(segment_path(scope, recorded_at), str(err),
                                 "correct the value named above")) from None
    return line, event


_FIELD_ORDER = ("id", "op", "recorded_at", "scope", "subject", "relation", "object",
                "valid_from", "valid_to", "target", "confidence", "trust", "reason",
                "source", "session", "quote")


def _in_schema_order(raw: dict[str, Any]) -> dict[str, Any]:
    """Keys in one readable order, so log lines diff and grep alike."""
    known = [k for k in _FIELD_ORDER if k in raw]
    return {k: raw[k] for k in known + sorted(set(raw) - set(known))}


# --- deciding ---------------------------------------------------------------------------


def _values(events: Sequence[Event], many: bool) -> set[tuple[str, Instant, Instant]]:
    """What the key says across all valid time under current knowledge."""
    return {(h.object, h.value_start, h.value_end) for h in fold(events, FOREVER, many)}


def _no_change(key: Sequence[Event], event: Event, many: bool) -> bool:
    return _values(key, many) == _values([*key, event], many)


def _holder_at(key: Sequence[Event], event: Event, many: bool) -> str | None:
    """The id of the assert already holding `event`'s object at its valid_from."""
    for holding in fold(key, FOREVER, many):
        if holding.object == event.object and holding.holds_at(event.valid_from or 0):
            return holding.event.id
    return None


def _require_recorded(key: Sequence[Event], scope: str, subject: str, relation: str,
                      object: str | None) -> None:
    live = [h for h in fold(key, FOREVER, many=True)
            if object is None or h.object == object]
    if not live:
        what = f"{subject}.{relation}" + (f" = {object}" if object is not None else "")
        raise InputError(Problem(f"scope {scope}", f"nothing to forget: {what} is not "
                                 "recorded", "check the spelling with `memrepo history "
                                 f"--scope {scope} {subject} {relation}`"))


def _target_event(events: Sequence[Event], scope: str, target: str) -> Event:
    found = next((e for e in events if e.id == target), None)
    if found is None:
        raise InputError(Problem(f"scope {scope}", f"no event with id {target!r}",
                                 f"find the id with `memrepo history --scope {scope} "
                                 "SUBJECT RELATION`"))
    if found.op == "retract":
        raise InputError(Problem(f"scope {scope}", f"{target} is itself a retract; a "
                                 "retract cannot be retracted",
                                 "record the value again with `memrepo remember`"))
    return found


def _retract_of(target: Event, events: Sequence[Event]) -> Event | None:
    return next((e for e in events if e.op == "retract" and e.target == target.id), None)


def _config(root: Path) -> Config:
    """The working tree's memory/config.yaml (defaults when there is none)."""
    from memrepo.change import DictSnapshot
    from memrepo.checking import load_config

    file = root / CONFIG_PATH
    if not file.is_file():
        return Config()
    config, problems = load_config(DictSnapshot({CONFIG_PATH: file.read_bytes()}), root,
                                   validate=True)
    if problems:
        raise InputError(problems[0])
    return config


# --- writing ----------------------------------------------------------------------------


@contextmanager
def write_lock(root: Path) -> Iterator[None]:
    """Serialise writers of one clone (§10): an exclusive flock on .memrepo/write.lock."""
    path = root / LOCK_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    timeout = float(os.environ.get("MEMREPO_LOCK_TIMEOUT", "30"))
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _acquire(fd, timeout, path)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _acquire(fd: int, timeout: float, path: Path) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise InputError(Problem(str(path), f"another memrepo write has held the "
                                         f"lock for {timeout:g} s",
                                         "wait for it to finish and retry (raise "
                                         "MEMREPO_LOCK_TIMEOUT to wait longer)")) from None
            time.sleep(0.05)


def _write(root: Path, event: Event, line: bytes, subject_line: str, source: str,
           session: str, trust: str, extra: Sequence[tuple[str, str]] = ()) -> WriteResult:
    path = segment_path(event.scope, event.recorded_at)
    trailers = [("Session", _one_line(session)), ("Source", _one_line(source)),
                ("Trust", trust), *((key, _one_line(value)) for key, value in extra)]
    message = with_trailers(_one_line(subject_line)[:200], trailers)
    commit = append_and_commit(root, path, line, message, event.recorded_at)
    return WriteResult("added", event.id, commit)


def append_and_commit(root: Path, path: str, line: bytes, message: str, when: Instant) -> str:
    """Append one line to the segment at `path` and commit the segment; the commit's hex.

    The committed content is the whole working file: complete lines a crash left between
    an append and its commit are valid events and are committed too (the checks judge
    them). On any refusal the file is cut back to its previous length."""
    from memrepo.git import write as gitw  # pygit2 stays out of the query path

    repo = gitw.open_repo(root)
    base = gitw.head_base(repo)
    committed = gitw.blob_at(base, path) or b""
    file = root / path
    created_dirs = _missing_dirs(file.parent)
    file.parent.mkdir(parents=True, exist_ok=True)
    existed = file.exists()
    fd = os.open(file, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        before = _read_all(fd)
        _check_appendable(path, before, committed)
        _append(fd, line, len(before))
        try:
            blobs = gitw.write_blobs(repo, {path: before + line})
            tree = gitw.tree_with(repo, base.tree, blobs)
            run_commit_checks(root, base, tree, path, message, when)
            commit = gitw.commit(base, tree, message, when)
        except BaseException:
            _undo(fd, file, len(before), existed, created_dirs)
            raise
    finally:
        os.close(fd)
    gitw.stage_committed(repo, blobs)
    return commit


def _read_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    return os.pread(fd, size, 0) if size else b""


def _check_appendable(path: str, before: bytes, committed: bytes) -> None:
    if before and not before.endswith(b"\n"):
        line = before.count(b"\n") + 1
        raise InputError(Problem(path, "the last line is incomplete (a write was cut off)",
                                 REPAIR_HINT, line))
    if not before.startswith(committed):
        raise InputError(Problem(path, "the file in the working tree no longer starts with "
                                 "its committed content (lines were changed or removed)",
                                 f"restore it with `git checkout -- {path}`; "
                                 "logs are append-only"))


def _append(fd: int, line: bytes, size: int) -> None:
    """One os.write on an O_APPEND fd: concurrent readers see the whole line or none."""
    written = os.write(fd, line)
    if written != len(line):
        os.ftruncate(fd, size)
        raise OSError(f"short write: {written} of {len(line)} bytes")
    os.fsync(fd)


def _missing_dirs(directory: Path) -> list[Path]:
    """The directories that creating `directory` creates, deepest first."""
    missing: list[Path] = []
    while not directory.exists():
        missing.append(directory)
        directory = directory.parent
    return missing


def _undo(fd: int, file: Path, size: int, existed: bool, created_dirs: list[Path]) -> None:
    os.ftruncate(fd, size)
    os.fsync(fd)
    if not existed:
        file.unlink(missing_ok=True)
    for directory in created_dirs:
        with suppress(OSError):
            directory.rmdir()


def run_commit_checks(root: Path, base: Any, tree: Any, path: str, message: str,
                      when: Instant) -> None:
    """The §6 checks, in-process, on HEAD → the tree about to be committed (pygit2
    commits run no hooks); the first problem refuses the write."""
    from memrepo.checking import run_checks
    from memrepo.git import write as gitw

    problems = run_checks(gitw.change_to(base, tree, [path], message, when, root), "all")
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise InputError(Problem(first.path, first.problem + more, first.fix, first.line))


def _one_line(text: str) -> str:
    return " ".join(text.split())


__all__ = ["LOCK_PATH", "REPAIR_HINT", "forget", "remember", "retract", "target_scope",
           "write_lock"]
