"""What the cache judges each log line by (SPEC §7: it serves nothing the checks refuse),
set up once per build or sync (core.facts.line_rules holds the rules themselves):

- the event schema of the work tree's `schema/` (memrepo's own where it has none);
- for the lines not committed yet — a dirty log's lines after those it shares with HEAD,
  every line of a log HEAD does not have — the window the next commit allows their
  `recorded_at`: from HEAD's commit time to now (each ± the config's clock skew).

Git is asked (one `git cat-file --batch`) only when a dirty log is read; committed lines
were judged by the commit that added them, and `memrepo verify` re-judges history.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memrepo.clock import now
from memrepo.core.config import Config
from memrepo.core.facts.line_rules import Bound, LineRules
from memrepo.core.facts.segment_names import is_log_path
from memrepo.core.facts.times import format_instant
from memrepo.files import WorkTree, read_bytes
from memrepo.git.command import start_git
from memrepo.schemas import EVENT_SCHEMA, checker

_SECOND = 1_000_000


def line_rules(root: Path, config: Config, dirty: Iterable[str]) -> LineRules:
    """The rules for a build or sync of `root` whose dirty files are `dirty`."""
    skew = config.clock_skew_seconds * _SECOND
    moment = now()
    latest = Bound(moment + skew, f"now ({format_instant(moment)})")
    logs = sorted(p for p in dirty if is_log_path(p))
    schema = checker(EVENT_SCHEMA, WorkTree(root))
    if not logs:
        return LineRules(schema, None, latest)
    head_time, committed = _head_logs(root, logs)
    earliest = None if head_time is None else Bound(
        head_time * _SECOND - skew, f"the last commit ({format_instant(head_time * _SECOND)})")
    first_new = {path: _shared_lines(read_bytes(root, path) or b"", committed.get(path))
                 + 1 for path in logs}
    return LineRules(schema, earliest, latest, first_new)


def _shared_lines(data: bytes, committed: bytes | None) -> int:
    """How many whole lines the work tree's log shares with HEAD's from its start."""
    if not committed:
        return 0
    if data.startswith(committed):
        return committed.count(b"\n")
    shared = 0
    for mine, theirs in zip(data.split(b"\n")[:-1], committed.split(b"\n")[:-1], strict=False):
        if mine != theirs:
            break
        shared += 1
    return shared


def _head_logs(root: Path, logs: list[str]) -> tuple[int | None, dict[str, bytes]]:
    """(HEAD's committer time in seconds, the content HEAD has of each of `logs`); (None,
    {}) on an unborn branch."""
    process = start_git(root, "cat-file", "--batch", feed=True)
    request = "".join(f"HEAD:{path}\n" for path in logs)
    out, _ = process.communicate(("HEAD\n" + request).encode("utf-8"))
    objects = _batch_objects(out)
    if not objects or objects[0] is None:
        return None, {}
    head = objects[0]
    committed = {path: data for path, data in zip(logs, objects[1:], strict=False)
                 if data is not None}
    return _committer_time(head), committed


def _batch_objects(out: bytes) -> list[bytes | None]:
    """The contents `git cat-file --batch` printed, in order (None: missing)."""
    objects: list[bytes | None] = []
    position = 0
    while position < len(out):
        end = out.index(b"\n", position)
        header = out[position:end].split(b" ")
        if len(header) != 3:  # "<name> missing"
            objects.append(None)
            position = end + 1
            continue
        size = int(header[2])
        objects.append(out[end + 1:end + 1 + size])
        position = end + 1 + size + 1
    return objects


def _committer_time(commit: bytes) -> int | None:
    for line in commit.split(b"\n"):
        if line.startswith(b"committer "):
            parts = line.rsplit(b" ", 2)
            return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None
        if not line:
            break
    return None
