"""SPEC §6.7 in the clone (memrepo.checks.rewrites, through the installed
reference-transaction hook and real git): a move of the branch that removes or changes
fact-log lines, or brings a commit the checks refuse, is refused — revert, rebase,
cherry-pick, amend, reset, a fast-forward — and the command's own undo puts the clone back;
ordinary commits, merges, checkouts and new branches work as before; doctor and verify
agree with the hook."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from memrepo.facts import writes as store
from tests.support import (
    commit,
    event,
    git,
    lines,
    memrepo,
    no_traceback,
    note,
    now_stamp,
    output,
    segment,
    status,
    write,
)

HOOKS_OFF = ("-c", "core.hooksPath=/dev/null")
"""How a person (or a test) makes a commit no hook checks: verify still refuses it."""
SECRET = "api_key: AKIAIOSFODNN7EXAMPLE\n"


def remember(repo: Path, scope: str, subject: str, relation: str, value: str) -> None:
    assert store.remember(repo, scope=scope, subject=subject, relation=relation,
                          object=value).status == "added"


def clone_state(repo: Path) -> tuple[str, str, dict[str, bytes]]:
    """HEAD, `git status` and every fact log's bytes: what an undo must put back."""
    logs = {path.relative_to(repo).as_posix(): path.read_bytes()
            for path in sorted((repo / "memory" / "facts").rglob("*.jsonl"))}
    return git(repo, "rev-parse", "HEAD").stdout.strip(), status(repo), logs


def refused(done: subprocess.CompletedProcess[str], undo: str) -> str:
    """The refusal's text, after checking it says how to undo and how facts go."""
    text = output(done)
    assert done.returncode != 0, text
    assert "memrepo: refused: refs/heads/main would move" in text, text
    assert f"To undo: {undo}" in text and "`memrepo forget` ends it" in text, text
    assert "`memrepo retract`" in text
    no_traceback(done)
    return text


def doctor_and_verify(repo: Path) -> tuple[bool, bool]:
    """(doctor says healthy, verify passes)."""
    found = memrepo(repo, "doctor", "--json")
    return json.loads(found.stdout)["healthy"], memrepo(repo, "verify").returncode == 0


def with_env(**variables: str) -> dict[str, str]:
    return {**os.environ, **variables}


# --- refused, and undone by the command's own --abort ---------------------------------------

def test_a_revert_of_a_remembered_fact_is_refused_and_revert_abort_restores_the_clone(
        memory_repo: Path) -> None:
    remember(memory_repo, "michal", "car", "colour", "red")
    remember(memory_repo, "michal", "car", "make", "Fiat")
    before = clone_state(memory_repo)
    text = refused(git(memory_repo, "revert", "--no-edit", "HEAD", check=False),
                   "`git revert --abort`")
    assert "committed lines were edited, removed or reordered" in text
    assert "(git revert)" in text
    assert git(memory_repo, "rev-parse", "HEAD").stdout.strip() == before[0]
    doctor = memrepo(memory_repo, "doctor")  # the stopped revert is what doctor reports
    assert doctor.returncode == 1 and "a revert is in progress" in output(doctor)
    git(memory_repo, "revert", "--abort")
    assert clone_state(memory_repo) == before
    assert doctor_and_verify(memory_repo) == (True, True)


def test_several_reverts_at_once_are_refused_and_aborted_alike(memory_repo: Path) -> None:
    remember(memory_repo, "michal", "car", "colour", "red")
    remember(memory_repo, "anna", "cat", "name", "Mruczek")
    before = clone_state(memory_repo)
    refused(git(memory_repo, "revert", "--no-edit", "HEAD", "HEAD~1", check=False),
            "`git revert --abort`")
    git(memory_repo, "revert", "--abort")
    assert clone_state(memory_repo) == before


def test_a_rebase_that_drops_a_commit_is_refused_and_rebase_abort_restores_it(
        memory_repo: Path) -> None:
    remember(memory_repo, "michal", "car", "colour", "red")
    remember(memory_repo, "michal", "car", "make", "Fiat")
    remember(memory_repo, "anna", "cat", "name", "Mruczek")
    before = clone_state(memory_repo)
    [michal] = [path for path in before[2] if "/michal/" in path]
    dropped = json.loads(before[2][michal].splitlines()[1])["id"]
    done = git(memory_repo, "rebase", "-i", "HEAD~2", check=False,
               env=with_env(GIT_SEQUENCE_EDITOR="sed -i 1d"))  # drop the Fiat commit
    text = refused(done, "`git rebase --abort`")
    assert f"{michal}:2: line 2 (event {dropped}), which the branch has, would be " in text
    assert "(git rebase)" in text
    git(memory_repo, "rebase", "--abort")
    assert clone_state(memory_repo) == before
    assert doctor_and_verify(memory_repo) == (True, True)


def test_a_cherry_picked_commit_carrying_a_secret_is_refused(memory_repo: Path) -> None:
    remember(memory_repo, "michal", "car", "colour", "red")
    side_commit_with_a_secret(memory_repo)
    before = clone_state(memory_repo)
    text = refused(git(memory_repo, "cherry-pick", "side", check=False),
                   "`git cherry-pick --abort`")
    assert "memory/references/keys.md:6: looks like a credential" in text
    assert "AKIAIOSFODNN7EXAMPLE" not in text  # a refusal never echoes the secret
    git(memory_repo, "cherry-pick", "--abort")
    assert clone_state(memory_repo) == before
    assert doctor_and_verify(memory_repo) == (True, True)


