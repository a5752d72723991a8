"""A fleet (issue 13 item 8, issue 24 item 6): clones writing and syncing through one bare
repository at once — by its path, or served by a real `git daemon` on a loopback port with
the server's pre-receive hook — every event on every clone exactly once, the same cache
everywhere, nothing refused (a lost push race waits and retries). Short here; 20 and 50
clones with `--long`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memrepo.bench.fleet import FleetReport, make_bare, make_fleet, run_fleet, served
from memrepo.bench.measure import render_table
from memrepo.cache import cache_path
from tests.support import dump, git


def assert_fleet_converged(report: FleetReport, clones: list[Path]) -> None:
    assert report.heads_equal and report.wrong == {}, report.wrong
    assert (report.lost, report.doubled, report.refused) == (0, 0, 0)
    assert [w.refused for w in report.writers] == [[]] * len(clones)
    written = sum(len(w.ids) for w in report.writers) + 1  # + the lone sync's fact
    dumps = [dump(cache_path(clone)) for clone in clones]
    assert all(found == dumps[0] for found in dumps)
    assert len(dumps[0]["events"]) == written
    for clone in clones:
        assert git(clone, "status", "--porcelain", "--untracked-files=no").stdout == ""


def test_three_clones_writing_and_syncing_at_once_converge(tmp_path: Path,
                                                           git_env: dict[str, str]) -> None:
    report = run_fleet(tmp_path, clones=3, facts=1, every=1, serve="file")
    assert_fleet_converged(report, [tmp_path / f"clone{n}" for n in range(3)])


def test_two_clones_through_a_git_daemon_converge(tmp_path: Path,
                                                  git_env: dict[str, str]) -> None:
    report = run_fleet(tmp_path, clones=2, facts=2, every=1, serve="daemon")
    clones = [tmp_path / f"clone{n}" for n in range(2)]
    assert_fleet_converged(report, clones)
    for clone in clones:  # every clone pushed and fetched over git://, not the path
        assert git(clone, "remote", "get-url", "origin").stdout.startswith("git://127.0.0.1:")
    assert sum(w.syncs for w in report.writers) == 4
    assert (tmp_path / "remote.git" / "memrepo-push.lock").is_file()  # one push at a time
    served_head = git(tmp_path / "remote.git", "rev-parse", "main").stdout
    assert served_head == git(clones[0], "rev-parse", "HEAD").stdout


def test_the_server_hook_refuses_a_rewrite_pushed_through_the_daemon(
        tmp_path: Path, git_env: dict[str, str]) -> None:
    bare = make_bare(tmp_path)
    with served(tmp_path, bare, "daemon") as remote:
        [clone] = make_fleet(tmp_path, 1, remote)
        pushed = git(clone, "rev-parse", "HEAD").stdout.strip()
        git(clone, "commit", "-q", "--allow-empty", "-m", "a second commit")
        git(clone, "push", "-q", "origin", "main")
        git(clone, "-c", "core.hooksPath=/dev/null", "reset", "-q", "--hard", pushed)
        forced = subprocess.run(["git", "-C", str(clone), "push", "--force", "origin", "main"],
                                capture_output=True, text=True, check=False)
    assert forced.returncode != 0 and "non-fast-forward" in forced.stderr
    assert git(bare, "rev-parse", "main").stdout.strip() != pushed


@pytest.mark.long
def test_twenty_clones_writing_and_syncing_at_once_converge(
        tmp_path: Path, git_env: dict[str, str]) -> None:
    report = run_fleet(tmp_path, clones=20, facts=10, every=5, serve="file")
    print("\n" + render_table(report.rows()))
    assert_fleet_converged(report, [tmp_path / f"clone{n}" for n in range(20)])


@pytest.mark.long
def test_fifty_clones_through_a_git_daemon_converge(
        tmp_path: Path, git_env: dict[str, str]) -> None:
    report = run_fleet(tmp_path, clones=50, facts=4, every=2, serve="daemon")
    print("\n" + render_table(report.rows()))
    assert_fleet_converged(report, [tmp_path / f"clone{n}" for n in range(50)])
