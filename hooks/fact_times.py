"""§6.5 fact logs, the part that needs the commit: an appended event's `recorded_at` is
not after the commit time and not before the parent commit's time (both ± the config's
clock_skew_seconds) — unless the message carries `Imported-from: <source>` (a migration
or demo history, whose events keep their original times).

Cost: the appended bytes of changed logs, one small JSON decode per new line (no schema:
malformed lines are the fact_logs check's to report).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import orjson

from memrepo.checks.runner import run_hook
from memrepo.core.change import Change
from memrepo.core.log_lines import split_lines
from memrepo.core.problems import Problem
from memrepo.core.times import Instant, format_instant, is_utc_timestamp, parse_instant
from memrepo.core.trailers import trailer_values

if TYPE_CHECKING:  # mypy sees hooks/ as `hooks`; installed it is `memrepo.hooks`
    from hooks.fact_logs import Appended, appended_logs
else:
    from memrepo.hooks.fact_logs import Appended, appended_logs

NEEDS_MESSAGE: bool = True
TRAILER = "Imported-from"
_SECOND = 1_000_000


def check(change: Change) -> list[Problem]:
    logs, _ = appended_logs(change)  # the shape problems are reported by fact_logs
    if not logs:
        return []
    skew = change.config.clock_skew_seconds * _SECOND
    latest = change.commit_time + skew
    imported = bool(trailer_values(change.message or "", TRAILER))
    earliest = None if imported or change.parent_time is None else change.parent_time - skew
    problems = []
    for log in logs:
        problems.extend(_log_problems(log, latest, earliest, change))
    return problems


def _log_problems(log: Appended, latest: Instant, earliest: Instant | None,
                  change: Change) -> list[Problem]:
    problems = []
    for number, raw_line in split_lines(log.tail, log.first_line):
        recorded = recorded_at_of(raw_line)
        if recorded is None:
            continue
        if recorded > latest:
            problems.append(Problem(
                log.path, f"recorded_at {format_instant(recorded)} is after the commit "
                f"({format_instant(change.commit_time)})",
                "recorded_at is when the memory learned the fact: use the current time "
                "(memrepo remember sets it) and check this machine's clock", number))
        elif earliest is not None and recorded < earliest:
            problems.append(Problem(
                log.path, f"recorded_at {format_instant(recorded)} is before the parent "
                f"commit ({format_instant(change.parent_time or 0)}): a back-dated event",
                f"record it with the current time; for an import from another memory add "
                f"the trailer '{TRAILER}: <source>' to the commit message", number))
    return problems


def recorded_at_of(raw_line: bytes) -> Instant | None:
    """The line's recorded_at, or None when the line is not readable enough to tell."""
    try:
        raw: Any = orjson.loads(raw_line)
    except orjson.JSONDecodeError:
        return None
    value = raw.get("recorded_at") if isinstance(raw, dict) else None
    if not isinstance(value, str) or not is_utc_timestamp(value):
        return None
    return parse_instant(value)


def main(argv: Sequence[str] | None = None) -> int:
    return run_hook(check, argv)


if __name__ == "__main__":
    sys.exit(main())
