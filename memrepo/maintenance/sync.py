"""`memrepo sync` (SPEC §10): fetch, check, merge, push — between clones.

Clones exchange memory through an ordinary git remote. Fact logs merge with git's `union`
driver (.gitattributes), so two clones appending at once keep both sides' lines; notes
merge like any text, and two different edits of the same note are a conflict a person
resolves.

Nothing from the remote is trusted before it is checked:
- the remote must still contain every commit fetched from it before (the remote-tracking
  branch remembers them): a server whose history was rewound or rewritten is refused, with
  the dropped commits named, and nothing is merged or pushed;
- every incoming commit is checked like `memrepo verify` checks it (merged-in commits may
  have been made with `--no-verify`) BEFORE the merge: a merge runs hooks and checks out
  files, so an unapproved hook configuration must never get that far;
- the merge itself (`git merge --no-verify`: its checks run here, in-process) is checked
  like any commit, and anything refused is rolled back to the pre-merge commit: nothing is
  lost, both sides stay reachable as commits. (Its git commands carry CHECKED_ELSEWHERE:
  the reference-transaction hook leaves the merge and its undoing to these checks.)
A push rejected because another clone pushed meanwhile (git's words for a moved branch, or
the server hook's lost-race line: memrepo.git.push_race) is retried (fetch, check, merge,
push) after a random pause ("full jitter") whose range is the lost attempt's own duration,
doubled with each lost race: many clones syncing through one remote at once spread out
over as many attempt-lengths as there are contenders instead of colliding again at once
(and burning the CPU that a loaded server or laptop needs to finish the attempt that
wins). A lost race is no failure while the remote keeps moving (others land): sync gives
up only when its pushes are turned back and the remote branch has not moved for PATIENCE
seconds (memrepo.maintenance.sync_retry). Any other refusal by the server (a check that
failed) is final: never retried, its lines shown one by one.

Each attempt runs under the clone's write lock (`memrepo.facts.writes.write_lock`), so a
local `remember` never interleaves with a merge; the pauses between attempts do not hold
it. Git is driven through its command line here:
union merges and index conflicts are git's own machinery.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo import cache
from memrepo.checks.dates import future_dated
from memrepo.checks.history import commit_problems_of, range_problems
from memrepo.config import worktree_config
from memrepo.core.display import shown
from memrepo.core.problems import RENDER_LIMIT, InputError, Problem
from memrepo.facts.writes import write_lock
from memrepo.git.command import passed_to_git, run_git
from memrepo.git.hook_scripts import (
    CHECKED_ELSEWHERE,
    REFRESHED_BY_CALLER,
    install,
    states,
)
from memrepo.git.porcelain import (
    config_get,
    current_branch,
    git,
    head_commit,
    is_ancestor,
    merge_in_progress,
    rev_parse,
)
from memrepo.git.push_race import lost_race
from memrepo.maintenance.indexes import regenerate_indexes
from memrepo.maintenance.sync_retry import PATIENCE, Retries
from memrepo.progress import Steps, task

if TYPE_CHECKING:
    import subprocess

CONFLICT_FIX = ("resolve it by hand: `git merge {ref}`, edit the file keeping what is "
                "right (or both), `git add` it, `git commit`, then `memrepo sync` again")
FIX = "fix the repository state shown above and sync again"


class SyncRefused(InputError):
    """Sync stopped with nothing lost; every problem says what to do."""

    def __init__(self, summary: str, problems: Sequence[Problem],
                 said: Sequence[str] = ()) -> None:
        super().__init__(problems[0])
        self.summary = summary
        self.problems = list(problems)
        self.said = list(said)  # the server's own lines, each shown as one line

    def __str__(self) -> str:
        rendered = "\n".join(problem.render() for problem in self.problems)
        server = "".join(f"\n  remote: {shown(line, RENDER_LIMIT)}" for line in self.said)
        return f"{self.summary}{server}\n{rendered}"


@dataclass(frozen=True, slots=True)
class SyncResult:
    remote: str
    branch: str
    before: str
    after: str
    incoming: int  # commits brought in from the remote
    pushed: bool
    attempts: int
    hooks: str  # present | installed | missing

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Target:
    """Where a clone syncs with: a remote and the branch there, for a local branch."""

    remote: str
    branch: str  # on the remote
    local: str
    tracked: bool  # the local branch already has an upstream


def sync(root: Path, remote: str | None = None, *, patience: float = PATIENCE,
         ) -> SyncResult:
    """Fetch, merge, check, push; then refresh the cache. Raises SyncRefused/InputError."""
    target = sync_target(root, remote)
    hooks = ensure_hooks(root)
    with task(f"memrepo sync with {target.remote}") as steps:
        try:
            before, incoming, attempts = _exchange(root, target, patience, steps)
        finally:  # a refused push or a failed check may follow a merge: HEAD moved
            steps.describe("memrepo sync: refreshing the cache")
            refresh_cache(root)
    return SyncResult(target.remote, target.branch, before, _head(root), incoming, True,
                      attempts, hooks)


def _exchange(root: Path, target: Target, patience: float, steps: Steps,
              ) -> tuple[str, int, int]:
    """Fetch, merge, push until the push lands: (HEAD before, commits brought in,
    attempts). A lost race is retried while the remote moves (sync_retry.py)."""
    retries = Retries(patience=patience)
    attempt, before, unpushed, checked = 0, "", None, None
    while True:
        attempt += 1
        with write_lock(root):
            started = time.monotonic()
            _require_clean(root)
            before = before or _head(root)
            if unpushed is not None:
                _undo_unpushed_merge(root, *unpushed)
            steps.describe(f"memrepo sync: fetching from {target.remote}")
            fetched = fetch(root, target)
            steps.describe("memrepo sync: merging and checking what came in")
            onto = _head(root)
            merge_remote(root, target, fetched, checked)
            checked = fetched
            steps.describe(f"memrepo sync: pushing to {target.remote}")
            if push(root, target):
                return before, _brought_in(root, before, fetched), attempt
            unpushed = (onto, _head(root))
        now_at = remote_commit(root, target)
        pause = retries.pause_after(time.monotonic() - started,
                                     now_at is not None and now_at != fetched)
        if pause is None:
            break
        steps.describe(f"memrepo sync: {target.remote} moved meanwhile; retrying "
                       f"(attempt {attempt + 1})")
        time.sleep(pause)
    raise SyncRefused(f"memrepo sync: gave up pushing to {target.remote}: "
                      f"{retries.why_stopped()}", [Problem(
                          target.remote, "the push did not land; everything is merged and "
                          "committed locally",
                          "run `memrepo sync` again (if the branch never moves, ask the "
                          "server's admin about a push stuck there or a stale "
                          f"refs/heads/{target.branch}.lock)")])


def _undo_unpushed_merge(root: Path, onto: str, merged: str) -> None:
    """Before merging the remote again after a lost race: take back the merge the lost
    attempt made (HEAD still `merged`, nothing committed on top since), so one landed sync
    leaves one merge commit, not one per lost race for every clone to check. Nothing is
    lost: `onto` is this clone's work, the remote's commits are the remote's."""
    if merged == onto or _head(root) != merged:
        return
    with _sync_git(root):
        git(root, "reset", "--hard", "--quiet", onto, fix=FIX)


