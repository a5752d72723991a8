"""§6.5 fact logs, the part that needs the commit (memrepo.core.facts.fact_logs.time_problems): an
appended event's `recorded_at` lies between the parent commit and this one, unless the
message carries `Imported-from: <source>`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.config import FACTS_PREFIX
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = True


def check(change: Change) -> list[Problem]:
    if not change.under(FACTS_PREFIX):
        return []
    from memrepo.core.facts.fact_logs import time_problems

    return time_problems(change)


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
