"""The commit being made, read through git's own plumbing: what `memrepo check` and the
commit hooks check (SPEC §6). No pygit2 here — importing it and parsing a 100k-entry index
with libgit2 cost more than the whole check may (issue 13).

- `git diff-index --cached --raw -z --no-renames HEAD` lists the changed paths with the
  modes and blob ids of both sides, honouring GIT_INDEX_FILE as git sets it for hooks (the
  temporary index of `git commit -a` / `git commit <path>`);
- the changed blobs are read by id in a background thread (one `git cat-file --batch`), so
  git inflates them while Python imports and runs the checks; a staged INDEX.md (11 MB a
  category at 100k notes) whose work-tree file hashes to the staged blob is read from
  that file instead (a read and SHA-1: a third of what inflating it costs git);
- everything else goes through one `git cat-file --batch-command`: an unchanged path is read
  from the index (`:path`; HEAD holds the same bytes), a directory of HEAD by its tree, and
  another commit's file as `<commit>:<path>`. Never `HEAD:<path>` for notes: git would parse
  the 100k-entry tree again on every look-up.

During a merge (MERGE_HEAD exists — at commit-msg, never yet at pre-merge-commit) only
what differs from every parent is the merge's own change; each merged-in commit is checked
on its own (memrepo.checks.merges).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Generic, TypeVar, cast

from memrepo import clock
from memrepo.core.change import REGULAR_MODE, Change, DictSnapshot, FileChange, Snapshot, Status
from memrepo.core.config import CONFIG_PATH, parent_config
from memrepo.core.facts.times import Instant, TimeFormatError, parse_instant
from memrepo.core.problems import InputError, Problem
from memrepo.files import blob_id, read_files
from memrepo.git.command import start_git

if TYPE_CHECKING:
    import subprocess

T = TypeVar("T")
INDEX_NAME = "/INDEX.md"
_SECOND = 1_000_000
_STATUS: dict[str, Status] = {"A": "added", "D": "deleted"}
_FILE_MODES = (0o100644, 0o100755, 0o120000)
TREE_MODE = 0o040000
_GIT_EPOCH_DATE = re.compile(r"@?(\d{9,})(?:\s+[+-]\d{4})?")
_BATCH = 256
"""Questions per exchange with `git cat-file --batch-command`: a few kilobytes each way."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One changed path as diff-index reports it; an id of None is an absent side."""

    status: Status
    path: str
    mode: int
    old_id: str | None
    new_id: str | None