def _sync_git(root: Path) -> AbstractContextManager[None]:
    """sync's own git commands: it checks the branch's moves and refreshes the cache
    itself, so the reference-transaction and refreshing hooks leave both to it."""
    return passed_to_git(root, **{CHECKED_ELSEWHERE: "memrepo sync",
                                  REFRESHED_BY_CALLER: "memrepo sync"})


def _brought_in(root: Path, before: str, fetched: str | None) -> int:
    if fetched is None:
        return 0
    return int(git(root, "rev-list", "--count", f"{before}..{fetched}", fix=FIX).strip())


# --- where to sync with ----------------------------------------------------------------


def sync_target(root: Path, remote: str | None) -> Target:
    """REMOTE (default: the branch's upstream remote, else `origin`) and its branch."""
    local = current_branch(root)
    if not local:
        raise InputError(Problem(str(root), "HEAD is not on a branch (detached HEAD)",
                                 "check out the branch to sync: git switch main"))
    upstream_remote = config_get(root, f"branch.{local}.remote")
    merge_ref = config_get(root, f"branch.{local}.merge")
    chosen = remote or upstream_remote or "origin"
    if run_git(root, "remote", "get-url", chosen).returncode != 0:
        raise InputError(Problem(chosen, "no such git remote",
                                 f"add it: git remote add {chosen} URL (see "
                                 "docs/shared-server.md)"))
    tracked = chosen == upstream_remote and merge_ref is not None
    branch = merge_ref.removeprefix("refs/heads/") if tracked and merge_ref else local
    return Target(chosen, branch, local, tracked)


# --- hooks of a fresh clone ------------------------------------------------------------


def ensure_hooks(root: Path) -> str:
    """`present`, `installed` (memrepo's git hooks written now) or `missing` (could not)."""

    if all(state.runs_memrepo for state in states(root)):
        return "present"
    try:
        install(root)
    except (OSError, InputError):
        return "missing"
    return "installed"


# --- fetch and merge -------------------------------------------------------------------


