"""Pointing git's index (`.git/index`) at the fact-log blobs memrepo just committed, so
`git status` stays clean and a person's next commit carries the appended lines along.

Two things matter here, speed and git's lock protocol:
- The new index is made BEFORE the commit, into a temporary file beside `.git/index`,
  and renamed into place afterwards while memrepo holds `.git/index.lock` — for
  microseconds, so a person's `git add` or `git commit` starting at that moment almost
  never finds the lock taken. The rename happens only if `.git/index` is still the file
  the new one was made from (git replaces it on every write, so its inode changes);
  otherwise the new index is made again from the current one.
- Making it: an entry that already exists is patched in place (its blob id; its stat
  data zeroed, which git reads as "look at the file's content"), the cache-tree records
  of its folders are invalidated, and the checksum recomputed — a few milliseconds for
  an 11 MB index, where libgit2 re-serialises all 100k entries. Anything this patcher
  does not handle (a new entry, index version 4, a split index, extensions it does not
  know to keep) is done by libgit2 on the temporary copy instead.
Waiting: while git holds `index.lock`, memrepo waits (git itself fails at once). If the
lock is never free within the deadline, the caller leaves the entries to be refreshed
later (`memrepo doctor --repair`, the pre-commit hook, or the next write). A lock still
there after LOCK_GRACE_SECONDS is shown to the caller's `stale` (a write killed while it
held the lock for its rename leaves it behind, and no later write could take it): removed
when that says no one holds it.
Leftovers: the new index is `memrepo-index.<pid>.tmp` and, during the swap, a hard link to
the index it replaces `memrepo-index.<pid>.old`; a write killed before it renamed or
unlinked them leaves them (the .tmp a whole index's size). `leftovers` finds those whose
process is gone, for doctor and for a write that found a kill's traces to remove.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memrepo.git.activity import LOCK_GRACE_SECONDS, may_be_memrepo
from memrepo.git.command import run_git
from memrepo.git.write import index_with_entries

_HEADER = 12
_FIXED = 62  # stat data (40), object id (20), flags (2)
_TRAILER = 20
_NAME_MASK = 0x0FFF
_STAGE_MASK = 0x3000
_EXTENDED = 0x4000
_REGULAR_MODES = (0o100644, 0o100755)
_SAFE_TO_KEEP = {b"TREE", b"REUC", b"UNTR", b"EOIE", b"IEOT"}
"""Extensions that stay right when an existing entry's blob changes: TREE is rewritten
(the changed folders invalidated), EOIE recomputed; the entry offsets in IEOT do not move;
REUC and UNTR do not depend on a tracked file's content."""


@dataclass(frozen=True, slots=True)
class Prepared:
    """A new index in `temporary`, made from the index file whose identity is `source`;
    `kept`: its bytes and checksum state, for the next write of this process."""

    index: Path
    source: tuple[int, int, int]
    temporary: Path
    kept: _Kept | None = None


@dataclass(frozen=True, slots=True)
class _Kept:
    """An index file this process wrote: its bytes, and the SHA-1 state over its first
    `hashed` bytes — the entries before a fact log's (100k notes at 100k files) are hashed
    again only when they changed."""

    identity: tuple[int, int, int]
    data: bytes
    hashed: int
    state: Any


_KEPT: dict[Path, _Kept] = {}
_LEFTOVER = re.compile(r"memrepo-index\.([0-9]+)\.(?:tmp|old)", re.ASCII)
"""The names `prepare` and `swap` give their files in the git dir (`_temporary`, `_old`)."""


def prepare(git_dir: Path, entries: Mapping[str, bytes],
            index: Path | None = None) -> Prepared | None:
    """A new index with `entries` (path → 20-byte blob id) set, made from `index` (default
    .git/index); None when there is no index file or it cannot be read."""
    index = git_dir / "index" if index is None else index
    kept = _KEPT.get(index)
    try:
        if kept is not None and _identity(os.stat(index)) == kept.identity:
            source, data = kept.identity, kept.data
        else:
            kept = None
            with open(index, "rb") as handle:
                source = _identity(os.fstat(handle.fileno()))
                data = handle.read()
    except FileNotFoundError:
        return None
    temporary = _temporary(git_dir)
    done = _patch(data, entries, None if kept is None else (kept.hashed, kept.state))
    if done is None:
        if not index_with_entries(data, entries, temporary):
            return None
        return Prepared(index, source, temporary)
    parts, hashed, state = done
    try:
        _write_parts(temporary, parts)
        new = _Kept(_identity(os.stat(temporary)), b"".join(parts), hashed, state)
    except BaseException:
        temporary.unlink(missing_ok=True)  # e.g. a full disk: no half index left behind
        raise
    return Prepared(index, source, temporary, new)


