"""When a sync whose push lost the race retries and when it gives up (sync_retry.py), with
real clones of a bare repository carrying the server's hook: lost races while the remote
keeps moving are no failure, however long they last; pushes turned back while the remote
stays put end in a one-line refusal, nothing lost."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memrepo.maintenance.sync import SyncRefused, sync
from tests.maintenance.sync_test import head, make_network, remember_many
from tests.support import git


def race_before_push(clone: Path, other: Path, times: int, tmp_path: Path) -> Path:
    """A pre-push hook in `clone`: before each of its first `times` pushes, `other` lands a
    commit on the server first, so that push loses the race. The counter file's path."""
    counter = tmp_path / "races"
    hook = clone / ".git" / "hooks" / "pre-push"
    hook.write_text(
        "#!/bin/sh\n"
        f"n=$(cat {counter} 2>/dev/null || echo 0)\n"
        f'[ "$n" -ge {times} ] && exit 0\n'
        f'echo $((n + 1)) > {counter}\n'
        "unset GIT_DIR GIT_INDEX_FILE\n"
        f'git -C {other} -c core.hooksPath=/dev/null commit -q --allow-empty -m "race $n"\n'
        f"git -C {other} push -q origin main\n")
    hook.chmod(0o755)
    return counter


def test_lost_races_while_the_remote_moves_are_retried_past_the_patience(
        memory_repo: Path, tmp_path: Path) -> None:
    """No patience at all (0 s): the old bound gave up at the first lost race; now every
    race lost to a push that landed is retried, and the sync lands."""
    _, (a, b) = make_network(memory_repo, tmp_path, clones=2)
    remember_many(a, "a", 1)
    counter = race_before_push(a, b, 3, tmp_path)
    result = sync(a, patience=0)
    assert counter.read_text().strip() == "3" and result.attempts == 4
    assert head(a) == git(tmp_path / "remote.git", "rev-parse", "main").stdout.strip()
    assert git(a, "rev-list", "--count", f"{head(b)}..HEAD").stdout.strip() != "0"


def test_a_push_turned_back_while_the_remote_stays_put_gives_up_in_one_line(
        memory_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stale lock of the branch on the server: git turns every push back as a ref that
    moved, but the branch never moves, so sync stops after its patience, says why in one
    line, and keeps everything merged and committed locally."""
    bare, (a, _b) = make_network(memory_repo, tmp_path, clones=2)
    remember_many(a, "a", 1)
    served = git(bare, "rev-parse", "main").stdout.strip()
    (bare / "refs" / "heads" / "main.lock").write_text(served + "\n")
    mine = head(a)
    with pytest.raises(SyncRefused) as refused:
        sync(a, patience=1.0)
    summary = str(refused.value).splitlines()[0]
    assert summary.startswith("memrepo sync: gave up pushing to origin: ")
    assert "did not move for 1 s" in summary, summary
    assert "refs/heads/main.lock" in str(refused.value)
    assert git(bare, "rev-parse", "main").stdout.strip() == served
    assert head(a) == mine  # the fact is committed here, nothing lost
    print(refused.value, file=sys.stderr)
