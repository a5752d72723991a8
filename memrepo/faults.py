"""Faults of the environment, each a clear one-line refusal instead of a crash (SPEC §11):
a read-only or full file system, a file size limit, no permission (`fault_problem`); a
terminal that cannot print UTF-8 (`escape_unprintable_output`: what it cannot print is
written as `\\u00f3`, which is also valid inside a JSON string)."""

from __future__ import annotations

import codecs
import errno
import sys

from memrepo.core.display import escaped_character
from memrepo.core.problems import Problem

_FAULTS = {
    errno.EROFS: ("the file system is read-only",
                  "make it writable (remount it read-write, or move the repository); "
                  "queries still answer from the files"),
    errno.ENOSPC: ("no space is left on the device",
                   "free some space there (.memrepo/cache.sqlite may be deleted: memrepo "
                   "builds it again)"),
    errno.EDQUOT: ("the disk quota is used up", "free some space or raise the quota"),
    errno.EFBIG: ("the file is larger than this process may write (a file size limit)",
                  "raise the limit (`ulimit -f unlimited`) or free some space"),
    errno.EACCES: ("permission denied", "give this user write access to it (`ls -l` shows "
                   "its owner), or run memrepo as that user"),
    errno.EPERM: ("the operation is not permitted", "give this user write access to it "
                  "(`ls -l` shows its owner), or run memrepo as that user"),
}


def fault_problem(err: OSError) -> Problem | None:
    """The refusal for an OSError the environment causes, naming the file; None for any
    other (a bug: the crash log's business)."""
    known = _FAULTS.get(err.errno or 0)
    if known is None:
        return None
    where = err.filename if isinstance(err.filename, str) else "a file memrepo writes"
    return Problem(where, *known)


ESCAPE = "memrepo-escape"


def _escape(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    return "".join(map(escaped_character, text)), error.end


def escape_unprintable_output() -> None:
    """Standard output and error of a terminal (or pipe) whose encoding is not UTF-8
    (`PYTHONIOENCODING=ascii`, a Latin-1 console) write what they cannot encode escaped,
    instead of failing on the first 'ó'."""
    codecs.register_error(ESCAPE, _escape)
    for stream in (sys.stdout, sys.stderr):
        encoding = codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding != "utf-8" and reconfigure is not None:
            reconfigure(errors=ESCAPE)
