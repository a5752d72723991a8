"""The session journal (SPEC §8): one JSON line per agent tool call.

Kept beside the cache in `.memrepo/journal/<session>.jsonl` (git-ignored, local to the
clone): every write a call makes is already a commit with `Session:` trailers, so the
journal adds what git does not see — reads, refusals and their arguments.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import orjson

from memrepo.clock import now
from memrepo.core.problems import InputError
from memrepo.core.times import format_instant
from memrepo.files import open_beneath

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def journal_path(root: Path, session: str) -> Path:
    return root / ".memrepo" / "journal" / f"{_UNSAFE.sub('_', session)}.jsonl"


def record_call(root: Path, session: str, scope: str, trust: str, tool: str,
                arguments: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Append one call to the session's journal with a single write (never a partial line
    among whole ones, even when several servers share a session name)."""
    path = journal_path(root, session)
    line = orjson.dumps({
        "time": format_instant(now()), "session": session, "scope": scope, "trust": trust,
        "tool": tool, "arguments": arguments, "outcome": outcome,
    }) + b"\n"
    try:  # never through a symbolic link (a pulled commit could plant one)
        fd = open_beneath(root, path.relative_to(root).as_posix(),
                          os.O_WRONLY | os.O_CREAT | os.O_APPEND, make_dirs=True)
    except InputError as err:
        print(f"memrepo: warning: the session journal is not kept: {err}", file=sys.stderr)
        return
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def read_journal(root: Path, session: str) -> list[dict[str, Any]]:
    path = journal_path(root, session)
    if not path.exists():
        return []
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