def test_a_fast_forward_bringing_a_secret_is_refused(memory_repo: Path) -> None:
    side_commit_with_a_secret(memory_repo)
    before = clone_state(memory_repo)
    text = refused(git(memory_repo, "merge", "-q", "side", check=False),
                   "the branch did not move; `git reset --merge`")
    assert "(a fast-forward merge)" in text
    git(memory_repo, "reset", "-q", "--merge")
    assert clone_state(memory_repo) == before


def side_commit_with_a_secret(repo: Path) -> None:
    """A commit on branch `side` that no hook checked, carrying an AWS key id."""
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "memory/references/keys.md",
          note("references", "keys", "The API key of the billing service account at Acme",
               SECRET))
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    git(repo, *HOOKS_OFF, "commit", "-q", "-m", "keys")
    git(repo, "checkout", "-q", "main")


def test_an_amend_that_edits_a_log_line_is_refused(memory_repo: Path) -> None:
    remember(memory_repo, "michal", "car", "colour", "red")
    remember(memory_repo, "michal", "car", "make", "Fiat")
    before = clone_state(memory_repo)
    [log] = before[2]
    (memory_repo / log).write_bytes(before[2][log].replace(b'"red"', b'"blue"'))
    git(memory_repo, "add", "-A")
    by_commit_msg = git(memory_repo, "commit", "--amend", "--no-edit", check=False)
    assert by_commit_msg.returncode == 1 and "committed lines were edited" in by_commit_msg.stderr
    text = refused(git(memory_repo, "commit", "--amend", "--no-edit", "--no-verify",
                       check=False), "the branch did not move; `git reset` unstages")
    assert f"{log}:1: line 1 (event " in text and "(git commit)" in text
    assert text.count(f"{log}:1:") == 1  # the lost line and the commit's own check: said once
    git(memory_repo, "reset", "-q")
    git(memory_repo, "restore", "memory")
    assert clone_state(memory_repo) == before


def test_a_reset_that_drops_a_remembered_fact_is_refused(memory_repo: Path) -> None:
    remember(memory_repo, "michal", "car", "colour", "red")
    before = clone_state(memory_repo)
    refused(git(memory_repo, "reset", "-q", "--hard", "HEAD~1", check=False),
            "the branch did not move; `git reset` puts the index back")
    git(memory_repo, "reset", "-q", "--hard")
    assert clone_state(memory_repo) == before


# --- what still works ------------------------------------------------------------------------

def test_an_amend_that_keeps_every_line_passes(memory_repo: Path) -> None:
    remember(memory_repo, "michal", "car", "colour", "red")
    done = git(memory_repo, "commit", "--amend", "-m", "remember the car's colour", check=False)
    assert done.returncode == 0, output(done)
    assert doctor_and_verify(memory_repo) == (True, True)


def test_merges_checkouts_and_new_branches_still_work(memory_repo: Path) -> None:
    stamp = now_stamp()
    log = segment(stamp)
    write(memory_repo, log, lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    assert commit(memory_repo, "base").returncode == 0
    git(memory_repo, "checkout", "-q", "-b", "side")
    git(memory_repo, "tag", "before-side")
    write(memory_repo, log, lines(event("e1", stamp), event("e3", stamp, object="3")))
    assert commit(memory_repo, "side", "-a").returncode == 0
    git(memory_repo, "checkout", "-q", "-b", "fast", "main")
    write(memory_repo, log, lines(event("e1", stamp), event("e2", stamp, object="2")))
    assert commit(memory_repo, "fast", "-a").returncode == 0
    git(memory_repo, "checkout", "-q", "main")
    git(memory_repo, "branch", "-f", "side-copy", "side")
    fast_forward = git(memory_repo, "merge", "-q", "fast", check=False)  # checked, passes
    assert fast_forward.returncode == 0, output(fast_forward)
    merged = git(memory_repo, "merge", "-q", "--no-edit", "side", check=False)  # union merge
    assert merged.returncode == 0, output(merged)
    assert (memory_repo / log).read_bytes().count(b"\n") == 3
    git(memory_repo, "checkout", "-q", "side-copy")
    skipped = git(memory_repo, "merge", "-q", "--no-edit", "--no-verify", "fast", check=False)
    assert skipped.returncode == 0, output(skipped)  # no commit-msg: the hook checks it all
    git(memory_repo, "checkout", "-q", "main")
    assert status(memory_repo) == ""
    assert doctor_and_verify(memory_repo) == (True, True)


def test_a_commit_no_hook_checked_is_refused_too(memory_repo: Path) -> None:
    """`git commit --no-verify` skips commit-msg; the branch's move is still checked, and
    only turning the hooks off lets the commit in (verify then refuses it)."""
    write(memory_repo, "memory/references/keys.md",
          note("references", "keys", "The API key of the billing service account at Acme",
               SECRET))
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    text = refused(git(memory_repo, "commit", "-q", "--no-verify", "-m", "keys", check=False),
                   "the branch did not move")
    assert "looks like a credential" in text
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-m", "keys")
    assert memrepo(memory_repo, "verify").returncode == 1
