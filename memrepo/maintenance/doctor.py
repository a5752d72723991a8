"""`memrepo doctor [--repair]`: find (and put right) what an interrupted write can leave.

Diagnosed, and what `--repair` does (under the write lock, so no memrepo write runs
meanwhile):
- a merge, rebase, cherry-pick or revert left unfinished: a merge `memrepo sync` began
  (its message says so) is aborted — sync redoes it, nothing is lost; anyone else's is
  reported only. Checked first: lines a merge brought in are not "uncommitted lines";
- git hooks missing in this clone (a fresh clone has none): installed;
- symbolic links under memory/ or .memrepo/: reported only — memrepo never reads, writes
  or repairs through one;
- a fact log behind HEAD (killed after the commit, before the file was appended): the
  missing committed tail appended;
- a partial last line in a fact log (a write cut off): moved aside to
  `.memrepo/partial/<path-with-dashes>.<timestamp>` (never dropped: a person can read it)
  and the log cut back to its last `\\n`;
- complete lines appended but not committed (killed between append and commit): committed
  through the normal checked write path with a message saying so. Lines the checks refuse
  (e.g. left so long that they are now older than HEAD) are moved aside like a partial
  line, so the log is valid again; nothing committed is ever touched. (A later `remember`
  to the same segment also commits such lines; doctor does it for every log at once.)
- a log whose committed lines were changed or removed: reported only (`git checkout`);
- index entries of fact logs left behind HEAD (killed after the commit, before the index
  update; the work file equals HEAD): reset to HEAD;
- stale lock files under .git (`index.lock`, `<ref>.lock`, …) that no process holds:
  removed; a lock some process holds is reported only;
- a cache file that is corrupt or of an older schema: rebuilt; leftovers of a killed
  rebuild: removed; a stale (but sound) cache — ordinary after any write — is synced even
  without --repair, as the next query would, and reported as information, not a problem;
- a cache that does not say what the files say (memrepo.cache.audit): rows edited behind
  memrepo's back (a digest per log, cheap) or, with `deep`, any difference from a fresh
  build: rebuilt (the fresh build is swapped in);
- log lines the cache leaves out because the checks refuse them (committed with
  `--no-verify`): reported only — committed history is not rewritten;
- INDEX.md drift: reported only (`memrepo index`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo.clock import now
from memrepo.core.problems import InputError, Problem
from memrepo.core.times import format_instant
from memrepo.facts.appender import append_many_and_commit, refresh_behind, write_lock
from memrepo.facts.segments import FACTS_DIR
from memrepo.files import is_link, open_beneath, read_beneath
from memrepo.git.command import run_git

if TYPE_CHECKING:
    from memrepo.cache.audit import SkippedLine

PARTIAL_DIR = ".memrepo/partial"
_LOCK_GRACE_SECONDS = 1.0  # git closes a lock file an instant before renaming it


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found; `repaired` says what --repair did about it (None: nothing)."""

    path: str
    problem: str
    fix: str
    repaired: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "problem": self.problem, "fix": self.fix,
                "repaired": self.repaired}


@dataclass(slots=True)
class Report:
    findings: list[Finding] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        return all(f.repaired is not None for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"healthy": self.healthy, "findings": [f.to_json() for f in self.findings]}


def doctor(root: Path, repair: bool = False, deep: bool = False) -> Report:
    """Diagnose the clone at `root` (and repair what is safe to repair); `deep` compares
    the cache with a fresh build from the files (a full build's cost)."""
    report = Report()
    if repair:
        with write_lock(root):
            _run_checks(root, True, deep, report)
    else:
        _run_checks(root, False, deep, report)
    return report


def _run_checks(root: Path, repair: bool, deep: bool, report: Report) -> None:
    unfinished = _unfinished_operation(root, repair)
    report.findings.extend(unfinished)
    checks: tuple[Callable[[Path, bool], list[Finding]], ...] = (
        _hooks, _links, _git_locks, _index_behind_head, _cache, _index_files)
    if not any(f.repaired is None for f in unfinished):
        checks = (_hooks, _links, _git_locks, _logs, _index_behind_head, _cache, _index_files)
    for check in checks:
        report.findings.extend(check(root, repair))
    report.findings.extend(_cache_contents(root, repair, deep))


# --- unfinished git operations, hooks, links ----------------------------------------------

