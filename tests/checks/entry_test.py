"""What an entry point of the checks needs: the commit message file, the report."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.checks.entry import read_message_file, report
from memrepo.core.problems import Problem


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
