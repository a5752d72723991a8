"""The session journal (SPEC §8): one JSON line per agent tool call.

Kept beside the cache in `.memrepo/journal/<session>.jsonl` (git-ignored, local to the
clone): every write a call makes is already a commit with `Session:` trailers, so the
journal adds what git does not see — reads, refusals and their arguments.

An agent chooses the arguments, so the journal never keeps them verbatim when that could
hurt: a value the secret detector flags is replaced by `[redacted: looks like <kind>]`
(a refused secret never reaches disk; a fact is read whole, so the value and quote of a
key that names a credential — `wifi.password` — are redacted whatever they say), a long
value keeps its first JOURNAL_VALUE_CHARS characters with its length and a digest (one
longer than any accepted value keeps only those), and a journal past JOURNAL_MAX_BYTES is
rotated to `<session>.jsonl.1` (one previous file kept), so no session can fill the disk.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path
from typing import Any

import orjson

from memrepo.clock import now
from memrepo.core.facts.times import format_instant
from memrepo.core.policy.secrets import key_credential, secret_kind, whole_fact_secret
from memrepo.core.problems import InputError, Problem
from memrepo.files import is_link, open_beneath
from memrepo.local_state import JOURNAL_DIR

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
JOURNAL_VALUE_CHARS = 200
JOURNAL_SCAN_CHARS = 20_000
JOURNAL_MAX_BYTES = 10 * 1024 * 1024


def journal_path(root: Path, session: str) -> Path:
    return root / JOURNAL_DIR / f"{_UNSAFE.sub('_', session)[:100]}.jsonl"


def require_journal(root: Path, session: str) -> None:
    """Refuse a call whose journal is a symbolic link (or sits behind one): memrepo never
    writes through a link, and no call runs unjournaled."""
    path = journal_path(root, session)
    for each in (path, path.parent):
        if each.is_symlink():
            raise InputError(Problem(str(each.relative_to(root)), "the session journal is a "
                                     "symbolic link; memrepo never writes through one, and "
                                     "runs no call it cannot journal",
                                     f"remove the link (`rm {each}`); memrepo creates the "
                                     "journal itself"))


def record_call(root: Path, session: str, scope: str, trust: str, tool: str,
                arguments: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Append one call to the session's journal with a single write (never a partial line
    among whole ones, even when several servers share a session name)."""
    path = journal_path(root, session)
    line = orjson.dumps({
        "time": format_instant(now()), "session": session, "scope": scope, "trust": trust,
        "tool": tool, "arguments": journaled(arguments), "outcome": journaled(outcome),
    }) + b"\n"
    try:  # the call itself is done (a write is committed): a journal failure only warns
        _rotate_when_full(root, path)
        # never through a symbolic link (a pulled commit could plant one)
        fd = open_beneath(root, path.relative_to(root).as_posix(),
                          os.O_WRONLY | os.O_CREAT | os.O_APPEND, make_dirs=True)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
    except (InputError, OSError) as err:
        reason = err if isinstance(err, InputError) else f"{path}: {err.strerror or err}"
        print(f"memrepo: warning: the session journal is not kept: {reason}", file=sys.stderr)


def journaled(value: Any) -> Any:
    """`value` as the journal keeps it: secrets redacted, long strings cut (recursively)."""
    if isinstance(value, str):
        return _journaled_text(value)
    if isinstance(value, dict):
        kind = _fact_credential(value)
        redacted = f"[redacted: looks like {kind}]"
        return {str(key)[:JOURNAL_VALUE_CHARS]:
                redacted if kind and key in FACT_TEXTS else journaled(item)
                for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [journaled(item) for item in value]
    return value


FACT_TEXTS = ("object", "quote")
"""What a fact under a credential key holds: its value and the words it came from."""


def _fact_credential(fields: dict[Any, Any]) -> str | None:
    """A fact (a call's arguments, an answer's fact) read whole, as the write path reads
    it: a key naming a credential (`wifi.password`) or the fact as one line."""
    texts = [fields.get(name) for name in ("subject", "relation", "object")]
    if not isinstance(texts[2], str) or any(isinstance(text, str) and len(text) >
                                            JOURNAL_SCAN_CHARS for text in texts):
        return None  # a text that long is not kept at all (`_journaled_text`)
    return key_credential(fields) or whole_fact_secret(fields)


def _journaled_text(text: str) -> str:
    encoded = text.encode("utf-8", "backslashreplace")  # lone surrogates as \udcff text
    digest = f"sha256 {hashlib.sha256(encoded).hexdigest()[:16]}…"
    if len(text) > JOURNAL_SCAN_CHARS:  # far beyond any accepted value: keep no text
        return f"[not kept: {len(text)} characters, {digest}]"
    text = encoded.decode("utf-8")
    kind = secret_kind(text)
    if kind is not None:
        return f"[redacted: looks like {kind}]"
    if len(text) <= JOURNAL_VALUE_CHARS:
        return text
    return f"{text[:JOURNAL_VALUE_CHARS]}… ({len(text)} characters, {digest})"


def _rotate_when_full(root: Path, path: Path) -> None:
    relative = path.relative_to(root).as_posix()
    try:
        full = os.lstat(path).st_size >= JOURNAL_MAX_BYTES
    except OSError:
        return
    if full and not is_link(root, relative):  # never renames through a link either
        os.replace(path, path.with_name(path.name + ".1"))


def read_journal(root: Path, session: str) -> list[dict[str, Any]]:
    path = journal_path(root, session)
    if not path.exists():
        return []
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
