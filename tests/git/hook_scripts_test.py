"""memrepo's own git hook scripts (memrepo.git.hook_scripts): written with the interpreter
memrepo runs in, another program's hook kept and still run, states doctor reports."""

from __future__ import annotations

import fcntl
import os
import stat
import sys
from pathlib import Path

import pytest

from memrepo.core.problems import InputError
from memrepo.facts import writes as store
from memrepo.git.hook_scripts import HOOK_TYPES, install, states
from memrepo.local_state import GIT_COMMANDS as REGISTRY
from memrepo.local_state import INDEX_BEHIND as BEHIND_PATH
from memrepo.local_state import WRITE_LOCK as LOCK_PATH
from tests.support import cli, commit, event, git, lines, note, now_stamp, segment, write

BAD_NOTE = "no header at all\n"


def hook(repo: Path, name: str) -> Path:
    return repo / ".git" / "hooks" / name


def make_executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_init_installs_every_hook_and_they_run_memrepo(memory_repo: Path) -> None:
    assert [s.state for s in states(memory_repo)] == ["ok"] * len(HOOK_TYPES)
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    refused = git(memory_repo, "commit", "-q", "-m", "bad", check=False)
    assert refused.returncode == 1 and "To fix:" in refused.stderr
    assert "git commit -e -F .git/COMMIT_EDITMSG" in refused.stderr  # the message is kept


def test_another_programs_hook_is_kept_and_runs_first(memory_repo: Path) -> None:
    make_executable(hook(memory_repo, "pre-commit"),
                    "#!/bin/sh\necho 'team policy: no commits today' >&2\nexit 1\n")
    install(memory_repo)
    assert "team policy" in hook(memory_repo, "pre-commit.local").read_text()
    assert "memrepo hooks run pre-commit" in hook(memory_repo, "pre-commit").read_text()
    done = git(memory_repo, "commit", "-q", "--allow-empty", "-m", "x", check=False)
    assert done.returncode == 1 and "team policy" in done.stderr
    install(memory_repo)  # again: memrepo's own script is simply rewritten
    assert "team policy" in hook(memory_repo, "pre-commit.local").read_text()
    make_executable(hook(memory_repo, "pre-commit"), "#!/bin/sh\nexit 0\n")
    with pytest.raises(InputError, match=r"pre-commit\.local"):
        install(memory_repo)  # two foreign hooks: a person merges them


