"""Committing appended fact-log lines: the crash- and concurrency-safe half of the write
path (SPEC §4, §10).

Commit first, then show. Inside the write lock a write builds the new segment from HEAD's
blob plus its own line(s), runs the §6 checks in-process on HEAD's tree plus those blobs,
and moves the branch with a compare-and-swap (under git's `<ref>.lock`). Only then
does it append exactly the missing bytes to the working file and point git's index at the
new blob (`memrepo.git.staging`). So:
- the work tree and the index never hold an agent's line that is not committed, and a
  person's `git commit -a` / `git add -A` can never take half of a write;
- a status is the outcome of the branch update: nothing after it turns "added" into a
  refusal (an index git keeps locked is left for later, see below);
- a person's git command is never raced: the write waits, without holding the lock, while
  one runs (`memrepo.git.activity`), and checks again just before the branch update.

Serialisation: one writer at a time per clone (`memrepo.facts.write_lock`: flock on
.memrepo/write.lock; the kernel drops it when a process dies). memrepo's git hooks take the
same lock, so no write lands while a hook checks a commit.

What a kill -9 leaves, and who puts it right:
- before the branch update: nothing (an unreferenced object at most).
- after it, before the working file is appended: the file is *behind* HEAD. The next write
  to that segment appends the missing tail (append-only), `memrepo doctor --repair` too.
- before the index is updated: `.memrepo/index-behind` names the entries; the next write,
  the pre-commit hook and `memrepo doctor --repair` point them at HEAD. A kill while the
  write held `.git/index.lock` for the rename also leaves that lock, held by no process:
  whoever stages next removes it (`_left_by_a_kill`) instead of waiting for it in vain.
- from preparing the new index to the end of the index update: that new index (a whole
  index's size, in `.git`) and perhaps a link to the old one. A write that finds a kill's
  traces (the marker above, a stale branch lock) removes those of dead processes
  (`_after_a_kill`); `memrepo doctor --repair` too. The marker is written before the new
  index is prepared, so no such file is left without it.
Complete lines found in a working file beyond HEAD (a person appended them by hand, or a
version of memrepo that appended before committing was killed) are committed with the
next write to that segment, judged by the checks like its own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cache.gitstate import note_commit
from memrepo.checks.runner import run_checks
from memrepo.clock import now
from memrepo.core.config import CONFIG_PATH, FACTS_PREFIX
from memrepo.core.facts.segment_names import newest_paths
from memrepo.core.facts.times import Instant
from memrepo.core.problems import CheckRefused, InputError, MemoryBusy, NotAMemory, Problem
from memrepo.facts.segments import reread, segment_bytes, segment_paths
from memrepo.facts.write_lock import local_state_faults, lock_timeout, pause_for_git
from memrepo.files import is_link, open_beneath, read_beneath
from memrepo.git import staging
from memrepo.git import write as gitw
from memrepo.git.activity import HeadOpens, git_at_work, lock_in_use, run_by_git
from memrepo.git.branch_update import BranchLocked, branch_mover, branch_update, new_commit
from memrepo.local_state import INDEX_BEHIND

if TYPE_CHECKING:
    from pygit2 import Oid, Repository

    from memrepo.core.change import Change
    from memrepo.git.branch_update import BranchUpdate
    from memrepo.git.staging import Prepared
    from memrepo.git.write import Base

MAX_ATTEMPTS = 20


def recorded_now(root: Path) -> Instant:
    """The `recorded_at` of an event: taken INSIDE the write lock, so events of one clone
    are recorded in the order they are committed and none is older than its parent commit
    (whose time is its own latest event rounded up to the second: with
    clock_skew_seconds 0 a write in that same second is refused by the §6.5 check —
    keep the skew ≥ 1 s). Moving the time forward instead would hide the event from a
    recall made right after it."""
    return now()


def append_and_commit(root: Path, path: str, line: bytes, message: str, when: Instant) -> str:
    """Append one line to the segment at `path` and commit the segment; the commit's hex."""
    return append_many_and_commit(root, {path: line}, message, when)


