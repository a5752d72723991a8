"""The filesystem: writing files so that a reader (or a crash) never sees half of one, and
reading them back."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

from memrepo.core.problems import InputError, Problem
from memrepo.local_state import STATE_DIR


def write_atomically(target: Path, data: bytes) -> None:
    """Write `data` to `target` via a temporary file in the same folder and a rename.

    The file keeps its permissions (a new one gets the usual 0666 minus umask: mkstemp's
    0600 would make notes and indexes unreadable to the rest of a shared checkout)."""
    import tempfile  # here: a query process imports this module and writes nothing

    target.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(target)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fchmod(stream.fileno(), mode)
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def read_text(name: str | None, what: str) -> str:
    """UTF-8 text from the file `name`, or from stdin for None or `-`; a clear refusal
    otherwise (bytes are decoded here, never by the terminal's locale)."""
    import sys


    where = "stdin" if name in (None, "-") else str(name)
    try:
        data = sys.stdin.buffer.read() if where == "stdin" else Path(where).read_bytes()
        return data.decode("utf-8")
    except OSError as err:
        raise InputError(Problem(where, f"cannot read the {what}: {err.strerror}",
                                 "give a readable file, or - for stdin")) from None
    except UnicodeDecodeError:
        raise InputError(Problem(where, f"the {what} is not UTF-8 text",
                                 "convert it to UTF-8")) from None


def read_bytes(root: Path, path: str) -> bytes | None:
    """The bytes of `root/path`; None when it is missing or not a regular file — a
    symbolic link (on the way or at the end) counts as missing: it may lead outside."""
    return read_files(root, [path])[0]


def read_files(root: Path, paths: Iterable[str]) -> list[bytes | None]:
    """`read_bytes` of each path, each folder on the way opened once for all the files in
    it (a cache build reads 100k notes from four folders)."""
    folders: dict[str, int | None] = {}
    try:
        read = []
        for path in paths:
            folder, _, name = path.rpartition("/")
            if folder not in folders:
                folders[folder] = _folder_beneath(root, folder)
            directory = folders[folder]
            read.append(None if directory is None else _regular_file(directory, name))
        return read
    finally:
        for directory in folders.values():
            if directory is not None:
                os.close(directory)


def _folder_beneath(root: Path, folder: str) -> int | None:
    """A descriptor of the folder `root/folder`, reached through no symbolic link below
    `root`; None when that is not possible."""
    try:
        directory = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    for part in folder.split("/") if folder else ():
        try:
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                            dir_fd=directory)
        except OSError:  # missing, a link (ELOOP), not a folder, …
            inner = None
        os.close(directory)
        if inner is None:
            return None
        directory = inner
    return directory


def _regular_file(directory: int, name: str) -> bytes | None:
    import stat

    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=directory)
    except OSError:  # missing, a link (ELOOP), …
        return None
    try:
        return _read_fd(fd) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    finally:
        os.close(fd)


# --- inside the repository, never through a symbolic link ---------------------------------

LINK_FIX = ("replace the link with a real file or folder (memrepo never reads, writes or "
            "repairs through a symbolic link: it could point outside the repository)")


def open_beneath(root: Path, relative: str, flags: int, mode: int = 0o644,
                 make_dirs: bool = False) -> int:
    """`os.open(root/relative, flags)` that follows no symbolic link on the way — neither a
    folder nor the file itself — so it cannot leave `root` (`..` is refused too); missing
    folders are made one at a time when `make_dirs`. InputError naming the link."""
    parts = relative.split("/")
    if any(part in ("", ".", "..") for part in parts):

        raise InputError(Problem(relative, "not a plain path inside the repository",
                                 "name a file below the repository's root"))
    directory = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for number, part in enumerate(parts[:-1]):
            inner = _open_dir(directory, part, make_dirs, "/".join(parts[:number + 1]))
            os.close(directory)
            directory = inner
        try:
            return os.open(parts[-1], flags | os.O_NOFOLLOW, mode, dir_fd=directory)
        except OSError as err:
            raise _link_error(err, directory, parts[-1], relative) from None
    finally:
        os.close(directory)


def _open_dir(parent: int, name: str, make: bool, shown: str) -> int:
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        return os.open(name, flags, dir_fd=parent)
    except FileNotFoundError:
        if not make:
            raise
    except OSError as err:
        raise _link_error(err, parent, name, shown) from None
    with suppress(FileExistsError):  # made meanwhile by another process
        os.mkdir(name, 0o777, dir_fd=parent)
    return os.open(name, flags, dir_fd=parent)