def test_a_hook_whose_python_is_gone_is_stale_and_says_how_to_fix(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    install(memory_repo, python="/nonexistent/python3")
    assert {s.state for s in states(memory_repo)} == {"stale"}
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    env = {**git_env, "PATH": "/usr/bin:/bin"}  # no memrepo on PATH either
    done = git(memory_repo, "commit", "-q", "-m", "bad", check=False, env=env)
    assert done.returncode == 1 and "memrepo hooks install" in done.stderr


def test_the_stale_hook_message_prints_the_interpreter_path_as_it_is(
        memory_repo: Path, tmp_path: Path, git_env: dict[str, str]) -> None:
    marker = tmp_path / "ran"
    python = f"/nonexistent/we ird'$HOME\"x `touch {marker}`/python3"
    install(memory_repo, python=python)
    env = {**git_env, "PATH": "/usr/bin:/bin"}
    done = git(memory_repo, "commit", "-q", "--allow-empty", "-m", "x", check=False, env=env)
    assert done.returncode == 1 and f"cannot run: {python} no longer exists" in done.stderr
    assert not marker.exists()


def test_a_shared_hooks_folder_does_nothing_in_a_repository_that_is_not_a_memory(
        memory_repo: Path, tmp_path: Path) -> None:
    shared = tmp_path / "shared-hooks"
    git(memory_repo, "config", "core.hooksPath", str(shared))
    install(memory_repo)
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", str(other))
    git(other, "config", "core.hooksPath", str(shared))
    write(other, "README.md", "not a memory\n")
    write(other, "memory/notes.md", "a folder named memory is not a memory\n")
    git(other, "add", "-A")
    git(other, "commit", "-q", "-m", "first")
    git(other, "checkout", "-q", "-b", "topic")
    assert not (other / ".memrepo").exists()
    assert git(other, "status", "--porcelain").stdout == ""
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    assert git(memory_repo, "commit", "-q", "-m", "bad", check=False).returncode == 1


def test_a_checkout_names_a_note_its_refresh_leaves_out(memory_repo: Path) -> None:
    stage_note(memory_repo, "acme")
    commit(memory_repo, "acme")
    path = memory_repo / "memory" / "entities" / "acme.md"
    path.write_text(path.read_text().replace("description: ", "description: Boxes: ", 1))
    done = git(memory_repo, "checkout", "-q", "-b", "carry")
    assert "memrepo: memory/entities/acme.md:3: left out of every answer: " in done.stderr


def test_a_missing_or_foreign_hook_is_reported(memory_repo: Path) -> None:
    hook(memory_repo, "commit-msg").unlink()
    make_executable(hook(memory_repo, "post-merge"), "#!/bin/sh\nexit 0\n")
    found = {s.hook_type: s.state for s in states(memory_repo)}
    assert found["commit-msg"] == "missing" and found["post-merge"] == "foreign"
    assert not any(s.runs_memrepo for s in states(memory_repo)
                   if s.hook_type in ("commit-msg", "post-merge"))


def test_hooks_go_where_core_hooks_path_points(memory_repo: Path) -> None:
    git(memory_repo, "config", "core.hooksPath", "team-hooks")
    install(memory_repo)
    assert "memrepo hooks run" in (memory_repo / "team-hooks" / "commit-msg").read_text()
    assert [s.state for s in states(memory_repo)] == ["ok"] * len(HOOK_TYPES)


# --- the pre-commit hook starts Python only when it has work --------------------------------

def logging_python(tmp_path: Path) -> tuple[str, Path]:
    """An interpreter for the hook scripts that notes each hook it runs, then runs it."""
    log = tmp_path / "hooks-run.log"
    wrapper = tmp_path / "python"
    make_executable(wrapper, f'#!/bin/sh\necho "$5" >> {log}\nexec {sys.executable} "$@"\n')
    return str(wrapper), log


def stage_note(repo: Path, name: str) -> None:
    text = note("entities", name, f"Supplier {name}: boxes, lead time two weeks")
    write(repo, f"memory/entities/{name}.md", text)
    assert cli(repo, "index").returncode == 0
    git(repo, "add", "-A")


def hooks_run(log: Path) -> list[str]:
    runs = log.read_text().split() if log.exists() else []
    log.unlink(missing_ok=True)
    return runs


def test_a_commit_with_nothing_for_pre_commit_to_do_starts_python_once(
        memory_repo: Path, tmp_path: Path) -> None:
    python, log = logging_python(tmp_path)
    install(memory_repo, python=python)
    stage_note(memory_repo, "first")
    assert commit(memory_repo, "first").returncode == 0
    hooks_run(log)  # the first run made .memrepo/write.lock and the registry
    registered = set((memory_repo / REGISTRY).iterdir())
    write(memory_repo, "memory/entities/bad.md", BAD_NOTE)
    git(memory_repo, "add", "-A")
    refused = commit(memory_repo, "bad")
    assert refused.returncode == 1 and "To fix:" in refused.stderr
    assert hooks_run(log) == ["commit-msg"]  # every check still ran
    [git_command] = set((memory_repo / REGISTRY).iterdir()) - registered
    assert git_command.name.isdigit()  # the script registered the commit's git process


def test_a_held_write_lock_sends_the_pre_commit_hook_to_python(
        memory_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python, log = logging_python(tmp_path)
    install(memory_repo, python=python)
    monkeypatch.setenv("MEMREPO_LOCK_TIMEOUT", "0.2")
    lock = memory_repo / LOCK_PATH
    lock.parent.mkdir(exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as an agent's write between branch and index
        done = git(memory_repo, "commit", "-q", "--allow-empty", "-m", "x", check=False)
    finally:
        os.close(fd)
    assert done.returncode == 1 and "held the lock" in done.stderr
    assert hooks_run(log) == ["pre-commit"]
    assert git(memory_repo, "commit", "-q", "--allow-empty", "-m", "x",
               check=False).returncode == 0


def test_a_persons_commit_keeps_a_fact_whose_index_entry_a_killed_write_left_behind(
        memory_repo: Path, tmp_path: Path) -> None:
    python, log = logging_python(tmp_path)
    install(memory_repo, python=python)
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="d")
    [segment] = (memory_repo / "memory/facts/michal").glob("*.jsonl")
    path = segment.relative_to(memory_repo).as_posix()
    git(memory_repo, "reset", "-q", "HEAD~1", "--", path)  # killed before the index update
    (memory_repo / BEHIND_PATH).write_text(f"{path}\n")
    hooks_run(log)
    stage_note(memory_repo, "person")
    assert commit(memory_repo, "a note").returncode == 0
    assert hooks_run(log)[:2] == ["pre-commit", "commit-msg"]
    assert path not in git(memory_repo, "diff", "--name-only", "HEAD~1", "HEAD").stdout
    # the fact stays: the commit took HEAD~1's log, not the entry the write left behind
    assert not (memory_repo / BEHIND_PATH).exists()


# --- the reference-transaction hook starts Python only for a move it must check -------------

def test_ordinary_work_never_starts_python_for_the_reference_transaction_hook(
        memory_repo: Path, tmp_path: Path) -> None:
    """A commit or merge the commit-msg hook checked, new branches, tags, checkouts, a stash
    and a reset to where the branch is: the shell test lets them through. An amend is
    checked by Python (commit-msg saw it against the commit it replaces, not its parent)."""
    python, log = logging_python(tmp_path)
    install(memory_repo, python=python)
    stage_note(memory_repo, "first")
    assert commit(memory_repo, "first").returncode == 0
    git(memory_repo, "checkout", "-q", "-b", "topic")
    git(memory_repo, "tag", "v1")
    stage_note(memory_repo, "second")
    assert commit(memory_repo, "second").returncode == 0
    git(memory_repo, "checkout", "-q", "main")
    git(memory_repo, "branch", "other", "topic")
    stamp = now_stamp()
    write(memory_repo, segment(stamp), lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    assert commit(memory_repo, "a fact").returncode == 0
    merged = git(memory_repo, "merge", "-q", "--no-edit", "topic", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    write(memory_repo, "memory/entities/first.md", "unsaved edit\n")
    git(memory_repo, "stash", "-q")
    git(memory_repo, "stash", "pop", "-q")
    git(memory_repo, "reset", "-q", "--hard")
    assert "reference-transaction" not in hooks_run(log)
    amended = git(memory_repo, "commit", "-q", "--amend", "-m", "merge topic", check=False)
    assert amended.returncode == 0, amended.stderr
    assert hooks_run(log).count("reference-transaction") == 1


def test_a_foreign_reference_transaction_hook_gets_gits_lines_and_can_refuse(
        memory_repo: Path, tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    make_executable(hook(memory_repo, "reference-transaction"),
                    f'#!/bin/sh\nlines=$(cat)\necho "$1" >> {seen}\n'
                    f'printf "%s\\n" "$lines" >> {seen}\n'
                    'case "$lines" in *refs/tags/forbidden*) exit 1 ;; esac\nexit 0\n')
    install(memory_repo)
    assert "memrepo hooks run" in hook(memory_repo, "reference-transaction").read_text()
    git(memory_repo, "tag", "allowed")
    assert git(memory_repo, "tag", "forbidden", check=False).returncode != 0
    text = seen.read_text()
    assert "prepared\n" in text and "committed\n" in text and " refs/tags/allowed\n" in text
    assert git(memory_repo, "tag", "--list").stdout.split() == ["allowed"]
