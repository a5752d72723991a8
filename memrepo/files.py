"""The filesystem: writing files so that a reader (or a crash) never sees half of one, and
reading them back."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(target: Path, data: bytes) -> None:
    """Write `data` to `target` via a temporary file in the same folder and a rename.

    The file keeps its permissions (a new one gets the usual 0666 minus umask: mkstemp's
    0600 would make notes and indexes unreadable to the rest of a shared checkout)."""
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

    from memrepo.core.problems import InputError, Problem

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
    """The bytes of `root/path`; None when it is missing (or not a regular file)."""
    try:
        return (root / path).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
