"""A new fact event: its fields from a write's arguments, and its log line, judged by the
same code as the commit-time check (SPEC §4, §6) before anything is appended."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memrepo.clock import TimeInput, parse_user_time, time_text
from memrepo.core.display import (
    INVISIBLE_FIX,
    shown,
    unsafe_character,
)
from memrepo.core.facts.events import Event, EventError, check_structure
from memrepo.core.facts.line_rules import hidden_field, hidden_reason
from memrepo.core.facts.log_lines import event_to_json, parse_line
from memrepo.core.facts.times import Instant, format_instant, format_valid_time
from memrepo.core.policy.secrets import jsonl_secret_problems
from memrepo.core.policy.trust import UNTRUSTED
from memrepo.core.problems import CheckRefused, InputError, Problem
from memrepo.core.record_base import replace
from memrepo.facts.ids import new_id
from memrepo.facts.segments import month_segment
from memrepo.git.write import head_rules  # pygit2 stays out of the query path
from memrepo.schemas import EVENT_SCHEMA, checker

UNTRUSTED_CONFIDENCE = 0.3


@dataclass(frozen=True, slots=True)
class FactInput:
    """One fact for `remember_many` (the arguments of `remember` that vary per fact)."""

    scope: str
    subject: str
    relation: str
    object: str
    valid_from: TimeInput | None = None
    valid_to: TimeInput | None = None
    quote: str | None = None
    confidence: float = 1.0
    new_key: bool = False  # a new key that looks like a recorded one is meant (no gate)


def valid_time(value: TimeInput | None, what: str, recorded_at: Instant) -> str:
    text = time_text(value, what)
    if text is None or text.strip().lower() == "now":
        return format_valid_time(recorded_at)
    return format_valid_time(parse_user_time(text, what))


def optional_time(name: str, text: TimeInput | None, recorded_at: Instant) -> dict[str, str]:
    return {} if text is None else {name: valid_time(text, f"--{name.replace('_', '-')}",
                                                     recorded_at)}


def confidence_of(confidence: float, trust: str) -> float:
    if not 0.0 <= confidence <= 1.0:
        raise InputError(Problem("--confidence", f"confidence {confidence} is not between "
                                 "0 and 1", "give a number such as 0.8"))
    return min(confidence, UNTRUSTED_CONFIDENCE) if trust == UNTRUSTED else confidence


def require_quote(source: str, quote: str | None) -> None:
    if source != "manual" and not (quote or "").strip():
        raise InputError(Problem("--quote", f"a fact from source {source!r} needs the "
                                 "verbatim text it comes from",
                                 "add --quote '<the exact words>' (or --source manual)"))


def assert_fields(fact: FactInput, scope: str, source: str, session: str, trust: str,
                   recorded_at: Instant) -> dict[str, Any]:
    return {
        "op": "assert", "source": source, "session": session,
        "scope": scope, "subject": fact.subject, "relation": fact.relation,
        "object": fact.object,
        "valid_from": valid_time(fact.valid_from, "--valid-from", recorded_at),
        **optional_time("valid_to", fact.valid_to, recorded_at),
        "confidence": confidence_of(fact.confidence, trust), "trust": trust,
        **({"quote": fact.quote} if fact.quote is not None else {}),
    }


CORRECT_IT = "correct the value it names and write the fact again"


def fact_named(fields: dict[str, Any]) -> str:
    """The fact a refusal is about, as its key ("car.colour"), for a person who typed it."""
    subject, relation = fields.get("subject"), fields.get("relation")
    if isinstance(subject, str) and isinstance(relation, str) and subject and relation:
        return shown(f"{subject}.{relation}", 80)
    return ""


def new_event(root: Path, scope: str, fields: dict[str, Any], recorded_at: Instant,
               latest: str | None, schema: bool = True) -> tuple[bytes, Event]:
    """The log line and parsed Event, judged by the same code as the commit-time check
    (`schema=False` leaves the JSON Schema to that check, for batches), secrets included.

    The id sorts after every id already in the segment at the same millisecond, so a
    later write wins ties on `recorded_at` even across processes with a pinned clock."""
    raw = {"id": new_id(recorded_at, latest), "recorded_at": format_instant(recorded_at),
           **fields}
    path = month_segment(scope, recorded_at).path  # names the fact in a refusal
    fact = fact_named(fields) or path
    _refuse_invisible(fact, fields)
    try:
        line = event_to_json(in_schema_order(raw))
    except TypeError:  # orjson: a lone surrogate (e.g. from undecodable command-line bytes)
        raise InputError(Problem(fact, "a value is not valid UTF-8 text",
                                 "give the text as UTF-8")) from None

    try:
        event = parse_line(line[:-1], scope,
                           checker(EVENT_SCHEMA, head_rules(root)) if schema else no_schema)
    except EventError as err:
        raise InputError(Problem(fact, _field_reason(raw) or str(err), CORRECT_IT)) from None
    secrets = jsonl_secret_problems(path, line[:-1])
    if secrets:  # before anything is appended: a secret never reaches a log or a journal
        raise CheckRefused(replace(secrets[0], path=fact, line=None))
    return line, event


def _refuse_invisible(fact: str, fields: Mapping[str, Any]) -> None:
    """Text a reader cannot see but a model reads is not stored (core.display)."""
    if any(isinstance(v, str) and unsafe_character(v, multiline=True) for v in fields.values()):
        return  # a control character: refused by the structure check, which names it
    found = hidden_field(fields)
    if found is not None:
        raise InputError(Problem(fact, hidden_reason(*found), INVISIBLE_FIX))


def _field_reason(raw: dict[str, Any]) -> str | None:
    """Why a refused line's fields break the rules, when they do: a value over its limit
    is named ("object is longer than 10000 characters") rather than the line it made
    ("line is longer than 64 KiB"). Only on refusal: parse_line checks them anyway."""
    try:
        check_structure(raw)
    except EventError as err:
        return str(err)
    return None


FIELD_ORDER = ("id", "op", "recorded_at", "scope", "subject", "relation", "object",
                "valid_from", "valid_to", "target", "confidence", "trust", "reason",
                "source", "session", "quote")


def in_schema_order(raw: dict[str, Any]) -> dict[str, Any]:
    """Keys in one readable order, so log lines diff and grep alike."""
    known = [k for k in FIELD_ORDER if k in raw]
    return {k: raw[k] for k in known + sorted(set(raw) - set(known))}


def no_schema(value: Any) -> list[str]:
    return []
