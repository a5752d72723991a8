"""A retry after a crash is idempotent (issue 21 item 4): a remember killed after its
commit, before the working file showed the line, is retried — and answers `unchanged`,
appends no second assert, and the working file gets the committed line."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.support import git, memrepo_at, plain_env, status

NOW = "2030-06-15T12:00:00Z"  # after the first commit of memory_repo, made now
LOG = "memory/facts/michal/2030-06.jsonl"
KEY = ("--scope", "michal", "home", "city")


def killed_after_commit(repo: Path) -> None:
    """What a kill between the branch update and showing the line leaves: the working log
    as the previous commit had it, the index pointing at it (`git update-index`)."""
    previous = git(repo, "show", f"HEAD~1:{LOG}", check=False, env=plain_env())
    if previous.returncode == 0:
        (repo / LOG).write_text(previous.stdout, encoding="utf-8")
    else:
        (repo / LOG).unlink()
    git(repo, "update-index", "--remove" if previous.returncode else "--add", LOG,
        env=plain_env())


def asserts(repo: Path, value: str) -> int:
    head = git(repo, "show", f"HEAD:{LOG}", env=plain_env()).stdout
    return sum(1 for line in head.splitlines() if json.loads(line).get("object") == value)


def test_a_remember_retried_after_a_crash_answers_unchanged(memory_repo: Path) -> None:
    first = memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW)
    assert first.returncode == 0, first.stderr
    done = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", "--valid-from", "2030-06-01",
                      "--quote", "we moved to Gdańsk", now=NOW)
    assert done.returncode == 0, done.stderr
    head = git(memory_repo, "rev-parse", "HEAD", env=plain_env()).stdout
    killed_after_commit(memory_repo)
    retry = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", "--valid-from",
                       "2030-06-01", "--quote", "we moved to Gdańsk", "--json", now=NOW)
    assert retry.returncode == 0, retry.stderr
    assert json.loads(retry.stdout)["status"] == "unchanged"
    assert git(memory_repo, "rev-parse", "HEAD", env=plain_env()).stdout == head
    assert asserts(memory_repo, "Gdańsk") == 1
    assert (memory_repo / LOG).read_bytes() == git(
        memory_repo, "show", f"HEAD:{LOG}", env=plain_env()).stdout.encode("utf-8")
    git(memory_repo, "update-index", "--refresh", check=False, env=plain_env())
    assert status(memory_repo) == ""


def test_the_first_write_of_a_log_retried_after_a_crash_answers_unchanged(
        memory_repo: Path) -> None:
    """The crash left no working log at all (the segment was new)."""
    done = memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW)
    assert done.returncode == 0, done.stderr
    killed_after_commit(memory_repo)
    assert not (memory_repo / LOG).exists()
    retry = memrepo_at(memory_repo, "remember", *KEY, "Kraków", "--json", now=NOW)
    assert json.loads(retry.stdout)["status"] == "unchanged", retry.stderr
    assert asserts(memory_repo, "Kraków") == 1
    assert (memory_repo / LOG).exists()


def test_a_retry_after_a_kill_before_the_index_leaves_git_status_clean(
        memory_repo: Path) -> None:
    """The kill came after the working file showed the line, before the index entry was
    pointed at the commit: the entry still holds the previous blob and
    `.memrepo/index-behind` names it (`git status`: MM). The retry answers `unchanged`
    and puts the index right."""
    assert memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW).returncode == 0
    done = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", now=NOW)
    assert done.returncode == 0, done.stderr
    previous = git(memory_repo, "rev-parse", f"HEAD~1:{LOG}", env=plain_env()).stdout.strip()
    git(memory_repo, "update-index", "--cacheinfo", f"100644,{previous},{LOG}",
        env=plain_env())
    (memory_repo / ".memrepo/index-behind").write_text(f"{LOG}\n", encoding="utf-8")
    assert status(memory_repo) != ""
    retry = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", "--json", now=NOW)
    assert json.loads(retry.stdout)["status"] == "unchanged", retry.stderr
    assert asserts(memory_repo, "Gdańsk") == 1
    assert status(memory_repo) == ""
    assert not (memory_repo / ".memrepo/index-behind").exists()


def test_a_retry_after_a_kill_holding_the_index_lock_leaves_git_status_clean(
        memory_repo: Path) -> None:
    """The kill came while the write held `.git/index.lock` to rename its new index into
    place: the entry still holds the previous blob, `.memrepo/index-behind` names it, and
    the lock stays, held by no process (`git status`: MM). The retry removes the lock and
    puts the index right, instead of waiting for it and leaving the entry behind."""
    assert memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW).returncode == 0
    assert memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", now=NOW).returncode == 0
    previous = git(memory_repo, "rev-parse", f"HEAD~1:{LOG}", env=plain_env()).stdout.strip()
    git(memory_repo, "update-index", "--cacheinfo", f"100644,{previous},{LOG}",
        env=plain_env())
    (memory_repo / ".memrepo/index-behind").write_text(f"{LOG}\n", encoding="utf-8")
    lock = memory_repo / ".git/index.lock"
    lock.write_bytes(b"")  # as the write's swap takes it: empty, then renames beside it
    assert status(memory_repo).split() == ["MM", LOG]
    retry = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", "--json", now=NOW)
    assert json.loads(retry.stdout)["status"] == "unchanged", retry.stderr
    assert not lock.exists()
    assert status(memory_repo) == ""
    assert not (memory_repo / ".memrepo/index-behind").exists()
    assert asserts(memory_repo, "Gdańsk") == 1


def test_an_index_lock_a_process_holds_is_waited_for_not_removed(
        memory_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A git command holding the index lock open (git writes the new index into it) is
    waited for until the deadline; the entry is left to the next write and the lock to
    its owner."""
    monkeypatch.setenv("MEMREPO_LOCK_TIMEOUT", "2")
    assert memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW).returncode == 0
    lock = memory_repo / ".git/index.lock"
    with open(lock, "wb") as held:
        done = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", "--json", now=NOW)
        assert lock.exists()
    assert json.loads(done.stdout)["status"] == "added", done.stderr
    assert (memory_repo / ".memrepo/index-behind").read_text(encoding="utf-8") == f"{LOG}\n"
    lock.unlink()
    assert held.closed
    again = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", "--json", now=NOW)
    assert json.loads(again.stdout)["status"] == "unchanged", again.stderr
    assert status(memory_repo) == ""


def dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_a_retry_after_a_kill_removes_the_killed_write_s_temporary_index(
        memory_repo: Path) -> None:
    """The kill came after the write prepared its new index (`.git/memrepo-index.<pid>.tmp`,
    a whole index) and linked the old one (`.old`) for the swap: the retry, finding the
    marker the kill left, removes both — and nothing else."""
    assert memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW).returncode == 0
    git_dir = memory_repo / ".git"
    pid = dead_pid()
    killed = [git_dir / f"memrepo-index.{pid}.tmp", git_dir / f"memrepo-index.{pid}.old"]
    killed[0].write_bytes((git_dir / "index").read_bytes())
    os.link(git_dir / "index", killed[1])
    unrelated = git_dir / f"memrepo-index.{pid}.tmp.lock"
    unrelated.write_bytes(b"")
    (memory_repo / ".memrepo/index-behind").write_text(f"{LOG}\n", encoding="utf-8")
    retry = memrepo_at(memory_repo, "remember", *KEY, "Kraków", "--json", now=NOW)
    assert json.loads(retry.stdout)["status"] == "unchanged", retry.stderr
    assert not any(path.exists() for path in killed) and unrelated.exists()
    assert status(memory_repo) == ""


def test_a_write_that_finds_no_trace_of_a_kill_does_not_look_for_temporary_indexes(
        memory_repo: Path) -> None:
    """Listing .git is left to writes that found a kill's marker (and to doctor)."""
    leftover = memory_repo / f".git/memrepo-index.{dead_pid()}.tmp"
    leftover.write_bytes(b"DIRC")
    done = memrepo_at(memory_repo, "remember", *KEY, "Kraków", "--json", now=NOW)
    assert json.loads(done.stdout)["status"] == "added", done.stderr
    assert leftover.exists()


def branch_lock(repo: Path) -> Path:
    branch = git(repo, "symbolic-ref", "HEAD", env=plain_env()).stdout.strip()
    return repo / ".git" / f"{branch}.lock"


def test_a_retry_after_a_kill_holding_the_branch_lock_is_not_refused(
        memory_repo: Path) -> None:
    """The kill came between taking the branch's lock (`refs/heads/main.lock`, written
    with the new commit's id) and moving the branch: no process holds the lock, so the
    retry removes it and writes, instead of refusing every write until a person does."""
    assert memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW).returncode == 0
    lock = branch_lock(memory_repo)
    head = git(memory_repo, "rev-parse", "HEAD", env=plain_env()).stdout
    lock.write_text(head, encoding="utf-8")
    os.utime(lock, (time.time() - 5, time.time() - 5))
    retry = memrepo_at(memory_repo, "remember", *KEY, "Gdańsk", "--json", now=NOW)
    assert retry.returncode == 0, retry.stderr
    assert json.loads(retry.stdout)["status"] == "added"
    assert asserts(memory_repo, "Gdańsk") == 1
    assert not lock.exists()
    assert status(memory_repo) == ""
    assert memrepo_at(memory_repo, "doctor", now=NOW).returncode == 0


def test_a_branch_lock_a_process_holds_still_refuses(memory_repo: Path) -> None:
    lock = branch_lock(memory_repo)
    with open(lock, "w", encoding="utf-8") as held:  # a git command writing the branch
        held.write(git(memory_repo, "rev-parse", "HEAD", env=plain_env()).stdout)
        held.flush()
        os.utime(lock, (time.time() - 5, time.time() - 5))
        refused = memrepo_at(memory_repo, "remember", *KEY, "Kraków", now=NOW)
    assert refused.returncode == 1
    assert "the branch's lock file exists" in refused.stderr
    assert lock.exists()