def _temporary(git_dir: Path) -> Path:
    return git_dir / f"memrepo-index.{os.getpid()}.tmp"


def _old(git_dir: Path) -> Path:
    return git_dir / f"memrepo-index.{os.getpid()}.old"


def leftovers(git_dir: Path) -> list[Path]:
    """The files named as `_temporary` and `_old` name them, directly in `git_dir` and
    regular, whose process is gone or whose pid another program now has (never one a live
    memrepo process may still use: `activity.may_be_memrepo`) — left by killed writes."""
    try:
        entries = list(os.scandir(git_dir))
    except OSError:
        return []
    found = []
    for entry in entries:
        match = _LEFTOVER.fullmatch(entry.name)
        if (match is not None and entry.is_file(follow_symlinks=False)
                and not may_be_memrepo(int(match[1]))):
            found.append(Path(entry.path))
    return sorted(found)


def remove_leftovers(git_dir: Path) -> None:
    """Remove `leftovers` (the caller holds the write lock, as every maker of them does)."""
    for path in leftovers(git_dir):
        path.unlink(missing_ok=True)


def _write_parts(target: Path, parts: list[bytes]) -> None:
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for part in parts:
            view = memoryview(part)
            while view:
                view = view[os.write(fd, view):]
    finally:
        os.close(fd)


Stale = Callable[[Path], bool]
"""Whether a lock file no one may be holding any more was left by a killed process."""


def swap(prepared: Prepared, deadline: float, stale: Stale | None = None) -> bool | None:
    """Rename the prepared index into place under `index.lock`: True when done, False when
    `.git/index` changed since it was prepared (prepare again), None when git held the
    lock until `deadline`."""
    lock = prepared.index.with_name("index.lock")
    fd = _take(lock, deadline, stale)
    if fd is None:
        return None
    kept = _old(prepared.index.parent)
    try:
        try:
            current = _identity(os.stat(prepared.index))
            os.link(prepared.index, kept)  # so the rename frees nothing (11 MB: ~20 ms)
        except (FileNotFoundError, FileExistsError):
            return False
        if current != prepared.source:
            return False
        os.rename(prepared.temporary, prepared.index)
        if prepared.kept is not None:
            _KEPT[prepared.index] = prepared.kept
        return True
    finally:
        os.close(fd)
        os.unlink(lock)
        kept.unlink(missing_ok=True)


def rewrite_locked(git_dir: Path, index: Path, entries: Mapping[str, bytes]) -> bool:
    """Set `entries` in `index`, a file git holds locked for the running command (the
    `GIT_INDEX_FILE` of `git commit -a` in its pre-commit hook, `.git/index.lock`)."""
    prepared = prepare(git_dir, entries, index)
    if prepared is None:
        return False
    os.replace(prepared.temporary, index)
    return True


def discard(prepared: Prepared | None) -> None:
    if prepared is not None:
        prepared.temporary.unlink(missing_ok=True)


def update(root: Path, git_dir: Path, entries: Mapping[str, bytes], deadline: float,
           prepared: Prepared | None = None, stale: Stale | None = None) -> bool:
    """Set `entries` in the index (using `prepared` first when given); False when git held
    the index lock until `deadline` (and `stale` never called it stale)."""
    try:
        while True:
            if prepared is None:
                prepared = prepare(git_dir, entries)
                if prepared is None:
                    return _with_git(root, git_dir, entries, deadline)
            done = swap(prepared, deadline, stale)
            if done is not None and not done and time.monotonic() < deadline:
                discard(prepared)
                prepared = None
                continue
            return bool(done)
    finally:
        discard(prepared)


