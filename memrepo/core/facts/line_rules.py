"""The rules one fact-log line is judged by wherever it is read, each in one place: the
commit's checks (`hooks/`), a write (`facts/new_event.py`) and the cache, which leaves out
every line the checks would refuse (SPEC §7).

- `hidden_field`: a string field holding an invisible character (core.display).
- `time_problem`: a `recorded_at` outside the window a commit allows (after the commit,
  or back-dated before its parent).
- `text_refusal`: a note's text, as the cache reads it: hidden text, credentials (what
  the commit's hidden_text and secrets checks refuse in the lines it adds).
- `judged_line`: a line as the cache reads it, judged by every rule a line can be judged
  by alone: its structure and limits (core.facts.events), credentials
  (core.policy.secrets), hidden text, the JSON Schema (unknown fields…), the §4 rules, the
  segment of its month and — for a line not yet committed — its time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson

from memrepo.core.display import (
    INVISIBLE_FIX,
    describe_character,
    invisible_character,
    plainly_visible,
)
from memrepo.core.facts.events import (
    OPS,
    TRUST_VALUES,
    Event,
    EventError,
    check_structure,
    event_from,
)
from memrepo.core.facts.times import Instant, format_instant, month_of
from memrepo.core.policy.secrets import (
    SecretHit,
    fact_finding,
    find_secrets,
    screen_text,
    screens_passing,
    secret_problem,
)
from memrepo.core.problems import with_fix
from memrepo.core.record_base import Record, init_field

SchemaCheck = Callable[[Any], list[str]]


def hidden_field(raw: Mapping[str, Any]) -> tuple[str, str] | None:
    """(field, character) of the first string field holding an invisible character."""
    if plainly_visible(" ".join(v for v in raw.values() if isinstance(v, str))):
        return None  # one look at all the fields first
    for name, value in raw.items():
        char = invisible_character(value) if isinstance(value, str) else None
        if char is not None:
            return name, char
    return None


def hidden_reason(field: str, char: str) -> str:
    return f"{field} contains an invisible character ({describe_character(char)})"


def text_refusal(text: str) -> tuple[int, str] | None:
    """(line, reason) of the first thing in a note's text the commit's checks refuse:
    an invisible character (a bidi override included), a credential; None when clean."""
    char = invisible_character(text)
    if char is not None:
        line = text.count("\n", 0, text.index(char)) + 1
        return line, with_fix(f"contains an invisible character ({describe_character(char)})",
                              INVISIBLE_FIX)
    hits = find_secrets(text)
    if hits:
        refusal = secret_problem("", hits[0])
        return hits[0].line, with_fix(refusal.problem, refusal.fix or "")
    return None


class Bound(Record):
    """One end of the window a recorded_at must lie in: the instant (clock skew included)
    and what it is, for the refusal ("the commit (2026-05-01T10:00:00Z)")."""

    __slots__ = ("at", "what")
    at: Instant
    what: str

    def __init__(self, at: Instant, what: str) -> None:
        init_field(self, "at", at)
        init_field(self, "what", what)


BACK_DATED_FIX = ("record it with the current time; for an import from another memory add "
                  "the trailer 'Imported-from: <source>' to the commit message")
FUTURE_FIX = ("recorded_at is when the memory learned the fact: use the current time "
              "(memrepo remember sets it) and check this machine's clock")


def time_problem(recorded: Instant, earliest: Bound | None, latest: Bound,
                 ) -> tuple[str, str] | None:
    """(problem, fix) when `recorded` lies after `latest` or before `earliest`."""
    if recorded > latest.at:
        return (f"recorded_at {format_instant(recorded)} is after {latest.what}",
                FUTURE_FIX)
    if earliest is not None and recorded < earliest.at:
        return (f"recorded_at {format_instant(recorded)} is before {earliest.what}: a "
                "back-dated event", BACK_DATED_FIX)
    return None


class LineRules(Record):
    """What a line is judged by besides itself: the event schema, and the window of
    `recorded_at` for a line not committed yet (`earliest`: HEAD's time; `latest`: now).
    `first_new`: log path → the number of its first line HEAD does not have (a log not
    named is committed whole; none named by default)."""

    __slots__ = ("earliest", "first_new", "latest", "schema")
    schema: SchemaCheck
    earliest: Bound | None
    latest: Bound
    first_new: Mapping[str, int]

    def __init__(self, schema: SchemaCheck, earliest: Bound | None, latest: Bound,
                 first_new: Mapping[str, int] | None = None) -> None:
        init_field(self, "schema", schema)
        init_field(self, "earliest", earliest)
        init_field(self, "latest", latest)
        init_field(self, "first_new", {} if first_new is None else first_new)

    def committed(self, path: str, line: int) -> bool:
        first = self.first_new.get(path)
        return first is None or line < first


def judged_line(raw_line: bytes, scope: str, month: str, rules: LineRules,
                committed: bool) -> Event | str:
    """The event of one log line, or why the checks refuse it (one line, naming the field
    and the fix, never the value). `committed`: the line is in HEAD — its time was judged
    by the commit that added it (and `memrepo verify`)."""
    return _judged_or_reason(_decoded(raw_line), scope, month, rules, committed)


SCREEN_BATCH = 256
"""Lines whose texts `judged_lines` screens for credentials at once."""


def judged_lines(lines: Sequence[tuple[bytes, bool]], scope: str, month: str,
                 rules: LineRules) -> list[Event | str]:
    """`judged_line` of each (line, committed), the same verdicts; the lines' texts are
    screened for credentials SCREEN_BATCH lines at once (core.policy.secrets
    .screens_passing), so a line holding nothing that screen found skips its own (a
    hand-appended log of 100k lines), and for invisible characters all at once: the texts
    screened hold every string field but an enum's value and a date (`plainly_visible`
    judges each character alone; a line whose fields cannot be screened is refused by its
    structure first)."""
    verdicts: list[Event | str] = []
    for start in range(0, len(lines), SCREEN_BATCH):
        batch = lines[start:start + SCREEN_BATCH]
        decoded = [_decoded(raw_line) for raw_line, _ in batch]
        fields = [_screened_fields(raw) if isinstance(raw, dict) else None
                  for raw in decoded]
        texts = [screen_text(one) for one in fields if one is not None]
        clean = iter(screens_passing(texts))
        visible = plainly_visible(" ".join(texts))
        verdicts.extend(_judged_or_reason(raw, scope, month, rules, committed, one,
                                          one is not None and next(clean), visible)
                        for raw, (_, committed), one in zip(decoded, batch, fields,
                                                            strict=True))
    return verdicts


def _decoded(raw_line: bytes) -> dict[str, Any] | str:
    """The line's JSON object, or why it is not one."""
    try:
        raw = orjson.loads(raw_line)
    except orjson.JSONDecodeError:
        return "not valid JSON (or not UTF-8)"
    if not isinstance(raw, dict):
        return "a line must be one JSON object"
    return raw


