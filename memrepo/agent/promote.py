"""Promoting a quarantined fact (SPEC §8): a person vouches for what an untrusted session
wrote, and the fact is re-asserted in the host scope with who and why in the commit."""

from __future__ import annotations

from pathlib import Path

from memrepo.core.problems import InputError, Problem
from memrepo.core.records import WriteResult
from memrepo.core.times import format_valid_time
from memrepo.facts import writes
from memrepo.facts.segments import read_event


def promote(root: Path, *, scope: str, event_id: str, by: str, reason: str,
            confidence: float = 1.0, session: str = "promote") -> WriteResult:
    """Re-assert quarantined event `event_id` of `quarantine-<scope>` in `scope`."""
    quarantine = writes.target_scope(scope, "untrusted")
    found = read_event(root, quarantine, event_id)
    event = next((e for e in found if e.id == event_id), None)
    if event is None or event.op != "assert" or event.valid_from is None:
        raise InputError(Problem(f"memory/facts/{quarantine}", f"no quarantined assert "
                                 f"with id {event_id}", "`memrepo triage` lists the facts "
                                 "awaiting review"))
    if any(e.op == "retract" for e in found):
        raise InputError(Problem(f"memory/facts/{quarantine}", f"{event_id} was retracted",
                                 "a withdrawn fact cannot be promoted; remember it anew"))
    if not by.strip() or not reason.strip():
        raise InputError(Problem("--by/--reason", "a promotion needs who and why",
                                 "pass --by 'Name <email>' and --reason '...'"))
    valid_to = None if event.valid_to is None else format_valid_time(event.valid_to)
    return writes.remember(
        root, scope=scope, subject=event.subject, relation=event.relation,
        object=event.object or "", valid_from=format_valid_time(event.valid_from),
        valid_to=valid_to, quote=event.quote,
        # without a quote only a person's own statement ("manual") may be stored
        source=f"promoted:{event.id}" if event.quote else "manual",
        session=session, confidence=confidence, trust="host",
        trailers=[("Promoted-from", event.id), ("Promoted-by", by), ("Reason", reason)],
    )
