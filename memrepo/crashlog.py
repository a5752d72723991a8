"""Where an unexpected error's traceback goes: a log file, never the terminal.

The log has a fixed name in a shared folder (the temporary folder by default), so it is
opened without following a symbolic link and used only when it is a regular file of this
user; otherwise the traceback goes to a new private file beside it. Another user's link
can therefore never make memrepo append to a file it points at.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def write_crash_log(label: str) -> Path | None:
    """Append the current exception's traceback to the log; its path, or None when no log
    can be written (the caller's one-line message must still get out). tempfile and
    traceback are imported here: every CLI process imports this module, few crash."""
    import tempfile
    import traceback

    text = f"--- {label}\n{traceback.format_exc()}\n".encode("utf-8", "backslashreplace")
    directory = Path(os.environ.get("MEMREPO_LOG_DIR") or tempfile.gettempdir())
    log = directory / f"memrepo-error-{os.getuid()}.log"
    try:
        fd = _open_own(log)
    except OSError:
        try:
            fd, name = tempfile.mkstemp(prefix=f"memrepo-error-{os.getuid()}-", suffix=".log",
                                        dir=directory)
        except OSError:
            return None
        log = Path(name)
    try:
        os.write(fd, text)
    except OSError:
        return None
    finally:
        os.close(fd)
    return log


def _open_own(log: Path) -> int:
    """The log opened for appending: never through a link, only a regular file we own
    (O_NONBLOCK: a planted FIFO fails at once instead of blocking)."""
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
             | os.O_CLOEXEC)
    fd = os.open(log, flags, 0o600)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
        os.close(fd)
        raise OSError(f"{log} is not a regular file of this user")
    return fd
