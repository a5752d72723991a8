"""A fleet (issue 13 item 8): clones writing and syncing through one bare repository at
once — every event on every clone exactly once, the same cache everywhere, nothing refused
(a lost push race waits and retries). Short here; 20 clones with `--long`."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.bench.fleet import FleetReport, run_fleet
from memrepo.bench.measure import render_table
from memrepo.cache import cache_path
from tests.support import dump, git


def assert_fleet_converged(report: FleetReport, clones: list[Path]) -> None:
    assert report.heads_equal and report.wrong == {}, report.wrong
    assert [w.refused for w in report.writers] == [[]] * len(clones)
    written = sum(len(w.ids) for w in report.writers) + 1  # + the lone sync's fact
    dumps = [dump(cache_path(clone)) for clone in clones]
    assert all(found == dumps[0] for found in dumps)
    assert len(dumps[0]["events"]) == written
    for clone in clones:
        assert git(clone, "status", "--porcelain", "--untracked-files=no").stdout == ""


def test_four_clones_writing_and_syncing_at_once_converge(tmp_path: Path,
                                                          git_env: dict[str, str]) -> None:
    report = run_fleet(tmp_path, clones=4, facts=1, every=1)
    assert_fleet_converged(report, [tmp_path / f"clone{n}" for n in range(4)])


@pytest.mark.long
def test_twenty_clones_writing_and_syncing_at_once_converge(
        tmp_path: Path, git_env: dict[str, str]) -> None:
    report = run_fleet(tmp_path, clones=20, facts=10, every=5)
    print("\n" + render_table(report.rows()))
    assert_fleet_converged(report, [tmp_path / f"clone{n}" for n in range(20)])