def _judged_or_reason(raw: dict[str, Any] | str, scope: str, month: str, rules: LineRules,
                      committed: bool, fields: dict[str, Any] | None = None,
                      screened: bool = False, visible: bool = False) -> Event | str:
    if isinstance(raw, str):
        return raw
    try:
        return _judged(raw, scope, month, rules, committed, fields, screened, visible)
    except EventError as err:
        return str(err)
    except (KeyError, TypeError, ValueError, AttributeError):
        return "not a valid event (a field is missing or of the wrong kind)"


_TIME_SHAPE = re.compile(r"\d{4}-\d\d-\d\d(?:T\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?"
                         r"(?:Z|[+-]\d\d:\d\d))?")
_ENUMS = {"op": frozenset(OPS), "trust": frozenset(TRUST_VALUES)}


def _plain(name: str, value: Any) -> bool:
    """A field that holds no text a credential could hide in: an enum's value, a date or
    date-time (skipped for speed: the detector costs microseconds a string)."""
    if name in _ENUMS:
        return value in _ENUMS[name]
    return name in _TIMES and isinstance(value, str) and _TIME_SHAPE.fullmatch(value) is not None


_TIMES = frozenset({"recorded_at", "valid_from", "valid_to"})
_MAY_BE_PLAIN = _TIMES | _ENUMS.keys()


def _screened_fields(raw: dict[str, Any]) -> dict[str, Any] | None:
    """The fields a line's credential screens read: all but an enum's value, a date or a
    date-time. None when they cannot be told apart (an unhashable `op`: the structure
    check refuses the line first)."""
    try:
        return {name: value for name, value in raw.items()
                if name not in _MAY_BE_PLAIN or not _plain(name, value)}
    except TypeError:
        return None


def _judged(raw: dict[str, Any], scope: str, month: str, rules: LineRules,
            committed: bool, fields: dict[str, Any] | None, screened: bool,
            visible: bool) -> Event | str:
    """`fields`: `_screened_fields(raw)` when made already; `screened`: a batch's screen
    found nothing in them, `visible`: nor an invisible character in its lines
    (`judged_lines`)."""
    check_structure(raw)  # first: its reasons never quote a value
    fields = _screened_fields(raw) if fields is None else fields
    if fields is None:  # the structure check refuses such a line first
        raise TypeError("an unhashable op or trust")
    finding = fact_finding(fields, screened)
    if finding is not None:
        refusal = secret_problem("", SecretHit(0, finding.kind, finding.by_key))
        return with_fix(refusal.problem, refusal.fix or "")
    hidden = None if visible else hidden_field(raw)
    if hidden is not None:
        return with_fix(hidden_reason(*hidden), INVISIBLE_FIX)
    errors = rules.schema(raw)
    if errors:
        return "; ".join(errors)
    event = event_from(raw, scope)
    if month_of(event.recorded_at) != month:
        return with_fix(f"recorded at {format_instant(event.recorded_at)}, so it belongs in "
                        f"{month_of(event.recorded_at)}.jsonl, not {month}.jsonl",
                        "append it to the segment of its recorded_at month")
    if not committed:
        late = time_problem(event.recorded_at, rules.earliest, rules.latest)
        if late is not None:
            return with_fix(*late)
    return event
