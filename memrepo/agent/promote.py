"""Promoting a quarantined fact (SPEC §8): an approver vouches for what an untrusted
session wrote, and the fact is re-asserted in the host scope with who and why in the commit.

`--by` must name an approver of HEAD's memory/config.yaml (the config the commit is made
on, not the work tree's, which anyone can edit); the commit carries `Approved-by:` with the
approver as the config spells it. Like every `Approved-by:`, that is a claim about who
approved, not a proof: `memrepo verify --require-signatures` binds it to a key.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from memrepo.config import head_config
from memrepo.core.config import CONFIG_PATH, Config
from memrepo.core.display import shown
from memrepo.core.facts.bitemporal import FOREVER, standing
from memrepo.core.facts.events import Event
from memrepo.core.facts.times import format_valid_time
from memrepo.core.policy.approval import TRAILER, approver_named
from memrepo.core.policy.trust import HOST, UNTRUSTED, write_scope
from memrepo.core.problems import InputError, Problem
from memrepo.core.records import WriteResult
from memrepo.facts import writes
from memrepo.facts.keys import locate_key
from memrepo.facts.segments import read_event


def promote(root: Path, *, scope: str, event_id: str, by: str, reason: str,
            confidence: float = 1.0, session: str = "promote",
            new_key: bool = False) -> WriteResult:
    """Re-assert quarantined event `event_id` of `quarantine-<scope>` in `scope` (in the
    host key's form first recorded; a new key that looks like recorded host keys answers
    `similar_key` unless `new_key`)."""
    quarantine = write_scope(scope, UNTRUSTED)
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
    config = head_config(root)
    approver = _approver(config, by)
    _require_standing(root, quarantine, event, config.is_many(event.relation))
    valid_to = None if event.valid_to is None else format_valid_time(event.valid_to)
    return writes.remember(
        root, scope=scope, subject=event.subject, relation=event.relation,
        object=event.object or "", valid_from=format_valid_time(event.valid_from),
        valid_to=valid_to, quote=event.quote,
        # without a quote only a person's own statement ("manual") may be stored
        source=f"promoted:{event.id}" if event.quote else "manual",
        session=session, confidence=confidence, trust=HOST, new_key=new_key,
        trailers=[("Promoted-from", event.id), (TRAILER, approver), ("Reason", reason)],
    )


def _require_standing(root: Path, quarantine: str, event: Event, many: bool) -> None:
    """InputError unless `event`'s value still holds in the quarantine as it said: one its
    session ended or replaced is not what the quarantine claims any more."""
    events = locate_key(root, quarantine, event.subject, event.relation).events
    if not any(h.event.id == event.id for h in standing(events, FOREVER, many)):
        raise InputError(Problem(
            f"memory/facts/{quarantine}", f"{event.id} no longer holds in {quarantine}: a "
            "later event ended or replaced it", "promote what the quarantine holds now "
            f"(`memrepo triage` lists it; `memrepo history --scope {quarantine} "
            f"{shlex.join([event.subject, event.relation])}` shows why), or remember the "
            "value in the host scope yourself"))


def _approver(config: Config, by: str) -> str:
    """The approver of `config` that `by` names; InputError when it names none."""
    approver = approver_named(by, config.approvers)
    if approver is None:
        listed = ", ".join(config.approvers) or f"none: list them in {CONFIG_PATH}"
        raise InputError(Problem("--by", f"{shown(by, 80)} is not an approver in the "
                                 f"committed {CONFIG_PATH}; only an approver may move a "
                                 "quarantined fact into the host scope",
                                 f"name one of the approvers ({listed})"))
    return approver
