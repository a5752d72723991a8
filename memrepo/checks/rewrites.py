"""SPEC §6.7: a move of the branch, checked like the commits it brings — what the
reference-transaction hook runs (`memrepo hooks run reference-transaction`).

git runs no commit-msg hook for `git revert`, `cherry-pick`, `rebase` or `am` (nor for a
fast-forward), and `git commit --amend` or `git reset` replace what the branch had. git ≥
2.28 runs the reference-transaction hook for every ref update, and a refusal in its
`prepared` state stops the update (older git never runs it: `memrepo verify` and the
server's hook still refuse the same history). When the branch this work tree has checked
out (or is rebasing) moves from `old` to `new`:
- every fact-log line the branch had is still there, in order, in `new`'s logs (checked
  when `new` does not descend from `old` — a rebase, an amend, a reset; a branch that only
  gains commits, as by a revert, keeps its lines by each commit's own check);
- every commit the branch gains (`old..new`) passes the checks `memrepo verify` runs on it
  (memrepo.checks.history.commit_problems: by its parent's rules, with its own message).
A refusal says how to undo the command, and that a fact is ended (`memrepo forget`) or
withdrawn (`memrepo retract`), never deleted. A single `git revert` leaves no state of its
own when its commit is refused, so this writes REVERT_HEAD (as git does when a revert stops
on a conflict) and `git revert --abort` puts the clone back.

What needs no check never reaches Python (memrepo.git.hook_scripts.transaction_script):
other refs (tags, remote-tracking branches, a new branch), a branch that does not move, a
commit or merge whose commit-msg hook checked it
(memrepo.maintenance.hook_checks.record_checked), and the git commands of a memrepo
process that checks the update itself (sync: CHECKED_ELSEWHERE). Library commits move the
branch without git, so no hook runs: they run the checks in-process.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from memrepo.check_support import report
from memrepo.checks.history import commit_problems
from memrepo.core.config import FACTS_PREFIX
from memrepo.core.facts.fact_logs import kept_problems
from memrepo.core.facts.segment_names import is_log_path
from memrepo.core.problems import InputError, Problem
from memrepo.core.record_base import replace
from memrepo.git.activity import git_subcommand
from memrepo.git.command import run_git
from memrepo.git.porcelain import unfinished_operation
from memrepo.git.read import (
    branch_of_work_tree,
    commit_message,
    descends_from,
    gained_commits,
    history_commit,
    open_repository,
    ref_commit,
    tips_change,
)

if TYPE_CHECKING:
    from pygit2 import Repository

_REVERTED = re.compile(r"This reverts commit ([0-9a-f]{40,64})")


@dataclass(frozen=True, slots=True)
class RefUpdate:
    """One line git hands the hook: `old` is None when git gives no old value (a branch
    created, or updated whatever it pointed at)."""

    old: str | None
    new: str
    ref: str


def parse_updates(text: str) -> list[RefUpdate]:
    """`<old> <new> <ref>` lines; deletions (a zero `new`: `git branch -m`, `-D`) left out."""
    updates = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 3 or _zero(parts[1]):
            continue
        updates.append(RefUpdate(None if _zero(parts[0]) else parts[0], parts[1], parts[2]))
    return updates


def _zero(object_id: str) -> bool:
    return set(object_id) == {"0"}


@dataclass(frozen=True, slots=True)
class Move:
    """The branch moving from `old` (None: it does not exist yet) to `new`."""

    branch: str
    old: str | None
    new: str


def reference_transaction(argv: Sequence[str], stdin: TextIO) -> int:
    """The hook: 1 (git stops the update) when the branch's move is refused."""
    if not argv or argv[0] != "prepared":
        return 0

    root = Path.cwd()  # git runs a hook at the root of the work tree
    updates = [u for u in parse_updates(stdin.read()) if u.ref.startswith("refs/heads/")]
    if not updates:
        return 0
    try:
        repo = open_repository(root)
        found = branch_move_problems(repo, updates)
    except InputError as err:
        print(f"memrepo reference-transaction: {err}", file=sys.stderr)
        return 1
    if found is None:
        return 0
    move, problems = found
    report(problems)
    print(refusal(root, repo, move), file=sys.stderr)
    return 1


def branch_move_problems(repo: Repository, updates: Sequence[RefUpdate],
                         ) -> tuple[Move, list[Problem]] | None:
    """The first move of the work tree's branch among `updates` that the checks refuse,
    with its problems; None when there is none."""

    branch = branch_of_work_tree(repo)
    for update in updates:
        if update.ref != branch:
            continue  # another branch, a new one: not this clone's history yet
        move = Move(branch, update.old or ref_commit(repo, branch), update.new)
        if move.old == move.new:
            continue  # `git rebase --abort`, `git reset` to where the branch is
        problems = move_problems(repo, move)
        if problems:
            return move, problems
    return None


