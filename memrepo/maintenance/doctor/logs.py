"""Doctor: fact logs behind HEAD, cut off, or with lines appended but not committed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from memrepo.clock import now
from memrepo.core.facts.segment_names import is_log_path
from memrepo.core.facts.times import format_instant
from memrepo.core.problems import InputError, Problem
from memrepo.facts.appender import append_many_and_commit
from memrepo.facts.segments import FACTS_DIR
from memrepo.files import is_link, open_beneath, read_beneath
from memrepo.git.command import run_git

from .findings import Finding, done, git_checked

PARTIAL_DIR = ".memrepo/partial"


def logs(root: Path, repair: bool) -> list[Finding]:
    findings: list[Finding] = []
    leftovers: dict[str, int] = {}
    for path in _log_paths(root):
        data = read_beneath(root, path) or b""
        if data and not data.endswith(b"\n"):
            findings.append(_partial_line(root, path, data, repair))
            data = read_beneath(root, path) or b""
        committed = committed_bytes(root, path)
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
                             if is_log_path(f"{FACTS_DIR}/{scope.name}/{file.name}")
                             and not file.is_symlink() and file.is_file())
    yield from sorted(p for p in found if not is_link(root, p))


def _committed_logs(root: Path) -> list[str]:
    if run_git(root, "rev-parse", "--verify", "-q", "HEAD").returncode != 0:
        return []  # no commit yet: nothing is committed
    out = git_checked(root, "ls-tree", "-r", "-z", "--name-only", "HEAD", "--", FACTS_DIR)
    return [p for p in out.split("\0") if is_log_path(p)]


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
    return done(finding, "appended the committed lines the file lacked")


def _read_fd_all(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    return os.pread(fd, size, 0) if size else b""


def committed_bytes(root: Path, path: str) -> bytes:
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
           "the same log also does, when they pass the checks)")
    findings = [Finding(path, f"{count} complete line(s) were appended but never "
                        "committed (an interrupted write)", fix)
                for path, count in leftovers.items()]
    if not repair:
        return findings
    try:
        commit = _commit_leftovers(root, leftovers)
    except InputError:  # one log's lines are refused: commit each log on its own
        return [_repair_one(root, finding, leftovers[finding.path]) for finding in findings]
    return [done(f, f"committed in {commit[:12]}") for f in findings]


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
    return done(finding, f"committed in {commit[:12]}")


def _set_aside_uncommitted(root: Path, finding: Finding, refusal: Problem) -> Finding:
    data = read_beneath(root, finding.path) or b""
    committed = committed_bytes(root, finding.path)
    kept = set_aside(root, finding.path, data[len(committed):], "uncommitted")
    _truncate(root, finding.path, len(committed))
    where = refusal.path if refusal.line is None else f"{refusal.path}:{refusal.line}"
    return done(finding, f"the checks refused to commit them ({where}: {refusal.problem}); "
                f"moved them to {kept} and cut the log back to its committed content")
