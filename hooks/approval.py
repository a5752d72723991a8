"""§6.4 approval (memrepo.core.policy.approval): a change to memory/rules/, to memory/config.yaml,
to the allowed-signers file or to one of the config's `control_files` — and any commit that
imports back-dated events (`Imported-from:`) — needs a trailer `Approved-by: <approver>`
naming an approver of the PARENT commit's config (`Change.config`): nobody can add
themselves and approve, or loosen the rules their own commit is checked by. The commit that
makes a repository a memory (the first config) is approved by its own approvers.

Cost: the changed-file list.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memrepo.check_support import run_hook
from memrepo.core.change import Change
from memrepo.core.config import CONFIG_PATH
from memrepo.core.policy.approval import TRAILER, approval_problems, governed_paths
from memrepo.core.problems import Problem
from memrepo.core.trailers import trailer_values

NEEDS_MESSAGE: bool = True


def check(change: Change) -> list[Problem]:
    governed = governed_paths(change)
    if not governed or not _is_memory(change):
        return []
    return approval_problems(governed, trailer_values(change.message or "", TRAILER),
                             change.config.approvers)


def _is_memory(change: Change) -> bool:
    """A repository without a config (before or after) is not a memory yet: nothing to
    approve against, nothing to protect."""
    return any(snapshot is not None and snapshot.exists(CONFIG_PATH)
               for snapshot in (change.rules, change.old, change.new))


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
