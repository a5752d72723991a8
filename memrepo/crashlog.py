"""Where an unexpected error's traceback goes: a log file, never the terminal."""

from __future__ import annotations

import os
import tempfile
import traceback
from pathlib import Path


def write_crash_log(label: str) -> Path | None:
    """Append the current exception's traceback to the log; its path, or None when the log
    cannot be written (the caller's one-line message must still get out)."""
    directory = Path(os.environ.get("MEMREPO_LOG_DIR", tempfile.gettempdir()))
    log = directory / f"memrepo-error-{os.getuid()}.log"
    try:  # O_NOFOLLOW: a fixed name in a shared folder must not lead elsewhere
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as handle:
            handle.write(f"--- {label}\n{traceback.format_exc()}\n")
    except OSError:
        return None
    return log