def remote_commit(root: Path, target: Target) -> str | None:
    """Where the remote branch is now (None: no such branch, or the remote unreachable)."""
    listed = run_git(root, "ls-remote", target.remote, f"refs/heads/{target.branch}")
    words = listed.stdout.split()
    return words[0] if listed.returncode == 0 and words else None


def fetch(root: Path, target: Target) -> str | None:
    """The remote branch's commit, fetched; None when the remote has no such branch yet.
    Refused when the remote no longer contains what was fetched from it before."""
    ref = f"refs/heads/{target.branch}"
    listed = run_git(root, "ls-remote", "--exit-code", target.remote, ref)
    if listed.returncode == 2:
        return None
    if listed.returncode != 0:
        raise _git_failure(target.remote, "reading the remote", listed)
    tracking = f"refs/remotes/{target.remote}/{target.branch}"
    known = rev_parse(root, tracking)
    # --refmap= : git must not move the tracking branch itself (it would force it).
    fetched = run_git(root, "fetch", "--quiet", "--no-tags", "--refmap=", target.remote, ref)
    if fetched.returncode != 0:
        raise _git_failure(target.remote, "fetching", fetched)
    incoming = git(root, "rev-parse", "FETCH_HEAD^{commit}", fix=FIX).strip()
    if known is not None and not is_ancestor(root, known, incoming):
        raise _rewound(root, target, known, incoming)
    git(root, "update-ref", "-m", "memrepo sync: fetch", tracking, incoming, fix=FIX)
    return incoming


def _rewound(root: Path, target: Target, known: str, incoming: str) -> SyncRefused:
    dropped = git(root, "rev-list", "--count", f"{incoming}..{known}", fix=FIX).strip()
    label = f"{target.remote}/{target.branch}"
    return SyncRefused(
        f"memrepo sync: {label} no longer contains {dropped} commit(s) fetched from it "
        f"before (up to {known[:12]}); its history was rewound or rewritten, so nothing was "
        "merged or pushed", [Problem(
            label, f"the remote branch is at {incoming[:12]}, which lacks {known[:12]}",
            f"ask the server's admin why; to restore it after checking the commits: "
            f"git push {target.remote} {known}:refs/heads/{target.branch}")])


def merge_remote(root: Path, target: Target, incoming: str | None,
                 checked: str | None = None) -> None:
    """Check every incoming commit, merge `incoming` into HEAD, check the merge. `checked`:
    a remote commit whose history this sync checked already (an earlier attempt's). On a
    conflict or a refused check HEAD stays (or goes back) where it was."""
    if incoming is None or is_ancestor(root, incoming, "HEAD"):
        return
    label = f"{target.remote}/{target.branch}"
    problems = range_problems(root, f"{checked or 'HEAD'}..{incoming}")
    if problems:
        raise SyncRefused(f"memrepo sync: what {label} brings in fails the checks; nothing "
                          "was merged", problems)
    # checked here, before and after: the reference-transaction hook need not (and must
    # let the merge refused below be undone); the cache is refreshed once, by `sync`
    with _sync_git(root):
        _merge_checked(root, label, incoming)


def _merge_checked(root: Path, label: str, incoming: str) -> None:
    """Merge `incoming` into HEAD and check the merge; refused, HEAD goes back."""
    before = _head(root)
    merged = run_git(root, "merge", "--no-verify", "--no-edit", "-m",
                     f"memrepo sync: merge {label}", incoming)
    if merged.returncode != 0:
        _finish_or_abort(root, label, incoming, merged)
    head = _head(root)
    problems = [] if head == incoming else commit_problems_of(root, head)
    if problems:
        git(root, "reset", "--hard", "--quiet", before, fix=FIX)
        raise SyncRefused(f"memrepo sync: merging {label} fails the checks; the merge was "
                          f"undone (HEAD is back at {before[:12]})", problems)


def _finish_or_abort(root: Path, label: str, incoming: str,
                     merged: subprocess.CompletedProcess[str]) -> None:
    """Conflicts only in derived INDEX.md files are regenerated; anything else aborts."""
    conflicted = conflicted_files(root)
    output = (merged.stdout + merged.stderr).strip()
    if conflicted and all(path.endswith("/INDEX.md") for path in conflicted):
        failure = _commit_regenerated_indexes(root, conflicted)
        if failure is None:
            return
        output, conflicted = failure, []
    _abort_merge(root)
    if conflicted:
        raise SyncRefused(
            f"memrepo sync: merging {label} conflicts in {len(conflicted)} file(s); the "
            "merge was undone and nothing was lost (both versions are commits)",
            [Problem(path, "changed differently here and on the remote",
                     CONFLICT_FIX.format(ref=incoming[:12])) for path in conflicted])
    raise SyncRefused(f"memrepo sync: merging {label} was refused; the merge was undone",
                      [Problem(label, f"git merge failed:\n{output}",
                               "fix what the hooks report above (on the clone that made "
                               "the commit), then `memrepo sync` again")])


