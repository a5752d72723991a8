"""§6.4 rule approval (memrepo.core.approval): a change to memory/rules/, to
memory/config.yaml or to the allowed-signers file needs a trailer `Approved-by: <approver>`
naming an approver.

Approvers come from the config *before* the change when it changes the config (otherwise
anyone could add themselves and approve); the first config uses its own list. Cost: the
changed-file list plus one or two reads of the config.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.checks.config import load_config
from memrepo.checks.entry import run_hook
from memrepo.core.approval import TRAILER, approval_problems, needs_approval
from memrepo.core.change import Change
from memrepo.core.config import CONFIG_PATH
from memrepo.core.problems import Problem
from memrepo.core.trailers import trailer_values

NEEDS_MESSAGE: bool = True


def check(change: Change) -> list[Problem]:
    governed = sorted((f.path for f in change.files if needs_approval(f.path)),
                      key=lambda path: path.endswith("/INDEX.md"))  # name a note first
    if not governed:
        return []
    return approval_problems(governed, trailer_values(change.message or "", TRAILER),
                             approvers_for(change))


def approvers_for(change: Change) -> tuple[str, ...]:
    """The approvers who may approve this change (old config when it is being changed)."""
    if any(f.path == CONFIG_PATH for f in change.files) and change.old.exists(CONFIG_PATH):
        old_config, problems = load_config(change.old, change.root)
        if not problems:
            return old_config.approvers
    return change.config.approvers


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
