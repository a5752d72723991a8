"""House style is part of the suite: mypy strict on the package, ruff on everything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_mypy_strict_passes() -> None:
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_passes() -> None:
    done = run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