SYNC_MERGE_PREFIX = "memrepo sync: merge"


def _unfinished_operation(root: Path, repair: bool) -> list[Finding]:
    from memrepo.git import write as gitw

    found = gitw.unfinished_operation(gitw.open_repo(root))
    if found is None:
        return []
    name, what = found
    path = f".git/{name}"
    if name == "MERGE_HEAD" and _merge_message(root).startswith(SYNC_MERGE_PREFIX):
        finding = Finding(path, "a merge an interrupted `memrepo sync` began is unfinished; "
                          "memrepo does not commit on top of it",
                          "run `memrepo doctor --repair` (it aborts the merge; `memrepo "
                          "sync` then does it again)")
        if not repair:
            return [finding]
        _git(root, "merge", "--abort")
        return [_done(finding, "aborted the merge (run `memrepo sync` again)")]
    return [Finding(path, f"{what} is in progress in this clone; memrepo does not commit on "
                    "top of it", f"finish it (`git commit`, `git {_verb(name)} --continue`) "
                    f"or abort it (`git {_verb(name)} --abort`)")]


def _verb(name: str) -> str:
    return {"MERGE_HEAD": "merge", "CHERRY_PICK_HEAD": "cherry-pick",
            "REVERT_HEAD": "revert"}.get(name, "rebase" if "rebase" in name else "cherry-pick")


def _merge_message(root: Path) -> str:
    from memrepo.git import write as gitw

    try:
        return (Path(gitw.open_repo(root).path) / "MERGE_MSG").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _hooks(root: Path, repair: bool) -> list[Finding]:
    from memrepo.git.hook_scripts import install, states

    wrong = [state for state in states(root) if not state.runs_memrepo]
    if not wrong:
        return []
    names = ", ".join(f"{s.hook_type} ({s.state})" for s in wrong)
    finding = Finding(_rel(root, wrong[0].path.parent), f"git hooks are missing in this "
                      f"clone, so bad commits are not refused: {names}",
                      "run `memrepo hooks install` (or `memrepo doctor --repair`)")
    if not repair:
        return [finding]
    install(root)
    return [_done(finding, "installed memrepo's git hooks")]


def _links(root: Path, repair: bool) -> list[Finding]:
    from memrepo.files import LINK_FIX

    return [Finding(path, "is a symbolic link", LINK_FIX) for path in symlinks(root)]


def symlinks(root: Path) -> list[str]:
    """Symbolic links under memory/ and .memrepo/ (not followed), repo-relative."""
    found = []
    for top in ("memory", ".memrepo"):
        start = root / top
        if start.is_symlink():
            found.append(top)
            continue
        for folder, dirs, files in os.walk(start):
            for name in sorted(dirs + files):
                path = Path(folder) / name
                if path.is_symlink():
                    found.append(path.relative_to(root).as_posix())
    return sorted(found)


# --- fact logs ---------------------------------------------------------------------------


def _logs(root: Path, repair: bool) -> list[Finding]:
    findings: list[Finding] = []
    leftovers: dict[str, int] = {}
    for path in _log_paths(root):
        data = read_beneath(root, path) or b""
        if data and not data.endswith(b"\n"):
            findings.append(_partial_line(root, path, data, repair))
            data = read_beneath(root, path) or b""
        committed = _committed(root, path)
        if committed.startswith(data) and len(committed) > len(data):
            findings.append(_behind(root, path, data, committed, repair))
        elif not data.startswith(committed):
            findings.append(Finding(path, "the file no longer starts with its committed "
                                    "content (committed lines were changed or removed)",
                                    f"restore it with `git checkout -- {path}`"))
        elif data.count(b"\n") > committed.count(b"\n"):
            leftovers[path] = data.count(b"\n") - committed.count(b"\n")
    if leftovers:
        findings.extend(_uncommitted(root, leftovers, repair))
    return findings


def _log_paths(root: Path) -> Iterator[str]:
    """The fact logs in the working tree and in HEAD, never through a symbolic link (links
    are reported by `_links`)."""
    facts = root / FACTS_DIR
    found = set(_committed_logs(root))
    if facts.is_dir() and not facts.is_symlink():
        for scope in facts.iterdir():
            if scope.is_dir() and not scope.is_symlink():
                found.update(f"{FACTS_DIR}/{scope.name}/{file.name}"
                             for file in scope.iterdir()
                             if file.name.endswith(".jsonl") and not file.is_symlink()
                             and file.is_file())
    yield from sorted(p for p in found if not is_link(root, p))


