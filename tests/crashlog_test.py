"""The crash log (memrepo.crashlog) lives under a fixed name in a shared folder: it is
never opened through a link another user planted there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memrepo.crashlog import write_crash_log


def _crash(monkeypatch: pytest.MonkeyPatch, directory: Path) -> Path | None:
    monkeypatch.setenv("MEMREPO_LOG_DIR", str(directory))
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        return write_crash_log("memrepo test")


def test_the_traceback_goes_to_the_log(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    log = _crash(monkeypatch, tmp_path)
    assert log == tmp_path / f"memrepo-error-{os.getuid()}.log"
    assert "RuntimeError: boom" in log.read_text(encoding="utf-8")
    assert log.stat().st_mode & 0o077 == 0


def test_a_planted_link_is_never_followed(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious\n", encoding="utf-8")
    (tmp_path / f"memrepo-error-{os.getuid()}.log").symlink_to(victim)
    log = _crash(monkeypatch, tmp_path)
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert log is not None and log.parent == tmp_path and not log.is_symlink()
    assert "RuntimeError: boom" in log.read_text(encoding="utf-8")


def test_a_planted_fifo_does_not_block(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    os.mkfifo(tmp_path / f"memrepo-error-{os.getuid()}.log")
    log = _crash(monkeypatch, tmp_path)
    assert log is not None and "RuntimeError: boom" in log.read_text(encoding="utf-8")
