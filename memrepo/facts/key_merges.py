"""Merging a near-duplicate key into the key it duplicates (`triage --apply`, SPEC §9):
one commit through the write path, with the write gate off (the merge is the mapping).

Inside the write lock both keys are read from the logs and the merge planned anew
(memrepo.core.duplicates.key_merge): the duplicate's values are re-asserted on the kept key
with their source, quote, confidence and trust, and the duplicate is ended; a plan with
conflicts (the two keys held different values at once) is not written. The commit message
names every re-asserted event and the event it carries (an assert has no field for it).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any

from memrepo.core.duplicates.key_merge import plan_events, plan_key_merge
from memrepo.core.facts.events import Event
from memrepo.core.facts.times import format_valid_time
from memrepo.facts.appender import append_many_and_commit, recorded_now
from memrepo.facts.keys import recorded_keys
from memrepo.facts.new_event import new_event
from memrepo.facts.segments import add_line, read_key
from memrepo.facts.write_lock import write_lock
from memrepo.facts.writes import _config, _latest, _message

SESSION = "triage"


@dataclass(frozen=True, slots=True)
class KeyMergeResult:
    """`merged` (detail: the commit id) or `skipped` (detail: why)."""

    status: str
    detail: str


def merge_key(root: Path, scope: str, kept: tuple[str, str], duplicate: tuple[str, str],
              how: str) -> KeyMergeResult:
    """Merge the key `duplicate` of `scope` into `kept` (both as recorded, any spelling)."""
    with write_lock(root):
        recorded_at = recorded_now(root)
        recorded = recorded_keys(root, scope, [kept[0], duplicate[0]])
        kept_shown, dup_shown = recorded.keys.shown(*kept), recorded.keys.shown(*duplicate)
        if kept_shown is None or dup_shown is None or kept_shown == dup_shown:
            return KeyMergeResult("skipped", "one of the keys is no longer recorded")
        kept_events = read_key(root, scope, *kept_shown, recorded.spellings_of(kept[0]))
        dup_events = read_key(root, scope, *dup_shown, recorded.spellings_of(duplicate[0]))
        plan = plan_key_merge(kept_events, dup_events, _config(root).is_many(kept_shown[1]))
        if plan.conflicts:
            return KeyMergeResult("skipped", "the keys hold different values at the same "
                                  "time: a contradiction to settle first")
        if plan.changes_nothing:
            return KeyMergeResult("skipped", "the duplicate holds nothing")
        numbers = count()
        planned = plan_events(plan, kept_shown, dup_shown, recorded_at,
                              lambda: f"planned-{next(numbers)}", scope, SESSION)
        lines: dict[str, bytearray] = {}
        latest = _latest(root, scope, recorded_at)
        written: list[Event] = []
        for event in planned:
            line, new = new_event(root, scope, _fields(event), recorded_at, latest)
            add_line(root, lines, scope, recorded_at, line)
            written.append(new)
            latest = new.id
        carried = [f"- {new.id} carries {r.source.id}: {new.object!r} from "
                   f"{format_valid_time(new.valid_from or 0)}"
                   for r, new in zip(plan.reasserts, written, strict=False)]
        message = _message(f"triage: merge key {'.'.join(dup_shown)} into "
                           f"{'.'.join(kept_shown)} ({scope})", SESSION, SESSION, "host",
                           [("Merged-key", f"{scope}: {'.'.join(dup_shown)} -> "
                             f"{'.'.join(kept_shown)}")])
        body = (f"{'.'.join(dup_shown)} looks like {'.'.join(kept_shown)} ({how}). Its "
                "values are re-asserted on the kept key with their sources and quotes, "
                "and it is ended.\n\n" + "\n".join(carried))
        subject, trailers = message.split("\n\n", 1)
        commit = append_many_and_commit(root, {p: bytes(ls) for p, ls in lines.items()},
                                        f"{subject}\n\n{body}\n\n{trailers}", recorded_at)
    return KeyMergeResult("merged", commit)


def _fields(event: Event) -> dict[str, Any]:
    """An event's fields as a write builds them (id and recorded_at are given anew)."""
    fields: dict[str, Any] = {"op": event.op, "scope": event.scope, "subject": event.subject,
                              "relation": event.relation, "source": event.source,
                              "session": event.session}
    if event.object is not None:
        fields["object"] = event.object
    if event.valid_from is not None:
        fields["valid_from"] = format_valid_time(event.valid_from)
    if event.valid_to is not None:
        fields["valid_to"] = format_valid_time(event.valid_to)
    if event.op == "assert":
        fields.update(confidence=event.confidence, trust=event.trust)
        if event.quote is not None:
            fields["quote"] = event.quote
    else:
        fields["reason"] = event.reason
    return fields