def append_many_and_commit(root: Path, appends: Mapping[str, bytes], message: str,
                           when: Instant) -> str:
    """Append bytes (whole lines) to several segments in ONE commit (called under
    `write_lock`); the commit's hex. Empty bytes commit what the segment holds beyond HEAD.
    """

    require_memory(root)
    repo = gitw.open_repo(root)
    for _ in range(MAX_ATTEMPTS):
        base = gitw.head_base(repo)
        gitw.refuse_unfinished_operation(repo)
        segments = [_segment(root, path, data, base) for path, data in sorted(appends.items())]
        blobs = gitw.write_blobs(repo, {s.path: s.new for s in segments})
        tree = gitw.tree_with(repo, base.tree, blobs)
        change = gitw.change_to(base, tree, [s.path for s in segments], message, when,
                                known={s.path: (s.committed, s.new) for s in segments})
        run_commit_checks(change, {s.path: s.leftover_lines for s in segments})
        marked = behind_paths(root)
        entries = {**_behind_entries(base, marked), **{p: o.raw for p, o in blobs.items()}}
        done = _commit_when_git_is_quiet(root, base, tree, message, when, entries, marked)
        if done is not None:
            commit, prepared = done
            if base.commit is not None:
                note_commit(root, str(base.commit.id), commit, [s.path for s in segments])
            for segment in segments:
                _show(root, segment)
            _stage(root, repo, entries, prepared)
            if marked:
                _after_a_kill(Path(repo.path))
            return commit
    raise MemoryBusy(Problem("HEAD", "the branch kept moving while memrepo tried to commit",
                             "run the command again"))


def commit_leftovers(root: Path, scopes: list[str], when: Instant) -> str | None:
    """Commit the complete lines the scopes' working logs hold beyond HEAD (left by an
    interrupted write, or appended by hand) — in the newest segment of each month: lines
    appended to a closed one are the commit check's to refuse — the commit, or None when
    there are none."""

    repo = gitw.open_repo(root)
    if repo.head_is_unborn:
        return None
    base = gitw.head_base(repo)
    found = [path for scope in scopes for path in newest_paths(segment_paths(root, scope))
             if _has_leftovers(root, path, base)]
    if not found:
        return None
    message = ("commit event line(s) an interrupted write left uncommitted\n\n"
               "Source: memrepo (found before answering `unchanged`)\n")
    return append_many_and_commit(root, dict.fromkeys(found, b""), message, when)


def show_committed(root: Path, scopes: list[str]) -> None:
    """Give each of the scopes' working logs that is behind HEAD the lines HEAD has (a
    write killed after its commit, before showing it), and its index entry HEAD's blob: a
    retry of that write then finds its own event and answers `unchanged` instead of
    appending it twice. Index entries a write killed after showing its line left behind
    HEAD (`.memrepo/index-behind`) are pointed at HEAD too, so the retry leaves `git
    status` clean."""

    repo = gitw.open_repo(root)
    if repo.head_is_unborn:
        return
    base = gitw.head_base(repo)
    shown: dict[str, bytes] = {}
    for scope in scopes:
        folder = f"{FACTS_PREFIX}{scope}"
        for name in gitw.blob_names_at(base, folder):
            path = f"{folder}/{name}"
            if _behind_head(root, path, base):
                with suppress(InputError):  # a damaged log: `memrepo doctor` reports it
                    _show(root, _segment(root, path, b"", base))
                    shown[path] = gitw.blob_id_at(base, path) or b""
    marked = behind_paths(root)
    behind = _behind_entries(base, marked)
    if shown or behind:  # the index entries the kill left behind too
        _stage(root, repo, {**behind, **shown})
    if marked:
        _after_a_kill(Path(repo.path))


def _behind_head(root: Path, path: str, base: Base) -> bool:
    try:  # a file as long as HEAD's blob or longer is not behind it: no read, no hash
        size = os.lstat(root / path).st_size
    except FileNotFoundError:
        size = 0
    except OSError:
        return False

    return size < (gitw.blob_size_at(base, path) or 0)


def _has_leftovers(root: Path, path: str, base: Base) -> bool:
    try:  # only a file longer than HEAD's blob can hold lines beyond it: no read, no hash
        if os.lstat(root / path).st_size <= (gitw.blob_size_at(base, path) or 0):
            return False
    except FileNotFoundError:
        return False
    except OSError:
        pass
    try:
        return bool(_segment(root, path, b"", base).leftover_lines)
    except InputError:
        return False  # a damaged log: `memrepo doctor` reports it


# --- the segment: committed bytes, working file, new content ----------------------------


@dataclass(frozen=True, slots=True)
class _Segment:
    path: str
    committed: bytes  # HEAD's blob (b"" when HEAD has no such log)
    work: bytes  # the working file as read (b"" when missing)
    new: bytes  # what is committed: the longer of committed/work, plus the new bytes
    leftover_lines: range  # line numbers of complete lines the work file had beyond HEAD


