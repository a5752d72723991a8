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
- Each decides after giving the scope's working logs what HEAD has of them (a write killed
  after its commit leaves the file behind): a retry of that write answers `unchanged`.
- Keys are compared folded (SPEC §4) and written in the form first recorded; a NEW key
  that looks like recorded keys of the scope writes nothing and answers `similar_key` with
  them (the write gate), unless the caller insists (`new_key`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from memrepo.clock import TimeInput
from memrepo.config import worktree_config
from memrepo.core.config import CONFIG_PATH, Config
from memrepo.core.facts.bitemporal import FOREVER, fold, replaced_by
from memrepo.core.facts.events import Event, require_key
from memrepo.core.facts.times import Instant, format_valid_time, parse_instant
from memrepo.core.policy.secrets import verdicts_kept
from memrepo.core.policy.trust import HOST, write_scope
from memrepo.core.problems import InputError, Problem
from memrepo.core.record_base import replace as replace_record
from memrepo.core.records import Replaced, SimilarKey, WriteResult
from memrepo.core.trailers import with_trailers
from memrepo.facts.appender import (
    append_and_commit,
    append_many_and_commit,
    commit_leftovers,
    recorded_now,
    show_committed,
)
from memrepo.facts.keys import (
    RecordedKeys,
    insisted,
    locate_key,
    recorded_keys,
)
from memrepo.facts.new_event import (
    FactInput,
    assert_fields,
    new_event,
    require_quote,
    valid_time,
)
from memrepo.facts.segments import (
    FACTS_DIR,
    add_line,
    append_path,
    latest_id,
    newest_segment,
    read_event,
    read_keys,
    read_once,
)
from memrepo.facts.write_lock import write_lock
from memrepo.git.write import head_pinned

T = TypeVar("T")


@contextmanager
def _writing(root: Path) -> Iterator[None]:
    """The write lock, each segment read once and each distinct text judged for secrets once
    while it is held."""
    with write_lock(root), read_once(root), verdicts_kept():
        yield


def remember(root: Path, *, scope: str, subject: str, relation: str, object: str,
             valid_from: TimeInput | None = None, valid_to: TimeInput | None = None,
             quote: str | None = None, source: str = "manual", session: str = "cli",
             confidence: float = 1.0, trust: str = HOST, new_key: bool = False,
             confirm: bool = False, trailers: Sequence[tuple[str, str]] = ()) -> WriteResult:
    """Append an assert "subject.relation = object from valid_from" and commit it.

    `new_key`: the key is new even though it looks like a recorded one (else such a write
    answers `similar_key`). `confirm`: re-assert the value that holds at valid_from (a new
    event with this source and quote that changes nothing else, so triage no longer finds
    it unconfirmed); refused when the key holds another value then. `trailers` are added
    to the commit message after Session/Source/Trust (e.g. who promoted a quarantined
    fact, and why)."""
    scope = write_scope(scope, trust)
    require_key(subject, relation)
    with _writing(root):
        recorded_at = recorded_now(root)
        show_committed(root, [scope])  # a retry after a crash finds its own event
        require_quote(source, quote)
        located = locate_key(root, scope, subject, relation)
        if located.similar and not new_key:
            return WriteResult("similar_key", None, None, tuple(located.similar),
                               located.key)
        trailers = [*trailers, *insisted(scope, located.key, located.similar)]
        fact = FactInput(scope, *located.key, object, valid_from, valid_to, quote,
                         confidence)
        key = located.events
        many = _config(root).is_many(fact.relation)
        fields = assert_fields(fact, scope, source, session, trust, recorded_at)
        if confirm:
            fields = _confirmation(fields, key, many, scope)
        line, event = new_event(root, scope, fields, recorded_at,
                                 _latest(root, scope, recorded_at))
        unchanged = _no_change(key, event, many)
        if confirm and not unchanged:  # (a confirmation spans exactly the held value)
            raise _cannot_confirm(scope, fact, "it would change what the key holds")
        if unchanged and not confirm:
            result = _unchanged(root, scope, _holder_at(key, event, many), recorded_at)
            return replace(result, key=located.key, object=object)
        verb = "confirm" if confirm else "remember"
        subject_line = f"{verb}: {scope} {fact.subject}.{fact.relation} = {object}"
        replaces = tuple(Replaced(h.object, h.event.id, format_valid_time(h.value_start))
                         for h in replaced_by(key, event, many))
        body = "\n".join(f"This {r.text()} ({r.id})." for r in replaces)
        return replace(_write(root, event, line, subject_line, source, session, trust,
                              trailers, body), key=located.key, object=object,
                       replaces=replaces)


def _confirmation(fields: dict[str, Any], key: Sequence[Event], many: bool,
                  scope: str) -> dict[str, Any]:
    """The fields of an assert confirming the value that holds at `fields`' valid_from:
    over exactly that value's interval."""
    at = parse_instant(fields["valid_from"])
    holdings = [h for h in fold(key, FOREVER, many) if h.holds_at(at)]
    holding = next((h for h in holdings if h.object == fields["object"]), None)
    if holding is None:
        held = ", ".join(repr(h.object) for h in holdings) or "nothing"
        fact = FactInput(scope, fields["subject"], fields["relation"], fields["object"])
        raise _cannot_confirm(scope, fact, f"on {fields['valid_from']} it holds {held}")
    confirmed = {k: v for k, v in fields.items() if k != "valid_to"}
    confirmed["valid_from"] = format_valid_time(holding.value_start)
    if holding.value_end < FOREVER:
        confirmed["valid_to"] = format_valid_time(holding.value_end)
    return confirmed


def _cannot_confirm(scope: str, fact: FactInput, why: str) -> InputError:
    return InputError(Problem(f"scope {scope}", f"cannot confirm {fact.subject}."
                              f"{fact.relation} = {fact.object!r}: {why}",
                              "to record a new value, remember it without --confirm"))


def remember_many(root: Path, facts: Sequence[FactInput], *, source: str = "manual",
                  session: str = "cli", trust: str = HOST,
                  trailers: Sequence[tuple[str, str]] = ()) -> list[WriteResult]:
    """`remember` for many facts: one lock, one append per segment, ONE commit (or none
    when nothing changes). One result per fact, in order; facts share one `recorded_at`
    and get increasing ids, so a later fact on the same key wins (§5.2 ties). Any invalid
    fact — or a new key that looks like a recorded one or one of an earlier fact, without
    its `new_key` — refuses the whole batch and writes nothing."""
    for number, fact in enumerate(facts, start=1):
        _numbered(number, partial(require_key, fact.subject, fact.relation))
    with _writing(root):
        recorded_at = recorded_now(root)
        config = _config(root)
        show_committed(root, sorted({write_scope(f.scope, trust) for f in facts}))
        recorded = {scope: recorded_keys(root, scope, [f.subject for f in facts])
                    for scope in sorted({write_scope(f.scope, trust) for f in facts})}
        trailers = list(trailers)
        facts = _resolved_keys(facts, recorded, trust, trailers)
        known = _batch_keys(root, facts, recorded, trust)
        results: list[WriteResult] = []
        lines: dict[str, bytearray] = {}
        with head_pinned(root):  # nothing commits until the batch's lines are placed
            for number, fact in enumerate(facts, start=1):
                results.append(_batch_one(root, fact, number, known, lines, config, source,
                                          session, trust, recorded_at))
        if not lines:
            scopes = sorted({write_scope(fact.scope, trust) for fact in facts})
            commit = commit_leftovers(root, scopes, recorded_at)
            return [replace(r, commit=commit) for r in results]
        message = _message(_batch_subject(facts, results, trust), source, session, trust,
                           trailers)
        commit = append_many_and_commit(root, {p: bytes(ls) for p, ls in lines.items()},
                                        message, recorded_at)
    return [replace(r, commit=commit) if r.status == "added" else r for r in results]


Keys = dict[str, dict[tuple[str, str], list[Event]]]


def _resolved_keys(facts: Sequence[FactInput], recorded: Mapping[str, RecordedKeys],
                   trust: str, trailers: list[tuple[str, str]]) -> list[FactInput]:
    """The facts with their keys in the form first recorded (earlier facts of the batch
    count as recorded); InputError for the first fact the write gate stops. `trailers`
    gets those of the facts that insisted their key is new."""
    resolved = []
    for number, fact in enumerate(facts, start=1):
        scope = write_scope(fact.scope, trust)
        keys = recorded[scope].keys
        where, similar = keys.resolve(fact.subject, fact.relation)
        if similar and not fact.new_key:
            raise InputError(Problem(f"scope {scope}", f"fact #{number} of the batch: "
                                     + similar_problem(fact.subject, fact.relation, similar),
                                     'use the recorded key in that line, or add "new_key": '
                                     'true to it if it is a different thing'))
        trailers += insisted(scope, where, similar)
        keys.add(*where)
        resolved.append(replace(fact, subject=where[0], relation=where[1]))
    return resolved


def similar_problem(subject: str, relation: str, similar: Sequence[SimilarKey]) -> str:
    """One line saying which recorded keys a new key looks like, and why."""
    shown = "; ".join(f"{s.subject}.{s.relation} ({s.how})" for s in similar)
    return f"{subject}.{relation} is a new key that looks like {shown}"


def _batch_keys(root: Path, facts: Sequence[FactInput], recorded: Mapping[str, RecordedKeys],
                trust: str) -> Keys:
    wanted: dict[str, set[tuple[str, str]]] = {}
    for fact in facts:
        wanted.setdefault(write_scope(fact.scope, trust), set()).add(
            (fact.subject, fact.relation))
    return {scope: read_keys(root, scope, keys, [spelling for subject, _ in keys for spelling
                                                 in recorded[scope].spellings_of(subject)])
            for scope, keys in wanted.items()}


def _numbered(number: int, make: Callable[[], T]) -> T:
    """`make()`, its InputError naming the fact of the batch."""
    try:
        return make()
    except InputError as err:
        raise InputError(replace_record(err.detail, problem=f"fact #{number} of the batch: "
                                        f"{err.detail.problem}")) from None


def _batch_one(root: Path, fact: FactInput, number: int, known: Keys,
               lines: dict[str, bytearray], config: Config, source: str, session: str,
               trust: str, recorded_at: Instant) -> WriteResult:
    scope = write_scope(fact.scope, trust)
    written_to = f"{FACTS_DIR}/{scope}/"

    def build() -> tuple[bytes, Event]:
        require_quote(source, fact.quote)
        fields = assert_fields(fact, scope, source, session, trust, recorded_at)
        earlier = any(path.startswith(written_to) for path in lines)  # ids made here after
        latest = None if earlier else _latest(root, scope, recorded_at)
        return new_event(root, scope, fields, recorded_at, latest, schema=False)
    line, event = _numbered(number, build)
    key = known[scope][(fact.subject, fact.relation)]
    many = config.is_many(fact.relation)
    written = (fact.subject, fact.relation)
    if _no_change(key, event, many):
        return WriteResult("unchanged", _holder_at(key, event, many), None, key=written)
    key.append(event)
    add_line(root, lines, scope, recorded_at, line)
    return WriteResult("added", event.id, None, key=written)


def _batch_subject(facts: Sequence[FactInput], results: Sequence[WriteResult],
                   trust: str) -> str:
    """The commit subject: the scopes actually written (quarantine-… for untrusted)."""
    added = sum(r.status == "added" for r in results)
    scopes = sorted({write_scope(f.scope, trust) for f, r in zip(facts, results, strict=True)
                     if r.status == "added"})
    return f"remember: {added} fact(s) in {', '.join(scopes)[:120]}"


def forget(root: Path, *, scope: str, subject: str, relation: str, reason: str,
           valid_to: TimeInput | None = None, object: str | None = None, session: str = "cli",
           source: str = "manual", trust: str = HOST) -> WriteResult:
    """Append an `end`: from valid_to on the key (or that object) holds no value. An
    untrusted caller ends only what its quarantine holds."""
    scope = write_scope(scope, trust)
    require_key(subject, relation)
    _require_reason(reason)
    with _writing(root):
        recorded_at = recorded_now(root)
        show_committed(root, [scope])
        located = locate_key(root, scope, subject, relation)
        if not located.events:
            raise _not_recorded(scope, subject, relation, object, located.similar)
        subject, relation = located.key
        many = _config(root).is_many(relation)
        if many and object is None:
            raise InputError(Problem("--object", f"{relation!r} is many-valued: say which "
                                     "value ends", "add --object VALUE"))
        fields = {"scope": scope, "subject": subject, "relation": relation,
                  "valid_to": valid_time(valid_to, "--valid-to", recorded_at),
                  "reason": reason, **({"object": object} if object is not None else {})}
        line, event = new_event(root, scope, {"op": "end", "source": source,
                                               "session": session, **fields},
                                 recorded_at, _latest(root, scope, recorded_at))
        key = located.events
        _require_recorded(key, scope, subject, relation, object)
        if _no_change(key, event, many):
            return replace(_unchanged(root, scope, None, recorded_at), key=located.key)
        subject_line = f"forget: {scope} {subject}.{relation} ({reason})"
        return replace(_write(root, event, line, subject_line, source, session, trust),
                       key=located.key)


def retract(root: Path, *, scope: str, target: str, reason: str, session: str = "cli",
            source: str = "manual", trust: str = HOST) -> WriteResult:
    """Append a retract: the target event was wrong and is withdrawn in system time. An
    untrusted caller retracts only events of its quarantine."""
    scope = write_scope(scope, trust)
    _require_reason(reason)
    with _writing(root):
        recorded_at = recorded_now(root)
        show_committed(root, [scope])
        events = read_event(root, scope, target)
        earlier = _retract_of(_target_event(events, scope, target), events)
        if earlier is not None:
            return _unchanged(root, scope, earlier.id, recorded_at)
        fields = {"op": "retract", "source": source, "session": session,
                  "target": target, "reason": reason}
        line, event = new_event(root, scope, fields, recorded_at,
                                 _latest(root, scope, recorded_at))
        subject_line = f"retract: {scope} {target} ({reason})"
        return _write(root, event, line, subject_line, source, session, trust)


# --- building and validating the event ------------------------------------------------


def _require_reason(reason: str) -> None:
    if not reason.strip():
        raise InputError(Problem("--reason", "is empty", "say why, e.g. --reason 'sold the "
                                 "car' (kept with the event, shown in its history)"))


def _latest(root: Path, scope: str, recorded_at: Instant) -> str | None:
    """The largest id in the newest segment of `recorded_at`'s month: the only one that can
    hold this clone's ids of the same millisecond (a segment opened in that millisecond
    holds ids made after its predecessor's)."""
    return latest_id(root, newest_segment(root, scope, recorded_at).path,
                     recorded_at // 1000)


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
        raise _not_recorded(scope, subject, relation, object, [])


def _not_recorded(scope: str, subject: str, relation: str, object: str | None,
                  similar: Sequence[SimilarKey]) -> InputError:
    what = f"{subject}.{relation}" + (f" = {object}" if object is not None else "")
    recorded = [s for s in similar if s.recorded]
    fix = (f"did you mean {', '.join(f'{s.subject} {s.relation}' for s in recorded)}?"
           if recorded else "check the spelling with `memrepo history --scope "
           f"{scope} {subject} {relation}`")
    return InputError(Problem(f"scope {scope}", f"nothing to forget: {what} is not "
                              "recorded", fix))


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
    """The working tree's memory/config.yaml (defaults when there is none); parsed and
    validated again only when the file changed (a write in a long-lived process)."""

    try:
        stat = (root / CONFIG_PATH).stat()
        stamp: tuple[int, ...] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    except OSError:
        stamp = ()
    known = _CONFIGS.get(str(root))
    if known is not None and known[0] == stamp and stamp:
        return known[1]
    config = worktree_config(root, strict=True)
    _CONFIGS[str(root)] = (stamp, config)
    return config


_CONFIGS: dict[str, tuple[tuple[int, ...], Config]] = {}


# --- writing ---------------------------------------------------------------------------


def _unchanged(root: Path, scope: str, holder: str | None, recorded_at: Instant,
               ) -> WriteResult:
    """`unchanged` — decided on the working files, so lines an interrupted write left in
    them uncommitted are committed first: an answer never rests on lines a `git stash`
    or `git checkout` could take away."""
    return WriteResult("unchanged", holder, commit_leftovers(root, [scope], recorded_at))


def _write(root: Path, event: Event, line: bytes, subject_line: str, source: str,
           session: str, trust: str, extra: Sequence[tuple[str, str]] = (),
           body: str = "") -> WriteResult:
    path = append_path(root, event.scope, event.recorded_at, len(line))
    message = _message(subject_line, source, session, trust, extra, body)
    commit = append_and_commit(root, path, line, message, event.recorded_at)
    return WriteResult("added", event.id, commit)


def _message(subject_line: str, source: str, session: str, trust: str,
             extra: Sequence[tuple[str, str]] = (), body: str = "") -> str:
    trailers = [("Session", _one_line(session)), ("Source", _one_line(source)),
                ("Trust", trust), *((key, _one_line(value)) for key, value in extra)]
    return with_trailers(_one_line(subject_line)[:200], trailers, body)


def _one_line(text: str) -> str:
    return " ".join(text.split())


__all__ = ["FactInput", "append_and_commit", "append_many_and_commit", "forget", "remember",
           "remember_many", "retract", "write_lock"]
