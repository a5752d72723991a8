"""The demo memory under memory/ passes every note check (a Change from nothing to all)."""

from __future__ import annotations

from pathlib import Path

import pytest
from memrepo.hooks import headers, indexes, links, secrets

from memrepo.config import snapshot_config
from memrepo.core.change import Change, DictSnapshot, diff_snapshots
from memrepo.core.notes.headers import classify
from memrepo.files import WorkTree

ROOT = Path(__file__).resolve().parent.parent
CATEGORIES = ("rules", "entities", "references", "project")


def demo_files() -> dict[str, bytes]:
    return {p.relative_to(ROOT).as_posix(): p.read_bytes()
            for p in sorted((ROOT / "memory").rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def everything() -> Change:
    files = demo_files()
    snapshot = DictSnapshot(files)
    config, problems = snapshot_config(snapshot, WorkTree(ROOT), validate=True)
    assert problems == []
    return Change(DictSnapshot({}), snapshot, diff_snapshots({}, files), config,
                  commit_time=0, rules=WorkTree(ROOT))


@pytest.mark.parametrize("check", [headers.check, links.check, indexes.check, secrets.check],
                         ids=["headers", "links", "indexes", "secrets"])
def test_demo_memory_passes(everything: Change, check: object) -> None:
    problems = check(everything)  # type: ignore[operator]
    assert [p.render() for p in problems] == []


def test_demo_memory_is_realistic(everything: Change) -> None:
    assert "Michał Kowalski <michal@example.com>" in everything.config.approvers
    assert everything.config.is_many("speaks")
    notes = [f.path for f in everything.files if classify(f.path)[0] == "note"]
    for category in CATEGORIES:
        assert sum(p.startswith(f"memory/{category}/") for p in notes) >= 3
        assert everything.new.exists(f"memory/{category}/INDEX.md")
    assert everything.new.exists("memory/TRIGGERS.md")


def test_this_repository_passes_its_own_full_check() -> None:
    """The project repository is itself a memory repository (SPEC §2)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(root), "check",
                           "--all"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
