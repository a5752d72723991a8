"""`memrepo bench perf` on a small repository completes and prints every row (timings are
never asserted), plus the pure helpers of memrepo.bench.measure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memrepo.bench.measure import Row, Target, percentile, render_table, run_process

ROWS = (
    "synth generate", "cache rebuild (whole process)", "peak RSS of the rebuild",
    "SQLite full-text indexing of the same texts alone",
    "recall by key, in-process p50", "recall by key, in-process p99", "recall CLI",
    "search top-10, in-process p50", "search top-10, in-process p99",
    "cache sync after a 10-file checkout", "memrepo check --message-file F",
    "remember, one commit per fact", "CPU per write at", "remember, batched",
    "doctor (whole process", "triage --json (whole process)", "triage --json, peak memory",
    "first query after 5,000 lines appended by hand",
    "… the other keys' rows, made in the background",
)


def test_smoke_run_prints_every_row(tmp_path: Path, git_env: dict[str, str]) -> None:
    report = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, "-m", "memrepo", "bench", "perf", "--notes", "300", "--events",
         "3000", "--quick", "--dir", str(tmp_path / "repo"), "--json", str(report)],
        capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    table = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert table[0] == "| metric | value | floor | ratio | target | met? |"
    for label in ROWS:
        assert any(line.startswith(f"| {label}") for line in table), label
    assert any("hook" in line for line in table)
    rows = json.loads(report.read_text(encoding="utf-8"))["rows"]
    assert len(rows) == len(table) - 1
    assert {"metric", "value", "floor", "ratio", "target", "met"} <= set(rows[0])


def test_a_reused_directory_is_not_regenerated(tmp_path: Path, git_env: dict[str, str]) -> None:
    from memrepo.bench.perf import prepare

    root, row = prepare(tmp_path / "repo", 40, 200, seed=1)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                          text=True, check=True).stdout
    again, reused = prepare(tmp_path / "repo", 40, 200, seed=1)
    assert again == root and row.value is not None and reused.value is None
    assert subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                          text=True, check=True).stdout == head


def test_percentile_interpolates() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([1.0, 2.0], 50) == 1.5
    assert percentile([5.0], 99) == 5.0
    assert percentile(list(map(float, range(101))), 99) == 99.0


def test_targets_and_table() -> None:
    rows = [
        Row("rebuild", 3.0, "s", 2.0, "floor", Target("ratio_max", 1.5, "ratio ≤ 1.5")),
        Row("search", 0.001, "s", 0.05, "grep", Target("speedup_min", 10, "≥ 10×")),
        Row("rate", 10.0, "/s", target=Target("min", 20, "≥ 20/s")),
        Row("missing", None, "", note="n/a (component missing)"),
    ]
    assert [row.met for row in rows] == [True, True, False, None]
    table = render_table(rows).splitlines()
    assert table[2] == "| rebuild | 3.00 s | 2.00 s (floor) | 1.50 | ratio ≤ 1.5 | yes |"
    assert "50.0× faster" in table[3] and "| NO |" in table[4]
    assert table[5].startswith("| missing | n/a (component missing) |")


def test_run_process_reports_exit_code_and_peak_rss() -> None:
    run = run_process([sys.executable, "-c", "import sys; b = bytearray(50 * 2**20); "
                       "print('hi'); sys.exit(3)"])
    assert run.returncode == 3 and run.stdout == "hi\n"
    assert run.peak_rss > 50 * 2**20


def test_only_the_git_scenarios(tmp_path: Path, git_env: dict[str, str]) -> None:
    from memrepo.bench.perf import prepare

    root, _ = prepare(tmp_path / "repo", 60, 300, seed=2)
    done = subprocess.run(
        [sys.executable, "-m", "memrepo", "bench", "perf", "--quick", "--dir", str(root),
         "--only", "hooks"], capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    table = [line.split(" | ")[0] for line in done.stdout.splitlines() if line.startswith("| ")]
    assert "| memrepo check --message-file F (what commit-msg runs; whole process)" in table
    assert "| python -c pass (a process start on this machine, same rounds)" in table
    assert not any("rebuild" in label or "recall" in label for label in table)
