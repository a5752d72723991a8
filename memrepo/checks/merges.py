"""A merge in progress (MERGE_HEAD exists: the commit-msg hook of `git merge` / `git pull`,
or the `git commit` that concludes a conflicted merge), checked before it is committed —
`memrepo verify` would find the same problems, but only after the merge had happened.

- every merged-in commit (HEAD..MERGE_HEAD) is checked like `memrepo verify` checks it, by
  the rules of its own parent and with its own message: a rule change made elsewhere with
  `--no-verify` is refused when it is merged;
- every fact log that differs from a parent keeps that parent's lines in order (a union
  merge interleaves lines, never drops one).
The merge's own change (what differs from every parent) is checked by the ordinary checks.
"""

from __future__ import annotations

from pathlib import Path

from memrepo.checks.history import range_problems
from memrepo.core.config import FACTS_PREFIX
from memrepo.core.facts.fact_logs import merge_problems as log_merge_problems
from memrepo.core.problems import Problem
from memrepo.git.staged import Entry, Reader, diff_to_index, hook_index_file, merge_heads


def merge_problems(root: Path) -> list[Problem]:
    """What a merge in progress brings in that the checks refuse."""
    reader = Reader(root, hook_index_file())
    try:
        heads = merge_heads(reader)
        problems = [problem for head in heads
                    for problem in range_problems(root, f"HEAD..{head}")]
        return problems + _log_problems(root, reader, ["HEAD", *heads])
    finally:
        reader.close()


def _log_problems(root: Path, reader: Reader, parents: list[str]) -> list[Problem]:
    """Each parent's version of every log that differs from it is a subsequence of the
    merged (staged) log."""
    differing = [{e.path: e for e in diff_to_index(root, parent, FACTS_PREFIX)}
                 for parent in parents]
    problems: list[Problem] = []
    for path in sorted({path for paths in differing for path in paths}):
        merged = reader.objects.contents(":" + path) or b""
        versions = [_version(reader, entries.get(path), merged) for entries in differing]
        problems.extend(log_merge_problems(path, merged, versions))
    return problems


def _version(reader: Reader, entry: Entry | None, merged: bytes) -> bytes:
    if entry is None:
        return merged  # this parent's version is the merged one
    return b"" if entry.old_id is None else reader.blob(entry.old_id) or b""
