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
