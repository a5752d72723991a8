"""Bad input and a bad environment are refusals, never crashes (SPEC §11: exit 3 only for
the truly unexpected), and no command prints a raw control sequence or a flood."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import add_note, cli, commit, note, output, write

CONTROL_CHARS = ("\x1b", "\x07", "\u202e", "\x00")


def _remember(repo: Path, obj: str) -> None:
    done = cli(repo, "remember", "--scope", "michal", "phone", "number", obj)
    assert done.returncode == 0, output(done)


def _read_only(path: Path) -> Callable[[], object]:
    """Make `path` read-only even for root (chattr +i); skip where that is impossible."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        return lambda: path.chmod(mode)
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot make {path} read-only as root here")
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=False)


def _recall_phone(repo: Path) -> subprocess.CompletedProcess[str]:
    return cli(repo, "recall", "--scope", "michal", "--subject", "phone", "--relation",
               "number", "--json")


def _crashed(done: subprocess.CompletedProcess[str]) -> bool:
    return done.returncode not in (0, 1) or "unexpected error" in output(done)


def test_undecodable_arguments_and_bad_variables_are_refusals(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    refused = {
        "recall": cli(memory_repo, "recall", "--scope", "michal", "--subject", b"\xff",
                      "--relation", "x"),
        "history": cli(memory_repo, "history", "--scope", "michal", b"\xff", "x"),
        "remember": cli(memory_repo, "remember", "--scope", "michal", b"caf\xe9", "b", "c"),
        "lock timeout": cli(memory_repo, "remember", "--scope", "michal", "a", "b", "c",
                            env={**git_env, "MEMREPO_LOCK_TIMEOUT": "abc"}),
        "clock": cli(memory_repo, "recall", "--scope", "michal", "x",
                     env={**git_env, "MEMREPO_NOW": "tomorrow"}),
    }
    assert {what: output(done) for what, done in refused.items()
            if done.returncode != 1 or _crashed(done)} == {}
    assert "not valid UTF-8" in output(refused["recall"])
    assert "MEMREPO_LOCK_TIMEOUT" in output(refused["lock timeout"])


def test_a_damaged_or_read_only_cache_is_answered_or_refused(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    _remember(memory_repo, "+48 600 100 200")
    cache = memory_repo / ".memrepo" / "cache.sqlite"
    cache.unlink(missing_ok=True)
    cache.mkdir()
    folder = _recall_phone(memory_repo)
    assert folder.returncode == 1 and "not a regular file" in output(folder), output(folder)
    cache.rmdir()
    assert _recall_phone(memory_repo).returncode == 0
    for number, path in enumerate((cache, cache.parent), start=1):
        latest = f"+48 600 100 20{number}"
        _remember(memory_repo, latest)  # the cache is behind the files now
        undo = _read_only(path)
        try:
            answered = _recall_phone(memory_repo)
        finally:
            undo()
        assert answered.returncode == 0 and not _crashed(answered), output(answered)
        assert [f["object"] for f in json.loads(answered.stdout)["facts"]] == [latest]
        assert "answering from the files" in answered.stderr


def test_control_sequences_are_refused_or_escaped_and_echoes_are_short(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    hostile = "red\x1b[31mX\x07\u202eevil"
    printed = [
        cli(memory_repo, "remember", "--scope", "michal", "terminal", "colour", hostile),
        cli(memory_repo, "remember", "--scope", "michal", "--batch", "-",
            stdin=json.dumps({"subject": "nul", "relation": "byte", "object": "a\u0000b"})),
        cli(memory_repo, "recall", "--scope", "michal", "--subject", "terminal",
            "--relation", "colour"),
        cli(memory_repo, "recall", "--scope", "michal", "terminal colour"),
        cli(memory_repo, "context", "--scope", "michal", "What colour is the terminal?"),
        cli(memory_repo, "history", "--scope", "michal", "nul", "byte"),
        cli(memory_repo, "remember", "--scope", "michal", "--trust", hostile, "a", "b", "c"),
    ]
    assert [done.returncode for done in printed[:2]] == [1, 1]
    assert "U+001B" in output(printed[0]) and "U+0000" in output(printed[1])
    raw = [(done.args[5:8], char) for done in printed for char in CONTROL_CHARS
           if char in output(done)]
    assert raw == []
    huge = cli(memory_repo, "remember", "--scope", "michal", "big", "value", "A" * 60_000)
    assert huge.returncode == 1 and len(output(huge)) < 2_000, len(output(huge))


def test_stored_control_sequences_are_printed_escaped(memory_repo: Path,
                                                      git_env: dict[str, str]) -> None:
    """A committed note's body (set the terminal title, clear the screen) and a log line
    committed past the hooks reach the terminal escaped."""
    write(memory_repo, "memory/entities/printer.md", note(
        "entities", "printer", "Office printer colour profile for the Lodz warehouse labels",
        "body \x1b]0;pwned\x07 text \x1b[2J cleared evil\n"))
    add_note(memory_repo, "entities", "lodz", "Lodz warehouse: opening hours and the dock")
    assert commit(memory_repo, "printer").returncode == 0
    found = cli(memory_repo, "search", "cleared")
    assert found.returncode == 0 and "cleared" in found.stdout, output(found)
    shown = cli(memory_repo, "context", "--scope", "michal", "printer colour profile")
    assert "printer" in shown.stdout, output(shown)
    for done in (found, shown):
        assert not [c for c in CONTROL_CHARS if c in done.stdout], done.stdout
