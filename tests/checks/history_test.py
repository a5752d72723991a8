"""`memrepo verify`: history re-checked, merges, SSH signatures on rule commits."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support import (
    HOOKS_OFF,
    add_note,
    commit,
    event,
    git,
    lines,
    memrepo,
    now_stamp,
    segment,
    write,
)


def test_a_commit_made_with_no_verify_is_reported(memory_repo: Path) -> None:
    assert memrepo(memory_repo, "verify").returncode == 0
    stamp = now_stamp()
    write(memory_repo, segment(stamp), lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    assert commit(memory_repo, "fact").returncode == 0
    write(memory_repo, segment(stamp), b"rewritten\n")
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-am", "sneaky")
    short = git(memory_repo, "rev-parse", "--short", "HEAD").stdout.strip()
    done = memrepo(memory_repo, "verify")
    assert done.returncode == 1
    assert done.stdout.startswith(f"{short} {segment(stamp)}:1: committed lines were edited")
    assert "To fix:" in done.stdout and "Traceback" not in done.stdout + done.stderr
    assert memrepo(memory_repo, "verify", "HEAD~2..HEAD~1").returncode == 0


def test_a_union_merge_of_two_appends_verifies(memory_repo: Path) -> None:
    stamp = now_stamp()
    log = segment(stamp)
    write(memory_repo, log, lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    assert commit(memory_repo, "base").returncode == 0
    git(memory_repo, "checkout", "-q", "-b", "side")
    write(memory_repo, log, lines(event("e1", stamp), event("e3", stamp, object="3")))
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-am", "side")
    git(memory_repo, "checkout", "-q", "main")
    write(memory_repo, log, lines(event("e1", stamp), event("e2", stamp, object="2")))
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-am", "main")
    merged = git(memory_repo, "merge", "-m", "merge side", "side", check=False)  # hooks run
    assert merged.returncode == 0, merged.stderr
    assert (memory_repo / log).read_bytes().count(b"\n") == 3
    done = memrepo(memory_repo, "verify")
    assert done.returncode == 0, done.stdout + done.stderr
    write(memory_repo, log, lines(event("e1", stamp), event("e2", stamp, object="2")))
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "--amend", "-am", "merge dropping e3")
    done = memrepo(memory_repo, "verify")
    assert done.returncode == 1 and "lost or reordered line 2 of parent 2" in done.stdout


def ssh_key(tmp_path: Path, name: str) -> tuple[Path, str]:
    key = tmp_path / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)],
                   check=True)
    return key, (tmp_path / f"{name}.pub").read_text().strip()


def signed_commit(repo: Path, key: Path, message: str) -> subprocess.CompletedProcess[str]:
    return git(repo, "-c", "gpg.format=ssh", "-c", f"user.signingkey={key}", "commit", "-q",
               "-S", "-m", message, check=False)


@pytest.mark.skipif(subprocess.run(["which", "ssh-keygen"], capture_output=True).returncode,
                    reason="needs ssh-keygen")
def test_rule_commits_must_be_signed_by_an_allowed_key(memory_repo: Path,
                                                       tmp_path: Path) -> None:
    allowed, allowed_pub = ssh_key(tmp_path, "allowed")
    stranger, _ = ssh_key(tmp_path, "stranger")
    write(memory_repo, ".memrepo-allowed-signers",
          f'ann@example.com namespaces="git" {allowed_pub}\n')
    git(memory_repo, "add", "-A")
    assert signed_commit(memory_repo, allowed, "signers\n\nApproved-by: ann@example.com"
                         ).returncode == 0
    base = git(memory_repo, "rev-parse", "HEAD").stdout.strip()
    add_note(memory_repo, "rules", "sign-rules", "Rule commits: sign them with an SSH key "
             "listed in .memrepo-allowed-signers")
    assert signed_commit(memory_repo, stranger, "touch rules\n\nApproved-by: ann@example.com"
                         ).returncode == 0
    done = memrepo(memory_repo, "verify", "--require-signatures", f"{base}..HEAD")
    assert done.returncode == 1 and "without an SSH signature" in done.stdout
    kept = memrepo(memory_repo, "verify", f"{base}..HEAD")  # the signers file asks it
    assert kept.returncode == 1 and "without an SSH signature" in kept.stdout
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "--amend", "--no-edit", "--no-gpg-sign")
    assert memrepo(memory_repo, "verify", "--require-signatures", f"{base}..HEAD"
                   ).returncode == 1
    amended = git(memory_repo, "-c", "gpg.format=ssh", "-c", f"user.signingkey={allowed}",
                  "commit", "-q", "--amend", "--no-edit", "--no-verify", "-S", check=False)
    assert amended.returncode == 0, amended.stderr
    done = memrepo(memory_repo, "verify", "--require-signatures", f"{base}..HEAD")
    assert done.returncode == 0, done.stdout + done.stderr
    unsigned_history = memrepo(memory_repo, "verify", "--require-signatures")
    assert unsigned_history.returncode == 1  # the first commit (by init) is not signed


def test_commits_dated_by_a_clock_pinned_ahead_are_not_refused(
        memory_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MEMREPO_NOW ahead of the real clock dates memrepo's own commits by it (their events
    must not be recorded after their commit): verify must not call them future-dated."""
    monkeypatch.setenv("MEMREPO_NOW", "2030-01-01T00:00:00Z")
    from memrepo.facts.writes import remember

    remember(memory_repo, scope="michal", subject="car", relation="colour", object="red")
    done = memrepo(memory_repo, "verify")
    assert done.returncode == 0, done.stdout + done.stderr
