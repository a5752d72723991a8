"""§6.6 secrets in the commit message: git keeps a message as long as the notes and logs,
and a message is where a person (or an old tool) writes "wifi password: Zaq12wsx!". The
same detector as the notes (memrepo.core.policy.secrets), line by line; the refusal
names the line and the kind, never the text.

Cost: the message's lines.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.policy.secrets import secret_problems
from memrepo.core.problems import Problem

NEEDS_MESSAGE: bool = True
WHERE = "commit message"


def check(change: Change) -> list[Problem]:
    return secret_problems(WHERE, change.message or "")


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
