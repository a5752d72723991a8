"""§6.4 rule approval: which changes need an `Approved-by: <approver>` trailer, and whether
a trailer names an approver.

Governed paths: memory/rules/, memory/config.yaml and the allowed-signers file that `memrepo
verify --require-signatures` checks rule commits against — always — plus the config's
`control_files` (`memrepo init` lists schema/, .pre-commit-config.yaml,
.pre-commit-hooks.yaml and .gitattributes; a memory made before that list existed governs
them once its config names them). A commit carrying `Imported-from:` needs approval too: it
may append events back-dated to any time, i.e. rewrite what the memory knew in the past.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memrepo.core.change import Change
from memrepo.core.config import CONFIG_PATH
from memrepo.core.facts.segment_names import is_log_path
from memrepo.core.problems import Problem
from memrepo.core.trailers import trailer_values

RULES_PREFIX = "memory/rules/"
ALLOWED_SIGNERS_PATH = ".memrepo-allowed-signers"
"""SSH allowed-signers file (`ssh-keygen -Y` format) that `memrepo verify
--require-signatures` checks rule commits against."""
TRAILER = "Approved-by"
IMPORT_TRAILER = "Imported-from"
_EMAIL = re.compile(r"<([^<>\s]+@[^<>\s]+)>|^([^<>\s]+@[^<>\s]+)$")


ALWAYS_GOVERNED = (RULES_PREFIX, CONFIG_PATH, ALLOWED_SIGNERS_PATH)
CONTROL_FILES = ("schema/", ".pre-commit-config.yaml", ".pre-commit-hooks.yaml",
                 ".gitattributes")
"""What `memrepo init` writes into the config's `control_files`."""


def needs_approval(path: str, control_files: Sequence[str] = ()) -> bool:
    """Does a change to `path` need approval? (A prefix ending in / is a folder.)"""
    return any(path.startswith(prefix) if prefix.endswith("/") else path == prefix
               for prefix in (*ALWAYS_GOVERNED, *control_files))


def governed_paths(change: Change) -> list[str]:
    """What in `change` needs approval (a note first, INDEX files last); for a commit that
    imports events, its logs (or the trailer itself when it changes no log)."""
    control = change.config.control_files
    governed = sorted((f.path for f in change.files if needs_approval(f.path, control)),
                      key=lambda path: path.endswith("/INDEX.md"))
    if trailer_values(change.message or "", IMPORT_TRAILER):
        logs = [f.path for f in change.files if is_log_path(f.path)]
        governed += [path for path in logs if path not in governed] or [
            f"{IMPORT_TRAILER}: trailer"]
    return governed


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
                   f"changes to rules and control files, and imports ({IMPORT_TRAILER}:), need "
                   f"approval; "
                   f"{what} (changed: {shown})",
                   f"end the commit message with a blank line and '{TRAILER}: <approver>', "
                   f"one of: {', '.join(approvers)}")
