"""Re-checking committed history (`memrepo verify`, `memrepo sync`): the §6 checks on each
commit as the change from its first parent (stage `all`, with its own message and times).

Hooks can be skipped (`git commit --no-verify`); this cannot. For a merge, only what differs
from every parent is checked, and each parent's version of every log must be a subsequence
of the merged log. With `require_signatures`, each commit that changes rules, the config or
the allowed-signers file must carry an SSH signature that `git verify-commit` accepts
against the allowed-signers file (.memrepo-allowed-signers) of its parent (of itself for the
first).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from memrepo.checks.runner import run_checks
from memrepo.core.approval import ALLOWED_SIGNERS_PATH, needs_approval
from memrepo.core.fact_logs import FACTS_PREFIX, merge_problems
from memrepo.core.problems import Problem


def commit_problems(repo: Any, commit: Any, require_signatures: bool) -> list[Problem]:
    from memrepo.git.read import commit_change

    change = commit_change(repo, commit)
    problems = run_checks(change, "all")
    if len(commit.parents) > 1:
        problems.extend(_merge_log_problems(repo, commit, change))
    if require_signatures:
        problems.extend(_signature_problems(repo, commit, change))
    return problems


def _merge_log_problems(repo: Any, commit: Any, change: Any) -> list[Problem]:
    """Every log that differs from any parent keeps each parent's lines in order."""
    from memrepo.git.read import TreeSnapshot, changed_paths

    paths = sorted({path for parent in commit.parents for path in changed_paths(parent, commit)
                    if path.startswith(FACTS_PREFIX)})
    parents = [TreeSnapshot(repo, parent.tree) for parent in commit.parents]
    problems: list[Problem] = []
    for path in paths:
        merged = change.new.read(path) or b""
        versions = [p.read(path) or b"" for p in parents]
        problems.extend(merge_problems(path, merged, versions))
    return problems


def _signature_problems(repo: Any, commit: Any, change: Any) -> list[Problem]:
    from memrepo.git.read import TreeSnapshot

    signers_path = ALLOWED_SIGNERS_PATH
    governed = [f.path for f in change.files if needs_approval(f.path)]
    if not governed:
        return []
    trusted = TreeSnapshot(repo, commit.parents[0].tree) if commit.parents else change.new
    signers = trusted.read(signers_path) or change.new.read(signers_path)
    if not signers:
        return [Problem(governed[0], "a rule change must be signed, but the repository "
                        f"has no {signers_path}",
                        f"commit an SSH allowed-signers file as {signers_path} "
                        "(lines: '<email> <key type> <public key>')")]
    if _signature_verified(repo, str(commit.id), signers):
        return []
    return [Problem(governed[0], "changes rules or the config without an SSH signature "
                    f"by a key in {signers_path}",
                    "sign such commits with an allowed key: git -c gpg.format=ssh -c "
                    "user.signingkey=<key> commit -S (amend or re-create the commit)")]


def _signature_verified(repo: Any, commit_id: str, signers: bytes) -> bool:
    with tempfile.NamedTemporaryFile(prefix="memrepo-signers-", delete=False) as handle:
        handle.write(signers)
    try:
        done = subprocess.run(
            ["git", "-c", "gpg.format=ssh", "-c", f"gpg.ssh.allowedSignersFile={handle.name}",
             "verify-commit", commit_id],
            cwd=Path(repo.path), capture_output=True, check=False)
        return done.returncode == 0
    finally:
        os.unlink(handle.name)