def _committed_logs(root: Path) -> list[str]:
    if run_git(root, "rev-parse", "--verify", "-q", "HEAD").returncode != 0:
        return []  # no commit yet: nothing is committed
    out = _git(root, "ls-tree", "-r", "-z", "--name-only", "HEAD", "--", FACTS_DIR)
    return [p for p in out.split("\0") if p.endswith(".jsonl")]


def _behind(root: Path, path: str, data: bytes, committed: bytes, repair: bool) -> Finding:
    lines = committed.count(b"\n") - data.count(b"\n")
    finding = Finding(path, f"the file lacks the last {lines} committed line(s) (a write "
                      "was interrupted after its commit)",
                      "run `memrepo doctor --repair` (it appends them; the next write to "
                      "this log does too)")
    if not repair:
        return finding
    fd = open_beneath(root, path, os.O_RDWR | os.O_APPEND | os.O_CREAT, make_dirs=True)
    try:
        if _read_fd_all(fd) == data:
            os.write(fd, committed[len(data):])
    finally:
        os.close(fd)
    return _done(finding, "appended the committed lines the file lacked")


def _read_fd_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    return os.pread(fd, size, 0) if size else b""


def _committed(root: Path, path: str) -> bytes:
    from memrepo.git import write as gitw

    repo = gitw.open_repo(root)
    if repo.head_is_unborn:
        return b""
    return gitw.blob_at(gitw.head_base(repo), path) or b""


def _partial_line(root: Path, path: str, data: bytes, repair: bool) -> Finding:
    cut = data.rfind(b"\n") + 1
    number = data.count(b"\n") + 1
    problem = (f"the last line ({number}) is incomplete: {len(data) - cut} byte(s) of a "
               "write that was cut off")
    fix = "run `memrepo doctor --repair` (it moves the partial line aside)"
    if not repair:
        return Finding(path, problem, fix)
    kept = set_aside(root, path, data[cut:], "partial")
    _truncate(root, path, cut)
    return Finding(path, problem, fix, f"moved the partial line to {kept} and cut the log "
                   "back to its last complete line")


def set_aside(root: Path, path: str, data: bytes, what: str) -> str:
    """Keep `data` in .memrepo/partial/ for a person to read; its repo-relative path."""
    stamp = format_instant(now()).replace(":", "")
    target = f"{PARTIAL_DIR}/{path.replace('/', '-')}.{what}.{stamp}"
    fd = open_beneath(root, target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, make_dirs=True)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    return target


def _truncate(root: Path, path: str, size: int) -> None:
    fd = open_beneath(root, path, os.O_RDWR)
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def _uncommitted(root: Path, leftovers: dict[str, int], repair: bool) -> list[Finding]:
    fix = ("run `memrepo doctor --repair` to commit them (the next `memrepo remember` to "
           "the same log also does)")
    findings = [Finding(path, f"{count} complete line(s) were appended but never "
                        "committed (an interrupted write)", fix)
                for path, count in leftovers.items()]
    if not repair:
        return findings
    try:
        commit = _commit_leftovers(root, leftovers)
    except InputError:  # one log's lines are refused: commit each log on its own
        return [_repair_one(root, finding, leftovers[finding.path]) for finding in findings]
    return [_done(f, f"committed in {commit[:12]}") for f in findings]


def _commit_leftovers(root: Path, leftovers: dict[str, int]) -> str:
    total = sum(leftovers.values())
    message = (f"doctor: commit {total} event line(s) an interrupted write left "
               f"uncommitted\n\nSource: memrepo doctor --repair\n")
    return append_many_and_commit(root, dict.fromkeys(leftovers, b""), message, now())


def _repair_one(root: Path, finding: Finding, count: int) -> Finding:
    """Commit one log's leftover lines, or — only when the checks refuse them — set them
    aside, so a refusal in one log never moves another log's valid lines."""
    try:
        commit = _commit_leftovers(root, {finding.path: count})
    except InputError as refusal:
        return _set_aside_uncommitted(root, finding, refusal.detail)
    return _done(finding, f"committed in {commit[:12]}")


