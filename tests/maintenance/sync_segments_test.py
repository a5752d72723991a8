"""Two clones writing across a small `segment_max_bytes` at once, then `memrepo sync`
(SPEC §4, §10): each opens its own `.2`, `.3` …; the union merge keeps every line (closed
segments gain the other side's lines), nothing is lost, the clones converge and every
check — the hooks, verify, the server's pre-receive hook — passes."""

from __future__ import annotations

from pathlib import Path

from memrepo.core.facts.segment_names import sorted_segments
from tests.maintenance.sync_test import (
    SCOPE,
    append_concurrently,
    assert_converged,
    make_network,
    memrepo,
    remember_many,
    sync,
    sync_rounds,
)
from tests.support import set_segment_cap


def numbered_segments(clone: Path) -> list[int]:
    folder = clone / "memory" / "facts" / SCOPE
    return [s.number for s in sorted_segments(f"memory/facts/{SCOPE}/{p.name}"
                                              for p in folder.iterdir())]


def test_two_clones_writing_across_the_cap_converge_with_nothing_lost(
        memory_repo: Path, tmp_path: Path) -> None:
    set_segment_cap(memory_repo, 1024)
    _, clones = make_network(memory_repo, tmp_path, clones=2)
    append_concurrently(clones, 6)
    assert all(max(numbered_segments(clone)) >= 3 for clone in clones)
    sync_rounds(clones)
    assert_converged(clones, 2 * 7)
    remember_many(clones[1], "after", 3)  # the newest segment of the merged month
    assert sync(clones[1]).returncode == 0 and sync(clones[0]).returncode == 0
    assert_converged(clones, 2 * 7 + 4)
    checked = memrepo(clones[0], "check", "--all")
    assert checked.returncode == 0, checked.stdout + checked.stderr