def conflicted_files(root: Path) -> list[str]:
    listed = run_git(root, "diff", "--name-only", "--diff-filter=U", "-z").stdout
    return sorted(path for path in listed.split("\0") if path)


def _commit_regenerated_indexes(root: Path, paths: Sequence[str]) -> str | None:
    """Regenerate the conflicted indexes from the merged notes and commit the merge; what
    went wrong, or None."""

    regenerated = regenerate_indexes(root)
    if regenerated.problems:
        return "\n".join([*(f"wrote {path} ({entries} entries)"
                            for path, entries in regenerated.written),
                          *(problem.render() for problem in regenerated.problems)])
    git(root, "add", "--", *paths, fix=FIX)
    done = run_git(root, "commit", "--no-verify", "--no-edit", "--quiet")
    return None if done.returncode == 0 else (done.stdout + done.stderr).strip()


def _abort_merge(root: Path) -> None:
    if merge_in_progress(root):
        git(root, "merge", "--abort", fix=FIX)


# --- push ------------------------------------------------------------------------------


def push(root: Path, target: Target) -> bool:
    """True when pushed; False when the remote moved meanwhile (fetch and merge again)."""
    _refuse_future_commits(root, target)
    refspec = f"refs/heads/{target.local}:refs/heads/{target.branch}"
    upstream = [] if target.tracked else ["--set-upstream"]
    done = run_git(root, "push", "--porcelain", *upstream, target.remote, refspec)
    if done.returncode == 0:
        return True
    if lost_race(done.stdout + done.stderr):
        return False
    if "[remote rejected]" in done.stdout:
        raise SyncRefused(
            f"memrepo sync: {target.remote} refused the push; your commits are merged and "
            "kept locally", [Problem(target.remote, "the server refused the push (its lines "
                                     "are above)", "fix what the server reports (its "
                                     "pre-receive hook runs `memrepo verify`), then "
                                     "`memrepo sync` again")], _remote_lines(done))
    raise _git_failure(target.remote, "pushing", done)


def _refuse_future_commits(root: Path, target: Target) -> None:
    """Commits about to be pushed that are dated after this machine's clock (a clone whose
    clock is wrong, a commit made with GIT_COMMITTER_DATE): pushed, they would block every
    other clone's sync (memrepo.checks.dates). Refused while they can still be dated again."""

    outgoing = git(root, "log", "--format=%h %ct", f"refs/heads/{target.local}", "--not",
                   f"--remotes={target.remote}", fix=FIX).split()
    skew = worktree_config(root).clock_skew_seconds
    problems = [problem for short, seconds in zip(outgoing[::2], outgoing[1::2], strict=True)
                for problem in future_dated(int(seconds) * 1_000_000, skew, f"commit {short}")]
    if problems:
        raise SyncRefused("memrepo sync: a commit to push is dated after this machine's "
                          "clock; nothing was pushed", problems)


def _remote_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The last lines of what the server said, `remote: ` prefixes taken off."""
    lines = [line.removeprefix("remote:").strip()
             for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return [line for line in lines if line][-20:]


# --- helpers ---------------------------------------------------------------------------


def refresh_cache(root: Path) -> None:
    """The cache follows HEAD; it is derived data, so a failure here only warns."""

    try:
        cache.sync(root, force=True)
    except Exception as err:  # the sync itself succeeded; the next query rebuilds
        print(f"memrepo sync: warning: cache refresh failed ({err}); the next query "
              "rebuilds it", file=sys.stderr)


def _require_clean(root: Path) -> None:
    if merge_in_progress(root):
        raise InputError(Problem(str(root), "a merge is in progress",
                                 "finish it (git commit) or abort it (git merge --abort)"))
    dirty = git(root, "status", "--porcelain", "--untracked-files=no", fix=FIX).strip()
    if dirty:
        first = dirty.splitlines()[0][3:]
        raise InputError(Problem(first, "uncommitted changes to tracked files",
                                 "commit them (or `git stash`) before `memrepo sync`"))


def _head(root: Path) -> str:
    head = head_commit(root)
    if head is None:
        raise InputError(Problem(str(root), "the branch has no commit yet",
                                 "make the first commit (memrepo init does) and sync again"))
    return head


def _git_failure(remote: str, what: str, done: subprocess.CompletedProcess[str]) -> InputError:
    output = (done.stderr + done.stdout).strip() or f"exit code {done.returncode}"
    return InputError(Problem(remote, f"{what} failed: {output}",
                              "check the remote's URL and your access (git remote -v), "
                              "then `memrepo sync` again"))