def _segment(root: Path, path: str, data: bytes, base: Base) -> _Segment:
    try:
        work = segment_bytes(root, path) or b""
    except IsADirectoryError:
        raise InputError(Problem(path, "a folder is in the fact log's place",
                                 "move the folder out of memory/facts/")) from None
    committed = gitw.committed_bytes(base, path, work) or b""
    if work and not work.endswith(b"\n"):
        from memrepo.facts.segments import REPAIR_HINT

        raise InputError(Problem(path, "the last line is incomplete (a write was cut off)",
                                 REPAIR_HINT, work.count(b"\n") + 1))
    if len(work) == len(committed) and work == committed:
        return _Segment(path, committed, work, work + data, range(0))
    if work.startswith(committed):
        first = committed.count(b"\n") + 1
        return _Segment(path, committed, work, work + data,
                        range(first, first + work.count(b"\n", len(committed))))
    if committed.startswith(work):  # behind HEAD: a write was killed before showing it
        return _Segment(path, committed, work, committed + data, range(0))
    raise InputError(Problem(path, "the file in the working tree no longer starts with "
                             "its committed content (lines were changed or removed)",
                             f"restore it with `git checkout -- {path}`; logs are "
                             "append-only"))


def _show(root: Path, segment: _Segment) -> None:
    """Append to the working file what it lacks of the committed content — only when it
    still holds what was read (else a person is editing it: `git status` will say so)."""

    reread(root, segment.path)
    try:
        fd = open_beneath(root, segment.path, os.O_RDWR | os.O_APPEND | os.O_CREAT,
                          make_dirs=True)
    except (OSError, InputError):
        return  # committed; doctor reports the difference
    try:
        size = os.fstat(fd).st_size
        if size != len(segment.work) or not _ends_alike(fd, segment.work):
            return
        missing = segment.new[size:]
        if missing:
            os.write(fd, missing)  # one write on an O_APPEND descriptor: whole or not at all
    finally:
        os.close(fd)


def _ends_alike(fd: int, work: bytes) -> bool:
    """Whether the file (of `work`'s size) still ends as `work` did when it was read — a
    cheap stand-in for comparing megabytes: an edit keeping the size and the last 4 KiB is
    not what a person does."""
    tail = min(len(work), 4096)
    return os.pread(fd, tail, len(work) - tail) == work[len(work) - tail:]


# --- the branch update, when no person's git command is at work -------------------------


def _commit_when_git_is_quiet(root: Path, base: Base, tree: Oid, message: str,
                              when: Instant, entries: Mapping[str, bytes], earlier: list[str],
                              ) -> tuple[str, Prepared | None] | None:
    """Move the branch to a new commit of `tree` — checking just before that no person's
    git command has started meanwhile (if one has: release the lock until it ends and
    return None, so the caller rebuilds on what it committed). None too when HEAD moved.
    Everything else (the commit object, the marker, the new index, the branch's lock
    taken as git takes it) is done before the last look (an inotify watch on .git/HEAD),
    so that one rename moves the branch microseconds after it. `earlier`: what the marker
    named before (restored when the branch does not move)."""

    git_dir = Path(base.repo.path)
    commit = new_commit(base, tree, message, when)
    update = branch_update(base, commit, message)
    move = branch_mover(base, commit, message) if update is None else update.finish
    _mark_behind(root, entries)  # first: a kill from here on leaves it (see the top)
    try:
        prepared = staging.prepare(git_dir, entries)
    except BaseException:
        _mark_behind(root, dict.fromkeys(earlier, b""))
        raise
    with HeadOpens(git_dir) as head_opens:  # nothing below opens .git/HEAD but git
        try:
            if git_at_work(root, git_dir) is not None:
                _undo_attempt(root, prepared, earlier)
                pause_for_git(root)
                return None
            if update is not None and not _lock_branch(root, git_dir, update):
                _undo_attempt(root, prepared, earlier)
                return None
            if head_opens.seen():  # a git command started during the scan: look again
                if update is not None:
                    update.release()
                _undo_attempt(root, prepared, earlier)
                time.sleep(0.005)
                return None
            if not move():  # the branch's own update: one rename after that last look
                _undo_attempt(root, prepared, earlier)
                return None
        finally:
            if update is not None:
                update.release()  # unless renamed into place
    return str(commit), prepared


def _lock_branch(root: Path, git_dir: Path, update: BranchUpdate) -> bool:
    """`update.lock()`. A branch lock left by a write killed between taking it and moving
    the branch is removed, or every later write would be refused."""
    try:
        return update.lock()
    except BranchLocked as locked:
        if not _left_by_a_kill(root, git_dir, locked.lock):
            raise
        locked.lock.unlink(missing_ok=True)
        _after_a_kill(git_dir)
        return update.lock()


def _left_by_a_kill(root: Path, git_dir: Path, lock: Path) -> bool:
    """Whether a git lock file was left by a killed process, as the holder of the write
    lock judges it: no process holds it open, no git command works in the clone and none
    runs this one (git keeps its locks closed while its hooks run)."""
    return (not lock_in_use(lock) and git_at_work(root, git_dir) is None
            and not run_by_git())


