"""A person's git command at work in the clone (memrepo.git.activity), and a library write
waiting for it instead of moving HEAD under it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memrepo.git.activity import HeadOpens, git_at_work, may_be_memrepo, register, run_by_git
from memrepo.local_state import GIT_COMMANDS as REGISTRY
from tests.support import git, write

EDITOR = """
import pathlib, sys, time
message = pathlib.Path(sys.argv[1])
while not (message.parent / "go").exists():  # .git/go: the person finishes the message
    time.sleep(0.05)
message.write_text("person: a note\\n")
"""


def start_commit_in_editor(repo: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    write(repo, "memory/TRIGGERS.md", (repo / "memory/TRIGGERS.md").read_text() + "\nx\n")
    git(repo, "add", "memory/TRIGGERS.md")
    editor = repo.parent / "editor.py"
    editor.write_text(EDITOR)
    person = subprocess.Popen(["git", "commit", "-q"], cwd=repo, text=True,
                              env={**env, "GIT_EDITOR": f"{sys.executable} {editor}"},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while git_at_work(repo, repo / ".git") is None:
        assert person.poll() is None and time.monotonic() < deadline, person.stdout
        time.sleep(0.05)
    return person


def test_a_commit_waiting_for_its_message_is_at_work(memory_repo: Path,
                                                     git_env: dict[str, str]) -> None:
    person = start_commit_in_editor(memory_repo, git_env)
    found = git_at_work(memory_repo, memory_repo / ".git")
    assert found is not None and found.pid == person.pid and "commit" in found.describe()
    (memory_repo / ".git" / "go").touch()
    assert person.wait(timeout=60) == 0
    assert git_at_work(memory_repo, memory_repo / ".git") is None


def test_a_write_waits_for_the_persons_commit_and_lands_after_it(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    before = git(memory_repo, "rev-parse", "HEAD").stdout.strip()
    person = start_commit_in_editor(memory_repo, git_env)
    agent = subprocess.Popen([sys.executable, "-m", "memrepo", "--repo", str(memory_repo),
                              "remember", "--scope", "michal", "gas", "supplier", "PGNiG"],
                             env=git_env, text=True, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    time.sleep(1.5)
    assert agent.poll() is None  # waiting: HEAD is the person's to move
    assert git(memory_repo, "rev-parse", "HEAD").stdout.strip() == before
    (memory_repo / ".git" / "go").touch()
    assert person.wait(timeout=60) == 0, person.stdout
    out, err = agent.communicate(timeout=60)
    assert agent.returncode == 0, out + err
    subjects = git(memory_repo, "log", "--format=%s", f"{before}..HEAD").stdout.split("\n")
    assert subjects[:2] == ["remember: michal gas.supplier = PGNiG", "person: a note"]
    assert git(memory_repo, "status", "--porcelain").stdout == ""


def test_read_only_commands_and_this_process_are_not_waited_for(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    reader = subprocess.Popen(["git", "cat-file", "--batch"], cwd=memory_repo,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=git_env)
    try:
        time.sleep(0.2)
        assert git_at_work(memory_repo, memory_repo / ".git") is None
    finally:
        reader.communicate(b"")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to tell a dead pid")
def test_a_dead_registration_is_removed(memory_repo: Path) -> None:
    register(memory_repo, 999_999_999)  # above any pid Linux gives out
    assert (memory_repo / REGISTRY / "999999999").exists()
    assert git_at_work(memory_repo, memory_repo / ".git") is None
    assert not (memory_repo / REGISTRY / "999999999").exists()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="inotify: Linux only")
def test_a_git_command_that_started_since_the_watch_is_seen(memory_repo: Path) -> None:
    with HeadOpens(memory_repo / ".git") as head_opens:
        write(memory_repo, "memory/notes.txt", "memrepo's own files are not git\n")
        assert not head_opens.seen()
        git(memory_repo, "status", "--porcelain")  # every git command opens HEAD first
        assert head_opens.seen()
        assert not head_opens.seen()  # each open is reported once


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="inotify: Linux only")
def test_a_watch_kept_for_the_next_write_reports_only_what_followed_it(
        memory_repo: Path) -> None:
    with HeadOpens(memory_repo / ".git") as head_opens:
        git(memory_repo, "status", "--porcelain")
        assert head_opens.seen()
    git(memory_repo, "status", "--porcelain")  # between two writes: none of theirs
    with HeadOpens(memory_repo / ".git") as head_opens:
        assert not head_opens.seen()
        git(memory_repo, "log", "-1", "--format=%H")
        assert head_opens.seen()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to read ancestors")
def test_a_process_a_git_command_runs_is_run_by_git(memory_repo: Path,
                                                    git_env: dict[str, str]) -> None:
    """As memrepo runs in a git hook (a `!` alias here): the lock files git keeps closed
    meanwhile are its own, never a killed process's."""
    probe = "from memrepo.git.activity import run_by_git; print(run_by_git())"
    done = subprocess.run(["git", "-c", f"alias.probe=!{sys.executable} -c '{probe}'",
                           "probe"], cwd=memory_repo, env=git_env, capture_output=True,
                          text=True, check=False)
    assert done.stdout.strip() == "True", done.stderr
    assert not run_by_git()


def test_a_live_process_with_pygit2_may_be_memrepo_others_and_the_dead_not() -> None:
    """Who may still use a temporary index named for its pid: this process, a live one
    with pygit2 loaded (as every memrepo writer has); never a reaped or a zombie process,
    nor one that has the pid now and never loaded pygit2."""
    writer = subprocess.Popen([sys.executable, "-c", "import pygit2; print(1, flush=True); "
                               "input()"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    other = subprocess.Popen(["sleep", "60"])
    zombie = subprocess.Popen(["true"])
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "1\n"
        deadline = time.monotonic() + 10
        while not Path(f"/proc/{zombie.pid}/stat").read_text().rpartition(")")[2].startswith(
                " Z"):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert may_be_memrepo(os.getpid()) and may_be_memrepo(writer.pid)
        assert not may_be_memrepo(other.pid) and not may_be_memrepo(zombie.pid)
    finally:
        writer.kill()
        other.kill()
        for process in (writer, other, zombie):
            process.wait()
    assert not may_be_memrepo(writer.pid) and not may_be_memrepo(0)
