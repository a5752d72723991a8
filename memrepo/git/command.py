"""The git command line, for what is simplest asked of git itself (status, diff, merge,
push): one way to run it. pygit2 does the rest (memrepo.git.read / write)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_HOOK_VARIABLES = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE")
"""Set when memrepo runs inside a git hook; they would point git at the hook's repository
or temporary index instead of the work tree named by `root`."""


def run_git(root: Path, *args: str, stdin: str | None = None,
            ) -> subprocess.CompletedProcess[str]:
    """`git -C root ARGS` with text output (undecodable bytes kept as surrogates); the
    caller looks at returncode and decides what a failure means."""
    env = {k: v for k, v in os.environ.items() if k not in _HOOK_VARIABLES}
    return subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True,
                          text=True, errors="surrogateescape", check=False, env=env)
