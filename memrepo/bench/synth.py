"""A synthetic, valid memory repository of any size, for benchmarks (issue 2, 3, 6).

`generate(root, notes, events, seed)` makes a memory repository with `memrepo init`, then
writes `notes` valid notes across the four categories (mostly entities; aliases with
diacritics; `[[name]]` cross-links to existing notes), their INDEX.md files, and `events`
fact events across many scopes, keys and months (asserts, ends, retracts, many-valued
relations, quotes), and makes ONE commit carrying `Imported-from: synth` and `Approved-by:`.

The commit is written with `git fast-import` (one pack) fed while the files are written,
then the index is read from the new tree. `--method add` (`git add -A` + `git commit
--no-verify`) was faster in wall time at 100k notes / 1M events on 2 cores (42 s vs 67 s)
but leaves ~110k loose objects, so the next commit starts `git gc --auto`, a repack that
runs for minutes in the background and ruins any measurement made meanwhile.

The same seed gives the same files (ids included); only the commit time differs.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from memrepo.bench.synth_content import (
    FIRST_NAMES,
    MANY_VALUED,
    Writer,
    note_text,
    plan_notes,
    scope_events,
    segments,
)
from memrepo.core.config import CATEGORIES, CONFIG_PATH
from memrepo.core.notes.index_file import render_index
from memrepo.core.text import slug
from memrepo.git.command import start_git
from memrepo.git.porcelain import git
from memrepo.maintenance.init import config_text, create_memory_repo, with_many_valued

if TYPE_CHECKING:
    import subprocess

APPROVER = "Synth Approver <synth@example.com>"
COMMIT_METHODS = ("fast-import", "add")
EVENTS_PER_SCOPE = 5_000


@dataclass
class SynthInfo:
    """What was generated: enough for benchmarks to pick realistic queries."""

    root: Path
    commit: str = ""
    commit_method: str = ""
    notes: dict[str, list[str]] = field(default_factory=dict)  # category → names
    display_names: list[str] = field(default_factory=list)  # entity names as people write
    body_words: list[str] = field(default_factory=list)  # rarer words that occur in bodies
    scopes: list[str] = field(default_factory=list)
    keys: list[tuple[str, str, str]] = field(default_factory=list)  # a sample of keys
    events: int = 0
    log_files: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # phase → wall time


# --- writing and committing ---------------------------------------------------------------

class Sink:
    """Writes files into the work tree and, for `fast-import`, the same bytes as blobs
    into a `git fast-import` process running alongside (it packs while we generate)."""

    def __init__(self, root: Path, method: str) -> None:
        if method not in COMMIT_METHODS:
            raise ValueError(f"unknown commit method {method!r}; use one of {COMMIT_METHODS}")
        self.root, self.method = root, method
        self.marks: list[str] = []  # path of blob mark i + 1
        self.dirs: set[Path] = set()
        self.process: subprocess.Popen[bytes] | None = None
        if method == "fast-import":
            self.process = start_git(root, "fast-import", "--quiet", "--done", feed=True,
                                     capture=False)

    @property
    def stream(self) -> IO[bytes]:
        assert self.process is not None and self.process.stdin is not None
        return self.process.stdin

    def put(self, path: str, data: bytes) -> None:
        target = self.root / path
        if target.parent not in self.dirs:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.dirs.add(target.parent)
        target.write_bytes(data)
        if self.process is not None:
            self.marks.append(path)
            self.stream.write(b"blob\nmark :%d\ndata %d\n%b\n" % (len(self.marks), len(data),
                                                                  data))

    def commit(self, message: str) -> str:
        if self.process is None:
            git(self.root, "add", "-A")
            git(self.root, "commit", "-q", "--no-verify", "-F", "-", stdin=message)
        else:
            self._fast_import_commit(message)
            git(self.root, "reset", "-q")  # index from the new tree, stat data refreshed
        return git(self.root, "rev-parse", "HEAD").strip()

    def _fast_import_commit(self, message: str) -> None:
        assert self.process is not None
        ref = git(self.root, "symbolic-ref", "HEAD").strip()
        parent = git(self.root, "rev-parse", "HEAD").strip()
        ident = git(self.root, "var", "GIT_COMMITTER_IDENT").strip()
        body = message.encode("utf-8")
        head = b"commit %b\ncommitter %b\ndata %d\n%b\nfrom %b\n" % (
            ref.encode(), ident.encode("utf-8"), len(body), body, parent.encode())
        files = b"".join(b"M 100644 :%d %b\n" % (mark, path.encode("utf-8"))
                         for mark, path in enumerate(self.marks, start=1))
        self.stream.write(head + files + b"\ndone\n")
        self.stream.close()
        if self.process.wait() != 0:
            raise RuntimeError("git fast-import failed (see its output above)")


def _ensure_identity() -> None:
    """`memrepo init` and the commit need a git identity; give one when none is set."""
    for key, value in (("GIT_AUTHOR_NAME", "Synth"), ("GIT_COMMITTER_NAME", "Synth"),
                       ("GIT_AUTHOR_EMAIL", "synth@example.com"),
                       ("GIT_COMMITTER_EMAIL", "synth@example.com")):
        os.environ.setdefault(key, value)


def synth_config(notes: int) -> str:
    text = with_many_valued(config_text(APPROVER), MANY_VALUED)
    return text + f"limits:\n  entities: {max(notes, 1)}\n  references: {max(notes, 1)}\n"


def write_notes(rng: random.Random, sink: Sink, count: int, info: SynthInfo) -> None:
    writer = Writer(rng)
    descriptions: dict[str, dict[str, str]] = {c: {} for c in CATEGORIES}
    earlier: list[str] = []
    for spec in plan_notes(rng, count):
        updated = f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}"
        text = note_text(rng, writer, spec, earlier, updated)
        sink.put(f"memory/{spec.category}/{spec.name}.md", text.encode("utf-8"))
        descriptions[spec.category][spec.name] = spec.description
        earlier.append(spec.name)
        if spec.category == "entities" and len(info.display_names) < 5_000:
            info.display_names.append(spec.title)
    for category in CATEGORIES:
        sink.put(f"memory/{category}/INDEX.md",
                 render_index(category, descriptions[category]).encode("utf-8"))
        info.notes[category] = sorted(descriptions[category])
    info.body_words = writer.vocabulary


def write_facts(rng: random.Random, sink: Sink, count: int, info: SynthInfo) -> None:
    pool = info.notes.get("entities") or ["electricity-bill", "car", "flat"]
    scopes = -(-count // EVENTS_PER_SCOPE) if count else 0
    for number in range(scopes):
        scope = f"{slug(rng.choice(FIRST_NAMES))}-{number:03d}"
        size = min(EVENTS_PER_SCOPE, count - number * EVENTS_PER_SCOPE)
        subjects = rng.sample(pool, min(len(pool), max(10, size // 20)))
        events = scope_events(rng, scope, size, subjects)
        for path, data in segments(scope, events).items():
            sink.put(path, data)
            info.log_files += 1
        info.scopes.append(scope)
        info.events += len(events)
        asserted = [e for e in events if e["op"] == "assert"]
        for event in rng.sample(asserted, min(len(asserted), 50)):
            info.keys.append((scope, event["subject"], event["relation"]))


def generate(root: Path, notes: int, events: int, seed: int = 0,
             method: str = "fast-import") -> SynthInfo:
    """A new memory repository at `root` (which must not exist or be empty)."""
    _ensure_identity()
    info = SynthInfo(root=root.resolve(), commit_method=method)
    started = time.perf_counter()
    create_memory_repo(root, APPROVER)
    info.seconds["init"] = time.perf_counter() - started
    rng = random.Random(seed)
    sink = Sink(info.root, method)
    sink.put(CONFIG_PATH, synth_config(notes).encode("utf-8"))
    _timed(info, "notes", lambda: write_notes(rng, sink, notes, info))
    _timed(info, "facts", lambda: write_facts(rng, sink, events, info))
    message = (f"Synthetic memory: {notes} notes, {info.events} fact events (seed {seed})\n\n"
               f"Imported-from: synth\nApproved-by: {APPROVER}\n")
    _timed(info, "commit", lambda: setattr(info, "commit", sink.commit(message)))
    info.seconds["total"] = time.perf_counter() - started
    return info


def _timed(info: SynthInfo, phase: str, action: Any) -> None:
    started = time.perf_counter()
    action()
    info.seconds[phase] = time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memrepo.bench.synth",
                                     description="Generate a synthetic memory repository.")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--method", choices=COMMIT_METHODS, default="fast-import")
    args = parser.parse_args(argv)
    info = generate(args.directory, args.notes, args.events, args.seed, args.method)
    phases = ", ".join(f"{k} {v:.1f}s" for k, v in info.seconds.items())
    print(f"{info.root}: {sum(map(len, info.notes.values()))} notes, {info.events} events "
          f"in {info.log_files} logs, commit {info.commit[:10]} ({info.commit_method}); "
          f"{phases}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
