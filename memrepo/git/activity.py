"""Is a person's git command at work in this clone right now?

`git commit` reads HEAD when it starts and, at its end, moves the branch only if HEAD is
still what it read: a library commit in between makes the person's commit fail ("cannot
lock ref 'HEAD'"). So memrepo never moves HEAD or rewrites the index while such a command
runs. It is seen three ways:
- on Linux, any `git` process whose working directory is this clone and whose subcommand
  is not a read-only one (`git status`, `git log`, … are not waited for);
- without /proc, `.git/index.lock`: git holds it while it rewrites the index (and through
  the hooks of `git commit -a` / `git commit <path>`); a stale one then makes writes wait
  until `memrepo doctor --repair` removes it;
- a registration the pre-commit / pre-merge-commit hook leaves for its `git` process
  (`.memrepo/git-commands/<pid>`), for systems without /proc; a dead process's
  registration is ignored and removed. Once the commit-msg hook passed, the registration
  also says which commit it checked (`mark_checked`: the reference-transaction hook does
  not check that one again).
This process itself, its ancestors (a library write run from inside a git hook) and its
descendants (git commands memrepo runs, e.g. sync's merge) never count.

A scan reads each process once, so a process that becomes `git` (a fork that execs) right
after it was read goes unseen until the next scan. `HeadOpens` closes that gap on Linux:
every git command opens `.git/HEAD` as it starts, before it reads the branch, so an
inotify watch set up before the scan and read just before the branch update sees any git
command that started meanwhile.
"""

from __future__ import annotations

import ctypes
import os
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from memrepo.core.record_base import Record, init_field
from memrepo.files import is_link, open_beneath
from memrepo.local_state import GIT_COMMANDS

HOLDER_VARIABLE = "MEMREPO_LOCK_HOLDER"
"""Set while a process holds the write lock, for the git commands it runs: their hooks
must not wait for the lock their own caller holds."""
PROC = Path("/proc")
"""Linux's process table. Where it is missing (macOS, the BSDs) every reader of it here
degrades as its docstring says; the one place that names it (tests point it elsewhere)."""
READ_ONLY = frozenset({
    "annotate", "archive", "blame", "bundle", "cat-file", "check-attr", "check-ignore",
    "check-mailmap", "check-ref-format", "cherry", "count-objects", "credential", "describe",
    "diff", "diff-files", "diff-index", "diff-tree", "fetch", "for-each-ref", "format-patch",
    "fsck", "gc", "get-tar-commit-id", "grep", "hash-object", "help", "index-pack",
    "interpret-trailers", "log", "ls-files", "ls-remote", "ls-tree", "maintenance",
    "merge-base", "name-rev", "pack-objects", "pack-refs", "prune", "push", "range-diff",
    "receive-pack", "reflog", "remote", "repack", "rev-list", "rev-parse", "send-pack",
    "shortlog", "show", "show-branch", "show-ref", "status", "upload-pack", "var",
    "verify-commit", "verify-pack", "verify-tag", "version", "whatchanged", "config",
})
"""Subcommands that move no ref of the work tree's branch and leave the index alone (gc
and pack-refs may repack refs; a library commit racing them is simply retried)."""
_OPTIONS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                                 "--config-env", "--super-prefix"})


class GitAtWork(Record):
    """A git command at work in the clone (pid 0: only its index.lock is seen)."""

    __slots__ = ("command", "pid")
    pid: int
    command: str

    def __init__(self, pid: int, command: str) -> None:
        init_field(self, "pid", pid)
        init_field(self, "command", command)

    def describe(self) -> str:
        return (f"a git command ({self.command}, pid {self.pid})" if self.pid else
                f"a git command ({self.command})")


def git_at_work(root: Path, git_dir: Path) -> GitAtWork | None:
    """A person's git command that may move HEAD or rewrite the index, if one runs."""
    mine = _family()
    for found in (*_registered(root, mine), *_proc_scan(root, mine)):
        return found
    if not PROC.is_dir() and (git_dir / "index.lock").exists():
        return GitAtWork(0, f"{git_dir.name}/index.lock exists")
    return None