def move_problems(repo: Repository, move: Move) -> list[Problem]:
    """What the checks refuse in the branch moving: lines its logs lose (a rewrite), and
    every commit it gains, checked as `memrepo verify` checks it."""

    problems = [] if move.old is None or descends_from(repo, move.new, move.old) else (
        lost_lines(repo, move.old, move.new))
    said = {(problem.path, problem.line) for problem in problems}
    for commit in gained_commits(repo, move.old, move.new):
        checked = history_commit(repo, commit)
        problems.extend(replace(problem, problem=f"{problem.problem} (commit "
                                f"{checked.short_id})")
                        for problem in commit_problems(checked, False)
                        if (problem.path, problem.line) not in said)  # said once is enough
    return problems


def lost_lines(repo: Repository, old: str, new: str) -> list[Problem]:
    """Each log of commit `old` that commit `new` lacks, or lacks a line of (in order)."""

    change = tips_change(repo, old, new)
    problems: list[Problem] = []
    for file in change.under(FACTS_PREFIX):
        if file.status == "added" or not is_log_path(file.path):
            continue
        after = None if file.status == "deleted" else (change.new.read(file.path) or b"")
        problems.extend(kept_problems(file.path, change.old.read(file.path) or b"", after))
    return problems


# --- the refusal: how to undo the command that stopped ---------------------------------------

UNDO = {
    "rebase": "`git rebase --abort` puts the branch and the files back as they were",
    "am": "`git am --abort` puts the branch and the files back as they were",
    "revert": "`git revert --abort` puts the files back as they were",
    "cherry-pick": "`git cherry-pick --abort` puts the files back as they were",
    "merge": "`git merge --abort` puts the files back as they were",
    "commit": "the branch did not move; `git reset` unstages what the commit (an amend, or "
              "one made with --no-verify) would have changed, `git restore <file>` puts a "
              "file back",
    "reset": "the branch did not move; `git reset` puts the index back where the branch "
             "is (after `git reset --hard`: `git reset --hard` puts the files back too)",
    "fast-forward": "the branch did not move; `git reset --merge` puts the files back where "
                    "the branch is",
}
ANY_UNDO = ("abort the command that stopped — `git rebase --abort`, `git cherry-pick "
            "--abort`, `git revert --abort`, `git am --abort` — or, after `git commit "
            "--amend` or `git reset` (the branch did not move), `git reset`")
NEVER_DELETED = ("A fact is never deleted from its log: `memrepo forget` ends it, `memrepo "
                 "retract` withdraws a wrong one.")


def refusal(root: Path, repo: Repository, move: Move) -> str:
    """What follows the problems: what was refused, how to undo it, how facts go."""
    command = operation(root, repo, move)
    undo = UNDO.get(command or "", ANY_UNDO)
    started = "" if move.old is None else f" from {move.old[:12]}"
    what = "" if command not in UNDO else (
        " (a fast-forward merge)" if command == "fast-forward" else f" (git {command})")
    return (f"memrepo: refused: {move.branch} would move{started} to {move.new[:12]}{what}; "
            "it stays where it was\n"
            f"  To undo: {undo}\n  {NEVER_DELETED}")


def operation(root: Path, repo: Repository, move: Move) -> str | None:
    """The git command whose update is refused: by what it left in git's folder, else by
    the process that runs the hook (/proc); a lone revert or cherry-pick leaves nothing, so
    its REVERT_HEAD / CHERRY_PICK_HEAD is written here for its `--abort`."""

    git_dir = Path(repo.path)
    left = unfinished_operation(git_dir)  # what a refused update's `--abort` finds
    if left is not None:
        return _sequence(git_dir) if left.file == "sequencer" else left.command
    command = git_subcommand(os.getppid())  # the hook script exec'd this: git is the parent
    reverted = _REVERTED.search(commit_message(repo, move.new))
    if command == "revert" or (command is None and reverted is not None):
        _leave_state(root, "REVERT_HEAD", reverted.group(1) if reverted else move.new)
        return "revert"
    if command == "cherry-pick":
        _leave_state(root, "CHERRY_PICK_HEAD", move.new)
        return "cherry-pick"
    if command in ("merge", "pull"):
        return "fast-forward"
    return command if command in ("commit", "reset") else None


def _sequence(git_dir: Path) -> str:
    """A run of several reverts or cherry-picks: its todo list names which."""
    try:
        first = (git_dir / "sequencer" / "todo").read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        return "cherry-pick"
    return "revert" if first[:1] == ["revert"] else "cherry-pick"


def _leave_state(root: Path, name: str, commit: str) -> None:

    run_git(root, "update-ref", name, commit)
