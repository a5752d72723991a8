"""Real `git commit`s through the hooks `memrepo init` installed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support import (
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

RULE = "memory/rules/reply-in-polish.md"


def refused(done: subprocess.CompletedProcess[str], *expected: str) -> str:
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "To fix:" in output and "Traceback" not in output
    for text in expected:
        assert text in output
    return output


def accepted(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_rule_needs_an_approval_by_a_configured_approver(memory_repo: Path) -> None:
    add_note(memory_repo, "rules", "reply-in-polish",
             "Language of replies: answer in Polish unless the person wrote in English")
    refused(commit(memory_repo, "rule"), f"{RULE}: changes to rules",
            "Approved-by: <approver>")
    refused(commit(memory_repo, "rule\n\nApproved-by: Bob <bob@example.com>"),
            "names no approver")
    accepted(commit(memory_repo, "rule\n\nApproved-by: ann@example.com"))


def test_removing_a_note_must_be_explained(memory_repo: Path) -> None:
    add_note(memory_repo, "entities", "acme", "Supplier of boxes: minimum order 500, "
             "lead time two weeks")
    accepted(commit(memory_repo, "acme"))
    git(memory_repo, "rm", "-q", "memory/entities/acme.md")
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    refused(commit(memory_repo, "drop acme"),
            "memory/entities/acme.md: note 'acme' is removed from entities")
    accepted(commit(memory_repo, "drop acme\n\nRemoved: acme: the company closed"))


def test_fact_logs_are_append_only_and_timed(memory_repo: Path) -> None:
    stamp = now_stamp()
    log = segment(stamp)
    write(memory_repo, log, lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    accepted(commit(memory_repo, "first fact"))

    write(memory_repo, log, lines(event("e1", stamp, object="999 zł")))
    refused(commit(memory_repo, "edit", "-a"), f"{log}:1: committed lines were edited")
    git(memory_repo, "checkout", "--", log)

    old_month = "2020-01-01T00:00:00Z"
    write(memory_repo, segment(old_month), lines(event("e0", old_month)))
    git(memory_repo, "add", "-A")
    refused(commit(memory_repo, "old fact"), f"{segment(old_month)}:1: recorded_at",
            "Imported-from:")
    accepted(commit(memory_repo, "old fact\n\nImported-from: paper notebook"))


def test_commit_a_and_commit_path_check_the_index_git_commits(memory_repo: Path) -> None:
    stamp = now_stamp()
    log, other = segment(stamp), segment(stamp, scope="anna")
    write(memory_repo, log, lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    accepted(commit(memory_repo, "first fact"))
    write(memory_repo, log, lines(event("e1", stamp, object="999 zł")))  # a bad edit
    write(memory_repo, other, lines(event("a1", stamp, scope="anna")))  # a good new log
    git(memory_repo, "add", other)
    refused(commit(memory_repo, "all of it", "-a"), f"{log}:1")
    accepted(commit(memory_repo, "only anna", "--", other))
    assert git(memory_repo, "status", "--porcelain").stdout.strip() == f"M {log}"