def register(root: Path, pid: int) -> None:
    """Called by the pre-commit / pre-merge-commit hook for its `git` process (`pid`)."""

    try:
        fd = open_beneath(root, f"{GIT_COMMANDS}/{pid}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                          make_dirs=True)
    except (OSError, ValueError):
        return  # best effort: on Linux the process is seen in /proc anyway
    try:
        os.write(fd, _command_of(pid).encode())
    finally:
        os.close(fd)


CHECKED = "checked"
"""The first word of a registration that records the commit its commit-msg hook checked."""


def mark_checked(root: Path, pid: int, branch: str, parent: str) -> None:
    """Called by the commit-msg hook once every check passed: the registration of its git
    process (`pid`) records that the commit it makes moves `branch` on from `parent`, as
    `checked <branch> <parent>` — what the reference-transaction hook's shell test
    (memrepo.git.hook_scripts.settled_test) lets through without checking it again. A dead
    process's record goes with its registration (`_registered`)."""

    try:
        fd = open_beneath(root, f"{GIT_COMMANDS}/{pid}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                          make_dirs=True)
    except (OSError, ValueError):
        return  # best effort: the reference-transaction hook then checks the commit itself
    try:
        os.write(fd, f"{CHECKED} {branch} {parent}\n".encode())
    finally:
        os.close(fd)


def git_subcommand(pid: int) -> str | None:
    """The subcommand (`revert`, `commit`, …) of the git process `pid`; None without /proc
    or when it cannot be read."""
    if not PROC.is_dir():
        return None
    return _subcommand(_argv(pid), None)[0]


def _registered(root: Path, mine: set[int]) -> Iterator[GitAtWork]:

    registry = root / GIT_COMMANDS
    if is_link(root, GIT_COMMANDS) or not registry.is_dir():
        return  # never through a link: dead entries are deleted below
    here = str(root.resolve())
    for entry in os.scandir(registry):
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        pid = int(entry.name)
        if _alive_git(pid, here):
            yield GitAtWork(pid, _command_of(pid))
        else:
            Path(entry.path).unlink(missing_ok=True)


def _alive_git(pid: int, here: str) -> bool:
    """Whether `pid` is still a git process working in this clone: a registered pid may
    have ended and been reused by a git command of another repository."""
    if PROC.is_dir():
        if _read(PROC / str(pid) / "comm").strip() != "git":
            return False
        cwd = _subcommand(_argv(pid), _cwd(pid))[1]
        return cwd is not None and _inside(cwd, here)
    return process_alive(pid)


def process_alive(pid: int) -> bool:
    """Whether a process `pid` exists, on any POSIX system (signal 0, not /proc)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, ValueError):
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    return True


def may_be_memrepo(pid: int) -> bool:
    """Whether `pid` may be a live memrepo process — the maker of a file named for it
    (memrepo.git.staging's temporary indexes). A process that made one had pygit2 loaded
    (the module that makes them imports it), so a live process without it in its memory
    map holds a reused pid; where the map cannot be read (another user's process), its
    command line must name memrepo. This process always may be; without /proc, any live
    one may be. A zombie (killed, not yet reaped) is dead."""
    if pid == os.getpid():
        return True
    if pid <= 0 or not process_alive(pid):
        return False
    if not PROC.is_dir():
        return True
    if _read(PROC / str(pid) / "stat").rpartition(")")[2].split()[:1] in (["Z"], ["X"]):
        return False
    maps = _read(PROC / str(pid) / "maps")
    if maps:
        return "pygit2" in maps
    return "memrepo" in _read(PROC / str(pid) / "cmdline")


def _proc_scan(root: Path, mine: set[int]) -> Iterator[GitAtWork]:
    if not PROC.is_dir():
        return
    here = str(root.resolve())
    for name in _pids():
        if int(name) in mine or _comm(name) != b"git\n":
            continue
        pid = int(name)
        argv = _argv(pid)
        subcommand, cwd = _subcommand(argv, _cwd(pid))
        if subcommand in READ_ONLY or cwd is None or not _inside(cwd, here):
            continue
        if _descends_from_this_process(pid):
            continue
        yield GitAtWork(pid, " ".join(argv)[:120])


def _pids() -> Iterator[str]:
    """Every process, then a second look at those that started during the first: the
    window a git command could start in unseen ends microseconds before the caller moves
    the branch, not when the scan began."""
    first = [name for name in os.listdir(PROC) if name.isdigit()]
    yield from first
    yield from sorted(set(n for n in os.listdir(PROC) if n.isdigit()) - set(first), key=int)


def _subcommand(argv: list[str], cwd: str | None) -> tuple[str | None, str | None]:
    """git's subcommand and the folder it works in (`-C` applied)."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in _OPTIONS_WITH_VALUE:
            if word == "-C" and index + 1 < len(argv) and cwd is not None:
                cwd = os.path.join(cwd, argv[index + 1])
            index += 2
        elif word.startswith("-"):
            index += 1
        else:
            return word, cwd
    return None, cwd


def _inside(path: str, root: str) -> bool:
    path = os.path.realpath(path)
    return path == root or path.startswith(root + os.sep)


def _family() -> set[int]:
    """This process and its ancestors."""
    family, pid = {os.getpid()}, os.getppid()
    while pid > 1 and pid not in family:
        family.add(pid)
        pid = _parent(pid)
    return family


def run_by_git() -> bool:
    """Whether a git process is an ancestor of this one (memrepo run by a git hook): the
    lock files that git holds while its hooks run are closed, yet not stale."""
    return any(_read(PROC / str(pid) / "comm").strip() == "git"
               for pid in _family() - {os.getpid()})


def _descends_from_this_process(pid: int) -> bool:
    me = os.getpid()
    for _ in range(64):
        pid = _parent(pid)
        if pid == me:
            return True
        if pid <= 1:
            return False
    return False


def _parent(pid: int) -> int:
    if not PROC.is_dir():
        return os.getppid() if pid == os.getpid() else 0
    stat = _read(PROC / str(pid) / "stat")
    fields = stat.rpartition(")")[2].split()
    return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0


def _argv(pid: int) -> list[str]:
    return [a for a in _read(PROC / str(pid) / "cmdline").split("\0") if a]


def _command_of(pid: int) -> str:
    argv = _argv(pid) if PROC.is_dir() else []
    return " ".join(argv)[:120] or "git"


def _cwd(pid: int) -> str | None:
    try:
        return os.readlink(PROC / str(pid) / "cwd")
    except OSError:
        return None


def _comm(pid: str) -> bytes:
    try:
        fd = os.open(f"{PROC}/{pid}/comm", os.O_RDONLY)  # a string: read for every process
    except OSError:
        return b""
    try:
        return os.read(fd, 64)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _read(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


LOCK_GRACE_SECONDS = 1.0  # git closes a lock file an instant before renaming it


def lock_in_use(lock: Path) -> bool:
    """Whether a process holds the git lock file open (git and libgit2 keep it open while
    they write; one a little younger than LOCK_GRACE_SECONDS is waited for). Without
    /proc, only a lock older than ten minutes counts as stale."""
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False
    if not (PROC / "self" / "fd").is_dir():
        return age < 600
    if age < LOCK_GRACE_SECONDS:
        time.sleep(LOCK_GRACE_SECONDS - age)
    return _open_by_any_process(lock)


def _open_by_any_process(file: Path) -> bool:
    target = str(file.resolve())
    for fd_dir in PROC.glob("[0-9]*/fd"):
        try:
            fds = list(fd_dir.iterdir())
        except OSError:
            continue  # another user's process, or gone
        if any(_fd_target(fd) == target for fd in fds):
            return True
    return False


def _fd_target(fd: Path) -> str | None:
    try:
        return os.readlink(fd)
    except OSError:
        return None  # closed meanwhile


_IN_OPEN = 0x20
_IN_NONBLOCK_CLOEXEC = 0o4000 | 0o2000000
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len — then `len` bytes of name


class HeadOpens:
    """Whether any process opened `<git_dir>/HEAD` since this was made (`seen()`); a
    context manager. Without inotify (not Linux, or its limits reached) it sees nothing.

    The watch is handed back for the next write of this process when the context ends
    (what it saw meanwhile is drained when it is taken again) rather than closed: closing
    an inotify descriptor waits for the kernel's grace period, 10-20 ms — longer than the
    rest of a small write's commit."""

    def __init__(self, git_dir: Path) -> None:
        self._watch = _take_watch(git_dir)
        while self._events():
            pass

    def __enter__(self) -> HeadOpens:
        return self

    def __exit__(self, *_: object) -> None:
        if self._watch is not None:
            _give_back(self._watch)
            self._watch = None

    def seen(self) -> bool:
        while data := self._events():
            at = 0
            while at + _EVENT.size <= len(data):
                _, mask, _, length = _EVENT.unpack_from(data, at)
                name = data[at + _EVENT.size:at + _EVENT.size + length].rstrip(b"\0")
                at += _EVENT.size + length
                if mask & _IN_OPEN and name == b"HEAD":
                    return True
        return False

    def _events(self) -> bytes:
        if self._watch is None:
            return b""
        try:
            return os.read(self._watch[1], 65536)
        except BlockingIOError:
            return b""


_Watch = tuple[tuple[str, int, int, int], int]  # (git dir, its device, inode; pid), fd
_IDLE: list[_Watch] = []
"""Watches not in use, the latest last: at most _KEEP_IDLE (one per repository a process
ever wrote to would use up the user's inotify instances, 128 by default). A forked child
takes none of its parent's (events go to whichever process reads them first)."""
_IDLE_LOCK = threading.Lock()
_KEEP_IDLE = 2


def _take_watch(git_dir: Path) -> _Watch | None:
    try:
        info = os.stat(git_dir)
    except OSError:
        return None
    key = (str(git_dir), info.st_dev, info.st_ino, os.getpid())
    with _IDLE_LOCK:
        for at, watch in enumerate(_IDLE):
            if watch[0] == key:
                return _IDLE.pop(at)
    fd = _inotify_watch(git_dir)
    return None if fd is None else (key, fd)


def _give_back(watch: _Watch) -> None:
    with _IDLE_LOCK:
        _IDLE.append(watch)
        surplus = _IDLE[:-_KEEP_IDLE]
        del _IDLE[:-_KEEP_IDLE]
    for _, fd in surplus:
        os.close(fd)


def _inotify_watch(git_dir: Path) -> int | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = int(libc.inotify_init1(_IN_NONBLOCK_CLOEXEC))
    except (OSError, AttributeError):
        return None
    if fd < 0:
        return None
    if int(libc.inotify_add_watch(fd, os.fsencode(git_dir), _IN_OPEN)) < 0:
        os.close(fd)
        return None
    return fd
