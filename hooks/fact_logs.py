"""§6.5 fact logs, the message-free part (memrepo.core.facts.fact_logs): logs are append-only,
valid (by the event schema of the parent commit), in a segment of each event's month that
may take them (`segment_rules`), with unique ids and existing retract targets.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.checks.entry import run_hook
from memrepo.core.change import Change
from memrepo.core.config import FACTS_PREFIX
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = False


def check(change: Change) -> list[Problem]:
    if not change.under(FACTS_PREFIX):
        return []  # a commit of notes only does not import the event code
    from memrepo.checks.schemas import EVENT_SCHEMA, checker
    from memrepo.core.facts.fact_logs import appended_logs, event_problems
    from memrepo.core.facts.segment_rules import segment_problems

    logs, problems = appended_logs(change)
    return (problems + segment_problems(change, logs)
            + event_problems(change, logs, checker(EVENT_SCHEMA, change.rules)))


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
