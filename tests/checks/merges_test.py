"""A merge is checked before its commit is made (issue 10 #4): `git merge` and `git pull`
run commit-msg, where every merged-in commit is checked like `memrepo verify` checks it,
plus the merge's own change and the union-merge rule for logs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support import HOOKS_OFF, add_note, commit, event, git, lines, now_stamp, segment, write

APPROVED = "\n\nApproved-by: Ann Example <ann@example.com>\n"
RULE_DESCRIPTION = "Replies to suppliers: always confirm orders in writing within a day"


def output(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout + done.stderr


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def branch_with_rule(repo: Path, message: str) -> None:
    git(repo, "switch", "-q", "-c", "feature")
    add_note(repo, "rules", "confirm-in-writing", RULE_DESCRIPTION)
    git(repo, *HOOKS_OFF, "commit", "-q", "-m", message)
    git(repo, "switch", "-q", "main")


def test_merging_an_unapproved_rule_is_refused_and_nothing_is_committed(
        memory_repo: Path) -> None:
    branch_with_rule(memory_repo, "rule without approval")
    before = head(memory_repo)
    merged = git(memory_repo, "merge", "--no-ff", "--no-edit", "feature", check=False)
    assert merged.returncode != 0, output(merged)
    assert "Approved-by" in output(merged) and "(commit " in output(merged)
    assert head(memory_repo) == before


def test_merging_approved_work_goes_through(memory_repo: Path) -> None:
    branch_with_rule(memory_repo, "rule" + APPROVED)
    merged = git(memory_repo, "merge", "--no-ff", "--no-edit", "feature", check=False)
    assert merged.returncode == 0, output(merged)
    assert len(git(memory_repo, "log", "--format=%P", "-1").stdout.split()) == 2


def test_a_conflicted_merge_is_checked_when_git_commit_concludes_it(
        memory_repo: Path) -> None:
    branch_with_rule(memory_repo, "rule without approval")
    add_note(memory_repo, "rules", "reply-in-polish",
             "Language of replies: answer in Polish unless the person wrote in English")
    commit(memory_repo, "polish" + APPROVED)
    merged = git(memory_repo, "merge", "--no-edit", "feature", check=False)
    assert merged.returncode != 0  # memory/rules/INDEX.md conflicts
    add_note(memory_repo, "rules", "reply-in-polish",
             "Language of replies: answer in Polish unless the person wrote in English")
    concluded = commit(memory_repo, "merge feature")
    assert concluded.returncode != 0 and "Approved-by" in output(concluded)
    assert (memory_repo / ".git" / "MERGE_HEAD").exists()


def test_a_merge_that_drops_lines_of_a_log_is_refused(memory_repo: Path) -> None:
    stamp = now_stamp()
    log = segment(stamp)
    write(memory_repo, log, lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    commit(memory_repo, "first")
    git(memory_repo, "switch", "-q", "-c", "feature")
    write(memory_repo, log, lines(event("e1", stamp), event("e2", stamp, object="220 zł")))
    assert commit(memory_repo, "theirs", "-a").returncode == 0
    git(memory_repo, "switch", "-q", "main")
    write(memory_repo, log, lines(event("e1", stamp), event("e3", stamp, object="230 zł")))
    assert commit(memory_repo, "ours", "-a").returncode == 0
    dropped = git(memory_repo, "merge", "--no-edit", "-s", "ours", "feature", check=False)
    assert dropped.returncode != 0, output(dropped)
    assert "lost or reordered line 2 of parent 2" in output(dropped)
    git(memory_repo, "merge", "--abort")
    union = git(memory_repo, "merge", "--no-edit", "feature", check=False)
    assert union.returncode == 0, output(union)
