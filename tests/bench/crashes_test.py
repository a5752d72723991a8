"""`memrepo bench crashes` (issue 21): a few kill -9 and retry trials through the CLI and
the API — every fact exactly once, doctor healthy, git status clean. 300 trials are the
benchmark's (`memrepo bench crashes`), not the suite's."""

from __future__ import annotations

import random
from pathlib import Path

from memrepo.bench.crashes import CrashReport, Fact, Trial, finish, prepare, run_crashes
from memrepo.bench.measure import render_table
from tests.support import cli, git


def test_a_few_kills_and_retries_lose_and_duplicate_nothing(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    report = run_crashes(prepare(memory_repo), trials=4, seed=3, api_share=0.5)
    assert len(report.trials) == 4
    assert (report.lost, report.duplicated, report.errors) == ([], [], [])
    assert report.work_differs == [] and report.status == ""
    assert report.doctor == "" and report.verify == ""
    assert report.passed
    assert {t.retry for t in report.trials} <= {"added", "unchanged"}
    table = render_table(report.rows())
    assert "| facts lost | 0 |" in table and "| facts duplicated | 0 |" in table


def test_a_fact_held_twice_or_missing_is_counted(memory_repo: Path,
                                                 git_env: dict[str, str]) -> None:
    """The end check reads HEAD: a fact written twice (a retry that appended again) is a
    duplicate, a fact never committed is lost."""
    root = prepare(memory_repo)
    first = git(root, "rev-parse", "HEAD").stdout.strip()
    twice = Fact("cli", "device-1", "status", "value 1")
    never = Fact("cli", "device-2", "status", "value 2")
    for _ in range(2):
        done = cli(root, "remember", "--scope", "crashbench", "--new-key", "device-1",
                   "status", "value 1", "--valid-from", "2020-01-01", "--valid-to",
                   "2021-01-01" if _ else "2022-01-01")
        assert done.returncode == 0, done.stderr
    report = CrashReport(trials=[Trial(0, twice, 0.1, False, "added")])
    finish(root, report, [twice, never], first)
    assert report.duplicated == ["device-1.status = value 1 ×2"]
    assert report.lost == ["device-2.status = value 2"]
    assert not report.passed


def test_kill_delays_cover_the_whole_process_and_the_commit() -> None:
    from memrepo.bench.crashes import kill_delay

    rng = random.Random(0)
    delays = [kill_delay(rng, 1.0, 0.7) for _ in range(2000)]
    assert min(delays) < 0.1 and max(delays) > 1.0  # start-up to past the exit
    assert sum(0.6 <= d <= 0.8 for d in delays) > 1000  # most around the commit