def _after_a_kill(git_dir: Path) -> None:
    """Remove the temporary index files of killed writes (`staging.leftovers`), once a
    write found a kill's traces — not on every write: listing `.git` is not free. Never
    raises: the write stands either way, and doctor reports what is left."""
    with suppress(OSError):
        staging.remove_leftovers(git_dir)


def _undo_attempt(root: Path, prepared: Prepared | None, earlier: list[str]) -> None:
    """Undo what an attempt that did not move the branch prepared; the next attempt reads
    the segments again (a git command may have changed them)."""

    reread(root)
    staging.discard(prepared)
    _mark_behind(root, dict.fromkeys(earlier, b""))


def _stage(root: Path, repo: Repository, entries: Mapping[str, bytes],
           prepared: Prepared | None = None) -> None:
    """Point the index at the commit; never raises (the commit stands either way)."""

    deadline = time.monotonic() + min(5.0, lock_timeout())
    git_dir = Path(repo.path)
    stale = partial(_left_by_a_kill, root, git_dir)
    try:
        done = staging.update(root, git_dir, entries, deadline, prepared, stale)
    except (OSError, InputError):
        done = False
    if done:
        _clear_behind(root)


def _mark_behind(root: Path, entries: Mapping[str, bytes]) -> None:
    """Name the index entries about to fall behind HEAD (until `_stage` has moved them)."""

    if not entries:
        _clear_behind(root)
        return
    with local_state_faults(INDEX_BEHIND):  # before the branch moves: a refusal writes nothing
        fd = open_beneath(root, INDEX_BEHIND, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                          make_dirs=True)
        try:
            os.write(fd, "".join(f"{path}\n" for path in entries).encode())
        finally:
            os.close(fd)


def _clear_behind(root: Path) -> None:
    with suppress(FileNotFoundError):
        os.unlink(root / INDEX_BEHIND)


def behind_paths(root: Path) -> list[str]:
    """Fact logs whose index entries a killed write may have left behind HEAD."""

    try:
        data = read_beneath(root, INDEX_BEHIND)
    except InputError:
        return []
    return [line for line in (data or b"").decode(errors="replace").splitlines()
            if line.startswith("memory/facts/")]


def _behind_entries(base: Base, paths: list[str]) -> dict[str, bytes]:
    return {path: oid for path in paths if (oid := gitw.blob_id_at(base, path)) is not None}


def refresh_behind(root: Path, index_file: Path | None = None) -> None:
    """Point index entries a killed write left behind at HEAD (the pre-commit hook and
    doctor call this under the write lock). `index_file`: the index a running `git commit`
    holds locked and commits (its GIT_INDEX_FILE), rewritten in place. Nothing is imported
    when no write was left behind (every commit's pre-commit hook asks)."""
    if not (root / INDEX_BEHIND).exists():
        return

    repo = gitw.open_repo(root)
    entries = _behind_entries(gitw.head_base(repo), behind_paths(root))
    git_dir = Path(repo.path)
    _after_a_kill(git_dir)
    if entries and index_file is not None and index_file != git_dir / "index":
        staging.rewrite_locked(git_dir, index_file, entries)
        return  # .git/index itself is written by git when the commit ends
    if entries:
        _stage(root, repo, entries)
    else:
        _clear_behind(root)


# --- a memory repository, and the checks --------------------------------------------------


def require_memory(root: Path) -> None:
    """Writes go only into a memory repository: memory/config.yaml a regular file (not a
    link) in the work tree. (A plain git repository is refused, never given a memory/.)"""

    file = root / CONFIG_PATH
    if is_link(root, CONFIG_PATH) or not file.is_file():
        raise NotAMemory(Problem(str(root), "not a memory repository (no memory/config.yaml)",
                                 "run `memrepo init DIR` to make one, or pass --repo PATH"))


def run_commit_checks(change: Change, leftovers: Mapping[str, range] | None = None) -> None:
    """The §6 checks, in-process, on HEAD → the tree about to be committed (pygit2
    commits run no hooks); the first problem refuses the write. A problem in a line found
    uncommitted in the working file says so and points to `memrepo doctor --repair`."""

    problems = run_checks(change, "all")
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        text, fix = first.problem + more, first.fix
        if first.line is not None and first.line in (leftovers or {}).get(first.path, ()):
            text = f"{text} — in a line an interrupted write left uncommitted"
            fix = "run `memrepo doctor --repair` (it sets such lines aside)"
        raise CheckRefused(Problem(first.path, text, fix, first.line))
