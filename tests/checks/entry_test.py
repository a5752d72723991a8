"""What an entry point of the checks needs: the commit message file, the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.check_support import read_message_file, report
from memrepo.checks.entry import hook_checks
from memrepo.core.problems import Problem
from tests.support import git, write


def test_read_message_file_drops_the_verbose_diff(tmp_path: Path) -> None:
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text("Subject\n\nApproved-by: ann@example.com\n# comment\n"
                       "# ------------------------ >8 ------------------------\n"
                       "diff --git a/x b/x\nApproved-by: mallory@example.com\n")
    text = read_message_file(message)
    assert "mallory" not in text and "Approved-by: ann@example.com" in text


def test_report_prints_each_problem_and_returns_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert report([]) == 0
    assert report([Problem("a.md", "bad", "fix it", 3)]) == 1
    err = capsys.readouterr().err
    assert "a.md:3: bad\n  To fix: fix it" in err


def test_the_hooks_check_everything_at_commit_msg_only(
        memory_repo: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(memory_repo)
    write(memory_repo, "memory/entities/bad.md", "no header\n")
    git(memory_repo, "add", "-A")
    message = memory_repo / ".git" / "COMMIT_EDITMSG"
    message.write_text("bad note\n", encoding="utf-8")
    assert hook_checks("pre-commit", []) == 0
    assert hook_checks("pre-merge-commit", []) == 0
    assert hook_checks("commit-msg", [str(message)]) == 1
    err = capsys.readouterr().err
    assert "memory/entities/bad.md" in err and f"git commit -e -F {message}" in err
    assert hook_checks("commit-msg", []) == 1