def _set_aside_uncommitted(root: Path, finding: Finding, refusal: Problem) -> Finding:
    data = read_beneath(root, finding.path) or b""
    committed = _committed(root, finding.path)
    kept = set_aside(root, finding.path, data[len(committed):], "uncommitted")
    _truncate(root, finding.path, len(committed))
    return _done(finding, f"the checks refused to commit them ({refusal.render()}); moved "
                 f"them to {kept} and cut the log back to its committed content")


def _done(finding: Finding, what: str) -> Finding:
    return Finding(finding.path, finding.problem, finding.fix, what)


# --- git: the index and lock files -------------------------------------------------------


def _index_behind_head(root: Path, repair: bool) -> list[Finding]:
    """Fact logs whose index entry differs from HEAD while the work file equals HEAD."""
    if repair:
        refresh_behind(root)
    out = _git(root, "diff", "--cached", "--name-only", "-z", "--no-renames", "--",
               FACTS_DIR)
    behind = [p for p in out.split("\0") if p and _work_equals_head(root, p)]
    if not behind:
        return []
    finding = Finding(" ".join(behind), "the index was not updated after memrepo "
                      "committed (an interrupted write): `git status` shows a change",
                      f"run `git reset -q -- {' '.join(behind)}`")
    if not repair:
        return [finding]
    _git(root, "reset", "-q", "--", *behind)
    return [_done(finding, "reset the index entries to HEAD")]


def _work_equals_head(root: Path, path: str) -> bool:
    try:
        data = read_beneath(root, path)
    except InputError:
        return False
    return data is not None and data == _committed(root, path)


def _git_locks(root: Path, repair: bool) -> list[Finding]:
    git_dir = root / ".git"
    if not git_dir.is_dir():
        return []
    findings = []
    for lock in _lock_files(git_dir):
        findings.append(_lock_finding(root, lock, repair))
    return findings


def _lock_files(git_dir: Path) -> list[Path]:
    found = [git_dir / name for name in ("index.lock", "HEAD.lock", "packed-refs.lock",
                                         "config.lock") if (git_dir / name).exists()]
    for sub in ("refs", "logs"):
        if (git_dir / sub).is_dir():
            found.extend(sorted((git_dir / sub).rglob("*.lock")))
    return found


def _lock_finding(root: Path, lock: Path, repair: bool) -> Finding:
    path = lock.relative_to(root).as_posix()
    if _lock_in_use(lock):
        return Finding(path, "a git lock file held by a running process",
                       "wait for that git command to finish")
    finding = Finding(path, "a stale git lock file (no process holds it; a git or memrepo "
                      "command was killed)", f"remove it: `rm {path}` "
                      "(or `memrepo doctor --repair`)")
    if not repair:
        return finding
    lock.unlink(missing_ok=True)
    return _done(finding, "removed it")


def _lock_in_use(lock: Path) -> bool:
    """Whether a process holds the lock file open (git and libgit2 keep it open while they
    write). Without /proc, only a lock older than ten minutes counts as stale."""
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False
    if not Path("/proc/self/fd").is_dir():
        return age < 600
    if age < _LOCK_GRACE_SECONDS:
        time.sleep(_LOCK_GRACE_SECONDS - age)
    return _open_by_any_process(lock)


def _open_by_any_process(file: Path) -> bool:
    target = str(file.resolve())
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            fds = list(fd_dir.iterdir())
        except OSError:
            continue  # another user's process, or gone
        if any(_link(fd) == target for fd in fds):
            return True
    return False


def _link(fd: Path) -> str | None:
    try:
        return os.readlink(fd)
    except OSError:
        return None  # closed meanwhile


def _git(root: Path, *args: str) -> str:
    done = run_git(root, *args)
    if done.returncode != 0:
        raise InputError(Problem(str(root), f"git {args[0]} failed: "
                                 f"{(done.stderr or done.stdout).strip()}",
                                 "end the other git process (or remove its stale lock) "
                                 "and run `memrepo doctor --repair` again"))
    return done.stdout


# --- the cache and the indexes -----------------------------------------------------------


