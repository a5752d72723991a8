"""§4 / §6.5 segments of a month: which commit may open a segment and which may append to
one (the names: `segment_names`).

- A commit that ADDS `YYYY-MM.N.jsonl` (N ≥ 2) needs `.N-1` in the same tree (`.3`
  without `.2` is refused) and, when `.N-1` was already there before the commit, that it
  holds something and that it plus the new segment's first line passes the parent's
  `segment_max_bytes` — exactly when the writer opens a segment. A commit that adds a
  segment together with its predecessor (a first commit, `memrepo check --all`, an import)
  is judged for gaps only: the cap of the commits that opened them is not known then.
- A commit that appends to a segment whose successor existed before it is refused: the
  newest segment of the month takes the appends. A merge commit may still add lines to a
  closed segment (two clones appended to it before either saw it closed), and so may a
  segment over the cap that has no successor (a large segment written before the cap
  existed keeps taking appends until a write opens `.2`).
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.core.change import Change
from memrepo.core.facts.fact_logs import Appended
from memrepo.core.facts.segment_names import opening_problem
from memrepo.core.problems import Problem


def segment_problems(change: Change, logs: Sequence[Appended]) -> list[Problem]:
    """The segment rules for every log the change appends to or adds."""
    problems = []
    for log in logs:
        if not log.tail:
            continue
        problem = (_closed_problem(change, log) if change.old.exists(log.path)
                   else _opening_problem(change, log))
        if problem is not None:
            problems.append(problem)
    return problems


def _opening_problem(change: Change, log: Appended) -> Problem | None:
    before = log.segment.previous()
    if before is None:
        return None
    previous = change.new.read(before.path)
    if previous is not None and not change.old.exists(before.path):
        return None  # opened with its predecessor: gaps only (see above)
    first_line = log.tail.find(b"\n") + 1 or len(log.tail)
    why = opening_problem(log.segment, None if previous is None else len(previous),
                          first_line, change.config.segment_max_bytes)
    if why is None:
        return None
    return Problem(log.path, why, f"append these lines to {before.path} (the newest "
                   "segment of the month takes the appends until it reaches the cap)")


def _closed_problem(change: Change, log: Appended) -> Problem | None:
    successor = log.segment.next()
    if change.merge or not change.old.exists(successor.path):
        return None
    return Problem(log.path, f"segment {log.segment.name} is closed ({successor.name} "
                   "follows it); lines are appended to the newest segment of the month",
                   f"restore it (git checkout HEAD -- {log.path}) and append the lines to "
                   f"the highest-numbered memory/facts/{log.scope}/{log.month}.N.jsonl",
                   log.first_line)
