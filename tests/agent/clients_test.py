"""Which `memrepo` a client's snippet names: the installed one this process runs from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.agent.clients import memrepo_command


def _script(folder: Path, name: str = "memrepo", mode: int = 0o755) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    path.chmod(mode)
    return path


def test_the_script_it_was_started_as_made_absolute(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    started = _script(tmp_path / "venv" / "bin")
    monkeypatch.chdir(tmp_path)
    assert memrepo_command("venv/bin/memrepo", []) == [str(started)]


def test_python_m_memrepo_names_the_interpreters_own_script(tmp_path: Path) -> None:
    """`python -m memrepo` starts from memrepo/__main__.py: the interpreter's scripts folder
    has the console script; a file named memrepo that cannot run is passed over."""
    _script(tmp_path / "first", mode=0o644)
    found = _script(tmp_path / "second")
    assert memrepo_command("/x/memrepo/__main__.py",
                           [tmp_path / "missing", tmp_path / "first", tmp_path / "second"],
                           ) == [str(found)]


def test_without_a_script_the_interpreter_runs_the_module(tmp_path: Path) -> None:
    assert memrepo_command("/x/memrepo/__main__.py", [tmp_path]) == [
        str(Path(sys.executable).absolute()), "-m", "memrepo"]


def test_the_command_found_for_this_process_runs() -> None:
    command = memrepo_command()
    assert Path(command[0]).is_absolute()
    done = subprocess.run([*command, "--version"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and done.stdout.startswith("memrepo "), done.stderr
