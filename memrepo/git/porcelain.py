"""Git's verbs as memrepo asks them of the git command line: a commit id for a revision,
whether HEAD exists, the branch checked out, a config value, ancestry, a merge or another
operation left unfinished — and `git()`, any other command whose failure is a refusal.

Every verb runs through memrepo.git.command (hook variables removed); a command that fails
where the caller needs it to succeed raises the one error of this module, `GitError` (an
`InputError`: one line naming the repository, git's own words and the fix).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from memrepo.core.problems import InputError, Problem
from memrepo.git.command import run_git

DEFAULT_FIX = "fix the cause git reports above and run the command again"


class GitError(InputError):
    """A git command that failed: which one (`command`), its exit code and its output (git's
    and its hooks', as printed)."""

    def __init__(self, root: Path, command: str, returncode: int, output: str,
                 fix: str) -> None:
        said = output_of(output) or "no output"
        super().__init__(Problem(str(root), f"{command} failed: {said}", fix))
        self.command = command
        self.returncode = returncode
        self.output = output


def git(root: Path, *args: str, stdin: str | None = None, env: Mapping[str, str] | None = None,
        what: str | None = None, fix: str = DEFAULT_FIX) -> str:
    """`git -C root ARGS`'s output; `GitError` (naming `what`, default `git <verb>`, and
    `fix`) when it fails."""
    done = run_git(root, *args, stdin=stdin, env=env)
    if done.returncode != 0:
        raise GitError(root, what or f"git {args[0]}", done.returncode,
                       done.stdout + done.stderr, fix)
    return done.stdout


def output_of(text: str) -> str:
    """git's output (and its hooks') as one report line: its non-blank lines, joined."""
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


# --- revisions -----------------------------------------------------------------------------

def rev_parse(root: Path, revision: str) -> str | None:
    """The commit `revision` names (`HEAD`, a branch, `FETCH_HEAD`, an id); None when it
    names none (an unborn HEAD, a missing ref)."""
    done = run_git(root, "rev-parse", "--verify", "-q", f"{revision}^{{commit}}")
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def head_commit(root: Path) -> str | None:
    """HEAD's commit; None on an unborn branch (or outside a repository)."""
    return rev_parse(root, "HEAD")


def has_head(root: Path) -> bool:
    """Does HEAD name a commit (is this not an unborn branch)?"""
    return head_commit(root) is not None


def current_branch(root: Path) -> str | None:
    """The short name of the branch checked out; None when HEAD is detached."""
    done = run_git(root, "symbolic-ref", "--quiet", "--short", "HEAD")
    return done.stdout.strip() or None


def head_ref_and_commit(root: Path) -> tuple[str, str] | None:
    """(full branch name, commit) HEAD is on; None when HEAD is unborn or detached."""
    done = run_git(root, "rev-parse", "HEAD", "--symbolic-full-name", "HEAD")
    lines = done.stdout.split()
    if done.returncode == 0 and len(lines) == 2 and lines[1].startswith("refs/heads/"):
        return lines[1], lines[0]
    return None


def is_ancestor(root: Path, ancestor: str, descendant: str) -> bool:
    return run_git(root, "merge-base", "--is-ancestor", ancestor, descendant).returncode == 0


def config_get(root: Path, key: str) -> str | None:
    """A git config value (`branch.main.remote`); None when it is not set."""
    return run_git(root, "config", "--get", key).stdout.strip() or None


def committer_ident_missing(root: Path, env: Mapping[str, str] | None = None) -> bool:
    """Would git refuse to commit for want of a name and e-mail?"""
    return run_git(root, "var", "GIT_COMMITTER_IDENT", env=env).returncode != 0


# --- operations left unfinished ------------------------------------------------------------

class Unfinished:
    """What git leaves in its folder while a command is under way. (A plain class: this
    module is on every query's path, and a dataclass costs a millisecond to define.)"""

    __slots__ = ("command", "file", "what")

    def __init__(self, file: str, command: str, what: str) -> None:
        self.file = file  # relative to the git folder
        self.command = command  # the git command that continues or aborts it
        self.what = what  # for people


UNFINISHED: tuple[Unfinished, ...] = (
    Unfinished("rebase-merge", "rebase", "a rebase"),
    Unfinished("rebase-apply/applying", "am", "a git am"),
    Unfinished("rebase-apply", "rebase", "a rebase"),
    Unfinished("sequencer", "cherry-pick", "a cherry-pick or revert"),
    Unfinished("REVERT_HEAD", "revert", "a revert"),
    Unfinished("CHERRY_PICK_HEAD", "cherry-pick", "a cherry-pick"),
    Unfinished("MERGE_HEAD", "merge", "a merge"),
)
"""In the order they are recognised (a run of reverts leaves `sequencer` and REVERT_HEAD:
`sequencer` says it is a run)."""


def unfinished_operation(git_dir: Path) -> Unfinished | None:
    """The merge, rebase, am, cherry-pick or revert left unfinished in `git_dir`."""
    return next((op for op in UNFINISHED if (git_dir / op.file).exists()), None)


def merge_in_progress(root: Path) -> bool:
    """Is a merge waiting for its commit (MERGE_HEAD)?"""
    return run_git(root, "rev-parse", "-q", "--verify", "MERGE_HEAD").returncode == 0
