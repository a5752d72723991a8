"""§6.4 rule approval: which paths need an `Approved-by: <approver>` trailer, and whether a
trailer names an approver.

Governed: memory/rules/, memory/config.yaml and the allowed-signers file that `memrepo verify
--require-signatures` checks rule commits against.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memrepo.core.config import CONFIG_PATH
from memrepo.core.problems import Problem

RULES_PREFIX = "memory/rules/"
ALLOWED_SIGNERS_PATH = ".memrepo-allowed-signers"
"""SSH allowed-signers file (`ssh-keygen -Y` format) that `memrepo verify
--require-signatures` checks rule commits against."""
TRAILER = "Approved-by"
_EMAIL = re.compile(r"<([^<>\s]+@[^<>\s]+)>|^([^<>\s]+@[^<>\s]+)$")


def needs_approval(path: str) -> bool:
    return path.startswith(RULES_PREFIX) or path in (CONFIG_PATH, ALLOWED_SIGNERS_PATH)


def is_approver(value: str, approvers: Sequence[str]) -> bool:
    """The whole `Name <email>` or just the email matches, case-insensitively."""
    return approver_named(value, approvers) is not None


def approver_named(value: str, approvers: Sequence[str]) -> str | None:
    """The configured approver `value` names (as the config spells it), or None."""
    wanted, email = value.strip().casefold(), email_of(value)
    return next((a for a in approvers if wanted == a.strip().casefold()
                 or (email is not None and email == email_of(a))), None)


def email_of(text: str) -> str | None:
    match = _EMAIL.search(text.strip())
    return None if match is None else (match.group(1) or match.group(2)).casefold()


def approval_problems(governed: Sequence[str], given: Sequence[str],
                      approvers: Sequence[str]) -> list[Problem]:
    """The refusal for changes to `governed` paths (a note first) whose `Approved-by`
    trailers (`given`) name none of `approvers`; empty when one does."""
    if not governed:
        return []
    if not approvers:
        return [Problem(governed[0], "no approvers are configured, so this change cannot "
                        "be approved", f"list approvers ('Name <email>') in {CONFIG_PATH}")]
    if any(is_approver(value, approvers) for value in given):
        return []
    return [_refusal(governed, given, approvers)]


def _refusal(governed: Sequence[str], given: Sequence[str],
             approvers: Sequence[str]) -> Problem:
    shown = ", ".join(governed[:3]) + (f" and {len(governed) - 3} more" if len(governed) > 3
                                      else "")
    what = (f"'{TRAILER}: {given[0]}' names no approver" if given
            else f"no '{TRAILER}:' trailer")
    return Problem(governed[0],
                   f"changes to rules, the config or the allowed signers need approval; "
                   f"{what} (changed: {shown})",
                   f"end the commit message with a blank line and '{TRAILER}: <approver>', "
                   f"one of: {', '.join(approvers)}")
