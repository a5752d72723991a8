"""A commit dated after this machine's clock (beyond the config's clock_skew_seconds).

Once such a commit is HEAD, every later event is refused as recorded before its parent,
on every clone it reaches, and the events it carries, dated as far ahead, surface in
answers by themselves when their date comes. So it is refused wherever a commit is judged:
the commit-msg hook (a clone whose clock is wrong), `memrepo verify`, what `memrepo sync`
brings in and what it pushes, and the server's hook. The real clock, or memrepo's settable
one where it is later (it dates memrepo's own commits): git dates commits by the real one.
"""

from __future__ import annotations

import time

from memrepo.clock import now
from memrepo.core.facts.times import Instant, format_instant
from memrepo.core.problems import Problem

REDATE = ("date it by a correct clock before it is pushed: git commit --amend --no-edit "
          "--date=now (GIT_COMMITTER_DATE unset; an older commit: git rebase "
          "--committer-date-is-author-date after fixing its author date)")


RETRY = ("unset GIT_COMMITTER_DATE (or give a date that has come) and commit again: git "
         "commit -e -F .git/COMMIT_EDITMSG")
"""The fix while the commit is being made: it does not exist yet, so there is nothing to
amend (an amend would fold the change into the commit before it)."""


def future_dated(commit_time: Instant, skew_seconds: int, what: str,
                 fix: str = REDATE) -> list[Problem]:
    """`what` (e.g. "commit 1a2b3c4") is dated after the clock + `skew_seconds`. The later
    of the real clock and memrepo's: a MEMREPO_NOW ahead of the real clock dates memrepo's
    own commits by it, which must not be refused; one behind must not refuse git's."""
    clock = max(time.time_ns() // 1000, now())
    if commit_time <= clock + skew_seconds * 1_000_000:
        return []
    return [Problem(what, f"is dated {format_instant(commit_time)}, after this machine's "
                    f"clock ({format_instant(clock)})", fix)]


def date_git_gives(ident: str) -> Instant | None:
    """The time in `git var GIT_COMMITTER_IDENT` ("Name <mail> 1924992000 +0000"): the
    date git will write, whatever format GIT_COMMITTER_DATE was given in."""
    parts = ident.split()
    if len(parts) < 2 or not parts[-2].isdigit():
        return None
    return int(parts[-2]) * 1_000_000
