"""The §6 commit-time checks, one module per check (installed as `memrepo.hooks`).

Each module defines `NEEDS_MESSAGE: bool`, `check(change) -> list[Problem]` and
`main(argv=None) -> int`; `checks()` is the registry the runner (memrepo.checks.runner)
uses. Run one on what is staged with `python -m memrepo.hooks.<name> [COMMIT_MSG_FILE]`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memrepo.check_support import CheckModule


def checks() -> tuple[CheckModule, ...]:
    """Every check, in the order they run. Imported here, statically: a module that is
    missing or broken raises instead of being skipped."""
    from . import (
        approval,
        config_file,
        counts,
        fact_logs,
        fact_times,
        headers,
        hidden_text,
        indexes,
        links,
        message_secrets,
        near_duplicates,
        secrets,
        tracked_paths,
    )

    return (tracked_paths, config_file, headers, links, indexes, secrets, hidden_text, fact_logs,
            approval, message_secrets, counts, fact_times, near_duplicates)
