"""Performance benchmark (issue 2, 3, 6): `memrepo bench perf`.

Builds (or reuses, `--dir`) a synthetic memory repository and prints one markdown table:
each figure beside a floor measured in the same run — the least work that could produce
the same answer — and their ratio. The floor of a rebuild is raw parsing into plain SQLite
tables (`floor.py`): deliberately not memrepo's cache, so its SQL lives here. The rows are
made by `queries.py` (rebuild, recall, search), `git_scenarios.py` (checkout, commit,
remember) and `maintenance.py` (doctor, triage).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from memrepo.git.hook_scripts import install
from memrepo.progress import task

from ..measure import NO_BYTECODE, Row, has_bytecode, missing, render_table
from ..synth import generate
from .common import QUICK, Corpus, Settings, git
from .git_scenarios import hook_rows, remember_rows, sync_rows
from .maintenance import maintenance_rows
from .queries import full_text_row, rebuild_rows, recall_rows, search_rows

# --- the whole run ------------------------------------------------------------------------

def prepare(directory: Path | None, notes: int, events: int, seed: int) -> tuple[Path, Row]:
    """The repository to measure: reused when it already holds a memory (as it is: its
    hooks, if any), else generated with memrepo's git hooks installed."""
    root = directory or Path(tempfile.mkdtemp(prefix="memrepo-bench-")) / "repo"
    if (root / "memory").is_dir():
        return root.resolve(), missing("synth generate", "reused existing repository")


    with task(f"memrepo bench perf: generating {notes:,} notes / {events:,} events"):
        info = generate(root, notes, events, seed)
    install(info.root)  # memrepo's git hooks, as `memrepo init` installs them
    label = f"synth generate {notes:,} notes / {info.events:,} events"
    return info.root, Row(label, info.seconds["total"], "s", note=f"{info.commit_method}")


GIT_SCENARIOS = ("sync", "hooks", "remember", "maintenance")
"""What `--only` may pick: the scenarios that need no cache build of their own."""


def run_benchmark(root: Path, settings: Settings, seed: int = 0,
                  only: Sequence[str] = ()) -> list[Row]:
    rng = random.Random(seed)
    if only:
        return git_scenario_rows(root, settings, rng, only)
    with task("memrepo bench perf: cache rebuild", total=8) as steps:

        def next_section(name: str) -> None:
            steps.advance()
            steps.describe(f"memrepo bench perf: {name}")

        with tempfile.TemporaryDirectory(prefix="memrepo-bench-work-") as work:
            rows, corpus = rebuild_rows(root, Path(work))
        next_section("recall")
        rows += recall_rows(root, corpus, settings, rng)
        next_section("search")
        rows += search_rows(root, corpus, settings, rng)
        next_section("checkout and cache sync")
        rows += sync_rows(root, corpus, settings, rng)
        next_section("commit hooks")
        rows += hook_rows(root, corpus, settings, rng)
        next_section("doctor and triage")
        rows += maintenance_rows(root, settings)
        next_section("remember")
        rows += remember_rows(root, settings)
        next_section("full-text indexing alone")
        cpu = next((row for row in rows if row.metric.startswith("cache rebuild, CPU")), None)
        rows.insert(rows.index(cpu) + 1 if cpu else 0,
                    full_text_row(root, None if cpu is None else cpu.floor))
    return rows


def git_scenario_rows(root: Path, settings: Settings, rng: random.Random,
                      only: Sequence[str]) -> list[Row]:
    """The scenarios named in `only` (GIT_SCENARIOS), on the entity notes git lists."""
    listed = git(root, "ls-files", "-z", "--", "memory/entities/").stdout.split("\0")
    corpus = Corpus(notes=[path for path in listed
                           if path.endswith(".md") and not path.endswith("/INDEX.md")])
    rows: list[Row] = []
    if "sync" in only:
        rows += sync_rows(root, corpus, settings, rng)
    if "hooks" in only:
        rows += hook_rows(root, corpus, settings, rng)
    if "maintenance" in only:
        rows += maintenance_rows(root, settings)
    if "remember" in only:
        rows += remember_rows(root, settings)
    return rows


def run(args: argparse.Namespace) -> int:
    root, generated = prepare(args.dir, args.notes, args.events, args.seed)
    try:
        settings = QUICK if args.quick else Settings()
        load_before = os.getloadavg()
        rows = [generated, *run_benchmark(root, settings, args.seed, args.only or ())]
        load_after, bytecode = os.getloadavg(), has_bytecode()
        print(f"memrepo bench perf on {root}\n")
        print(render_table(rows))
        print(f"\nload average (1, 5, 15 min) before {_loads(load_before)}, after "
              f"{_loads(load_after)}; {os.cpu_count()} CPUs")
        if not bytecode:
            print(NO_BYTECODE)
        if args.json:
            document = {"repo": str(root), "rows": [row.to_json() for row in rows],
                        "load_before": load_before, "load_after": load_after,
                        "bytecode": bytecode}
            args.json.write_text(json.dumps(document, indent=2, ensure_ascii=False),
                                 encoding="utf-8")
    finally:
        if args.dir is None and not args.keep:
            shutil.rmtree(root.parent, ignore_errors=True)
        elif args.dir is None:
            print(f"\nkept the repository in {root}")
    return 0


def _loads(loads: tuple[float, float, float]) -> str:
    return " / ".join(f"{load:.1f}" for load in loads)


def main(argv: Sequence[str] | None = None) -> int:
    """`memrepo bench perf [options]` (the options: `parse_args`)."""
    return run(parse_args(argv))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="memrepo bench perf",
        description="Generate a synthetic memory (or reuse --dir) and print a markdown "
                    "table: metric | value | floor | ratio | target | met?")
    parser.add_argument("--notes", type=_at_least(100), default=10_000, metavar="N",
                        help="notes to generate (default 10,000)")
    parser.add_argument("--events", type=_at_least(100), default=100_000, metavar="M",
                        help="fact events to generate (default 100,000)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="measure this repository; generated there when it holds no "
                             "memory yet; always kept")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated temporary repository and print its path")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer repetitions, fewer lines appended by hand: a smoke "
                             "run, not a measurement")
    parser.add_argument("--only", nargs="+", choices=GIT_SCENARIOS, metavar="SCENARIO",
                        help="run only these git scenarios (sync: checkout + cache refresh; "
                             "hooks: a 10-note commit through the hooks and `memrepo check`; "
                             "remember; maintenance: doctor and triage --json): no rebuild, "
                             "recall or search")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the rows as one JSON document")
    return parser.parse_args(argv)


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number ≥ minimum (the generator samples from the notes)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return parse


if __name__ == "__main__":
    sys.exit(main())
