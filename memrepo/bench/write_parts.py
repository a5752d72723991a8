"""`memrepo bench writes`: where the time of one API `remember` goes (the MCP server's
path), at a few sizes of the month written to, beside git's own floor from the same run.

For each size a fresh memory (`memrepo init`) gets one scope whose current month holds
that many lines (distinct subjects: the write gate compares a new key with all of them),
a fresh cache, two warm-up writes (a long-lived process — the MCP server — pays what
they build once), then single writes through `Memory.remember`, each a new key. The parts
come from a profile of those writes (so they carry the profiler's overhead; compare them
with each other and across sizes): blob hashing, the key's events (the cache's rows, a scan
of logs it does not hold as they are) and the latest id, the write gate, cache sync and
append-only re-reads, the commit checks, the index. The floor is git itself:
one line appended, `git add`, `git commit --no-verify`.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from memrepo.agent.api import Memory
from memrepo.bench.measure import median, run_process
from memrepo.cache import open_fresh
from memrepo.facts import writes
from memrepo.maintenance.init import create_memory_repo

SCOPE = "bench"
APPROVER = "Bench Person <bench@example.com>"

PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "blob hashing and writing (write_blobs, committed_bytes)": (
        ("memrepo/git/write.py", "write_blobs"), ("memrepo/git/write.py", "committed_bytes")),
    "key's events and latest id (key_events, latest_id)": (
        ("memrepo/facts/key_events.py", "key_events"),
        ("memrepo/facts/keys.py", "_in_logs"),  # no cache yet: the byte scan
        ("memrepo/facts/segments.py", "latest_id")),
    "write gate (ScopeKeys and its look-ups)": (("memrepo/facts/keys.py", "catch_up"),
                                                ("memrepo/facts/keys.py", "__init__"),
                                                ("scope_keys.py", "resolve")),
    "cache sync before the gate (open_fresh)": (("memrepo/cache/__init__.py", "open_fresh"),),
    "commit checks (run_commit_checks)": (("memrepo/facts/appender.py", "run_commit_checks"),),
    "index (staging.prepare + update)": (("memrepo/git/staging.py", "prepare"),
                                         ("memrepo/git/staging.py", "update")),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="memrepo bench writes", description=__doc__)
    parser.add_argument("--lines", type=int, nargs="+", default=[1_000, 20_000],
                        help="lines in the month written to (default 1,000 and 20,000)")
    parser.add_argument("--writes", type=int, default=20, help="single writes per size")
    args = parser.parse_args(argv)
    for lines in args.lines:
        with tempfile.TemporaryDirectory(prefix="memrepo-writes-") as directory:
            _report(Path(directory) / "memory", lines, args.writes)
    return 0


def _report(root: Path, lines: int, count: int) -> None:
    create_memory_repo(root, APPROVER)
    _fill(root, lines)
    open_fresh(root).close()
    memory = Memory(root)
    warm_up = time.perf_counter()
    for number in range(2):  # a process's first writes build what later ones reuse
        _remember(memory, f"warm-up-{number}")
    warm_up = time.perf_counter() - warm_up
    profile = cProfile.Profile()
    seconds = []
    for number in range(count):
        started = time.perf_counter()
        profile.enable()
        _remember(memory, f"new-{number}")
        profile.disable()
        seconds.append(time.perf_counter() - started)
    floor = median([_git_floor(root, n) for n in range(5)])
    print(f"\n## {lines:,} lines in the month ({_segments(root)})\n")
    print(f"single API remember: median {median(seconds) * 1000:.1f} ms = "
          f"{1 / median(seconds):.1f}/s (profiled); git floor {floor * 1000:.1f} ms; the "
          f"process's first two writes {warm_up * 1000:.0f} ms")
    print("per write, profiled (ms):")
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    for part, functions in PARTS.items():
        spent = sum(ct for (file, _, name), (_, _, _, ct, _) in stats.items()
                    if any(file.endswith(f) and name == n for f, n in functions))
        print(f"  {part:<45} {spent / count * 1000:7.2f}")


def _remember(memory: object, subject: str) -> None:
    result = memory.remember(  # type: ignore[attr-defined]
        scope=SCOPE, subject=subject, relation="status", object=f"state of {subject}",
        quote=f"The state of {subject} is known.", source="conversation", session="bench",
        new_key=False)
    if result.status != "added":
        raise SystemExit(f"bench write answered {result.status}")


def _fill(root: Path, lines: int) -> None:
    for start in range(0, lines, 5000):
        writes.remember_many(root, [
            writes.FactInput(SCOPE, f"fill-{n}", "status", f"state {n}", quote=f"It is {n}.")
            for n in range(start, min(lines, start + 5000))],
            source="conversation", session="bench")


def _segments(root: Path) -> str:
    folder = root / "memory" / "facts" / SCOPE
    sizes = sorted((p.name, p.stat().st_size) for p in folder.iterdir())
    return ", ".join(f"{name} {size / 1e6:.2f} MB" for name, size in sizes)


def _git_floor(root: Path, number: int) -> float:
    """Seconds git takes to commit one line appended to a file of the month's size."""
    folder = root / "memory" / "facts" / SCOPE
    newest = max(folder.iterdir(), key=lambda p: p.stat().st_mtime_ns)
    line = newest.read_bytes().splitlines()[-1].replace(b'"status"', b'"floor%d"' % number)
    started = time.perf_counter()
    with newest.open("ab") as out:
        out.write(line + b"\n")
    for command in (["add", "--", str(newest)], ["commit", "-q", "--no-verify", "-m", "f"]):
        done = run_process(["git", "-C", str(root), "-c", "core.hooksPath=/dev/null",
                            *command])
        if done.returncode != 0:
            raise SystemExit(f"git {command[0]} failed: {done.stderr}")
    return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
