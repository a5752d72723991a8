"""Faults of the environment through the real CLI (issue 21 item 5, SPEC §11): a read-only
or full `.memrepo` (a real tmpfs mount; skipped where mounting is not permitted) and a
terminal that cannot print UTF-8. Queries answer from the files, writes refuse in one
line with the fix, doctor reports — never exit 3, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from tests.support import full_memrepo, memrepo_at, no_traceback, plain_env, read_only_memrepo

NOW = "2030-06-15T12:00:00Z"  # after the first commit of memory_repo, made now
KEY = ("--scope", "michal", "home", "city")


@pytest.mark.parametrize(("fault", "said"), [(read_only_memrepo, ("read-only",)),
                                             (full_memrepo, ("no space", "disk is full"))])
def test_a_memrepo_folder_that_cannot_be_written(
        memory_repo: Path, fault: Callable[[Path], AbstractContextManager[None]],
        said: tuple[str, ...]) -> None:
    assert memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW).returncode == 0
    with fault(memory_repo):
        recall = memrepo_at(memory_repo, "recall", "--scope", "michal", "city", now=NOW)
        assert recall.returncode == 0 and "Kraków" in recall.stdout, recall.stderr
        context = memrepo_at(memory_repo, "context", "--scope", "michal", "where", "do",
                             "I", "live", now=NOW)
        assert context.returncode == 0 and "Kraków" in context.stdout, context.stderr
        for args in (("remember", *KEY, "Gdańsk"), ("cache", "rebuild"),
                     ("doctor",), ("doctor", "--repair")):
            done = memrepo_at(memory_repo, *args, now=NOW)
            no_traceback(done)
            assert done.returncode == 1, (args, done.stdout, done.stderr)
            assert any(each in done.stdout + done.stderr for each in said), (args, done)
            assert "To fix:" in done.stdout + done.stderr
    after = memrepo_at(memory_repo, "recall", "--scope", "michal", "city", now=NOW)
    assert "Gdańsk" not in after.stdout and "Kraków" in after.stdout


def test_a_terminal_that_cannot_print_utf8_gets_escaped_output(memory_repo: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(memory_repo),
                               *args], capture_output=True, text=True, encoding="ascii",
                              env=plain_env(MEMREPO_NOW=NOW, PYTHONIOENCODING="ascii"),
                              check=False)

    written = run("remember", *KEY, "Kraków")
    assert written.returncode == 0 and "Krak\\u00f3w" in written.stdout, written.stderr
    for args in (("recall", "--scope", "michal", "city"), ("search", "Kraków"),
                 ("context", "--scope", "michal", "where do I live"), ("doctor",),
                 ("history", "--scope", "michal", "home", "city")):
        done = run(*args)
        assert done.returncode == 0, (args, done.stderr)
        no_traceback(done)
    found = run("recall", "--scope", "michal", "city", "--json")
    assert json.loads(found.stdout)["facts"][0]["object"] == "Kraków"