class Objects:
    """One `git cat-file --batch-command`: blobs and trees by id or `<rev>:<path>`, and
    whether a revision exists. Started at construction, so it loads while Python works."""

    def __init__(self, root: Path, index_file: str | None) -> None:
        self._root = root
        self._process = start_git(root, "cat-file", "--batch-command", feed=True,
                                  index_file=index_file)
        self._lock = threading.Lock()

    def info(self, spec: str) -> tuple[str, str] | None:
        """(object id, type) of `spec`; None when there is no such object."""
        header = self._ask("info", spec)
        return None if header is None else (header[0], header[1])

    def infos(self, specs: Sequence[str]) -> list[tuple[str, str] | None]:
        """`info` of each spec, asked together: git answers a batch of questions in one
        exchange instead of one round trip each (on a busy machine each costs a wait for
        the scheduler). Sent in slices, so neither pipe fills while the other waits."""
        found: list[tuple[str, str] | None] = []
        with self._lock:
            for start in range(0, len(specs), _BATCH):
                found.extend(self._batch(specs[start:start + _BATCH]))
        return found

    def _batch(self, specs: Sequence[str]) -> list[tuple[str, str] | None]:
        asked = [spec for spec in specs if "\n" not in spec and "\r" not in spec]
        stdin = self._process.stdin
        assert stdin is not None  # started with feed=True
        try:
            stdin.write("".join(f"info {spec}\n" for spec in asked).encode(
                "utf-8", "surrogateescape"))
            stdin.flush()
        except OSError:  # git is gone: not a repository, or it failed
            raise _git_failed(self._root, "cat-file") from None
        answers = {spec: self._answer() for spec in asked}
        return [None if (parts := answers.get(spec)) is None else (parts[0], parts[1])
                for spec in specs]

    def contents(self, spec: str) -> bytes | None:
        """The bytes of the blob or tree `spec`; None when there is none."""
        with self._lock:
            header = self._request("contents", spec)
            if header is None:
                return None
            return _read_body(self._output(), int(header[2]))

    def ask_ahead(self, spec: str) -> None:
        """Ask about `spec` on a thread, so that git reads what it needs for it (e.g. the
        index, for `:<path>`) while this process does other work."""
        threading.Thread(target=self._ask_quietly, args=(spec,), daemon=True).start()

    def _ask_quietly(self, spec: str) -> None:
        with suppress(InputError):  # git failed: the next question says so, in its thread
            self.info(spec)

    def close(self) -> None:
        _finish(self._process)

    def _ask(self, command: str, spec: str) -> list[str] | None:
        with self._lock:
            return self._request(command, spec)

    def _request(self, command: str, spec: str) -> list[str] | None:
        if "\n" in spec or "\r" in spec:
            return None  # not a name git can be asked about (and no memrepo path has one)
        stdin = self._process.stdin
        assert stdin is not None  # started with feed=True
        try:
            stdin.write(f"{command} {spec}\n".encode("utf-8", "surrogateescape"))
            stdin.flush()
        except OSError:  # git is gone: not a repository, or it failed
            raise _git_failed(self._root, "cat-file") from None
        return self._answer()

    def _answer(self) -> list[str] | None:
        """The header git answered one question with; None for a missing object."""
        line = self._output().readline().decode("utf-8", "surrogateescape").rstrip("\n")
        parts = line.split(" ")
        if len(parts) != 3 or parts[1] in ("missing", "ambiguous"):
            if not line:
                raise _git_failed(self._root, "cat-file")
            return None
        return parts

    def _output(self) -> IO[bytes]:
        stdout = self._process.stdout
        assert stdout is not None  # started with capture
        return stdout