def _with_git(root: Path, git_dir: Path, entries: Mapping[str, bytes],
              deadline: float) -> bool:
    """The last resort (no index file yet, a split index, an index libgit2 cannot read):
    `git update-index`, retried while git holds the lock."""

    arguments = [f"100644,{oid.hex()},{path}" for path, oid in entries.items()]
    while True:
        done = run_git(root, "update-index", "--add",
                       *(a for argument in arguments for a in ("--cacheinfo", argument)))
        if done.returncode == 0:
            return True
        if not (git_dir / "index.lock").exists() or time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


def _take(lock: Path, deadline: float, stale: Stale | None) -> int | None:
    """Create git's lock file (git's own protocol: O_EXCL); wait while someone holds it.
    A lock held past LOCK_GRACE_SECONDS (or the deadline, when sooner) is shown to `stale`,
    once per grace."""
    look = min(time.monotonic() + LOCK_GRACE_SECONDS, deadline)
    while True:
        try:
            return os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            now = time.monotonic()
            if stale is not None and now >= look:
                look = now + LOCK_GRACE_SECONDS
                if _removed_if_stale(lock, stale):
                    continue
            if now >= deadline:
                return None
            time.sleep(0.002)


def _removed_if_stale(lock: Path, stale: Stale) -> bool:
    """Whether `lock` is gone: removed when `stale` judged it and it is still the file it
    judged (git may have replaced it meanwhile: then it is waited for)."""
    try:
        judged = _identity(os.stat(lock))
        if not stale(lock) or _identity(os.stat(lock)) != judged:
            return False
        os.unlink(lock)
    except FileNotFoundError:
        pass
    return True


def _identity(stat: os.stat_result) -> tuple[int, int, int]:
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


# --- the patcher (pure: bytes in, bytes out) ---------------------------------------------


def patched(data: bytes, entries: Mapping[str, bytes]) -> list[bytes] | None:
    """`data` (an index file, version 2 or 3) with each existing entry of `entries` pointed
    at its new blob id, as the parts of the new file (concatenated, they are the file);
    None for anything this does not handle."""
    done = _patch(data, entries, None)
    return None if done is None else done[0]


def _patch(data: bytes, entries: Mapping[str, bytes], hashed: tuple[int, Any] | None,
           ) -> tuple[list[bytes], int, Any] | None:
    """`patched`, with the SHA-1 state of the bytes before the first patched entry taken
    from `hashed` (offset, state) when it covers no more than them; that state returned."""
    if len(data) < _HEADER + _TRAILER or data[:4] != b"DIRC":
        return None
    version = int.from_bytes(data[4:8], "big")
    extensions = _extensions_start(data) if version in (2, 3) else None
    if extensions is None:
        return None
    patches = []
    for path, oid in entries.items():
        entry = _find_entry(data, path.encode(), version, extensions)
        if entry is None:
            return None
        mode = data[entry + 24:entry + 28]  # stat data zeroed: git looks at the content
        patches.append((entry, bytes(24) + mode + bytes(12) + oid))
    rest = _rewritten_extensions(data[extensions:-_TRAILER], extensions, _folders(entries))
    if rest is None or not patches:
        return None
    view = memoryview(data)
    parts: list[bytes] = []
    at = 0
    for entry, replacement in sorted(patches):
        parts += [view[at:entry], replacement]  # type: ignore[list-item]
        at = entry + len(replacement)
    parts += [view[at:extensions], rest]  # type: ignore[list-item]
    first = min(entry for entry, _ in patches)
    if hashed is not None and hashed[0] <= first:
        digest = hashed[1].copy()
        digest.update(view[hashed[0]:first])
    else:
        digest = hashlib.sha1(view[:first])
    prefix = digest.copy()
    digest.update(parts[0][first:])
    for part in parts[1:]:
        digest.update(part)
    return [*parts, digest.digest()], first, prefix


