"""§6.4 rule approval: a change to memory/rules/, to memory/config.yaml or to the
allowed-signers file needs a trailer `Approved-by: <approver>` naming an approver.

Approvers come from the config *before* the change when it changes the config (otherwise
anyone could add themselves and approve); the first config uses its own list. Cost: the
changed-file list plus one or two reads of the config.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

from memrepo.checks.runner import load_config, run_hook
from memrepo.core.change import Change
from memrepo.core.config import CONFIG_PATH
from memrepo.core.problems import Problem
from memrepo.core.trailers import trailer_values

NEEDS_MESSAGE: bool = True

RULES_PREFIX = "memory/rules/"
ALLOWED_SIGNERS_PATH = ".memrepo-allowed-signers"
"""SSH allowed-signers file (`ssh-keygen -Y` format) that `memrepo verify
--require-signatures` checks rule commits against."""
TRAILER = "Approved-by"
_EMAIL = re.compile(r"<([^<>\s]+@[^<>\s]+)>|^([^<>\s]+@[^<>\s]+)$")


def needs_approval(path: str) -> bool:
    return path.startswith(RULES_PREFIX) or path in (CONFIG_PATH, ALLOWED_SIGNERS_PATH)


def check(change: Change) -> list[Problem]:
    governed = sorted((f.path for f in change.files if needs_approval(f.path)),
                      key=lambda path: path.endswith("/INDEX.md"))  # name a note first
    if not governed:
        return []
    approvers = approvers_for(change)
    if not approvers:
        return [Problem(governed[0], "no approvers are configured, so this change cannot "
                        "be approved", f"list approvers ('Name <email>') in {CONFIG_PATH}")]
    given = trailer_values(change.message or "", TRAILER)
    if any(is_approver(value, approvers) for value in given):
        return []
    return [_refusal(governed, given, approvers)]


def approvers_for(change: Change) -> tuple[str, ...]:
    """The approvers who may approve this change (old config when it is being changed)."""
    if any(f.path == CONFIG_PATH for f in change.files) and change.old.exists(CONFIG_PATH):
        old_config, problems = load_config(change.old, change.root)
        if not problems:
            return old_config.approvers
    return change.config.approvers


def is_approver(value: str, approvers: Sequence[str]) -> bool:
    """The whole `Name <email>` or just the email matches, case-insensitively."""
    wanted, email = value.strip().casefold(), email_of(value)
    return any(wanted == a.strip().casefold() or (email is not None and email == email_of(a))
               for a in approvers)


def email_of(text: str) -> str | None:
    match = _EMAIL.search(text.strip())
    return None if match is None else (match.group(1) or match.group(2)).casefold()


def _refusal(governed: list[str], given: list[str], approvers: Sequence[str]) -> Problem:
    shown = ", ".join(governed[:3]) + (f" and {len(governed) - 3} more" if len(governed) > 3
                                      else "")
    what = (f"'{TRAILER}: {given[0]}' names no approver" if given
            else f"no '{TRAILER}:' trailer")
    return Problem(governed[0],
                   f"changes to rules, the config or the allowed signers need approval; "
                   f"{what} (changed: {shown})",
                   f"end the commit message with a blank line and '{TRAILER}: <approver>', "
                   f"one of: {', '.join(approvers)}")


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