def _cache(root: Path, repair: bool) -> list[Finding]:
    from memrepo import cache

    findings = _cache_leftovers(root, repair)
    try:
        cache.require_cache_file(cache.cache_path(root))
    except InputError as refused:  # reported only: memrepo never deletes what it did not make
        refusal = refused.detail
        return [*findings, Finding(_rel(root, Path(refusal.path)), refusal.problem,
                                   refusal.fix)]
    status = cache.status(root)
    path = Path(status.path)
    if path.exists() and not status.exists:
        finding = Finding(_rel(root, path), "the cache file is corrupt or of an older schema",
                          "run `memrepo cache rebuild`")
        if repair:
            cache.rebuild(root)
            finding = _done(finding, "rebuilt it")
        findings.append(finding)
    elif status.exists and not status.current:  # ordinary after a write: not a problem
        cache.sync(root)  # what the next query would do; the contents are then audited
        findings.append(Finding(_rel(root, path), "the cache was behind the files (as after "
                                "any write; the next query would have synced it)",
                                "nothing to do", "synced it"))
    return findings


def _cache_leftovers(root: Path, repair: bool) -> list[Finding]:
    from memrepo import cache

    target = cache.cache_path(root)
    findings = []
    for temporary in sorted(target.parent.glob(f"{target.name}.*.tmp")):
        pid = temporary.name.removeprefix(f"{target.name}.").removesuffix(".tmp")
        if pid.isdigit() and Path(f"/proc/{pid}").exists():
            continue  # a rebuild still running
        finding = Finding(_rel(root, temporary), "a half-built cache left by a killed "
                          "rebuild", f"remove it: `rm {_rel(root, temporary)}`")
        if repair:
            temporary.unlink(missing_ok=True)
            finding = _done(finding, "removed it")
        findings.append(finding)
    return findings


def _cache_contents(root: Path, repair: bool, deep: bool) -> list[Finding]:
    """Whether a sound, current cache says what the files say, and the lines it skips."""
    from memrepo import cache
    from memrepo.cache import audit
    from memrepo.cache.build import built_aside
    from memrepo.cache.staleness import is_stale

    if not cache.cache_path(root).is_file():
        return []
    conn = audit.open_existing(root)
    if conn is None:
        return []  # missing, corrupt or behind: reported (and repaired) by _cache
    try:
        if is_stale(conn, root):
            return []
        findings = _skipped(audit.skipped_lines(conn))
        if deep:
            with built_aside(root) as (fresh, _):
                differences = audit.deep_differences(conn, fresh)
                if differences:
                    findings.append(_differs(root, "; ".join(differences), repair, fresh))
        else:
            edited = audit.edited_logs(conn)
            if edited:
                shown_paths = ", ".join(edited[:3]) + (" …" if len(edited) > 3 else "")
                findings.append(_differs(root, f"rows of {len(edited)} log(s) were changed "
                                         f"after they were indexed ({shown_paths})",
                                         repair, None))
    finally:
        conn.close()
    return findings


def _skipped(lines: list[SkippedLine]) -> list[Finding]:
    fix = ("nothing reads it (every query skips the line); the commit that added it "
           "skipped the checks — `memrepo verify` names it")
    return [Finding(f"{line.path}:{line.line}", f"the cache leaves this line out: "
                    f"{line.reason}", fix) for line in lines]


def _differs(root: Path, what: str, repair: bool, fresh: Path | None) -> Finding:
    from memrepo import cache
    from memrepo.cache.build import swap_in

    path = _rel(root, cache.cache_path(root))
    finding = Finding(path, f"the cache does not say what the files say: {what}",
                      "run `memrepo doctor --repair` (it rebuilds the cache from the files)")
    if not repair:
        return finding
    if fresh is not None:
        swap_in(root, fresh)
    else:
        cache.rebuild(root)
    return _done(finding, "rebuilt it from the files")


def _index_files(root: Path, repair: bool) -> list[Finding]:
    from memrepo.core.headers import index_path
    from memrepo.maintenance.indexes import build_indexes, current_index

    if not (root / "memory").is_dir():
        return []
    try:
        texts, _ = build_indexes(root)  # unreadable notes are `memrepo check`'s to report
        current = {category: current_index(root, category) for category in texts
                   if (root / index_path(category)).parent.is_dir()}
    except InputError:  # a symbolic link, which `_links` reports
        return []
    return [Finding(index_path(category), "INDEX.md does not match the notes of its folder",
                    "run `memrepo index`")
            for category, data in current.items() if data != texts[category].encode("utf-8")]


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