def _find_entry(data: bytes, path: bytes, version: int, end: int) -> int | None:
    """The offset of `path`'s stage-0 entry (found by its name; a match is checked against
    the entry's flags and mode, so a longer path ending the same way never matches)."""
    needle = path + b"\0"
    at = data.find(needle, _HEADER, end)
    while at >= 0:
        for start, flags_at in ((at - _FIXED, at - 2), (at - _FIXED - 2, at - 4)):
            if start < _HEADER:
                continue
            flags = int.from_bytes(data[flags_at:flags_at + 2], "big")
            extended = bool(flags & _EXTENDED)
            if extended != (flags_at == at - 4) or (extended and version < 3):
                continue
            mode = int.from_bytes(data[start + 24:start + 28], "big")
            if ((flags & _NAME_MASK) == min(len(path), _NAME_MASK)
                    and not flags & _STAGE_MASK and mode in _REGULAR_MODES):
                return start
        at = data.find(needle, at + 1, end)
    return None


def _extensions_start(data: bytes) -> int | None:
    """Where the extensions begin: from EOIE when git wrote one, else the TREE extension
    whose chain of extensions ends exactly at the checksum."""
    end = len(data) - _TRAILER
    eoie = end - 32
    if eoie > _HEADER and data[eoie:eoie + 8] == b"EOIE" + (24).to_bytes(4, "big"):
        start = int.from_bytes(data[eoie + 8:eoie + 12], "big")
        return start if _chains(data, start, end) else None
    at = data.rfind(b"TREE", _HEADER, end)
    while at >= 0:
        if _chains(data, at, end):
            return at
        at = data.rfind(b"TREE", _HEADER, at)
    return None  # no cache tree (rare: git and libgit2 write one): libgit2 does it


def _chains(data: bytes, at: int, end: int) -> bool:
    """Whether extensions read from `at` end exactly at `end`, each one known to be safe."""
    while at < end:
        if at + 8 > end or data[at:at + 4] not in _SAFE_TO_KEEP:
            return False
        at += 8 + int.from_bytes(data[at + 4:at + 8], "big")
    return at == end


def _folders(entries: Mapping[str, bytes]) -> set[bytes]:
    folders = {b""}
    for path in entries:
        parts = path.encode().split(b"/")[:-1]
        folders.update(b"/".join(parts[:n]) for n in range(1, len(parts) + 1))
    return folders


def _rewritten_extensions(data: bytes, offset: int, folders: set[bytes]) -> bytes | None:
    out = bytearray()
    headers = bytearray()
    at = 0
    eoie: int | None = None
    while at < len(data):
        signature = data[at:at + 4]
        size = int.from_bytes(data[at + 4:at + 8], "big")
        body = data[at + 8:at + 8 + size]
        if signature == b"TREE":
            invalidated = _invalidated(body, folders)
            if invalidated is None:
                return None
            body = invalidated
        if signature == b"EOIE":
            eoie = len(out)
        else:
            headers += signature + len(body).to_bytes(4, "big")
        out += signature + len(body).to_bytes(4, "big") + body
        at += 8 + size
    if eoie is not None:  # offset of the extensions, hash of every other header
        out[eoie + 8:eoie + 32] = offset.to_bytes(4, "big") + hashlib.sha1(headers).digest()
    return bytes(out)


def _invalidated(tree: bytes, folders: set[bytes]) -> bytes | None:
    """The cache-tree extension with the records of `folders` marked invalid (`-1`, no id),
    so git recomputes those trees; every other record is kept as it is. Records come in
    pre-order, each saying how many sub-folder records follow it."""
    out = bytearray()
    paths: list[bytes] = []  # the folder of each open record
    left: list[int] = []  # how many of its sub-folder records are still to come
    at = 0
    try:
        while at < len(tree):
            nul = tree.index(b"\0", at)
            newline = tree.index(b"\n", nul)
            count, children = tree[nul + 1:newline].split(b" ")
            end = newline + 1 + (20 if int(count) >= 0 else 0)
            while left and left[-1] == 0:
                paths.pop()
                left.pop()
            name = tree[at:nul]
            if left:
                left[-1] -= 1
                path = name if paths[-1] == b"" else paths[-1] + b"/" + name
            else:
                path = name
            paths.append(path)
            left.append(int(children))
            if path in folders and int(count) >= 0:
                out += name + b"\0-1 " + children + b"\n"
            else:
                out += tree[at:end]
            at = end
    except ValueError:
        return None
    return bytes(out)
