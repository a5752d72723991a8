"""Re-checking committed history (`memrepo verify`, `memrepo sync`): the §6 checks on each
commit as the change from its first parent (stage `all`, with its own message and times).

Hooks can be turned off (`git -c core.hooksPath=/dev/null`); this cannot. For a merge,
only what differs from every parent is checked, and each parent's version of every log
must be a subsequence of the merged log. With `require_signatures`, each commit that
changes rules, the config or the allowed-signers file must carry an SSH signature that
`git verify-commit` accepts against the allowed-signers file (.memrepo-allowed-signers) of
its parent (of itself for the first).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.checks.dates import future_dated
from memrepo.checks.runner import run_checks
from memrepo.core.config import FACTS_PREFIX
from memrepo.core.facts.fact_logs import merge_problems
from memrepo.core.policy.approval import ALLOWED_SIGNERS_PATH, governed_paths
from memrepo.core.problems import Problem
from memrepo.core.record_base import replace
from memrepo.git.command import run_git_bytes
from memrepo.git.read import commits_in, history_commit, open_repository
from memrepo.progress import task

if TYPE_CHECKING:
    from memrepo.git.read import HistoryCommit


def verify_history(repo_path: str | Path | None, revision_range: str | None,
                   require_signatures: bool = False) -> Iterator[tuple[str, list[Problem]]]:
    """(short commit id, its problems) for every commit of `revision_range` (`A..B`, or a
    revision and its whole history; default HEAD), oldest first."""

    repo = open_repository(repo_path)
    commits = commits_in(repo, revision_range)
    with task("Verifying commits", total=len(commits)) as steps:
        for commit in commits:  # each read when it is reached
            checked = history_commit(repo, commit)
            yield checked.short_id, commit_problems(checked, require_signatures)
            steps.advance()


def range_problems(repo_path: str | Path | None, revision_range: str) -> list[Problem]:
    """Every problem of every commit of `revision_range`, each naming its commit: what sync
    checks before it merges and what a merge in progress brings in."""
    problems: list[Problem] = []
    for short_id, found in verify_history(repo_path, revision_range):
        problems.extend(replace(problem, problem=f"{problem.problem} (commit {short_id})")
                        for problem in found)
    return problems


def commit_problems_of(repo_path: str | Path | None, revision: str) -> list[Problem]:
    """The problems of one commit (e.g. the merge `memrepo sync` just made), naming it."""

    commit = history_commit(open_repository(repo_path), revision)
    return [replace(problem, problem=f"{problem.problem} (commit {commit.short_id})")
            for problem in commit_problems(commit, False)]


def commit_problems(commit: HistoryCommit, require_signatures: bool) -> list[Problem]:
    problems = [*future_dated(commit.change.commit_time,
                              commit.change.config.clock_skew_seconds, f"commit {commit.short_id}"),
                *run_checks(commit.change, "all", history=True)]
    if len(commit.parents) > 1:
        problems.extend(_merge_log_problems(commit))
    if require_signatures or _signers_kept(commit):
        problems.extend(_signature_problems(commit))
    return problems


def _signers_kept(commit: HistoryCommit) -> bool:
    """Whether the commit's first parent keeps an allowed-signers file: a repository that
    committed one requires signed rule changes from then on, in every check of history
    (`memrepo verify`, sync, the server's hook) — `--require-signatures` asks it of a
    repository without one too."""
    return bool(commit.parents) and commit.parents[0].read(ALLOWED_SIGNERS_PATH) is not None


def _merge_log_problems(commit: HistoryCommit) -> list[Problem]:
    """Every log that differs from any parent keeps each parent's lines in order."""
    problems: list[Problem] = []
    for path in (p for p in commit.merge_paths if p.startswith(FACTS_PREFIX)):
        merged = commit.change.new.read(path) or b""
        versions = [parent.read(path) or b"" for parent in commit.parents]
        problems.extend(merge_problems(path, merged, versions))
    return problems


def _signature_problems(commit: HistoryCommit) -> list[Problem]:
    change = commit.change
    signers_path = ALLOWED_SIGNERS_PATH
    governed = governed_paths(change)
    if not governed:
        return []
    trusted = commit.parents[0] if commit.parents else change.new
    signers = trusted.read(signers_path) or change.new.read(signers_path)
    if not signers:
        return [Problem(governed[0], "a rule change must be signed, but the repository "
                        f"has no {signers_path}",
                        f"commit an SSH allowed-signers file as {signers_path} "
                        "(lines: '<email> <key type> <public key>')")]
    if _signature_verified(commit.git_dir, commit.id, signers):
        return []
    return [Problem(governed[0], "changes rules or control files without an SSH signature "
                    f"by a key in {signers_path}",
                    "sign such commits with an allowed key: git -c gpg.format=ssh -c "
                    "user.signingkey=<key> commit -S (amend or re-create the commit)")]


def _signature_verified(git_dir: Path, commit_id: str, signers: bytes) -> bool:

    with tempfile.NamedTemporaryFile(prefix="memrepo-signers-", delete=False) as handle:
        handle.write(signers)
    try:
        done = run_git_bytes(git_dir, "-c", "gpg.format=ssh",
                             "-c", f"gpg.ssh.allowedSignersFile={handle.name}",
                             "verify-commit", commit_id)
        return done.returncode == 0
    finally:
        os.unlink(handle.name)
