"""Where there is no /proc and no inotify (macOS, the BSDs): a person's git command is
still seen through the registration its hook leaves, a library write still waits for it
and lands after it, and doctor tells a live process from a dead one without /proc."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from memrepo import Memory
from memrepo.git import activity
from memrepo.maintenance.doctor.cache import cache_file
from memrepo.maintenance.doctor.git_index import git_locks
from tests.git.activity_test import start_commit_in_editor
from tests.support import git


@pytest.fixture()
def without_proc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(activity, "PROC", tmp_path / "no-proc")
    monkeypatch.setattr(activity, "_inotify_watch", lambda _git_dir: None)
    monkeypatch.setattr(activity, "_IDLE", [])


@pytest.mark.usefixtures("without_proc")
def test_a_commit_waiting_for_its_message_is_seen_by_its_registration(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    person = start_commit_in_editor(memory_repo, git_env)
    # git takes index.lock before its pre-commit hook registers it: until then, the lock
    # alone says a command is at work (pid 0); the registration follows
    deadline = time.monotonic() + 60
    while (found := activity.git_at_work(memory_repo, memory_repo / ".git")) is not None \
            and found.pid == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert found is not None and found.pid == person.pid
    assert activity.git_subcommand(person.pid) is None  # nothing says which command
    (memory_repo / ".git" / "go").touch()
    assert person.wait(timeout=60) == 0
    assert activity.git_at_work(memory_repo, memory_repo / ".git") is None


@pytest.mark.usefixtures("without_proc")
def test_a_write_waits_for_the_persons_commit_and_lands_after_it(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    before = git(memory_repo, "rev-parse", "HEAD").stdout.strip()
    person = start_commit_in_editor(memory_repo, git_env)
    failures: list[BaseException] = []

    def write() -> None:
        try:
            Memory.open(memory_repo).remember(scope="michal", subject="gas",
                                              relation="supplier", object="PGNiG")
        except BaseException as err:  # reported by the test's thread below
            failures.append(err)

    agent = threading.Thread(target=write)
    agent.start()
    time.sleep(1.5)
    assert agent.is_alive()  # waiting: HEAD is the person's to move
    assert git(memory_repo, "rev-parse", "HEAD").stdout.strip() == before
    (memory_repo / ".git" / "go").touch()
    assert person.wait(timeout=60) == 0, person.stdout
    agent.join(timeout=60)
    assert not failures and not agent.is_alive()
    subjects = git(memory_repo, "log", "--format=%s", f"{before}..HEAD").stdout.split("\n")
    assert subjects[:2] == ["remember: michal gas.supplier = PGNiG", "person: a note"]


@pytest.mark.usefixtures("without_proc")
def test_doctor_keeps_a_recent_git_lock_and_removes_an_old_one(memory_repo: Path) -> None:
    lock = memory_repo / ".git" / "HEAD.lock"
    lock.write_text("")
    [recent] = git_locks(memory_repo, repair=True)
    assert "held by a running process" in recent.problem and lock.exists()
    old = time.time() - 3600
    os.utime(lock, (old, old))
    [stale] = git_locks(memory_repo, repair=True)
    assert "stale" in stale.problem and not lock.exists()


@pytest.mark.usefixtures("without_proc")
def test_doctor_tells_a_running_rebuild_from_a_killed_one(memory_repo: Path) -> None:
    cache = memory_repo / ".memrepo" / "cache.sqlite"
    running = cache.with_name(f"cache.sqlite.{os.getpid()}.tmp")
    killed = cache.with_name("cache.sqlite.999999999.tmp")
    running.parent.mkdir(exist_ok=True)
    running.write_bytes(b"")
    killed.write_bytes(b"")
    cache_file(memory_repo, repair=True)
    assert running.exists() and not killed.exists()