def _link_error(err: OSError, parent: int, name: str, shown: str) -> Exception:
    """An InputError when `name` is a symbolic link (or not a folder); else `err`."""
    import errno
    import stat


    if err.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
        return err
    try:
        is_link = stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        is_link = False
    problem = "is a symbolic link" if is_link else "is not a folder"
    return InputError(Problem(shown, problem, LINK_FIX if is_link else
                              "move the file out of the way"))


def read_beneath(root: Path, relative: str) -> bytes | None:
    """The bytes of `root/relative` read without following a symbolic link; None when it
    does not exist (InputError for a link)."""
    try:
        fd = open_beneath(root, relative, os.O_RDONLY)
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        return _read_fd(fd)
    finally:
        os.close(fd)


def _read_fd(fd: int) -> bytes:
    """The whole file: one read of the size it has (a log of megabytes is not copied again
    by joining chunks), then whatever it grew by meanwhile."""
    data = os.read(fd, max(os.fstat(fd).st_size, 1))
    if not data:
        return data
    chunks = [data]
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return data if len(chunks) == 1 else b"".join(chunks)


def state_link(root: Path) -> str | None:
    """`.memrepo` (this clone's own state: cache, locks, journals), or the first thing
    directly in it, that is a symbolic link; None when there is none. Only a commit made
    past the checks, or a hand, can put one there, and SQLite and the activity registry
    would follow it."""
    state = root / STATE_DIR
    if state.is_symlink():
        return STATE_DIR
    try:
        entries = sorted(os.scandir(state), key=lambda entry: entry.name)
    except OSError:  # missing, not a folder, unreadable: opening the cache says which
        return None
    return next((f"{STATE_DIR}/{e.name}" for e in entries if e.is_symlink()), None)



def is_link(root: Path, relative: str) -> bool:
    """Whether `relative` or any folder on its way below `root` is a symbolic link."""
    path = root
    for part in relative.split("/"):
        path = path / part
        if path.is_symlink():
            return True
    return False


class WorkTree:
    """The work tree as a read-only snapshot (`memrepo.core.change.Snapshot`): for what is
    read from the files as they are, e.g. the candidates schema of extraction. Symbolic
    links count as missing, as in `read_bytes`."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def read(self, path: str) -> bytes | None:
        return read_bytes(self.root, path)

    def exists(self, path: str) -> bool:
        return self.read(path) is not None

    def list_dir(self, directory: str) -> list[str]:
        try:
            return sorted(entry.name for entry in os.scandir(self.root / directory)
                          if entry.is_file(follow_symlinks=False))
        except OSError:
            return []


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob (so a clean file's id matches git's)."""
    return blob_digest(data).hex()


def blob_digest(data: bytes) -> bytes:
    """`blob_id` as git stores it (20 bytes). A large blob this process hashed lately is
    compared with the bytes it was hashed from instead of hashed again (a fact-log segment
    a write committed is hashed again by the cache's sync of it: a comparison costs a
    fraction of SHA-1); equal bytes, never a name or a size, give the kept id."""
    known = _HASHED.get(len(data))
    if known is not None and known[0] == data:
        return known[1]
    return _hashed(data, _sha1_blob(data))


def prefix_blob_digest(data: bytes, size: int) -> bytes:
    """`blob_digest(data[:size])`, without copying the prefix."""
    known = _HASHED.get(size)
    if known is not None and len(data) >= size and data.startswith(known[0]):
        return known[1]
    return _sha1_blob(memoryview(data)[:size])


def _sha1_blob(data: bytes | memoryview) -> bytes:
    import hashlib  # here: a query's cache path checks need this module, not hashing

    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.digest()


def _hashed(data: bytes, digest: bytes) -> bytes:
    """Keep a large blob's id with its bytes (the latest few, within _KEPT_BYTES)."""
    if _KEPT_FROM <= len(data) <= _KEPT_BYTES:
        with _HASHED_LOCK:
            _HASHED.pop(len(data), None)
            while _HASHED and sum(map(len, (b for b, _ in _HASHED.values()))) + len(
                    data) > _KEPT_BYTES:
                del _HASHED[next(iter(_HASHED))]
            _HASHED[len(data)] = (data, digest)
    return digest


_KEPT_FROM = 1 << 20
_KEPT_BYTES = 64 << 20
_HASHED: dict[int, tuple[bytes, bytes]] = {}  # size → (bytes, blob id), oldest first
_HASHED_LOCK = threading.Lock()


def complete_lines(data: bytes) -> bytes:
    """The bytes up to the last `\\n`: a partial last line is not indexed (yet)."""
    return data[:data.rfind(b"\n") + 1]
