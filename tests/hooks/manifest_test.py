"""The hooks offered to other repositories (.pre-commit-hooks.yaml) really run."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.support import ROOT, git, write

MANIFEST = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
BAD_NOTE = ("---\nname: other-name\ndescription: Notes about stuff\ntype: entity\n---\n"
            "See [x](../x.md) and /tmp/x. password: hunter2secret\n")
REFUSING = {"memrepo-headers", "memrepo-links", "memrepo-indexes", "memrepo-secrets"}


def test_every_hook_module_can_run_as_a_script() -> None:
    for module in sorted((ROOT / "hooks").glob("*.py")):
        if module.name != "__init__.py":
            assert 'if __name__ == "__main__":' in module.read_text(encoding="utf-8"), module


@pytest.mark.parametrize("hook", [h for h in MANIFEST if h["id"] in REFUSING],
                         ids=lambda h: h["id"])
def test_the_note_hooks_refuse_a_bad_note(memory_repo: Path, hook: dict[str, str]) -> None:
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    done = subprocess.run(shlex.split(hook["entry"]), cwd=memory_repo, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "memory/entities/" in done.stdout + done.stderr


def test_every_hook_is_installed_by_pre_commit_as_python_and_runs_one_check(
        memory_repo: Path) -> None:
    """language: python (pre-commit installs memrepo itself: nothing on PATH, pipx works);
    a per-check hook reports only its own check's problems."""
    assert {hook["language"] for hook in MANIFEST} == {"python"}
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    [links] = [h for h in MANIFEST if h["id"] == "memrepo-links"]
    done = subprocess.run(shlex.split(links["entry"]), cwd=memory_repo, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 1 and "relative" in done.stderr
    assert "description" not in done.stderr  # the headers check did not run
    unknown = subprocess.run(["memrepo", "check", "--only", "headerz"], cwd=memory_repo,
                             capture_output=True, text=True, check=False)
    assert unknown.returncode == 2 and "no check named headerz" in unknown.stderr