class Prefetch:
    """Blobs by id, read by a background `git cat-file --batch` into memory, in the order
    given."""

    def __init__(self, root: Path, ids: Iterable[str]) -> None:
        self._wanted = list(dict.fromkeys(ids))
        self._data: dict[str, bytes | None] = {}
        self._done = threading.Condition()
        self._finished = not self._wanted
        if self._finished:
            return
        self._process = start_git(root, "cat-file", "--batch", feed=True)
        threading.Thread(target=self._feed, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()

    def get(self, object_id: str) -> bytes | None:
        with self._done:
            self._done.wait_for(lambda: object_id in self._data or self._finished)
            return self._data.get(object_id)

    def _feed(self) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        with suppress(OSError):  # git died: `_read` sees the end of its output
            stdin.write("".join(f"{oid}\n" for oid in self._wanted).encode())
            stdin.close()

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for oid in self._wanted:
                parts = stdout.readline().decode("ascii", "replace").split()
                data = (_read_body(stdout, int(parts[2]))
                        if len(parts) == 3 and parts[1] == "blob" else None)
                with self._done:
                    self._data[oid] = data
                    self._done.notify_all()
        except (OSError, ValueError):
            pass  # a missing answer reads as "no such blob" for the one who waits
        finally:
            _finish(self._process)
            with self._done:
                self._finished = True
                self._done.notify_all()


def _read_body(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    stream.read(1)  # the \n after every object
    return data


def _finish(process: subprocess.Popen[bytes]) -> None:
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            with suppress(OSError):
                pipe.close()
    process.wait()


class Side:
    """One side of the change as a Snapshot: changed paths by the blob ids diff-index gave,
    every other path from the index (the same bytes as HEAD's), directories from HEAD's tree
    adjusted by the change."""

    def __init__(self, reader: Reader, ids: Mapping[str, str | None],
                 base_tree: str | None, fallback: str = ":") -> None:
        self._reader = reader
        self._ids = ids
        self._base_tree = base_tree
        self._fallback = fallback  # ":" the index, "<tree>:" a tree
        self._read: dict[str, bytes | None] = {}
        self._exists: dict[str, bool] = {}

    def read(self, path: str) -> bytes | None:
        if path not in self._read:
            if path in self._ids:
                oid = self._ids[path]
                self._read[path] = None if oid is None else self._reader.blob(oid)
            else:
                self._read[path] = self._reader.objects.contents(self._fallback + path)
        return self._read[path]

    def exists(self, path: str) -> bool:
        if path in self._ids:
            return self._ids[path] is not None
        if path not in self._exists:
            found = self._reader.objects.info(self._fallback + path)
            self._exists[path] = found is not None and found[1] == "blob"
        return self._exists[path]

    def expect(self, paths: Iterable[str]) -> None:
        """Ask git at once whether each of `paths` exists (their `exists` then answers
        from what it said): a check that will ask about many paths says so first."""
        wanted = [path for path in dict.fromkeys(paths)
                  if path not in self._ids and path not in self._exists]
        if wanted:
            found = self._reader.objects.infos([self._fallback + path for path in wanted])
            for path, info in zip(wanted, found, strict=True):
                self._exists[path] = info is not None and info[1] == "blob"

    def list_dir(self, directory: str) -> list[str]:
        key = directory.strip("/")
        names = set(self._reader.tree_files(self._base_tree, key))
        prefix = f"{key}/" if key else ""
        for path, oid in self._ids.items():
            name = path[len(prefix):]
            if path.startswith(prefix) and "/" not in name:
                if oid is None:
                    names.discard(name)
                else:
                    names.add(name)
        return sorted(names)


class Reader:
    """The git processes one staged change is read through."""

    def __init__(self, root: Path, index_file: str | None) -> None:
        self.root = root
        self.index_file = index_file
        self.objects = Objects(root, index_file)
        self._prefetch: Prefetch | None = None
        self._copies: _Background[dict[str, bytes]] | None = None
        self._copied: frozenset[str] = frozenset()
        self._trees: dict[tuple[str, str], list[str]] = {}

    def prefetch(self, ids: Iterable[str]) -> None:
        self._prefetch = Prefetch(self.root, ids)

    def copy_from_work_tree(self, wanted: Mapping[str, str]) -> None:
        """Blobs (object id → path) to read from the work tree's files rather than from
        git, on a thread: a file whose bytes hash to the id is that blob (SHA-1 and a read
        of an 11 MB INDEX.md cost a third of git inflating it); any other is read from git
        when asked for."""
        self._copied = frozenset(wanted)
        self._copies = _Background(lambda: _work_tree_copies(self.root, wanted))

    def blob(self, object_id: str) -> bytes | None:
        if self._copies is not None and object_id in self._copied:
            data = self._copies.result().get(object_id)
            if data is not None:
                return data
        if self._prefetch is not None:
            data = self._prefetch.get(object_id)
            if data is not None:
                return data
        return self.objects.contents(object_id)

    def tree_files(self, tree: str | None, directory: str) -> list[str]:
        """Names of the files (not folders) directly in `directory` of `tree`."""
        if tree is None:
            return []
        key = (tree, directory)
        if key not in self._trees:
            data = self.objects.contents(f"{tree}:{directory}" if directory else tree)
            self._trees[key] = [] if data is None else list(tree_file_names(data))
        return self._trees[key]

    def close(self) -> None:
        self.objects.close()


def tree_file_names(data: bytes) -> Iterator[str]:
    """The names of the file entries of a raw git tree object (`<mode> <name>\\0<id>`)."""
    position, size = 0, len(data)
    id_size = 20
    while position < size:
        space = data.index(b" ", position)
        nul = data.index(b"\0", space)
        mode = int(data[position:space], 8)
        if mode in _FILE_MODES:
            yield data[space + 1:nul].decode("utf-8", "surrogateescape")
        position = nul + 1 + id_size


# --- the change -------------------------------------------------------------------------


def staged_change(root: Path, message: str | None = None,
                  commit_time: Instant | None = None, *, everything: bool = False,
                  meanwhile: Callable[[], object] | None = None) -> Change:
    """HEAD's tree → the index being committed (a first commit, or with `everything`:
    nothing → the whole index, `memrepo check --all`). `meanwhile` runs while git lists
    the change (at 100k notes ≈30 ms of git's CPU, on another core): e.g. the imports of
    the checks."""
    index_file = hook_index_file()
    diff = None if everything else start_git(root, "diff-index", "--cached", "--raw", "-z",
                                             "--no-renames", "HEAD", index_file=index_file)
    reader = Reader(root, index_file)
    reader.objects.ask_ahead(f":{CONFIG_PATH}")  # git reads the index meanwhile
    listing = _Background(lambda: _listed(reader, diff))
    if meanwhile is not None:
        meanwhile()
    head, entries = listing.result()
    tree = None if head is None or everything else head.tree
    old_ids = {e.path: e.old_id for e in entries}
    old: Snapshot = DictSnapshot() if tree is None else Side(reader, old_ids, tree)
    new = Side(reader, {e.path: e.new_id for e in entries}, tree)
    rules: Snapshot = new if head is None else (
        Side(reader, {}, head.tree, f"{head.tree}:") if tree is None else old)
    files = tuple(FileChange(e.status, e.path, e.mode) for e in entries)
    merging = [] if head is None or everything else _merge_heads(reader)
    if merging:
        files = _own_merge_files(root, index_file, entries, merging)
    return Change(old=old, new=new, files=files, config=parent_config(rules, new),
                  commit_time=committer_time() if commit_time is None else commit_time,
                  parent_time=head.time if head is not None and not merging else None,
                  message=message, rules=rules, merge=bool(merging))


def _listed(reader: Reader, diff: subprocess.Popen[bytes] | None,
            ) -> tuple[_Commit | None, list[Entry]]:
    """HEAD and the changed paths (every path of the index for a first commit or without
    `diff`); their blobs start loading at once."""
    root = reader.root
    head = _commit(reader, "HEAD")
    if diff is not None and head is not None:
        entries = list(_diff_entries(_output_of(diff, root, "diff-index")))
    else:
        if diff is not None:
            _output_of(diff, root, "diff-index", check=False)
        entries = list(_index_entries(root, reader.index_file))
    # the notes' blobs before the INDEX.md files (11 MB each at 100k notes); an INDEX.md
    # the work tree holds as staged is read from there
    at_top = (root / ".git").exists()  # the paths git lists are the work tree's
    copies = {e.new_id: e.path for e in entries if at_top and e.path.endswith(INDEX_NAME)
              and e.new_id is not None and e.mode == REGULAR_MODE}
    first = sorted(entries, key=lambda e: e.path.endswith(INDEX_NAME))
    reader.prefetch(oid for e in first for oid in (e.old_id, e.new_id)
                    if oid is not None and oid not in copies)
    if copies:
        reader.copy_from_work_tree(copies)
    return head, entries


def _work_tree_copies(root: Path, wanted: Mapping[str, str]) -> dict[str, bytes]:
    """object id → the bytes of its path in the work tree, for the files that hold exactly
    that blob (never through a symbolic link); a file that cannot be read is read from
    git instead."""
    try:
        found = dict(zip(wanted, read_files(root, wanted.values()), strict=True))
    except OSError:
        return {}
    return {oid: data for oid, data in found.items() if data is not None
            and blob_id(data) == oid}


class _Background(Generic[T]):
    """`work()` on a thread (it mostly waits for git); `result()` waits for its value or
    raises what it raised."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as err:  # handed to the caller of result()
            self._error = err

    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return cast(T, self._value)


def merge_heads(reader: Reader) -> list[str]:
    """The commits being merged into HEAD (MERGE_HEAD), none outside a merge."""
    return _merge_heads(reader)


def diff_to_index(root: Path, revision: str, *paths: str) -> list[Entry]:
    """What differs between `revision` and the index being committed (under `paths`)."""
    diff = start_git(root, "diff-index", "--cached", "--raw", "-z", "--no-renames", revision,
                     "--", *paths, index_file=hook_index_file())
    return list(_diff_entries(_output_of(diff, root, "diff-index")))


def hook_index_file() -> str | None:
    """The index git is committing (GIT_INDEX_FILE, made absolute), None for the usual."""
    return _absolute(os.environ.get("GIT_INDEX_FILE"))


@dataclass(frozen=True, slots=True)
class _Commit:
    tree: str
    time: Instant


def _commit(reader: Reader, revision: str) -> _Commit | None:
    data = reader.objects.contents(f"{revision}^{{commit}}")
    if data is None:
        return None
    header = data.split(b"\n\n", 1)[0].decode("utf-8", "replace").split("\n")
    tree = next(line[5:] for line in header if line.startswith("tree "))
    committer = next((line for line in header if line.startswith("committer ")), "")
    seconds = committer.rsplit(" ", 2)[-2] if committer.count(" ") >= 2 else "0"
    return _Commit(tree, int(seconds) * _SECOND if seconds.isdigit() else 0)


def _merge_heads(reader: Reader) -> list[str]:
    found = reader.objects.info("MERGE_HEAD")
    if found is None:
        return []
    process = start_git(reader.root, "rev-parse", "--git-path", "MERGE_HEAD")
    path = Path(_output_of(process, reader.root, "rev-parse").decode().strip())
    if not path.is_absolute():
        path = reader.root / path
    try:
        heads = [line.strip() for line in path.read_text(encoding="ascii").splitlines()]
    except OSError:
        return [found[0]]
    return [head for head in heads if head] or [found[0]]


def _own_merge_files(root: Path, index_file: str | None, entries: Sequence[Entry],
                     others: Sequence[str]) -> tuple[FileChange, ...]:
    """The files whose merged version differs from every other parent's version too (each
    side was checked when it was committed)."""
    diffs = [start_git(root, "diff-index", "--cached", "--raw", "-z", "--no-renames", other,
                       index_file=index_file) for other in others]
    differ = [{e.path for e in _diff_entries(_output_of(diff, root, "diff-index"))}
              for diff in diffs]
    return tuple(FileChange(e.status, e.path, e.mode) for e in entries
                 if all(e.path in paths for paths in differ))


def _diff_entries(raw: bytes) -> Iterator[Entry]:
    """`:<old mode> <new mode> <old id> <new id> <status>\\0<path>\\0`, repeated."""
    fields = raw.split(b"\0")
    for head, path in zip(fields[0::2], fields[1::2], strict=False):
        if not head.startswith(b":"):
            continue
        old_mode, new_mode, old_id, new_id, status = head[1:].decode().split(" ")
        kind = _STATUS.get(status[0], "modified")
        mode = int(old_mode if kind == "deleted" else new_mode, 8)
        if mode not in _FILE_MODES:
            continue  # a submodule: not a file of this repository
        yield Entry(kind, path.decode("utf-8", "surrogateescape"), mode,
                    None if kind == "added" else old_id, None if kind == "deleted" else new_id)


def _index_entries(root: Path, index_file: str | None) -> Iterator[Entry]:
    """Every file of the index as added: `<mode> <id> <stage>\\t<path>\\0`."""
    listed = start_git(root, "ls-files", "--stage", "-z", index_file=index_file)
    for record in _output_of(listed, root, "ls-files").split(b"\0"):
        if not record:
            continue
        head, _, path = record.partition(b"\t")
        mode, oid, _stage = head.decode().split(" ")
        if int(mode, 8) in _FILE_MODES:
            yield Entry("added", path.decode("utf-8", "surrogateescape"), int(mode, 8),
                        None, oid)


def _output_of(process: subprocess.Popen[bytes], root: Path, what: str,
               check: bool = True) -> bytes:
    out, _ = process.communicate()
    if check and process.returncode != 0:
        raise _git_failed(root, what)
    return out


def _git_failed(root: Path, what: str) -> InputError:
    return InputError(Problem(str(root), f"not inside a git repository (git {what} failed)",
                              "run in a memory repository, pass --repo PATH or set "
                              "MEMREPO_REPO (`memrepo init DIR` makes one)"))


def _absolute(index_file: str | None) -> str | None:
    """A relative GIT_INDEX_FILE is relative to where git started us (the work tree)."""
    return os.path.abspath(index_file) if index_file else None


def committer_time() -> Instant:
    """The time of the commit being made: GIT_COMMITTER_DATE when git was given one,
    else the memrepo clock (MEMREPO_NOW or now)."""
    pinned = os.environ.get("GIT_COMMITTER_DATE", "").strip()
    epoch = _GIT_EPOCH_DATE.fullmatch(pinned)
    if epoch:
        return int(epoch.group(1)) * _SECOND
    if pinned:
        try:
            return parse_instant(pinned)
        except TimeFormatError:
            pass  # a format only git understands: the clock is close enough
    return clock.now()


__all__ = ["REGULAR_MODE", "TREE_MODE", "Reader", "committer_time", "diff_to_index",
           "hook_index_file", "merge_heads", "staged_change"]
