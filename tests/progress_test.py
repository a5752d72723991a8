"""Progress on long work (issue 13 item 7): a bar on a terminal, nothing on a pipe — for a
cache rebuild, verify of a range, sync, triage --apply and the cache scripts."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import git, note

ESCAPE = "\x1b["


def on_terminal(command: list[str], env: dict[str, str]) -> tuple[str, str, int]:
    """Run `command` with stderr on a pseudo-terminal and stdout on a pipe: (stdout, what
    the terminal showed, exit code)."""
    main, secondary = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=secondary,
                               stdin=subprocess.DEVNULL, env=env)
    os.close(secondary)
    shown = bytearray()
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the other side closed: the process ended
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    out = process.stdout.read().decode() if process.stdout else ""
    return out, shown.decode("utf-8", "replace"), process.wait()


def on_pipes(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False,
                          stdin=subprocess.DEVNULL)


def memrepo(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memrepo", "--repo", str(root), *args]


@pytest.mark.parametrize(("args", "label"), [
    (("cache", "rebuild"), "Building the cache"),
    (("verify",), "Verifying commits"),
])
def test_a_bar_on_a_terminal(memory_repo: Path, git_env: dict[str, str],
                             args: tuple[str, ...], label: str) -> None:
    out, shown, code = on_terminal(memrepo(memory_repo, *args), git_env)
    assert code == 0, shown
    assert label in shown and ESCAPE in shown
    assert ESCAPE not in out and "\r" not in out  # stdout on a pipe stays plain


def test_the_build_script_shows_a_bar_and_the_hooks_refresh_does_not(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    script = Path(sys.executable).with_name("memrepo-build-cache")
    _, shown, code = on_terminal([str(script), "--repo", str(memory_repo)], git_env)
    assert code == 0 and "Building the cache" in shown
    (memory_repo / ".memrepo" / "cache.sqlite").unlink()
    refresh = Path(sys.executable).with_name("memrepo-refresh-cache")
    _, shown, code = on_terminal([str(refresh), "--repo", str(memory_repo), "--quiet",
                                  "--hook"], git_env)
    assert code == 0 and shown == ""


def with_remote_and_duplicates(root: Path, tmp_path: Path) -> None:
    """A bare remote to sync with, and two near-duplicate notes for triage --apply."""
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(root, "remote", "add", "origin", str(bare))
    for path, name in (("memory/entities/acme.md", "acme"),
                       ("memory/entities/acme-ltd.md", "acme-ltd")):
        (root / path).write_bytes(note("entities", name, "Packaging supplier in "
                                       "Łódź: cartons, minimum order 500 pieces"))
    assert on_pipes(memrepo(root, "index"), dict(os.environ)).returncode == 0
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "Two suppliers")  # the commit check
    # refuses near-duplicate notes; triage --apply is what merges them


def test_sync_and_triage_apply_show_a_bar_on_a_terminal(
        memory_repo: Path, tmp_path: Path, git_env: dict[str, str]) -> None:
    with_remote_and_duplicates(memory_repo, tmp_path)
    for args, label in ((("sync",), "memrepo sync"),
                        (("triage", "--apply"), "memrepo triage --apply")):
        out, shown, code = on_terminal(memrepo(memory_repo, *args), git_env)
        assert code == 0, shown
        assert label in shown and ESCAPE in shown
        assert ESCAPE not in out and "\r" not in out


def test_nothing_on_a_pipe_even_with_force_color(memory_repo: Path, tmp_path: Path,
                                                 git_env: dict[str, str]) -> None:
    env = {**git_env, "FORCE_COLOR": "1", "TTY_COMPATIBLE": "1"}
    with_remote_and_duplicates(memory_repo, tmp_path)
    for args in (("cache", "rebuild"), ("verify",), ("sync",), ("triage", "--apply")):
        done = on_pipes(memrepo(memory_repo, *args), env)
        assert done.returncode == 0, (args, done.stderr)
        for text in (done.stdout, done.stderr):
            assert ESCAPE not in text and "\r" not in text, (args, text)
