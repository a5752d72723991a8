"""What every part of `memrepo bench perf` shares: its settings, the corpus of names and
keys its questions are drawn from, and how it runs memrepo and git."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..measure import (
    ProcessRun,
    Row,
    Target,
    missing,
    run_process,
)

if TYPE_CHECKING:
    pass



FLOOR_EVENT_FIELDS = ("id", "op", "recorded_at", "scope", "subject", "relation", "object",
                      "valid_from", "valid_to", "target", "confidence", "source", "session",
                      "quote", "reason", "trust")
NO_HOOKS = ("-c", "core.hooksPath=/dev/null")
NO_FACTS = "n/a (no facts in the repository)"


@dataclass(frozen=True)
class Settings:
    rounds: int = 3  # repetitions of git scenarios (checkout, commit)
    recall_samples: int = 1000
    search_queries: int = 200
    cli_runs: int = 20
    grep_runs: int = 8
    remember_commits: int = 30
    batch_facts: int = 10_000
    segment_lines: tuple[int, ...] = (1_000, 20_000)  # single writes at these segment sizes
    hand_lines: int = 100_000  # lines appended by hand to a log before the first query


QUICK = Settings(rounds=1, recall_samples=60, search_queries=24, cli_runs=3, grep_runs=2,
                 remember_commits=4, batch_facts=500, segment_lines=(100, 1_000),
                 hand_lines=5_000)


@dataclass
class Corpus:
    """What the benchmark queries: sampled from the repository itself (so `--dir` works)."""

    keys: list[tuple[str, str, str]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # aliases as written (diacritics kept)
    words: list[str] = field(default_factory=list)  # words that occur in bodies
    notes: list[str] = field(default_factory=list)  # repo paths of entity notes




# --- command lines ------------------------------------------------------------------------

def cli(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memrepo", "--repo", str(root), *args]


def git(root: Path, *args: str, hooks: bool = False) -> ProcessRun:
    run = run_process(["git", *(() if hooks else NO_HOOKS), *args], cwd=root)
    if not run.ok:
        raise RuntimeError(f"git {' '.join(args)} failed: {run.stderr.strip()}")
    return run


def failed(metric: str, run: ProcessRun, target: Target) -> Row:
    reason = (run.stderr.strip() or run.stdout.strip()).splitlines()[-1:] or ["no output"]
    return missing(metric, f"failed (exit {run.returncode}): {reason[0][:120]}", target)
